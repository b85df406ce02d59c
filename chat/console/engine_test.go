package console

import (
	"bytes"
	"context"
	"fmt"
	"math"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/rating"

	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/engines"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/engine"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

const gnugoPath = "/usr/games/gnugo"

// gnugoConfig is GNU Go as configured by default, with room for a loaded
// machine: final_status_list at GNU Go's default level can take tens of
// seconds on a busy CI runner (and under -race).
func gnugoConfig() engine.Config {
	c := engine.GNUGo(gnugoPath)
	c.MoveTimeout = 3 * time.Minute
	return c
}

func needGNUGo(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(gnugoPath); err != nil {
		t.Skipf("GNU Go is not installed at %s (apt-get install gnugo): %v", gnugoPath, err)
	}
}

// lockedBuffer is the console's output, read while engine turns write.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}

type engineRig struct {
	t    testing.TB
	db   *storage.DB
	bot  *chat.Bot
	c    *Console
	out  *lockedBuffer
	set  *engines.Set
	user gobot.UserID
}

func newEngineRig(t testing.TB, cfgs []engine.Config, scorer string) *engineRig {
	t.Helper()
	return newEngineRigWith(t, cfgs, scorer, chat.Config{Rules: "japanese", Width: 9, Height: 9})
}

func newEngineRigWith(t testing.TB, cfgs []engine.Config, scorer string, cc chat.Config) *engineRig {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	set, err := engines.New(cfgs, log)
	if err != nil {
		t.Fatal(err)
	}
	bot := chat.New(cc, db, nil, nil, log)
	bot.SetEngines(set, scorer, "")
	out := &lockedBuffer{}
	c := &Console{Bot: bot, Out: out, Echo: true, User: "alice", Room: Platform + ":main", session: "t"}
	bot.SetNotifier(Platform, c)
	rig := &engineRig{t: t, db: db, bot: bot, c: c, out: out, set: set, user: Platform + ":alice"}
	t.Cleanup(func() {
		bot.WaitEngines()
		set.Close()
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	})
	return rig
}

// do types a line at the console and waits for the engine's answer.
func (r *engineRig) do(line string) {
	r.c.line(context.Background(), line)
	r.bot.WaitEngines()
}

func (r *engineRig) game(id gobot.GameID) (*gobot.Match, *game.Game) {
	r.t.Helper()
	var match *gobot.Match
	err := r.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		match, err = tx.Match(id)
		return err
	})
	if err != nil {
		r.t.Fatal(err)
	}
	g, err := game.Replay(match.Record)
	if err != nil {
		r.t.Fatal(err)
	}
	return match, g
}

func (r *engineRig) latestGame() gobot.GameID {
	r.t.Helper()
	var id gobot.GameID
	r.db.View(context.Background(), func(tx gobot.Tx) error {
		gs, _ := tx.RoomGames(r.c.Room, false)
		for _, g := range gs {
			id = max(id, g.ID)
		}
		return nil
	})
	if id == 0 {
		r.t.Fatalf("no game started; transcript:\n%s", r.out.String())
	}
	return id
}

// randomMove is a legal move for c that fills none of c's own eyes, or a
// pass.
func randomMove(rng *rand.Rand, g *game.Game, c game.Color) string {
	cfg := g.Config()
	var pts []game.Point
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			pts = append(pts, game.Pt(x, y))
		}
	}
	rng.Shuffle(len(pts), func(i, j int) { pts[i], pts[j] = pts[j], pts[i] })
	for _, p := range pts {
		if g.At(p) != game.Empty || ownEye(g, p, c) {
			continue
		}
		try, _ := game.Replay(g.Record())
		if try.Play(c, p) == nil {
			return p.GTP(cfg.Height)
		}
	}
	return "pass"
}

func ownEye(g *game.Game, p game.Point, c game.Color) bool {
	cfg := g.Config()
	x, y := int(p.X), int(p.Y)
	for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		nx, ny := x+d[0], y+d[1]
		if nx < 0 || ny < 0 || nx >= cfg.Width || ny >= cfg.Height {
			continue
		}
		if g.At(game.Pt(nx, ny)) != c {
			return false
		}
	}
	return true
}

// playOut plays game id as alice with random moves (passing after
// passAfter of her moves) and accepts the engine's count.
func (r *engineRig) playOut(id gobot.GameID, rng *rand.Rand, passAfter int, checkScore func(*gobot.Match, *game.Game)) *gobot.Match {
	r.t.Helper()
	mine := 0
	for step := 0; step < 400; step++ {
		match, g := r.game(id)
		if !match.Active() {
			return match
		}
		me := game.Black
		if match.White == r.user {
			me = game.White
		}
		switch g.Phase() {
		case game.Playing:
			if g.ToMove() != me {
				r.t.Fatalf("move %d: the engine is to move but did not; transcript:\n%s", g.MoveCount(), r.out.String())
			}
			mv := "pass"
			if mine < passAfter && g.HandicapLeft() == 0 {
				mv = randomMove(rng, g, me)
			}
			mine++
			r.do("play " + mv)
		case game.Scoring:
			if checkScore != nil {
				checkScore(match, g)
				checkScore = nil
			}
			r.do("done")
		}
	}
	r.t.Fatalf("game #%d did not end; transcript:\n%s", id, r.out.String())
	return nil
}

// reviewFlow marks stones in the scoring phase: a string toggled twice
// (the engine's own marking again: it accepts), then a change against the
// engine (one of the player's dead strings alive, or one of the engine's
// strings dead: play resumes).
func (r *engineRig) reviewFlow(id gobot.GameID, ec game.Color) {
	t := r.t
	t.Helper()
	find := func(g *game.Game, c game.Color, dead bool) string {
		cfg := g.Config()
		for y := 0; y < cfg.Height; y++ {
			for x := 0; x < cfg.Width; x++ {
				if p := game.Pt(x, y); g.At(p) == c && g.IsDead(p) == dead {
					return p.GTP(cfg.Height)
				}
			}
		}
		return ""
	}
	_, g := r.game(id)
	before := g.DeadStones()
	any := find(g, ec, false)
	if any == "" {
		t.Fatal("the engine has no living stone")
	}
	r.do("dead " + any + " " + any)
	_, g = r.game(id)
	if g.Phase() != game.Scoring || !g.Accepted(ec) || !slices.Equal(g.DeadStones(), before) {
		t.Fatalf("after toggling %s twice: phase %s, engine accepted %v; transcript:\n%s", any, g.Phase(), g.Accepted(ec), r.out.String())
	}
	worse := find(g, ec.Opponent(), true)
	if worse == "" {
		worse = any
	}
	r.do("dead " + worse)
	_, g = r.game(id)
	if !strings.Contains(r.out.String(), "does not agree with that marking") || g.Phase() != game.Playing {
		t.Fatalf("marking %s against the engine did not resume play (phase %s):\n%s", worse, g.Phase(), r.out.String())
	}
}

func TestEngineGamesGNUGo(t *testing.T) {
	needGNUGo(t)
	cases := []struct {
		name, challenge string
		level           int
	}{
		{"black", "challenge engine=gnugo level=1 9 black", 1},
		{"white", "challenge engine=gnugo level=1 9 white komi=6.5", 1},
		{"black-handicap", "challenge engine=gnugo level=1 9 black handicap=3", 1},
	}
	if os.Getenv("GOBOT_LONG_ENGINE_TESTS") != "" {
		cases = append(cases, []struct {
			name, challenge string
			level           int
		}{{"white-chinese", "challenge engine=gnugo 9 white chinese", 1}, {"level10", "challenge engine=gnugo level=10 9 black", 10}}...)
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := newEngineRig(t, []engine.Config{gnugoConfig()}, "")
			r.do(tc.challenge)
			id := r.latestGame()
			match, _ := r.game(id)
			if match.Engine != "gnugo" || match.EngineLevel != tc.level || match.Rating != nil {
				t.Fatalf("engine %q level %d rating %v; transcript:\n%s", match.Engine, match.EngineLevel, match.Rating, r.out.String())
			}
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			var proposed []game.Point
			match = r.playOut(id, rng, 15, func(match *gobot.Match, g *game.Game) {
				// The engine's proposal is GNU Go's own dead list.
				pool, err := engine.New(gnugoConfig(), nil)
				if err != nil {
					t.Fatal(err)
				}
				defer pool.Close()
				rec := match.Record
				rec.Dead, rec.Accepted = nil, nil
				dead, err := pool.Dead(context.Background(), rec)
				if err != nil {
					t.Fatal(err)
				}
				rec.Dead = dead
				want, err := game.Replay(rec)
				if err != nil {
					t.Fatal(err)
				}
				proposed = g.DeadStones()
				if !slices.Equal(proposed, want.DeadStones()) {
					t.Errorf("proposed dead stones %v, GNU Go says %v", proposed, want.DeadStones())
				}
				ec := game.White
				if match.Black == chat.EngineUser("gnugo") {
					ec = game.Black
				}
				if !g.Accepted(ec) {
					t.Errorf("the engine did not accept its own proposal")
				}
				if tc.name == "white" {
					r.reviewFlow(id, ec)
				}
			})
			if match.Result == "" || match.Finished.IsZero() {
				t.Fatalf("no result: %+v", match)
			}
			out := r.out.String()
			for _, want := range []string{"Game #", "@gnugo played", "Game over"} {
				if !strings.Contains(out, want) {
					t.Errorf("transcript lacks %q:\n%s", want, out)
				}
			}
			if strings.Contains(out, "could not answer") {
				t.Errorf("the engine failed:\n%s", out)
			}
			t.Logf("game #%d: %s after %d moves", id, match.Result, len(match.Record.Moves))
		})
	}
}

// TestEngineDisputeKeepsCount: alice (Black) plays GNU Go (White) at
// random to two passes, leaving dead stones in White's area, then marks
// one of them alive: the engine disagrees and play resumes. She passes
// from then on. The engine's count (White's total minus Black's, with
// its own proposal marked) must not drop: under japanese rules it passes
// instead of capturing in its own territory; under chinese rules it
// captures what it holds dead and then passes.
func TestEngineDisputeKeepsCount(t *testing.T) {
	needGNUGo(t)
	for i, rules := range []string{"japanese", "chinese"} {
		t.Run(rules, func(t *testing.T) {
			t.Parallel()
			r := newEngineRig(t, []engine.Config{gnugoConfig()}, "")
			r.do("challenge engine=gnugo level=1 9 black " + rules)
			id := r.latestGame()
			rng := rand.New(rand.NewPCG(uint64(i), 11))
			margin := func(g *game.Game) float64 {
				s := g.Score()
				return s.White.Total - s.Black.Total
			}
			for step := 0; ; step++ {
				_, g := r.game(id)
				if g.Phase() == game.Scoring {
					break
				}
				if step > 200 || g.Phase() != game.Playing || g.ToMove() != game.Black {
					t.Fatalf("no two passes (phase %s); transcript:\n%s", g.Phase(), r.out.String())
				}
				mv := "pass"
				if step < 12 {
					mv = randomMove(rng, g, game.Black)
				}
				r.do("play " + mv)
			}
			_, g := r.game(id)
			var dispute string
			for _, p := range g.DeadStones() {
				if g.At(p) == game.Black {
					dispute = p.GTP(9)
					break
				}
			}
			if dispute == "" {
				t.Fatalf("no dead Black stone to dispute:\n%s", g.Board())
			}
			before, moves := margin(g), g.MoveCount()
			r.do("dead " + dispute)
			if _, g = r.game(id); g.Phase() != game.Playing {
				t.Fatalf("marking %s alive did not resume play; transcript:\n%s", dispute, r.out.String())
			}
			for step := 0; g.Phase() == game.Playing; step++ {
				if step > 60 || g.ToMove() != game.Black {
					t.Fatalf("the engine did not settle the dispute; transcript:\n%s", r.out.String())
				}
				r.do("play pass")
				_, g = r.game(id)
			}
			after := margin(g)
			var played []string
			for _, m := range g.Record().Moves[moves:] {
				if m.Color == game.White {
					played = append(played, m.Point.GTP(9))
				}
			}
			t.Logf("%s: White's count %+.1f at the dispute, %+.1f after; White played %v", rules, before, after, played)
			if after < before {
				t.Errorf("White's count fell from %+.1f to %+.1f after the dispute (it played %v):\n%s", before, after, played, g.Board())
			}
			if rules == "japanese" && len(played) != 1 {
				t.Errorf("under japanese rules White played %v after the dispute, want only its pass", played)
			}
			if rules == "chinese" && g.At(mustPoint(t, dispute)) == game.Black {
				t.Errorf("under chinese rules the disputed stone %s is still on the board:\n%s", dispute, g.Board())
			}
			r.do("done")
			if match, _ := r.game(id); match.Active() {
				t.Fatalf("the game did not end after done; transcript:\n%s", r.out.String())
			}
		})
	}
}

func mustPoint(t *testing.T, v string) game.Point {
	t.Helper()
	p, err := game.ParseGTP(v, 9, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gatedEngines holds the engine's moves until released: the bot is
// "thinking" while the test restarts it.
type gatedEngines struct {
	chat.Engines
	started chan struct{}
	release chan struct{}
}

func (g *gatedEngines) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (chat.EngineMove, error) {
	g.started <- struct{}{}
	<-g.release
	return g.Engines.Move(ctx, name, rec, level, cleanup)
}

type countingNotifier struct {
	mu   sync.Mutex
	msgs []protocol.Message
}

func (n *countingNotifier) Notify(ctx context.Context, m protocol.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, m)
	return nil
}

func (n *countingNotifier) count() int { n.mu.Lock(); defer n.mu.Unlock(); return len(n.msgs) }

// A restart while the engine thinks: the new process asks again from the
// due item, the old one's late answer is dropped: one move, one post.
func TestEngineRestartWhileThinking(t *testing.T) {
	needGNUGo(t)
	r := newEngineRig(t, []engine.Config{gnugoConfig()}, "")
	gate := &gatedEngines{Engines: r.set, started: make(chan struct{}, 1), release: make(chan struct{})}
	first := &countingNotifier{}
	r.bot.SetEngines(gate, "", "")
	r.bot.SetNotifier(Platform, first)
	r.c.line(context.Background(), "challenge engine=gnugo level=1 9 black")
	r.c.line(context.Background(), "play E5")
	<-gate.started // the old bot thinks about move 2

	// "Restart": a new bot over the same database, its clock loop's
	// first tick finds the engine's due move.
	bot2 := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, r.db, nil, nil, nil)
	bot2.SetEngines(r.set, "", "")
	second := &countingNotifier{}
	bot2.SetNotifier(Platform, second)
	if err := bot2.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	bot2.WaitEngines()
	id := r.latestGame()
	match, g := r.game(id)
	if g.MoveCount() != 2 || g.ToMove() != game.Black {
		t.Fatalf("after the restart: %d moves, %s to move", g.MoveCount(), g.ToMove().Name())
	}
	if second.count() != 1 || !strings.Contains(second.msgs[0].Reply.Text, "played") {
		t.Fatalf("new bot posted %d messages: %+v", second.count(), second.msgs)
	}
	if !match.Deadline.IsZero() {
		t.Errorf("the human's turn still has a due item at %v", match.Deadline)
	}
	// The old bot's engine answers late: nothing more happens.
	close(gate.release)
	r.bot.WaitEngines()
	_, g = r.game(id)
	if g.MoveCount() != 2 {
		t.Fatalf("the late answer was applied too: %d moves", g.MoveCount())
	}
	if first.count() != 0 {
		t.Fatalf("the old bot posted %d messages: %+v", first.count(), first.msgs)
	}
	// A second tick finds nothing to do.
	if err := bot2.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	bot2.WaitEngines()
	if second.count() != 1 {
		t.Fatalf("a later tick posted again: %d", second.count())
	}
}

// A fake engine that crashes on genmove: a clear message, the game
// unchanged and still the engine's to move.
func TestEngineCrashes(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "crashgtp")
	err := os.WriteFile(script, []byte(`#!/bin/sh
while read -r id cmd rest; do
  case "$cmd" in
  protocol_version) printf '=%s 2\n\n' "$id" ;;
  list_commands) printf '=%s boardsize\nclear_board\nkomi\nplay\ngenmove\nquit\n\n' "$id" ;;
  genmove) exit 3 ;;
  quit) printf '=%s\n\n' "$id"; exit 0 ;;
  *) printf '=%s\n\n' "$id" ;;
  esac
done
`), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	cfg := engine.Config{Name: "crashy", Command: script, MoveTimeout: 5 * time.Second}
	r := newEngineRig(t, []engine.Config{cfg}, "")
	r.do("challenge engine=crashy 9 black")
	r.do("play E5")
	id := r.latestGame()
	match, g := r.game(id)
	if g.MoveCount() != 1 || g.ToMove() != game.White || match.Deadline.IsZero() || !match.Active() {
		t.Fatalf("after the crash: %d moves, %s to move, due %v", g.MoveCount(), g.ToMove().Name(), match.Deadline)
	}
	out := r.out.String()
	if !strings.Contains(out, "@crashy could not answer in game #") || !strings.Contains(out, "I will ask it again") {
		t.Fatalf("no clear message:\n%s", out)
	}
	// Playing while it is the engine's turn is refused plainly.
	r.do("play D4")
	if !strings.Contains(r.out.String(), "not your turn") {
		t.Fatalf("no turn message:\n%s", r.out.String())
	}
	// The next tick asks again; the failure is not posted twice.
	if err := r.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.bot.WaitEngines()
	if n := strings.Count(r.out.String(), "could not answer"); n != 1 {
		t.Fatalf("failure posted %d times:\n%s", n, r.out.String())
	}
}

func TestEngineChallengeRefusals(t *testing.T) {
	needGNUGo(t)
	r := newEngineRig(t, []engine.Config{gnugoConfig()}, "")
	for _, tc := range []struct{ line, want string }{
		{"challenge engine=gnugo 13x9", "gnugo can't play that game"},
		{"challenge engine=gnugo 7", "gnugo can't play that game: gnugo plays 9x9, 13x13 and 19x19 boards, not 7x7"},
		{"challenge engine=gnugo level=11", "levels go from 1"},
		{"challenge engine=katago", "There is no engine \"katago\""},
		{"challenge engine=gnugo rated", "never rated"},
		{"challenge @bob engine=gnugo", "either a person or the computer"},
		{"challenge level=3", "add engine=NAME"},
		{"challenge engine=gnugo tromp-taylor", "suicide"},
	} {
		before := len(r.out.String())
		r.do(tc.line)
		got := r.out.String()[before:]
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "! ") {
			t.Errorf("%s: got %q, want %q", tc.line, got, tc.want)
		}
	}
	r.do("settings engines=off")
	before := len(r.out.String())
	r.do("challenge engine=gnugo 9")
	if got := r.out.String()[before:]; !strings.Contains(got, "turned off in this room") {
		t.Errorf("engines off: %q", got)
	}
	r.do("settings engines=on")
	before = len(r.out.String())
	r.do("engines")
	if got := r.out.String()[before:]; !strings.Contains(got, "gnugo") || !strings.Contains(got, "levels 1 to 10") || !strings.Contains(got, "9x9, 13x13, 19x19") {
		t.Errorf("engines: %q", got)
	}
	var games int
	r.db.View(context.Background(), func(tx gobot.Tx) error {
		gs, err := tx.RoomGames(r.c.Room, false)
		games = len(gs)
		return err
	})
	if games != 0 {
		t.Errorf("refused challenges started %d games", games)
	}
}

// In a game between people with scoring.engine set, the proposal is GNU
// Go's dead list.
func TestEngineScoresPeoplesGame(t *testing.T) {
	needGNUGo(t)
	r := newEngineRig(t, []engine.Config{gnugoConfig()}, "gnugo")
	r.do("challenge @bob 9 black")
	r.do("/as bob")
	r.do("accept")
	id := r.latestGame()
	// A settled position (walls on E and F) with a dead White stone at B7:
	// GNU Go answers final_status_list at once on it (on a sparse board
	// its default level takes over a minute).
	for _, mv := range []string{"E1", "F1", "E2", "F2", "E3", "F3", "E4", "F4", "E5", "F5", "E6", "F6", "E7", "F7", "E8", "F8", "E9", "F9", "C3", "B7", "pass", "pass"} {
		_, g := r.game(id)
		r.do("/as " + map[game.Color]string{game.Black: "alice", game.White: "bob"}[g.ToMove()])
		r.do("play " + mv)
	}
	match, g := r.game(id)
	if g.Phase() != game.Scoring {
		t.Fatalf("phase %s", g.Phase())
	}
	if match.EngineDead != g.MoveCount() || !match.Deadline.IsZero() {
		t.Fatalf("the engine proposal was not applied (engine dead %d, due %v):\n%s", match.EngineDead, match.Deadline, r.out.String())
	}
	pool, err := engine.New(gnugoConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	rec := match.Record
	rec.Dead, rec.Accepted = nil, nil
	dead, err := pool.Dead(context.Background(), rec)
	if err != nil {
		t.Fatal(err)
	}
	rec.Dead = dead
	want, _ := game.Replay(rec)
	if !slices.Equal(g.DeadStones(), want.DeadStones()) {
		t.Errorf("proposal %v, GNU Go %v", g.DeadStones(), want.DeadStones())
	}
	if d := g.DeadStones(); len(d) != 1 || d[0] != game.Pt(1, 2) {
		t.Errorf("proposal %v, want B7 dead", d)
	}
	if !strings.Contains(r.out.String(), "@gnugo proposes the dead stones") {
		t.Errorf("no proposal message:\n%s", r.out.String())
	}
	if g.Accepted(game.Black) || g.Accepted(game.White) {
		t.Errorf("nobody accepted yet, but the record says so")
	}
}

// The scorer fails (a fake engine that crashes on final_status_list): the
// built-in proposal stands and nobody is asked again.
func TestEngineScorerFallback(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "noscore")
	err := os.WriteFile(script, []byte(`#!/bin/sh
while read -r id cmd rest; do
  case "$cmd" in
  protocol_version) printf '=%s 2\n\n' "$id" ;;
  list_commands) printf '=%s boardsize\nclear_board\nkomi\nplay\ngenmove\nfinal_status_list\nquit\n\n' "$id" ;;
  final_status_list) exit 4 ;;
  genmove) printf '=%s pass\n\n' "$id" ;;
  quit) printf '=%s\n\n' "$id"; exit 0 ;;
  *) printf '=%s\n\n' "$id" ;;
  esac
done
`), 0o755)
	if err != nil {
		t.Fatal(err)
	}
	r := newEngineRig(t, []engine.Config{{Name: "noscore", Command: script, MoveTimeout: 5 * time.Second}}, "noscore")
	r.do("challenge @bob 9 black")
	r.do("/as bob")
	r.do("accept")
	r.do("/as alice")
	r.do("play E5")
	r.do("/as bob")
	r.do("pass")
	r.do("/as alice")
	r.do("pass")
	id := r.latestGame()
	match, g := r.game(id)
	if g.Phase() != game.Scoring || match.EngineDead != g.MoveCount() || !match.Deadline.IsZero() {
		t.Fatalf("phase %s, engine dead %d, due %v:\n%s", g.Phase(), match.EngineDead, match.Deadline, r.out.String())
	}
	r.do("done")
	r.do("/as bob")
	r.do("done")
	if match, _ := r.game(id); match.Active() || !strings.HasPrefix(match.Result, "B+") {
		t.Fatalf("game not ended by the built-in count: %q\n%s", match.Result, r.out.String())
	}

	// Against the same engine: it passes, cannot judge the dead stones,
	// and accepts the built-in marking; the player's done ends the game.
	r.do("/as alice")
	r.do("challenge engine=noscore 9 black")
	id = r.latestGame()
	r.do("play E5")
	r.do("pass")
	match, g = r.game(id)
	if g.Phase() != game.Scoring || !g.Accepted(game.White) || !match.Deadline.IsZero() {
		t.Fatalf("engine game: phase %s, engine accepted %v, due %v:\n%s", g.Phase(), g.Accepted(game.White), match.Deadline, r.out.String())
	}
	if !strings.Contains(r.out.String(), "@noscore could not judge the dead stones") {
		t.Fatalf("no message:\n%s", r.out.String())
	}
	r.do("done")
	if match, _ := r.game(id); match.Active() || !strings.HasPrefix(match.Result, "B+") {
		t.Fatalf("engine game not ended: %q\n%s", match.Result, r.out.String())
	}
}

// BenchmarkEngineReply measures a player's move in an engine game
// through the bot, from the command to the engine's answer stored and
// posted (9x9, GNU Go level 1, a random player passing after 20 moves).
func BenchmarkEngineReply(b *testing.B) {
	if _, err := os.Stat(gnugoPath); err != nil {
		b.Skip("GNU Go is not installed")
	}
	r := newEngineRig(b, []engine.Config{gnugoConfig()}, "")
	rng := rand.New(rand.NewPCG(1, 1))
	var id gobot.GameID
	moves := 0
	for b.Loop() {
		if id == 0 {
			b.StopTimer()
			r.do("challenge engine=gnugo level=1 9 black")
			id, moves = r.latestGame(), 0
			b.StartTimer()
		}
		_, g := r.game(id)
		mv := "pass"
		if moves < 20 {
			mv = randomMove(rng, g, game.Black)
		}
		moves++
		r.do("play " + mv)
		if match, g := r.game(id); !match.Active() || g.Phase() != game.Playing {
			b.StopTimer()
			r.do("resign")
			id = 0
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/move")
}

// A bot restarted without engines leaves the engine's turn due: the
// clock does not make the engine lose on time.
func TestEngineTurnWaitsWithoutEngines(t *testing.T) {
	needGNUGo(t)
	r := newEngineRig(t, []engine.Config{gnugoConfig()}, "")
	gate := &gatedEngines{Engines: r.set, started: make(chan struct{}, 1), release: make(chan struct{})}
	r.bot.SetEngines(gate, "", "")
	r.c.line(context.Background(), "challenge engine=gnugo level=1 9 black clock=1d")
	r.c.line(context.Background(), "play E5")
	<-gate.started
	bot2 := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, r.db, nil, &testClock{t: time.Now().Add(48 * time.Hour)}, nil)
	bot2.SetEngines(nil, "", "GNU Go is not installed") // as gobot does when it finds none
	if err := bot2.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	bot2.WaitEngines()
	id := r.latestGame()
	if match, g := r.game(id); !match.Active() || g.MoveCount() != 1 {
		t.Fatalf("without engines: active %v, %d moves, result %q", match.Active(), g.MoveCount(), match.Result)
	}
	close(gate.release)
	r.bot.WaitEngines()
	if _, g := r.game(id); g.MoveCount() != 2 {
		t.Fatalf("the engine's move did not come: %d moves", g.MoveCount())
	}
}

// With ratings.engine_games on, an even game against the engine is rated
// for both: resigning it lowers the player's rating and gives the engine
// a rating of its own; a handicap game stays unrated.
func TestRatedEngineGame(t *testing.T) {
	needGNUGo(t)
	r := newEngineRigWith(t, []engine.Config{gnugoConfig()}, "", chat.Config{Rules: "japanese", Width: 9, Height: 9, RateEngineGames: true})
	before := len(r.out.String())
	r.do("challenge engine=gnugo level=1 9 black")
	if got := r.out.String()[before:]; !strings.Contains(got, "(rated)") {
		t.Fatalf("the start of a rated engine game: %q", got)
	}
	id := r.latestGame()
	r.do(fmt.Sprintf("resign #%d", id))
	var me, bot *gobot.PlayerRating
	err := r.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		if me, err = tx.Rating("console", r.user); err != nil {
			return err
		}
		bot, err = tx.Rating("console", chat.EngineUser("gnugo"))
		return err
	})
	if err != nil {
		t.Fatalf("ratings after the rated engine game: %v\n%s", err, r.out.String())
	}
	p0 := rating.New()
	wantMe, wantBot, err := rating.Game(p0, p0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if me.Games != 1 || me.Losses != 1 || math.Abs(me.Rating-wantMe.Rating) > 1e-6 || bot.Wins != 1 || math.Abs(bot.Rating-wantBot.Rating) > 1e-6 {
		t.Fatalf("alice %+v, gnugo %+v; want %.2f and %.2f", me, bot, wantMe.Rating, wantBot.Rating)
	}
	before = len(r.out.String())
	r.do("challenge engine=gnugo 9 handicap=2 rated")
	if got := r.out.String()[before:]; !strings.Contains(got, "Only even games") {
		t.Fatalf("a rated handicap game against the engine: %q", got)
	}
}
