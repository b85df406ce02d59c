package chat

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A process that cannot deliver to a platform right now (a Matrix
// standby: no notifier) does not claim that platform's due games; the
// process holding the notifier claims them and sends each message once.
func TestTickLeavesUndeliverableGames(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	standby := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	other := &recordingNotifier{}
	standby.SetNotifier("elsewhere", other)

	h.clock.Advance(23 * time.Hour) // the one-hour reminder is due
	if err := standby.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); match.Reminded != 0 {
		t.Fatalf("the standby claimed the reminder it cannot send (reminded %d)", match.Reminded)
	}
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); match.Reminded == 0 {
		t.Fatal("the process with the notifier did not claim the reminder")
	}
	if n := len(h.notes.all()); n != 1 {
		t.Fatalf("%d reminders sent, want 1: %+v", n, h.notes.all())
	}

	// The deadline passes while only the standby ticks: the game waits.
	h.clock.Advance(2 * time.Hour)
	standby.Tick(context.Background())
	if match, _ := h.game(1); !match.Active() {
		t.Fatalf("the standby ended the game on time (%s) without being able to say so", match.Result)
	}
	// The standby becomes active (it took the lease): now it ends it.
	standby.SetNotifier("test", h.notes)
	if err := standby.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); match.Result != "W+T" {
		t.Fatalf("after taking over: result %q, want W+T", match.Result)
	}
	h.bot.Tick(context.Background())
	if n := len(h.notes.all()); n != 2 || len(other.all()) != 0 {
		t.Fatalf("%d messages sent (want the reminder and the timeout), %d elsewhere", n, len(other.all()))
	}

	// Removing the notifier makes the platform undeliverable again.
	standby.SetNotifier("test", nil)
	if standby.CanDeliver("test") {
		t.Fatal("SetNotifier(nil) left the notifier in place")
	}
}

// SetNotifier may be called while the bot is sending (the Matrix lease
// is won and lost while the clock loop and commands run).
func TestSetNotifierWhileRunning(t *testing.T) {
	h := newHarness(t)
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for range 200 {
			h.bot.SetNotifier("test", nil)
			h.bot.SetNotifier("test", h.notes)
		}
	}()
	go func() {
		defer wg.Done()
		for range 200 {
			h.bot.notify(context.Background(), protocol.Message{Room: "test:main", Reply: protocol.Reply{Text: "hi"}})
			h.bot.Tick(context.Background())
		}
	}()
	wg.Wait()
}

// retryingStore runs each Update's function once more after a first run
// it throws away, like a shared store whose transaction lost a
// serialization conflict; between the two, another process (between) has
// its turn.
type retryingStore struct {
	gobot.Store

	between func()
}

var errConflict = errors.New("serialization conflict")

func (s retryingStore) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	err := s.Store.Update(ctx, func(tx gobot.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errConflict // rolled back: as if the commit failed
	})
	if !errors.Is(err, errConflict) {
		return err
	}
	s.between()
	return s.Store.Update(ctx, fn)
}

// When the clock's claim is run again after a conflict and finds the
// reminder or the timeout done by another process, nothing is sent: what
// the first run decided is forgotten.
func TestTickClaimRetried(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	other := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	otherNotes := &recordingNotifier{}
	other.SetNotifier("test", otherNotes)
	conflicted := New(Config{Rules: "japanese", Width: 9, Height: 9},
		retryingStore{Store: h.db, between: func() { other.Tick(context.Background()) }}, pngRenderer{}, h.clock, nil)
	conflicted.SetNotifier("test", h.notes)
	for _, advance := range []time.Duration{23 * time.Hour, 2 * time.Hour} { // the reminder, then the timeout
		h.clock.Advance(advance)
		before := len(h.notes.all()) + len(otherNotes.all())
		if err := conflicted.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
		if sent := len(h.notes.all()) + len(otherNotes.all()) - before; sent != 1 {
			t.Fatalf("after %v: %d messages sent for one due clock, want 1", advance, sent)
		}
	}
}

// A command with an owed reply run again after a conflict sends its
// notifications once: those of the thrown-away run are forgotten.
func TestOwedCommandRetriedNotifiesOnce(t *testing.T) {
	h := newHarness(t)
	h.start("")
	h.ok("bob", "set notify=dm")
	retried := New(Config{Rules: "japanese", Width: 9, Height: 9}, retryingStore{Store: h.db, between: func() {}}, pngRenderer{}, h.clock, nil)
	retried.SetNotifier("test", h.notes)
	before := len(h.notes.all())
	rep := retried.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main",
		EventID: "test:owed-1", Command: "play", Args: []string{"D4"}, Outbox: true})
	if rep.Error {
		t.Fatalf("play: %s", rep.Text)
	}
	if sent := len(h.notes.all()) - before; sent != 1 {
		t.Fatalf("%d direct messages to bob for one move, want 1", sent)
	}
}
