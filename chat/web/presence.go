package web

import (
	"encoding/json"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Away: a live game's player whose board has been closed for AwayAfter
// is shown as away on the other's board (issue 38; no loss comes of it).
// The Hub counts each game's open live streams per colour of the
// players' own pages (not their watch links) and when the last one of a
// colour closed. It is the process's: with several processes on
// PostgreSQL a player whose board is open on another process counts as
// closed here (docs/web.md).
const AwayAfter = 30 * time.Second

// seen is one colour's boards in a game on this process.
type seen struct {
	open   int
	closed time.Time // when the last one closed; zero: never open here
}

// presence is a game's boards by colour, and a count of the changes
// its pages were told of.
type presence struct {
	by  [3]seen
	gen uint64
}

// opened counts a board of colour c open on game id, and tells the
// game's pages when the colour was away.
func (h *Hub) opened(id gobot.GameID, c game.Color, now time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.presenceOf(id)
	s := &p.by[c]
	was := s.open == 0 && !s.closed.IsZero() && now.Sub(s.closed) >= AwayAfter
	s.open++
	if was {
		p.gen++
		h.wakeLocked(id)
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
	s.closed = now
	h.pending = append(h.pending, awayDue{game: id, color: c, closed: now})
	if !h.sweeping {
		h.sweeping = true
		go h.sweep(clock)
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
			if p == nil || p.by[d.color].open > 0 || !p.by[d.color].closed.Equal(d.closed) {
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
		s := p.by[c]
		if s.open == 0 && !s.closed.IsZero() && now.Sub(s.closed) >= AwayAfter {
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
