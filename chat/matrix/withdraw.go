package matrix

import (
	"context"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
)

// withdraw redacts a command message that showed what should have stayed
// private (a plan typed in a shared room: protocol.Reply.Withdraw), where
// the bot's power level lets it redact other people's events; where it
// does not, the refusal alone answers (it repeats none of the message).
// The redaction's transaction ID is named after the event, so a message
// handled again after a crash is redacted once.
func (a *Adapter) withdraw(ctx context.Context, evt *event.Event) {
	pl := a.powerLevels(ctx, evt.RoomID)
	if pl == nil || pl.GetUserLevel(a.cli.UserID) < pl.Redact() {
		a.log.Debug("cannot redact a private command here (power level too low)", "room", evt.RoomID, "event", evt.ID)
		return
	}
	err := a.retry(ctx, "redact", func() error {
		_, err := a.cli.RedactEvent(ctx, evt.RoomID, evt.ID, mautrix.ReqRedact{Reason: "gobot: plans are private; send them in a direct message", TxnID: a.txnID("withdraw "+string(evt.ID), 0)})
		return err
	})
	if err != nil {
		a.log.Warn("redacting a private command", "room", evt.RoomID, "event", evt.ID, "err", err)
	}
}
