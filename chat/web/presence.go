package web

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Away: a live game's player whose board has been closed for AwayAfter
// is shown as away on the other's board (issue 38; no loss comes of it).
// The Hub counts each game's open live streams per colour of the
// players' own pages (not their watch links) and when the last one of a
// colour closed. With several processes on PostgreSQL (Share) each tells
// the others when a colour's boards open or all close here, and again
// every presenceRefresh while they are open; a board open on any
// process keeps its player present everywhere (issue 43), and one heard
// of no more for presenceExpire (its process gone) counts as closed.
const AwayAfter = 30 * time.Second

// presenceRefresh is how often a process tells again which boards are
// open on it; presenceExpire how long another's stays open unheard.
const (
	presenceRefresh = 20 * time.Second
	presenceExpire  = 3 * presenceRefresh
)

// seen is one colour's boards in a game on this process, and on others.
type seen struct {
	open   int
	closed time.Time // when the last one closed; zero: never open here
	// remote are the other processes with a board of it open, and
	// when each last said so (by this process's clock).
	remote map[string]time.Time
}

// present reports whether a board of the colour is open on any process.
func (s *seen) present() bool { return s.open > 0 || len(s.remote) > 0 }

// away reports whether the colour's boards have all been closed for
// AwayAfter at now.
func (s *seen) away(now time.Time) bool {
	return !s.present() && !s.closed.IsZero() && now.Sub(s.closed) >= AwayAfter
}

// presence is a game's boards by colour, and a count of the changes
// its pages were told of.
type presence struct {
	by  [3]seen
	gen uint64
}

// A Presence is one process's boards of one colour of a game: open, or
// all closed (the message Share publishes and Heard takes).
type Presence struct {
	Game    gobot.GameID
	Color   game.Color
	Process string
	Open    bool
}

// opened counts a board of colour c open on game id, and tells the
// game's pages when the colour was away.
func (h *Hub) opened(id gobot.GameID, c game.Color, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.presenceOf(id)
	s := &p.by[c]
	was := s.away(now)
	s.open++
	if was {
		p.gen++
		h.wakeLocked(id)
	}
	if s.open == 1 {
		h.tellLocked(Presence{Game: id, Color: c, Open: true})
	}
}

// closed counts a board of colour c closed on game id at now; the
// sweeper tells the game's pages when it has been closed AwayAfter.
func (h *Hub) closed(id gobot.GameID, c game.Color, now time.Time, clock func() time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.presenceOf(id)
	s := &p.by[c]
	s.open--
	if s.open > 0 {
		return
	}
	h.tellLocked(Presence{Game: id, Color: c})
	if s.present() {
		return // open on another process
	}
	h.awayFromLocked(id, c, now, clock)
}

// awayFromLocked marks colour c of game id closed everywhere at now,
// for the sweeper to tell its pages AwayAfter later; h.mu is held.
func (h *Hub) awayFromLocked(id gobot.GameID, c game.Color, now time.Time, clock func() time.Time) {
	h.presenceOf(id).by[c].closed = now
	h.pending = append(h.pending, awayDue{game: id, color: c, closed: now})
	if !h.sweeping && clock != nil {
		h.sweeping = true
		go h.sweep(clock)
	}
}

// tellLocked publishes this process's boards of a colour to the others
// when it shares them (Share); h.mu is held, so it publishes in the
// background, in order.
func (h *Hub) tellLocked(p Presence) {
	if h.share == nil {
		return
	}
	p.Process = h.process
	select {
	case h.share <- p:
	default: // the sharer is behind: the next refresh tells again
	}
}

// Share tells the other processes on a shared database (PostgreSQL's
// NOTIFY, through publish) when a colour's boards open or all close on
// this one, and which are open again every presenceRefresh; boards of
// another process not heard of for presenceExpire by clock (the
// server's) count as closed. It runs until ctx ends; the other
// processes' messages reach the Hub through Heard.
func (h *Hub) Share(ctx context.Context, publish func(context.Context, []Presence), clock func() time.Time) {
	ch := make(chan Presence, 1024)
	h.mu.Lock()
	h.share, h.clock = ch, clock
	if h.process == "" {
		var b [8]byte
		rand.Read(b[:])
		h.process = hex.EncodeToString(b[:])
	}
	h.mu.Unlock()
	defer func() {
		h.mu.Lock()
		h.share = nil
		h.mu.Unlock()
	}()
	t := time.NewTicker(presenceRefresh)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case p := <-ch:
			publish(ctx, []Presence{p})
		case <-t.C:
			publish(ctx, h.refresh(clock()))
		}
	}
}

// refresh returns the boards open on this process, to tell again, and
// counts as closed at now those of other processes not heard of for
// presenceExpire.
func (h *Hub) refresh(now time.Time) []Presence {
	h.mu.Lock()
	defer h.mu.Unlock()
	var open []Presence
	for id, p := range h.presence {
		for _, c := range []game.Color{game.Black, game.White} {
			s := &p.by[c]
			if s.open > 0 {
				open = append(open, Presence{Game: id, Color: c, Process: h.process, Open: true})
			}
			for proc, at := range s.remote {
				if now.Sub(at) >= presenceExpire {
					delete(s.remote, proc)
					if !s.present() {
						h.awayFromLocked(id, c, now, h.clock)
					}
				}
			}
		}
	}
	return open
}

// Heard takes another process's boards of a colour (Share): open, it
// keeps the player present here; all closed, and none open elsewhere,
// the colour's away clock starts from now.
func (h *Hub) Heard(m Presence) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if m.Process == "" || m.Process == h.process || (m.Color != game.Black && m.Color != game.White) || h.clock == nil {
		return
	}
	now := h.clock()
	p := h.presenceOf(m.Game)
	s := &p.by[m.Color]
	if m.Open {
		was := s.away(now)
		if s.remote == nil {
			s.remote = map[string]time.Time{}
		}
		s.remote[m.Process] = now
		if was {
			p.gen++
			h.wakeLocked(m.Game)
		}
		return
	}
	if _, ok := s.remote[m.Process]; !ok {
		return
	}
	delete(s.remote, m.Process)
	if !s.present() {
		h.awayFromLocked(m.Game, m.Color, now, h.clock)
	}
}

// awayDue is a board closed, to be announced away AwayAfter later.
type awayDue struct {
	game   gobot.GameID
	color  game.Color
	closed time.Time
}

// sweepEvery is how often the sweeper looks at the boards closed.
const sweepEvery = time.Second

// sweep wakes the pages of each game whose player has been away for
// AwayAfter by clock (the server's: a test's fake time), looking each
// second while boards are waiting; it ends when none is.
func (h *Hub) sweep(clock func() time.Time) {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for range t.C {
		now := clock()
		h.mu.Lock()
		rest := h.pending[:0]
		for _, d := range h.pending {
			p := h.presence[d.game]
			if p == nil || p.by[d.color].present() || !p.by[d.color].closed.Equal(d.closed) {
				continue // open again, or closed again later (its own entry)
			}
			if now.Sub(d.closed) < AwayAfter {
				rest = append(rest, d)
				continue
			}
			p.gen++
			h.wakeLocked(d.game)
		}
		h.pending = rest
		if len(rest) == 0 {
			h.sweeping = false
			h.mu.Unlock()
			return
		}
		h.mu.Unlock()
	}
}

// wakeLocked wakes every page open on game id, its state unchanged
// (no new generation); h.mu is held.
func (h *Hub) wakeLocked(id gobot.GameID) { wake(h.subs[gameTopic(id)]) }

func (h *Hub) presenceOf(id gobot.GameID) *presence {
	if h.presence == nil {
		h.presence = map[gobot.GameID]*presence{}
	}
	p := h.presence[id]
	if p == nil {
		p = &presence{}
		h.presence[id] = p
	}
	return p
}

// away returns the colours away from game id at now, and the count of
// changes told, which changes when they may have.
func (h *Hub) away(id gobot.GameID, now time.Time) ([]string, uint64) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.presence[id]
	if p == nil {
		return nil, 0
	}
	var out []string
	for _, c := range []game.Color{game.Black, game.White} {
		if p.by[c].away(now) {
			out = append(out, colorName(c))
		}
	}
	return out, p.gen
}

// presenceEvent is the event that tells a page who is away.
func presenceEvent(away []string) []byte {
	if away == nil {
		away = []string{}
	}
	b, _ := json.Marshal(struct {
		Away []string `json:"away"`
	}{away})
	return append(append([]byte("event: presence\ndata: "), b...), "\n\n"...)
}
