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

func (testLinker) Link(id gobot.GameID, u gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	l := fmt.Sprintf("http://127.0.0.1:1/l/%d-%s-%v", id, u, watch)
	if gen > 0 {
		l += fmt.Sprintf("-gen%d", gen)
	}
	return l, time.Date(2026, 12, 22, 0, 0, 0, 0, time.UTC), nil
}

// TestWebLinks: a player's link plays, a room member's watches; on a
// platform without private replies in a room it goes to the DM.
func TestWebLinks(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.shared = true // a platform that shows no reply to one member of a room
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

// TestWebReset: `web reset` moves the caller's link generation in that
// game on and gives a link of the new generation, saying the old ones
// are gone; the next plain `web` keeps the new generation; another
// player's and another game's are untouched; a refused reset changes
// nothing.
func TestWebReset(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.shared = true // links go to DMs, where the test reads them
	h.ok("alice", "web reset")
	sent := h.notes.all()
	if len(sent) != 1 || !strings.HasSuffix(sent[0].Reply.Text, "/l/1-test:alice-false-gen1") || !strings.Contains(sent[0].Reply.Text, "earlier links to game #1 no longer work") {
		t.Fatalf("after web reset: %+v", sent)
	}
	h.ok("alice", "web reset #1")
	h.ok("alice", "web")
	h.ok("bob", "web")
	sent = h.notes.all()
	if got := sent[len(sent)-3:]; !strings.HasSuffix(got[0].Reply.Text, "-gen2") || !strings.HasSuffix(got[1].Reply.Text, "/l/1-test:alice-false-gen2") || !strings.HasSuffix(got[2].Reply.Text, "/l/1-test:bob-false") {
		t.Errorf("a second reset, then web, then bob's web: %q, %q, %q", got[0].Reply.Text, got[1].Reply.Text, got[2].Reply.Text)
	}
	var gens [2]uint64
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		gens[0], _ = tx.LinkGeneration(1, "test:alice")
		gens[1], _ = tx.LinkGeneration(1, "test:bob")
		return nil
	})
	if gens != [2]uint64{2, 0} {
		t.Errorf("stored generations alice, bob: %v, want [2 0]", gens)
	}
	// A watcher in a DM is refused, and nothing is stored.
	rep := h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:carol"}, Room: "test:dm-carol", DM: true,
		EventID: "test:reset-carol", Command: "web", Args: []string{"reset", "#1"}})
	if !rep.Error || !strings.Contains(rep.Text, "Only the players") {
		t.Errorf("a watcher's reset in a DM: %q", rep.Text)
	}
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		if n, _ := tx.LinkGeneration(1, "test:carol"); n != 0 {
			t.Errorf("a refused reset stored generation %d", n)
		}
		return nil
	})
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

// TestWebLaunch: where the adapter can open the board inside the client
// (Request.CanLaunch: Discord's Activity, which shows the games of the
// channel it runs in), `web` asks it to (Reply.Launch) only when the
// board opened in the request's room would show the request's game: a
// player's game in that room or a thread of it, or, for someone who
// plays no game there, a game of that very room to watch. Elsewhere (a
// DM, another room, a finished game, a caller whose own game there the
// board would show instead) it answers with the link, as without
// CanLaunch.
func TestWebLaunch(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	web := func(user string, room gobot.RoomID, dm, can bool, game string) protocol.Reply {
		h.t.Helper()
		h.seq++
		rep := h.bot.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: room, DM: dm,
			EventID: gobot.EventID(fmt.Sprintf("test:launch-%d", h.seq)), Command: "web", Args: []string{game}, Platform: privateTest, CanLaunch: can})
		if rep.Error {
			t.Fatalf("%s: web %s in %s: %s", user, game, room, rep.Text)
		}
		return rep
	}
	h.start("9") // #1: alice and bob in test:main
	h.ok("carol", "challenge @dave black 9")
	h.ok("dave", "accept") // #2: carol and dave in test:main
	for _, c := range []struct {
		user string
		room gobot.RoomID
		dm   bool
		game string
		want bool
	}{
		{"alice", "test:main", false, "#1", true},
		{"erin", "test:main", false, "#1", true},      // plays none there: watches
		{"erin", "test:main", false, "#2", true},      // the list to watch holds both
		{"carol", "test:main", false, "#1", false},    // the board would open her #2
		{"alice", "test:other", false, "#1", false},   // another channel
		{"alice", "test:dm-alice", true, "#1", false}, // a DM with the bot
		{"bob", "test:main", false, "#1", true},
	} {
		if got := web(c.user, c.room, c.dm, true, c.game).Launch; got != c.want {
			t.Errorf("%s: web %s in %s (dm %v): Launch %v, want %v", c.user, c.game, c.room, c.dm, got, c.want)
		}
	}
	if rep := web("alice", "test:main", false, false, "#1"); rep.Launch {
		t.Errorf("without CanLaunch: %+v", rep)
	}
	if rep := web("carol", "test:main", false, true, "#1"); !strings.Contains(rep.Text+fmt.Sprint(h.notes.all()), "/l/1-test:carol-true") {
		t.Errorf("no launch: carol gets no watch link of #1: %+v", rep)
	}
	h.ok("alice", "resign #1")
	if rep := web("alice", "test:main", false, true, "#1"); rep.Launch {
		t.Errorf("a finished game launches: %+v", rep)
	}

	// A game in a thread: launched from the thread or its parent channel
	// for a player; a watcher only in the thread (the board in the parent
	// lists the parent's own games to watch).
	h = newHarness(t)
	admin := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true, EventID: "test:threads-on",
		Command: "settings", Args: []string{"room", "threads=on"}}
	if rep := h.bot.Handle(ctx, admin); rep.Error {
		t.Fatal(rep.Text)
	}
	h.start("9")
	if err := h.bot.ThreadCreated(ctx, 1, "test:thread-1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		user string
		room gobot.RoomID
		want bool
	}{{"alice", "test:thread-1", true}, {"alice", "test:main", true}, {"erin", "test:thread-1", true}, {"erin", "test:main", false}} {
		if got := web(c.user, c.room, false, true, "#1").Launch; got != c.want {
			t.Errorf("thread: %s in %s: Launch %v, want %v", c.user, c.room, got, c.want)
		}
	}
}

func (testLinker) ReviewLink(id gobot.ReviewID, u gobot.UserID, _ uint64) (string, time.Time, error) {
	return fmt.Sprintf("http://127.0.0.1:1/r/%d-%s", id, u), time.Date(2026, 12, 22, 0, 0, 0, 0, time.UTC), nil
}
