package matrix

import (
	"encoding/json"

	"maunium.net/go/mautrix/event"

	"github.com/gobotgo/gobot/chat/protocol"
)

// maxTextBytes bounds a text event's body. Matrix refuses events over
// 64 KiB (M_BAD_JSON "event is too long"), and in encrypted rooms the
// content grows by a third (base64) inside the encrypted event.
const maxTextBytes = 30000

// boundContent keeps a text event under the event size limit: when the
// plain and HTML bodies together are too long as JSON (where "<" takes
// six bytes), the HTML is dropped (it cannot be cut safely) and the
// plain body is clipped.
func boundContent(c *event.MessageEventContent) {
	if jsonLen(c.Body)+jsonLen(c.FormattedBody) <= maxTextBytes {
		return
	}
	c.Format, c.FormattedBody = "", ""
	for n := jsonLen(c.Body); n > maxTextBytes; n = jsonLen(c.Body) {
		c.Body = protocol.ClipBytes(c.Body, len(c.Body)*maxTextBytes/n-8)
	}
}

func jsonLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b)
}
