package chat

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

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
