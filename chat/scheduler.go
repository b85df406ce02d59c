package chat

import (
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// timeLeft describes the clock of the player to move in l at now: a
// live clock in its system's terms ("2:41 + 3×30s", read from the
// board's clocks as every surface reads them: board.LiveClocks), a
// correspondence clock as the time left ("2d left"); "" for an engine,
// whose "deadline" is its work, due at once (flow.Engines.Due).
func timeLeft(l *flow.Loaded, now time.Time) string {
	return clockLeft(l, board.LiveClocks(l), now)
}

// clockLeft is timeLeft with the game's live clocks read already (a
// board.View's Live; nil for a correspondence clock).
func clockLeft(l *flow.Loaded, live *board.Clocks, now time.Time) string {
	match := l.Match
	if l.G.Phase() == game.Playing && match.Side(l.G.ToMove()).ToMove().Platform() == gobot.EnginePlatform {
		return ""
	}
	if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation.go
		return protocol.FormatDuration(match.PausedLeft) + " left (" + say.PausedNote(match) + ")"
	}
	if match.Deadline.IsZero() {
		return ""
	}
	if live != nil {
		return say.LiveClock(live, l.G.ToMove(), now)
	}
	return protocol.FormatDuration(match.Deadline.Sub(now)) + " left"
}

// clockDue takes every game the deadline index lists that no job before
// it took (runner.go): it is due once its time ran out or a reminder is
// due that was not sent (flow.ClockDue). The runner sees every game with
// a deadline within the longest reminder's lead: most need nothing yet,
// and get no transaction.
func clockDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return item.Due == gobot.DueClock, flow.ClockDue(item.Match, b.cfg.Reminders, now)
}

// runDue does a game's due work at c.Now through flow.Due (the kind of
// work is the game's, Match.Due: a clock's timeout or reminder, a live
// pause's end, a vote window's close) and words what it did; its
// messages are named by the step flow.Due names, so each is decided and
// sent once.
func runDue(c *JobCall) (Done, error) {
	b, tx, now := c.bot, c.Tx, c.Now
	o, err := flow.Due(tx, b.engines(), b.cfg.Reminders, c.Match, now)
	if err != nil || o.Did == nil {
		return Done{}, err
	}
	b.logUnrated(c.Match.ID, o.Rated)
	l := &loaded{Loaded: o.Game}
	match := l.Match
	var fx Effects
	if o.Wake {
		fx.wake(match.ID)
	}
	announce := func(what string, mentions func(*protocol.Reply)) {
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, what)
		if mentions != nil {
			mentions(&rep)
		}
		fx.notify(protocol.Message{Room: match.Room, Reply: rep})
	}
	switch did := o.Did.(type) {
	case flow.TeamTimedOut: // rengo.go
		l.note = say.TurnsPassed(namer(tx), match, did.Turns)
		announce(say.TeamTimedOut(namer(tx), match, did), nil)
		return done("team timeout", o.Step, fx)
	case flow.TimedOut:
		what := say.RanOut(o.Late) + say.TeamLost(namer(tx), match, did.Lost, o.Lost)
		if match.Side(did.Lost).Kind == gobot.SideRoom { // vote.go: the room's clock
			what = say.RoomTimeout(match, l.G)
		}
		announce(what, nil)
		return done("timeout", o.Step, fx)
	case flow.Reminder:
		side := match.Side(l.G.ToMove())
		msg := protocol.Message{Room: match.Room, Reply: protocol.Reply{Game: match.ID, Title: say.GameName(match.ID),
			Text: say.Remind(o.Late, match.ID, did.Left), Mentions: side.Pinged()}}
		if len(msg.Reply.Mentions) == 0 { // vote.go: the room is reminded in the room, nobody pinged
			msg.Reply.Text, msg.Reply.Mentions = say.RoomReminder(match, l.G, did.Left), nil
			fx.notify(msg)
			return done("reminder", o.Step, fx)
		}
		b.tell(&fx, tx, msg, o.Late, true)
		return done("reminder", o.Step, fx)
	case flow.PauseEnded: // pause.go
		announce(say.PauseOver(match), func(rep *protocol.Reply) { rep.Mentions = match.Side(l.G.ToMove()).Pinged() })
		return done("pause ended", o.Step, fx)
	case flow.VoteClosed: // vote.go
		what := say.VoteClosed(match, did, timeLeft(l.Loaded, now))
		if did.Played != "" && did.Played != "pass" {
			what += autoPassText(l, did.MovesBefore)
		}
		announce(what, nil)
		return done("window closed", o.Step, fx)
	}
	return Done{}, nil
}
