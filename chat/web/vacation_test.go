package web

import (
	"strings"
	"testing"
)

// A game whose clock a vacation stopped says so on its page, with the
// time kept, instead of a time to move by.
func TestPausedClockOnThePage(t *testing.T) {
	h := newHarness(t)
	if r := h.cmd("alice", "challenge", "@console:bob", "9", "black", "clock=2d"); r.Error {
		t.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error {
		t.Fatal(r.Text)
	}
	id := r.Game
	b := h.browser()
	if page := b.open(h.link(id, "alice", false), id); !strings.Contains(page, "must move by") {
		t.Fatal("a running clock is not shown")
	}
	if r := h.cmd("bob", "vacation", "on"); r.Error {
		t.Fatal(r.Text)
	}
	page := b.open(h.link(id, "alice", false), id)
	if !strings.Contains(page, "The clock is stopped for a vacation; alice has 2d left.") || strings.Contains(page, "must move by") {
		t.Fatalf("the page of a stopped clock: %s", page)
	}
}
