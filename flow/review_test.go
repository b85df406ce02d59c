package flow

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

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
	if err := EndReview(rev, "eve", false, t0.Add(time.Hour)); !errors.Is(err, ErrNotManager) || rev.Closed {
		t.Fatalf("a stranger ends it: %v, closed %v", err, rev.Closed)
	}
	for _, who := range []struct {
		user  gobot.UserID
		admin bool
	}{{"ann", false}, {"bob", false}, {"eve", true}} {
		rev := newReview(t)
		if err := EndReview(rev, who.user, who.admin, t0.Add(time.Hour)); err != nil || !rev.Closed || !rev.Updated.Equal(t0.Add(time.Hour)) {
			t.Errorf("%s (admin %v) ends it: %v, closed %v, updated %v", who.user, who.admin, err, rev.Closed, rev.Updated)
		}
	}
	if err := EndReview(rev, "ann", false, t0); err != nil {
		t.Fatal(err)
	}
	if err := EndReview(rev, "ann", false, t0); !errors.Is(err, gobot.ErrReviewClosed) {
		t.Errorf("ending it again: %v", err)
	}
}

func TestKeepReview(t *testing.T) {
	rev := newReview(t)
	if err := KeepReview(rev, "eve", false); !errors.Is(err, ErrNotManager) || rev.Kept {
		t.Fatalf("a stranger keeps it: %v, kept %v", err, rev.Kept)
	}
	if err := KeepReview(rev, "eve", true); err != nil || !rev.Kept {
		t.Fatalf("an admin keeps it: %v, kept %v", err, rev.Kept)
	}
	if err := KeepReview(rev, "ann", false); !errors.Is(err, ErrReviewKept) {
		t.Errorf("keeping it again: %v", err)
	}
	// A stranger is refused before being told it is kept.
	if err := KeepReview(rev, "eve", false); !errors.Is(err, ErrNotManager) {
		t.Errorf("a stranger keeps a kept review: %v", err)
	}
}

func TestResetReviewLinks(t *testing.T) {
	rev := newReview(t)
	ResetReviewLinks(rev, "eve")
	ResetReviewLinks(rev, "eve")
	ResetReviewLinks(rev, "ann")
	if rev.LinkGen["eve"] != 2 || rev.LinkGen["ann"] != 1 || rev.LinkGen["bob"] != 0 {
		t.Errorf("link generations %v", rev.LinkGen)
	}
}

func TestDueReview(t *testing.T) {
	rev := newReview(t)
	if got := DueReview(rev, t0.Add(gobot.ReviewIdle-time.Second)); got != ReviewWaits || rev.Closed {
		t.Fatalf("before idle: %v, closed %v", got, rev.Closed)
	}
	if got := DueReview(rev, t0.Add(gobot.ReviewIdle)); got != ReviewIdleClosed || !rev.Closed || !rev.Updated.Equal(t0) {
		t.Fatalf("idle: %v, closed %v, updated %v", got, rev.Closed, rev.Updated)
	}
	if got := DueReview(rev, t0.Add(gobot.ReviewLife-time.Second)); got != ReviewWaits {
		t.Errorf("closed, before its life's end: %v", got)
	}
	if got := DueReview(rev, t0.Add(gobot.ReviewLife)); got != ReviewExpired {
		t.Errorf("closed, at its life's end: %v", got)
	}
	rev.Kept = true
	if got := DueReview(rev, t0.Add(2*gobot.ReviewLife)); got != ReviewWaits {
		t.Errorf("kept: %v", got)
	}
}
