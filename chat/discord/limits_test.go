package discord

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot/chat/protocol"
)

// Whatever a reply holds, the message sent stays within Discord's limits
// (else Discord refuses it whole and the user sees "did not respond").
func TestTranslateKeepsDiscordLimits(t *testing.T) {
	long := strings.Repeat("é", 9000)
	var fields []protocol.Field
	for range 30 {
		fields = append(fields, protocol.Field{Name: long, Value: long})
	}
	for _, rep := range []protocol.Reply{
		{Text: long, Error: true, Private: true},
		{Title: long, Text: long, Fields: fields},
		{Text: strings.Repeat("<cmd:play D4:cmd> ", 900)},
	} {
		m := Translate(rep)
		if n := utf8.RuneCountInString(m.Content); n > maxContent {
			t.Errorf("content of %d characters", n)
		}
		if n := embedChars(m.Embeds); n > maxEmbedsTotal {
			t.Errorf("embeds of %d characters", n)
		}
		for _, e := range m.Embeds {
			if utf8.RuneCountInString(e.Title) > maxEmbedTitle || utf8.RuneCountInString(e.Description) > maxEmbedDesc || len(e.Fields) > maxFields {
				t.Errorf("embed over a limit: title %d, description %d, %d fields", utf8.RuneCountInString(e.Title), utf8.RuneCountInString(e.Description), len(e.Fields))
			}
			for _, f := range e.Fields {
				if utf8.RuneCountInString(f.Name) > maxFieldName || utf8.RuneCountInString(f.Value) > maxFieldValue {
					t.Errorf("field over a limit")
				}
			}
		}
	}
}

// Long option values (Discord's client enforces max_length, but a
// request may come from anywhere) get a short error, not a refused one.
func TestLongOptionsGetShortErrors(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	long := strings.Repeat("x", 3000)
	for _, body := range [][]byte{
		e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("clock", 3, long)),
		e.command("111", "alice", "help", opt("command", 3, long[:2100])),
		e.command("111", "alice", "play", opt("point", 3, long)),
		e.command("111", "alice", "settings", opt("options", 3, long)),
		e.command("111", "alice", "board", opt("game", 3, "#"+long[:2500])),
	} {
		code, out := e.send(body, now, false)
		data, _ := out["data"].(map[string]any)
		content, _ := data["content"].(string)
		if code != 200 || content == "" || utf8.RuneCountInString(content) > 300 || strings.Contains(content, long[:maxEchoTest]) {
			t.Errorf("%d: %.200q (%d characters)", code, content, utf8.RuneCountInString(content))
		}
	}
}

const maxEchoTest = 41
