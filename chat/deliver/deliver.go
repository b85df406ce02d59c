// Package deliver delivers the bot's messages exactly once through each
// platform's notifier: the notifiers this process holds now (some under
// a lease, whose term fences the transactions that claim work for the
// platform), the keys that name each message a step queued (for the
// platforms' duplicate checks), and the claims that keep a step's
// messages, decided in a transaction, until they are sent.
package deliver

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// A Notifier sends messages to users and rooms of its platform.
type Notifier interface {
	Notify(ctx context.Context, m protocol.Message) error
}

// Notifiers is the set of platforms this process can deliver to now, by
// platform ("discord"). The zero value is empty; it is safe for
// concurrent use.
type Notifiers struct {
	mu sync.RWMutex
	m  map[string]leased
}

// leased is a platform's notifier and, when it is held under a lease,
// the lease's term.
type leased struct {
	n     Notifier
	fence *gobot.Fence
}

// Set registers n for platform; a nil n removes it.
func (s *Notifiers) Set(platform string, n Notifier) { s.set(platform, leased{n: n}) }

// SetLeased registers n for platform while this process holds the lease
// whose term ctx carries (gobot.FenceOf); n is removed when ctx ends.
func (s *Notifiers) SetLeased(ctx context.Context, platform string, n Notifier) {
	f, _ := gobot.FenceOf(ctx) // the zero Fence (no lease) fences nothing
	ln := leased{n: n, fence: &f}
	s.set(platform, ln)
	context.AfterFunc(ctx, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if cur, ok := s.m[platform]; ok && cur.fence == ln.fence {
			delete(s.m, platform)
		}
	})
}

func (s *Notifiers) set(platform string, ln leased) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ln.n == nil {
		delete(s.m, platform)
		return
	}
	if s.m == nil {
		s.m = map[string]leased{}
	}
	s.m[platform] = ln
}

// Get is platform's notifier, if there is one now.
func (s *Notifiers) Get(platform string) (Notifier, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	ln, ok := s.m[platform]
	return ln.n, ok
}

// Can reports whether there is a notifier for platform now.
func (s *Notifiers) Can(platform string) bool {
	_, ok := s.Get(platform)
	return ok
}

// Fenced returns ctx carrying the lease term of platform's notifier, if
// it is held under one: the transactions that claim work for that
// platform (a due clock, an engine turn) run under it.
func (s *Notifiers) Fenced(ctx context.Context, platform string) context.Context {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if ln, ok := s.m[platform]; ok && ln.fence != nil && ln.fence.Name != "" {
		return gobot.WithFence(ctx, *ln.fence)
	}
	return ctx
}

// Platform is the platform m goes to: its addressee's, else its room's.
func Platform(m protocol.Message) string {
	if m.To != "" {
		return m.To.Platform()
	}
	return m.Room.Platform()
}

// Deliverable is the platform a claim's messages go to (the last one's),
// and whether there is a notifier now for every one of theirs.
func (s *Notifiers) Deliverable(msgs []protocol.Message) (string, bool) {
	platform, deliverable := "", true
	for _, m := range msgs {
		platform = Platform(m)
		if !s.Can(platform) {
			deliverable = false
		}
	}
	return platform, deliverable
}

// Keyed names each message step queued (see Message.Key) by step and
// its place among them, for the platforms' duplicate checks. The same
// step decided again (a re-delivered event, a deadline claimed again)
// queues the same messages in the same order, so they get the same
// keys. An empty step leaves the messages unnamed.
func Keyed(step string, msgs []protocol.Message) []protocol.Message {
	if step == "" {
		return msgs
	}
	for i := range msgs {
		if msgs[i].Key == "" {
			msgs[i].Key = fmt.Sprintf("%s/%d", step, i)
		}
	}
	return msgs
}

// claimedMessage is a Message as a claim stores it: the board image is
// kept as the position to draw, a table image (a tournament's standings,
// a ladder) as the table's data, since they are drawn after the commit.
type claimedMessage struct {
	Room  gobot.RoomID   `json:"room,omitempty"`
	To    gobot.UserID   `json:"to,omitempty"`
	Key   string         `json:"key"`
	Reply protocol.Reply `json:"reply"`
	Board *claimedBoard  `json:"board,omitempty"`
	Table *claimedTable  `json:"table,omitempty"`
}

// claimedTable is a table image to draw: a tournament's standings after
// round After, or a ladder's first Rows rungs with their players' names.
type claimedTable struct {
	Standings *tournament.Tournament         `json:"standings,omitempty"`
	After     int                            `json:"after,omitempty"`
	Ladder    *tournament.Ladder             `json:"ladder,omitempty"`
	Names     map[tournament.PlayerID]string `json:"names,omitempty"`
	Rows      int                            `json:"rows,omitempty"`
	Title     string                         `json:"title,omitempty"`
	Theme     string                         `json:"theme,omitempty"`
}

type claimedBoard struct {
	Game   gobot.GameID `json:"game"`
	Theme  string       `json:"theme,omitempty"`
	Replay bool         `json:"replay,omitempty"`
	Record game.Record  `json:"record"`
}

// Claim stores msgs in tx, keyed by step, as claimed by holder until
// expires. (An engine's wake-up is no message, so never claimed: the
// deadline index wakes the engine again.)
func Claim(tx gobot.Tx, step string, msgs []protocol.Message, holder string, expires time.Time) error {
	var stored []claimedMessage
	for _, m := range Keyed(step, msgs) {
		cm := claimedMessage{Room: m.Room, To: m.To, Key: m.Key, Reply: m.Reply}
		switch d := m.Reply.Draw; {
		case d == nil || d.Done:
		case d.Standings != nil || d.Ladder != nil:
			cm.Table = &claimedTable{Standings: d.Standings, After: d.After, Ladder: d.Ladder, Names: d.Names, Rows: d.Rows, Title: d.Title, Theme: d.Theme}
		case d.Game != nil:
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
	return tx.PutClaim(&gobot.Claim{Key: step, Holder: holder, Expires: expires, Value: v})
}

// Claimed returns the messages of claim c, ready to send.
func Claimed(c *gobot.Claim) ([]protocol.Message, error) {
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
		if tb := cm.Table; tb != nil {
			m.Reply.Draw = &protocol.Drawing{Standings: tb.Standings, After: tb.After, Ladder: tb.Ladder, Names: tb.Names, Rows: tb.Rows, Title: tb.Title, Theme: tb.Theme}
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}
