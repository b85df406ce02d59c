package console

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/engines"
	"github.com/gobotgo/gobot/engine"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

// firstPoint is a fake engine for transcripts: it plays the first empty
// legal point in reading order from the top left and passes after a
// pass, so its answers are the same on every run.
type firstPoint struct{}

func (firstPoint) List() []chat.EngineInfo {
	return []chat.EngineInfo{{Name: "firstpoint", About: "a fake engine for tests", Levels: []int{1}}}
}

func (firstPoint) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	return nil
}

func (firstPoint) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (chat.EngineMove, error) {
	g, err := game.Replay(rec)
	if err != nil {
		return chat.EngineMove{}, err
	}
	c := g.ToMove()
	pass := chat.EngineMove{Moves: []game.Move{{Color: c, Point: game.Pass}}}
	if m, ok := g.LastMove(); ok && m.IsPass() {
		return pass, nil
	}
	cfg := g.Config()
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			try, _ := game.Replay(rec)
			if try.At(game.Pt(x, y)) == game.Empty && try.Play(c, game.Pt(x, y)) == nil {
				return chat.EngineMove{Moves: []game.Move{{Color: c, Point: game.Pt(x, y)}}}, nil
			}
		}
	}
	return pass, nil
}

func (firstPoint) Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error) {
	return nil, nil
}

func (firstPoint) Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error) {
	return true, nil
}

// voteRig is a console with a test clock and engines, for vote games:
// each line waits for the engine turns it started, so the transcript
// reads in one order on every run.
type voteRig struct {
	t   testing.TB
	db  *storage.DB
	bot *chat.Bot
	c   *Console
	out *lockedBuffer
}

func newVoteRig(t testing.TB, eng chat.Engines) *voteRig {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &testClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, testRenderer(), clock, log)
	bot.SetEngines(eng, "", "")
	out := &lockedBuffer{}
	c := &Console{Bot: bot, Out: out, Echo: true, User: "alice", Room: Platform + ":main", Clock: clock, session: "t"}
	bot.SetNotifier(Platform, c)
	t.Cleanup(func() {
		bot.StopEngines()
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	})
	return &voteRig{t: t, db: db, bot: bot, c: c, out: out}
}

// run types each line of script as Console.Run does, waiting for the
// engine after each.
func (r *voteRig) run(script string) {
	for _, line := range strings.Split(script, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		r.c.mu.Lock()
		io.WriteString(r.c.Out, r.c.User+"> "+line+"\n")
		r.c.mu.Unlock()
		if strings.HasPrefix(line, "//") {
			continue
		}
		r.c.line(context.Background(), line)
		r.bot.WaitEngines()
	}
}

func (r *voteRig) game(id gobot.GameID) (*gobot.Match, *game.Game) {
	r.t.Helper()
	var match *gobot.Match
	if err := r.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		match, err = tx.Match(id)
		return err
	}); err != nil {
		r.t.Fatal(err)
	}
	g, err := game.Replay(match.Record)
	if err != nil {
		r.t.Fatal(err)
	}
	return match, g
}

// The vote transcripts (../testdata/vote/*.script) against the fake
// engine, compared with their goldens (-update rewrites them).
func TestVoteTranscripts(t *testing.T) {
	scripts, _ := filepath.Glob("../testdata/vote/*.script")
	if len(scripts) == 0 {
		t.Fatal("no scripts in ../testdata/vote")
	}
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".script")
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			r := newVoteRig(t, firstPoint{})
			r.run(string(script))
			got := r.out.String()
			golden := strings.TrimSuffix(s, ".script") + ".txt"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gotLines), len(wantLines)) {
					if gotLines[i] != wantLines[i] {
						t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is intended)", golden, i+1, gotLines[i], wantLines[i])
					}
				}
				t.Fatalf("%s differs in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
			}
		})
	}
}

// The room against real GNU Go, in the terminal: votes, a changed vote,
// an illegal vote refused, windows closed by the clock, GNU Go answering
// each at once, then the room resigns by a majority.
func TestVoteGameGNUGo(t *testing.T) {
	needGNUGo(t)
	set, err := engines.New([]engine.Config{gnugoConfig()}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	r := newVoteRig(t, set)
	r.run(`challenge engine=gnugo level=1 vote=30s 9 black
/as bob
vote E5
/as carol
vote C3
vote E5
/as dave
vote C7
/wait 30s`)
	match, g := r.game(1)
	if g.MoveCount() != 2 || g.At(game.Pt(4, 4)) != game.Black || g.Moves()[1].Color != game.White {
		t.Fatalf("after the first window: %d moves; transcript:\n%s", g.MoveCount(), ClipForTest(r.out.String()))
	}
	out := r.out.String()
	for _, want := range []string{"The room plays E5. Votes: E5 (2 votes), C7 (1).", "@gnugo played", "@carol changes their vote from C3 to E5"} {
		if !strings.Contains(out, want) {
			t.Fatalf("transcript lacks %q:\n%s", want, ClipForTest(out))
		}
	}
	if strings.Count(out, "The room plays E5") != 1 {
		t.Fatalf("the move is announced %d times", strings.Count(out, "The room plays E5"))
	}
	// GNU Go's stone: voting on it is refused with the reason.
	gnu := g.Moves()[1].Point.GTP(9)
	before := r.out.String()
	r.run("/as bob\nvote " + gnu)
	if after := strings.TrimPrefix(r.out.String(), before); !strings.Contains(after, "! "+gnu+" is occupied") {
		t.Fatalf("a vote on GNU Go's stone: %s", after)
	}
	r.run(`vote G3
/wait 30s
/as carol
vote resign
/as dave
vote resign
/as bob
vote D3
/wait 30s`)
	match, g = r.game(1)
	if match.Active() || match.Result != "W+R" || g.MoveCount() != 4 {
		t.Fatalf("after the room resigned: active %v result %q, %d moves; transcript:\n%s", match.Active(), match.Result, g.MoveCount(), ClipForTest(r.out.String()))
	}
	if !strings.Contains(r.out.String(), "The room resigns (2 of 3 voters chose to).") {
		t.Fatalf("no resignation in the transcript:\n%s", ClipForTest(r.out.String()))
	}
	if !bytes.Contains([]byte(r.out.String()), []byte("Game over: White wins by resignation")) {
		t.Fatalf("no result:\n%s", ClipForTest(r.out.String()))
	}
}
