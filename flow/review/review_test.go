package review

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// update runs fn in a write transaction of a new bbolt store on a temp
// file, failing the test on an error.
func update(t *testing.T, fn func(tx gobot.Tx) error) {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

// newReview is an open review of an empty 9×9 board in room, owned by
// "ann" and controlled by "bob", made at t0.
func newReview(t *testing.T) *gobot.Review {
	t.Helper()
	tree, err := game.NewTree(9, 9)
	if err != nil {
		t.Fatal(err)
	}
	rev := gobot.NewReview("x:room", "ann", "an empty 9×9 board", tree, t0)
	rev.Controller = "bob"
	return rev
}

func TestEndReview(t *testing.T) {
	rev := newReview(t)
	if err := End(rev, "eve", false, t0.Add(time.Hour)); !errors.Is(err, ErrNotManager) || rev.Closed {
		t.Fatalf("a stranger ends it: %v, closed %v", err, rev.Closed)
	}
	for _, who := range []struct {
		user  gobot.UserID
		admin bool
	}{{"ann", false}, {"bob", false}, {"eve", true}} {
		rev := newReview(t)
		if err := End(rev, who.user, who.admin, t0.Add(time.Hour)); err != nil || !rev.Closed || !rev.Updated.Equal(t0.Add(time.Hour)) {
			t.Errorf("%s (admin %v) ends it: %v, closed %v, updated %v", who.user, who.admin, err, rev.Closed, rev.Updated)
		}
	}
	if err := End(rev, "ann", false, t0); err != nil {
		t.Fatal(err)
	}
	if err := End(rev, "ann", false, t0); !errors.Is(err, gobot.ErrReviewClosed) {
		t.Errorf("ending it again: %v", err)
	}
}

func TestKeepReview(t *testing.T) {
	rev := newReview(t)
	if err := Keep(rev, "eve", false); !errors.Is(err, ErrNotManager) || rev.Kept {
		t.Fatalf("a stranger keeps it: %v, kept %v", err, rev.Kept)
	}
	if err := Keep(rev, "eve", true); err != nil || !rev.Kept {
		t.Fatalf("an admin keeps it: %v, kept %v", err, rev.Kept)
	}
	if err := Keep(rev, "ann", false); !errors.Is(err, ErrKept) {
		t.Errorf("keeping it again: %v", err)
	}
	// A stranger is refused before being told it is kept.
	if err := Keep(rev, "eve", false); !errors.Is(err, ErrNotManager) {
		t.Errorf("a stranger keeps a kept review: %v", err)
	}
}

func TestResetReviewLinks(t *testing.T) {
	rev := newReview(t)
	ResetLinks(rev, "eve")
	ResetLinks(rev, "eve")
	ResetLinks(rev, "ann")
	if rev.LinkGen["eve"] != 2 || rev.LinkGen["ann"] != 1 || rev.LinkGen["bob"] != 0 {
		t.Errorf("link generations %v", rev.LinkGen)
	}
}

func TestDueReview(t *testing.T) {
	rev := newReview(t)
	if got := Due(rev, t0.Add(gobot.ReviewIdle-time.Second)); got != Waits || rev.Closed {
		t.Fatalf("before idle: %v, closed %v", got, rev.Closed)
	}
	if got := Due(rev, t0.Add(gobot.ReviewIdle)); got != IdleClosed || !rev.Closed || !rev.Updated.Equal(t0) {
		t.Fatalf("idle: %v, closed %v, updated %v", got, rev.Closed, rev.Updated)
	}
	if got := Due(rev, t0.Add(gobot.ReviewLife-time.Second)); got != Waits {
		t.Errorf("closed, before its life's end: %v", got)
	}
	if got := Due(rev, t0.Add(gobot.ReviewLife)); got != Expired {
		t.Errorf("closed, at its life's end: %v", got)
	}
	rev.Kept = true
	if got := Due(rev, t0.Add(2*gobot.ReviewLife)); got != Waits {
		t.Errorf("kept: %v", got)
	}
}

func TestFindReview(t *testing.T) {
	update(t, func(tx gobot.Tx) error {
		refused := func(what string, err error, want Problem) {
			t.Helper()
			var e Refusal
			if !errors.As(err, &e) || e.Problem != want {
				t.Errorf("%s: %v, want problem %d", what, err, want)
			}
		}
		_, err := Find(tx, "x:room", "x:ann", 0, false)
		refused("none of ann's", err, NoneOfYours)
		_, err = Find(tx, "x:room", "x:ann", 0, true)
		refused("none open", err, NoneOpen)
		tree, _ := game.NewTree(9, 9)
		bob, err := Open(tx, "x:room", "x:bob", "a board", tree, 0, t0)
		if err != nil {
			return err
		}
		_, err = Find(tx, "x:room", "x:ann", 0, false)
		refused("bob's only", err, NoneOfYours)
		if rev, err := Find(tx, "x:room", "x:ann", 0, true); err != nil || rev.ID != bob.ID {
			t.Errorf("reset finds the room's one review: %v, %v", rev, err)
		}
		_, err = Find(tx, "x:other", "x:bob", bob.ID, false)
		refused("elsewhere", err, NoSuch)
		ann, err := Open(tx, "x:room", "x:ann", "a board", tree, 0, t0)
		if err != nil {
			return err
		}
		if rev, err := Find(tx, "x:room", "x:ann", 0, false); err != nil || rev.ID != ann.ID {
			t.Errorf("ann's one review: %v, %v", rev, err)
		}
		_, err = Find(tx, "x:room", "x:ann", 0, true)
		refused("two in the room", err, WhichOfRoom)
		ann.Closed = true
		if err := tx.PutReview(ann); err != nil {
			return err
		}
		if rev, err := Find(tx, "x:room", "x:ann", ann.ID, false); err != nil || rev.ID != ann.ID {
			t.Errorf("closed #%d named: %v, %v", ann.ID, rev, err)
		}
		_, err = Find(tx, "x:room", "x:ann", ann.ID, true)
		refused("closed, to reset", err, NoSuchOpen)
		return nil
	})
}

// TestMeantReview: rN names a review and #N a game, always; a game named
// where a review is meant means its open review in the room, or the
// caller's of several, and is refused otherwise, with the action kept
// for the words.
func TestMeantReview(t *testing.T) {
	update(t, func(tx gobot.Tx) error {
		refused := func(what string, err error, want Problem, game gobot.GameID) {
			t.Helper()
			var e Refusal
			if !errors.As(err, &e) || e.Problem != want || e.Game != game || e.Action != "keep" {
				t.Errorf("%s: %+v, want problem %d of game %d, action keep", what, err, want, game)
			}
		}
		tree, _ := game.NewTree(9, 9)
		board, err := Open(tx, "x:room", "x:ann", "a board", tree, 0, t0)
		if err != nil {
			return err
		}
		_, err = Meant(tx, "x:room", "x:ann", 0, 7, "keep")
		refused("game #7 has no review", err, NotAReview, 7)
		if e := err.(Refusal); e.Review != board.ID {
			t.Errorf("the example is %d, want ann's review %d", e.Review, board.ID)
		}
		bobs, err := Open(tx, "x:room", "x:bob", "game #7", tree, 7, t0)
		if err != nil {
			return err
		}
		if rev, err := Meant(tx, "x:room", "x:ann", 0, 7, "keep"); err != nil || rev.ID != bobs.ID {
			t.Errorf("game #7's one review: %v, %v", rev, err)
		}
		if rev, err := Meant(tx, "x:room", "x:ann", bobs.ID, 0, "keep"); err != nil || rev.ID != bobs.ID {
			t.Errorf("r%d named: %v, %v", bobs.ID, rev, err)
		}
		_, err = Meant(tx, "x:other", "x:bob", 0, 7, "keep")
		refused("game #7 reviewed in another room", err, NotAReview, 7)
		_, err = Meant(tx, "x:room", "x:ann", bobs.ID, 7, "keep")
		refused("both", err, GameAndReview, 7)
		carols, err := Open(tx, "x:room", "x:carol", "game #7", tree, 7, t0)
		if err != nil {
			return err
		}
		if rev, err := Meant(tx, "x:room", "x:carol", 0, 7, "keep"); err != nil || rev.ID != carols.ID {
			t.Errorf("carol's of game #7's two: %v, %v", rev, err)
		}
		_, err = Meant(tx, "x:room", "x:ann", 0, 7, "keep")
		refused("two of game #7, neither ann's", err, WhichOfGame, 7)
		_, err = Meant(tx, "x:room", "x:dave", 0, 0, "keep")
		refused("dave has none", err, NoneOfYours, 0)
		return nil
	})
}
