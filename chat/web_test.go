package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// testLinker mints recognisable links.
type testLinker struct{}

func (testLinker) Link(id gobot.GameID, u gobot.UserID, watch bool) (string, time.Time, error) {
	return fmt.Sprintf("http://127.0.0.1:1/l/%d-%s-%v", id, u, watch), time.Date(2026, 12, 22, 0, 0, 0, 0, time.UTC), nil
}

// TestWebLinks: a player's link plays, a room member's watches; on a
// platform without private replies in a room it goes to the DM.
func TestWebLinks(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	rep := h.ok("alice", "web")
	if strings.Contains(rep.Text, "http") || !rep.Private {
		t.Errorf("in a shared room of platform test the link was shown there: %q", rep.Text)
	}
	sent := h.notes.all()
	if len(sent) != 1 || sent[0].To != "test:alice" || !strings.Contains(sent[0].Reply.Text, "/l/1-test:alice-false") {
		t.Fatalf("DMs %+v, want alice's playing link", sent)
	}
	h.ok("carol", "web #1")
	sent = h.notes.all()
	if len(sent) != 2 || !strings.Contains(sent[1].Reply.Text, "-true") {
		t.Fatalf("carol's link is not watch-only: %+v", sent)
	}
	h.bot.SetLinker(nil)
	if rep := h.do("alice", "web"); !rep.Error || !strings.Contains(rep.Text, "not enabled") {
		t.Errorf("without a linker: %q", rep.Text)
	}
}

// TestOpenBoardButton: with the web board on, a game's reply carries an
// "Open board" button that answers with the presser's link, also once
// the game has moved on; without it there is no such button.
func TestOpenBoardButton(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	rep := h.ok("alice", "play D4")
	var open string
	for _, a := range rep.Actions {
		if a.Label == "Open board" {
			open = a.ID
		}
	}
	if open == "" {
		t.Fatalf("no Open board button among %+v", rep.Actions)
	}
	h.ok("bob", "play F6") // the button's position is now old
	before := len(h.notes.all())
	got := h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:carol"}, Room: "test:main", Action: open})
	if got.Error {
		t.Fatalf("pressing Open board: %q", got.Text)
	}
	if sent := h.notes.all(); len(sent) != before+1 || !strings.Contains(sent[len(sent)-1].Reply.Text, "/l/1-test:carol-true") {
		t.Fatalf("carol did not get her watch link: %+v", sent[before:])
	}
	h.bot.SetLinker(nil)
	for _, a := range h.ok("alice", "play C3").Actions {
		if a.Label == "Open board" {
			t.Error("an Open board button without a web board")
		}
	}
}
