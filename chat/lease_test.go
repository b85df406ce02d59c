package chat

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// The generation of a lease grows with each term: a renewal keeps it, a
// takeover, a release and a retake after expiry each start a new one.
func TestLeaseTerms(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	now := h.clock.Now()
	take := func(holder string, at time.Time) gobot.Fence {
		t.Helper()
		f, ok, err := gobot.TakeLease(ctx, h.db, "work", holder, 10*time.Second, at)
		if err != nil || !ok {
			t.Fatalf("%s could not take the lease at %v: %v %v", holder, at.Sub(now), ok, err)
		}
		return f
	}
	a1 := take("A", now)
	if a1.Gen == 0 || a1.Holder != "A" || a1.Name != "work" {
		t.Fatalf("first term %+v", a1)
	}
	if a := take("A", now.Add(5*time.Second)); a != a1 {
		t.Fatalf("a renewal changed the term: %+v, then %+v", a1, a)
	}
	if _, ok, _ := gobot.TakeLease(ctx, h.db, "work", "B", 10*time.Second, now.Add(14*time.Second)); ok {
		t.Fatal("B took a lease that had not expired")
	}
	b := take("B", now.Add(16*time.Second))
	if b.Gen <= a1.Gen {
		t.Fatalf("a takeover kept the generation: %+v after %+v", b, a1)
	}
	if ok, err := gobot.RenewLease(ctx, h.db, a1, 10*time.Second, now.Add(17*time.Second)); ok || err != nil {
		t.Fatalf("A renewed a term that had ended: %v %v", ok, err)
	}
	if err := gobot.ReleaseLease(ctx, h.db, "work", "B"); err != nil {
		t.Fatal(err)
	}
	if h, _, _ := gobot.LeaseHolder(ctx, h.db, "work", now.Add(17*time.Second)); h != "" {
		t.Fatalf("a released lease is held by %q", h)
	}
	b2 := take("B", now.Add(18*time.Second))
	if b2.Gen <= b.Gen {
		t.Fatalf("taking a released lease again kept the term: %+v after %+v", b2, b)
	}
	b3 := take("B", now.Add(40*time.Second))
	if b3.Gen <= b2.Gen {
		t.Fatalf("taking a lapsed lease again kept the term: %+v after %+v", b3, b2)
	}
	if ok, err := gobot.RenewLease(ctx, h.db, b3, 10*time.Second, now.Add(60*time.Second)); !ok || err != nil {
		t.Fatalf("the holder could not renew its term after a pause nobody used: %v %v", ok, err)
	}
}

// A process paused past its lease (SIGSTOP) resumes after another took
// it over, with a request received and a reminder due: it applies
// nothing, answers nothing, claims nothing and stores no adapter state;
// the new holder then does all of it, once.
func TestStaleTermWritesNothing(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	ctx := context.Background()
	now := time.Now()
	oldTerm, ok, err := gobot.TakeLease(ctx, h.db, "matrix:sync:@bot:x", "old", 10*time.Second, now)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	oldCtx, stop := context.WithCancel(gobot.WithFence(ctx, oldTerm))
	defer stop()
	old := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	oldNotes := &recordingNotifier{}
	old.SetLeasedNotifier(oldCtx, "test", oldNotes)
	h.bot.SetNotifier("test", nil) // the harness's bot is the standby

	// Under its term the old holder works as usual.
	play := func(b *Bot, ctx context.Context, id gobot.EventID, point string) protocol.Reply {
		return b.Handle(ctx, protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: id,
			Command: "play", Args: []string{point}, Outbox: true})
	}
	if rep := play(old, oldCtx, "test:e1", "D4"); rep.Error {
		t.Fatalf("move under the holder's term: %s", rep.Text)
	}

	// Paused; the lease expires and the standby takes it.
	newTerm, ok, err := gobot.TakeLease(ctx, h.db, "matrix:sync:@bot:x", "new", 10*time.Second, now.Add(11*time.Second))
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	newCtx := gobot.WithFence(ctx, newTerm)
	h.bot.SetLeasedNotifier(newCtx, "test", h.notes)

	// Resumed before it notices: bob's move, the reminder, the sync
	// position.
	h.clock.Advance(23 * time.Hour)
	rep := old.Handle(oldCtx, protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", EventID: "test:e2",
		Command: "play", Args: []string{"E5"}, Outbox: true})
	if !rep.Duplicate {
		t.Fatalf("the old holder answered a move after losing the lease: %+v", rep)
	}
	if rep := old.Handle(oldCtx, protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", EventID: "test:e3",
		Command: "play", Args: []string{"Z99"}, Outbox: true}); !rep.Duplicate {
		t.Fatalf("the old holder answered a bad move after losing the lease: %+v", rep)
	}
	if err := old.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	err = gobot.StoreState(h.db).PutState(oldCtx, "matrix", map[string][]byte{"sync": []byte("old position")})
	if !errors.Is(err, gobot.ErrLeaseLost) {
		t.Fatalf("the old holder stored its sync position: %v", err)
	}
	if h.eventMarked("test:e2") {
		t.Fatal("the old holder marked an event it did not handle")
	}
	if match, _ := h.game(1); len(match.Record.Moves) != 1 || match.Reminded != 0 {
		t.Fatalf("after the old holder resumed: %d moves, reminded %d; want 1 and 0", len(match.Record.Moves), match.Reminded)
	}
	if n := len(oldNotes.all()); n != 0 {
		t.Fatalf("the old holder sent %d messages after losing the lease", n)
	}

	// The new holder sends the reminder and handles the same event, once.
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); match.Reminded == 0 {
		t.Fatal("the new holder did not send the reminder")
	}
	if rep := h.bot.Handle(newCtx, protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", EventID: "test:e2",
		Command: "play", Args: []string{"E5"}, Outbox: true}); rep.Error {
		t.Fatalf("the new holder's move: %s", rep.Text)
	}
	if err := gobot.StoreState(h.db).PutState(newCtx, "matrix", map[string][]byte{"sync": []byte("new position")}); err != nil {
		t.Fatal(err)
	}
	if match, _ := h.game(1); len(match.Record.Moves) != 2 {
		t.Fatalf("after the new holder: %d moves, want 2", len(match.Record.Moves))
	}
	if n := len(h.notes.all()); n != 1 {
		t.Fatalf("the new holder sent %d messages, want the reminder", n)
	}

	// The old holder's notifier goes when its work ends.
	stop()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		if !old.CanDeliver("test") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("a leased notifier outlived its term's context")
		}
	}
}

// HoldLease gives its work the term (for the fenced writes) and stops
// the work as soon as it finds it was paused past its lease, though
// nobody took the lease meanwhile: another process may have.
func TestHoldLeaseStopsWorkPausedPastLease(t *testing.T) {
	h := newHarness(t)
	var skew atomic.Int64
	now := func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	ttl := 300 * time.Millisecond
	got := make(chan gobot.Fence, 1)
	done := make(chan error, 1)
	go func() {
		done <- gobot.HoldLease(context.Background(), h.db, "work", "A", ttl, now, nil, func(ctx context.Context) error {
			f, _ := gobot.FenceOf(ctx)
			got <- f
			<-ctx.Done()
			return nil
		})
	}()
	f := <-got
	if f.Name != "work" || f.Holder != "A" || f.Gen == 0 {
		t.Fatalf("the work's term: %+v", f)
	}
	time.Sleep(ttl) // renewals go on
	select {
	case err := <-done:
		t.Fatalf("the work stopped while the lease was renewed: %v", err)
	default:
	}
	skew.Store(int64(2 * ttl)) // as if the process had been stopped that long
	select {
	case err := <-done:
		if !errors.Is(err, gobot.ErrLeaseLost) {
			t.Fatalf("HoldLease: %v, want ErrLeaseLost", err)
		}
	case <-time.After(10 * ttl):
		t.Fatal("the work went on after a pause past its lease")
	}
}
