package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// mortal is a process's view of the shared store: once dead, every
// transaction fails, as for a process that was killed (its leases are
// neither renewed nor released).
type mortal struct {
	gobot.Store
	dead atomic.Bool
}

var errDead = errors.New("this process is dead")

func (m *mortal) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	if m.dead.Load() {
		return errDead
	}
	return m.Store.Update(ctx, fn)
}

func (m *mortal) View(ctx context.Context, fn func(gobot.Tx) error) error {
	if m.dead.Load() {
		return errDead
	}
	return m.Store.View(ctx, fn)
}

// process is one gobot process with its own view of the store, its own
// stand-in for Discord's REST API (so the test sees who answered) and its
// own bot.
type process struct {
	name   string
	store  *mortal
	api    *fakeDiscord
	a      *Adapter
	puts   int // registrations of the command seen
	cancel context.CancelFunc
	done   chan error
}

const (
	testShards = 4
	testTTL    = 1500 * time.Millisecond
)

func startProcess(t *testing.T, name string, store gobot.Store, gatewayURL string) *process {
	t.Helper()
	p := &process{name: name, store: &mortal{Store: store}, api: &fakeDiscord{shards: testShards}, done: make(chan error, 1)}
	api := httptest.NewServer(p.api)
	t.Cleanup(api.Close)
	log := slog.New(slog.DiscardHandler)
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, p.store, &render.Renderer{Width: 200}, nil, log)
	a, err := New(Config{Mode: "gateway", Token: "tok" + name, ApplicationID: "app", AutoShards: true,
		Hold: StoreLeases(p.store, name, testTTL), LeaseRound: 300 * time.Millisecond,
		APIURL: api.URL + "/api/v9", GatewayURL: gatewayURL}, bot, gobot.StoreState(p.store), log)
	if err != nil {
		t.Fatal(err)
	}
	p.a = a
	ctx, cancel := context.WithCancel(context.Background())
	p.cancel = cancel
	go func() { p.done <- a.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-p.done })
	return p
}

// guildInteraction is a /go games interaction from guild.
func guildInteraction(id string, guild uint64) []byte {
	return []byte(fmt.Sprintf(`{"id":%q,"application_id":"app","type":2,"token":"t-%s","channel_id":"c1","guild_id":"%d",%s,
		"data":{"id":"cmd","name":"go","type":1,"options":[{"name":"games","type":1,"options":[]}]}}`, id, id, guild, member("111", "alice")))
}

// answered returns the interaction IDs p's process answered (callbacks),
// with how often.
func (p *process) answered() map[string]int {
	out := map[string]int{}
	for _, c := range p.api.take() {
		if c.Method == "PUT" && c.Path == "/api/v9/applications/app/commands" {
			p.puts++
		}
		if rest, ok := strings.CutPrefix(c.Path, "/api/v9/interactions/"); ok && strings.HasSuffix(rest, "/callback") {
			out[strings.Split(rest, "/")[0]]++
		}
	}
	return out
}

// Two processes on one store split the shards Discord recommends, each
// guild's interactions reach exactly one of them, the command is
// registered once, and when one dies its shards move to the other.
func TestAutoShardsAcrossProcesses(t *testing.T) {
	t.Run("bbolt", func(t *testing.T) {
		db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		testAutoShards(t, db, db)
	})
	t.Run("postgres", func(t *testing.T) {
		dsn := pgtest.Fresh(t)
		var stores [2]gobot.Store
		for i := range stores {
			pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { pg.Close() })
			stores[i] = pg
		}
		testAutoShards(t, stores[0], stores[1])
	})
}

func testAutoShards(t *testing.T, storeA, storeB gobot.Store) {
	gw := newFakeGateway(t)
	gws := httptest.NewServer(gw)
	t.Cleanup(gws.Close)
	wsURL := "ws" + strings.TrimPrefix(gws.URL, "http")
	a := startProcess(t, "A", storeA, wsURL)
	b := startProcess(t, "B", storeB, wsURL)
	byToken := map[string]*process{"Bot tokA": a, "Bot tokB": b}

	// Both take shards, one per round, until all are held.
	waitFor(t, "every shard held", func() bool {
		for _, h := range gw.holders(testShards) {
			if h == "" {
				return false
			}
		}
		return true
	})
	held := map[string]int{}
	for _, h := range gw.holders(testShards) {
		held[h]++
	}
	if held["Bot tokA"] == 0 || held["Bot tokB"] == 0 {
		t.Fatalf("processes started together should share the shards: %v", gw.holders(testShards))
	}

	// Each guild's interaction is answered by the process that holds its
	// shard, once.
	round := func(tag string, want func(sentTo string) *process) {
		t.Helper()
		sent := map[string]*process{}
		for g := uint64(0); g < 2*testShards; g++ {
			id := fmt.Sprintf("%s-%d", tag, g)
			to := byToken[gw.send(guildInteraction(id, g<<22), g<<22, testShards)]
			if w := want(to.name); w != to {
				t.Fatalf("guild %d's interaction went to %s", g, to.name)
			}
			sent[id] = to
		}
		got := map[string]map[string]int{}
		waitFor(t, "every interaction answered", func() bool {
			for _, p := range []*process{a, b} {
				for id, n := range p.answered() {
					if got[id] == nil {
						got[id] = map[string]int{}
					}
					got[id][p.name] += n
				}
			}
			return len(got) >= len(sent)
		})
		for id, p := range sent {
			if len(got[id]) != 1 || got[id][p.name] != 1 {
				t.Errorf("interaction %s (sent to %s) answered %v, want once by %s", id, p.name, got[id], p.name)
			}
		}
	}
	round("first", func(to string) *process { return byToken["Bot tok"+to] })

	// Registration: once, by one of the two (the other waited for the
	// registration lease, then found the stored hash unchanged).
	if a.puts+b.puts != 1 {
		t.Errorf("the command was registered %d times (A %d, B %d), want once", a.puts+b.puts, a.puts, b.puts)
	}

	// B dies: it stops renewing and releases nothing; its shards move to A
	// once their leases expire.
	b.store.dead.Store(true)
	b.cancel()
	<-b.done
	b.done <- nil // for the cleanup
	died := time.Now()
	waitFor(t, "A holds every shard", func() bool {
		for _, h := range gw.holders(testShards) {
			if h != "Bot tokA" {
				return false
			}
		}
		return true
	})
	t.Logf("B's %d shards moved to A %v after B died (lease TTL %v)", held["Bot tokB"], time.Since(died).Round(10*time.Millisecond), testTTL)
	round("after", func(string) *process { return a })
}

// waitFor polls cond for up to 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting: %s", what)
}
