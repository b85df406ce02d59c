package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

// The tests in this file play real GNU Go (/usr/games/gnugo). They skip,
// saying so, only when it is not installed.

const gnugoPath = "/usr/games/gnugo"

func gnugoPool(t testing.TB, mod func(*Config)) *Pool {
	t.Helper()
	if _, err := os.Stat(gnugoPath); err != nil {
		t.Skip("GNU Go is not installed at " + gnugoPath + " (apt-get install gnugo); skipping the real-engine test")
	}
	cfg := GNUGo(gnugoPath)
	cfg.MoveTimeout = 2 * time.Minute // a loaded CI machine is slow; no timing is tested here
	cfg.CommandTimeout = time.Minute
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg, slog.New(slog.NewTextHandler(gnugoLog, &slog.HandlerOptions{Level: slog.LevelDebug})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// randomMove plays a random legal move for the colour to move that does
// not fill its own eye, or passes.
func randomMove(g *game.Game, rng *rand.Rand) {
	c := g.ToMove()
	w, h := g.Config().Width, g.Config().Height
	b := g.Board()
	for _, i := range rng.Perm(w * h) {
		p := game.Pt(i%w, i/w)
		if b.At(p) != game.Empty {
			continue
		}
		eye := true
		for _, n := range b.Neighbors(p) {
			eye = eye && b.At(n) == c
		}
		if !eye && g.Play(c, p) == nil {
			return
		}
	}
	g.Play(c, game.Pass)
}

// playOut plays g to two passes: the engine takes the colours in engine,
// a random player the others (it passes once the engine passed or after
// randomMoves of its moves).
func playOut(t *testing.T, p *Pool, g *game.Game, level int, engine []game.Color, randomMoves int) (first Reply) {
	t.Helper()
	rng := rand.New(rand.NewPCG(uint64(level), uint64(g.Config().Handicap)))
	random := 0
	for g.Phase() == game.Playing && g.MoveCount() < 300 {
		c := g.ToMove()
		if slices.Contains(engine, c) {
			r := engineMove(t, p, g, level)
			if first.Moves == nil {
				first = r
			}
			if r.Resign {
				t.Logf("GNU Go (%s) resigned at move %d", c.Name(), g.MoveCount()+1)
				return
			}
			if r.Illegal != "" {
				t.Errorf("GNU Go proposed an illegal move: %s", r.Illegal)
			}
			continue
		}
		last, _ := g.LastMove()
		if random >= randomMoves || (g.MoveCount() > 0 && last.IsPass()) {
			g.Play(c, game.Pass)
		} else {
			randomMove(g, rng)
		}
		random++
	}
	if g.Phase() != game.Scoring {
		t.Fatalf("no two passes after %d moves:\n%s", g.MoveCount(), g.Board())
	}
	return first
}

// rawDead asks a fresh GNU Go, given the game as SGF with loadsgf, for
// its final_status_list dead.
func rawDead(t *testing.T, g *game.Game) []game.Point {
	t.Helper()
	sgf := filepath.Join(t.TempDir(), "game.sgf")
	f, err := os.Create(sgf)
	if err != nil {
		t.Fatal(err)
	}
	if err := game.WriteSGF(f, g, game.GameInfo{}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	cmd := exec.Command(gnugoPath, "--mode", "gtp")
	cmd.Stdin = strings.NewReader("loadsgf " + sgf + "\nfinal_status_list dead\nquit\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var resps []string
	readResponses(strings.NewReader(string(out)), "raw gnugo", func(r respOrErr) bool {
		if r.err != nil && !errors.Is(r.err, errEOF) {
			t.Fatalf("raw GNU Go: %v", r.err)
		}
		if !r.ok && r.err == nil {
			t.Fatalf("raw GNU Go refused: %s", r.text)
		}
		resps = append(resps, r.text)
		return true
	})
	n := g.Config().Width
	var dead []game.Point
	for _, v := range strings.Fields(resps[1]) {
		p, err := game.ParseGTP(v, n, n)
		if err != nil {
			t.Fatal(err)
		}
		dead = append(dead, p)
	}
	slices.SortFunc(dead, func(a, b game.Point) int { return int(a.Y)*100 + int(a.X) - int(b.Y)*100 - int(b.X) })
	return dead
}

func checkDead(t *testing.T, p *Pool, g *game.Game) []game.Point {
	t.Helper()
	got, err := p.Dead(context.Background(), g.Record())
	if err != nil {
		t.Fatal(err)
	}
	want := rawDead(t, g)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		if g.Rules().Placement == game.PlacementWhitePasses {
			// Not a failure, only for this placement: GNU Go's dead list
			// depends on the history it is given (the SGF has White's
			// passes between the handicap stones; gobot sends them as one
			// set_free_handicap), and on this placement about one game
			// in twenty the pool's answer differs even from a fresh GNU
			// Go given gobot's own commands (seen 2026-11-25). The rest
			// of the game is still checked.
			t.Logf("GNU Go disagrees with itself: Dead = %v, from the SGF = %v\n%s", got, want, g.Board())
			return got
		}
		t.Errorf("Dead = %v, GNU Go's own final_status_list dead = %v\n%s", got, want, g.Board())
	}
	t.Logf("%d moves, %d dead stones", g.MoveCount(), len(got))
	return got
}

// longEngineTests runs the longer whole games at level 10 (engine against
// engine, or against a random player that plays on), which take a minute
// or more on a loaded machine (one to three seconds a move).
var longEngineTests = os.Getenv("GOBOT_LONG_ENGINE_TESTS") != ""

func TestGnuGoWholeGames(t *testing.T) {
	// A process per game: games sharing a process would replay each
	// other's moves (tested with the fake engine), which only slows this.
	p := gnugoPool(t, func(c *Config) { c.MaxProcesses = 8 })
	both := []game.Color{game.Black, game.White}
	for _, tc := range []struct {
		name     string
		rules    string
		handicap int
		level    int
		engine   []game.Color
		random   int // moves the random player makes before passing
		long     bool
	}{
		{"level1-selfplay", "japanese", 0, 1, both, 0, false},
		{"level1-white-fixed-handicap3", "japanese", 3, 1, []game.Color{game.White}, 10, false},
		{"level1-black-free-handicap2", "chinese", 2, 1, []game.Color{game.Black}, 10, false},
		{"level1-black-handicap2-white-passes", "new-zealand", 2, 1, []game.Color{game.Black}, 6, false},
		{"level10-white-fixed-handicap2", "japanese", 2, 10, []game.Color{game.White}, 3, false},
		{"level10-selfplay", "chinese", 0, 10, both, 0, true},
		{"level10-black", "japanese", 0, 10, []game.Color{game.Black}, 10, true},
		{"level10-white-fixed-handicap3", "japanese", 3, 10, []game.Color{game.White}, 30, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.long && !longEngineTests {
				t.Skip("this level-10 game takes a minute or more on a loaded machine; set GOBOT_LONG_ENGINE_TESTS=1 to play it")
			}
			t.Parallel()
			g := newGame(t, 9, tc.rules, tc.handicap)
			if tc.rules == "new-zealand" {
				// New Zealand rules allow suicide, which GNU Go refuses by
				// default; the game keeps their handicap placement.
				r := g.Rules()
				r.Suicide = false
				var err error
				if g, err = game.New(game.Config{Width: 9, Height: 9, Rules: r, Handicap: tc.handicap}); err != nil {
					t.Fatal(err)
				}
			}
			if err := p.Check(context.Background(), g.Config(), tc.level); err != nil {
				t.Fatal(err)
			}
			first := playOut(t, p, g, tc.level, tc.engine, tc.random)
			if tc.handicap >= 2 && g.Rules().Placement != game.PlacementFixed && tc.engine[0] == game.Black && len(first.Moves) != tc.handicap {
				t.Errorf("GNU Go placed its free handicap as %v, want %d stones at once (place_free_handicap)", first.Moves, tc.handicap)
			}
			if g.Phase() != game.Scoring {
				return
			}
			dead := checkDead(t, p, g)
			if tc.rules == "japanese" {
				// GNU Go counts under Japanese rules by default; with its own
				// dead stones marked, gobot's count must match its final_score.
				for _, d := range dead {
					if !g.IsDead(d) {
						g.ToggleDead(d, false)
					}
				}
				for _, d := range g.DeadStones() {
					if !slices.Contains(dead, d) {
						g.ToggleDead(d, false)
					}
				}
				res, err := p.Score(context.Background(), g.Record())
				if err != nil {
					t.Fatal(err)
				}
				if got := g.Score().Result; got != res {
					t.Errorf("GNU Go's final_score %s, gobot counts %s with GNU Go's dead stones", res, got)
				}
			}
		})
	}
}

func TestGnuGo19x19TwentyMoves(t *testing.T) {
	p := gnugoPool(t, nil)
	g := newGame(t, 19, "japanese", 0)
	for range 20 {
		engineMove(t, p, g, 1)
	}
	if g.MoveCount() != 20 {
		t.Fatalf("%d moves, want 20", g.MoveCount())
	}
	t.Logf("after 20 moves:\n%s", g.Board())
}

func TestGnuGoRefusesWhatItCannotPlay(t *testing.T) {
	p := gnugoPool(t, func(c *Config) { c.Sizes = nil })
	ctx := context.Background()
	for _, tc := range []struct {
		rules string
		size  int
		want  string
	}{
		{"tromp-taylor", 9, "suicide"},
		{"ko=none suicide=forbidden", 9, "retaken at once"},
		{"japanese", 21, "does not play 21x21 boards"},
	} {
		r, err := game.ParseRules(tc.rules)
		if err != nil {
			t.Fatal(err)
		}
		err = p.Check(ctx, game.Config{Width: tc.size, Height: tc.size, Rules: r}, 1)
		if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %dx%d: err = %v, want ErrUnsupported with %q", tc.rules, tc.size, tc.size, err, tc.want)
		}
	}
	// With suicide allowed on its command line GNU Go takes those rules.
	sp := gnugoPool(t, func(c *Config) { c.Args = append(c.Args, "--allow-all-suicide") })
	tt, _ := game.Preset("tromp-taylor")
	if err := sp.Check(ctx, game.Config{Width: 9, Height: 9, Rules: tt}, 1); err != nil {
		t.Errorf("GNU Go --allow-all-suicide: %v", err)
	}
}

// BenchmarkGnuGoMove measures GNU Go's time per move, per level and board
// size, over self-play games (a new game after 60 moves on 9×9, 120 on
// 19×19, or at the end), sync included.
func BenchmarkGnuGoMove(b *testing.B) {
	for _, size := range []int{9, 19} {
		for _, level := range []int{1, 5, 10} {
			b.Run(fmt.Sprintf("%dx%d/level%d", size, size, level), func(b *testing.B) {
				p := gnugoPool(b, nil)
				r, _ := game.Preset("japanese")
				newGame := func() *game.Game {
					g, _ := game.New(game.Config{Width: size, Height: size, Rules: r})
					return g
				}
				g := newGame()
				ctx := context.Background()
				if err := p.Check(ctx, g.Config(), level); err != nil { // start the process
					b.Fatal(err)
				}
				for b.Loop() {
					if g.Phase() != game.Playing || g.MoveCount() >= 60*size/9 {
						g = newGame()
					}
					rep, err := p.Move(ctx, Request{Record: g.Record(), Level: level})
					if err != nil {
						b.Fatal(err)
					}
					if rep.Resign {
						g = newGame()
						continue
					}
					g.PlayMove(rep.Moves[0])
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/move")
			})
		}
	}
}

// BenchmarkGnuGoConcurrentGames plays games 9×9 at level 1 in parallel
// goroutines (8 games at a time) on a pool of two processes: the
// throughput bounds how many engine games the machine serves.
func BenchmarkGnuGoConcurrentGames(b *testing.B) {
	for _, size := range []int{9, 19} {
		b.Run(fmt.Sprintf("%dx%d", size, size), func(b *testing.B) {
			p := gnugoPool(b, func(c *Config) { c.MaxProcesses = 2 })
			r, _ := game.Preset("japanese")
			var mu sync.Mutex
			moves := 0
			b.SetParallelism(4) // 4×GOMAXPROCS games
			b.RunParallel(func(pb *testing.PB) {
				g, _ := game.New(game.Config{Width: size, Height: size, Rules: r})
				for pb.Next() {
					if g.Phase() != game.Playing || g.MoveCount() > 40 {
						g, _ = game.New(game.Config{Width: size, Height: size, Rules: r})
					}
					rep, err := p.Move(context.Background(), Request{Record: g.Record(), Level: 1})
					if err != nil {
						b.Error(err)
						return
					}
					for _, m := range rep.Moves {
						g.PlayMove(m)
					}
					mu.Lock()
					moves++
					mu.Unlock()
				}
			})
			b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(max(moves, 1)), "ms/move")
		})
	}
}

// gnugoLog receives the GNU Go pools' logs (os.Stderr to watch them).
var gnugoLog io.Writer = io.Discard

// markEngineDead replaces g's marking with GNU Go's final_status_list dead
// and returns that list.
func markEngineDead(t *testing.T, p *Pool, g *game.Game) []game.Point {
	t.Helper()
	dead, err := p.Dead(context.Background(), g.Record())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range g.DeadStrings() {
		g.ToggleDead(d, false)
	}
	for _, d := range dead {
		if !g.IsDead(d) {
			if err := g.ToggleDead(d, false); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dead
}

// stonesOf keeps the points of pts holding a stone of colour c on b.
func stonesOf(b *game.Board, pts []game.Point, c game.Color) []game.Point {
	var out []game.Point
	for _, p := range pts {
		if b.At(p) == c {
			out = append(out, p)
		}
	}
	return out
}

// TestGnuGoCleanupAfterDispute plays GNU Go (White, level 1) against a
// random player on 9×9 to two passes, with the random player's stones
// left dead in White's area; the player disputes the marking and play
// resumes, the engine moving with Request.Cleanup. White's count (its
// total minus Black's, GNU Go's dead stones marked) must not drop:
// under japanese rules each stone White plays in its own territory would
// cost a point, so it passes (or answers the player's move and passes);
// under chinese rules it captures every stone it holds dead and passes
// as soon as none remain.
func TestGnuGoCleanupAfterDispute(t *testing.T) {
	p := gnugoPool(t, func(c *Config) { c.MaxProcesses = 3 })
	ctx := context.Background()
	for _, tc := range []struct {
		name, rules string
		playOn      bool // Black plays one stone in White's area after the resume
	}{
		{"japanese", "japanese", false},
		{"japanese-player-plays-on", "japanese", true},
		{"chinese", "chinese", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGame(t, 9, tc.rules, 0)
			playOut(t, p, g, 1, []game.Color{game.White}, 12)
			disputed := stonesOf(g.Board(), markEngineDead(t, p, g), game.Black)
			if len(disputed) == 0 {
				t.Fatalf("no dead Black stones to dispute:\n%s", g.Board())
			}
			margin := func() float64 {
				s := g.Score()
				return s.Side(game.White).Total - s.Side(game.Black).Total
			}
			before := margin()
			if err := g.Resume(); err != nil {
				t.Fatal(err)
			}
			var moves []string
			playedOn := false
			for g.Phase() == game.Playing && len(moves) < 80 {
				if g.ToMove() == game.Black {
					m := "pass"
					if tc.playOn && !playedOn {
						m = invade(t, g)
						playedOn = true
					}
					play(t, g, m)
					moves = append(moves, "B "+m)
					continue
				}
				left, err := p.Dead(ctx, g.Record())
				if err != nil {
					t.Fatal(err)
				}
				left = stonesOf(g.Board(), left, game.Black)
				r, err := p.Move(ctx, Request{Record: g.Record(), Level: 1, Cleanup: true})
				if err != nil {
					t.Fatal(err)
				}
				if r.Resign || len(r.Moves) != 1 {
					t.Fatalf("reply %+v", r)
				}
				m := r.Moves[0]
				if err := g.PlayMove(m); err != nil {
					t.Fatal(err)
				}
				moves = append(moves, fmt.Sprintf("W %s (%d dead Black stones)", m.Point.GTP(9), len(left)))
				if len(left) == 0 && !m.IsPass() {
					t.Errorf("White played %s with no dead Black stone left on the board", m.Point.GTP(9))
				}
			}
			if g.Phase() != game.Scoring {
				t.Fatalf("no two passes after the resume: %v\n%s", moves, g.Board())
			}
			markEngineDead(t, p, g)
			after := margin()
			t.Logf("White's count %+.1f at the dispute, %+.1f after: %v", before, after, moves)
			if after < before {
				t.Errorf("White's count fell from %+.1f to %+.1f after the dispute: %v\n%s", before, after, moves, g.Board())
			}
			if tc.rules == "chinese" {
				if still := stonesOf(g.Board(), disputed, game.Black); len(still) > 0 {
					t.Errorf("under area counting White left dead stones %v on the board instead of capturing them:\n%s", still, g.Board())
				}
			}
		})
	}
}

// invade returns an empty point of White's area where Black may play, as
// a player disputing the dead stones would.
func invade(t *testing.T, g *game.Game) string {
	t.Helper()
	n := g.Config().Width
	b := g.Board()
	for i := range n * n {
		pt := game.Pt(i%n, i/n)
		if b.At(pt) != game.Empty || g.Score().Owner[i] != game.White {
			continue
		}
		nb := b.Clone()
		if _, sui, err := nb.Play(game.Black, pt); err == nil && sui == 0 {
			return pt.GTP(n)
		}
	}
	t.Fatalf("no point in White's area for Black:\n%s", b)
	return ""
}
