package web

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

var urlRE = regexp.MustCompile(`https?://\S+`)

// TestWebCommand: `web` mints the caller's link: a player's plays, a
// room member's only watches; in the terminal (and on Discord) as a
// private reply, on Matrix in the caller's DM, never in the room.
func TestWebCommand(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	rep := h.cmd("alice", "web")
	if rep.Error || !rep.Private {
		t.Fatalf("web: %+v", rep)
	}
	urls := urlRE.FindAllString(rep.Text, -1)
	if len(urls) != 1 || !strings.HasPrefix(urls[0], h.ts.URL+"/l/") {
		t.Fatalf("web reply %q: want exactly one link to this server", rep.Text)
	}
	b := h.browser()
	b.open(urls[0], id)
	if code, msg := b.post("play", "C3", "cmd-link-play"); code != 200 || msg != "" {
		t.Errorf("the link minted by `web` cannot play: %d %q", code, msg)
	}
	// carol is no player: a watch-only link.
	rep = h.cmd("carol", "web", "#"+itoa(uint64(id)))
	urls = urlRE.FindAllString(rep.Text, -1)
	if rep.Error || len(urls) != 1 || !strings.Contains(rep.Text, "watch") {
		t.Fatalf("carol's web: %+v", rep)
	}
	w := h.browser()
	w.open(urls[0], id)
	if code, _ := w.post("play", "D4", "cmd-link-watch"); code != http.StatusForbidden {
		t.Errorf("carol's link plays: %d", code)
	}
	// Not in the game's room: no link for a non-player.
	rep = h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "console:dave"}, Room: "console:elsewhere", Command: "web", Args: []string{"#" + itoa(uint64(id))}})
	if !rep.Error || urlRE.MatchString(rep.Text) {
		t.Errorf("a non-player in another room got %+v", rep)
	}
	// Matrix: the link goes to the caller's DM, the room sees none.
	mroom := gobot.RoomID("matrix:!room:example.org")
	ann, bea := gobot.UserID("matrix:@ann:example.org"), gobot.UserID("matrix:@bea:example.org")
	mreq := func(u gobot.UserID, cmd string, args ...string) protocol.Reply {
		return h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: u}, Room: mroom, Command: cmd, Args: args})
	}
	mreq(ann, "challenge", "@"+string(bea), "9")
	if r := mreq(bea, "accept"); r.Error {
		t.Fatal(r.Text)
	}
	rep = mreq(ann, "web")
	if rep.Error || urlRE.MatchString(rep.Text) || !strings.Contains(rep.Text, "direct message") {
		t.Fatalf("matrix web reply %q: want a pointer to the DM, without the link", rep.Text)
	}
	h.matrix.mu.Lock()
	defer h.matrix.mu.Unlock()
	if len(h.matrix.msgs) != 1 || h.matrix.msgs[0].To != ann || len(urlRE.FindAllString(h.matrix.msgs[0].Reply.Text, -1)) != 1 {
		t.Fatalf("matrix DMs: %+v, want one to ann with the link", h.matrix.msgs)
	}
}

// TestWebCommandOff: without a web board the command says so.
func TestWebCommandOff(t *testing.T) {
	h := newHarness(t)
	h.newGame()
	h.bot.SetLinker(nil)
	if rep := h.cmd("alice", "web"); !rep.Error || !strings.Contains(rep.Text, "not enabled") {
		t.Errorf("web without a board: %+v", rep)
	}
}
