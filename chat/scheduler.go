package chat

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// startClock sets the deadline for the player to move at t.
func startClock(sg *gobot.Game, g *game.Game, t time.Time) {
	sg.Reminded = 0
	sg.Deadline = time.Time{}
	if g.Phase() != game.Playing {
		return
	}
	switch sg.Clock.Kind {
	case gobot.PerMove:
		sg.Deadline = t.Add(sg.Clock.PerMove)
	case gobot.Fischer:
		sg.Deadline = t.Add(sg.Left[g.ToMove()])
	}
}

// moved updates the clock after mover moved at t.
func moved(sg *gobot.Game, g *game.Game, mover game.Color, t time.Time) {
	sg.MoveTimes = append(sg.MoveTimes, t)
	if sg.Clock.Kind == gobot.Fischer && !sg.Deadline.IsZero() {
		left := sg.Deadline.Sub(t) + sg.Clock.Increment
		sg.Left[mover] = min(max(left, 0), sg.Clock.Max)
	}
	sg.UndoBy = ""
	startClock(sg, g, t)
}

// timeLeft describes the clock of the player to move.
func timeLeft(sg *gobot.Game, now time.Time) string {
	if sg.Deadline.IsZero() {
		return ""
	}
	return FormatDuration(sg.Deadline.Sub(now)) + " left"
}

// finish records the end of a game.
func finish(sg *gobot.Game, g *game.Game, t time.Time) {
	res, _ := g.Result()
	sg.Finished, sg.Result = t, res.String()
	sg.Deadline, sg.Reminded, sg.UndoBy = time.Time{}, 0, ""
}

// Run drives the clock: reminders and timeouts, until ctx ends. Games
// whose deadline passed while the bot was down are handled at once.
func (b *Bot) Run(ctx context.Context) error {
	t := time.NewTicker(b.cfg.Tick)
	defer t.Stop()
	for {
		if err := b.Tick(ctx); err != nil {
			b.log.Error("clock", "err", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// Tick handles every due clock once: it sends the reminders that are due
// and ends games whose time ran out. Due games are found through the
// storage deadline index. Only games of platforms with a notifier are
// claimed: several processes may share the store, and one that cannot
// deliver to a platform right now (a Matrix standby) leaves its games to
// one that can, so no reminder or timeout is claimed and then not sent.
func (b *Bot) Tick(ctx context.Context) error {
	now := b.clock.Now()
	horizon := now
	if len(b.cfg.Reminders) > 0 {
		horizon = now.Add(b.cfg.Reminders[0])
	}
	var due []*gobot.Game
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
	for _, sg := range due {
		if _, ok := b.notifier(sg.Room.Platform()); !ok {
			// Not deliverable from this process now (a standby Matrix
			// process): leave it to one that can send the message.
			continue
		}
		if b.engineTick(sg) {
			continue
		}
		// A platform served under a lease (Matrix) is claimed under its
		// term: a process that lost the lease claims nothing there.
		err := b.tickGame(b.fenced(ctx, sg.Room.Platform()), sg.ID, now)
		switch {
		case errors.Is(err, gobot.ErrLeaseLost):
			b.log.Info("clock: the platform's lease is held elsewhere now", "game", sg.ID, "err", err)
		case err != nil:
			b.log.Error("clock", "game", sg.ID, "err", err)
		}
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

func (b *Bot) tickGame(ctx context.Context, id gobot.GameID, now time.Time) error {
	// The transaction decides, records and builds the messages and claims
	// them (claim.go); they are sent after it commits, and the claim is
	// then done. If this process dies in between, another sends them.
	var later []Message
	var step string // names the messages (Message.Key)
	err := b.store.Update(ctx, func(tx gobot.Tx) error {
		// A shared store may run this again after a conflict: decide
		// afresh, or a claim another process won would be sent too.
		later, step = nil, ""
		in := b.inTx(&later)
		sg, err := tx.Game(id)
		if err != nil {
			return err
		}
		if !sg.Active() || sg.Deadline.IsZero() {
			return nil
		}
		if _, ok := b.notifier(sg.Room.Platform()); !ok {
			return nil // the notifier went away since Tick looked
		}
		l, err := load(sg)
		if err != nil {
			return err
		}
		late := playerOf(sg, l.g.ToMove())
		if !now.Before(sg.Deadline) {
			if err := l.g.Timeout(l.g.ToMove()); err != nil {
				return err
			}
			sg.Record = l.g.Record()
			finish(sg, l.g, now)
			if err := b.rateGame(tx, sg, l.g); err != nil {
				return err
			}
			sg.Updated = now
			if err := tx.PutGame(sg); err != nil {
				return err
			}
			r := &Request{Time: now, Room: sg.Room}
			step = fmt.Sprintf("game %d timeout", id)
			in.notify(ctx, Message{Room: sg.Room, Reply: in.gameReply(tx, l, r, fmt.Sprintf("%s ran out of time.", Mention(late)))})
			return b.claim(tx, step, later, now)
		}
		k := 0
		for i, d := range b.cfg.Reminders {
			if sg.Deadline.Sub(now) <= d {
				k = i + 1
			}
		}
		if k <= sg.Reminded {
			return nil
		}
		left := sg.Deadline.Sub(now)
		step = fmt.Sprintf("game %d deadline %d reminder %d", id, sg.Deadline.UnixNano(), k)
		sg.Reminded = k
		if err := tx.PutGame(sg); err != nil {
			return err
		}
		msg := Message{Room: sg.Room, Reply: Reply{Game: id, Title: fmt.Sprintf("Game #%d", id),
			Text:     fmt.Sprintf("%s, it's your move in game #%d — %s left.", Mention(late), id, FormatDuration(left)),
			Mentions: []gobot.UserID{late}}}
		if playerIn(tx, late).Notify == "dm" {
			msg.To = late
		}
		in.notify(ctx, msg)
		return b.claim(tx, step, later, now)
	})
	if err != nil {
		return err
	}
	b.sendClaimed(ctx, step, later)
	return nil
}
