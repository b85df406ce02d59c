package board

import (
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// read is a 9×9 game between black and white (Japanese rules) after
// moves, as a board reads it.
func read(t *testing.T, m *gobot.Match, moves ...string) *View {
	t.Helper()
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		p, err := game.ParsePoint(s, 9, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	m.Record = g.Record()
	l, err := flow.Load(m)
	if err != nil {
		t.Fatal(err)
	}
	return Read(l, func(u gobot.UserID) string { return "~" + u.Local() })
}

// For answers what each user may do on a board: the side to move moves,
// a vote game's room members vote for the room, a team's member moves
// only in turn, anyone else watches; a finished game offers nothing.
func TestFor(t *testing.T) {
	type can struct {
		role                     Role
		move, vote, undo, resign bool
		color                    game.Color
	}
	check := func(t *testing.T, bv *View, u gobot.UserID, want can) {
		t.Helper()
		v := bv.For(u)
		got := can{v.Role, v.Move, v.Vote, v.Undo, v.Resign, v.Color}
		if got != want {
			t.Errorf("%s: %+v, want %+v", u, got, want)
		}
		if v.Watch() != (want.role == Watcher) {
			t.Errorf("%s: Watch() = %v", u, v.Watch())
		}
	}
	t.Run("two players", func(t *testing.T) {
		bv := read(t, &gobot.Match{ID: 1, Black: "t:black", White: "t:white"}, "E5")
		check(t, bv, "t:white", can{Player, true, false, true, true, game.White})
		check(t, bv, "t:black", can{Player, false, false, true, true, game.Black})
		check(t, bv, "t:carol", can{role: Watcher})
		check(t, bv, "", can{role: Watcher})
		if bv.Turn != game.White || bv.Phase != "playing" || !bv.Sides[1].ToMove || bv.Sides[0].Name != "~black" {
			t.Errorf("turn %v, phase %q, sides %+v", bv.Turn, bv.Phase, bv.Sides)
		}
	})
	t.Run("the room votes", func(t *testing.T) {
		m := &gobot.Match{ID: 2, Black: gobot.VoteSeat, White: "t:white", Vote: &gobot.Vote{Window: time.Minute}}
		bv := read(t, m)
		check(t, bv, "t:carol", can{Voter, false, true, false, true, game.Black})
		check(t, bv, "t:white", can{Player, false, false, false, true, game.White})
		bv = read(t, m, "E5") // the room's opponent moves now
		check(t, bv, "t:carol", can{role: Voter, color: game.Black})
	})
	t.Run("teams", func(t *testing.T) {
		m := &gobot.Match{ID: 3, Black: "t:a1", White: "t:b1",
			Teams: &gobot.Teams{Black: []gobot.UserID{"t:a1", "t:a2"}, White: []gobot.UserID{"t:b1", "t:b2"}}}
		bv := read(t, m, "E5", "C3") // Black's second turn: its second player
		check(t, bv, "t:a2", can{Player, true, false, true, true, game.Black})
		check(t, bv, "t:a1", can{Player, false, false, true, true, game.Black})
		check(t, bv, "t:b1", can{Player, false, false, true, true, game.White})
		if bv.Sides[0].Name != "~a1, ~a2" {
			t.Errorf("Black is called %q", bv.Sides[0].Name)
		}
	})
	t.Run("over", func(t *testing.T) {
		bv := read(t, &gobot.Match{ID: 4, Black: "t:black", White: "t:white", Finished: time.Now(), Result: "W+R"}, "E5")
		check(t, bv, "t:white", can{role: Player, color: game.White})
		if bv.Phase != "over" || bv.Turn != game.Empty {
			t.Errorf("phase %q, turn %v", bv.Phase, bv.Turn)
		}
	})
}

// Clocks.At reads both clocks of a live game as a board counts them:
// the running one less the time since its turn began, the other as it
// stood, a simple clock's turn as the time left in it, a lost one out.
func TestClocksAt(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	live := func(tc gobot.TimeControl, moves ...string) *Clocks {
		t.Helper()
		m := &gobot.Match{ID: 1, Black: "t:black", White: "t:white", Clock: tc}
		for _, c := range []game.Color{game.Black, game.White} {
			m.SetClock(c, tc.Start())
		}
		m.SetClock(game.Black, gobot.ClockState{Main: 20 * time.Second, Periods: 3, Period: 30 * time.Second})
		bv := read(t, m, moves...)
		m.Deadline = t0.Add(tc.Budget(m.ClockOf(bv.Game.ToMove())))
		bv = read(t, m, moves...)
		if bv.Live == nil {
			t.Fatalf("%+v: no live clocks", tc)
		}
		return bv.Live
	}
	byo := gobot.TimeControl{Kind: gobot.ByoYomi, Main: time.Minute, Periods: 3, Period: 30 * time.Second}
	lc := live(byo, "E5") // White to move, its clock running since t0
	if s, ok := lc.At(game.White, t0.Add(70*time.Second)); !ok || s.Main != 0 || s.Periods != 3 || s.Period != 20*time.Second {
		t.Errorf("White 70 s into its turn: %+v, %v", s, ok)
	}
	if s, ok := lc.At(game.Black, t0.Add(70*time.Second)); !ok || s.Main != 20*time.Second || s.Periods != 3 {
		t.Errorf("Black, not to move: %+v, %v (it stands as it was)", s, ok)
	}
	if _, ok := lc.At(game.White, t0.Add(3*time.Minute)); ok {
		t.Error("White past its last period still has time")
	}
	simple := gobot.TimeControl{Kind: gobot.Simple, PerMove: 30 * time.Second}
	lc = live(simple)
	if s, _ := lc.At(game.Black, t0.Add(10*time.Second)); s.Main != 20*time.Second {
		t.Errorf("simple, 10 s into the turn: %+v", s)
	}
	if s, _ := lc.At(game.White, t0.Add(10*time.Second)); s.Main != 30*time.Second {
		t.Errorf("simple, not to move: %+v", s)
	}
}
