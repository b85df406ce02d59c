package chat

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// startClock sets the deadline for the player to move at t.
func startClock(match *gobot.Match, g *game.Game, t time.Time) {
	match.Reminded = 0
	match.Deadline = time.Time{}
	if g.Phase() != game.Playing || (match.Find(gobot.SideRoom).Moves(g) && !roomClock(match)) {
		return // against an engine the room's turn has no clock: its first vote opens a window (vote.go)
	}
	if match.Clock.Kind != gobot.NoClock {
		match.Deadline = t.Add(match.Clock.Budget(match.ClockOf(g.ToMove())))
	}
	match.TurnTime = match.Deadline.Sub(t) // the reminders' rule (remindersDue)
	if match.Deadline.IsZero() {
		match.TurnTime = 0
	}
	keepPaused(match, t)                                // vacation.go
	if match.LivePaused() && !match.Deadline.IsZero() { // pause.go: the pause goes on
		match.Pause.Left, match.Deadline = match.Deadline.Sub(t), match.Pause.Since.Add(gobot.PauseAllowance-match.Pause.Used)
	}
}

// moved updates the clock after mover moved at t.
func moved(match *gobot.Match, g *game.Game, mover game.Color, t time.Time) {
	match.MoveTimes = append(match.MoveTimes, t)
	chargeMove(match, mover, t)
	match.UndoBy = ""
	if match.Pause != nil { // pause.go: an ask lapses with the move
		match.Pause.Asked = ""
	}
	if match.Side(mover).Rotates() { // rengo.go: the team's timeouts in a row end
		match.Teams.Late[mover] = 0
	}
	startClock(match, g, t)
}

// chargeMove charges mover's clock for a move at t (when the server
// received it): the turn took the clock's budget less the time left to
// the deadline, or, while a vacation stops the clock, less the time kept
// (vacation.go). A game stored before a clock kept state (Fischer) reads
// the same: its bank is Left.
func chargeMove(match *gobot.Match, mover game.Color, t time.Time) {
	var left time.Duration
	switch {
	case !match.Deadline.IsZero():
		left = match.Deadline.Sub(t)
	case match.Paused():
		left = match.PausedLeft
	default:
		return // no clock ran (a room's turn against an engine, no clock)
	}
	s := match.ClockOf(mover)
	c := match.Clock
	if next, ok := c.Spend(s, c.Budget(s)-max(left, 0)); ok {
		match.SetClock(mover, next)
	} else if c.Kind == gobot.Fischer { // a move at the deadline itself, before the tick: the increment less the lateness, as before
		match.SetClock(mover, gobot.ClockState{Main: min(max(left+c.Increment, 0), c.Max)})
	}
}

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

// remindersDue is how far through the reminders (Config.Reminders,
// longest lead first) match's turn is at now: the reminders before index
// k are due or passed over. A reminder says something new only: the one
// with lead d is due once the time left is at most d and at most half of
// the turn's time (never in the turn's first half: the move that began
// the turn told the player to move), and never for a turn shorter than
// d. With clock=1d the 24-hour reminder comes with 12 hours left and the
// one-hour one with an hour left; with clock=1m none comes. The caller
// sends one message for all that are due at once (Match.Reminded).
func (b *core) remindersDue(match *gobot.Match, now time.Time) int {
	left, turn := match.Deadline.Sub(now), turnTime(match)
	k := 0
	for i, d := range b.cfg.Reminders {
		if d <= turn && left <= d && 2*left <= turn {
			k = i + 1
		}
	}
	return k
}

// turnTime is the time the player to move had when their turn began
// (Match.TurnTime; in a game stored before it was kept, the time from the
// last move, or the start, to the deadline).
func turnTime(match *gobot.Match) time.Duration {
	if match.TurnTime > 0 {
		return match.TurnTime
	}
	start := match.Created
	if n := len(match.MoveTimes); n > 0 {
		start = match.MoveTimes[n-1]
	}
	return match.Deadline.Sub(start)
}

// timeLeft describes the clock of the player to move.
func timeLeft(match *gobot.Match, now time.Time) string {
	if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation.go
		return protocol.FormatDuration(match.PausedLeft) + " left (" + pausedNote(match) + ")"
	}
	if match.Deadline.IsZero() {
		return ""
	}
	if match.Clock.Live() { // in the system's terms: "2:41 + 3×30s"
		if l, err := load(match); err == nil {
			return clockShown(match, l.g.ToMove(), now)
		}
	}
	return protocol.FormatDuration(match.Deadline.Sub(now)) + " left"
}

// finish records the end of a game.
func finish(match *gobot.Match, g *game.Game, t time.Time) {
	res, _ := g.Result()
	match.Finished, match.Result = t, res.String()
	match.Deadline, match.Reminded, match.UndoBy = time.Time{}, 0, ""
	match.PausedBy, match.PausedLeft, match.PausedAt = nil, 0, time.Time{} // vacation.go: nothing left to resume
	match.Plan = nil                                                       // conditional moves end with the game (plan.go)
	if p := match.Pause; p != nil && !p.Since.IsZero() {                   // pause.go: a pause ends with the game
		p.Used += t.Sub(p.Since)
		p.Since, p.Left = time.Time{}, 0
	}
	if match.Pause != nil {
		match.Pause.Asked = ""
	}
}

// clockDue takes every game the deadline index lists that no job before
// it took (runner.go): it is due once its time ran out or a reminder is
// due that was not sent (remindersDue). The runner sees every game with
// a deadline within the longest reminder's lead: most need nothing yet,
// and get no transaction.
func clockDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	m := item.Match
	if !m.Active() || m.Deadline.IsZero() || m.LivePaused() { // a paused game's deadline is its pause's end (pause.go)
		return true, false
	}
	return true, !now.Before(m.Deadline) || b.remindersDue(m, now) > m.Reminded
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
	side := match.Side(l.g.ToMove())
	late := side.ToMove()
	if !now.Before(match.Deadline) {
		// A team game: the turn passes to the next teammate (rengo.go).
		if d, passed, err := b.teamTimeout(tx, l, now); passed || err != nil {
			return d, err
		}
		lost := l.g.ToMove()
		if err := l.g.Timeout(l.g.ToMove()); err != nil {
			return Done{}, err
		}
		match.Record = l.g.Record()
		finish(match, l.g, now)
		if err := b.rateGame(tx, match, l.g); err != nil {
			return Done{}, err
		}
		match.Updated = now
		if err := tx.PutMatch(match); err != nil {
			return Done{}, err
		}
		what := fmt.Sprintf("%s ran out of time.", protocol.Mention(late)) + teamLostNote(tx, match, lost)
		if late == gobot.VoteSeat { // vote.go: the room's clock
			what = roomTimeoutText(match, l.g)
		}
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: match.Room, At: now}, what)
		fx.notify(protocol.Message{Room: match.Room, Reply: rep})
		return done("timeout", fmt.Sprintf("game %d timeout", id), fx)
	}
	k := b.remindersDue(match, now)
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
		msg.Reply.Text, msg.Reply.Mentions = b.roomReminderText(match, l.g, left), nil
	} else if playerIn(tx, late).Notify == "dm" {
		msg.To = late
	}
	fx.notify(msg)
	return done("reminder", step, fx)
}
