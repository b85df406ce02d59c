package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Every message the bot sends on its own carries a Key naming the step
// that made it, and the same step decided again (a deadline claimed
// again by another process after a crash) names its message the same,
// so the platform drops the second copy.
func TestMessageKeys(t *testing.T) {
	h := newHarness(t)
	h.start("9 clock=2d")
	h.ok("bob", "settings notify=dm")
	h.notes.mu.Lock()
	h.notes.msgs = nil
	h.notes.mu.Unlock()

	// The DM to the player to move is named after the move's event.
	ev := gobot.EventID("test:$move-d4")
	rep := h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main",
		EventID: ev, Command: "play", Args: []string{"D4"}})
	if rep.Error {
		t.Fatalf("play: %s", rep.Text)
	}
	msgs := h.notes.all()
	if len(msgs) != 1 || msgs[0].To != "test:bob" || msgs[0].Key != string(ev)+"/0" {
		t.Fatalf("the DM after the move: %+v", msgs)
	}

	// A reminder, then the same reminder claimed again: the same Key.
	ctx := context.Background()
	h.clock.Advance(25 * time.Hour)
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	unclaim := func() {
		if err := h.db.Update(ctx, func(tx gobot.Tx) error {
			match, err := tx.Match(1)
			if err != nil {
				return err
			}
			match.Reminded = 0
			return tx.PutMatch(match)
		}); err != nil {
			t.Fatal(err)
		}
	}
	unclaim()
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	msgs = h.notes.all()[1:]
	if len(msgs) != 2 || !strings.Contains(msgs[0].Reply.Text, "your move") || msgs[0].Key == "" || msgs[0].Key != msgs[1].Key {
		t.Fatalf("a reminder sent again should carry the same key: %+v", msgs)
	}
	first := msgs[0].Key

	// The next reminder is another message with another key.
	h.clock.Advance(22*time.Hour + 30*time.Minute)
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	msgs = h.notes.all()[3:]
	if len(msgs) != 1 || msgs[0].Key == "" || msgs[0].Key == first {
		t.Fatalf("the one-hour reminder: %+v (first %q)", msgs, first)
	}

	// So is the timeout.
	h.clock.Advance(2 * time.Hour)
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	msgs = h.notes.all()[4:]
	if len(msgs) != 1 || !strings.Contains(msgs[0].Reply.Text, "ran out of time") || msgs[0].Key == "" || msgs[0].Key == first {
		t.Fatalf("the timeout: %+v", msgs)
	}
}
