package storage

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

func TestOutbox(t *testing.T) {
	db := mustOpen(t)
	t0 := time.Date(2026, 11, 24, 0, 0, 0, 0, time.UTC)
	db.view(context.Background(), func(tx *Tx) error { // before the bucket exists
		if _, err := tx.Outbox("e1"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("empty outbox: %v", err)
		}
		return nil
	})
	if err := db.update(context.Background(), func(tx *Tx) error {
		if err := tx.PutOutbox("e1", t0, []byte("reply 1")); err != nil {
			return err
		}
		return tx.PutOutbox("e2", t0.Add(time.Hour), []byte("reply 2"))
	}); err != nil {
		t.Fatal(err)
	}
	db.update(context.Background(), func(tx *Tx) error {
		if v, err := tx.Outbox("e1"); err != nil || string(v) != "reply 1" {
			t.Errorf("e1: %q %v", v, err)
		}
		if err := tx.DeleteOutbox("e1"); err != nil {
			t.Error(err)
		}
		if _, err := tx.Outbox("e1"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("delivered e1: %v", err)
		}
		if n, err := tx.ExpireOutbox(t0.Add(2 * time.Hour)); n != 1 || err != nil {
			t.Errorf("expired %d, %v", n, err)
		}
		if _, err := tx.Outbox("e2"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("expired e2: %v", err)
		}
		return nil
	})
}

// Games keep their challenge's number; a number taken by an older game
// makes the game take one above both counters, which challenges skip.
func TestSharedNumbers(t *testing.T) {
	db := mustOpen(t)
	err := db.update(context.Background(), func(tx *Tx) error {
		for range 3 { // old-style games #1..#3
			if err := tx.PutMatch(&gobot.Match{Room: "t:r", Black: "t:a", White: "t:b"}); err != nil {
				return err
			}
		}
		c := &gobot.Challenge{Room: "t:r", From: "t:a"}
		if err := tx.SkipGameNumbers(); err != nil {
			return err
		}
		if err := tx.PutChallenge(c); err != nil || c.ID != 4 {
			t.Errorf("challenge #%d, %v; want #4", c.ID, err)
		}
		g := &gobot.Match{ID: gobot.GameID(c.ID), Room: "t:r", Black: "t:a", White: "t:b"}
		if err := tx.InsertMatch(g); err != nil || g.ID != 4 || g.Version != 1 {
			t.Errorf("game #%d v%d, %v; want #4 v1", g.ID, g.Version, err)
		}
		taken := &gobot.Match{ID: 2, Room: "t:r", Black: "t:a", White: "t:b"}
		if err := tx.InsertMatch(taken); err != nil || taken.ID != 5 {
			t.Errorf("game for a taken number: #%d, %v; want #5", taken.ID, err)
		}
		c2 := &gobot.Challenge{Room: "t:r", From: "t:a"}
		if err := tx.SkipGameNumbers(); err != nil {
			return err
		}
		if err := tx.PutChallenge(c2); err != nil || c2.ID != 6 {
			t.Errorf("next challenge #%d, %v; want #6", c2.ID, err)
		}
		gs, err := tx.ActiveGames("t:a")
		if len(gs) != 5 || err != nil {
			t.Errorf("%d games indexed, %v", len(gs), err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
