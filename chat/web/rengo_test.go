package web

import (
	"context"
	"strings"
	"testing"
)

// A team game on the web board: every member's link is a player's, the
// side panel lists both teams and whose turn it is, and a click plays
// only on the clicker's turn.
func TestTeamGameClicks(t *testing.T) {
	h := newHarness(t)
	if r := h.cmd("alice", "rengo", "@console:alice", "@console:bob", "vs", "@console:carol", "@console:dave", "9", "black"); r.Error {
		t.Fatal(r.Text)
	}
	for _, u := range []string{"bob", "carol"} {
		if r := h.cmd(u, "accept"); r.Error {
			t.Fatal(r.Text)
		}
	}
	r := h.cmd("dave", "accept")
	if r.Error || r.Game == 0 {
		t.Fatalf("the last accept: %+v", r)
	}
	id := r.Game
	alice, bob, carol := h.browser(), h.browser(), h.browser()
	alice.open(h.link(id, "alice", false), id)
	bob.open(h.link(id, "bob", false), id)
	carol.open(h.link(id, "carol", false), id)
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("alice plays E5: %d %q", code, msg)
	}
	if code, msg := carol.post("play", "C3", "click-c3-0001"); code != 200 || msg != "" {
		t.Fatalf("carol plays C3: %d %q", code, msg)
	}
	if _, msg := alice.post("play", "D4", "click-d4-0001"); !strings.Contains(msg, "It is bob's turn (Black: alice, bob)") {
		t.Errorf("alice out of turn: %q", msg)
	}
	_, page := bob.get(h.ts.URL + gamePath(id))
	for _, want := range []string{"<b>alice, bob</b>", "<b>carol, dave</b>", "Black to play (bob)"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	if code, msg := bob.post("play", "G5", "click-g5-0001"); code != 200 || msg != "" {
		t.Fatalf("bob, the second Black player, plays G5: %d %q", code, msg)
	}
	// The Activity's list names both teams.
	v, err := h.bot.Board(context.Background(), id, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := v.Label(); got != "#1: alice, bob (Black) against carol, dave (White)" {
		t.Errorf("the Activity's label: %q", got)
	}
}
