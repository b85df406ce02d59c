package chat

import (
	"encoding/json"
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

// claimPlatform is the platform a claim's messages go to (the last
// one's), and whether can delivers to every one of theirs.
func claimPlatform(msgs []protocol.Message, can func(platform string) bool) (string, bool) {
	platform, deliverable := "", true
	for _, m := range msgs {
		p := m.Room.Platform()
		if m.To != "" {
			p = m.To.Platform()
		}
		platform = p
		if !can(p) {
			deliverable = false
		}
	}
	return platform, deliverable
}
