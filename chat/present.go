package chat

import (
	"errors"
	"time"

	"github.com/gobotgo/gobot/chat/draw"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// present completes rep: its drawing becomes its Image (chat/draw).
func (b *core) present(rep *protocol.Reply) error { return b.drawer().Present(rep) }

// drawer draws with the bot's renderer, logging what fails to draw.
func (b *core) drawer() draw.Drawer { return draw.Drawer{Render: b.render, Log: b.log} }

// errorReply turns any error into friendly private text: the one place
// where game and storage errors become words (say.Mistake, say.Failure).
func (b *core) errorReply(err error) protocol.Reply {
	dup := errors.Is(err, errDuplicate) || errors.Is(err, gobot.ErrDuplicate)
	msg := say.Mistake(err, dup)
	if msg == "" {
		switch {
		case errors.Is(err, gobot.ErrLeaseLost):
			// Received under a lease another process holds now: that process
			// answers it, this one stays silent (Duplicate).
			b.log.Info("dropped a request received under a lease now held elsewhere", "err", err)
			return protocol.Reply{Duplicate: true, Error: true, Private: true}
		case errors.Is(err, gobot.ErrUnavailable):
			b.log.Warn("store unavailable", "err", err)
		case errors.Is(err, gobot.ErrConflict):
		case errors.Is(err, gobot.ErrCorrupt):
			b.log.Error("corrupt record", "err", err)
		default:
			b.log.Error("command failed", "err", err)
		}
		msg = say.Failure(err)
	}
	return protocol.Reply{Text: msg, Error: true, Private: true, Duplicate: dup}
}

// gameReply builds the message shown after any change to a game (and for
// `board`) that request r made: gameReplyAt, on r's occasion.
func (b *core) gameReply(fx *Effects, tx gobot.Tx, l *loaded, r *protocol.Request, what string) protocol.Reply {
	return b.gameReplyAt(fx, tx, l, occasion{Room: r.Room, At: r.Time, By: r.User.ID}, what)
}

// An occasion is what a game's message is shown for: the room it is
// shown in, the time it tells the clocks from, and who acted (whose
// board theme draws it, who is not pinged): a command's caller, or a
// timed job's actor (an engine) or nobody (a clock, a vote's close).
type occasion struct {
	Room gobot.RoomID
	At   time.Time
	By   gobot.UserID
}

// gameReplyAt builds the message shown after any change to a game:
// what happened, whose turn, captures, time, the board image, buttons,
// and the mention of the player to move; a DM to the player to move
// goes into fx.
func (b *core) gameReplyAt(fx *Effects, tx gobot.Tx, l *loaded, r occasion, what string) protocol.Reply {
	match, g := l.Match, l.G
	// The game as every surface reads it (the web board's View): its
	// live clocks and an open window's votes come from this one read.
	v := board.Read(l.Loaded, func(u gobot.UserID) string { return u.Local() })
	rep := protocol.Reply{Game: match.ID, Title: say.MoveTitle(match.ID, g.MoveNumber())}
	if (match.Thread || match.Room != r.Room) && (r.Room == "" || r.Room != match.Mirror) {
		// Posted in the game's room: asked for elsewhere (a DM), in the
		// game's room on the asker's platform (its mirror, a game between
		// platforms: mirror.go).
		rep.Room = match.Room
		if match.Mirror != "" && !match.In(r.Room) && match.Mirror.Platform() == r.Room.Platform() {
			rep.Room = match.Mirror
		}
	}
	news := say.GameNews{What: what, Note: l.note, Said: l.acceptSaid}
	var next gobot.UserID
	var clocks [3]string
	switch g.Phase() {
	case game.Playing:
		next = match.Side(g.ToMove()).ToMove()
		news.Left, news.Vote = clockLeft(l.Loaded, v.Live, r.At), say.VoteLine(l.Loaded, r.At) // a vote game's room to move (vote.go)
		// A live game's clocks, both, beside each side.
		if v.Live != nil {
			clocks = say.LiveClocks(match, v.Live, r.At)
		}
	case game.Scoring:
		rep.Mentions = match.Players()
	case game.Over:
		news.Rating = say.RatingLine(match, g)
		news.Event = ladderLine(tx, match) // ladder.go
		rep.Mentions = match.Players()
	}
	rep.Text = say.GameText(namer(tx), match, g, news)
	rep.Actions = say.GameActions(match, g, func(cmd string) string { return b.actionID(cmd, l, "") }, b.linker() != nil)
	rep.Fields = say.GameFields(namer(tx), match, g, clocks)
	if what == "" || board.LiveImage(tx, l.Loaded) { // a live game's announcements are compact (flow/board/liveimages.go)
		// the board in the viewer's theme, an open window's votes on it (vote.go)
		rep.Draw = &protocol.Drawing{Game: g, ID: match.ID, Theme: playerIn(tx, r.By).Theme, Votes: v.Votes}
		rep.Board = say.TextBoard(g)
	}
	if next != "" && what != "" && next != r.By {
		// The player to move is pinged in the room (and with notify=dm
		// told in a DM too), on the accounts they chose (toldOn:
		// notify_on=); another account of theirs is told in a DM.
		np := playerIn(tx, next)
		var told []gobot.UserID
		if np.Notify != "off" {
			told = toldOn(tx, next)
		}
		for _, to := range told {
			if to == next {
				rep.Mentions = []gobot.UserID{next}
			}
			if to != next || np.Notify == "dm" {
				dm := rep
				dm.Actions = nil
				dm.Text = say.YourMove(match.ID, rep.Text)
				fx.notify(protocol.Message{To: to, Room: match.Room, Reply: dm})
			}
		}
	}
	if what == "" {
		// Only looking (board): nobody is notified, whatever the phase.
		rep.Mentions = nil
	}
	return rep
}
