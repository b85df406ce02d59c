package flow_test

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

func TestVacationDue(t *testing.T) {
	end := t0.Add(5 * day)
	on := &gobot.Vacation{Start: t0, End: end}
	reminded := &gobot.Vacation{Start: t0, End: end, Reminded: true}
	for _, tc := range []struct {
		name string
		v    *gobot.Vacation
		at   time.Time
		want flow.VacationStep
	}{
		{"none", nil, end, flow.VacationWaits},
		{"not on", &gobot.Vacation{Left: day}, end, flow.VacationWaits},
		{"days to go", on, end.Add(-day - time.Second), flow.VacationWaits},
		{"a day to go", on, end.Add(-day), flow.VacationRemind},
		{"reminded", reminded, end.Add(-time.Hour), flow.VacationWaits},
		{"ran out", reminded, end, flow.VacationEnds},
		{"ran out, never reminded", on, end.Add(time.Hour), flow.VacationEnds},
	} {
		if got := flow.VacationDue(tc.v, tc.at); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}

// twoPlayers begins a 9×9 game between alice and bob at t0 with clock,
// stored as game id.
func twoPlayers(t *testing.T, tx gobot.Tx, id gobot.GameID, clock gobot.TimeControl) *flow.Loaded {
	t.Helper()
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	m := &gobot.Match{ID: id, Room: "t:room", Black: "t:alice", White: "t:bob", Record: g.Record(), Clock: clock, Created: t0, Updated: t0}
	m.StartClocks()
	flow.StartClock(m, g, t0)
	if err := tx.InsertMatch(m); err != nil {
		t.Fatal(err)
	}
	return &flow.Loaded{Match: m, G: g}
}

// A stopped clock keeps the time left and gives it back when the last
// of its players on vacation returns.
func TestPauseGame(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		l := twoPlayers(t, tx, 1, gobot.TimeControl{Kind: gobot.PerMove, PerMove: day})
		m, at := l.Match, t0.Add(10*time.Hour)
		if !flow.PauseGame(l, "t:alice", at) || m.PausedLeft != 14*time.Hour || !m.Deadline.IsZero() || !m.PausedAt.Equal(at) {
			t.Fatalf("alice's vacation: %+v", m)
		}
		if flow.PauseGame(l, "t:alice", at) || !flow.PauseGame(l, "t:bob", at.Add(time.Hour)) || !slices.Equal(m.PausedBy, []gobot.UserID{"t:alice", "t:bob"}) {
			t.Fatalf("bob's vacation too: %+v", m)
		}
		back := at.Add(3 * day)
		if flow.UnpauseGame(l, "t:alice", back) || !m.Paused() {
			t.Fatalf("alice back, bob away: %+v", m)
		}
		if !flow.UnpauseGame(l, "t:bob", back) || m.Paused() || !m.Deadline.Equal(back.Add(14*time.Hour)) {
			t.Fatalf("both back: %+v", m)
		}
		live := twoPlayers(t, tx, 2, gobot.TimeControl{Kind: gobot.Simple, PerMove: 30 * time.Second})
		if flow.PauseGame(live, "t:alice", at) {
			t.Errorf("a live game's clock stopped")
		}
		return nil
	})
}

// A vacation spends the account in real time; its start stops the
// clocks it applies to and says why the others run on, and its end
// starts them again.
func TestVacationOnOff(t *testing.T) {
	db := newDB(t)
	cfg := flow.DefaultVacation
	update(t, db, func(tx gobot.Tx) error {
		games := []*flow.Loaded{
			twoPlayers(t, tx, 1, gobot.TimeControl{Kind: gobot.PerMove, PerMove: day}),
			twoPlayers(t, tx, 2, gobot.TimeControl{Kind: gobot.Simple, PerMove: 30 * time.Second}),
			twoPlayers(t, tx, 3, gobot.TimeControl{}),
		}
		var e flow.VacationRefusal
		if _, err := flow.VacationOn(tx, flow.VacationConfig{PerWeek: day, Off: true}, "t:alice", "t:room", t0); !errors.As(err, &e) || e.Problem != flow.VacationsOff {
			t.Errorf("vacations off: %v", err)
		}
		v, err := flow.VacationOn(tx, cfg, "t:alice", "t:room", t0)
		if err != nil || !v.End.Equal(t0.Add(14*day)) || v.Room != "t:room" {
			t.Fatalf("vacation on: %+v, %v", v, err)
		}
		if _, err := flow.VacationOn(tx, cfg, "t:alice", "t:room", t0); !errors.As(err, &e) || e.Problem != flow.AlreadyAway || !e.Vacation.End.Equal(v.End) {
			t.Errorf("vacation on twice: %v", err)
		}
		did, err := flow.StopClocks(tx, games, "t:alice", t0)
		if err != nil {
			return err
		}
		if want := []flow.VacationClock{flow.ClockStopped, flow.ClockLive, flow.ClockAlone}; !slices.Equal([]flow.VacationClock{did[0].Clock, did[1].Clock, did[2].Clock}, want) {
			t.Errorf("clocks: %+v, want %v", did, want)
		}
		p, err := flow.LoadPlayer(tx, "t:alice")
		if err != nil {
			return err
		}
		back := t0.Add(3*day + 5*time.Second + 300*time.Millisecond)
		end, err := flow.VacationOff(tx, cfg, p, back)
		if err != nil || !end.Equal(back) || p.Vacation.On() || p.Vacation.Left != 11*day-5*time.Second {
			t.Fatalf("vacation off: %v, %+v, %v", end, p.Vacation, err)
		}
		did, err = flow.RestartClocks(tx, games, "t:alice", end, back)
		if err != nil || did[0].Clock != flow.ClockRestarted || did[1].Clock != flow.ClockAlone || !games[0].Match.Deadline.Equal(back.Add(day)) {
			t.Fatalf("clocks again: %+v, %v", did, err)
		}
		if _, err := flow.VacationOff(tx, cfg, p, back); !errors.As(err, &e) || e.Problem != flow.NotAway {
			t.Errorf("vacation off twice: %v", err)
		}
		return nil
	})
}
