package chat

import (
	"fmt"
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
	if lc := board.LiveClocks(l); lc != nil {
		return say.LiveClock(lc, l.G.ToMove(), now)
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

// runClock handles a game's clock at c.Now: a player whose time ran out
// loses (in a team game the turn passes to the next teammate first:
// teamTimeout), and a player whose reminder is due is reminded. Its
// messages are named by the deadline and the reminder, so each is
// decided and sent once.
func runClock(c *JobCall) (Done, error) {
	b, tx, match, now := c.bot, c.Tx, c.Match, c.Now
	if !match.Active() || match.Deadline.IsZero() || match.LivePaused() { // paused since it was listed: the pause job's
		return Done{}, nil
	}
	l, err := load(match)
	if err != nil {
		return Done{}, err
	}
	id := match.ID
	var fx Effects
	side := match.Side(l.G.ToMove())
	late := side.ToMove()
	if !now.Before(match.Deadline) {
		// A team game: the turn passes to the next teammate (rengo.go).
		if d, passed, err := b.teamTimeout(tx, l, now); passed || err != nil {
			return d, err
		}
		o, err := flow.Timeout(l.Loaded, now)
		if err != nil {
			return Done{}, err
		}
		if _, err := b.commit(tx, l, now); err != nil {
			return Done{}, err
		}
		what := say.RanOut(late) + say.TeamLost(namer(tx), match, o.Lost, flow.TeamPresence(tx, match, o.Lost))
		if side.Kind == gobot.SideRoom { // vote.go: the room's clock
			what = say.RoomTimeout(match, l.G)
		}
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, what)
		fx.notify(protocol.Message{Room: match.Room, Reply: rep})
		return done("timeout", fmt.Sprintf("game %d timeout", id), fx)
	}
	deadline := match.Deadline
	rem, ok := flow.Remind(match, b.cfg.Reminders, now)
	if !ok {
		return Done{}, nil
	}
	step := fmt.Sprintf("game %d deadline %d reminder %d", id, deadline.UnixNano(), rem.K)
	if side.Rotates() { // a turn passed on keeps its deadline: each player is reminded (rengo.go)
		step += " to " + string(late)
	}
	if err := flow.Save(tx, match); err != nil {
		return Done{}, err
	}
	msg := protocol.Message{Room: match.Room, Reply: protocol.Reply{Game: id, Title: say.GameName(id),
		Text: say.Remind(late, id, rem.Left), Mentions: side.Pinged()}}
	if len(msg.Reply.Mentions) == 0 { // vote.go: the room is reminded in the room, nobody pinged
		msg.Reply.Text, msg.Reply.Mentions = say.RoomReminder(match, l.G, rem.Left), nil
	} else if playerIn(tx, late).Notify == "dm" {
		msg.To = late
	}
	fx.notify(msg)
	return done("reminder", step, fx)
}
