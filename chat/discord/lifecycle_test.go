package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// slowBot holds each command until the test lets it go.
type slowBot struct {
	*chat.Bot
	entered chan struct{}
	release chan struct{}
}

func (s *slowBot) Respond(ctx context.Context, r protocol.Request) (protocol.Reply, func(context.Context)) {
	s.entered <- struct{}{}
	<-s.release
	return s.Bot.Respond(ctx, r)
}

// A command in flight when the adapter is told to stop is answered, and
// stored, before Run returns (after which the store may close).
func TestShutdownWaitsForCommandsInFlight(t *testing.T) {
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	defer api.Close()
	gw := newFakeGateway(t)
	gws := httptest.NewServer(gw)
	defer gws.Close()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	log := slog.New(slog.DiscardHandler)
	bot := &slowBot{Bot: chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{Width: 200}, nil, log),
		entered: make(chan struct{}, 1), release: make(chan struct{})}
	a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", APIURL: api.URL + "/api/v9/",
		GatewayURL: "ws" + strings.TrimPrefix(gws.URL, "http")}, bot, gobot.StoreState(db), log)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	e := &env{t: t}
	gw.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")), 0, 1)
	select {
	case <-bot.entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the command never reached the bot")
	}
	cancel()
	select {
	case err := <-done:
		close(bot.release)
		t.Fatalf("Run returned (%v) with a command in flight", err)
	case <-time.After(300 * time.Millisecond):
	}
	close(bot.release)
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	// Answered and stored by the time Run returned.
	n := 0
	for _, c := range fake.take() {
		if strings.HasSuffix(c.Path, "/callback") {
			n++
			if buttons(c.JSON["data"].(map[string]any))["Accept"] == "" {
				t.Errorf("the answer is not the challenge: %v", c.JSON)
			}
		}
	}
	if n != 1 {
		t.Fatalf("%d answers, want 1", n)
	}
	if n := gamesStored(t, db); n != 1 {
		t.Fatalf("%d challenges stored, want 1", n)
	}
}

// api_url moves every REST call of this adapter, and only of this one:
// discordgo's endpoint globals stay Discord's.
func TestAPIBaseIsPerAdapter(t *testing.T) {
	before := []string{discordgo.EndpointAPI, discordgo.EndpointVoice, discordgo.EndpointNitroStickersPacks, discordgo.EndpointApplications}
	fakes := [2]*fakeDiscord{{}, {}}
	var adapters [2]*Adapter
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bot := chat.New(chat.Config{}, db, nil, nil, slog.New(slog.DiscardHandler))
	for i, base := range []string{"/api/v9", "/compat/api/"} {
		srv := httptest.NewServer(fakes[i])
		defer srv.Close()
		pub, _, _ := ed25519.GenerateKey(nil)
		adapters[i], err = New(Config{Mode: "http", Token: "t", ApplicationID: "app", PublicKey: hex.EncodeToString(pub),
			APIURL: srv.URL + base}, bot, nil, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
	}
	after := []string{discordgo.EndpointAPI, discordgo.EndpointVoice, discordgo.EndpointNitroStickersPacks, discordgo.EndpointApplications}
	for i := range before {
		if before[i] != after[i] {
			t.Errorf("discordgo endpoint changed: %q -> %q", before[i], after[i])
		}
	}
	for i, a := range adapters {
		if err := a.Register(); err != nil {
			t.Fatal(err)
		}
		want := []string{"/api/v9/applications/app/commands", "/compat/api/applications/app/commands"}[i]
		calls := fakes[i].take() // the global commands read (for the Activity's entry point), then the overwrite
		if len(calls) != 2 || calls[0].Path != want || calls[1].Path != want || calls[1].Method != "PUT" {
			t.Errorf("adapter %d: calls %+v, want a GET and a PUT to %s", i, calls, want)
		}
	}
	for _, bad := range []string{"discord.example/api", "ftp://x/api", "http:///api"} {
		pub, _, _ := ed25519.GenerateKey(nil)
		_, err := New(Config{Mode: "http", Token: "t", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), APIURL: bad}, bot, nil, nil)
		if err == nil || !strings.Contains(err.Error(), "api_url") {
			t.Errorf("api_url %q: %v", bad, err)
		}
	}
}

// The transport moves the path (escaped parts kept escaped) and the
// query to the configured base, answers GET /gateway with the gateway
// URL, and leaves other hosts alone.
func TestTransportRewritesDiscordURLs(t *testing.T) {
	var got []string
	next := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		got = append(got, r.URL.String())
		return &http.Response{StatusCode: 204, Body: http.NoBody, Request: r}, nil
	})
	tr := &transport{gateway: "ws://gw.test/", next: next}
	base, err := parseAPIBase("http://127.0.0.1:9/compat/api/v9")
	if err != nil {
		t.Fatal(err)
	}
	tr.api.Store(base)
	for _, u := range []string{
		discordgo.EndpointMessageReaction("c1", "m1", url.QueryEscape("🙂"), "@me"),
		discordgo.EndpointChannelMessages("c1") + "?limit=5",
		"https://cdn.discordapp.com/avatars/1/a.png",
	} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		if _, err := tr.RoundTrip(req); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{
		"http://127.0.0.1:9/compat/api/v9/channels/c1/messages/m1/reactions/%F0%9F%99%82/@me",
		"http://127.0.0.1:9/compat/api/v9/channels/c1/messages?limit=5",
		"https://cdn.discordapp.com/avatars/1/a.png",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("sent to\n%v\nwant\n%v", got, want)
	}
	req, _ := http.NewRequest(http.MethodGet, discordgo.EndpointGateway, nil)
	resp, err := tr.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]string
	json.NewDecoder(resp.Body).Decode(&body)
	if body["url"] != "ws://gw.test/" {
		t.Errorf("GET /gateway: %v", body)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
