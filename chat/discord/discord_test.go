package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image/png"
	"io"
	"log/slog"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// fakeDiscord stands in for discord.com's REST API (nothing here can
// reach the real one) and records what the adapter sent.
type fakeDiscord struct {
	mu     sync.Mutex
	calls  []call
	shards int // what GET /gateway/bot recommends (default 1)
	// dmGate, when set, holds every request that opens a DM channel
	// until it is closed: a slow DM.
	dmGate chan struct{}

	// What Discord refuses, enforced as Discord does. noBot: channels
	// gobot is no member of (a bot-token post or thread there is refused,
	// 403 / 50001). dmRefused: users who take no DM from the bot (403 /
	// 50007). issued: interaction tokens by when they were issued (a
	// webhook call after 15 minutes is refused, 401 / 50027; more than 5
	// follow-ups on one token, 400). now is the fake's clock (nil: the
	// system's). violations lists every refusal gobot should never have
	// provoked; dmRefusals counts the refused DMs (those are expected).
	noBot      map[string]bool
	dmRefused  map[string]bool
	issued     map[string]time.Time
	followups  map[string]int
	now        func() time.Time
	violations []string
	dmRefusals int
	// oauth, when set, answers the OAuth2 and Activity endpoints
	// (activity_test.go).
	oauth *fakeOAuth
	// globalCommands, when set, is what GET .../commands answers (the
	// application's commands as Discord has them).
	globalCommands string
	// files are attachments by path, served as Discord's CDN serves them
	// (attachment_test.go).
	files map[string]string
}

// issue records that Discord issued token at t.
func (f *fakeDiscord) issue(token string, t time.Time) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.issued == nil {
		f.issued = map[string]time.Time{}
	}
	f.issued[token] = t
}

// refuse answers a request Discord would refuse, and records it as a
// violation unless it is a refused DM.
func (f *fakeDiscord) refuse(w http.ResponseWriter, status, code int, why string) {
	if code == 50007 {
		f.dmRefusals++
	} else {
		f.violations = append(f.violations, why)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	fmt.Fprintf(w, `{"code":%d,"message":%q}`, code, why)
}

// check applies Discord's refusals to r (f.mu held); it reports whether
// r was refused.
func (f *fakeDiscord) check(w http.ResponseWriter, r *http.Request, body []byte) bool {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v9/"), "/")
	now := time.Now()
	if f.now != nil {
		now = f.now()
	}
	token := ""
	switch {
	case len(parts) >= 3 && parts[0] == "webhooks":
		token = parts[2]
	case len(parts) == 4 && parts[0] == "interactions" && parts[3] == "callback":
		token = parts[2]
	case len(parts) >= 3 && parts[0] == "applications" && parts[len(parts)-1] == "commands" && r.Method == http.MethodPut:
		return f.refuseCommands(w, body, len(parts) == 3)
	case len(parts) >= 3 && parts[0] == "channels" && parts[2] == "messages" && r.Method == http.MethodPost:
		ch := parts[1]
		if f.noBot[ch] {
			f.refuse(w, 403, 50001, "Missing Access: a bot-token post in "+ch)
			return true
		}
		if u, ok := strings.CutPrefix(ch, "dm"); ok && f.dmRefused[u] {
			f.refuse(w, 403, 50007, "Cannot send messages to this user")
			return true
		}
	}
	if token == "" {
		return false
	}
	at, ok := f.issued[token]
	if !ok {
		return false
	}
	if now.Sub(at) > 15*time.Minute {
		f.refuse(w, 401, 50027, "Invalid Webhook Token: "+token+" expired")
		return true
	}
	if parts[0] == "webhooks" && len(parts) == 3 && r.Method == http.MethodPost {
		if f.followups == nil {
			f.followups = map[string]int{}
		}
		if f.followups[token] >= 5 {
			f.refuse(w, 400, 40094, "a sixth follow-up on "+token)
			return true
		}
		f.followups[token]++
	}
	return false
}

type call struct {
	Method, Path string
	Body         []byte         // the body as sent
	JSON         map[string]any // the JSON body or multipart payload_json
	Files        map[string][]byte
}

func (f *fakeDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	gate := f.dmGate
	f.mu.Unlock()
	if gate != nil && strings.HasSuffix(r.URL.Path, "/users/@me/channels") {
		<-gate
	}
	c := call{Method: r.Method, Path: r.URL.Path, Files: map[string][]byte{}}
	c.Body, _ = io.ReadAll(r.Body)
	mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(c.Body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			data, _ := io.ReadAll(p)
			if p.FormName() == "payload_json" {
				json.Unmarshal(data, &c.JSON)
			} else {
				c.Files[p.FileName()] = data
			}
		}
	} else {
		json.Unmarshal(c.Body, &c.JSON)
	}
	f.mu.Lock()
	f.calls = append(f.calls, c)
	refused := f.check(w, r, c.Body)
	f.mu.Unlock()
	if refused {
		return
	}
	if f.oauth != nil && f.oauth.serve(w, r, c.Body) {
		return
	}
	if f.files != nil && strings.HasPrefix(r.URL.Path, "/attachments/") {
		body, ok := f.files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, body)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	switch {
	case strings.HasSuffix(r.URL.Path, "/gateway/bot"):
		fmt.Fprintf(w, `{"url":"wss://gateway.invalid","shards":%d,"session_start_limit":{"total":1000,"remaining":1000,"reset_after":0,"max_concurrency":1}}`, max(f.shards, 1))
	case strings.HasSuffix(r.URL.Path, "/commands") && r.Method == http.MethodGet && f.globalCommands != "":
		io.WriteString(w, f.globalCommands)
	case strings.HasSuffix(r.URL.Path, "/commands"):
		io.WriteString(w, "[]")
	case strings.HasSuffix(r.URL.Path, "/users/@me/channels"):
		fmt.Fprintf(w, `{"id":"dm%s","type":1}`, c.JSON["recipient_id"])
	case strings.HasSuffix(r.URL.Path, "/threads"):
		io.WriteString(w, `{"id":"thread1","type":11}`)
	default:
		io.WriteString(w, `{"id":"m1","channel_id":"c1"}`)
	}
}

func (f *fakeDiscord) take() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.calls
	f.calls = nil
	return out
}

type env struct {
	t      *testing.T
	a      *Adapter
	bot    *chat.Bot
	db     *storage.DB
	srv    *httptest.Server
	fake   *fakeDiscord
	priv   ed25519.PrivateKey
	seq    int
	client *http.Client
}

func newEnv(t *testing.T) *env {
	return newEnvWith(t, chat.Config{Rules: "japanese", Width: 9, Height: 9}, nil)
}

// newEnvWith is newEnv with the bot's config and clock (nil: the system's).
func newEnvWith(t *testing.T, cfg chat.Config, clock chat.TimeSource) *env {
	t.Helper()
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bot := chat.New(cfg, db, &render.Renderer{Width: 400}, clock, slog.New(slog.DiscardHandler))
	pub, priv, _ := ed25519.GenerateKey(nil)
	a, err := New(Config{Mode: "http", Token: "tok", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), APIURL: api.URL + "/api/v9/"}, bot, gobot.StoreState(db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	bot.SetNotifier(Platform, a)
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return &env{t: t, a: a, bot: bot, db: db, srv: srv, fake: fake, priv: priv, client: srv.Client()}
}

// send posts an interaction signed as Discord signs it and returns the
// status and the decoded response.
func (e *env) send(body []byte, ts time.Time, forge bool) (int, map[string]any) {
	e.t.Helper()
	if e.fake != nil {
		var in struct{ Token string }
		json.Unmarshal(body, &in)
		e.fake.issue(in.Token, ts)
	}
	stamp := strconv.FormatInt(ts.Unix(), 10)
	sig := ed25519.Sign(e.priv, append([]byte(stamp), body...))
	if forge {
		sig[0] ^= 0xff
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", stamp)
	resp, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	json.NewDecoder(resp.Body).Decode(&out)
	e.a.Wait()
	return resp.StatusCode, out
}

func member(id, name string) string {
	return fmt.Sprintf(`"member":{"user":{"id":%q,"username":%q},"permissions":"0"}`, id, name)
}

// command builds a /go <sub> interaction.
func (e *env) command(user, name, sub string, opts string) []byte {
	e.seq++
	return []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":2,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"id":"cmd","name":%q,"type":1,"options":[{"name":%q,"type":1,"options":[%s]}],
		"resolved":{"users":{"222":{"id":"222","username":"bob"}}}}}`, e.seq, e.seq, member(user, name), TopLevel(sub), sub, opts))
}

func (e *env) button(user, name, customID string) []byte {
	e.seq++
	return []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":3,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"custom_id":%q,"component_type":2}}`, e.seq, e.seq, member(user, name), customID))
}

func opt(name string, typ int, value string) string {
	return fmt.Sprintf(`{"name":%q,"type":%d,"value":%q}`, name, typ, value)
}

// buttons returns the custom IDs by label in a response or payload.
func buttons(data map[string]any) map[string]string {
	out := map[string]string{}
	rows, _ := data["components"].([]any)
	for _, r := range rows {
		comps, _ := r.(map[string]any)["components"].([]any)
		for _, c := range comps {
			m := c.(map[string]any)
			out[m["label"].(string)] = m["custom_id"].(string)
		}
	}
	return out
}

func TestHTTPInteractionsEndToEnd(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	// PING → PONG.
	if code, out := e.send([]byte(`{"id":"p","type":1,"application_id":"app","token":"t"}`), now, false); code != 200 || out["type"] != float64(1) {
		t.Fatalf("ping: %d %v", code, out)
	}
	// A challenge: no files, answered in the HTTP response itself.
	code, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	if code != 200 || out["type"] != float64(4) {
		t.Fatalf("challenge: %d %v", code, out)
	}
	data := out["data"].(map[string]any)
	if am := data["allowed_mentions"].(map[string]any); fmt.Sprint(am["users"]) != "[222]" {
		t.Fatalf("allowed mentions: %v", am)
	}
	accept := buttons(data)["Accept"]
	if accept == "" {
		t.Fatalf("no Accept button: %v", data)
	}
	// Bob presses Accept: the reply has the board image, so the response
	// is deferred and the original is edited with a multipart upload.
	code, out = e.send(e.button("222", "bob", accept), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("accept: %d %v", code, out)
	}
	calls := e.fake.take()
	edit := findCall(t, calls, "PATCH", "/api/v9/webhooks/app/tok2/messages/@original")
	checkPNG(t, edit)
	if len(buttons(edit.JSON)) != 3 {
		t.Fatalf("game buttons: %v", buttons(edit.JSON))
	}
	// Alice plays D4 (a typed option).
	code, out = e.send(e.command("111", "alice", "play", opt("point", 3, "D4")), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("play: %d %v", code, out)
	}
	edit = findCall(t, e.fake.take(), "PATCH", "/api/v9/webhooks/app/tok3/messages/@original")
	checkPNG(t, edit)
	if fmt.Sprint(edit.JSON["allowed_mentions"].(map[string]any)["users"]) != "[222]" {
		t.Fatalf("the player to move should be pinged: %v", edit.JSON["allowed_mentions"])
	}
	// An illegal move is ephemeral and immediate.
	code, out = e.send(e.command("222", "bob", "play", opt("point", 3, "D4")), now, false)
	data = out["data"].(map[string]any)
	if code != 200 || out["type"] != float64(4) || data["flags"] != float64(64) || !strings.Contains(data["content"].(string), "D4 is occupied") {
		t.Fatalf("illegal move: %d %v", code, out)
	}
	// Resign asks for confirmation first.
	resign := buttons(edit.JSON)["Resign"]
	if !strings.HasPrefix(resign, askFirstPrefix) {
		t.Fatalf("resign button %q", resign)
	}
	code, out = e.send(e.button("222", "bob", resign), now, false)
	data = out["data"].(map[string]any)
	confirm := buttons(data)["Yes, resign"]
	if data["flags"] != float64(64) || confirm == "" {
		t.Fatalf("confirmation: %v", out)
	}
	// The confirmation button carries a stale version now? No: the board
	// has not moved since; bob confirms.
	code, out = e.send(e.button("222", "bob", confirm), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("resign: %d %v", code, out)
	}
	edit = findCall(t, e.fake.take(), "PATCH", "")
	if !strings.Contains(fmt.Sprint(edit.JSON["embeds"]), "W+R") && !strings.Contains(fmt.Sprint(edit.JSON["embeds"]), "B+R") {
		t.Fatalf("result not shown: %v", edit.JSON["embeds"])
	}
}

func findCall(t *testing.T, calls []call, method, path string) call {
	t.Helper()
	for _, c := range calls {
		if c.Method == method && (path == "" || c.Path == path) {
			return c
		}
	}
	t.Fatalf("no %s %s among %d calls: %+v", method, path, len(calls), calls)
	return call{}
}

func checkPNG(t *testing.T, c call) {
	t.Helper()
	for name, data := range c.Files {
		if strings.HasSuffix(name, ".png") {
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if img.Bounds().Dx() < 300 {
				t.Fatalf("%s is %v", name, img.Bounds())
			}
			embeds := fmt.Sprint(c.JSON["embeds"])
			if !strings.Contains(embeds, "attachment://"+name) {
				t.Fatalf("the embed does not show %s: %s", name, embeds)
			}
			return
		}
	}
	t.Fatalf("no PNG attachment in %+v", c)
}

func gamesStored(t *testing.T, db *storage.DB) int {
	n := 0
	db.View(context.Background(), func(tx gobot.Tx) error {
		for id := gobot.ChallengeID(1); ; id++ {
			if _, err := tx.Challenge(id); err != nil {
				break
			}
			n++
		}
		return nil
	})
	return n
}

func TestBadRequestsChangeNothing(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	body := e.command("111", "alice", "challenge", opt("player", 6, "222"))
	for _, tc := range []struct {
		name string
		code int
		send func() int
	}{
		{"forged signature", 401, func() int { c, _ := e.send(body, now, true); return c }},
		{"stale timestamp", 401, func() int { c, _ := e.send(body, now.Add(-10*time.Minute), false); return c }},
		{"future timestamp", 401, func() int { c, _ := e.send(body, now.Add(10*time.Minute), false); return c }},
		{"malformed JSON", 400, func() int { c, _ := e.send([]byte(`{"type":2,`), now, false); return c }},
		{"oversized body", 413, func() int { c, _ := e.send(bytes.Repeat([]byte("x"), MaxBody+10), now, false); return c }},
	} {
		if got := tc.send(); got != tc.code {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.code)
		}
		if n := gamesStored(t, e.db); n != 0 {
			t.Fatalf("%s: %d challenges stored", tc.name, n)
		}
	}
	resp, _ := e.client.Get(e.srv.URL)
	if resp.StatusCode != 405 {
		t.Errorf("GET: %d", resp.StatusCode)
	}
	// An unknown subcommand gets a friendly ephemeral answer.
	_, out := e.send(e.command("111", "alice", "chalenge", ""), now, false)
	data := out["data"].(map[string]any)
	if data["flags"] != float64(64) || !strings.Contains(data["content"].(string), "Did you mean") {
		t.Fatalf("unknown command: %v", out)
	}
	// The same interaction delivered twice is applied once.
	e.send(body, now, false)
	_, out = e.send(body, now, false)
	if n := gamesStored(t, e.db); n != 1 {
		t.Fatalf("duplicate delivery stored %d challenges", n)
	}
	if !strings.Contains(fmt.Sprint(out), "already handled") {
		t.Fatalf("duplicate reply: %v", out)
	}
}

func TestApplicationCommandShape(t *testing.T) {
	db, _ := storage.Open(filepath.Join(t.TempDir(), "x.db"), storage.Options{})
	defer db.Close()
	bot := chat.New(chat.Config{}, db, nil, nil, nil)
	cmds := ApplicationCommands(bot.Commands())
	want := 1 // help is in both /go and /gobot
	for _, c := range bot.Commands() {
		want += max(1, len(c.Verbs)) // a command with verbs: one subcommand each, under its own command
	}
	if len(cmds) != 3 || cmds[0].Name != "go" || cmds[1].Name != "gobot" || cmds[2].Name != "tournament" || len(subcommands(cmds)) != want {
		t.Fatalf("%d commands, %d subcommands", len(cmds), len(subcommands(cmds)))
	}
	for _, sub := range subcommands(cmds) {
		if len(sub.Description) == 0 || len(sub.Description) > 100 {
			t.Errorf("%s: description length %d", sub.Name, len(sub.Description))
		}
		seenOptional := false
		for _, o := range sub.Options {
			if o.Name == "" || strings.ContainsAny(o.Name, "#@= ") {
				t.Errorf("%s: bad option name %q", sub.Name, o.Name)
			}
			if o.Required && seenOptional {
				t.Errorf("%s: required option %s after an optional one", sub.Name, o.Name)
			}
			seenOptional = seenOptional || !o.Required
			if o.Type == discordgo.ApplicationCommandOptionString && (o.MaxLength <= 0 || o.MaxLength > 300) {
				t.Errorf("%s.%s: max_length %d", sub.Name, o.Name, o.MaxLength)
			}
			if len(o.Choices) > 25 {
				t.Errorf("%s.%s: %d choices", sub.Name, o.Name, len(o.Choices))
			}
		}
	}
	// Registration happens once per definition.
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	defer api.Close()
	pub, _, _ := ed25519.GenerateKey(nil)
	a, err := New(Config{Mode: "http", Token: "t", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), GuildIDs: []string{"g1"}, APIURL: api.URL + "/api/v9"}, bot, gobot.StoreState(db), nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := a.Register(); err != nil {
			t.Fatal(err)
		}
	}
	calls := fake.take()
	if len(calls) != 1 || calls[0].Method != "PUT" || calls[0].Path != "/api/v9/applications/app/guilds/g1/commands" {
		t.Fatalf("registration calls: %+v", calls)
	}
}

// With threads on, accepting opens a thread off the reply, and the
// game's later replies are posted there.
func TestGameThreads(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.seq++
	admin := []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":2,"token":"tok%d","channel_id":"c1","guild_id":"g1",
		"member":{"user":{"id":"111","username":"alice"},"permissions":"32"},
		"data":{"id":"cmd","name":"gobot","type":1,"options":[{"name":"settings","type":1,"options":[{"name":"options","type":3,"value":"room threads=on"}]}]}}`, e.seq, e.seq))
	if code, out := e.send(admin, now, false); code != 200 || strings.Contains(fmt.Sprint(out), "Only room admins") {
		t.Fatalf("settings: %d %v", code, out)
	}
	_, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("color", 3, "black")), now, false)
	accept := buttons(out["data"].(map[string]any))["Accept"]
	e.fake.take()
	e.send(e.button("222", "bob", accept), now, false)
	findCall(t, e.fake.take(), "POST", "/api/v9/channels/c1/messages/m1/threads")
	// A move typed in the channel goes to the thread.
	code, out := e.send(e.command("111", "alice", "play", opt("point", 3, "E5")), now, false)
	if code != 200 || !strings.Contains(fmt.Sprint(out), "thread1") {
		t.Fatalf("play: %d %v", code, out)
	}
	post := findCall(t, e.fake.take(), "POST", "/api/v9/channels/thread1/messages")
	checkPNG(t, post)
	if n, _ := post.JSON["nonce"].(string); n == "" || post.JSON["enforce_nonce"] != true {
		t.Fatalf("a post in the game's thread carries no nonce: %v", post.JSON)
	}
}

// The caller's answer does not wait for the DM to the player to move:
// the DM goes out after it, and a slow one holds nothing up.
func TestDMAfterTheAnswer(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	e.send(e.command("222", "bob", "accept", ""), now, false)
	if err := e.db.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutPlayer(&gobot.Player{ID: "discord:222", Name: "bob", Notify: "dm"})
	}); err != nil {
		t.Fatal(err)
	}
	e.fake.take()
	gate := make(chan struct{})
	e.fake.mu.Lock()
	e.fake.dmGate = gate
	e.fake.mu.Unlock()

	body := e.command("111", "alice", "play", opt("point", 3, "D4"))
	stamp := strconv.FormatInt(now.Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(e.priv, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	answered := make(chan map[string]any, 1)
	go func() {
		resp, err := e.client.Do(req)
		if err != nil {
			answered <- nil
			return
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		answered <- out
	}()
	select {
	case out := <-answered:
		if out == nil || out["type"] != float64(5) {
			t.Fatalf("play: %v", out)
		}
	case <-time.After(20 * time.Second):
		close(gate)
		t.Fatal("the answer waited for the DM")
	}
	close(gate)
	e.a.Wait()
	calls := e.fake.take()
	edit, dm := -1, -1
	for i, c := range calls {
		switch {
		case c.Method == "PATCH" && strings.HasSuffix(c.Path, "/messages/@original"):
			edit = i
		case c.Method == "POST" && c.Path == "/api/v9/channels/dm222/messages":
			dm = i
		}
	}
	if edit < 0 || dm < 0 || dm < edit {
		t.Fatalf("the edit (call %d) and then bob's DM (call %d), in that order: %v", edit, dm, calls)
	}
}
