package chat

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// timerClock is a fake time source with timers (Timers): a timer fires
// when the time is moved to or past it, never on its own.
type timerClock struct {
	fakeClock
	tmu    sync.Mutex
	timers []fakeTimer
}

type fakeTimer struct {
	at time.Time
	c  chan time.Time
}

func (c *timerClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	now := c.Now()
	if d <= 0 {
		ch <- now
		return ch
	}
	c.tmu.Lock()
	defer c.tmu.Unlock()
	c.timers = append(c.timers, fakeTimer{at: now.Add(d), c: ch})
	return ch
}

func (c *timerClock) Advance(d time.Duration) {
	c.fakeClock.Advance(d)
	now := c.Now()
	c.tmu.Lock()
	defer c.tmu.Unlock()
	c.timers = slices.DeleteFunc(c.timers, func(t fakeTimer) bool {
		if t.at.After(now) {
			return false
		}
		t.c <- now
		return true
	})
}

// waiting reports whether a timer is set for t.
func (c *timerClock) waiting(t time.Time) bool {
	c.tmu.Lock()
	defer c.tmu.Unlock()
	return slices.ContainsFunc(c.timers, func(ft fakeTimer) bool { return ft.at.Equal(t) })
}

// eventually polls cond until it holds; the bound only stops a hung
// test, it measures nothing.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

// The runner wakes at the next deadline, not at its next regular tick:
// with ticks three days apart, a player whose two days run out loses on
// time at the deadline itself, on a fake time source that only moves
// when the test moves it (the live clocks of #38 need a loss on time
// within a second of its deadline).
func TestRunnerWakesAtTheDeadline(t *testing.T) {
	h := newHarness(t)
	clock := &timerClock{fakeClock: fakeClock{t: h.clock.Now()}}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9, Tick: 72 * time.Hour}, h.db, pngRenderer{}, clock, nil)
	h.bot.SetNotifier("test", h.notes)
	h.bot.SetLinker(testLinker{})
	h.start("9 clock=2d")
	h.ok("alice", "play D4")
	deadline, _ := h.game(1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.bot.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	eventually(t, "the runner waits for the deadline", func() bool { return clock.waiting(deadline.Deadline) })
	clock.Advance(deadline.Deadline.Sub(clock.Now()))
	eventually(t, "the game is lost on time", func() bool { m, _ := h.game(1); return !m.Active() })
	m, _ := h.game(1)
	if m.Result != "B+T" || !m.Finished.Equal(deadline.Deadline) {
		t.Fatalf("result %s at %v, deadline %v", m.Result, m.Finished, deadline.Deadline)
	}
	eventually(t, "the room is told", func() bool {
		return slices.ContainsFunc(h.notes.all(), func(n protocol.Message) bool { return strings.Contains(n.Reply.Text, "ran out of time") })
	})
}

// countingStore counts a store's committed write transactions and the
// games its DueGames listed.
type countingStore struct {
	gobot.Store
	mu        sync.Mutex
	updates   int
	dueListed int
}

func (s *countingStore) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	err := s.Store.Update(ctx, func(tx gobot.Tx) error { return fn(&countingTx{Tx: tx, s: s}) })
	if err == nil {
		s.mu.Lock()
		s.updates++
		s.mu.Unlock()
	}
	return err
}

func (s *countingStore) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return s.Store.View(ctx, func(tx gobot.Tx) error { return fn(&countingTx{Tx: tx, s: s}) })
}

func (s *countingStore) counts() (updates, dueListed int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.updates, s.dueListed
}

func (s *countingStore) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.updates, s.dueListed = 0, 0
}

type countingTx struct {
	gobot.Tx
	s *countingStore
}

func (tx *countingTx) DueGames(before time.Time, limit int) ([]*gobot.Match, error) {
	ms, err := tx.Tx.DueGames(before, limit)
	tx.s.mu.Lock()
	tx.s.dueListed += len(ms)
	tx.s.mu.Unlock()
	return ms, err
}

// startGames starts n games of pairs a<i> (black) and o<i> with opts.
func (h *harness) startGames(n int, opts string) {
	h.t.Helper()
	for i := range n {
		h.ok(fmt.Sprintf("a%d", i), fmt.Sprintf("challenge @o%d black 9 %s", i, opts))
		h.ok(fmt.Sprintf("o%d", i), "accept")
	}
}

// Timeouts due together cost a commit each, not two: the claims of a
// tick's messages are recorded done together after its due work (issue
// 47: 500 live games' timeouts, each waiting for the one before, were
// late by up to 2 s under load).
func TestTickRecordsClaimsTogether(t *testing.T) {
	h := newHarness(t)
	cs := &countingStore{Store: h.db}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, cs, pngRenderer{}, h.clock, nil)
	h.bot.SetNotifier("test", h.notes)
	const games = 4
	h.startGames(games, "clock=2d")
	h.clock.Advance(49 * time.Hour)
	cs.reset()
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	for id := gobot.GameID(1); id <= games; id++ {
		if m, _ := h.game(id); m.Active() {
			t.Fatalf("game #%d was not lost on time", id)
		}
	}
	// A commit per timeout, one for the claims sent, one for the
	// tick's expiry of old event IDs.
	if updates, _ := cs.counts(); updates > games+2 {
		t.Errorf("%d timeouts took %d commits, want at most %d", games, updates, games+2)
	}
}

// The runner's wake after a change reads the next due games a few at a
// time, not every game due within a tick (issue 47: with 500 live games
// it decoded them all after each tick and each command).
func TestRunnerLooksAheadAFewGames(t *testing.T) {
	h := newHarness(t)
	clock := &timerClock{fakeClock: fakeClock{t: h.clock.Now()}}
	h.clock = &clock.fakeClock
	cs := &countingStore{Store: h.db}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9, Tick: 72 * time.Hour}, cs, pngRenderer{}, clock, nil)
	h.bot.SetNotifier("test", h.notes)
	const games = 30
	h.startGames(games, "clock=2d")
	first, _ := h.game(1)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.bot.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	eventually(t, "the runner waits for the first deadline", func() bool { return clock.waiting(first.Deadline) })
	cs.reset()
	h.ok("a0", "play D4") // a change: the runner looks for its next wake again
	eventually(t, "the runner looks again", func() bool { _, n := cs.counts(); return n > 0 })
	next, _ := h.game(2)
	eventually(t, "the runner waits for the next deadline", func() bool { return clock.waiting(next.Deadline) })
	// A look reads a few games (8 first); the runner may look more than
	// once meanwhile (a poke, then its timer), but never reads them all,
	// as one look of the old code did.
	if _, n := cs.counts(); n >= games {
		t.Errorf("the runner's look ahead read %d games of %d", n, games)
	}
}
