package chat

import (
	"encoding/json"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A request with Outbox set is handled in one write transaction that
// also stores its reply (the outbox entry), so the effect and what is
// owed for it are committed together. The adapter delivers the reply
// and then calls Delivered. When the platform hands the same event over
// again (a crash between the commit and the send), the stored reply is
// returned again, unchanged (router.go); once delivered, a repeat is a
// Duplicate.

// owe stores rep, drawn in full, as what is owed for r's event.
func (b *Bot) owe(tx gobot.Tx, r *protocol.Request, rep *protocol.Reply) error {
	if err := b.present(rep); err != nil {
		return err
	}
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return tx.PutOutbox(r.EventID, r.Time, raw)
}

// keyed names each message step queued (see Message.Key) by step and
// its place among them, for the platforms' duplicate checks. The same
// step decided again (a re-delivered event, a deadline claimed again)
// queues the same messages in the same order, so they get the same
// keys. An empty step leaves the messages unnamed.
func keyed(step string, msgs []protocol.Message) []protocol.Message {
	if step == "" {
		return msgs
	}
	for i := range msgs {
		if msgs[i].Key == "" {
			msgs[i].Key = fmt.Sprintf("%s/%d", step, i)
		}
	}
	return msgs
}
