package matrix

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Every text event stays well under Matrix's 64 KiB event limit, also
// once encrypted (a third larger), whatever the reply holds.
func TestTextEventsStayUnderTheLimit(t *testing.T) {
	long := strings.Repeat("<é>&", 40000)
	name := func(u gobot.UserID) string { return u.Local() }
	for _, rep := range []protocol.Reply{
		{Text: long, Error: true},
		{Title: long, Text: long, Fields: []protocol.Field{{Name: "x", Value: long}}, Board: long},
		{Text: "short"},
	} {
		c := textContent(rep, name, []string{long})
		raw, _ := json.Marshal(c)
		if len(raw)*4/3 > 60000 {
			t.Errorf("event content of %d bytes", len(raw))
		}
		if c.Body == "" {
			t.Error("empty body")
		}
	}
}
