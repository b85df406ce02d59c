package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/gobotgo/gobot"
	"strings"
)

// The route of one command:
//
//  1. Handle finds the command (typed, or a pressed button decoded by the
//     one Button codec) and parses its arguments from the declaration.
//  2. prepare, if the command has one, does slow checks outside any
//     transaction (asking an engine whether it can play the game).
//  3. The router opens the transaction: a write transaction for commands
//     that change things, in which it marks the event handled (a second
//     delivery is a Duplicate) and checks a button's game version; a read
//     transaction for commands that only look (their event is marked
//     just before). The handler gets the transaction and returns its
//     reply; it opens none of its own.
//  4. With Request.Outbox the reply is stored in the same transaction
//     (outbox.go), so the effect and what is owed for it commit together.
//  5. After the commit the board is drawn (never inside a transaction,
//     but for a reply the outbox stores whole). The messages the
//     handler queued (a DM to the player to move, an engine's turn) go
//     out once the caller is answered: Respond returns them as a
//     function the adapter calls after its answer.

// Handle answers one request and then sends the messages the command
// made for others. It never panics on bad input; every mistake comes
// back as a Reply with Error set.
func (b *Bot) Handle(ctx context.Context, r Request) Reply {
	rep, then := b.Respond(ctx, r)
	then(ctx)
	return rep
}

// Respond is Handle for an adapter that answers the caller first: it
// returns the reply and then, which sends what the command made for
// others (a DM to the player to move, an engine's turn). The adapter
// calls then once, after its answer went out, whether or not that
// succeeded: the command's effect is committed, and a slow DM must not
// delay the caller's answer (Discord wants one within 3 seconds).
func (b *Bot) Respond(ctx context.Context, r Request) (reply Reply, then func(context.Context)) {
	then = func(context.Context) {}
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("command panicked", "command", r.Command, "args", r.Args, "panic", p)
			reply = Reply{Text: "Sorry, something went wrong on my side; nothing was changed.", Error: true, Private: true}
		}
	}()
	if r.Time.IsZero() {
		r.Time = b.timeSource.Now()
	}
	if f, ok := gobot.FenceOf(ctx); ok {
		// Received under a lease: even an answer that touches no record
		// (a usage error) is given only while the lease is ours. The
		// command's own transaction checks again.
		if err := b.store.View(ctx, func(tx gobot.Tx) error { return gobot.CheckFence(tx, f) }); err != nil {
			return b.errorReply(err), then
		}
	}
	if err := ValidateUser(r.User.ID); err != nil {
		return b.errorReply(errorf("I can't take commands from this user name: %v", err)), then
	}
	var cmd *Command
	var btn *Button
	if r.Action != "" {
		x, c, err := b.decodeAction(r.Action)
		if err != nil {
			return b.errorReply(err), then
		}
		cmd, r.Command, r.Args, r.Named = c, c.Name, x.Words(), nil
		if x.Game != 0 {
			btn = &x
		}
	} else {
		name := strings.ToLower(strings.TrimSpace(r.Command))
		c, ok := b.byName[name]
		if !ok {
			return b.errorReply(b.unknownCommand(name)), then
		}
		cmd, r.Command = c, c.Name // an alias ("agree") is the command it names
	}
	if cmd.Admin && !r.Admin {
		return b.errorReply(errorf("Only room admins can use %s.", b.cmd(cmd.Name))), then
	}
	args, err := b.parseArgs(cmd, &r)
	if err != nil {
		return b.errorReply(err), then
	}
	// prepare's refusal is the answer only to a new event: one handed
	// over again gets its stored reply or is a Duplicate, as any other.
	var refused error
	if cmd.prepare != nil {
		refused = cmd.prepare(ctx, b, &r, args)
	}
	rep, later, err := b.route(ctx, cmd, &r, args, btn, refused)
	if err != nil {
		return b.errorReply(err), then
	}
	then = func(ctx context.Context) {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("sending messages panicked", "command", r.Command, "panic", p)
			}
		}()
		b.send(ctx, keyed(string(r.EventID), later))
	}
	if err := b.present(&rep); err != nil {
		return b.errorReply(err), then
	}
	return rep, then
}

// route runs cmd in the transaction the router opens for it and returns
// the reply with the messages to send once it is committed. refused is
// what the command's prepare step said against it.
func (b *Bot) route(ctx context.Context, cmd *Command, r *Request, args *Args, btn *Button, refused error) (rep Reply, later []Message, err error) {
	owed := r.Outbox && r.EventID != ""
	again := false
	run := func(tx gobot.Tx) error {
		if refused != nil {
			return refused
		}
		if err := checkButton(tx, btn); err != nil {
			return err
		}
		var err error
		rep, err = cmd.run(ctx, tx, b.inTx(&later), r, args)
		return err
	}
	if (cmd.view || cmd.looks != nil && cmd.looks(args)) && !owed {
		// Looking changes nothing: the event is marked first, on its own.
		if r.EventID != "" {
			if err := b.store.Update(ctx, func(tx gobot.Tx) error { return markEvent(tx, r) }); err != nil {
				return Reply{}, nil, err
			}
		}
		err = b.store.View(ctx, func(tx gobot.Tx) error {
			rep, later = Reply{}, nil
			return run(tx)
		})
		return rep, later, err
	}
	err = b.store.Update(ctx, func(tx gobot.Tx) error {
		// A shared store may run this again after a conflict: what a
		// thrown-away run queued is not sent.
		rep, later, again = Reply{}, nil, false
		if err := markEvent(tx, r); err != nil {
			if !owed || !errors.Is(err, errDuplicate) {
				return err
			}
			stored, err := owedReply(tx, r.EventID)
			if err != nil {
				return err
			}
			rep, again = stored, true
			return nil
		}
		if err := run(tx); err != nil {
			return err // nothing is written: the event is not marked either
		}
		if owed {
			return b.owe(tx, r, &rep)
		}
		return nil
	})
	if err == nil && again {
		rep.Again = true
		b.log.Info("answering an event handed over again with its stored reply", "event", r.EventID)
	}
	return rep, later, err
}

// markEvent records that r's event is handled; errDuplicate if it was.
func markEvent(tx gobot.Tx, r *Request) error {
	if r.EventID == "" {
		return nil
	}
	if err := tx.MarkEvent(r.EventID, r.Time); err != nil {
		if errors.Is(err, gobot.ErrDuplicate) {
			return errDuplicate
		}
		return err
	}
	return nil
}

// inTx returns the copy of b that a handler (or any work inside a
// transaction) runs with: it has no store of its own, since the
// transaction is handed in, and what it notifies waits in *later until
// the caller sends it after the commit.
func (b *Bot) inTx(later *[]Message) *Bot {
	inner := *b
	inner.store, inner.later = noStore{}, later
	return &inner
}

// send delivers messages queued inside a transaction that has committed.
func (b *Bot) send(ctx context.Context, msgs []Message) {
	for _, m := range msgs {
		b.notify(ctx, m)
	}
}

// noStore is the store of a bot inside a transaction: a handler that
// tried to open a transaction of its own gets an error, not a deadlock
// (bbolt) or a second, unsynchronised view (PostgreSQL).
type noStore struct{}

var errNestedTx = errors.New("chat: a transaction opened inside another (use the tx the router hands in)")

func (noStore) Update(context.Context, func(gobot.Tx) error) error { return errNestedTx }
func (noStore) View(context.Context, func(gobot.Tx) error) error   { return errNestedTx }

// decodeAction turns a pressed button into its command; the game
// version is checked by checkButton in the command's transaction.
func (b *Bot) decodeAction(id string) (Button, *Command, error) {
	x, err := ParseButton(id)
	c, ok := b.byName[x.Command]
	if err != nil || !ok {
		return Button{}, nil, errorf("I don't recognise that button; try %s.", b.cmd("help"))
	}
	return x, c, nil
}

// checkButton refuses a game button shown for an older position.
func checkButton(tx gobot.Tx, x *Button) error {
	if x == nil || x.Game == 0 {
		return nil
	}
	match, err := tx.Match(x.Game)
	if errors.Is(err, gobot.ErrNotFound) {
		return errorf("Game #%d no longer exists.", x.Game)
	}
	if err != nil {
		return err
	}
	if match.Version != x.Version {
		return errorf("The board has moved on since those buttons were shown — here is the latest: %s.", Cmd(fmt.Sprintf("board #%d", x.Game)))
	}
	return nil
}

func (b *Bot) unknownCommand(name string) error {
	if name == "" {
		return errorf("Which command? Try %s.", b.cmd("help"))
	}
	var names []string
	for _, c := range b.commands {
		names = append(names, c.Name)
		names = append(names, c.Aliases...)
	}
	if n, ok := nearest(name, names); ok {
		best := b.byName[n].Name // an alias stands for its command
		return errorf("I don't know the command %s. Did you mean %s? %s lists them all.", echo(name), b.cmd(best), b.cmd("help"))
	}
	return errorf("I don't know the command %s. %s lists them all.", echo(name), b.cmd("help"))
}

// owedReply is the stored reply of an event handed over again; a
// Duplicate once it was delivered.
func owedReply(tx gobot.Tx, id gobot.EventID) (Reply, error) {
	raw, err := tx.Outbox(id)
	if errors.Is(err, gobot.ErrNotFound) {
		return Reply{}, errDuplicate // handled and delivered
	}
	if err != nil {
		return Reply{}, err
	}
	var rep Reply
	return rep, json.Unmarshal(raw, &rep)
}

// errDuplicate marks a request whose event was already handled.
var errDuplicate = errors.New("duplicate event")
