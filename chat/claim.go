package chat

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// claimedMessage is a Message as a claim stores it: the board image is
// kept as the position to draw, since it is drawn after the commit.
type claimedMessage struct {
	Room  gobot.RoomID   `json:"room,omitempty"`
	To    gobot.UserID   `json:"to,omitempty"`
	Key   string         `json:"key"`
	Reply protocol.Reply `json:"reply"`
	Board *claimedBoard  `json:"board,omitempty"`
}

type claimedBoard struct {
	Game   gobot.GameID `json:"game"`
	Theme  string       `json:"theme,omitempty"`
	Replay bool         `json:"replay,omitempty"`
	Record game.Record  `json:"record"`
}

// claim stores msgs, keyed by step, as claimed by this process until
// now + ClaimTTL. (An engine's wake-up is no message, so never claimed:
// the deadline index wakes the engine again.)
func (b *Bot) claim(tx gobot.Tx, step string, msgs []protocol.Message, now time.Time) error {
	var stored []claimedMessage
	for _, m := range keyed(step, msgs) {
		cm := claimedMessage{Room: m.Room, To: m.To, Key: m.Key, Reply: m.Reply}
		if d := m.Reply.Draw; d != nil && d.Game != nil && !d.Done {
			cm.Board = &claimedBoard{Game: d.ID, Theme: d.Theme, Replay: d.Replay, Record: d.Game.Record()}
		}
		stored = append(stored, cm)
	}
	if step == "" || len(stored) == 0 {
		return nil
	}
	v, err := json.Marshal(stored)
	if err != nil {
		return err
	}
	return tx.PutClaim(&gobot.Claim{Key: step, Holder: b.cfg.Holder, Expires: now.Add(b.cfg.ClaimTTL), Value: v})
}

// decodeClaim returns the messages of claim c, ready to send.
func decodeClaim(c *gobot.Claim) ([]protocol.Message, error) {
	var stored []claimedMessage
	if err := json.Unmarshal(c.Value, &stored); err != nil {
		return nil, err
	}
	msgs := make([]protocol.Message, 0, len(stored))
	for _, cm := range stored {
		m := protocol.Message{Room: cm.Room, To: cm.To, Key: cm.Key, Reply: cm.Reply}
		if bd := cm.Board; bd != nil {
			g, err := game.Replay(bd.Record)
			if err != nil {
				return nil, err
			}
			m.Reply.Draw = &protocol.Drawing{Game: g, ID: bd.Game, Theme: bd.Theme, Replay: bd.Replay}
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// sendClaimed sends the messages of the claim step (committed) and then
// records it done. The record is made whether or not the lease the claim
// was made under is still held: the messages are out.
func (b *Bot) sendClaimed(ctx context.Context, step string, msgs []protocol.Message) {
	b.carryOut(ctx, Effects{Notices: keyed(step, msgs)})
	if step == "" || len(msgs) == 0 {
		return // nothing was claimed
	}
	if err := b.store.Update(gobot.WithFence(ctx, gobot.Fence{}), func(tx gobot.Tx) error { return tx.DeleteClaim(step) }); err != nil {
		b.log.Warn("recording a claim done", "claim", step, "err", err)
	}
}

// reclaim claims again, and sends, the claims that expired before now
// unfinished (their claimer died between the claim and the send), for
// the platforms this process can deliver to now.
func (b *Bot) reclaim(ctx context.Context, now time.Time) error {
	var expired []*gobot.Claim
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		var err error
		expired, err = tx.ExpiredClaims(now, 0)
		return err
	}); err != nil {
		if len(expired) == 0 {
			return err
		}
		b.log.Error("clock: unreadable claims", "err", err) // and the readable ones are sent
	}
	for _, c := range expired {
		msgs, err := decodeClaim(c)
		if err != nil {
			b.log.Error("an unreadable claim is dropped", "claim", c.Key, "err", err)
			b.store.Update(ctx, func(tx gobot.Tx) error { return tx.DeleteClaim(c.Key) })
			continue
		}
		platform := ""
		deliverable := true
		for _, m := range msgs {
			p := m.Room.Platform()
			if m.To != "" {
				p = m.To.Platform()
			}
			platform = p
			if _, ok := b.notifier(p); !ok {
				deliverable = false
			}
		}
		if !deliverable {
			continue // left to a process that can send them
		}
		won := false
		err = b.store.Update(b.fenced(ctx, platform), func(tx gobot.Tx) error {
			won = false
			cur, err := tx.Claim(c.Key)
			if errors.Is(err, gobot.ErrNotFound) {
				return nil // done meanwhile
			}
			if err != nil {
				return err
			}
			if now.Before(cur.Expires) {
				return nil // another process claimed it again first
			}
			cur.Holder, cur.Expires = b.cfg.Holder, now.Add(b.cfg.ClaimTTL)
			won = true
			return tx.PutClaim(cur)
		})
		if err != nil {
			b.log.Warn("claiming an expired claim again", "claim", c.Key, "err", err)
			continue
		}
		if won {
			b.log.Info("sending the messages of a claim whose claimer did not finish", "claim", c.Key, "claimer", c.Holder)
			b.sendClaimed(ctx, c.Key, msgs)
		}
	}
	return nil
}
