package discord

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// Issue 35: a tap on Resign ends nothing by itself. The press asks its
// presser first, in an ephemeral message with the bot's question and a
// button of its own; only that button resigns. A bystander's press is
// refused privately; the question names the opponent of whoever
// pressed.
func TestResignButtonAsksFirst(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	code, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	if code != 200 {
		t.Fatalf("challenge: %d %v", code, out)
	}
	if code, out = e.send(e.button("222", "bob", buttons(out["data"].(map[string]any))["Accept"]), now, false); code != 200 || out["type"] != float64(5) {
		t.Fatalf("accept: %d %v", code, out)
	}
	e.fake.take()
	if code, out = e.send(e.command("111", "alice", "play", opt("point", 3, "D4")), now, false); code != 200 || out["type"] != float64(5) {
		t.Fatalf("play: %d %v", code, out)
	}
	edit := findCall(t, e.fake.take(), "PATCH", "")
	resign := buttons(edit.JSON)["Resign"]
	orig, ok := strings.CutPrefix(resign, askFirstPrefix)
	if !ok {
		t.Fatalf("the Resign button %q does not ask first", resign)
	}
	active := func() bool {
		var m *gobot.Match
		if err := e.db.View(context.Background(), func(tx gobot.Tx) error {
			var err error
			m, err = tx.Match(1)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return m.Active()
	}

	// alice taps Resign: the question, to her alone, and nothing else.
	code, out = e.send(e.button("111", "alice", resign), now, false)
	data := out["data"].(map[string]any)
	if code != 200 || out["type"] != float64(4) || data["flags"] != float64(64) {
		t.Fatalf("the question is not an ephemeral answer: %d %v", code, out)
	}
	if s := fmt.Sprint(data); !strings.Contains(s, "Resign game #1 against bob?") {
		t.Fatalf("the question: %v", data)
	}
	if got := buttons(data); len(got) != 1 || got["Yes, resign"] != orig {
		t.Fatalf("the question's buttons: %v, want only Yes, resign → %q", got, orig)
	}
	if calls := e.fake.take(); len(calls) != 0 {
		t.Fatalf("asking sent %d messages: %+v", len(calls), calls)
	}
	if !active() {
		t.Fatal("the first tap resigned the game")
	}
	// bob's tap asks about alice.
	_, out = e.send(e.button("222", "bob", resign), now, false)
	if s := fmt.Sprint(out["data"]); !strings.Contains(s, "Resign game #1 against alice?") {
		t.Fatalf("bob's question: %v", out)
	}
	// Someone who does not play is told so, privately.
	_, out = e.send(e.button("333", "carol", resign), now, false)
	data = out["data"].(map[string]any)
	if data["flags"] != float64(64) || len(buttons(data)) != 0 || !strings.Contains(fmt.Sprint(data), "#1") {
		t.Fatalf("a bystander's tap: %v", out)
	}
	if !active() {
		t.Fatal("a question resigned the game")
	}

	// Only Yes, resign resigns.
	code, out = e.send(e.button("111", "alice", orig), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("yes, resign: %d %v", code, out)
	}
	edit = findCall(t, e.fake.take(), "PATCH", "")
	if s := fmt.Sprint(edit.JSON["embeds"]); !strings.Contains(s, "<@111> resigned.") || !strings.Contains(s, "W+R") {
		t.Fatalf("the resignation: %v", edit.JSON["embeds"])
	}
	if active() {
		t.Fatal("Yes, resign did not resign")
	}
	// The old Resign button asks nothing more: the board has moved on.
	_, out = e.send(e.button("222", "bob", resign), now, false)
	if s := fmt.Sprint(out["data"]); !strings.Contains(s, "The board has moved on") {
		t.Fatalf("a stale Resign: %v", out)
	}
}
