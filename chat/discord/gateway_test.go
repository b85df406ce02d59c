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

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// fakeGateway speaks enough of Discord's gateway: Hello, Identify, Ready,
// heartbeat acks; then it dispatches the interactions it is given.
type fakeGateway struct {
	t        *testing.T
	dispatch chan []byte
	identify chan map[string]any
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
	var id map[string]any
	if err := c.ReadJSON(&id); err != nil {
		return
	}
	g.identify <- id
	seq := 1
	write(map[string]any{"op": 0, "t": "READY", "s": seq, "d": map[string]any{
		"v": 9, "session_id": "s1", "user": map[string]any{"id": "999", "username": "gobot", "bot": true}, "guilds": []any{}}})
	go func() {
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
	for d := range g.dispatch {
		seq++
		var in map[string]any
		json.Unmarshal(d, &in)
		if err := write(map[string]any{"op": 0, "t": "INTERACTION_CREATE", "s": seq, "d": in}); err != nil {
			return
		}
	}
}

func TestGatewayEndToEnd(t *testing.T) {
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	defer api.Close()
	gw := &fakeGateway{t: t, dispatch: make(chan []byte, 4), identify: make(chan map[string]any, 1)}
	gws := httptest.NewServer(gw)
	defer gws.Close()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{Width: 300}, nil, slog.New(slog.DiscardHandler))
	a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", ShardID: 1, ShardCount: 2,
		APIURL: api.URL + "/api/v9/", GatewayURL: "ws" + strings.TrimPrefix(gws.URL, "http")}, bot, chat.StoreState(db), slog.New(slog.DiscardHandler))
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
	gw.dispatch <- challenge
	gw.dispatch <- challenge // delivered twice
	gw.dispatch <- e.command("333", "carol", "games", "")
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
	close(gw.dispatch)
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
