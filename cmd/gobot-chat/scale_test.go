package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// TestGobotProcess is not a test: TestScaleProcesses runs this test binary
// again with GOBOT_SCALE_CHILD set to a config file, and then it is a
// `gobot run -config FILE` process.
func TestGobotProcess(t *testing.T) {
	path := os.Getenv("GOBOT_SCALE_CHILD")
	if path == "" {
		t.Skip("a helper process of TestScaleProcesses")
	}
	var stdin io.Reader = strings.NewReader("")
	if os.Getenv("GOBOT_CHILD_STDIN") != "" { // the terminal on a pipe (across_test.go)
		stdin = os.Stdin
	}
	os.Exit(run([]string{"run", "-config", path}, stdin, os.Stdout, os.Stderr))
}

// fakeDiscordAPI stands in for discord.com: it accepts every call and
// keeps the messages the bot posted on its own (reminders, timeouts) by
// game number.
type fakeDiscordAPI struct {
	mu        sync.Mutex
	reminders map[int]int
	timeouts  map[int]int
}

var gameNumber = regexp.MustCompile(`(?i)game #(\d+)`)

func (f *fakeDiscordAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/commands"):
		io.WriteString(w, "[]")
		return
	case strings.HasSuffix(r.URL.Path, "/threads"):
		// No threads: each game stays in its channel.
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"message":"Unknown Channel","code":10003}`)
		return
	case r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/channels/") && strings.HasSuffix(r.URL.Path, "/messages"):
		if m := gameNumber.FindSubmatch(body); m != nil {
			n, _ := strconv.Atoi(string(m[1]))
			f.mu.Lock()
			switch {
			case bytes.Contains(body, []byte("ran out of time")):
				f.timeouts[n]++
			case bytes.Contains(body, []byte("it's your move")):
				f.reminders[n]++
			}
			f.mu.Unlock()
		}
	}
	io.WriteString(w, `{"id":"m1","channel_id":"c1"}`)
}

// scaleProc is one `gobot run` process of the test.
type scaleProc struct {
	addr, config, log string
	cmd               *exec.Cmd
}

func (p *scaleProc) start(t testing.TB) {
	t.Helper()
	logf, err := os.OpenFile(p.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestGobotProcess$")
	p.cmd.Env = append(os.Environ(), "GOBOT_SCALE_CHILD="+p.config)
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logf.Close()
	for deadline := time.Now().Add(60 * time.Second); ; {
		c, err := net.Dial("tcp", p.addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b, _ := os.ReadFile(p.log)
			t.Fatalf("gobot process on %s did not start listening: %v\n%s", p.addr, err, b)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// interactionSender signs interactions like Discord and posts them.
type interactionSender struct {
	priv   ed25519.PrivateKey
	procs  []*scaleProc // addr stays the same across a restart
	noDups bool         // no duplicate deliveries (benchmarks)

	latMu       sync.Mutex
	moveLatency []time.Duration // of acknowledged moves
	nextID      atomic.Int64
	client      *http.Client
}

// outcome of one delivery.
type outcome struct {
	acked     bool   // a public answer: the command was done
	duplicate bool   // "already handled": done by an earlier delivery
	text      string // the answer's text (errors)
	err       error  // transport error (the process died)
}

func (s *interactionSender) post(addr string, body []byte) outcome {
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	resp, err := s.client.Do(req)
	if err != nil {
		return outcome{err: err}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		return outcome{err: err}
	}
	if resp.StatusCode != http.StatusOK {
		return outcome{err: fmt.Errorf("HTTP %d: %s", resp.StatusCode, raw)}
	}
	var out struct {
		Type int
		Data struct {
			Content string
			Flags   int
			Embeds  []struct{ Description string }
		}
	}
	if err := json.Unmarshal(raw, &out); err != nil {
		return outcome{err: err}
	}
	text := out.Data.Content
	for _, e := range out.Data.Embeds {
		text += "\n" + e.Description
	}
	switch {
	case strings.Contains(text, "I already handled that"):
		return outcome{duplicate: true, text: text}
	case out.Data.Flags&64 != 0:
		return outcome{text: text}
	}
	return outcome{acked: true, text: text}
}

// send delivers one interaction (a new ID) to a random process, sometimes
// to two at once (a duplicate delivery), and again to another process
// while the one it reached is down. It returns the combined outcome.
func (s *interactionSender) send(t testing.TB, rng *rand.Rand, user int, channel, sub string, opts string) outcome {
	id := s.nextID.Add(1)
	body := []byte(fmt.Sprintf(`{"id":"%d","application_id":"app","type":2,"token":"tok%d","channel_id":"%s","guild_id":"g1",
		"member":{"user":{"id":"%d","username":"p%d"},"permissions":"0"},
		"data":{"id":"cmd","name":"go","type":1,"options":[{"name":"%s","type":1,"options":[%s]}],
		"resolved":{"users":{"%d":{"id":"%d","username":"p%d"}}}}}`, id, id, channel, user, user, sub, opts, user+1, user+1, user+1))
	for attempt := 0; attempt < 200; attempt++ {
		n := 1
		if !s.noDups && rng.IntN(5) == 0 {
			n = 2
		}
		first := rng.IntN(len(s.procs))
		results := make([]outcome, n)
		var wg sync.WaitGroup
		for k := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[k] = s.post(s.procs[(first+k)%len(s.procs)].addr, body)
			}()
		}
		wg.Wait()
		var got outcome
		down := 0
		for _, r := range results {
			switch {
			case r.acked:
				got = r
			case r.err != nil:
				down++
			case !got.acked && (r.duplicate || !got.duplicate):
				got = r
			}
		}
		if down == n {
			time.Sleep(100 * time.Millisecond) // the process is down: try another
			continue
		}
		return got
	}
	t.Errorf("interaction %d (%s) reached no process", id, sub)
	return outcome{}
}

// scaleGame is one game the test drives, with the moves it planned and
// those whose answer it saw.
type scaleGame struct {
	k       int
	black   int // the white player is black+1
	channel string
	stall   bool     // stop after two moves: the clock must remind and time out
	planned []string // moves in order; played[i] true when acknowledged
	acked   []bool
	done    int  // how many planned moves were done (acknowledged or already handled)
	resign  bool // resigned after the moves
}

// plan gives game moves that capture nothing: black on columns A and B,
// white on H and J.
func planMoves(n int) []string {
	var out []string
	for i := 0; len(out) < n; i++ {
		b := fmt.Sprintf("%c%d", "AB"[i/9%2], i%9+1)
		w := fmt.Sprintf("%c%d", "HJ"[i/9%2], i%9+1)
		out = append(out, b, w)
	}
	return out[:n]
}

var challengeNumber = regexp.MustCompile(`accept #(\d+)`)

func (s *interactionSender) play(t testing.TB, g *scaleGame, seed uint64, progress *atomic.Int64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	var chID string
	for chID == "" {
		o := s.send(t, rng, g.black, g.channel, "challenge",
			fmt.Sprintf(`{"name":"player","type":6,"value":"%d"},{"name":"size","type":3,"value":"9"},{"name":"color","type":3,"value":"black"},{"name":"clock","type":3,"value":"1m"}`, g.black+1))
		if t.Failed() {
			return
		}
		if m := challengeNumber.FindStringSubmatch(o.text); o.acked && m != nil {
			chID = m[1]
		}
	}
	if o := s.send(t, rng, g.black+1, g.channel, "accept", `{"name":"challenge","type":3,"value":"#`+chID+`"}`); !o.acked && !o.duplicate {
		t.Errorf("game %d: accept: %s", g.k, o.text)
		return
	}
	n := len(g.planned)
	if g.stall {
		n = 2
	}
	for i := 0; i < n; i++ {
		user := g.black + i%2
		t0 := time.Now()
		o := s.send(t, rng, user, g.channel, "play", `{"name":"point","type":3,"value":"`+g.planned[i]+`"}`)
		if o.acked {
			s.latMu.Lock()
			s.moveLatency = append(s.moveLatency, time.Since(t0))
			s.latMu.Unlock()
		}
		if !o.acked && !o.duplicate {
			t.Errorf("game %d: move %d %s refused: %s", g.k, i+1, g.planned[i], o.text)
			return
		}
		g.acked[i] = o.acked
		g.done = i + 1
		progress.Add(1)
	}
	if g.stall {
		return
	}
	o := s.send(t, rng, g.black+n%2, g.channel, "resign", "")
	if !o.acked && !o.duplicate {
		t.Errorf("game %d: resign refused: %s", g.k, o.text)
		return
	}
	g.resign = true
}

// Three gobot processes on one PostgreSQL database answer signed Discord
// interactions sent to a random process each, some delivered twice; one
// process is killed (SIGKILL) and restarted while the games go on. Then
// every acknowledged move is stored exactly once, every game replays, and
// every reminder and timeout was sent once. GOBOT_SCALE_GAMES sets the
// number of games (20 by default).
func TestScaleProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three gobot processes and waits for a one-minute clock to run out")
	}
	t.Parallel() // mostly waiting for clocks and leases
	dsn := pgtest.Fresh(t)
	games := 20
	if v := os.Getenv("GOBOT_SCALE_GAMES"); v != "" {
		var err error
		if games, err = strconv.Atoi(v); err != nil || games < 4 {
			t.Fatalf("GOBOT_SCALE_GAMES=%q: want a number of games, at least 4", v)
		}
	}
	api := &fakeDiscordAPI{reminders: map[int]int{}, timeouts: map[int]int{}}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	s := startProcs(t, 3, dsn, srv.URL, "clock:\n  reminders: [20s]\n  tick: 1s\n")
	all := make([]*scaleGame, games)
	for k := range all {
		g := &scaleGame{k: k, black: 100000 + 2*k, channel: fmt.Sprintf("c%d", k), stall: k%5 == 0,
			planned: planMoves(6 + k%14)}
		g.acked = make([]bool, len(g.planned))
		all[k] = g
	}
	var progress atomic.Int64
	total := 0
	for _, g := range all {
		if !g.stall {
			total += len(g.planned)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	sem := make(chan struct{}, 16) // players at once
	for _, g := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			s.play(t, g, uint64(g.k), &progress)
		}()
	}
	// Kill one process (no goodbye) a third of the way in, and restart it.
	for progress.Load() < int64(total/3) && !t.Failed() && time.Since(start) < 5*time.Minute {
		time.Sleep(20 * time.Millisecond)
	}
	victim := s.procs[1]
	victim.cmd.Process.Signal(syscall.SIGKILL)
	victim.cmd.Wait()
	victim.start(t)
	wg.Wait()
	if t.Failed() {
		return
	}
	played := time.Since(start)

	// The stalled games' clocks: a one-minute move, reminded at 20 s left.
	deadline := time.Now().Add(3 * time.Minute)
	for {
		api.mu.Lock()
		timedOut := 0
		for _, n := range api.timeouts {
			timedOut += n
		}
		api.mu.Unlock()
		if timedOut == (games+4)/5 || time.Now().After(deadline) {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	time.Sleep(3 * time.Second) // a second sending, if any, would come now

	store, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	moves, acked := 0, 0
	api.mu.Lock()
	defer api.mu.Unlock()
	for _, g := range all {
		var sgs []*gobot.Match
		if err := store.View(context.Background(), func(tx gobot.Tx) error {
			var err error
			sgs, err = tx.RoomGames(gobot.RoomID("discord:"+g.channel), false)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if len(sgs) != 1 {
			t.Errorf("channel %s: %d games, want 1", g.channel, len(sgs))
			continue
		}
		match := sgs[0]
		rg, err := game.Replay(match.Record)
		if err != nil {
			t.Errorf("game #%d does not replay: %v", match.ID, err)
			continue
		}
		var stored []string
		for _, m := range rg.Moves() {
			stored = append(stored, m.Point.GTP(9))
		}
		if want := g.planned[:g.done]; strings.Join(stored, " ") != strings.Join(want, " ") {
			t.Errorf("game #%d: stored moves %v, the test played %v", match.ID, stored, want)
		}
		for i, a := range g.acked[:g.done] {
			if a {
				acked++
				if c := strings.Count(" "+strings.Join(stored, " ")+" ", " "+g.planned[i]+" "); c != 1 {
					t.Errorf("game #%d: acknowledged move %s stored %d times", match.ID, g.planned[i], c)
				}
			}
		}
		moves += len(stored)
		id := int(match.ID)
		switch {
		case g.stall:
			if match.Result != "W+T" && match.Result != "B+T" {
				t.Errorf("stalled game #%d: result %q, want a timeout", id, match.Result)
			}
			if api.reminders[id] != 1 || api.timeouts[id] != 1 {
				t.Errorf("stalled game #%d: %d reminders and %d timeout messages sent, want 1 and 1", id, api.reminders[id], api.timeouts[id])
			}
		default:
			if !strings.HasSuffix(match.Result, "+R") {
				t.Errorf("game #%d: result %q, want a resignation", id, match.Result)
			}
			if api.timeouts[id] != 0 || api.reminders[id] > g.done {
				t.Errorf("game #%d (%d moves): %d reminders and %d timeout messages", id, g.done, api.reminders[id], api.timeouts[id])
			}
		}
	}
	t.Logf("%d games, %d moves stored (%d acknowledged, the rest answered by a killed process or a duplicate delivery) in %v with 3 processes",
		games, moves, acked, played.Round(time.Millisecond))
}

// startProcs starts n gobot processes on the database dsn, in Discord
// HTTP mode with the fake API at apiURL; extra is more config.
func startProcs(t testing.TB, n int, dsn, apiURL, extra string) *interactionSender {
	return startProcsAt(t, n, dsn, func(int) string { return apiURL }, extra)
}

// startProcsAt is startProcs with process i's Discord API at apiURL(i).
func startProcsAt(t testing.TB, n int, dsn string, apiURL func(i int) string, extra string) *interactionSender {
	pub, priv, _ := ed25519.GenerateKey(nil)
	dir := t.TempDir()
	s := &interactionSender{priv: priv, client: &http.Client{Timeout: 60 * time.Second}}
	for i := range n {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		p := &scaleProc{addr: ln.Addr().String(), config: filepath.Join(dir, fmt.Sprintf("gobot%d.yaml", i)), log: filepath.Join(dir, fmt.Sprintf("gobot%d.log", i))}
		ln.Close()
		cfg := fmt.Sprintf(`storage:
  driver: postgres
  dsn: %q
log:
  level: warn
%sdiscord:
  enabled: true
  mode: http
  token: tok
  application_id: app
  public_key: %s
  listen: %s
  api_url: %s/api/v9/
`, dsn, extra, hex.EncodeToString(pub), p.addr, apiURL(i))
		if err := os.WriteFile(p.config, []byte(cfg), 0o600); err != nil {
			t.Fatal(err)
		}
		p.start(t)
		s.procs = append(s.procs, p)
	}
	t.Cleanup(func() {
		for _, p := range s.procs {
			p.cmd.Process.Kill()
			p.cmd.Wait()
		}
		if t.Failed() {
			for _, p := range s.procs {
				b, _ := os.ReadFile(p.log)
				t.Logf("%s:\n%s", p.log, b)
			}
		}
	})
	return s
}

// BenchmarkProcessMoves plays moves through 1 or 3 gobot processes on one
// PostgreSQL database (16 games at once, signed Discord interactions to a
// random process each) and reports acknowledged moves per second and the
// p50/p99 of a move's answer time, measured by the sender.
func BenchmarkProcessMoves(b *testing.B) {
	for _, procs := range []int{1, 3} {
		b.Run(fmt.Sprintf("procs=%d", procs), func(b *testing.B) {
			dsn := pgtest.Fresh(b)
			srv := httptest.NewServer(&fakeDiscordAPI{reminders: map[int]int{}, timeouts: map[int]int{}})
			defer srv.Close()
			s := startProcs(b, procs, dsn, srv.URL, "")
			s.noDups = true
			const perGame = 30
			games := (b.N + perGame - 1) / perGame
			var progress atomic.Int64
			sem := make(chan struct{}, 16)
			var wg sync.WaitGroup
			b.ResetTimer()
			start := time.Now()
			for k := range games {
				n := min(perGame, b.N-k*perGame)
				g := &scaleGame{k: k, black: 200000 + 2*k, channel: fmt.Sprintf("b%d", k), planned: planMoves(n), acked: make([]bool, n)}
				wg.Add(1)
				go func() {
					defer wg.Done()
					sem <- struct{}{}
					defer func() { <-sem }()
					s.play(b, g, uint64(k), &progress)
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			b.StopTimer()
			lat := slices.Clone(s.moveLatency)
			slices.Sort(lat)
			if len(lat) == 0 {
				b.Fatal("no move acknowledged")
			}
			b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "moves/s")
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
			b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		})
	}
}
