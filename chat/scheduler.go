package chat

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// clockShown is the clock of mover, the player to move, at now, in its
// system's terms ("2:41 + 3×30s", "12 stones in 4:10").
func clockShown(match *gobot.Match, mover game.Color, now time.Time) string {
	if match.Deadline.IsZero() {
		return ""
	}
	c, s := match.Clock, match.ClockOf(mover)
	left := match.Deadline.Sub(now)
	paused := ""
	if match.LivePaused() { // pause.go
		left, paused = match.Pause.Left, " (paused)"
	}
	if c.Kind == gobot.Simple { // no bank to show: the turn's time left
		return gobot.ClockTime(max(left, 0)) + paused
	}
	e, _ := c.Elapse(s, c.Budget(s)-left)
	if paused != "" {
		return c.ShowClock(e) + paused
	}
	return c.ShowClock(e)
}

// timeLeft describes the clock of the player to move.
func timeLeft(match *gobot.Match, now time.Time) string {
	if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation.go
		return protocol.FormatDuration(match.PausedLeft) + " left (" + say.PausedNote(match) + ")"
	}
	if match.Deadline.IsZero() {
		return ""
	}
	if match.Clock.Live() { // in the system's terms: "2:41 + 3×30s"
		if l, err := load(match); err == nil {
			return clockShown(match, l.G.ToMove(), now)
		}
	}
	return protocol.FormatDuration(match.Deadline.Sub(now)) + " left"
}

// clockDue takes every game the deadline index lists that no job before
// it took (runner.go): it is due once its time ran out or a reminder is
// due that was not sent (flow.RemindersDue). The runner sees every game with
// a deadline within the longest reminder's lead: most need nothing yet,
// and get no transaction.
func clockDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	m := item.Match
	if !m.Active() || m.Deadline.IsZero() || m.LivePaused() { // a paused game's deadline is its pause's end (pause.go)
		return true, false
	}
	return true, !now.Before(m.Deadline) || flow.RemindersDue(m, b.cfg.Reminders, now) > m.Reminded
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
		lost := l.G.ToMove()
		if err := l.G.Timeout(l.G.ToMove()); err != nil {
			return Done{}, err
		}
		match.Record = l.G.Record()
		flow.Finish(match, l.G, now)
		if err := b.rateGame(tx, match, l.G); err != nil {
			return Done{}, err
		}
		match.Updated = now
		if err := tx.PutMatch(match); err != nil {
			return Done{}, err
		}
		what := fmt.Sprintf("%s ran out of time.", protocol.Mention(late)) + teamLostNote(tx, match, lost)
		if late == gobot.VoteSeat { // vote.go: the room's clock
			what = say.RoomTimeout(match, l.G)
		}
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, what)
		fx.notify(protocol.Message{Room: match.Room, Reply: rep})
		return done("timeout", fmt.Sprintf("game %d timeout", id), fx)
	}
	k := flow.RemindersDue(match, b.cfg.Reminders, now)
	if k <= match.Reminded {
		return Done{}, nil
	}
	left := match.Deadline.Sub(now)
	step := fmt.Sprintf("game %d deadline %d reminder %d", id, match.Deadline.UnixNano(), k)
	if side.Rotates() { // a turn passed on keeps its deadline: each player is reminded (rengo.go)
		step += " to " + string(late)
	}
	match.Reminded = k
	if err := tx.PutMatch(match); err != nil {
		return Done{}, err
	}
	msg := protocol.Message{Room: match.Room, Reply: protocol.Reply{Game: id, Title: fmt.Sprintf("Game #%d", id),
		Text:     fmt.Sprintf("%s, it's your move in game #%d — %s left.", protocol.Mention(late), id, protocol.FormatDuration(left)),
		Mentions: side.Pinged()}}
	if len(msg.Reply.Mentions) == 0 { // vote.go: the room is reminded in the room, nobody pinged
		msg.Reply.Text, msg.Reply.Mentions = say.RoomReminder(match, l.G, left), nil
	} else if playerIn(tx, late).Notify == "dm" {
		msg.To = late
	}
	fx.notify(msg)
	return done("reminder", step, fx)
}
