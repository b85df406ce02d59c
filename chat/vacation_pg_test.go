package chat_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

type pgClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *pgClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *pgClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

type pgNotes struct {
	mu   sync.Mutex
	msgs []protocol.Message
}

func (n *pgNotes) Notify(ctx context.Context, m protocol.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, m)
	return nil
}

func (n *pgNotes) all() []protocol.Message {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]protocol.Message(nil), n.msgs...)
}

// Two bots on one PostgreSQL database tick together, again and again,
// while a vacation's reminder and then its end fall due: the player is
// reminded once, the vacation ends once, the opponent is told once, and
// the game's clock is resumed once.
func TestVacationEndsOnceOnPostgres(t *testing.T) {
	dsn := pgtest.Fresh(t)
	ctx := context.Background()
	clock := &pgClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	cfg := chat.Config{Rules: "japanese", Width: 9, Height: 9, Vacation: flow.VacationConfig{Start: 2 * 24 * time.Hour, PerWeek: 24 * time.Hour, Max: 30 * 24 * time.Hour}}
	var bots []*chat.Bot
	var notes []*pgNotes
	var stores []*postgres.Store
	for i := range 2 {
		pg, err := postgres.Open(ctx, dsn, postgres.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pg.Close() })
		c := cfg
		c.Holder = []string{"a", "b"}[i]
		b := chat.New(c, pg, nil, clock, nil)
		n := &pgNotes{}
		b.SetNotifier("test", n)
		bots, notes, stores = append(bots, b), append(notes, n), append(stores, pg)
	}
	seq := 0
	do := func(b *chat.Bot, user, line string) {
		t.Helper()
		seq++
		f := strings.Fields(line)
		rep := b.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
			EventID: gobot.EventID("test:" + strings.Repeat("e", seq)), Time: clock.Now(), Command: f[0], Args: f[1:]})
		if rep.Error {
			t.Fatalf("%s: %s: %s", user, line, rep.Text)
		}
	}
	do(bots[0], "alice", "challenge @bob black clock=3d")
	do(bots[1], "bob", "accept #1")
	do(bots[0], "alice", "play D4")
	do(bots[1], "bob", "vacation on")
	tickTogether := func() {
		t.Helper()
		for range 3 {
			var wg sync.WaitGroup
			for _, b := range bots {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := b.Tick(ctx); err != nil {
						t.Error(err)
					}
				}()
			}
			wg.Wait()
		}
	}
	count := func(substr string) (n int) {
		for _, ns := range notes {
			for _, m := range ns.all() {
				if strings.Contains(m.Reply.Text, substr) {
					n++
				}
			}
		}
		return n
	}
	clock.Advance(25 * time.Hour) // the reminder is due
	tickTogether()
	if n := count("Your vacation ends on"); n != 1 {
		t.Fatalf("%d reminders, want 1", n)
	}
	clock.Advance(24 * time.Hour) // the end is due
	tickTogether()
	if n, m := count("Your vacation days ran out"), count("is back from vacation"); n != 1 || m != 1 {
		t.Fatalf("%d end messages and %d notices to the opponent, want 1 and 1", n, m)
	}
	var match *gobot.Match
	var bob *gobot.Player
	if err := stores[0].View(ctx, func(tx gobot.Tx) (err error) {
		if match, err = tx.Match(1); err != nil {
			return err
		}
		bob, err = tx.Player("test:bob")
		return err
	}); err != nil {
		t.Fatal(err)
	}
	// The vacation ended an hour before this tick: the clock runs from its end.
	if match.Paused() || !match.Deadline.Equal(clock.Now().Add(3*24*time.Hour-time.Hour)) || bob.Vacation.On() || bob.Vacation.Left != 0 {
		t.Fatalf("after the end: paused %v, deadline in %v (want 3d from the vacation's end, an hour ago), bob on vacation %v with %v left",
			match.Paused(), match.Deadline.Sub(clock.Now()), bob.Vacation.On(), bob.Vacation.Left)
	}
}
