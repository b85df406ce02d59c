package chat

import (
	"testing"
)

// Looking at a board never pings anyone, in any phase; only what happens
// in the game (turn notices, challenges, undo requests, results) does.
func TestBoardNeverPings(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	if rep := h.ok("carol", "board #1"); len(rep.Mentions) != 0 {
		t.Fatalf("board while playing pings %v", rep.Mentions)
	}
	h.ok("alice", "pass")
	if rep := h.ok("bob", "pass"); len(rep.Mentions) == 0 {
		t.Fatal("the start of scoring should notify the players")
	}
	for _, who := range []string{"carol", "alice"} {
		if rep := h.ok(who, "board #1"); len(rep.Mentions) != 0 {
			t.Fatalf("board in scoring (by %s) pings %v", who, rep.Mentions)
		}
	}
	h.ok("alice", "done")
	if rep := h.ok("bob", "done"); len(rep.Mentions) != 2 {
		t.Fatalf("the result should notify both players: %v", rep.Mentions)
	}
	for _, cmd := range []string{"board #1", "board", "show #1"} {
		if rep := h.ok("carol", cmd); len(rep.Mentions) != 0 {
			t.Fatalf("%s of a finished game pings %v", cmd, rep.Mentions)
		}
	}
}
