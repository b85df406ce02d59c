package web

import (
	"context"
	"encoding/json"

	"github.com/gobotgo/gobot"
)

// Carrying the page with the change (issue 47). With several processes
// on PostgreSQL, a process that commits a change to a game builds the
// game's page state inside the change's own transaction and publishes
// it with the change (the NOTIFY's payload), so a process that hears it
// sends it to its pages without reading the game again; its own pages
// get it at the commit. A state too large to carry goes as the game's
// ID alone, and its hearers read the game as before.

// A GameState is a game's page state as a transaction committed it: its
// version and the JSON every page of the game is sent (the state
// without the time it is sent at).
type GameState struct {
	Game gobot.GameID
	V    uint64
	JSON []byte // nil: not built (the hearers read the game)
}

// A StatePublisher tells every process which games a committed
// transaction changed, with their pages' states.
type StatePublisher interface {
	PublishStates(ctx context.Context, states []GameState)
}

// Carrying returns the Publisher to give Publishing when the changes go
// through p to every process: each transaction that changes a game with
// pages open here builds the game's page state (with the Server made
// with this Hub) before it commits, this process's pages get it at the
// commit, and p carries it to the others.
func (h *Hub) Carrying(p StatePublisher) Publisher { return &carrying{hub: h, p: p} }

type carrying struct {
	hub *Hub
	p   StatePublisher
}

// Publish publishes changes for which no state was built.
func (c *carrying) Publish(ctx context.Context, games []gobot.GameID) {
	states := make([]GameState, len(games))
	for i, id := range games {
		states[i] = GameState{Game: id}
	}
	c.p.PublishStates(ctx, states)
}

// PublishReviews tells the others of reviews, when p can.
func (c *carrying) PublishReviews(ctx context.Context, reviews []gobot.ReviewID) {
	if rp, ok := c.p.(ReviewPublisher); ok {
		rp.PublishReviews(ctx, reviews)
	}
}

// build builds, inside the transaction tx that changed them, the page
// snapshots of games that have pages open on this process (a click's
// own page, most often: a change to a game nobody watches here, a
// typed move in a chat, costs no drawing); a game left out goes as its
// ID and its hearers read it, as does one whose page cannot be built.
func (c *carrying) build(tx *recordingTx, games []gobot.GameID) map[gobot.GameID]*snapshot {
	s := c.hub.server()
	if s == nil {
		return nil
	}
	out := map[gobot.GameID]*snapshot{}
	for _, id := range games {
		if out[id] != nil || !c.hub.hasPages(id) {
			continue
		}
		// The game as the transaction leaves it; the players' names
		// as it read them (no more round trips for them).
		m, err := tx.Tx.Match(id)
		if err != nil {
			continue
		}
		view, err := s.cfg.Bot.BoardIn(namesTx{tx}, m)
		if err != nil {
			continue
		}
		if sn, err := s.build(view); err == nil {
			out[id] = sn
		}
	}
	return out
}

// published hands the committed states to this process's pages and
// publishes them to the others.
func (c *carrying) published(ctx context.Context, games []gobot.GameID, built map[gobot.GameID]*snapshot) {
	var states []GameState
	seen := map[gobot.GameID]bool{}
	for _, id := range games {
		if seen[id] {
			continue
		}
		seen[id] = true
		st := GameState{Game: id}
		if sn := built[id]; sn != nil {
			st.V, st.JSON = sn.V, sn.json
			c.hub.pushed(id, sn.V, sn.json, sn)
		}
		states = append(states, st)
	}
	c.p.PublishStates(ctx, states)
}

// namesTx is a changing transaction that answers the players it has
// read already with what it read: a name costs no round trip.
type namesTx struct{ *recordingTx }

func (t namesTx) Player(u gobot.UserID) (*gobot.Player, error) {
	if p, ok := t.players[u]; ok {
		return p, nil
	}
	return t.recordingTx.Player(u)
}

// hasPages reports whether game id has pages open on this process.
func (h *Hub) hasPages(id gobot.GameID) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs[gameTopic(id)]) > 0
}

// server is the Server made with this Hub (nil before New).
func (h *Hub) server() *Server {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.srv
}

// pushedState is a game's state that came with its change: built in
// this process (sn set) or heard from another (JSON only); gen is the
// Hub's generation of the game it came with.
type pushedState struct {
	v    uint64
	json []byte
	sn   *snapshot
	gen  uint64
}

// HeardState tells this process's pages that game id changed, to state
// (a GameState's JSON at version v) heard from the process that changed
// it: they are sent it without reading the game.
func (h *Hub) HeardState(id gobot.GameID, v uint64, state []byte) {
	h.pushed(id, v, state, nil)
}

// pushed wakes game id's pages with its state at version v; the state
// is kept only while the game has pages open here.
func (h *Hub) pushed(id gobot.GameID, v uint64, state []byte, sn *snapshot) {
	h.mu.Lock()
	defer h.mu.Unlock()
	t := gameTopic(id)
	h.gen[t]++
	if len(h.subs[t]) > 0 {
		if h.states == nil {
			h.states = map[gobot.GameID]pushedState{}
		}
		if old, ok := h.states[id]; !ok || old.v <= v {
			h.states[id] = pushedState{v: v, json: state, sn: sn, gen: h.gen[t] + h.all}
		}
	}
	wake(h.subs[t])
}

// pushedAt returns game id's pushed state if it is current at
// generation gen.
func (h *Hub) pushedAt(id gobot.GameID, gen uint64) (pushedState, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	p, ok := h.states[id]
	return p, ok && p.gen == gen
}

// fromPushed is the snapshot of a pushed state: the one built here, or
// the state heard with the view of cached (the game's last snapshot
// here, of an earlier version), marked partial; nil without either.
func fromPushed(p pushedState, cached *snapshot) *snapshot {
	if p.sn != nil {
		c := *p.sn // its gen is set for each generation it serves
		return &c
	}
	if cached == nil || p.json == nil {
		return nil
	}
	sn := &snapshot{json: p.json, view: cached.view, partial: true}
	if err := json.Unmarshal(p.json, &sn.state); err != nil || sn.V != p.v {
		return nil
	}
	return sn
}
