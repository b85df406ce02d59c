package web

import (
	"context"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// readCounter counts the games read by read transactions (View): what a
// page's state is built from after a change.
type readCounter struct {
	gobot.Store
	reads atomic.Int64
}

func (s *readCounter) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return s.Store.View(ctx, func(tx gobot.Tx) error { return fn(countingTx{tx, &s.reads}) })
}

type countingTx struct {
	gobot.Tx
	n *atomic.Int64
}

func (t countingTx) Match(id gobot.GameID) (*gobot.Match, error) {
	t.n.Add(1)
	return t.Tx.Match(id)
}

// Issue 47: a click's answer and the live pages share one read of the
// game after the change; the answer does not read it again beside them
// (two reads and two builds at once, on the commit's heels, slowed the
// opponent's event).
func TestClickReadsOnce(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	store := &readCounter{Store: db}
	h := buildHarness(t, store, nil, nil)
	id := h.newGame()
	alice, bob := h.browser(), h.browser()
	alice.open(h.link(id, "alice", false), id)
	bob.open(h.link(id, "bob", false), id)
	ev := bob.events("")
	v0 := h.version(id)
	if got, _ := ev.next(t); got != itoa(v0) {
		t.Fatalf("first event %s, want %d", got, v0)
	}
	before := store.reads.Load()
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("play E5: %d %q", code, msg)
	}
	if got, data := ev.next(t); got != itoa(v0+1) || !strings.Contains(data, `data-point=\"E5\" data-stone=\"black\"`) {
		t.Fatalf("bob's event after E5: %s %.100s", got, data)
	}
	if n := store.reads.Load() - before; n != 1 {
		t.Errorf("the game was read %d times for the click's answer and the live page, want once", n)
	}
}

// Issue 47: on PostgreSQL a change carries its game's page state to the
// other processes (the NOTIFY's payload): a page on process B follows a
// click on process A without B reading the game, and B's clicks still
// work from the state it heard. A state too large for a payload goes as
// the game's ID, and B reads the game.
func TestCarriedState(t *testing.T) {
	dsn := pgtest.Fresh(t)
	a := pgProcess(t, dsn)
	pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	bstore := &readCounter{Store: pg}
	b := pgProcessOn(t, bstore, pg)
	id := a.newGame()
	alice, bob := a.browser(), b.browser()
	alice.open(a.link(id, "alice", false), id)
	link := a.link(id, "bob", false)
	bob.open(b.ts.URL+link[len(a.ts.URL):], id)
	ev, aev := bob.events(""), alice.events("")
	v0 := a.version(id)
	if got, _ := ev.next(t); got != itoa(v0) {
		t.Fatalf("first event %s, want %d", got, v0)
	}
	if got, _ := aev.next(t); got != itoa(v0) {
		t.Fatalf("alice's first event %s, want %d", got, v0)
	}
	before := bstore.reads.Load()
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("play E5 on A: %d %q", code, msg)
	}
	if got, _ := aev.next(t); got != itoa(v0+1) {
		t.Fatalf("alice's event on A after her E5: %s", got)
	}
	got, data := ev.next(t)
	if got != itoa(v0+1) || !strings.Contains(data, `data-point=\"E5\" data-stone=\"black\"`) {
		t.Fatalf("bob's event on B after E5 on A: %s %.100s", got, data)
	}
	if n := bstore.reads.Load() - before; n != 0 {
		t.Errorf("B read the game %d times to show a change A carried, want none", n)
	}
	// A click on B works from the heard state, with no read of the game
	// beside the router's transaction, and A's page follows.
	before = bstore.reads.Load()
	if code, msg := bob.post("play", "D5", "click-d5-0001"); code != 200 || msg != "" {
		t.Fatalf("play D5 on B: %d %q", code, msg)
	}
	if got, data := aev.next(t); got != itoa(v0+2) || !strings.Contains(data, `data-point=\"D5\" data-stone=\"white\"`) {
		t.Fatalf("alice's event on A after D5 on B: %s %.100s", got, data)
	}
	if got, _ := ev.next(t); got != itoa(v0+2) {
		t.Fatalf("bob's event on B after his D5: %s", got)
	}
	if n := bstore.reads.Load() - before; n != 0 {
		t.Errorf("B read the game %d times for a click and its answer, want none (the router's transaction reads it)", n)
	}
	// The page drawn whole on B (a read) shows what the stream sent.
	_, page := bob.get(b.ts.URL + gamePath(id))
	if !strings.Contains(page, `data-point="E5" data-stone="black"`) || !strings.Contains(page, `data-point="D5" data-stone="white"`) {
		t.Errorf("B's page lacks E5 or D5")
	}
	// A change made where the game has no page open (a typed move on A,
	// once alice's page is closed) is not drawn there: it goes as the
	// ID, and B reads the game.
	id2 := a.newGame()
	bob2 := b.browser()
	bob2.open(b.ts.URL+a.link(id2, "bob", false)[len(a.ts.URL):], id2)
	ev2 := bob2.events("")
	v2 := a.version(id2)
	if got, _ := ev2.next(t); got != itoa(v2) {
		t.Fatalf("game %d's first event %s, want %d", id2, got, v2)
	}
	before = bstore.reads.Load()
	if r := a.cmd("alice", "play", "C3", "#"+itoa(uint64(id2))); r.Error {
		t.Fatal(r.Text)
	}
	if got, data := ev2.next(t); got != itoa(v2+1) || !strings.Contains(data, `data-point=\"C3\" data-stone=\"black\"`) {
		t.Fatalf("bob's event on B after a typed C3 on A: %s %.100s", got, data)
	}
	if n := bstore.reads.Load() - before; n != 1 {
		t.Errorf("B read game %d %d times after a change from a process with no page of it, want once", id2, n)
	}
}
