package postgres

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// voteClock is the shared time of the two processes.
type voteClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *voteClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *voteClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// sentNotes keeps what one process sent.
type sentNotes struct {
	mu   sync.Mutex
	msgs []protocol.Message
}

func (n *sentNotes) Notify(ctx context.Context, m protocol.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, m)
	return nil
}

func (n *sentNotes) saying(s string) int {
	n.mu.Lock()
	defer n.mu.Unlock()
	k := 0
	for _, m := range n.msgs {
		if strings.Contains(m.Reply.Text, s) {
			k++
		}
	}
	return k
}

// cornerEngine plays the first empty legal point from the top left; it
// counts how often it is asked.
type cornerEngine struct {
	mu    sync.Mutex
	asked int
}

func (e *cornerEngine) List() []chat.EngineInfo {
	return []chat.EngineInfo{{Name: "corner", Levels: []int{1}}}
}

func (e *cornerEngine) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	return nil
}

func (e *cornerEngine) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (chat.EngineMove, error) {
	e.mu.Lock()
	e.asked++
	e.mu.Unlock()
	g, err := game.Replay(rec)
	if err != nil {
		return chat.EngineMove{}, err
	}
	c, cfg := g.ToMove(), g.Config()
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			try, _ := game.Replay(rec)
			if try.At(game.Pt(x, y)) == game.Empty && try.Play(c, game.Pt(x, y)) == nil {
				return chat.EngineMove{Moves: []game.Move{{Color: c, Point: game.Pt(x, y)}}}, nil
			}
		}
	}
	return chat.EngineMove{Moves: []game.Move{{Color: c, Point: game.Pass}}}, nil
}

func (e *cornerEngine) Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error) {
	return nil, nil
}

func (e *cornerEngine) Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error) {
	return true, nil
}

// Two processes on one PostgreSQL race to close the same voting windows:
// each window's move is played once and announced once, and the engine
// answers each once, round after round.
func TestVoteWindowClosedOnceByTwoProcesses(t *testing.T) {
	s1, dsn := mustOpen(t)
	s2, err := Open(context.Background(), dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	clock := &voteClock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	ctx := context.Background()
	type proc struct {
		bot   *chat.Bot
		notes *sentNotes
	}
	var procs []proc
	for i, s := range []gobot.Store{s1, s2} {
		bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9, Holder: fmt.Sprintf("p%d", i)}, s, nil, clock, nil)
		notes := &sentNotes{}
		bot.SetNotifier("t", notes)
		bot.SetEngines(&cornerEngine{}, "", "")
		defer bot.StopEngines()
		procs = append(procs, proc{bot, notes})
	}
	seq := 0
	do := func(p proc, user, line string) protocol.Reply {
		t.Helper()
		seq++
		f := strings.Fields(line)
		rep := p.bot.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("t:" + user), Name: user}, Room: "t:club",
			EventID: gobot.EventID(fmt.Sprintf("t:%d", seq)), Command: f[0], Args: f[1:]})
		if rep.Error {
			t.Fatalf("%s: %s: %s", user, line, rep.Text)
		}
		return rep
	}
	do(procs[0], "ann", "challenge engine=corner vote=1m black 9")
	points := []string{"E5", "D4", "F6", "C3", "G7", "D6", "F4", "E3"}
	for round, p := range points {
		do(procs[round%2], "bob", "vote "+p)
		do(procs[(round+1)%2], "cat", "vote "+p)
		clock.Advance(time.Minute)
		var wg sync.WaitGroup
		for _, pr := range procs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if err := pr.bot.Tick(ctx); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
		for _, pr := range procs {
			pr.bot.WaitEngines()
		}
		// A later tick of either finds nothing left to do.
		for _, pr := range procs {
			if err := pr.bot.Tick(ctx); err != nil {
				t.Fatal(err)
			}
			pr.bot.WaitEngines()
		}
		var match *gobot.Match
		if err := s1.View(ctx, func(tx gobot.Tx) error {
			var err error
			match, err = tx.Match(1)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		g, err := game.Replay(match.Record)
		if err != nil {
			t.Fatal(err)
		}
		if g.MoveCount() != 2*(round+1) {
			t.Fatalf("round %d: %d moves, want %d", round, g.MoveCount(), 2*(round+1))
		}
		pt, _ := game.ParsePoint(p, 9, 9)
		if g.Moves()[2*round].Point != pt {
			t.Fatalf("round %d: the room played %v, want %s", round, g.Moves()[2*round], p)
		}
		announced := 0
		for _, pr := range procs {
			announced += pr.notes.saying("The room plays " + p + ".")
		}
		if announced != 1 {
			t.Fatalf("round %d: the room's %s announced %d times", round, p, announced)
		}
	}
	answers := 0
	for _, pr := range procs {
		answers += pr.notes.saying("<@engine:corner> played")
	}
	if answers != len(points) {
		t.Fatalf("the engine's answers announced %d times, want %d", answers, len(points))
	}
}
