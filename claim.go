package gobot

import "time"

// A Claim is work on a deadline that one process took on and has not
// finished: the messages announcing a reminder, a timeout or an engine's
// move, stored in the transaction that decided them. The claimer sends
// them and deletes the claim. If it dies first, the claim expires and the
// clock loop of any process (this one after a restart, or another) claims
// it again and sends the same messages with the same keys (Message.Key),
// which the platforms use to drop a second copy: sent exactly once,
// where before they were sent at most once.
type Claim struct {
	// Key names the step claimed ("game 7 timeout"): the messages' keys
	// derive from it.
	Key string
	// Holder is the process that claimed it last (for the logs).
	Holder string
	// Expires is when another process may claim it again.
	Expires time.Time
	// Value is the claimed messages, encoded by chat.
	Value []byte
}
