package web

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type statesFunc func(context.Context, []GameState)

func (f statesFunc) PublishStates(ctx context.Context, s []GameState) { f(ctx, s) }

// pgProcess is one gobot process on the shared PostgreSQL database dsn,
// with its own store, bot, hub, listener and web server.
func pgProcess(t *testing.T, dsn string) *harness {
	t.Helper()
	pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return pgProcessOn(t, pg, pg)
}

// pgProcessOn is pgProcess whose bot uses store, a wrapper of pg.
func pgProcessOn(t *testing.T, store gobot.Store, pg *postgres.Store) *harness {
	t.Helper()
	return buildHarness(t, store, func(h *Hub) Publisher {
		return h.Carrying(statesFunc(func(ctx context.Context, states []GameState) {
			out := make([]postgres.GameState, len(states))
			for i, st := range states {
				out[i] = postgres.GameState(st)
			}
			pg.PublishStates(ctx, out)
		}))
	},
		func(ctx context.Context, h *harness) {
			// As cmd/gobot wires it: the boards open on each process are shared.
			go h.hub.Share(ctx, func(ctx context.Context, ps []Presence) {
				out := make([]postgres.Presence, len(ps))
				for i, p := range ps {
					out[i] = postgres.Presence(p)
				}
				pg.PublishPresence(ctx, out)
			}, h.now.Now)
			pg.Listen(ctx, postgres.Changes{Games: h.hub.Changed, States: func(st postgres.GameState) { h.hub.HeardState(st.Game, st.V, st.JSON) }, Presence: func(p postgres.Presence) { h.hub.Heard(Presence(p)) }})
		})
}

// Issue 43: who is away counts the boards open on every process. Bob's
// board open on process A keeps him present on B, where his other board
// closed; once his board on A closes too, B shows him away 30 s later;
// and a process that stops telling (gone) counts as closed.
func TestAwayAcrossProcesses(t *testing.T) {
	dsn := pgtest.Fresh(t)
	a := pgProcess(t, dsn)
	b := pgProcess(t, dsn)
	const id = gobot.GameID(7)
	heard := func(what string, h *harness, ok func(s *seen) bool) {
		t.Helper()
		for end := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			h.hub.mu.Lock() // ok reads the seen's map: under the Hub's lock
			done := ok(&h.hub.presenceOf(id).by[game.White])
			h.hub.mu.Unlock()
			if done {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: not heard in 30 s", what)
			}
		}
	}
	// Share is running once the hubs have a process name.
	for _, h := range []*harness{a, b} {
		for end := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			h.hub.mu.Lock()
			ready := h.hub.process != ""
			h.hub.mu.Unlock()
			if ready {
				break
			}
			if time.Now().After(end) {
				t.Fatal("the hubs do not share")
			}
		}
	}
	// And each hears the other: a game's change published by one reaches
	// the other's hub (its listener is on).
	for i, pair := range [][2]*harness{{a, b}, {b, a}} {
		from, to := pair[0], pair[1]
		probe := gobot.GameID(900 + i)
		for end := time.Now().Add(30 * time.Second); to.hub.generation(probe) == 0; time.Sleep(20 * time.Millisecond) {
			from.db.(*postgres.Store).PublishGames(context.Background(), []gobot.GameID{probe})
			if time.Now().After(end) {
				t.Fatal("the processes do not hear each other")
			}
		}
	}
	a.hub.opened(id, game.White, a.now.Now())
	heard("bob's board open on A", b, func(s *seen) bool { return len(s.remote) == 1 })
	b.hub.opened(id, game.White, b.now.Now())
	b.hub.closed(id, game.White, b.now.Now(), b.now.Now)
	b.now.Advance(AwayAfter + time.Second)
	if away, _ := b.hub.away(id, b.now.Now()); len(away) != 0 {
		t.Fatalf("B shows %v away while bob's board is open on A", away)
	}
	a.hub.closed(id, game.White, a.now.Now(), a.now.Now)
	heard("bob's board closed on A", b, func(s *seen) bool { return len(s.remote) == 0 })
	if away, _ := b.hub.away(id, b.now.Now()); len(away) != 0 {
		t.Fatalf("B shows %v away at once", away)
	}
	b.now.Advance(AwayAfter)
	if away, _ := b.hub.away(id, b.now.Now()); !slices.Equal(away, []string{"white"}) {
		t.Fatalf("B shows %v away 30 s after bob's last board closed, want white", away)
	}

	// A board on a process that stops telling counts as closed once
	// presenceExpire passed unheard.
	a.hub.opened(id, game.White, a.now.Now())
	heard("bob's board open on A again", b, func(s *seen) bool { return len(s.remote) == 1 })
	if away, _ := b.hub.away(id, b.now.Now()); len(away) != 0 {
		t.Fatalf("B shows %v away once bob's board is open on A again", away)
	}
	b.now.Advance(presenceExpire)
	b.hub.refresh(b.now.Now())
	b.now.Advance(AwayAfter)
	if away, _ := b.hub.away(id, b.now.Now()); !slices.Equal(away, []string{"white"}) {
		t.Fatalf("B shows %v away after A went silent, want white", away)
	}
}

// TestBrowserTwoProcesses: on PostgreSQL, a page served by process B sees
// a move clicked on a page of process A, and the other way round; a
// link minted by A opens on B (the secret is shared, no sticky sessions).
func TestBrowserTwoProcesses(t *testing.T) {
	dsn := pgtest.Fresh(t)
	a := pgProcess(t, dsn)
	b := pgProcess(t, dsn)
	browser := startBrowser(t)
	id := a.newGame()
	alice, bob := newTab(t, a, browser, "alice"), newTab(t, b, browser, "bob")
	alice.open(a.link(id, "alice", false))
	link := a.link(id, "bob", false)
	bob.open(b.ts.URL + link[len(a.ts.URL):]) // A's link, opened on B
	var lat []time.Duration
	for i, p := range []string{"E5", "C3", "G7", "C7", "G3", "E3"} {
		by, other, color := alice, bob, "black"
		if i%2 == 1 {
			by, other, color = bob, alice, "white"
		}
		by.play(p)
		other.waitStone(p, color)
		ms := eval[int](other, "Number(document.body.dataset.updatedAt)") - eval[int](by, "Number(document.body.dataset.clickedAt)")
		lat = append(lat, time.Duration(ms)*time.Millisecond)
	}
	// A typed move on A reaches the page on B.
	if r := a.cmd("alice", "play", "J9"); r.Error {
		t.Fatal(r.Text)
	}
	bob.waitStone("J9", "black")
	slices.Sort(lat)
	t.Logf("click on process A → page on process B updated (PostgreSQL): p50 %v, max %v over %d moves", lat[len(lat)/2], lat[len(lat)-1], len(lat))
}
