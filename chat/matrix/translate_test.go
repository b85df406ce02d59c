package matrix

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

func TestParseCommand(t *testing.T) {
	pill := `<a href="https://matrix.to/#/@bob:example.org">Bob Smith</a>`
	tests := []struct {
		name string
		c    event.MessageEventContent
		ok   bool
		want command
	}{
		{"plain", event.MessageEventContent{MsgType: event.MsgText, Body: "!go play D4 #7"},
			true, command{Name: "play", Args: []string{"D4", "#7"}}},
		{"prefix case and spaces", event.MessageEventContent{MsgType: event.MsgText, Body: "  !GO   pass  "},
			true, command{Name: "pass"}},
		{"prefix alone is help", event.MessageEventContent{MsgType: event.MsgText, Body: "!go"},
			true, command{Name: "help"}},
		{"other word", event.MessageEventContent{MsgType: event.MsgText, Body: "!gold rush"}, false, command{}},
		{"not a command", event.MessageEventContent{MsgType: event.MsgText, Body: "nice move"}, false, command{}},
		{"notice from a bot", event.MessageEventContent{MsgType: event.MsgNotice, Body: "!go pass"}, false, command{}},
		{"edit", event.MessageEventContent{MsgType: event.MsgText, Body: "* !go pass",
			RelatesTo: &event.RelatesTo{Type: event.RelReplace, EventID: "$x"}}, false, command{}},
		{"pill", event.MessageEventContent{MsgType: event.MsgText, Body: "!go challenge Bob Smith 9",
			Format: event.FormatHTML, FormattedBody: "!go challenge " + pill + " 9"},
			true, command{Name: "challenge", Args: []string{"@matrix:@bob:example.org", "9"},
				Mentions: []protocol.User{{ID: "matrix:@bob:example.org", Name: "Bob Smith"}}}},
		{"pill with colon", event.MessageEventContent{MsgType: event.MsgText, Body: "!go challenge Bob Smith: 9",
			Format: event.FormatHTML, FormattedBody: "!go challenge " + pill + ": 9"},
			true, command{Name: "challenge", Args: []string{"@matrix:@bob:example.org", ":", "9"},
				Mentions: []protocol.User{{ID: "matrix:@bob:example.org", Name: "Bob Smith"}}}},
		{"typed ID", event.MessageEventContent{MsgType: event.MsgText, Body: "!go challenge @carol:example.net, white"},
			true, command{Name: "challenge", Args: []string{"@matrix:@carol:example.net", "white"},
				Mentions: []protocol.User{{ID: "matrix:@carol:example.net", Name: "carol"}}}},
		{"qualified ID", event.MessageEventContent{MsgType: event.MsgText, Body: "!go challenge @matrix:@carol:example.net"},
			true, command{Name: "challenge", Args: []string{"@matrix:@carol:example.net"},
				Mentions: []protocol.User{{ID: "matrix:@carol:example.net", Name: "carol"}}}},
		{"reply fallback removed", event.MessageEventContent{MsgType: event.MsgText,
			Body:   "> <@bot:example.org> Game #1\n\n!go play C3",
			Format: event.FormatHTML, FormattedBody: "<mx-reply><blockquote>Game #1</blockquote></mx-reply>!go play C3",
			RelatesTo: &event.RelatesTo{InReplyTo: &event.InReplyTo{EventID: "$r"}}},
			true, command{Name: "play", Args: []string{"C3"}}},
		{"html formatting", event.MessageEventContent{MsgType: event.MsgText, Body: "!go **play** D4",
			Format: event.FormatHTML, FormattedBody: "!go <strong>play</strong> D4"},
			true, command{Name: "play", Args: []string{"D4"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := parseCommand("!go", &tt.c)
			if ok != tt.ok || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("parseCommand = %#v, %v; want %#v, %v", got, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestRoomIDs(t *testing.T) {
	r, th, ok := matrixRoom(RoomID("!abc:example.org:8448", "$root_1-x"))
	if !ok || r != "!abc:example.org:8448" || th != "$root_1-x" {
		t.Errorf("thread room round trip = %q %q %v", r, th, ok)
	}
	r, th, ok = matrixRoom(RoomID("!abc:example.org", ""))
	if !ok || r != "!abc:example.org" || th != "" {
		t.Errorf("room round trip = %q %q %v", r, th, ok)
	}
	for _, bad := range []gobot.RoomID{"discord:123", "matrix:@ann:example.org", "console:main"} {
		if _, _, ok := matrixRoom(bad); ok {
			t.Errorf("matrixRoom(%q) accepted", bad)
		}
	}
	if u, ok := matrixUser(UserID("@ann:example.org")); !ok || u != "@ann:example.org" {
		t.Errorf("user round trip = %q %v", u, ok)
	}
	if _, ok := matrixUser("discord:1234"); ok {
		t.Error("matrixUser accepted a Discord user")
	}
}

func names(u gobot.UserID) string {
	switch u {
	case "matrix:@ann:example.org":
		return "Ann <A>"
	case "matrix:@bob:example.org":
		return "Bob"
	}
	return u.Local()
}

func TestTextContent(t *testing.T) {
	rep := protocol.Reply{
		Title:    "Game #7 · move 3",
		Text:     "<@matrix:@ann:example.org> played C3.\n<@matrix:@bob:example.org> (White) to play; try `!go pass <x>` & see.",
		Fields:   []protocol.Field{{Name: "Black", Value: "<@matrix:@ann:example.org> · 1 captured"}},
		Mentions: []gobot.UserID{"matrix:@bob:example.org", "discord:99", "matrix:@bob:example.org"},
		Board:    "  A B\n2 . .\n",
		Image:    &protocol.File{Name: "b.png", MIME: "image/png", Data: []byte{1}},
	}
	c := textContent(rep, names, []string{"Pass (`!go pass #7`)"})
	if c.MsgType != event.MsgNotice || c.Format != event.FormatHTML {
		t.Fatalf("type %q format %q", c.MsgType, c.Format)
	}
	wantBody := "Game #7 · move 3\nAnn <A> played C3.\nBob (White) to play; try `!go pass <x>` & see.\nBlack: Ann <A> · 1 captured\nNext: Pass (`!go pass #7`)"
	if c.Body != wantBody {
		t.Errorf("body:\n%s\nwant:\n%s", c.Body, wantBody)
	}
	wantHTML := `<strong>Game #7 · move 3</strong><br>` +
		`<a href="https://matrix.to/#/@ann:example.org">Ann &lt;A&gt;</a> played C3.<br>` +
		`<a href="https://matrix.to/#/@bob:example.org">Bob</a> (White) to play; try <code>!go pass &lt;x&gt;</code> &amp; see.<br>` +
		`<b>Black:</b> <a href="https://matrix.to/#/@ann:example.org">Ann &lt;A&gt;</a> · 1 captured<br>` +
		`Next: Pass (<code>!go pass #7</code>)`
	if c.FormattedBody != wantHTML {
		t.Errorf("html:\n%s\nwant:\n%s", c.FormattedBody, wantHTML)
	}
	if !reflect.DeepEqual(c.Mentions.UserIDs, []id.UserID{"@bob:example.org"}) {
		t.Errorf("m.mentions = %v, want only Bob", c.Mentions.UserIDs)
	}
	// The JSON must carry m.mentions even when nobody is to be pinged,
	// so that clients do not ping everyone whose pill appears.
	b, _ := json.Marshal(textContent(protocol.Reply{Text: "<@matrix:@ann:example.org> hi"}, names, nil))
	if !strings.Contains(string(b), `"m.mentions":{}`) {
		t.Errorf("no empty m.mentions in %s", b)
	}
}

func TestTextContentBoardWithoutImage(t *testing.T) {
	c := textContent(protocol.Reply{Text: "x", Board: "  A B\n2 X .\n"}, names, nil)
	if !strings.Contains(c.Body, "2 X .") || !strings.Contains(c.FormattedBody, "<pre><code>  A B\n2 X .</code></pre>") {
		t.Errorf("board missing: %q / %q", c.Body, c.FormattedBody)
	}
}

func TestFormatTextUnmatchedBacktick(t *testing.T) {
	_, h := formatText("a `b` c ` d", names)
	if h != "a <code>b</code> c ` d" {
		t.Errorf("got %q", h)
	}
}

func TestMediaContent(t *testing.T) {
	png := &protocol.File{Name: "game-1.png", MIME: "image/png", Data: make([]byte, 1234), Width: 500, Height: 400}
	c := mediaContent(png, "mxc://example.org/abc", nil)
	if c.MsgType != event.MsgImage || c.URL != "mxc://example.org/abc" || c.File != nil || c.Body != "game-1.png" {
		t.Errorf("image content %+v", c)
	}
	if i := c.Info; i.MimeType != "image/png" || i.Size != 1234 || i.Width != 500 || i.Height != 400 || i.IsAnimated {
		t.Errorf("image info %+v", i)
	}
	var raw map[string]any
	b, _ := json.Marshal(c)
	json.Unmarshal(b, &raw)
	info := raw["info"].(map[string]any)
	if info["mimetype"] != "image/png" || info["size"] != 1234.0 || info["w"] != 500.0 || info["h"] != 400.0 {
		t.Errorf("info JSON %s", b)
	}
	gif := mediaContent(&protocol.File{Name: "r.gif", MIME: "image/gif", Data: []byte{1}, Width: 5, Height: 5}, "", &event.EncryptedFileInfo{URL: "mxc://e/x"})
	if gif.MsgType != event.MsgImage || gif.Info.MimeType != "image/gif" || gif.URL != "" || gif.File.URL != "mxc://e/x" {
		t.Errorf("gif content %+v", gif)
	}
	sgf := mediaContent(&protocol.File{Name: "game-1.sgf", MIME: "application/x-go-sgf", Data: []byte("(;)")}, "mxc://e/s", nil)
	if sgf.MsgType != event.MsgFile || sgf.Info.MimeType != "application/x-go-sgf" || sgf.Info.Size != 3 || sgf.Info.Width != 0 {
		t.Errorf("sgf content %+v", sgf)
	}
}

func TestRelation(t *testing.T) {
	if r := (route{Room: "!r"}).relation(); r != nil {
		t.Errorf("no relation expected, got %+v", r)
	}
	r := route{Room: "!r", ReplyTo: "$cmd"}.relation()
	if r.Type != "" || r.InReplyTo.EventID != "$cmd" {
		t.Errorf("reply relation %+v", r)
	}
	r = route{Room: "!r", Thread: "$root", ReplyTo: "$cmd"}.relation()
	if r.Type != event.RelThread || r.EventID != "$root" || r.InReplyTo.EventID != "$cmd" || r.IsFallingBack {
		t.Errorf("thread reply relation %+v", r)
	}
	r = route{Room: "!r", Thread: "$root"}.relation()
	if r.Type != event.RelThread || r.EventID != "$root" || r.InReplyTo.EventID != "$root" || !r.IsFallingBack {
		t.Errorf("thread relation %+v", r)
	}
}

func TestActionCommands(t *testing.T) {
	known := func(s string) bool { return s == "pass" || s == "undo" || s == "accept" }
	got := actionCommands("!go", []protocol.Action{
		{ID: "pass|g7|12", Label: "Pass"},
		{ID: "undo|g7|12|no", Label: "Refuse"},
		{ID: "accept|c3|0", Label: "Accept"},
		{ID: "frobnicate|g7|1", Label: "Frob"},
		{ID: "opaque", Label: "Other"},
	}, known)
	want := []string{"Pass (`!go pass #7`)", "Refuse (`!go undo no #7`)", "Accept (`!go accept #3`)", "Frob", "Other"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

func TestConfig(t *testing.T) {
	c := Config{Homeserver: "https://m.example.org", UserID: "@gobot:example.org", Password: "pw"}.withDefaults("/var/lib/gobot/gobot.db")
	if c.Prefix != "!go" || c.CryptoStore != "/var/lib/gobot/gobot-crypto.db" || c.DeviceName != "gobot" || !c.autoJoin() {
		t.Errorf("defaults %+v", c)
	}
	if err := c.check(); err != nil {
		t.Error(err)
	}
	if err := (Config{Homeserver: "h", UserID: "gobot"}).check(); err == nil {
		t.Error("bad user ID accepted")
	}
	if err := (Config{Homeserver: "h", UserID: "@g:e"}).check(); err == nil {
		t.Error("no credentials accepted")
	}
	c.AllowServers = []string{"example.org"}
	if !c.allowed("Example.org") || c.allowed("evil.example") {
		t.Error("allowlist")
	}
}
