package flow

import (
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// StartClock sets the deadline for the player to move at t.
func StartClock(match *gobot.Match, g *game.Game, t time.Time) {
	match.Reminded = 0
	match.Deadline = time.Time{}
	if g.Phase() != game.Playing || (match.Find(gobot.SideRoom).Moves(g) && !RoomClock(match)) {
		return // against an engine the room's turn has no clock: its first vote opens a window (vote.go)
	}
	if match.Clock.Kind != gobot.NoClock {
		match.Deadline = t.Add(match.Clock.Budget(match.ClockOf(g.ToMove())))
	}
	match.TurnTime = match.Deadline.Sub(t) // the reminders' rule (RemindersDue)
	if match.Deadline.IsZero() {
		match.TurnTime = 0
	}
	KeepPaused(match, t)                                // vacation.go
	if match.LivePaused() && !match.Deadline.IsZero() { // pause.go: the pause goes on
		match.Pause.Left, match.Deadline = match.Deadline.Sub(t), match.Pause.Since.Add(gobot.PauseAllowance-match.Pause.Used)
	}
}

// Moved updates the clock after mover moved at t.
func Moved(match *gobot.Match, g *game.Game, mover game.Color, t time.Time) {
	match.MoveTimes = append(match.MoveTimes, t)
	ChargeMove(match, mover, t)
	match.UndoBy = ""
	if match.Pause != nil { // pause.go: an ask lapses with the move
		match.Pause.Asked = ""
	}
	if match.Side(mover).Rotates() { // team.go: the team's timeouts in a row end
		match.Teams.Late[mover] = 0
	}
	StartClock(match, g, t)
}

// ChargeMove charges mover's clock for a move at t (when the server
// received it): the turn took the clock's budget less the time left to
// the deadline, or, while a vacation stops the clock, less the time kept
// (vacation.go). A game stored before a clock kept state (Fischer) reads
// the same: its bank is Left.
func ChargeMove(match *gobot.Match, mover game.Color, t time.Time) {
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

// RemindersDue is how far through reminders (chat's Config.Reminders,
// longest lead first) match's turn is at now: the reminders before index
// k are due or passed over. A reminder says something new only: the one
// with lead d is due once the time left is at most d and at most half of
// the turn's time (never in the turn's first half: the move that began
// the turn told the player to move), and never for a turn shorter than
// d. With clock=1d the 24-hour reminder comes with 12 hours left and the
// one-hour one with an hour left; with clock=1m none comes. The caller
// sends one message for all that are due at once (Match.Reminded).
func RemindersDue(match *gobot.Match, reminders []time.Duration, now time.Time) int {
	left, turn := match.Deadline.Sub(now), TurnTime(match)
	k := 0
	for i, d := range reminders {
		if d <= turn && left <= d && 2*left <= turn {
			k = i + 1
		}
	}
	return k
}

// TurnTime is the time the player to move had when their turn began
// (Match.TurnTime; in a game stored before it was kept, the time from the
// last move, or the start, to the deadline).
func TurnTime(match *gobot.Match) time.Duration {
	if match.TurnTime > 0 {
		return match.TurnTime
	}
	start := match.Created
	if n := len(match.MoveTimes); n > 0 {
		start = match.MoveTimes[n-1]
	}
	return match.Deadline.Sub(start)
}

// Finish records the end of a game at t.
func Finish(match *gobot.Match, g *game.Game, t time.Time) {
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

// KeepPaused moves a clock that StartClock just started into the paused
// game's stopped clock.
func KeepPaused(match *gobot.Match, t time.Time) {
	if match.Paused() && !match.Deadline.IsZero() {
		match.PausedLeft, match.Deadline = match.Deadline.Sub(t), time.Time{}
	}
}

// RoomClock reports whether the room's turns in match run on the game's
// clock: in a vote game against a person. Against an engine nobody waits
// on the room (and a vote game stored before issue 35 without a clock
// has none).
func RoomClock(match *gobot.Match) bool {
	return match.Find(gobot.SideRoom).Clocked()
}
