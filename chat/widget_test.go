package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// widgetLinker is a testLinker with a widget page.
type widgetLinker struct{ testLinker }

func (widgetLinker) WidgetURL(id gobot.GameID) string {
	return fmt.Sprintf("http://127.0.0.1:1/widget/%d?room=$matrix_room_id", id)
}

func (widgetLinker) ReviewWidgetURL(id gobot.ReviewID) string {
	return fmt.Sprintf("http://127.0.0.1:1/widget/r/%d?room=$matrix_room_id", id)
}

func (widgetLinker) TournamentWidgetURL(id gobot.TournamentID) string {
	return fmt.Sprintf("http://127.0.0.1:1/widget/t/%d?room=$matrix_room_id", id)
}

// testMatrix stands for the Matrix adapter's descriptor (chat/matrix's
// Descriptor, which package chat cannot import): its rooms show widgets,
// its users are Matrix IDs.
var testMatrix = &protocol.Platform{Name: "matrix", Widgets: true, User: func(local string) error {
	if !strings.HasPrefix(local, "@") || !strings.Contains(local, ":") {
		return protocol.Refusef("%s is not a Matrix user ID.", protocol.Echo(local))
	}
	return nil
}}

// mx sends line as the Matrix user @NAME:example.org in room.
func (h *harness) mx(user, room, line string, admin bool) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: gobot.UserID("matrix:@" + user + ":example.org"), Name: user}, Room: gobot.RoomID(room),
		EventID: gobot.EventID(fmt.Sprintf("matrix:$e%d", h.seq)), Command: f[0], Args: f[1:], Admin: admin, Platform: testMatrix}
	return h.bot.Handle(context.Background(), r)
}

// TestWebWidget: `web` in a Matrix game's room asks for the game's
// widget there (besides the DM with the link); in another room, on
// another platform, or with a web board that has no widget page, it
// does not.
func TestWebWidget(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	h.bot.SetLinker(widgetLinker{})
	const room = "matrix:!main:example.org"
	if rep := h.mx("alice", room, "challenge @matrix:@bob:example.org black", false); rep.Error {
		t.Fatal(rep.Text)
	}
	start := h.mx("bob", room, "accept", false)
	if start.Error || start.Widget != nil {
		t.Fatalf("a game started without widget=on carries a widget: %+v", start)
	}
	rep := h.mx("alice", room, "web", false)
	w := rep.Widget
	if rep.Error || w == nil || w.Game != 1 || w.Room != room || w.URL != "http://127.0.0.1:1/widget/1?room=$matrix_room_id" || w.Name == "" || w.WidgetID() != "gobot_game_1" {
		t.Fatalf("web in the game's room: %+v, widget %+v", rep, w)
	}
	if rep := h.mx("carol", room, "web #1", false); rep.Widget == nil {
		t.Errorf("a watcher's web in the game's room adds no widget: %+v", rep)
	}
	if rep := h.mx("alice", "matrix:!other:example.org", "web #1", false); rep.Error || rep.Widget != nil {
		t.Errorf("web in another room: %+v", rep)
	}
	h.bot.SetLinker(testLinker{}) // a web board without a widget page
	if rep := h.mx("alice", room, "web", false); rep.Error || rep.Widget != nil {
		t.Errorf("without a widget page: %+v", rep)
	}
	h.bot.SetLinker(widgetLinker{})
	h.ok("alice", "challenge @bob black") // test:main, a platform without widgets
	h.ok("bob", "accept")
	if rep := h.ok("alice", "web #2"); rep.Widget != nil {
		t.Errorf("a widget on a platform without them: %+v", rep.Widget)
	}
}

// TestReviewWidget: review in a Matrix room asks for the review's widget
// there (besides the DM with the link), as web does for a game; reviews
// with one open review too; not on a platform without widgets, nor with
// a web board that has no widget page.
func TestReviewWidget(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	h.bot.SetLinker(widgetLinker{})
	const room = "matrix:!main:example.org"
	rep := h.mx("alice", room, "review 9", false)
	w := rep.Widget
	if rep.Error || w == nil || w.Review != 1 || w.Game != 0 || w.Room != room || w.URL != "http://127.0.0.1:1/widget/r/1?room=$matrix_room_id" || w.WidgetID() != "gobot_review_1" || w.What() != "review r1" {
		t.Fatalf("review in a Matrix room: %+v, widget %+v", rep, w)
	}
	if rep := h.mx("bob", room, "reviews", false); rep.Error || rep.Widget == nil || rep.Widget.Review != 1 {
		t.Errorf("reviews with one open review: %+v", rep)
	}
	h.bot.SetLinker(testLinker{}) // a web board without a widget page
	if rep := h.mx("bob", room, "reviews", false); rep.Error || rep.Widget != nil {
		t.Errorf("without a widget page: %+v", rep)
	}
	h.bot.SetLinker(widgetLinker{})
	if rep := h.ok("alice", "review 9"); rep.Widget != nil { // test:main: no widgets
		t.Errorf("a widget on a platform without them: %+v", rep.Widget)
	}
}

// TestTournamentWidget: tournament standings in a Matrix room asks for
// the tournament's widget there (its page, from which its games' boards
// open), beside the link; not on a platform without widgets, nor with a
// web board that has no widget page.
func TestTournamentWidget(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	h.bot.SetLinker(widgetLinker{})
	const room = "matrix:!main:example.org"
	for _, c := range []struct{ who, line string }{{"alice", `tournament new "Spring RR" roundrobin size=9 clock=1d`}, {"alice", "tournament join"},
		{"bob", "tournament join"}, {"carol", "tournament join"}, {"alice", "tournament start"}} {
		if rep := h.mx(c.who, room, c.line, false); rep.Error || rep.Widget != nil {
			t.Fatalf("%s: %+v", c.line, rep)
		}
	}
	rep := h.mx("bob", room, "tournament standings", false)
	w := rep.Widget
	if rep.Error || w == nil || w.Tournament != 1 || w.Game != 0 || w.Room != room || w.URL != "http://127.0.0.1:1/widget/t/1?room=$matrix_room_id" ||
		w.WidgetID() != "gobot_tournament_1" || w.What() != "tournament t1" || w.Name != "Go: Spring RR (t1)" {
		t.Fatalf("tournament standings in a Matrix room: %+v, widget %+v", rep, w)
	}
	if rep := h.mx("bob", room, "tournament pairings", false); rep.Error || rep.Widget != nil {
		t.Errorf("tournament pairings adds the widget: %+v", rep)
	}
	h.bot.SetLinker(testLinker{}) // a web board without a widget page
	if rep := h.mx("bob", room, "tournament standings", false); rep.Error || rep.Widget != nil {
		t.Errorf("without a widget page: %+v", rep)
	}
	h.bot.SetLinker(widgetLinker{})
	h.ok("alice", `tournament new "Here" roundrobin size=9`) // test:main: no widgets
	h.ok("alice", "tournament join")
	h.ok("bob", "tournament join")
	h.ok("alice", "tournament start")
	if rep := h.ok("alice", "tournament standings"); rep.Widget != nil {
		t.Errorf("a widget on a platform without them: %+v", rep.Widget)
	}
}

// TestWidgetSetting: widget=on (room admins, Matrix rooms) makes every
// new game in the room carry its widget; widget=off stops it; elsewhere and for others it is refused and
// changes nothing.
func TestWidgetSetting(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	h.bot.SetLinker(widgetLinker{})
	const room = "matrix:!main:example.org"
	if rep := h.mx("bob", room, "settings room widget=on", false); !rep.Error || !strings.Contains(rep.Text, "Only room admins") {
		t.Fatalf("a non-admin: %+v", rep)
	}
	if rep := h.mx("ann", room, "settings room widget=maybe", true); !rep.Error || !strings.Contains(rep.Text, "widget=on or widget=off") {
		t.Fatalf("widget=maybe: %+v", rep)
	}
	if rep := h.mx("ann", room, "settings", false); !strings.Contains(rep.Text, "widget=off") {
		t.Fatalf("settings before: %q", rep.Text)
	}
	h.mx("alice", room, "challenge @matrix:@bob:example.org", false)
	if rep := h.mx("bob", room, "accept", false); rep.Error || rep.Widget != nil {
		t.Fatalf("before widget=on: %+v", rep)
	}
	if rep := h.mx("ann", room, "settings room widget=on", true); rep.Error || !strings.Contains(rep.Text, "widget=on") {
		t.Fatalf("widget=on: %+v", rep)
	}
	h.mx("alice", room, "challenge @matrix:@bob:example.org", false)
	rep := h.mx("bob", room, "accept", false)
	if rep.Error || rep.Widget == nil || rep.Widget.Game != 2 || rep.Widget.Room != room {
		t.Fatalf("a new game with widget=on: %+v", rep)
	}
	if rep := h.mx("ann", room, "settings room widget=off", true); rep.Error {
		t.Fatal(rep.Text)
	}
	h.mx("alice", room, "challenge @matrix:@bob:example.org", false)
	if rep := h.mx("bob", room, "accept", false); rep.Error || rep.Widget != nil {
		t.Fatalf("after widget=off: %+v", rep)
	}
	h.admins = map[string]bool{"alice": true}
	if rep := h.do("alice", "settings room widget=on"); !rep.Error || !strings.Contains(rep.Text, "Matrix") {
		t.Fatalf("widget=on on a platform without widgets: %+v", rep)
	}
	if rep := h.do("alice", "settings"); strings.Contains(rep.Text, "widget") {
		t.Errorf("settings on a platform without widgets shows widget=: %q", rep.Text)
	}
}

// A team game is a new game too: in a widget=on room it carries its
// widget when the last player accepts.
func TestWidgetTeamGame(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	h.bot.SetLinker(widgetLinker{})
	const room = "matrix:!main:example.org"
	if rep := h.mx("ann", room, "settings room widget=on", true); rep.Error {
		t.Fatal(rep.Text)
	}
	if rep := h.mx("alice", room, "rengo @matrix:@alice:example.org @matrix:@bob:example.org vs @matrix:@carol:example.org", false); rep.Error {
		t.Fatal(rep.Text)
	}
	h.mx("bob", room, "accept #1", false)
	rep := h.mx("carol", room, "accept #1", false)
	if rep.Error || !strings.Contains(rep.Text, "Team game #1 begins") || rep.Widget == nil || rep.Widget.Game != 1 || rep.Widget.Room != room {
		t.Fatalf("a team game with widget=on: %+v", rep)
	}
}

// TestWidgetSettingNeedsWidgets: widget=on is refused, with what the
// operator must do, where the web board cannot serve widgets (it is off,
// or its linker has no widget page: no web.widget_origins); widget=off
// is always accepted, and a refusal saves nothing.
func TestWidgetSettingNeedsWidgets(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	const room = "matrix:!main:example.org"
	for _, c := range []struct {
		name   string
		linker Linker
		want   string
	}{{"no widget page", testLinker{}, "web.widget_origins"}, {"no web board", nil, "web board"}} {
		h.bot.SetLinker(c.linker)
		rep := h.mx("ann", room, "settings room widget=on", true)
		if !rep.Error || !strings.Contains(rep.Text, c.want) || len(rep.Text) > 300 {
			t.Errorf("%s: widget=on: %+v", c.name, rep)
		}
		if rep := h.mx("ann", room, "settings", false); !strings.Contains(rep.Text, "widget=off") {
			t.Errorf("%s: the refused widget=on was saved: %q", c.name, rep.Text)
		}
		if rep := h.mx("ann", room, "settings room widget=off", true); rep.Error {
			t.Errorf("%s: widget=off: %+v", c.name, rep)
		}
	}
	h.bot.SetLinker(widgetLinker{})
	if rep := h.mx("ann", room, "settings room widget=on", true); rep.Error || !strings.Contains(rep.Text, "widget=on") {
		t.Errorf("with a widget page: %+v", rep)
	}
}
