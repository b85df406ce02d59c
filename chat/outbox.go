package chat

import (
	"context"
	"encoding/json"
	"errors"
)

// A request with Outbox set is handled in one write transaction that
// also stores its reply (the outbox entry), so the effect and what is
// owed for it are committed together. The adapter delivers the reply
// and then calls Delivered. When the platform hands the same event over
// again (a crash between the commit and the send), the stored reply is
// returned again, unchanged; once delivered, a repeat is a Duplicate.

// inTx is a Store whose Update and View run inside one open write
// transaction: the handlers' own transactions become parts of it.
type inTx struct{ tx Tx }

func (s inTx) Update(ctx context.Context, fn func(Tx) error) error { return fn(s.tx) }
func (s inTx) View(ctx context.Context, fn func(Tx) error) error   { return fn(s.tx) }

// handleOwed runs cmd for r (r.Outbox set) as described above.
func (b *Bot) handleOwed(ctx context.Context, cmd *Command, r *Request, args *Args) Reply {
	var rep Reply
	var later []Message // notifications, sent after the commit
	again := false
	err := b.store.Update(ctx, func(tx Tx) error {
		// A shared store may run this again after a conflict: what a
		// thrown-away run queued is not sent.
		rep, later, again = Reply{}, nil, false
		if err := tx.MarkEvent(r.EventID, r.Time); err != nil {
			if !errors.Is(err, ErrDuplicate) {
				return err
			}
			raw, err := tx.Outbox(r.EventID)
			if errors.Is(err, ErrNotFound) {
				return errDuplicate // handled and delivered
			}
			if err != nil {
				return err
			}
			again = true
			return json.Unmarshal(raw, &rep)
		}
		inner := *b
		inner.store, inner.eventMarked, inner.deferred = inTx{tx}, true, &later
		var err error
		if rep, err = cmd.run(ctx, &inner, r, args); err != nil {
			return err // nothing is written: the event is not marked either
		}
		raw, err := json.Marshal(rep)
		if err != nil {
			return err
		}
		return tx.PutOutbox(r.EventID, r.Time, raw)
	})
	if err != nil {
		return b.errorReply(err)
	}
	if again {
		b.log.Info("answering an event handed over again with its stored reply", "event", r.EventID)
	}
	for _, m := range later {
		b.notify(ctx, m)
	}
	return rep
}

// Delivered records that the reply to event id (a request with Outbox
// set) was delivered: a later delivery of the same event is then a
// Duplicate.
func (b *Bot) Delivered(ctx context.Context, id EventID) error {
	return b.store.Update(ctx, func(tx Tx) error { return tx.DeleteOutbox(id) })
}
