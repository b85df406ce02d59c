package web

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

type publisherFunc func(context.Context, []gobot.GameID)

func (f publisherFunc) Publish(ctx context.Context, g []gobot.GameID) { f(ctx, g) }

// pgProcess is one gobot process on the shared PostgreSQL database dsn,
// with its own store, bot, hub, listener and web server.
func pgProcess(t *testing.T, dsn string) *harness {
	t.Helper()
	pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	return buildHarness(t, pg, func(*Hub) Publisher { return publisherFunc(pg.PublishGames) },
		func(ctx context.Context, hub *Hub) { pg.ListenGames(ctx, hub.Changed) })
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
