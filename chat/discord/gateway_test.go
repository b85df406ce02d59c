package discord

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// fakeGateway speaks enough of Discord's gateway: Hello, Identify, Ready,
// heartbeat acks; then it dispatches the interactions it is given to the
// connection of the guild's shard, as Discord does. It records every
// connection and fails the test when two live connections claim one
// shard (Discord would then deliver a guild's events twice).
type fakeGateway struct {
	t        *testing.T
	identify chan map[string]any // each Identify, when not nil

	mu    sync.Mutex
	conns map[*gwConn]bool
}

// gwConn is one live gateway connection.
type gwConn struct {
	token        string // "Bot tok": who connected
	shard, count int
	out          chan []byte
	done         chan struct{}
}

func newFakeGateway(t *testing.T) *fakeGateway {
	return &fakeGateway{t: t, conns: map[*gwConn]bool{}}
}

func (g *fakeGateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{}
	c, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer c.Close()
	var wmu sync.Mutex // one writer at a time
	write := func(v any) error { wmu.Lock(); defer wmu.Unlock(); return c.WriteJSON(v) }
	write(map[string]any{"op": 10, "d": map[string]any{"heartbeat_interval": 45000}})
	var id struct {
		Op int `json:"op"`
		D  struct {
			Token string `json:"token"`
			Shard []int  `json:"shard"`
		} `json:"d"`
	}
	var raw map[string]any
	if err := c.ReadJSON(&raw); err != nil {
		return
	}
	b, _ := json.Marshal(raw)
	json.Unmarshal(b, &id)
	if g.identify != nil {
		g.identify <- raw
	}
	conn := &gwConn{token: id.D.Token, count: 1, out: make(chan []byte, 16), done: make(chan struct{})}
	if len(id.D.Shard) == 2 {
		conn.shard, conn.count = id.D.Shard[0], id.D.Shard[1]
	}
	g.mu.Lock()
	for o := range g.conns {
		if o.shard == conn.shard && o.count == conn.count {
			g.t.Errorf("shard %d/%d connected by %q while %q still holds it", conn.shard, conn.count, conn.token, o.token)
		}
	}
	g.conns[conn] = true
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		delete(g.conns, conn)
		g.mu.Unlock()
	}()
	seq := 1
	write(map[string]any{"op": 0, "t": "READY", "s": seq, "d": map[string]any{
		"v": 9, "session_id": "s1", "user": map[string]any{"id": "999", "username": "gobot", "bot": true}, "guilds": []any{}}})
	go func() {
		defer close(conn.done)
		for {
			var m map[string]any
			if err := c.ReadJSON(&m); err != nil {
				return
			}
			if m["op"] == float64(1) {
				write(map[string]any{"op": 11})
			}
		}
	}()
	for {
		select {
		case <-conn.done:
			return
		case d := <-conn.out:
			seq++
			var in map[string]any
			json.Unmarshal(d, &in)
			if err := write(map[string]any{"op": 0, "t": "INTERACTION_CREATE", "s": seq, "d": in}); err != nil {
				return
			}
		}
	}
}

// holders returns, per shard of count, the token of the connection
// holding it ("" for none).
func (g *fakeGateway) holders(count int) []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]string, count)
	for c := range g.conns {
		if c.count == count {
			out[c.shard] = c.token
		}
	}
	return out
}

// send dispatches interaction in to the connection of guild's shard
// (waiting for one, up to 10 s) and returns who it went to.
func (g *fakeGateway) send(in []byte, guild uint64, count int) string {
	g.t.Helper()
	shard := int((guild >> 22) % uint64(count))
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		g.mu.Lock()
		for c := range g.conns {
			if c.shard == shard && c.count == count {
				g.mu.Unlock()
				c.out <- in
				return c.token
			}
		}
		g.mu.Unlock()
	}
	g.t.Fatalf("no connection for shard %d/%d", shard, count)
	return ""
}

func TestGatewayEndToEnd(t *testing.T) {
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	defer api.Close()
	gw := newFakeGateway(t)
	gw.identify = make(chan map[string]any, 1)
	gws := httptest.NewServer(gw)
	defer gws.Close()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{Width: 300}, nil, slog.New(slog.DiscardHandler))
	a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", ShardID: 1, ShardCount: 2,
		APIURL: api.URL + "/api/v9/", GatewayURL: "ws" + strings.TrimPrefix(gws.URL, "http")}, bot, gobot.StoreState(db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	select {
	case id := <-gw.identify:
		if id["op"] != float64(2) || !strings.Contains(fmt.Sprint(id["d"]), "Bot tok") {
			t.Fatalf("identify: %v", id)
		}
		if shard := fmt.Sprint(id["d"].(map[string]any)["shard"]); shard != "[1 2]" {
			t.Fatalf("shard: %v", shard)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the bot never identified")
	}
	e := &env{t: t}
	challenge := e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9"))
	guild := uint64(1 << 22) // shard 1 of 2
	gw.send(challenge, guild, 2)
	gw.send(challenge, guild, 2) // delivered twice
	gw.send(e.command("333", "carol", "games", ""), guild, 2)
	var callbacks []call
	deadline := time.Now().Add(10 * time.Second)
	for len(callbacks) < 2 && time.Now().Before(deadline) {
		for _, c := range fake.take() {
			if strings.HasSuffix(c.Path, "/callback") {
				callbacks = append(callbacks, c)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	// discordgo handles events concurrently: give a second callback for
	// the duplicate the time to show up, if one were made.
	time.Sleep(300 * time.Millisecond)
	for _, c := range fake.take() {
		if strings.HasSuffix(c.Path, "/callback") {
			callbacks = append(callbacks, c)
		}
	}
	cancel()
	<-done
	if len(callbacks) != 2 {
		t.Fatalf("%d interaction callbacks, want 2 (the duplicate gets none): %v", len(callbacks), callbacks)
	}
	var first map[string]any
	for _, c := range callbacks {
		if d := c.JSON["data"].(map[string]any); buttons(d)["Accept"] != "" {
			first = d
		}
	}
	if first == nil || fmt.Sprint(first["allowed_mentions"].(map[string]any)["users"]) != "[222]" {
		t.Fatalf("challenge response: %v", callbacks)
	}
	if n := gamesStored(t, db); n != 1 {
		t.Fatalf("%d challenges stored, want 1", n)
	}
}
