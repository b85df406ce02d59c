package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Limits on what an engine may say: a longer line or response is garbage.
const (
	maxLine     = 16 << 10
	maxResponse = 256 << 10
)

// proc is one running engine process spoken to in GTP version 2. Its
// methods are not safe for concurrent use: the pool hands a proc to one
// request at a time.
type proc struct {
	name string // the configured engine name, for messages
	log  *slog.Logger
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *os.File       // read end of the engine's stdout
	resp chan respOrErr // one complete response at a time, from readLoop
	exit chan struct{}  // closed when the process has exited
	werr error          // cmd.Wait's error, valid once exit is closed
	id   int            // id of the last command sent
	dead error          // set once the process is unusable

	// What the engine knows, kept by the position sync.
	key      string          // launch args this process was started with
	commands map[string]bool // from list_commands
	ident    string          // "GNU Go 3.8"
	script   []string        // position commands applied since the last boardsize
	levelCmd []string        // level commands last sent

	idle *time.Timer // stops the process after the pool's idle timeout
}

// errEOF is what readLoop delivers when the engine's output ends.
var errEOF = errors.New("engine output ended")

type respOrErr struct {
	id   int
	ok   bool
	text string
	err  error
}

// start launches the engine with the given arguments and checks that it
// speaks GTP version 2.
func start(ctx context.Context, name, command string, args []string, key string, log *slog.Logger, timeout time.Duration) (*proc, error) {
	cmd := exec.Command(command, args...)
	cmd.WaitDelay = time.Second
	ownGroup(cmd)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdout = w
	cmd.Stderr = &logWriter{log: log}
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("%w: engine %s: cannot start %s: %v", ErrCrashed, name, command, err)
	}
	w.Close()
	p := &proc{name: name, log: log, cmd: cmd, in: in, out: r, key: key,
		resp: make(chan respOrErr), exit: make(chan struct{})}
	go func() {
		p.werr = cmd.Wait()
		close(p.exit)
	}()
	go p.readLoop()
	if err := p.handshake(ctx, timeout); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

func (p *proc) handshake(ctx context.Context, timeout time.Duration) error {
	v, err := p.send(ctx, timeout, "protocol_version")
	if err != nil {
		return err
	}
	if strings.TrimSpace(v) != "2" {
		p.log.Warn("engine speaks another GTP version; carrying on", "engine", p.name, "protocol_version", clip(v))
	}
	name, err := p.send(ctx, timeout, "name")
	if err != nil {
		return err
	}
	version, err := p.send(ctx, timeout, "version")
	if err != nil {
		return err
	}
	p.ident = strings.TrimSpace(clip(name) + " " + clip(version))
	list, err := p.send(ctx, timeout, "list_commands")
	if err != nil {
		return err
	}
	p.commands = map[string]bool{}
	for _, c := range strings.Fields(list) {
		p.commands[c] = true
	}
	for _, c := range []string{"boardsize", "clear_board", "komi", "play", "genmove"} {
		if !p.commands[c] {
			return fmt.Errorf("%w: engine %s (%s) does not list the GTP command %s", ErrProtocol, p.name, p.ident, c)
		}
	}
	return nil
}

// readLoop reads the engine's stdout and delivers one parsed response
// per command.
func (p *proc) readLoop() {
	readResponses(p.out, p.name, func(r respOrErr) bool {
		select {
		case p.resp <- r:
			return true
		case <-p.exit:
			return false
		}
	})
}

// readResponses reads GTP responses from r and hands each to deliver
// until deliver returns false or the input ends (errEOF) or is not GTP
// (ErrProtocol); those end with one last delivery. GTP preprocessing: CR
// and other control characters except HT and LF are dropped, HT becomes
// a space; a response starts with '=' or '?' and ends with an empty line.
func readResponses(r io.Reader, name string, deliver func(respOrErr) bool) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), maxLine)
	var cur []string
	size := 0
	started := false
	for sc.Scan() {
		line := clean(sc.Text())
		if !started {
			if strings.TrimSpace(line) == "" {
				continue // blank lines between responses
			}
			if line[0] != '=' && line[0] != '?' {
				deliver(respOrErr{err: fmt.Errorf("%w: engine %s said %q where a response (= or ?) should start", ErrProtocol, name, clip(line))})
				return
			}
			started = true
		}
		if strings.TrimSpace(line) == "" {
			r := parseResponse(cur)
			if r.err != nil {
				r.err = fmt.Errorf("%w: engine %s: %v", ErrProtocol, name, r.err)
			}
			if !deliver(r) || r.err != nil {
				return
			}
			cur, size, started = cur[:0], 0, false
			continue
		}
		size += len(line)
		if size > maxResponse {
			deliver(respOrErr{err: fmt.Errorf("%w: engine %s sent a response over %d bytes", ErrProtocol, name, maxResponse)})
			return
		}
		cur = append(cur, line)
	}
	err := sc.Err()
	if errors.Is(err, bufio.ErrTooLong) {
		err = fmt.Errorf("%w: engine %s sent a line over %d bytes", ErrProtocol, name, maxLine)
	} else {
		err = errEOF // EOF or a closed pipe: the process is gone
	}
	deliver(respOrErr{err: err})
}

// clean applies GTP's preprocessing to one line of a response.
func clean(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r < 32 || r == 127 }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\t':
			b.WriteByte(' ')
		case r < 32 || r == 127:
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// parseResponse reads "=[id] text" or "?[id] message" with any further
// lines of a multi-line response.
func parseResponse(lines []string) respOrErr {
	first := lines[0]
	r := respOrErr{ok: first[0] == '=', id: -1}
	rest := first[1:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n > 0 {
		id, err := strconv.Atoi(rest[:n])
		if err != nil {
			return respOrErr{err: fmt.Errorf("response id %q is not a number", clip(rest[:n]))}
		}
		r.id = id
		rest = rest[n:]
	}
	if rest != "" && rest[0] != ' ' {
		return respOrErr{err: fmt.Errorf("response %q: the = or ? and its id must be followed by a space", clip(first))}
	}
	text := strings.TrimSpace(rest)
	if len(lines) > 1 {
		text = strings.TrimSpace(text + "\n" + strings.Join(lines[1:], "\n"))
	}
	r.text = text
	return r
}

// send writes one command and waits for its response until the context
// or the timeout ends. A timeout, a crash or garbage kills the process;
// an error response ("?") is ErrRefused and leaves it usable.
func (p *proc) send(ctx context.Context, timeout time.Duration, command string) (string, error) {
	if p.dead != nil {
		return "", p.dead
	}
	p.id++
	id := p.id
	word, _, _ := strings.Cut(command, " ")
	if _, err := io.WriteString(p.in, strconv.Itoa(id)+" "+command+"\n"); err != nil {
		return "", p.fail(p.crashed(command))
	}
	var timer <-chan time.Time
	if timeout > 0 {
		t := time.NewTimer(timeout)
		defer t.Stop()
		timer = t.C
	}
	began := time.Now()
	select {
	case r := <-p.resp:
		if p.log.Enabled(ctx, slog.LevelDebug) {
			p.log.Debug("gtp", "command", clip(command), "ok", r.ok, "response", clip(r.text), "took", time.Since(began))
		}
		if errors.Is(r.err, errEOF) {
			return "", p.fail(p.crashed(command))
		}
		if r.err != nil {
			return "", p.fail(fmt.Errorf("%w (answering %s)", r.err, word))
		}
		if r.id != id {
			return "", p.fail(fmt.Errorf("%w: engine %s answered %s with id %d, expected %d", ErrProtocol, p.name, word, r.id, id))
		}
		if !r.ok {
			return "", fmt.Errorf("%w: engine %s refused %q: %s", ErrRefused, p.name, clip(command), clip(r.text))
		}
		return r.text, nil
	case <-timer:
		return "", p.fail(fmt.Errorf("%w: engine %s did not answer %s within %s", ErrTimeout, p.name, word, timeout))
	case <-ctx.Done():
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", p.fail(fmt.Errorf("%w: engine %s did not answer %s before the deadline", ErrTimeout, p.name, word))
		}
		return "", p.fail(fmt.Errorf("%w: engine %s stopped while answering %s", ctx.Err(), p.name, word))
	case <-p.exit:
		return "", p.fail(p.crashed(command))
	}
}

// crashed describes the process's exit while it was given command.
func (p *proc) crashed(command string) error {
	select {
	case <-p.exit:
	case <-time.After(2 * time.Second):
	}
	status := "closed its output"
	select {
	case <-p.exit:
		if p.werr != nil {
			status = "exited: " + p.werr.Error()
		} else {
			status = "exited"
		}
	default:
	}
	word, _, _ := strings.Cut(command, " ")
	return fmt.Errorf("%w: engine %s %s during %s", ErrCrashed, p.name, status, word)
}

// fail kills the process and remembers why it is unusable.
func (p *proc) fail(err error) error {
	p.dead = err
	p.kill()
	return err
}

// kill stops the process at once.
func (p *proc) kill() {
	if p.dead == nil {
		p.dead = fmt.Errorf("%w: engine %s was stopped", ErrCrashed, p.name)
	}
	killGroup(p.cmd)
	p.in.Close()
	<-p.exit
	p.out.Close()
}

// quit asks the engine to leave and kills it if it does not within a
// second.
func (p *proc) quit() {
	if p.dead == nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		p.send(ctx, time.Second, "quit")
		cancel()
		p.in.Close()
		select {
		case <-p.exit:
		case <-time.After(time.Second):
		}
	}
	p.kill()
}

// logWriter sends the engine's stderr to the log, a line at a time.
type logWriter struct {
	log *slog.Logger
	mu  sync.Mutex
	buf []byte
}

func (w *logWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, b...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			break
		}
		if line := strings.TrimSpace(clean(string(w.buf[:i]))); line != "" {
			w.log.Info("engine stderr", "line", clip(line))
		}
		w.buf = w.buf[i+1:]
	}
	if len(w.buf) > maxLine {
		w.log.Info("engine stderr", "line", clip(string(w.buf)))
		w.buf = w.buf[:0]
	}
	return len(b), nil
}

// clip shortens what an engine said for messages and logs.
func clip(s string) string {
	const max = 120
	if len(s) <= max {
		return s
	}
	return s[:max] + "…"
}
