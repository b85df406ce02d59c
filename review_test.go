package gobot

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

// Control of a review: the owner controls, hands it on to someone
// present, takes it back; a controller who leaves hands it to the
// longest-present follower; only the controller changes the board.
func TestReviewControl(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tree, err := game.NewTree(9, 9)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReview("t:room", "t:ann", "a 9×9 board", tree, t0)
	for _, u := range []UserID{"t:ann", "t:bob", "t:cat", "t:bob"} {
		r.Join(u)
	}
	if !slices.Equal(r.Present, []UserID{"t:ann", "t:bob", "t:cat"}) || r.Controller != "t:ann" {
		t.Fatalf("present %v, controller %s", r.Present, r.Controller)
	}
	if err := r.Play("t:bob", game.Pt(2, 2), t0); !errors.Is(err, ErrNotController) {
		t.Fatalf("a follower played: %v", err)
	}
	if err := r.Give("t:ann", "t:dan", t0); !errors.Is(err, ErrNotPresent) {
		t.Fatalf("control given to someone absent: %v", err)
	}
	if err := r.Give("t:ann", "t:cat", t0); err != nil || r.Controller != "t:cat" {
		t.Fatalf("give: %v, controller %s", err, r.Controller)
	}
	if err := r.Play("t:cat", game.Pt(2, 2), t0.Add(time.Hour)); err != nil || r.Node != 1 || !r.Updated.Equal(t0.Add(time.Hour)) {
		t.Fatalf("the new controller played: %v, node %d", err, r.Node)
	}
	if err := r.Take("t:bob", t0); !errors.Is(err, ErrNotOwner) {
		t.Fatalf("a follower took control: %v", err)
	}
	if err := r.Take("t:ann", t0); err != nil || r.Controller != "t:ann" {
		t.Fatalf("take: %v, controller %s", err, r.Controller)
	}
	r.Leave("t:ann")
	if r.Controller != "t:bob" || !slices.Equal(r.Present, []UserID{"t:bob", "t:cat"}) {
		t.Fatalf("after the controller left: controller %s, present %v", r.Controller, r.Present)
	}
	// bob, in control, leaves last: control passes to whoever comes
	// next, not to nobody on the board.
	r.Leave("t:cat")
	r.Leave("t:bob")
	if r.Controller != "t:bob" || len(r.Present) != 0 {
		t.Fatalf("the last one left: controller %s, present %v", r.Controller, r.Present)
	}
	r.Join("t:dan")
	if r.Controller != "t:dan" {
		t.Fatalf("a newcomer after the controller left last: controller %s", r.Controller)
	}
	r.Join("t:bob")
	r.Join("t:cat")
	r.Leave("t:dan") // to bob, the longest present
	if err := r.Navigate("t:bob", 0, t0); err != nil || r.Node != 0 {
		t.Fatalf("navigate: %v", err)
	}
	if err := r.Navigate("t:bob", 7, t0); !errors.Is(err, game.ErrNoNode) {
		t.Fatalf("navigate to no node: %v", err)
	}
	// Timed work: idle after two days, expired a month after it began.
	if r.Idle(r.Updated.Add(ReviewIdle-time.Second)) || !r.Idle(r.Updated.Add(ReviewIdle)) || !r.Due().Equal(r.Updated.Add(ReviewIdle)) {
		t.Errorf("idle: due %v", r.Due())
	}
	r.Closed = true
	if err := r.Navigate("t:bob", 1, t0); !errors.Is(err, ErrReviewClosed) {
		t.Errorf("navigating a closed review: %v", err)
	}
	if !r.Expired(t0.Add(ReviewLife)) || r.Expired(t0.Add(ReviewLife-time.Second)) {
		t.Errorf("expiry: due %v", r.Due())
	}
	r.Kept = true
	if r.Expired(t0.Add(10*ReviewLife)) || !r.Due().IsZero() {
		t.Errorf("a kept review expires: due %v", r.Due())
	}
}

// An owner who has not come yet keeps control over early followers; an
// absent owner who comes back gets it again.
func TestReviewOwnerKeepsControlUntilTheyCome(t *testing.T) {
	t0 := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	tree, _ := game.NewTree(9, 9)
	r := NewReview("t:room", "t:ann", "a 9×9 board", tree, t0)
	r.Join("t:bob")
	if r.Controller != "t:ann" {
		t.Fatalf("a follower came before the owner: controller %s", r.Controller)
	}
	r.Join("t:ann")
	r.Leave("t:ann") // to bob, the longest present
	r.Leave("t:bob")
	r.Join("t:ann")
	if r.Controller != "t:ann" {
		t.Fatalf("the owner came back to an empty board: controller %s", r.Controller)
	}
}
