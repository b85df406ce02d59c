package flow_test

import (
	"errors"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

func TestSettings(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		rank := func(v string) error { return errors.New("rank " + v) }
		err := flow.SetPlayer(tx, "x:ann", "Ann", []string{"theme=DARK", "notify=loud"}, rank, t0)
		if want := (flow.ChoiceRefusal{Key: "notify", Value: "loud"}); err != want {
			t.Errorf("notify=loud: %v, want %v", err, want)
		}
		if err := flow.SetPlayer(tx, "x:ann", "Ann", []string{"rank=5k"}, rank, t0); err == nil || err.Error() != "rank 5k" {
			t.Errorf("rank=5k: %v, want the rank's own error", err)
		}
		if err := flow.SetPlayer(tx, "x:ann", "Ann", []string{"theme=DARK", "confirm=never"}, rank, t0); err != nil {
			return err
		}
		if p, err := tx.Player("x:ann"); err != nil || p.Name != "Ann" || p.Theme != "dark" || p.Confirm != "never" || !p.Updated.Equal(t0) {
			t.Errorf("player: %+v, %v", p, err)
		}
		if rules, err := flow.RoomRules(tx, "x:room", "chinese"); err != nil || rules != "chinese" {
			t.Errorf("rules of a room not stored: %q, %v", rules, err)
		}
		rules, off := "japanese ko=simple", false
		if err := flow.SetRoom(tx, "x:room", flow.RoomChange{Rules: &rules, Width: 13, Height: 13, Engines: &off}, t0); err != nil {
			return err
		}
		if rules, err := flow.RoomRules(tx, "x:room", "chinese"); err != nil || rules != "japanese ko=simple" {
			t.Errorf("room's rules: %q, %v", rules, err)
		}
		rm, err := tx.Room("x:room")
		if err != nil || rm.Width != 13 || !rm.NoEngines || rm.Clock != "" || rm.Komi != nil {
			t.Errorf("room: %+v, %v", rm, err)
		}
		return nil
	})
}

func TestFindReview(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		refused := func(what string, err error, want flow.ReviewProblem) {
			t.Helper()
			var e flow.ReviewRefusal
			if !errors.As(err, &e) || e.Problem != want {
				t.Errorf("%s: %v, want problem %d", what, err, want)
			}
		}
		_, err := flow.FindReview(tx, "x:room", "x:ann", 0, false)
		refused("none of ann's", err, flow.NoReviewOfYours)
		_, err = flow.FindReview(tx, "x:room", "x:ann", 0, true)
		refused("none open", err, flow.NoOpenReview)
		tree, _ := game.NewTree(9, 9)
		bob, err := flow.OpenReview(tx, "x:room", "x:bob", "a board", tree, 0, t0)
		if err != nil {
			return err
		}
		_, err = flow.FindReview(tx, "x:room", "x:ann", 0, false)
		refused("bob's only", err, flow.NoReviewOfYours)
		if rev, err := flow.FindReview(tx, "x:room", "x:ann", 0, true); err != nil || rev.ID != bob.ID {
			t.Errorf("reset finds the room's one review: %v, %v", rev, err)
		}
		_, err = flow.FindReview(tx, "x:other", "x:bob", bob.ID, false)
		refused("elsewhere", err, flow.NoSuchReview)
		ann, err := flow.OpenReview(tx, "x:room", "x:ann", "a board", tree, 0, t0)
		if err != nil {
			return err
		}
		if rev, err := flow.FindReview(tx, "x:room", "x:ann", 0, false); err != nil || rev.ID != ann.ID {
			t.Errorf("ann's one review: %v, %v", rev, err)
		}
		_, err = flow.FindReview(tx, "x:room", "x:ann", 0, true)
		refused("two in the room", err, flow.WhichOfRoom)
		ann.Closed = true
		if err := tx.PutReview(ann); err != nil {
			return err
		}
		if rev, err := flow.FindReview(tx, "x:room", "x:ann", ann.ID, false); err != nil || rev.ID != ann.ID {
			t.Errorf("closed #%d named: %v, %v", ann.ID, rev, err)
		}
		_, err = flow.FindReview(tx, "x:room", "x:ann", ann.ID, true)
		refused("closed, to reset", err, flow.NoSuchOpenReview)
		return nil
	})
}
