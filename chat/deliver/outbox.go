package deliver

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A request with Outbox set is handled in one write transaction that
// also stores its reply (the outbox entry), so the effect and what is
// owed for it are committed together. The adapter delivers the reply
// and then calls Delivered. When the platform hands the same event over
// again (a crash between the commit and the send), the stored reply is
// returned again, unchanged (chat's router); once delivered, a repeat is
// a Duplicate.

// Owe stores rep, drawn in full, as what is owed for event id, handled
// at t.
func Owe(tx gobot.Tx, id gobot.EventID, t time.Time, rep protocol.Reply) error {
	raw, err := json.Marshal(rep)
	if err != nil {
		return err
	}
	return tx.PutOutbox(id, t, raw)
}

// Owed is the stored reply of event id, handed over again; ok is false
// once it was delivered.
func Owed(tx gobot.Tx, id gobot.EventID) (rep protocol.Reply, ok bool, err error) {
	raw, err := tx.Outbox(id)
	if errors.Is(err, gobot.ErrNotFound) {
		return protocol.Reply{}, false, nil // handled and delivered
	}
	if err != nil {
		return protocol.Reply{}, false, err
	}
	err = json.Unmarshal(raw, &rep)
	return rep, err == nil, err
}
