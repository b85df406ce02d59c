package engine

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

func TestMain(m *testing.M) {
	if len(os.Args) >= 4 && os.Args[1] == "-fakegtp" {
		fakeEngine(os.Args[2], os.Args[3])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// syncBuffer collects log output from several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type fake struct {
	pool *Pool
	log  string // the commands the fake engine read
	out  *syncBuffer
}

// commands returns the lines the fake engine processes read so far.
func (f *fake) commands(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(f.log)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if l == "" {
			continue
		}
		// Drop the id the pool puts before each command.
		if i := strings.IndexByte(l, ' '); i > 0 && strings.Trim(l[:i], "0123456789") == "" {
			l = l[i+1:]
		}
		out = append(out, l)
	}
	return out
}

func count(lines []string, prefix string) int {
	n := 0
	for _, l := range lines {
		if strings.HasPrefix(l, prefix) {
			n++
		}
	}
	return n
}

func newFake(t *testing.T, mode string, mod func(*Config)) *fake {
	t.Helper()
	f := &fake{log: filepath.Join(t.TempDir(), "commands.log"), out: &syncBuffer{}}
	cfg := Config{
		Name:           "fake",
		Command:        os.Args[0],
		Args:           []string{"-fakegtp", mode, f.log},
		Levels:         map[int]Level{1: {GTP: []string{"level 1"}}, 2: {GTP: []string{"level 2"}}},
		MaxProcesses:   1,
		MoveTimeout:    10 * time.Second,
		CommandTimeout: 10 * time.Second,
	}
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg, slog.New(slog.NewTextHandler(f.out, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	f.pool = p
	return f
}

func newGame(t *testing.T, size int, rules string, handicap int) *game.Game {
	t.Helper()
	r, err := game.Preset(rules)
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: size, Height: size, Rules: r, Handicap: handicap})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func play(t *testing.T, g *game.Game, moves ...string) {
	t.Helper()
	h := g.Config().Height
	for _, m := range moves {
		p, err := game.ParseGTP(m, g.Config().Width, h)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
}

// engineMove asks for a move and plays it into g.
func engineMove(t *testing.T, p *Pool, g *game.Game, level int) Reply {
	t.Helper()
	r, err := p.Move(context.Background(), Request{Record: g.Record(), Level: level})
	if err != nil {
		t.Fatalf("move %d: %v", g.MoveCount()+1, err)
	}
	for _, m := range r.Moves {
		if err := g.PlayMove(m); err != nil {
			t.Fatalf("move %d: the reply %v does not play: %v", g.MoveCount()+1, m, err)
		}
	}
	return r
}

func TestFakePlaysAndKeepsItsPosition(t *testing.T) {
	f := newFake(t, "ok", nil)
	g := newGame(t, 9, "japanese", 0)
	for range 6 {
		engineMove(t, f.pool, g, 1)
	}
	play(t, g, "E5") // a "human" move
	engineMove(t, f.pool, g, 1)
	cmds := f.commands(t)
	if n := count(cmds, "start"); n != 1 {
		t.Errorf("%d processes started, want 1:\n%s", n, strings.Join(cmds, "\n"))
	}
	// The engine keeps its own moves: only the human's move is sent.
	if plays := count(cmds, "play "); plays != 1 {
		t.Errorf("%d play commands sent, want 1 (E5):\n%s", plays, strings.Join(cmds, "\n"))
	}
	if n := count(cmds, "level 1"); n != 1 {
		t.Errorf("level sent %d times, want once", n)
	}
	if g.MoveCount() != 8 {
		t.Errorf("%d moves, want 8", g.MoveCount())
	}
}

func TestSlowEngineTimesOut(t *testing.T) {
	f := newFake(t, "slow", func(c *Config) { c.MoveTimeout = 300 * time.Millisecond })
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "D4")
	rec := g.Record()
	_, err := f.pool.Move(context.Background(), Request{Record: rec, Level: 1})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if !strings.Contains(err.Error(), "genmove") {
		t.Errorf("error %q does not say which command", err)
	}
	if n := f.pool.Running(); n != 0 {
		t.Errorf("%d processes still running after the timeout, want the slow one killed", n)
	}
	// The caller's deadline counts too.
	f.pool.cfg.MoveTimeout = time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := f.pool.Move(ctx, Request{Record: rec, Level: 1}); !errors.Is(err, ErrTimeout) {
		t.Fatalf("with a context deadline: err = %v, want ErrTimeout", err)
	}
	if g.MoveCount() != 1 || len(rec.Moves) != 1 {
		t.Errorf("the game changed: %d moves", g.MoveCount())
	}
}

func TestMuteEngineTimesOutAtStart(t *testing.T) {
	f := newFake(t, "mute", func(c *Config) { c.CommandTimeout = 300 * time.Millisecond })
	err := f.pool.Check(context.Background(), game.Config{Width: 9, Height: 9}, 1)
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "protocol_version") {
		t.Fatalf("err = %v, want ErrTimeout on protocol_version", err)
	}
	if n := f.pool.Running(); n != 0 {
		t.Errorf("%d processes running, want 0", n)
	}
}

func TestCrashedEngineRestartsAndReplays(t *testing.T) {
	f := newFake(t, "crash", nil)
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "D4", "F6", "C3")
	_, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1})
	if !errors.Is(err, ErrCrashed) {
		t.Fatalf("err = %v, want ErrCrashed", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("error %q does not give the exit status", err)
	}
	if g.MoveCount() != 3 {
		t.Fatalf("the game changed")
	}
	r := engineMove(t, f.pool, g, 1)
	if len(r.Moves) != 1 || r.Moves[0].Color != game.White {
		t.Fatalf("reply %+v, want one White move", r)
	}
	cmds := f.commands(t)
	if n := count(cmds, "start"); n != 2 {
		t.Fatalf("%d processes started, want 2", n)
	}
	// The new process got the whole game before its genmove.
	second := cmds[lastIndex(cmds, "start"):]
	want := []string{"play b d4", "play w f6", "play b c3", "genmove w"}
	var got []string
	for _, c := range second {
		if strings.HasPrefix(c, "play ") || strings.HasPrefix(c, "genmove ") {
			got = append(got, c)
		}
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("after the restart the engine got %q, want %q", got, want)
	}
}

func lastIndex(lines []string, s string) int {
	for i := len(lines) - 1; i >= 0; i-- {
		if lines[i] == s {
			return i
		}
	}
	return -1
}

func TestIllegalProposalIsAPass(t *testing.T) {
	f := newFake(t, "illegal", nil)
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "D4")
	r := engineMove(t, f.pool, g, 1)
	if len(r.Moves) != 1 || !r.Moves[0].IsPass() || r.Moves[0].Color != game.White {
		t.Fatalf("reply moves %v, want a White pass", r.Moves)
	}
	if r.Illegal != "D4: point is occupied" {
		t.Errorf("Illegal = %q, want D4 and why", r.Illegal)
	}
	if !strings.Contains(f.out.String(), "illegal move") {
		t.Errorf("the refused proposal was not logged:\n%s", f.out)
	}
	// Next turn the engine is brought back to gobot's record: its D4 is
	// taken back and replaced by the pass.
	play(t, g, "E5")
	engineMove(t, f.pool, g, 1)
	cmds := f.commands(t)
	i := lastIndex(cmds, "undo")
	if i < 0 || strings.Join(cmds[i:i+3], "|") != "undo|play w pass|play b e5" {
		t.Errorf("the engine was not resynchronised with undo, pass, E5:\n%s", strings.Join(cmds, "\n"))
	}
	if g.MoveCount() != 4 {
		t.Errorf("%d moves, want 4", g.MoveCount())
	}
}

func TestGarbageIsAProtocolError(t *testing.T) {
	for _, mode := range []string{"garbage", "badvertex", "badid"} {
		t.Run(mode, func(t *testing.T) {
			f := newFake(t, mode, nil)
			g := newGame(t, 9, "japanese", 0)
			_, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1})
			if !errors.Is(err, ErrProtocol) {
				t.Fatalf("err = %v, want ErrProtocol", err)
			}
			t.Log(err)
			if n := f.pool.Running(); n != 0 {
				t.Errorf("%d processes running, want the garbage speaker killed", n)
			}
			if g.MoveCount() != 0 {
				t.Errorf("the game changed")
			}
		})
	}
}

func TestRefusedBoardsize(t *testing.T) {
	f := newFake(t, "refusesize", nil)
	ctx := context.Background()
	err := f.pool.Check(ctx, game.Config{Width: 9, Height: 9}, 1)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "9x9") || !strings.Contains(err.Error(), "unacceptable size") {
		t.Fatalf("err = %v, want ErrUnsupported naming 9x9 and the engine's answer", err)
	}
	g := newGame(t, 9, "japanese", 0)
	if _, err := f.pool.Move(ctx, Request{Record: g.Record(), Level: 1}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Move: err = %v, want ErrUnsupported", err)
	}
	// The refusal is remembered, and 19×19 still works on the same process.
	big := newGame(t, 19, "japanese", 0)
	engineMove(t, f.pool, big, 1)
	cmds := f.commands(t)
	if n := count(cmds, "boardsize 9"); n != 1 {
		t.Errorf("boardsize 9 asked %d times, want once", n)
	}
	if n := count(cmds, "start"); n != 1 {
		t.Errorf("%d processes started, want 1", n)
	}
}

func TestCheck(t *testing.T) {
	ctx := context.Background()
	f := newFake(t, "ok", func(c *Config) { c.Sizes = []int{9, 13, 19} })
	japanese, _ := game.Preset("japanese")
	for _, tc := range []struct {
		name  string
		cfg   game.Config
		level int
		want  string // "" for no error
	}{
		{"ok", game.Config{Width: 9, Height: 9, Rules: japanese}, 1, ""},
		{"default level", game.Config{Width: 19, Height: 19, Rules: japanese}, 0, ""},
		{"rectangle", game.Config{Width: 13, Height: 9, Rules: japanese}, 1, "square boards only, not 13x9"},
		{"size", game.Config{Width: 7, Height: 7, Rules: japanese}, 1, "plays 9x9, 13x13 and 19x19 boards, not 7x7"},
		{"level", game.Config{Width: 9, Height: 9, Rules: japanese}, 7, "has levels 1 and 2, not 7"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := f.pool.Check(ctx, tc.cfg, tc.level)
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want ErrUnsupported with %q", err, tc.want)
			}
		})
	}
}

func TestCheckStaticNeedsNoProcess(t *testing.T) {
	f := newFake(t, "ok", func(c *Config) { c.Sizes = []int{19} })
	for _, cfg := range []game.Config{{Width: 19, Height: 13}, {Width: 9, Height: 9}} {
		if err := f.pool.Check(context.Background(), cfg, 1); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%dx%d: err = %v, want ErrUnsupported", cfg.Width, cfg.Height, err)
		}
	}
	if cmds := f.commands(t); len(cmds) != 0 {
		t.Errorf("a process was started for checks the configuration answers: %q", cmds)
	}
}

func TestCheckSuicideRules(t *testing.T) {
	ctx := context.Background()
	tt, _ := game.Preset("tromp-taylor")
	cfg := game.Config{Width: 9, Height: 9, Rules: tt}
	f := newFake(t, "nosuicide", nil)
	err := f.pool.Check(ctx, cfg, 1)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "suicide") {
		t.Fatalf("err = %v, want ErrUnsupported about suicide", err)
	}
	g := newGame(t, 9, "tromp-taylor", 0)
	if _, err := f.pool.Move(ctx, Request{Record: g.Record(), Level: 1}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("Move: err = %v, want ErrUnsupported", err)
	}
	if n := count(f.commands(t), "play b a1"); n != 1 {
		t.Errorf("the suicide probe ran %d times, want once", n)
	}
	if err := newFake(t, "suicide", nil).pool.Check(ctx, cfg, 1); err != nil {
		t.Fatalf("an engine that accepts suicide: %v", err)
	}
}

func TestStderrGoesToTheLog(t *testing.T) {
	f := newFake(t, "stderr", nil)
	g := newGame(t, 9, "japanese", 0)
	engineMove(t, f.pool, g, 1)
	f.pool.Close()
	if !strings.Contains(f.out.String(), "fake engine thinking about") {
		t.Errorf("engine stderr is not in the log:\n%s", f.out)
	}
}

func TestIdleProcessStops(t *testing.T) {
	f := newFake(t, "ok", func(c *Config) { c.IdleTimeout = 50 * time.Millisecond })
	g := newGame(t, 9, "japanese", 0)
	engineMove(t, f.pool, g, 1)
	deadline := time.Now().Add(10 * time.Second)
	for f.pool.Running() != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the idle process was not stopped")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if cmds := f.commands(t); cmds[len(cmds)-1] != "quit" {
		t.Errorf("the idle process was not asked to quit; last command %q", cmds[len(cmds)-1])
	}
	// The next move starts a new process and replays the game.
	engineMove(t, f.pool, g, 1)
	if n := count(f.commands(t), "start"); n != 2 {
		t.Errorf("%d processes started, want 2", n)
	}
}

func TestClosedPool(t *testing.T) {
	f := newFake(t, "ok", nil)
	g := newGame(t, 9, "japanese", 0)
	engineMove(t, f.pool, g, 1)
	f.pool.Close()
	if _, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1}); !errors.Is(err, ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
	if n := f.pool.Running(); n != 0 {
		t.Errorf("%d processes running after Close", n)
	}
}

func TestGameOverIsNoPosition(t *testing.T) {
	f := newFake(t, "ok", nil)
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "pass", "pass")
	if _, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1}); !errors.Is(err, ErrPosition) {
		t.Fatalf("err = %v, want ErrPosition", err)
	}
}

// TestQueueIsFIFO holds the only process slot and queues requests; they
// must get it in the order they asked.
func TestQueueIsFIFO(t *testing.T) {
	p, err := New(Config{Name: "q", Command: "/bin/false", MaxProcesses: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if pr, err := p.acquire(ctx, "", true, nil); err != nil || pr != nil {
		t.Fatalf("first acquire: %v %v", pr, err)
	}
	order := make(chan int, 5)
	var wg sync.WaitGroup
	for i := range 5 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := p.acquire(ctx, "", true, nil); err != nil {
				t.Error(err)
				return
			}
			order <- i
			p.release(nil)
		}()
		for queued(p) != i+1 {
			time.Sleep(time.Millisecond)
		}
	}
	// One request gives up while waiting; the others keep their places.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { _, err := p.acquire(cctx, "", true, nil); done <- err }()
	for queued(p) != 6 {
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled waiter: %v", err)
	}
	p.release(nil)
	wg.Wait()
	close(order)
	var got []int
	for i := range order {
		got = append(got, i)
	}
	if len(got) != 5 || got[0] != 0 || got[1] != 1 || got[2] != 2 || got[3] != 3 || got[4] != 4 {
		t.Errorf("served in order %v, want 0 1 2 3 4", got)
	}
	if n := p.Running(); n != 0 {
		t.Errorf("running = %d after every slot was released", n)
	}
}

func queued(p *Pool) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}

// TestConcurrentGamesShareTwoProcesses plays six games at once on a pool
// of two processes.
func TestConcurrentGamesShareTwoProcesses(t *testing.T) {
	f := newFake(t, "ok", func(c *Config) { c.MaxProcesses = 2 })
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := newGame(t, 9, "japanese", 0)
			play(t, g, game.Pt(i, 8).GTP(9))
			for range 3 {
				r, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1 + i%2})
				if err != nil {
					t.Error(err)
					return
				}
				g.PlayMove(r.Moves[0])
				// A human reply, so the games differ.
				for _, p := range []game.Point{game.Pt(8-i, 0), game.Pt(8-i, 1), game.Pt(8-i, 2), game.Pass} {
					if g.Play(g.ToMove(), p) == nil {
						break
					}
				}
			}
		}()
		if n := f.pool.Running(); n > 2 {
			t.Errorf("%d processes running, want at most 2", n)
		}
	}
	wg.Wait()
	if n := count(f.commands(t), "start"); n > 2 {
		t.Errorf("%d processes started, want at most 2", n)
	}
}

func TestConfigValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Command: "x"}, "needs a name"},
		{Config{Name: "a b", Command: "x"}, "needs a name"},
		{Config{Name: "e"}, "command is empty"},
		{Config{Name: "e", Command: "x", Levels: map[int]Level{11: {}}}, "level 11"},
		{Config{Name: "e", Command: "x", Levels: map[int]Level{1: {GTP: []string{"level 1\nquit"}}}}, "one line"},
		{Config{Name: "e", Command: "x", Sizes: []int{30}}, "size 30"},
	} {
		err := tc.cfg.Validate()
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v, want ErrConfig with %q", tc.cfg, err, tc.want)
		}
	}
	if err := GNUGo("/usr/games/gnugo").Validate(); err != nil {
		t.Errorf("GNUGo config: %v", err)
	}
}

func TestDiscover(t *testing.T) {
	cfg, err := Discover()
	if err != nil {
		if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "apt-get install gnugo") {
			t.Fatalf("err = %v, want ErrNotFound saying how to install", err)
		}
		return
	}
	if cfg.Name != "gnugo" || len(cfg.LevelList()) != 10 {
		t.Errorf("discovered %+v", cfg)
	}
	t.Setenv("PATH", t.TempDir())
	old := gnugoPaths
	gnugoPaths = []string{filepath.Join(t.TempDir(), "gnugo")}
	defer func() { gnugoPaths = old }()
	if _, err := Discover(); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "apt-get install gnugo") {
		t.Fatalf("without gnugo: err = %v, want ErrNotFound saying how to install", err)
	}
}

func TestReviewMarking(t *testing.T) {
	f := newFake(t, "ok", nil) // it finds no dead stones
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "C3", "G7", "pass", "pass")
	rec := g.Record()
	for _, tc := range []struct {
		dead   string
		accept bool
	}{
		{"", true},    // the same as the engine's
		{"C3", true},  // Black's stone dead: better for White
		{"G7", false}, // White's stone dead: worse for White
	} {
		r := rec
		r.Dead, r.Accepted = nil, nil
		if tc.dead != "" {
			p, _ := game.ParseGTP(tc.dead, 9, 9)
			r.Dead = []game.Point{p}
		}
		rev, err := f.pool.Review(context.Background(), r, game.White)
		if err != nil {
			t.Fatal(err)
		}
		if rev.Accept != tc.accept || len(rev.Dead) != 0 {
			t.Errorf("marking %q: %+v, want accept %v", tc.dead, rev, tc.accept)
		}
	}
	if err := g.Resume(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.pool.Review(context.Background(), g.Record(), game.White); !errors.Is(err, ErrPosition) {
		t.Errorf("a game being played: err = %v, want ErrPosition", err)
	}
}

func TestEngineDiedWhileIdle(t *testing.T) {
	f := newFake(t, "ok", nil)
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "E5")
	engineMove(t, f.pool, g, 1)
	f.pool.mu.Lock()
	pr := f.pool.idle[0]
	f.pool.mu.Unlock()
	pr.cmd.Process.Kill()
	<-pr.exit
	play(t, g, "C3")
	engineMove(t, f.pool, g, 1)
	cmds := f.commands(t)
	second := cmds[lastIndex(cmds, "start"):]
	if count(cmds, "start") != 2 || count(second, "play ") != 3 {
		t.Errorf("the game was not replayed into a new process:\n%s", strings.Join(cmds, "\n"))
	}
}

func TestMissingBinary(t *testing.T) {
	p, err := New(Config{Name: "ghost", Command: filepath.Join(t.TempDir(), "no-such-engine")}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	err = p.Check(context.Background(), game.Config{Width: 9, Height: 9}, 0)
	if !errors.Is(err, ErrCrashed) || !strings.Contains(err.Error(), "cannot start") {
		t.Fatalf("err = %v, want ErrCrashed saying it cannot start", err)
	}
	if n := p.Running(); n != 0 {
		t.Errorf("running = %d", n)
	}
}

// TestCleanupMove: in play resumed after a dispute, Request.Cleanup sends
// kgs-genmove_cleanup only where a stone in one's own territory costs
// nothing (area counting, pass stones) and only while stones of the
// opponent are dead: in the engine's final_status_list dead or, when the
// engine lacks or refuses that, in gobot's own proposal. Otherwise it is
// a plain genmove.
func TestCleanupMove(t *testing.T) {
	const (
		deadStone = ".O.O.\nOOOOO\nO.X.O\nOOOOO\n.O.O." // gobot's proposal: C3 dead
		liveStone = ".....\n.....\n..X..\n.....\n.O..." // gobot's proposal: nothing dead
	)
	for _, tc := range []struct {
		name, mode, rules, board string
		toMove                   game.Color
		cleanup                  bool
		want                     string // the move command sent
		asks                     bool   // final_status_list dead sent
	}{
		{"area, the opponent's stone dead", "dead", "chinese", deadStone, game.White, true, "kgs-genmove_cleanup w", true},
		{"pass stones, the opponent's stone dead", "dead", "bga", deadStone, game.White, true, "kgs-genmove_cleanup w", true},
		{"territory", "dead", "japanese", deadStone, game.White, true, "genmove w", false},
		{"only its own stone dead", "dead", "chinese", deadStone, game.Black, true, "genmove b", true},
		{"nothing dead", "ok", "chinese", deadStone, game.White, true, "genmove w", true},
		{"no cleanup asked", "dead", "chinese", deadStone, game.White, false, "genmove w", false},
		{"no final_status_list, gobot's proposal", "nofinal", "chinese", deadStone, game.White, true, "kgs-genmove_cleanup w", false},
		{"no final_status_list, nothing proposed", "nofinal", "chinese", liveStone, game.White, true, "genmove w", false},
		{"final_status_list refused, gobot's proposal", "refusefinal", "chinese", deadStone, game.White, true, "kgs-genmove_cleanup w", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t, tc.mode, nil)
			r, err := game.Preset(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			b, err := game.ParseBoard(tc.board)
			if err != nil {
				t.Fatal(err)
			}
			g, err := game.NewFromPosition(game.Config{Width: 5, Height: 5, Rules: r}, b, tc.toMove)
			if err != nil {
				t.Fatal(err)
			}
			for g.Phase() == game.Playing {
				play(t, g, "pass")
			}
			if err := g.Resume(); err != nil {
				t.Fatal(err)
			}
			if g.ToMove() != tc.toMove { // with pass stones White passes last
				play(t, g, "pass")
			}
			rep, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1, Cleanup: tc.cleanup})
			if err != nil {
				t.Fatal(err)
			}
			if len(rep.Moves) != 1 || rep.Moves[0].Color != tc.toMove {
				t.Fatalf("reply %+v", rep)
			}
			cmds := f.commands(t)
			if got := cmds[len(cmds)-1]; got != tc.want {
				t.Errorf("the move was asked with %q, want %q:\n%s", got, tc.want, strings.Join(cmds, "\n"))
			}
			if got := count(cmds, "final_status_list dead") > 0; got != tc.asks {
				t.Errorf("final_status_list dead sent: %v, want %v:\n%s", got, tc.asks, strings.Join(cmds, "\n"))
			}
		})
	}
}

// TestLevelsByArguments: levels set by command-line arguments need a
// process each; with one process allowed, the idle one of the other level
// is stopped and the game replayed into the new one.
func TestLevelsByArguments(t *testing.T) {
	f := newFake(t, "ok", func(c *Config) {
		c.Levels = map[int]Level{1: {Args: []string{"weak"}}, 9: {Args: []string{"strong"}}}
	})
	g := newGame(t, 9, "japanese", 0)
	engineMove(t, f.pool, g, 1)
	engineMove(t, f.pool, g, 1)
	engineMove(t, f.pool, g, 9)
	cmds := f.commands(t)
	if n := count(cmds, "start"); n != 2 {
		t.Fatalf("%d processes started, want 2 (one per level):\n%s", n, strings.Join(cmds, "\n"))
	}
	second := lastIndex(cmds, "start")
	if cmds[second-1] != "quit" {
		t.Errorf("the level-1 process was not stopped before the level-9 one started:\n%s", strings.Join(cmds, "\n"))
	}
	if n := count(cmds[second:], "play "); n != 2 {
		t.Errorf("the level-9 process got %d plays, want the game's 2", n)
	}
	if n := f.pool.Running(); n != 1 {
		t.Errorf("running = %d, want 1", n)
	}
}

// TestTakeBackIsUndone: moves taken back in gobot are undone in the
// engine, and a game switching to another size starts afresh.
func TestTakeBackIsUndone(t *testing.T) {
	f := newFake(t, "ok", nil)
	g := newGame(t, 9, "japanese", 0)
	play(t, g, "E5")
	engineMove(t, f.pool, g, 1)
	play(t, g, "C7")
	engineMove(t, f.pool, g, 1)
	for range 3 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	play(t, g, "G3")
	engineMove(t, f.pool, g, 1)
	cmds := f.commands(t)
	i := lastIndex(cmds, "undo")
	if i < 2 || strings.Join(cmds[i-2:i+3], "|") != "undo|undo|undo|play w g3|genmove b" {
		t.Errorf("the take-back did not reach the engine as three undos:\n%s", strings.Join(cmds, "\n"))
	}
	big := newGame(t, 13, "japanese", 0)
	play(t, big, "D4")
	engineMove(t, f.pool, big, 1)
	cmds = f.commands(t)
	if tail := strings.Join(cmds[len(cmds)-5:], "|"); tail != "boardsize 13|clear_board|komi 6.5|play b d4|genmove w" {
		t.Errorf("another game on the same process: %s", tail)
	}
}
