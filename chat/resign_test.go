package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Issue 35: the Resign button asks first (Action.AskFirst); its first
// press (Request.AskFirst) gets the question for the presser alone, with
// the button that acts, and changes nothing; in a team game the question
// says it is for the team. A typed resign resigns at once.
func TestResignButtonAsksFirst(t *testing.T) {
	h := newHarness(t)
	h.start("")
	rep := h.ok("alice", "play E5")
	var resign protocol.Action
	for _, a := range rep.Actions {
		if a.Label == "Resign" {
			resign = a
		}
	}
	if !resign.AskFirst {
		t.Fatalf("the Resign button does not ask first: %+v", rep.Actions)
	}
	press := func(user string, ask bool) protocol.Reply {
		h.seq++
		return h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
			EventID: gobot.EventID("test:press" + strings.Repeat("x", h.seq)), Action: resign.ID, AskFirst: ask, Platform: privateTest})
	}
	q := press("bob", true)
	if q.Error || !q.Private || q.Text != "Resign game #1 against alice?" || len(q.Actions) != 1 || q.Actions[0].ID != resign.ID || q.Actions[0].Label != "Yes, resign" || q.Actions[0].AskFirst {
		t.Fatalf("the question: %+v", q)
	}
	if m, _ := h.game(1); !m.Active() {
		t.Fatal("asking resigned the game")
	}
	if q := press("carol", true); !q.Error || !strings.Contains(q.Text, "game #1") || len(q.Actions) != 0 {
		t.Fatalf("a bystander's press: %+v", q)
	}
	if got := press("bob", false); got.Error || !strings.Contains(got.Text, "<@test:bob> resigned.") {
		t.Fatalf("Yes, resign: %+v", got)
	}
	if m, _ := h.game(1); m.Active() || m.Result != "B+R" {
		t.Fatalf("after Yes, resign: %q", m.Result)
	}

	// A team game: for the team, against the other team.
	h.ok("alice", "rengo @alice @bob vs @carol @dave 9 black")
	h.ok("bob", "accept")
	h.ok("carol", "accept")
	rep = h.ok("dave", "accept")
	for _, a := range rep.Actions {
		if a.Label == "Resign" {
			resign = a
		}
	}
	if q := press("dave", true); q.Text != "Resign game #2 for White (carol, dave) against alice, bob?" {
		t.Fatalf("a team's question: %+v", q)
	}
	// Typed, it resigns at once.
	if rep := h.ok("dave", "resign"); !strings.Contains(rep.Text, "<@test:dave> resigned for White (carol, dave).") {
		t.Fatalf("typed resign: %s", rep.Text)
	}
}
