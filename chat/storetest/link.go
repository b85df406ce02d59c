package storetest

import (
	"context"
	"errors"
	"testing"

	"github.com/gobotgo/gobot"
)

// testLinkGenerations: a player's link generation in a game is 0 until
// stored, then what was stored, kept apart per game and per player, and
// a rolled-back change leaves the one before.
func testLinkGenerations(t *testing.T, s gobot.Store) {
	gen := func(g gobot.GameID, u gobot.UserID) uint64 {
		t.Helper()
		var n uint64
		view(t, s, func(tx gobot.Tx) error {
			var err error
			n, err = tx.LinkGeneration(g, u)
			return err
		})
		return n
	}
	if n := gen(1, "t:ann"); n != 0 {
		t.Errorf("never stored: generation %d, want 0", n)
	}
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutLinkGeneration(1, "t:ann", 1); err != nil {
			return err
		}
		if err := tx.PutLinkGeneration(1, "t:ann", 2); err != nil {
			return err
		}
		// Read back in the same transaction.
		if n, err := tx.LinkGeneration(1, "t:ann"); n != 2 || err != nil {
			t.Errorf("inside the transaction: %d, %v; want 2", n, err)
		}
		return tx.PutLinkGeneration(2, "t:bob", 7)
	})
	for _, c := range []struct {
		g    gobot.GameID
		u    gobot.UserID
		want uint64
	}{{1, "t:ann", 2}, {2, "t:bob", 7}, {2, "t:ann", 0}, {1, "t:bob", 0}, {1, "t:an", 0}, {10, "t:ann", 0}} {
		if n := gen(c.g, c.u); n != c.want {
			t.Errorf("game #%d, %s: generation %d, want %d", c.g, c.u, n, c.want)
		}
	}
	errRollback := errors.New("rolled back")
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.PutLinkGeneration(1, "t:ann", 3); err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		t.Errorf("a rolled-back Update: %v", err)
	}
	if n := gen(1, "t:ann"); n != 2 {
		t.Errorf("after a rolled-back change: %d, want 2", n)
	}
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutLinkGeneration(0, "t:ann", 1); err == nil {
			t.Error("a generation for game #0 was stored")
		}
		if err := tx.PutLinkGeneration(1, "", 1); err == nil {
			t.Error("a generation for no user was stored")
		}
		return nil
	})
}
