package web

import (
	"context"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
)

// Live updates. Every change to a game is committed through a store's
// Update; Publishing wraps the bot's store so that each committed
// transaction reports the games it wrote (PutMatch, InsertMatch) to a
// Publisher, whoever made the change: a command from any adapter, an
// engine's move, the clock's timeouts. In one process the Publisher is
// the Hub itself; with several processes on PostgreSQL it is a
// LISTEN/NOTIFY channel (storage/postgres) whose one listener per
// process calls Hub.Changed.

// A Publisher is told which games a committed transaction changed.
type Publisher interface {
	Publish(ctx context.Context, games []gobot.GameID)
}

// A ReviewPublisher is told which reviews a committed transaction
// changed; a Publisher that is one hears of reviews too (the Hub, the
// PostgreSQL channel).
type ReviewPublisher interface {
	PublishReviews(ctx context.Context, reviews []gobot.ReviewID)
}

// Publishing returns s, reporting to p the games (and, when p is a
// ReviewPublisher, the reviews) each committed Update wrote.
func Publishing(s gobot.Store, p Publisher) gobot.Store { return &publishing{Store: s, p: p} }

type publishing struct {
	gobot.Store
	p Publisher
}

func (s *publishing) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	var changed []gobot.GameID
	var reviews []gobot.ReviewID
	var built map[gobot.GameID]*snapshot
	carry, _ := s.p.(*carrying)
	err := s.Store.Update(ctx, func(tx gobot.Tx) error {
		changed, reviews, built = changed[:0], reviews[:0], nil // a retried run reports only what it wrote
		rt := &recordingTx{Tx: tx, changed: &changed, reviews: &reviews}
		if err := fn(rt); err != nil {
			return err
		}
		if carry != nil && len(changed) > 0 {
			built = carry.build(rt, changed)
		}
		return nil
	})
	if err == nil && len(changed) > 0 {
		if carry != nil {
			carry.published(ctx, changed, built)
		} else {
			s.p.Publish(ctx, changed)
		}
	}
	if rp, ok := s.p.(ReviewPublisher); ok && err == nil && len(reviews) > 0 {
		rp.PublishReviews(ctx, reviews)
	}
	return err
}

// recordingTx notes the games and reviews written through it, and the
// players read or written (Carrying names them from these).
type recordingTx struct {
	gobot.Tx
	changed *[]gobot.GameID
	reviews *[]gobot.ReviewID
	players map[gobot.UserID]*gobot.Player
}

func (t *recordingTx) Player(u gobot.UserID) (*gobot.Player, error) {
	p, err := t.Tx.Player(u)
	if err == nil {
		t.sawPlayer(u, p)
	}
	return p, err
}

func (t *recordingTx) PutPlayer(p *gobot.Player) error {
	err := t.Tx.PutPlayer(p)
	if err == nil {
		t.sawPlayer(p.ID, p)
	}
	return err
}

func (t *recordingTx) sawPlayer(u gobot.UserID, p *gobot.Player) {
	if t.players == nil {
		t.players = map[gobot.UserID]*gobot.Player{}
	}
	t.players[u] = p
}

func (t *recordingTx) PutMatch(g *gobot.Match) error {
	err := t.Tx.PutMatch(g)
	if err == nil {
		*t.changed = append(*t.changed, g.ID)
	}
	return err
}

// PutLinkGeneration wakes the game's pages too: a `web reset` ends the
// live streams of the sessions it revoked (events.go), though the game
// itself did not change.
func (t *recordingTx) PutLinkGeneration(g gobot.GameID, u gobot.UserID, gen uint64) error {
	err := t.Tx.PutLinkGeneration(g, u, gen)
	if err == nil {
		*t.changed = append(*t.changed, g)
	}
	return err
}

func (t *recordingTx) InsertMatch(g *gobot.Match) error {
	err := t.Tx.InsertMatch(g)
	if err == nil {
		*t.changed = append(*t.changed, g.ID)
	}
	return err
}

func (t *recordingTx) PutReview(r *gobot.Review) error {
	err := t.Tx.PutReview(r)
	if err == nil {
		*t.reviews = append(*t.reviews, r.ID)
	}
	return err
}

// topic is what a page follows: a game or a review.
type topic struct {
	review bool
	id     uint64
}

func gameTopic(id gobot.GameID) topic     { return topic{id: uint64(id)} }
func reviewTopic(id gobot.ReviewID) topic { return topic{review: true, id: uint64(id)} }

// A Hub fans game and review changes out to this process's open pages.
// It is a Publisher (and ReviewPublisher) for a single process.
type Hub struct {
	mu   sync.Mutex
	subs map[topic]map[chan struct{}]struct{}
	// gen counts each topic's changes heard (all: every change, and the
	// "anything may have changed" of id 0): a snapshot built at the
	// current count is current, and 1,000 pages woken by one move share
	// one read of the store.
	gen map[topic]uint64
	all uint64
	// presence: the players' boards open per game and colour, and the
	// boards closed the sweeper waits on (presence.go).
	presence map[gobot.GameID]*presence
	pending  []awayDue
	sweeping bool
	// states: the games' states that came with their changes, while
	// they have pages open here (carry.go); srv: the Server made with
	// this Hub, which builds them.
	states map[gobot.GameID]pushedState
	srv    *Server
	// share: this process's boards told to the others (Share), as
	// process by clock; nil in one process.
	share   chan<- Presence
	process string
	clock   func() time.Time
}

// NewHub returns an empty hub.
func NewHub() *Hub {
	return &Hub{subs: map[topic]map[chan struct{}]struct{}{}, gen: map[topic]uint64{}}
}

// generation returns how many changes of game id the hub has heard.
func (h *Hub) generation(id gobot.GameID) uint64 { return h.generationOf(gameTopic(id)) }

func (h *Hub) generationOf(t topic) uint64 {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.gen[t] + h.all
}

// Publish tells this process's pages of games that they changed.
func (h *Hub) Publish(_ context.Context, games []gobot.GameID) {
	for _, id := range games {
		h.Changed(id)
	}
}

// PublishReviews tells this process's pages of reviews that they changed.
func (h *Hub) PublishReviews(_ context.Context, reviews []gobot.ReviewID) {
	for _, id := range reviews {
		h.ReviewChanged(id)
	}
}

// Changed wakes every page open on game id (id 0: every page, of games
// and reviews, after changes may have been missed). It never blocks: a
// page that has not yet caught up with the last change is woken once.
func (h *Hub) Changed(id gobot.GameID) {
	if id == 0 {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.all++
		for _, subs := range h.subs {
			wake(subs)
		}
		return
	}
	h.changed(gameTopic(id))
}

// ReviewChanged wakes every page open on review id.
func (h *Hub) ReviewChanged(id gobot.ReviewID) {
	if id != 0 {
		h.changed(reviewTopic(id))
	}
}

func (h *Hub) changed(t topic) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.gen[t]++
	wake(h.subs[t])
}

func wake(subs map[chan struct{}]struct{}) {
	for ch := range subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// subscribe returns a channel woken on game id's changes and the
// function that ends the subscription.
func (h *Hub) subscribe(id gobot.GameID) (<-chan struct{}, func()) {
	return h.subscribeTo(gameTopic(id))
}

func (h *Hub) subscribeTo(t topic) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	if h.subs[t] == nil {
		h.subs[t] = map[chan struct{}]struct{}{}
	}
	h.subs[t][ch] = struct{}{}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		delete(h.subs[t], ch)
		if len(h.subs[t]) == 0 {
			delete(h.subs, t)
			if !t.review {
				delete(h.states, gobot.GameID(t.id))
			}
		}
		h.mu.Unlock()
	}
}

// Pages returns how many pages are subscribed (for tests and metrics).
func (h *Hub) Pages() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, s := range h.subs {
		n += len(s)
	}
	return n
}
