package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// NewReview returns a review of an empty 9×9 board in room by owner, with
// a variation, a mark and a comment, the owner present.
func NewReview(room gobot.RoomID, owner gobot.UserID) *gobot.Review {
	tree, err := game.NewTree(9, 9)
	must(err)
	r := gobot.NewReview(room, owner, "a 9×9 board", tree, T0)
	must(r.Play(owner, game.Pt(2, 2), T0))
	must(r.Play(owner, game.Pt(6, 6), T0))
	must(r.Navigate(owner, 1, T0))
	must(r.Play(owner, game.Pt(4, 4), T0)) // a variation at move 2
	must(r.Mark(owner, game.Mark{Point: game.Pt(4, 4), Shape: game.Triangle}, T0))
	must(r.Comment(owner, "tengen instead", T0))
	r.Join(owner)
	return r
}

// must panics on err: NewReview's fixed steps cannot fail unless package
// game broke.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

func reviewIDs(t *testing.T, s gobot.Store, what string, list func(tx gobot.Tx) ([]*gobot.Review, error)) []gobot.ReviewID {
	t.Helper()
	var ids []gobot.ReviewID
	view(t, s, func(tx gobot.Tx) error {
		rs, err := list(tx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, r := range rs {
			ids = append(ids, r.ID)
		}
		return nil
	})
	return ids
}

// testReviews: a review comes back as stored (tree, position, control,
// followers), is numbered apart from games, versioned, listed by room
// while open and by due time, and deleted.
func testReviews(t *testing.T, s gobot.Store) {
	a := NewReview("t:room", "t:ann")
	b := NewReview("t:room", "t:bob")
	c := NewReview("t:other", "t:cat")
	putGames(t, s, NewGame("t:ann", "t:bob", "t:room"))
	update(t, s, func(tx gobot.Tx) error {
		for _, r := range []*gobot.Review{a, b, c} {
			if err := tx.PutReview(r); err != nil {
				return err
			}
		}
		return nil
	})
	if a.ID != 1 || b.ID != 2 || c.ID != 3 || a.Version != 1 {
		t.Fatalf("reviews numbered %d %d %d (version %d), want 1 2 3 (1)", a.ID, b.ID, c.ID, a.Version)
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Review(a.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, a) {
			t.Errorf("review read back\n%+v\nwant\n%+v", got, a)
		}
		if !got.Tree.OnMainLine(2) || got.Tree.OnMainLine(got.Node) || got.Tree.Nodes[got.Node].Comment != "tengen instead" {
			t.Errorf("tree read back: node %d of %+v", got.Node, got.Tree.Nodes)
		}
		if _, err := tx.Review(99); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("review #99: %v", err)
		}
		return nil
	})
	// A stale write is a conflict; a fresh one bumps the version.
	stale := *a
	update(t, s, func(tx gobot.Tx) error {
		a.Join("t:bob")
		if err := a.Give("t:ann", "t:bob", T0.Add(time.Minute)); err != nil {
			return err
		}
		return tx.PutReview(a)
	})
	err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutReview(&stale) })
	if !errors.Is(err, gobot.ErrConflict) {
		t.Errorf("stale review write: %v, want ErrConflict", err)
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Review(a.ID)
		if err != nil || got.Version != 2 || got.Controller != "t:bob" || !reflect.DeepEqual(got.Present, []gobot.UserID{"t:ann", "t:bob"}) {
			t.Errorf("review after handing over: %+v, %v", got, err)
		}
		return nil
	})
	wantIDs(t, "room reviews", reviewIDs(t, s, "RoomReviews", func(tx gobot.Tx) ([]*gobot.Review, error) { return tx.RoomReviews("t:room") }), 1, 2)
	// Closing takes a review off its room's list; its due time moves
	// from the idle close to its expiry, and a kept one has none.
	update(t, s, func(tx gobot.Tx) error {
		b.Closed = true
		if err := tx.PutReview(b); err != nil {
			return err
		}
		c.Closed, c.Kept = true, true
		return tx.PutReview(c)
	})
	wantIDs(t, "room reviews", reviewIDs(t, s, "RoomReviews", func(tx gobot.Tx) ([]*gobot.Review, error) { return tx.RoomReviews("t:room") }), 1)
	wantIDs(t, "other room", reviewIDs(t, s, "RoomReviews", func(tx gobot.Tx) ([]*gobot.Review, error) { return tx.RoomReviews("t:other") }))
	due := func(at time.Time, limit int) []gobot.ReviewID {
		return reviewIDs(t, s, "DueReviews", func(tx gobot.Tx) ([]*gobot.Review, error) { return tx.DueReviews(at, limit) })
	}
	wantIDs(t, "due now", due(T0, 0))
	wantIDs(t, "due after two days", due(T0.Add(gobot.ReviewIdle+time.Hour), 0), 1)
	wantIDs(t, "due after a month", due(T0.Add(gobot.ReviewLife+time.Hour), 0), 1, 2)
	wantIDs(t, "due after a month, one", due(T0.Add(gobot.ReviewLife+time.Hour), 1), 1)
	update(t, s, func(tx gobot.Tx) error { return tx.DeleteReview(b.ID) })
	update(t, s, func(tx gobot.Tx) error { return tx.DeleteReview(b.ID) }) // nothing there: no error
	wantIDs(t, "due after deleting", due(T0.Add(gobot.ReviewLife+time.Hour), 0), 1)
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Review(b.ID); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("deleted review: %v", err)
		}
		if g, err := tx.Match(1); err != nil || g.ID != 1 {
			t.Errorf("game #1 beside reviews: %v", err)
		}
		return nil
	})
	// A new review after a deletion takes a new number.
	d := NewReview("t:room", "t:ann")
	update(t, s, func(tx gobot.Tx) error { return tx.PutReview(d) })
	if d.ID != 4 {
		t.Errorf("review after a deletion numbered %d, want 4", d.ID)
	}
}
