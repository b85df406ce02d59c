package chat

import (
	"context"
	"errors"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/deliver"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
)

// The route of one command:
//
//  1. Handle finds the command (typed, or a pressed button decoded by the
//     one Button codec) and parses its arguments from the declaration.
//  2. prepare, if the command has one, does slow checks outside any
//     transaction (asking an engine whether it can play the game), with
//     the room's settings the router read for it; what it returns
//     reaches the handler as Call.Prepared.
//  3. The router opens the transaction: a write transaction for commands
//     that change things, in which it marks the event handled (a second
//     delivery is a Duplicate) and checks a button's game version; a read
//     transaction for commands that only look (their event is marked
//     just before). The handler gets a Call holding the transaction and
//     returns a Result: its reply and its effects. It has no store, so
//     it cannot open a transaction of its own.
//  4. With Request.Outbox the reply is stored in the same transaction
//     (deliver.Owe), so the effect and what is owed for it commit together.
//  5. After the commit the board is drawn (never inside a transaction,
//     but for a reply the outbox stores whole). The effects (a DM to the
//     player to move, an engine's turn) are carried out once the caller
//     is answered: Respond returns them as a function the adapter calls
//     after its answer.

// Handle answers one request and then sends the messages the command
// made for others. It never panics on bad input; every mistake comes
// back as a Reply with Error set.
func (b *Bot) Handle(ctx context.Context, r protocol.Request) protocol.Reply {
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
func (b *Bot) Respond(ctx context.Context, r protocol.Request) (reply protocol.Reply, then func(context.Context)) {
	then = func(context.Context) {}
	defer func() {
		if p := recover(); p != nil {
			b.log.Error("command panicked", "command", r.Command, "args", r.Args, "panic", p)
			reply = protocol.Reply{Text: say.Panicked, Error: true, Private: true}
		}
	}()
	now := b.timeSource.Now()
	if r.Time.IsZero() || r.Time.After(now) {
		// A time from the future is the sender's clock (a Matrix
		// homeserver's origin_server_ts, which its users may set): the
		// clocks, vote windows and vacations count from ours.
		r.Time = now
	}
	if r.Arrived.IsZero() || r.Arrived.After(now) {
		r.Arrived = now
	}
	if f, ok := gobot.FenceOf(ctx); ok {
		// Received under a lease: even an answer that touches no record
		// (a usage error) is given only while the lease is ours. The
		// command's own transaction checks again.
		if err := b.store.View(ctx, func(tx gobot.Tx) error { return gobot.CheckFence(tx, f) }); err != nil {
			return b.errorReply(err), then
		}
	}
	// Ratings, the leaderboard, tournaments and ladders are the joined
	// community's, in every room it joins: the one place a request's
	// community is mapped.
	r.Community = b.cfg.Communities.Of(communityOf(&r))
	r.Elsewhere = b.elsewhere(&r) // mirror.go
	if err := r.Platform.ValidateUser(r.User.ID); err != nil {
		return b.errorReply(say.BadUser(err)), then
	}
	var cmd *Command
	var btn *protocol.Button
	if r.Act != nil {
		// A click on the web board is an act, not a command line: it
		// runs as the command that does it, with no words to parse.
		c, ok := b.byName[r.Act.Name()]
		if !ok {
			return b.errorReply(b.unknownCommand(r.Act.Name())), then
		}
		cmd, r.Command, r.Args, r.Action = c, c.Name, nil, ""
	} else if r.Action != "" {
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
		return b.errorReply(say.AdminOnly(cmd.Name)), then
	}
	if cmd.private && !r.DM && !r.PrivateReplies() {
		// Refused before its words are read: nothing of them is repeated.
		rep := b.errorReply(say.PlanPrivate(cmd.Name))
		rep.Withdraw = true
		return rep, then
	}
	if r.File != nil && cmd.Attachment == "" {
		// A file with a command that takes none (a Matrix m.file's
		// caption, a terminal line ending in < PATH) is not dropped
		// unread: the caller meant it for something.
		return b.errorReply(say.TakesNoFile(cmd.Name, b.fileTakers())), then
	}
	args := &protocol.Args{Game: r.Game}
	if r.Act == nil {
		var err error
		if args, err = protocol.ParseArgs(cmd.Decl(), &r); err != nil {
			return b.errorReply(err), then
		}
	}
	if r.AskFirst && cmd.ask != nil && btn != nil {
		// The first press of a button that asks first: the question,
		// for the presser alone; nothing changes, nothing is marked.
		rep, err := b.askFirst(ctx, cmd, &Call{Ctx: ctx, Req: &r, Args: args, bot: b.core}, btn)
		if err != nil {
			return b.errorReply(err), then
		}
		return rep, then
	}
	// prepare's refusal is the answer only to a new event: one handed
	// over again gets its stored reply or is a Duplicate, as any other.
	var prepared any
	var refused error
	if cmd.prepare != nil {
		prepared, refused = b.prepare(ctx, cmd, &r, args)
	}
	res, err := b.route(ctx, cmd, &Call{Ctx: ctx, Req: &r, Args: args, Prepared: prepared, bot: b.core}, btn, refused)
	if err != nil {
		return b.errorReply(err), then
	}
	if !cmd.view {
		b.poke()
	}
	rep := res.Reply
	then = func(ctx context.Context) {
		defer func() {
			if p := recover(); p != nil {
				b.log.Error("sending messages panicked", "command", r.Command, "panic", p)
			}
		}()
		// The claimed notices (route) are sent and their claim recorded
		// done; the others (a personal link, a view's) are sent as they are.
		b.sendClaimed(ctx, res.claim, res.claimed)
		b.carryOut(ctx, res.Effects)
	}
	if r.Act != nil {
		// The caller's surface shows its own state, not the reply's
		// board: the room's copy (a notice) is drawn when it is sent.
		rep.Draw = nil
	}
	if err := b.present(&rep); err != nil {
		return b.errorReply(err), then
	}
	return rep, then
}

// claimNotices stores what a command's change leaves for others in the
// change's transaction, as a timed job's messages are (deliver.Claim):
// the reply posted in the game's room for a request that asks it
// (Request.Act: a web click), its copy for a game's other room (a game
// between platforms: mirror.go), then the notices (a DM to the player
// to move). If this process dies before sending them, the claim expires
// and a clock loop sends them, with the same keys, once. A private
// notice (a personal link, a credential) is not stored: it is sent as it
// is, after the commit.
func (b *Bot) claimNotices(tx gobot.Tx, r *protocol.Request, res *Result) error {
	step := string(r.EventID)
	var claimed, rest []protocol.Message
	if rep := res.Reply; !rep.Error && !rep.Private && !rep.Duplicate {
		room := r.Room
		if rep.Room != "" {
			room = rep.Room
		}
		m := protocol.Message{Room: room, Reply: rep}
		if step != "" {
			m.Key = step + "/announce"
		}
		// A game's other room (a game between platforms) sees the reply
		// too (mirror.go).
		copies, err := b.mirrorCopies(tx, map[gobot.GameID]*gobot.Match{}, m)
		if err != nil {
			return err
		}
		// A reply for a room of another platform than the caller's (a
		// linked player's move from a Matrix DM in a game played on
		// Discord) is posted there by its own platform, and the caller is
		// answered where they asked.
		other := room.Platform() != r.Room.Platform()
		if r.Act != nil || other {
			claimed = append(claimed, m)
		}
		if other {
			res.Reply.Room = ""
		}
		claimed = append(claimed, copies...)
	}
	notices, err := b.mirrored(tx, res.Notices)
	if err != nil {
		return err
	}
	res.Notices = notices
	if step == "" {
		// No event to name the step by: nothing to claim, the messages
		// are sent after the commit as they are.
		res.Notices = append(claimed, res.Notices...)
		return nil
	}
	for _, m := range deliver.Keyed(step, res.Notices) {
		if m.Reply.Private {
			rest = append(rest, m)
		} else {
			claimed = append(claimed, m)
		}
	}
	res.Notices = rest
	if len(claimed) == 0 {
		return nil
	}
	res.claim, res.claimed = step, claimed
	return deliver.Claim(tx, step, claimed, b.cfg.Holder, b.timeSource.Now().Add(b.cfg.ClaimTTL))
}

// prepare runs cmd's prepare step before any transaction: it reads the
// room's settings for it, in a read transaction of its own that ends
// before the slow work starts.
func (b *Bot) prepare(ctx context.Context, cmd *Command, r *protocol.Request, args *protocol.Args) (any, error) {
	p := &Prep{Ctx: ctx, Req: r, Args: args, bot: b.core}
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		room, err := tx.Room(r.Room)
		if errors.Is(err, gobot.ErrNotFound) {
			return nil
		}
		p.Room = room
		return err
	}); err != nil {
		return nil, err
	}
	return cmd.prepare(p)
}

// route runs cmd's handler in the transaction the router opens for it
// (c.Tx is set here) and returns its result, whose effects are carried
// out once it is committed. refused is what the command's prepare step
// said against it.
func (b *Bot) route(ctx context.Context, cmd *Command, c *Call, btn *protocol.Button, refused error) (res Result, err error) {
	r := c.Req
	owed := r.Outbox && r.EventID != ""
	again := false
	looks := cmd.view || cmd.looks != nil && cmd.looks(c.Args)
	run := func(tx gobot.Tx) error {
		if refused != nil {
			return refused
		}
		if err := checkButton(tx, btn); err != nil && !looks { // an old button may still look
			return err
		}
		in := *c
		in.Tx = tx
		var err error
		res, err = cmd.run(&in)
		return err
	}
	if looks && !owed {
		// Looking changes nothing: the event is marked first, on its own.
		if r.EventID != "" {
			if err := b.store.Update(ctx, func(tx gobot.Tx) error { return markEvent(tx, r) }); err != nil {
				return Result{}, err
			}
		}
		err = b.store.View(ctx, func(tx gobot.Tx) error {
			res = Result{}
			return run(tx)
		})
		return res, err
	}
	err = b.store.Update(ctx, func(tx gobot.Tx) error {
		// A shared store may run this again after a conflict: what a
		// thrown-away run returned is not carried out.
		res, again = Result{}, false
		if err := markEvent(tx, r); err != nil {
			if !owed || !errors.Is(err, errDuplicate) {
				return err
			}
			stored, ok, err := deliver.Owed(tx, r.EventID)
			if err != nil {
				return err
			}
			if !ok {
				return errDuplicate // handled and delivered
			}
			res.Reply, again = stored, true
			return nil
		}
		if err := run(tx); err != nil {
			return err // nothing is written: the event is not marked either
		}
		if err := b.claimNotices(tx, r, &res); err != nil {
			return err
		}
		if owed { // what is owed for the event is stored drawn in full (deliver.Owe)
			if err := b.present(&res.Reply); err != nil {
				return err
			}
			return deliver.Owe(tx, r.EventID, r.Time, res.Reply)
		}
		return nil
	})
	if err == nil && again {
		res.Reply.Again = true
		b.log.Info("answering an event handed over again with its stored reply", "event", r.EventID)
	}
	return res, err
}

// Delivered records that the reply to event id (a request with Outbox
// set) was delivered: a later delivery of the same event is then a
// Duplicate.
func (b *Bot) Delivered(ctx context.Context, id gobot.EventID) error {
	return b.store.Update(ctx, func(tx gobot.Tx) error { return tx.DeleteOutbox(id) })
}

// ThreadCreated tells the bot that the adapter opened room as game's
// thread; the game's updates go there from now on.
func (b *Bot) ThreadCreated(ctx context.Context, id gobot.GameID, room gobot.RoomID) error {
	return b.store.Update(ctx, func(tx gobot.Tx) error {
		match, err := tx.Match(id)
		if err != nil {
			return err
		}
		if !match.Thread {
			match.Parent = match.Room
		}
		match.Room, match.Thread = room, true
		return flow.Save(tx, match)
	})
}

// markEvent records that r's event is handled; errDuplicate if it was.
func markEvent(tx gobot.Tx, r *protocol.Request) error {
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

// decodeAction turns a pressed button into its command; the game
// version is checked by checkButton in the command's transaction.
func (b *core) decodeAction(id string) (protocol.Button, *Command, error) {
	x, err := protocol.ParseButton(id)
	c, ok := b.byName[x.Command]
	if err != nil || !ok {
		return protocol.Button{}, nil, say.UnknownButton()
	}
	return x, c, nil
}

// askFirst answers the first press of cmd's button that asks first
// (Request.AskFirst) with cmd's question, in a read transaction: the
// button must still be the board's, as a press that acts must.
func (b *Bot) askFirst(ctx context.Context, cmd *Command, call *Call, btn *protocol.Button) (protocol.Reply, error) {
	var res Result
	err := b.store.View(ctx, func(tx gobot.Tx) error {
		if err := checkButton(tx, btn); err != nil {
			return err
		}
		call.Tx = tx
		var err error
		res, err = cmd.ask(call)
		return err
	})
	rep := res.Reply
	rep.Private = true
	return rep, err
}

// checkButton refuses a game button shown for an older position.
func checkButton(tx gobot.Tx, x *protocol.Button) error {
	if x == nil || x.Game == 0 {
		return nil
	}
	match, err := tx.Match(x.Game)
	if errors.Is(err, gobot.ErrNotFound) {
		return say.ButtonGone(x.Game)
	}
	if err != nil {
		return err
	}
	if match.Version != x.Version {
		return say.OldButton(x.Game)
	}
	return nil
}

func (b *core) unknownCommand(name string) error {
	var names []string
	for _, c := range b.commands {
		names = append(names, c.Name)
		names = append(names, c.Aliases...)
	}
	best := ""
	if n, ok := protocol.Nearest(name, names); ok && name != "" {
		best = b.byName[n].Name // an alias stands for its command
	}
	return say.UnknownCommand(name, best)
}

// errDuplicate marks a request whose event was already handled.
var errDuplicate = errors.New("duplicate event")

// query runs fn in one read transaction of the bot's store, and write
// in one write transaction: the router opens every transaction
// a surface asks for — a command's (Respond), a board's read (Board,
// RoomBoards, the review board's view, autocomplete) and a review
// board's action (ReviewAct) — as the runner opens the timed jobs'. No
// other file of package chat calls the store.
func (b *Bot) query(ctx context.Context, fn func(gobot.Tx) error) error {
	return b.store.View(ctx, fn)
}

func (b *Bot) write(ctx context.Context, fn func(gobot.Tx) error) error {
	return b.store.Update(ctx, fn)
}

// fileTakers are the commands that take an attached file.
func (b *core) fileTakers() []string {
	var names []string
	for _, c := range b.commands {
		if c.Attachment != "" {
			names = append(names, c.Name)
		}
	}
	return names
}
