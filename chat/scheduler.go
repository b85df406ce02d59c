package chat

import (
	"context"
	"errors"
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
	keepPaused(match, t) // vacation.go
}

// moved updates the clock after mover moved at t.
func moved(match *gobot.Match, g *game.Game, mover game.Color, t time.Time) {
	match.MoveTimes = append(match.MoveTimes, t)
	chargeMove(match, mover, t)
	match.UndoBy = ""
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
	e, _ := c.Elapse(s, c.Budget(s)-match.Deadline.Sub(now))
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

// logClock logs err, from one step of the clock loop (what, on attrs'
// game or player): a lease held elsewhere now is news, not an error.
func (b *Bot) logClock(err error, what string, attrs ...any) {
	switch {
	case errors.Is(err, gobot.ErrLeaseLost):
		b.log.Info(what+": the platform's lease is held elsewhere now", append(attrs, "err", err)...)
	case err != nil:
		b.log.Error(what, append(attrs, "err", err)...)
	}
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
}

// Run drives the clock: reminders and timeouts, until ctx ends. Games
// whose deadline passed while the bot was down are handled at once. It
// ticks every Config.Tick, and sooner when a deadline (a voting window,
// as short as 5 seconds, or a player's time) falls before the next tick:
// after each tick and each command that changed something it looks for
// the next one.
func (b *Bot) Run(ctx context.Context) error {
	timer := time.NewTimer(0)
	defer timer.Stop()
	var last time.Time // when the last tick ran
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
			last = b.timeSource.Now()
			if err := b.Tick(ctx); err != nil && ctx.Err() == nil { // not the shutdown itself
				b.log.Error("clock", "err", err)
			}
		case <-b.wake:
		}
		wait := last.Add(b.cfg.Tick).Sub(b.timeSource.Now())
		if next, ok := b.nextDeadline(ctx, last, b.cfg.Tick); ok {
			wait = min(wait, next)
		}
		timer.Reset(max(wait, 0))
	}
}

// poke tells Run to look again for the next deadline (never blocks: one
// pending poke is enough).
func (b *Bot) poke() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// nextDeadline is how long until the first game deadline (a voting
// window's close, a player's time running out) after the last tick and
// within d from now; false when none. A deadline that passed before the
// last tick was that tick's to handle: if it could not, the next regular
// tick tries again.
func (b *Bot) nextDeadline(ctx context.Context, last time.Time, d time.Duration) (time.Duration, bool) {
	now := b.timeSource.Now()
	var due []*gobot.Match
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		var err error
		due, err = tx.DueGames(now.Add(d), 0)
		return err
	}); err != nil && len(due) == 0 {
		return 0, false
	}
	var next time.Duration
	found := false
	for _, m := range due {
		if !m.Deadline.After(last) {
			continue
		}
		if _, ok := b.notifier(m.Room.Platform()); !ok {
			continue // another process handles it
		}
		// A deadline just passed is handled by the next tick, a moment on.
		if w := max(m.Deadline.Sub(now), 100*time.Millisecond); !found || w < next {
			next, found = w, true
		}
	}
	return next, found
}

// Tick handles every due clock once: it sends the reminders that are due
// and ends games whose time ran out. Due games are found through the
// storage deadline index. Only games of platforms with a notifier are
// claimed: several processes may share the store, and one that cannot
// deliver to a platform right now (a Matrix standby) leaves its games to
// one that can, so no reminder or timeout is claimed and then not sent.
func (b *Bot) Tick(ctx context.Context) error {
	now := b.timeSource.Now()
	horizon := now
	if len(b.cfg.Reminders) > 0 {
		horizon = now.Add(b.cfg.Reminders[0] + 1) // DueGames is strict: a reminder due just now is due
	}
	var due []*gobot.Match
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		var err error
		due, err = tx.DueGames(horizon, 0)
		return err
	}); err != nil && len(due) == 0 {
		return err
	}
	// Claims whose claimer died before sending: send them now.
	if err := b.reclaim(ctx, now); err != nil {
		b.log.Error("clock: expired claims", "err", err)
	}
	for _, match := range due {
		if _, ok := b.notifier(match.Room.Platform()); !ok {
			// Not deliverable from this process now (a standby Matrix
			// process): leave it to one that can send the message.
			continue
		}
		if b.voteTick(ctx, match, now) || b.engineTick(match) {
			continue
		}
		if !clockDue(b.core, match, now) {
			continue // neither out of time nor a reminder due: no transaction
		}
		// A platform served under a lease (Matrix) is claimed under its
		// term: a process that lost the lease claims nothing there.
		b.logClock(b.tickGame(b.fenced(ctx, match.Room.Platform()), match.ID, now), "clock", "game", match.ID)
	}
	if err := b.tickVacations(ctx, now); err != nil {
		b.log.Error("clock: vacations", "err", err)
	}
	// Forget handled event IDs older than EventTTL.
	return b.store.Update(ctx, func(tx gobot.Tx) error {
		if _, err := tx.ExpireOutbox(now.Add(-b.cfg.EventTTL)); err != nil {
			return err
		}
		_, err := tx.ExpireEvents(now.Add(-b.cfg.EventTTL))
		return err
	})
}

// clockDue reports whether game match, as DueGames read it, has
// something for tickGame at now: its time ran out, or a reminder is due.
// The clock loop sees every game with a deadline within the longest
// reminder's lead: most need nothing yet.
func clockDue(b *core, match *gobot.Match, now time.Time) bool {
	if !match.Active() || match.Deadline.IsZero() {
		return false
	}
	return !now.Before(match.Deadline) || b.remindersDue(match, now) > match.Reminded
}

// tickGame is one game's clock step at now, in its own transaction: the
// loss on time once the deadline has passed (a teammate's turn passed on
// in a team game), else the reminder that is due. The timed-job runner
// can call it as the live timeout's job.
func (b *Bot) tickGame(ctx context.Context, id gobot.GameID, now time.Time) error {
	// The transaction decides, records and builds the messages and claims
	// them (claim.go); they are sent after it commits, and the claim is
	// then done. If this process dies in between, another sends them.
	var fx Effects
	var step string // names the messages (Message.Key)
	err := b.store.Update(ctx, func(tx gobot.Tx) error {
		// A shared store may run this again after a conflict: decide
		// afresh, or a claim another process won would be sent too.
		fx, step = Effects{}, ""
		match, err := tx.Match(id)
		if err != nil {
			return err
		}
		if !match.Active() || match.Deadline.IsZero() {
			return nil
		}
		if _, ok := b.notifier(match.Room.Platform()); !ok {
			return nil // the notifier went away since Tick looked
		}
		l, err := load(match)
		if err != nil {
			return err
		}
		side := match.Side(l.g.ToMove())
		late := side.ToMove()
		if !now.Before(match.Deadline) {
			// A team game: the turn passes to the next teammate (rengo.go).
			if s, passed, err := b.teamTimeout(&fx, tx, l, now); passed || err != nil {
				step = s
				return err
			}
			lost := l.g.ToMove()
			if err := l.g.Timeout(l.g.ToMove()); err != nil {
				return err
			}
			match.Record = l.g.Record()
			finish(match, l.g, now)
			if err := b.rateGame(tx, match, l.g); err != nil {
				return err
			}
			match.Updated = now
			if err := tx.PutMatch(match); err != nil {
				return err
			}
			r := &protocol.Request{Time: now, Room: match.Room}
			step = fmt.Sprintf("game %d timeout", id)
			what := fmt.Sprintf("%s ran out of time.", protocol.Mention(late)) + teamLostNote(tx, match, lost)
			if late == gobot.VoteSeat { // vote.go: the room's clock
				what = roomTimeoutText(match, l.g)
			}
			rep := b.gameReply(&fx, tx, l, r, what)
			fx.notify(protocol.Message{Room: match.Room, Reply: rep})
			return b.claim(tx, step, fx.Notices, now)
		}
		k := b.remindersDue(match, now)
		if k <= match.Reminded {
			return nil
		}
		left := match.Deadline.Sub(now)
		step = fmt.Sprintf("game %d deadline %d reminder %d", id, match.Deadline.UnixNano(), k)
		if side.Rotates() { // a turn passed on keeps its deadline: each player is reminded (rengo.go)
			step += " to " + string(late)
		}
		match.Reminded = k
		if err := tx.PutMatch(match); err != nil {
			return err
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
		return b.claim(tx, step, fx.Notices, now)
	})
	if err != nil {
		return err
	}
	b.sendClaimed(ctx, step, fx.Notices)
	return nil
}
