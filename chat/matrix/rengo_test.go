package matrix

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix/event"

	"github.com/gobotgo/gobot/chat/protocol"
)

// `!go rengo` reads its players from pills and typed IDs, with vs
// between the teams.
func TestParseRengo(t *testing.T) {
	pill := `<a href="https://matrix.to/#/@cat:example.org">Cat</a>`
	c := event.MessageEventContent{MsgType: event.MsgText, Body: "!go rengo @ann:example.org @bob:example.org vs Cat @dan:example.org 9",
		Format: event.FormatHTML, FormattedBody: "!go rengo @ann:example.org @bob:example.org vs " + pill + " @dan:example.org 9"}
	got, ok := parseCommand("!go", &c)
	want := command{Name: "rengo", Args: []string{"@matrix:@ann:example.org", "@matrix:@bob:example.org", "vs", "@matrix:@cat:example.org", "@matrix:@dan:example.org", "9"},
		Mentions: []protocol.User{{ID: "matrix:@ann:example.org", Name: "ann"}, {ID: "matrix:@bob:example.org", Name: "bob"},
			{ID: "matrix:@cat:example.org", Name: "Cat"}, {ID: "matrix:@dan:example.org", Name: "dan"}}}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("parseCommand = %#v, %v; want %#v", got, ok, want)
	}
}

// A team game on Matrix: the challenge pings every named player (pills
// and m.mentions), bare @names are the room's members, each accepts, the
// last acceptance starts the game with its turn order, and a player out
// of turn is told whose turn it is.
func TestFakeRengo(t *testing.T) {
	f := newFakeHS(t, "@gobot:example.org")
	f.join(fakeRoom, map[string]string{"@gobot:example.org": "gobot", "@ann:example.org": "Ann", "@bob:example.org": "Bobby",
		"@cat:example.org": "Cat", "@dan:example.org": "Dan"})
	startFake(t, f, Config{}, filepath.Join(t.TempDir(), "gobot.db"), nil)
	ask := func(sender, body string, html string) fakeSent {
		t.Helper()
		f.mu.Lock()
		evtID := fmt.Sprintf("$e%d", len(f.stream)+1)
		f.mu.Unlock()
		content := map[string]any{"msgtype": "m.text", "body": body}
		if html != "" {
			content["format"], content["formatted_body"] = "org.matrix.custom.html", html
		}
		f.push(fakeItem{room: fakeRoom, evt: map[string]any{"type": "m.room.message", "event_id": evtID, "sender": sender,
			"origin_server_ts": time.Now().UnixMilli(), "content": content}})
		f.waitFor(t, body, func() bool { // under f.mu
			for _, s := range f.sent {
				rel, _ := s.content["m.relates_to"].(map[string]any)
				if irt, _ := rel["m.in_reply_to"].(map[string]any); irt["event_id"] == evtID {
					return true
				}
			}
			return false
		})
		got := f.answers(evtID)
		if len(got) != 1 {
			t.Fatalf("%s got %d answers", body, len(got))
		}
		return got[0]
	}
	pill := `<a href="https://matrix.to/#/@cat:example.org">Cat</a>`
	c := ask("@ann:example.org", "!go rengo @ann @bob vs Cat @dan 9 black", "!go rengo @ann @bob vs "+pill+" @dan 9 black")
	html, _ := c.content["formatted_body"].(string)
	for _, u := range []string{"@ann", "@bob", "@cat", "@dan"} {
		if !strings.Contains(html, "https://matrix.to/#/"+u+":example.org") {
			t.Errorf("the team challenge does not name %s: %q", u, html)
		}
	}
	mentions, _ := c.content["m.mentions"].(map[string]any)
	if got := fmt.Sprint(mentions["user_ids"]); got != "[@bob:example.org @cat:example.org @dan:example.org]" {
		t.Errorf("the team challenge pings %s", got)
	}
	ask("@bob:example.org", "!go accept", "")
	ask("@cat:example.org", "!go accept #1", "")
	start := ask("@dan:example.org", "!go accept", "")
	if b := start.body(); !strings.Contains(b, "Team game #1 begins") || !strings.Contains(b, "Turn order: Ann, Cat, Bobby, Dan") {
		t.Errorf("the game's start: %q", b)
	}
	if b := ask("@bob:example.org", "!go play D4", "").body(); !strings.Contains(b, "turn (Black: Ann, Bobby)") {
		t.Errorf("bob out of turn: %q", b)
	}
}
