package matrix

import (
	"reflect"
	"strings"
	"testing"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// A user named in a command is a member of the room: a bare @name is
// looked up by localpart or display name; a full ID must be here.
func TestUsersResolvedAgainstTheRoom(t *testing.T) {
	members := map[id.UserID]string{
		"@ann:ex.org": "Ann", "@bob:ex.org": "Bobby", "@robert:other.org": "bob", "@cat:ex.org": "Cat", "@cat:other.org": "",
		"@gobot:ex.org": "gobot",
	}
	for _, tc := range []struct {
		body, html string
		args       []string
		err        string
	}{
		{body: "!go challenge @ann 9", args: []string{"@matrix:@ann:ex.org", "9"}},
		{body: "!go challenge @Bobby", args: []string{"@matrix:@bob:ex.org"}},
		{body: "!go challenge @bob 9", err: "Several people here are called \"bob\": @bob:ex.org, @robert:other.org"},
		{body: "!go challenge @cat", err: "Several people"},
		{body: "!go challenge @nobody 9", err: "I don't see anyone called \"nobody\" in this room"},
		{body: "!go challenge @nobody:localhost 9", err: "@nobody:localhost is not in this room"},
		{body: "!go challenge @robert:other.org", args: []string{"@matrix:@robert:other.org"}},
		{body: "!go challenge Ann", html: `!go challenge <a href="https://matrix.to/#/@ann:ex.org">Ann</a> 13`, args: []string{"@matrix:@ann:ex.org", "13"}},
		{body: "!go challenge @" + strings.Repeat("x", 5000), err: "I don't see anyone called"},
	} {
		content := &event.MessageEventContent{MsgType: event.MsgText, Body: tc.body}
		if tc.html != "" {
			content.Format, content.FormattedBody = event.FormatHTML, tc.html
		}
		c, ok := parseCommand(DefaultPrefix, content)
		if !ok {
			t.Fatalf("%q is not a command", tc.body)
		}
		msg := resolveUsers(&c, members)
		if tc.err != "" {
			if !strings.Contains(msg, tc.err) || len(msg) > 400 {
				t.Errorf("%.40q: error %q, want %q", tc.body, msg, tc.err)
			}
			continue
		}
		if msg != "" || !reflect.DeepEqual(c.Args, tc.args) {
			t.Errorf("%q: args %q, error %q; want %q", tc.body, c.Args, msg, tc.args)
		}
		if len(c.Mentions) != 1 || "@"+string(c.Mentions[0].ID) != tc.args[0] {
			t.Errorf("%q: mentions %+v", tc.body, c.Mentions)
		}
	}
}
