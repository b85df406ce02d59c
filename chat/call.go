package chat

import (
	"context"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A Call is one command in the transaction the router opened for it:
// everything its handler gets. A handler reads and writes through Tx
// only; it opens no transaction (it has no store to open one with) and
// sends nothing: it returns its reply and its effects.
type Call struct {
	Ctx  context.Context
	Tx   gobot.Tx
	Req  *protocol.Request
	Args *protocol.Args
	// Prepared is what the command's prepare step returned (nil for a
	// command without one).
	Prepared any

	bot *core
}

// A Prep is a command's prepare step: the slow checks made before the
// router opens the transaction (asking an engine whether it can play a
// game). It gets the request, its arguments and the room's settings,
// read for it by the router, and returns a value the router hands to the
// handler as Call.Prepared.
type Prep struct {
	Ctx  context.Context
	Req  *protocol.Request
	Args *protocol.Args
	Room *gobot.Room // the room's settings; nil when it has none

	bot *core
}

// Result is what a handler returns: its reply to the caller and what is
// to be done once the transaction has committed.
type Result struct {
	Reply protocol.Reply
	Effects

	// claim names the claim the router stored the change's messages
	// under, and claimed is them (Bot.claimNotices).
	claim   string
	claimed []protocol.Message
}

// Effects are what a command or a clock job leaves to be done once its
// transaction has committed: messages to others (a DM to the player to
// move, an announcement) and games whose engine moves next. The router
// carries them out after the commit; a transaction that is retried or
// rolled back carries out nothing.
type Effects struct {
	Notices []protocol.Message
	Wake    []gobot.GameID
}

// notify queues m.
func (fx *Effects) notify(m protocol.Message) { fx.Notices = append(fx.Notices, m) }

// wake queues the engine's turn in game id.
func (fx *Effects) wake(id gobot.GameID) { fx.Wake = append(fx.Wake, id) }

// reply is the Result of a handler whose reply is rep, with effects fx.
func reply(rep protocol.Reply, fx Effects) (Result, error) {
	return Result{Reply: rep, Effects: fx}, nil
}

// asResult is the Result of a handler that has no effects.
func asResult(rep protocol.Reply, err error) (Result, error) { return Result{Reply: rep}, err }
