package engine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot/game"
)

// Pool runs the processes of one configured engine: at most MaxProcesses
// at a time, handed to requests first come first served, each stopped
// after IdleTimeout unused. Processes are shared between games; before
// each request the process is brought to that request's position (see
// Move). All methods are safe for concurrent use.
type Pool struct {
	cfg    Config
	log    *slog.Logger
	closed chan struct{}

	mu      sync.Mutex
	idle    []*proc // oldest first
	running int     // processes started or being started, busy or idle
	queue   []*waiter
	isClose bool
	caps    caps
}

// waiter is a request queued for a process. It receives an idle process,
// or nil: a free slot to start one in.
type waiter struct{ ch chan *proc }

// caps is what the pool learned about the engine, shared by its processes.
type caps struct {
	ident    string
	commands map[string]bool
	sizes    map[int]error // boardsize answers
	suicide  *bool         // accepts a suicide
	noKo     *bool         // accepts an immediate ko recapture
}

// New returns a pool for the engine cfg describes; no process starts
// until one is needed. Engine stderr and refused moves go to log (nil:
// slog.Default()).
func New(cfg Config, log *slog.Logger) (*Pool, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	return &Pool{cfg: cfg.withDefaults(), log: log.With("engine", cfg.Name), closed: make(chan struct{})}, nil
}

// Name returns the engine's configured name.
func (p *Pool) Name() string { return p.cfg.Name }

// Config returns the engine's configuration with defaults filled in.
func (p *Pool) Config() Config { return p.cfg }

// Running returns how many engine processes are running.
func (p *Pool) Running() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.running
}

// Close stops every process; requests in progress end with ErrClosed or
// the error of their stopped process.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.isClose {
		p.mu.Unlock()
		return nil
	}
	p.isClose = true
	close(p.closed)
	idle := p.idle
	p.idle = nil
	p.running -= len(idle)
	p.mu.Unlock()
	for _, pr := range idle {
		pr.idle.Stop()
		pr.quit()
	}
	return nil
}

// launch returns the arguments a process for level is started with, and
// the key under which such processes are pooled.
func (p *Pool) launch(level int) ([]string, string) {
	args := append(slices.Clone(p.cfg.Args), p.cfg.Levels[level].Args...)
	return args, strings.Join(args, "\x00")
}

// acquire waits for a process for key (any process when any is true),
// preferring the idle one whose position shares most with want. It
// returns nil when the caller may start a process.
func (p *Pool) acquire(ctx context.Context, key string, any bool, want []string) (*proc, error) {
	p.mu.Lock()
	if p.isClose {
		p.mu.Unlock()
		return nil, ErrClosed
	}
	if len(p.queue) == 0 {
		best, bestN := -1, -1
		for i, pr := range p.idle {
			if !any && pr.key != key {
				continue
			}
			if n := commonPrefix(pr.script, want); n > bestN {
				best, bestN = i, n
			}
		}
		if best >= 0 {
			pr := p.idle[best]
			p.idle = slices.Delete(p.idle, best, best+1)
			pr.idle.Stop()
			p.mu.Unlock()
			return pr, nil
		}
		if p.running < p.cfg.MaxProcesses {
			p.running++
			p.mu.Unlock()
			return nil, nil
		}
		if len(p.idle) > 0 { // idle, but started for another level: replace it
			pr := p.idle[0]
			p.idle = p.idle[1:]
			pr.idle.Stop()
			p.mu.Unlock()
			pr.quit()
			return nil, nil
		}
	}
	w := &waiter{ch: make(chan *proc, 1)}
	p.queue = append(p.queue, w)
	p.mu.Unlock()
	select {
	case pr := <-w.ch:
		return pr, nil
	case <-ctx.Done():
	case <-p.closed:
	}
	p.mu.Lock()
	if i := slices.Index(p.queue, w); i >= 0 {
		p.queue = slices.Delete(p.queue, i, i+1)
		p.mu.Unlock()
	} else { // granted meanwhile: pass it on
		p.mu.Unlock()
		p.release(<-w.ch)
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, fmt.Errorf("%w: engine %s: no process became free before the deadline (%d running)", ErrTimeout, p.cfg.Name, p.cfg.MaxProcesses)
	}
	if ctx.Err() != nil {
		return nil, fmt.Errorf("engine %s: waiting for a free process: %w", p.cfg.Name, ctx.Err())
	}
	return nil, ErrClosed
}

// release hands a process (or, for nil or a dead process, its slot) to
// the first waiting request, or keeps it idle.
func (p *Pool) release(pr *proc) {
	if pr != nil && pr.dead != nil {
		pr = nil
	}
	p.mu.Lock()
	if len(p.queue) > 0 && !p.isClose {
		w := p.queue[0]
		p.queue = p.queue[1:]
		p.mu.Unlock()
		w.ch <- pr
		return
	}
	if pr == nil || p.isClose {
		p.running--
		p.mu.Unlock()
		if pr != nil {
			pr.quit()
		}
		return
	}
	pr.idle = time.AfterFunc(p.cfg.IdleTimeout, func() { p.expire(pr) })
	p.idle = append(p.idle, pr)
	p.mu.Unlock()
}

// expire stops a process that stayed idle for IdleTimeout.
func (p *Pool) expire(pr *proc) {
	p.mu.Lock()
	i := slices.Index(p.idle, pr)
	if i < 0 {
		p.mu.Unlock()
		return
	}
	p.idle = slices.Delete(p.idle, i, i+1)
	p.mu.Unlock()
	p.log.Debug("stopping idle engine process")
	pr.quit()
	p.release(nil) // its slot, to a request that queued meanwhile
}

// run gives fn a process started for level (any process when any is set)
// that is ready for commands, and returns it to the pool afterwards.
func (p *Pool) run(ctx context.Context, level int, any bool, want []string, fn func(*proc) error) error {
	args, key := p.launch(level)
	pr, err := p.acquire(ctx, key, any, want)
	if err != nil {
		return err
	}
	if pr != nil && !any && pr.key != key {
		pr.quit()
		pr = nil
	}
	if pr != nil {
		select {
		case <-pr.exit: // died while idle: start another
			p.log.Warn("engine process had exited while idle; starting a new one", "status", fmt.Sprint(pr.werr))
			pr.kill()
			pr = nil
		default:
		}
	}
	if pr == nil {
		pr, err = start(ctx, p.cfg.Name, p.cfg.Command, args, key, p.log, p.cfg.CommandTimeout)
		if err != nil {
			p.release(nil)
			return err
		}
		p.mu.Lock()
		if p.caps.commands == nil {
			p.caps.commands, p.caps.ident = pr.commands, pr.ident
			p.log.Info("engine started", "ident", pr.ident)
		}
		p.mu.Unlock()
	}
	defer p.release(pr)
	return fn(pr)
}

func commonPrefix(a, b []string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// Info is what an engine says about itself.
type Info struct {
	Ident    string   // name and version, "GNU Go 3.8"
	Commands []string // from list_commands, sorted
}

// Info starts the engine if it never ran and returns its name, version
// and commands.
func (p *Pool) Info(ctx context.Context) (Info, error) {
	c, err := p.capabilities(ctx, 0)
	if err != nil {
		return Info{}, err
	}
	var cmds []string
	for k := range c.commands {
		cmds = append(cmds, k)
	}
	slices.Sort(cmds)
	return Info{Ident: c.ident, Commands: cmds}, nil
}

// capabilities returns what the pool knows about the engine, starting a
// process to learn its commands the first time.
func (p *Pool) capabilities(ctx context.Context, level int) (caps, error) {
	p.mu.Lock()
	c := p.caps
	p.mu.Unlock()
	if c.commands != nil {
		return c, nil
	}
	if err := p.run(ctx, level, true, nil, func(*proc) error { return nil }); err != nil {
		return caps{}, err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.caps, nil
}

// Check reports whether the engine can play a game of cfg at level,
// before the game starts: square boards only, a size the configuration
// offers and the engine accepts, a configured level whose GTP commands the
// engine knows, and rules it can follow (suicide, immediate ko
// recapture). The error wraps ErrUnsupported with the reason, or the
// engine's own failure. Answers the engine gave are remembered, so only
// the first check of a kind starts a process.
func (p *Pool) Check(ctx context.Context, cfg game.Config, level int) error {
	name := p.cfg.Name
	if cfg.Width != cfg.Height {
		return fmt.Errorf("%w: %s plays square boards only, not %s", ErrUnsupported, name, game.SizeString(cfg.Width, cfg.Height))
	}
	size := cfg.Width
	if len(p.cfg.Sizes) > 0 && !slices.Contains(p.cfg.Sizes, size) {
		return fmt.Errorf("%w: %s plays %s boards, not %s", ErrUnsupported, name, sizeList(p.cfg.Sizes), game.SizeString(size, size))
	}
	if level != 0 {
		if _, ok := p.cfg.Levels[level]; !ok {
			if len(p.cfg.Levels) == 0 {
				return fmt.Errorf("%w: %s has no levels to choose from", ErrUnsupported, name)
			}
			return fmt.Errorf("%w: %s has levels %s, not %d", ErrUnsupported, name, levelList(p.cfg.LevelList()), level)
		}
	}
	c, err := p.capabilities(ctx, level)
	if err != nil {
		return err
	}
	for _, g := range p.cfg.Levels[level].GTP {
		word, _, _ := strings.Cut(strings.TrimSpace(g), " ")
		if !c.commands[word] {
			return fmt.Errorf("%w: level %d needs the GTP command %s, which %s (%s) does not list", ErrUnsupported, level, clip(word), name, c.ident)
		}
	}
	if cfg.Handicap >= 2 && cfg.Rules.Placement != game.PlacementFixed && !c.commands["set_free_handicap"] {
		return fmt.Errorf("%w: %s (%s) cannot take free handicap stones (no set_free_handicap); choose fixed placement", ErrUnsupported, name, c.ident)
	}
	sizeErr, known := c.sizes[size]
	if !known {
		sizeErr = p.probe(ctx, level, func(pr *proc) error {
			_, err := pr.send(ctx, p.cfg.CommandTimeout, fmt.Sprintf("boardsize %d", size))
			return err
		}, func(c *caps, err error) {
			if c.sizes == nil {
				c.sizes = map[int]error{}
			}
			c.sizes[size] = err
		})
		if sizeErr != nil && !errors.Is(sizeErr, ErrRefused) {
			return sizeErr
		}
	}
	if sizeErr != nil {
		return fmt.Errorf("%w: %s does not play %s boards (it answered: %v)", ErrUnsupported, name, game.SizeString(size, size), sizeErr)
	}
	if cfg.Rules.Suicide {
		ok, err := p.probeRule(ctx, level, func(c *caps) **bool { return &c.suicide },
			[]string{"play w a2", "play w b1", "play b a1"})
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: %s rules allow suicide, and %s (%s) refuses suicide moves; choose rules without suicide, like japanese or chinese", ErrUnsupported, cfg.Rules.Name, name, c.ident)
		}
	}
	if cfg.Rules.Ko == game.KoNone {
		ok, err := p.probeRule(ctx, level, func(c *caps) **bool { return &c.noKo },
			[]string{"play b b4", "play w c4", "play b a3", "play w d3", "play b b2", "play w c2", "play w b3", "play b c3", "play w b3"})
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("%w: %s rules let a ko be retaken at once, and %s (%s) refuses that; choose rules with a ko rule, like japanese or chinese", ErrUnsupported, cfg.Rules.Name, name, c.ident)
		}
	}
	return nil
}

// probe runs fn on a process (started for level if one must start) and stores its answer with store. The
// process's board is cleared afterwards.
func (p *Pool) probe(ctx context.Context, level int, fn func(*proc) error, store func(*caps, error)) error {
	var res error
	err := p.run(ctx, level, true, nil, func(pr *proc) error {
		pr.script = nil
		res = fn(pr)
		if res != nil && !errors.Is(res, ErrRefused) {
			return res
		}
		p.mu.Lock()
		store(&p.caps, res)
		p.mu.Unlock()
		return nil
	})
	if err != nil {
		return err
	}
	return res
}

// probeRule plays moves on an empty 5×5 board and reports whether the
// engine accepts the last one (remembered in the field field returns).
func (p *Pool) probeRule(ctx context.Context, level int, field func(*caps) **bool, moves []string) (bool, error) {
	p.mu.Lock()
	known := *field(&p.caps)
	p.mu.Unlock()
	if known != nil {
		return *known, nil
	}
	err := p.probe(ctx, level, func(pr *proc) error {
		for _, c := range append([]string{"boardsize 5", "clear_board"}, moves...) {
			if _, err := pr.send(ctx, p.cfg.CommandTimeout, c); err != nil {
				return err
			}
		}
		return nil
	}, func(c *caps, err error) {
		ok := err == nil
		*field(c) = &ok
	})
	if err != nil && !errors.Is(err, ErrRefused) {
		return false, err
	}
	return err == nil, nil
}

func sizeList(sizes []int) string {
	s := make([]string, len(sizes))
	for i, n := range sizes {
		s[i] = game.SizeString(n, n)
	}
	return joinAnd(s)
}

func levelList(levels []int) string {
	if len(levels) > 2 && levels[len(levels)-1]-levels[0] == len(levels)-1 {
		return fmt.Sprintf("%d to %d", levels[0], levels[len(levels)-1])
	}
	s := make([]string, len(levels))
	for i, l := range levels {
		s[i] = fmt.Sprint(l)
	}
	return joinAnd(s)
}

func joinAnd(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
