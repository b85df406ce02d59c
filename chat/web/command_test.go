package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/chat/matrix"
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
	rep = h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "console:dave"}, Room: "console:elsewhere", Command: "web", Args: []string{"#" + itoa(uint64(id))}, Platform: console.Descriptor})
	if !rep.Error || urlRE.MatchString(rep.Text) {
		t.Errorf("a non-player in another room got %+v", rep)
	}
	// Matrix: the link goes to the caller's DM, the room sees none.
	mroom := gobot.RoomID("matrix:!room:example.org")
	ann, bea := gobot.UserID("matrix:@ann:example.org"), gobot.UserID("matrix:@bea:example.org")
	mreq := func(u gobot.UserID, cmd string, args ...string) protocol.Reply {
		return h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: u}, Room: mroom, Command: cmd, Args: args, Platform: matrix.Descriptor("")})
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

// noWidgets is a Widgets that signs nobody in.
type noWidgets struct{}

func (noWidgets) VerifyOpenID(context.Context, string, string) (gobot.UserID, error) {
	return "", errors.New("no")
}
func (noWidgets) InRoom(context.Context, gobot.RoomID, gobot.UserID) (bool, error) {
	return false, nil
}

// TestWebWidgetOnlyWhenServed: the board offers the bot a widget only
// when it can serve one (origins that may frame the page and a Widgets
// to sign people in). Otherwise `web` in a Matrix game's room sends only
// the link, and widget=on is refused saying what the operator must set.
func TestWebWidgetOnlyWhenServed(t *testing.T) {
	h := newHarness(t)
	mroom := gobot.RoomID("matrix:!room:example.org")
	ann, bea := gobot.UserID("matrix:@ann:example.org"), gobot.UserID("matrix:@bea:example.org")
	seq := 0
	mreq := func(u gobot.UserID, admin bool, cmd string, args ...string) protocol.Reply {
		seq++
		return h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: u}, Room: mroom, Command: cmd, Args: args, Admin: admin, Platform: matrix.Descriptor(""),
			EventID: gobot.EventID(fmt.Sprintf("matrix:$w%d", seq))})
	}
	mreq(ann, false, "challenge", "@"+string(bea), "9")
	if r := mreq(bea, false, "accept"); r.Error {
		t.Fatal(r.Text)
	}
	for _, c := range []struct {
		name    string
		widgets Widgets
		origins []string
		want    bool
	}{
		{"neither", nil, nil, false},
		{"no origins", noWidgets{}, nil, false},
		{"no sign-in", nil, []string{"https://app.element.io"}, false},
		{"both", noWidgets{}, []string{"https://app.element.io"}, true},
	} {
		srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
			Widgets: c.widgets, WidgetOrigins: c.origins})
		if err != nil {
			t.Fatal(err)
		}
		h.bot.SetLinker(srv.Linker())
		rep := mreq(ann, false, "web")
		if rep.Error || !strings.Contains(rep.Text, "direct message") || (rep.Widget != nil) != c.want {
			t.Errorf("%s: web in the game's room: %+v, want a widget: %v", c.name, rep, c.want)
		}
		if c.want && (rep.Widget.URL == "" || !strings.HasPrefix(rep.Widget.URL, h.ts.URL+"/widget/")) {
			t.Errorf("%s: the widget's address %q", c.name, rep.Widget.URL)
		}
		rep = mreq(ann, true, "settings", "room", "widget=on")
		if rep.Error == c.want || !c.want && !strings.Contains(rep.Text, "web.widget_origins") {
			t.Errorf("%s: widget=on: %+v", c.name, rep)
		}
	}
}
