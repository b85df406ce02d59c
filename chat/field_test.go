package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/storage"
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

// An open challenge in a direct message has nobody to take it: refused,
// with what to do instead, and nothing stored.
func TestOpenChallengeInDMRefused(t *testing.T) {
	h := newHarness(t)
	r := Request{User: User{ID: "test:alice", Name: "alice"}, Room: "test:dm-alice", DM: true, EventID: "test:dm1", Command: "challenge", Args: []string{"9"}}
	rep := h.bot.Handle(context.Background(), r)
	if !rep.Error || !strings.Contains(rep.Text, "direct conversation") || strings.Contains(rep.Text, "Anyone here") {
		t.Fatalf("open challenge in a DM: %+v", rep)
	}
	h.db.View(func(tx *storage.Tx) error {
		if cs, _ := tx.PendingChallenges("test:alice"); len(cs) != 0 {
			t.Fatalf("a challenge was stored: %+v", cs[0])
		}
		return nil
	})
	// Naming the opponent works in a DM.
	r.EventID, r.Args = "test:dm2", []string{"@bob", "9"}
	if rep := h.bot.Handle(context.Background(), r); rep.Error {
		t.Fatalf("a named challenge in a DM: %s", rep.Text)
	}
}
