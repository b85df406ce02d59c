package flow_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// A tournament's games are played through the door like any other: the
// end of a round's last game, in the transaction that ends it, makes the
// tournament due, and its due work pairs the next round once — a second
// run (another process, a restart) finds nothing to do.
func TestTournamentRoundsThroughTheDoor(t *testing.T) {
	db := newDB(t)
	const room = gobot.RoomID("t:room")
	players := []gobot.UserID{"t:ann", "t:bob", "t:cat", "t:dan"}
	var id gobot.TournamentID
	update(t, db, func(tx gobot.Tx) error {
		tt := &gobot.Tournament{Name: "Cup", Room: room, Organiser: players[0], System: tournament.Swiss, Rounds: 2, Size: 9,
			Rules: game.Rules{Komi: 6.5}, Bar: tournament.DefaultBar, Floor: tournament.DefaultFloor}
		if err := flow.NewTournament(tx, tt, t0); err != nil {
			return err
		}
		for _, u := range players {
			if err := flow.JoinTournament(tx, tt, u, u.Local(), "", t0); err != nil {
				return err
			}
		}
		o, err := flow.StartTournament(tx, flow.VacationConfig{}, tt, t0)
		if err != nil {
			return err
		}
		if len(o.Games) != 2 || o.Round != 1 {
			t.Fatalf("round 1: %d games, round %d", len(o.Games), o.Round)
		}
		id = tt.ID
		return nil
	})
	var games []gobot.GameID
	var stored *gobot.Tournament
	view := func() {
		t.Helper()
		if err := db.View(t.Context(), func(tx gobot.Tx) (err error) { stored, err = tx.Tournament(id); return err }); err != nil {
			t.Fatal(err)
		}
	}
	view()
	games = stored.Played[0].Matches
	// Black resigns each game through the door.
	at := t0.Add(time.Hour)
	for i, g := range games {
		update(t, db, func(tx gobot.Tx) error {
			m, err := tx.Match(g)
			if err != nil {
				return err
			}
			_, err = flow.Act(tx, flow.Engines{}, flow.Actor{User: m.Black, Room: room, Time: at}, g, flow.Resign{})
			return err
		})
		view()
		if res := stored.Played[0].Games[i].Result; res != tournament.WhiteWins {
			t.Errorf("game #%d: result %v in the tournament, want W+", g, res)
		}
		if last := i == len(games)-1; stored.Due.IsZero() == last {
			t.Errorf("after game %d of %d: Due %v", i+1, len(games), stored.Due)
		}
	}
	// The due work pairs round 2, once.
	for run := 1; run <= 2; run++ {
		update(t, db, func(tx gobot.Tx) error {
			tt, err := tx.Tournament(id)
			if err != nil {
				return err
			}
			o, err := flow.TournamentDue(tx, flow.VacationConfig{}, tt, at.Add(time.Minute))
			if err != nil {
				return err
			}
			if (o != nil) != (run == 1) {
				t.Errorf("run %d: %+v", run, o)
			}
			return nil
		})
	}
	view()
	if len(stored.Played) != 2 || stored.State != gobot.Running {
		t.Fatalf("after the due work: %d rounds, %v", len(stored.Played), stored.State)
	}
	// The organiser's pair refuses while round 2 goes on.
	update(t, db, func(tx gobot.Tx) error {
		tt, _ := tx.Tournament(id)
		_, err := flow.PairRound(tx, flow.VacationConfig{}, tt, at)
		var r flow.TournamentRefusal
		if !errors.As(err, &r) || r.Problem != flow.RoundGoesOn || r.Left != 2 {
			t.Errorf("pair during round 2: %v", err)
		}
		return nil
	})
}
