package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// fakeOAuth is discord.com's OAuth2 and Activity endpoints, enforced as
// Discord does: a code is exchanged once, with the application's
// client secret; /users/@me answers only a live access token; an
// activity instance is read only with the bot token.
type fakeOAuth struct {
	App, Secret, BotToken string

	mu        sync.Mutex
	codes     map[string]string   // code → Discord user ID, until exchanged
	tokens    map[string]string   // access token → user ID
	instances map[string]instance // instance ID → where and who
	exchanged []url.Values        // the forms POSTed to /oauth2/token
	n         int
}

type instance struct {
	App, Channel string
	Users        []string
}

// Code issues an authorization code for user, as Discord's authorize does.
func (f *fakeOAuth) Code(user string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.codes == nil {
		f.codes, f.tokens = map[string]string{}, map[string]string{}
	}
	f.n++
	code := fmt.Sprintf("code%d-%s", f.n, user)
	f.codes[code] = user
	return code
}

// Instance records an activity instance of app in channel with users.
func (f *fakeOAuth) Instance(id string, in instance) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.instances == nil {
		f.instances = map[string]instance{}
	}
	f.instances[id] = in
}

func (f *fakeOAuth) serve(w http.ResponseWriter, r *http.Request, body []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	path := strings.TrimPrefix(r.URL.Path, "/api/v9")
	refuse := func(status int, body string) bool {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
		return true
	}
	switch {
	case path == "/oauth2/token" && r.Method == http.MethodPost:
		form, _ := url.ParseQuery(string(body))
		f.exchanged = append(f.exchanged, form)
		if form.Get("client_id") != f.App || form.Get("client_secret") != f.Secret {
			return refuse(401, `{"error":"invalid_client"}`)
		}
		user, ok := f.codes[form.Get("code")]
		if form.Get("grant_type") != "authorization_code" || !ok {
			return refuse(400, `{"error":"invalid_grant","error_description":"Invalid \"code\" in request."}`)
		}
		delete(f.codes, form.Get("code")) // once
		f.n++
		token := fmt.Sprintf("tok%d-%s", f.n, user)
		f.tokens[token] = user
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":604800,"refresh_token":"r","scope":"identify"}`, token)
		return true
	case path == "/users/@me" && r.Method == http.MethodGet:
		user, ok := f.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		if !ok || !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
			return refuse(401, `{"message":"401: Unauthorized","code":0}`)
		}
		fmt.Fprintf(w, `{"id":%q,"username":"user%s","global_name":"User %s","discriminator":"0"}`, user, user, user)
		return true
	case strings.HasPrefix(path, "/applications/") && strings.Contains(path, "/activity-instances/"):
		parts := strings.Split(path, "/")
		if r.Header.Get("Authorization") != "Bot "+f.BotToken {
			return refuse(401, `{"message":"401: Unauthorized","code":0}`)
		}
		in, ok := f.instances[parts[len(parts)-1]]
		if !ok || parts[2] != in.App {
			return refuse(404, `{"message":"Unknown Application Instance","code":10000}`)
		}
		users, _ := json.Marshal(in.Users)
		fmt.Fprintf(w, `{"application_id":%q,"instance_id":%q,"launch_id":"1","location":{"id":"gc-1","kind":"gc","channel_id":%q,"guild_id":"g1"},"users":%s}`,
			in.App, parts[len(parts)-1], in.Channel, users)
		return true
	}
	return false
}

// linkTo is a web board's Linker for the adapter tests: links that say
// whose they are.
type linkTo struct{}

func (linkTo) Link(id gobot.GameID, u gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/%d-%s", id, u.Local()), time.Now().Add(time.Hour), nil
}

// ReviewLink makes linkTo a ReviewLinker: reviews need one.
func (linkTo) ReviewLink(id gobot.ReviewID, u gobot.UserID, _ uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/r/%d-%s", id, u.Local()), time.Now().Add(time.Hour), nil
}

// activityEnv is newEnv with the web board on and the Activity set as
// activity says.
func activityEnv(t *testing.T, activity bool) *env {
	t.Helper()
	fake := &fakeDiscord{oauth: &fakeOAuth{App: "app", Secret: "s3cret", BotToken: "tok"}}
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{Width: 300}, nil, slog.New(slog.DiscardHandler))
	bot.SetLinker(linkTo{})
	pub, priv, _ := ed25519.GenerateKey(nil)
	a, err := New(Config{Mode: "http", Token: "tok", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), APIURL: api.URL + "/api/v9/",
		Activity: activity, ClientSecret: "s3cret"}, bot, gobot.StoreState(db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	bot.SetNotifier(Platform, a)
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return &env{t: t, a: a, bot: bot, db: db, srv: srv, fake: fake, priv: priv, client: srv.Client()}
}

// openBoardButton starts a game between alice (111) and bob (222) and
// returns its "Open board" button.
func (e *env) openBoardButton() string {
	e.t.Helper()
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")), now, false)
	accept := buttons(out["data"].(map[string]any))["Accept"]
	e.send(e.button("222", "bob", accept), now, false)
	edit := findCall(e.t, e.fake.take(), "PATCH", "")
	open := buttons(edit.JSON)["Open board"]
	if open == "" {
		e.t.Fatalf("no Open board button: %v", buttons(edit.JSON))
	}
	return open
}

// sendRaw is send returning the response body as it came.
func (e *env) sendRaw(body []byte) (int, string) {
	e.t.Helper()
	var in struct{ Token string }
	json.Unmarshal(body, &in)
	now := time.Now()
	e.fake.issue(in.Token, now)
	stamp := fmt.Sprint(now.Unix())
	sig := ed25519.Sign(e.priv, append([]byte(stamp), body...))
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL, bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
	req.Header.Set("X-Signature-Timestamp", stamp)
	res, err := e.client.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	e.a.Wait()
	return res.StatusCode, string(raw)
}

// TestOpenBoardLaunchesActivity: with the Activity on, pressing a game's
// "Open board" (a signed HTTP interaction) answers LAUNCH_ACTIVITY, the
// JSON {"type":12} and nothing else; other buttons and /go web answer
// as before. With it off, the button answers with the presser's link.
func TestOpenBoardLaunchesActivity(t *testing.T) {
	e := activityEnv(t, true)
	open := e.openBoardButton()
	code, raw := e.sendRaw(e.button("333", "carol", open))
	if code != 200 || raw != `{"type":12}` {
		t.Fatalf("Open board with the Activity: %d %s, want {\"type\":12}", code, raw)
	}
	if calls := e.fake.take(); len(calls) != 0 {
		t.Errorf("launching the Activity called Discord: %v", calls)
	}
	// /go web still gives the link (a browser outside Discord).
	_, out := e.send(e.command("111", "alice", "web", ""), time.Now(), false)
	if data, _ := out["data"].(map[string]any); out["type"] != float64(4) || !strings.Contains(fmt.Sprint(data["embeds"], data["content"]), "https://go.example.org/l/1-111") {
		t.Fatalf("/go web with the Activity on: %v", out)
	}

	off := activityEnv(t, false)
	open = off.openBoardButton()
	_, out = off.send(off.button("111", "alice", open), time.Now(), false)
	data, _ := out["data"].(map[string]any)
	if out["type"] != float64(4) || data["flags"] != float64(64) || !strings.Contains(fmt.Sprint(data["embeds"], data["content"]), "https://go.example.org/l/1-111") {
		t.Fatalf("Open board without the Activity: want alice's link, ephemeral: %v", out)
	}
}

// TestOpenBoardLaunchesActivityGateway: the same over the gateway: the
// interaction callback's body is {"type":12} in the game's channel, the
// presser's link in another.
func TestOpenBoardLaunchesActivityGateway(t *testing.T) {
	e := activityEnv(t, true)
	open := e.openBoardButton()
	gw := newFakeGateway(t)
	gws := httptest.NewServer(gw)
	defer gws.Close()
	api := httptest.NewServer(e.fake)
	defer api.Close()
	a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", APIURL: api.URL + "/api/v9/",
		GatewayURL: "ws" + strings.TrimPrefix(gws.URL, "http"), Activity: true, ClientSecret: "s3cret"}, e.bot, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	defer func() { cancel(); <-done }()
	callback := func() string {
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			for _, c := range e.fake.take() {
				if strings.HasSuffix(c.Path, "/callback") {
					return strings.TrimSpace(string(c.Body))
				}
			}
		}
		t.Fatal("no interaction callback")
		return ""
	}
	gw.send(e.button("222", "bob", open), 1, 1)
	if got := callback(); got != `{"type":12}` {
		t.Fatalf("gateway callback: %s, want {\"type\":12}", got)
	}
	// In another channel the Activity would not show game #1: bob's link.
	gw.send(e.buttonIn("222", "bob", "c2", open), 1, 1)
	if got := callback(); !strings.HasPrefix(got, `{"type":4,`) || !strings.Contains(got, "https://go.example.org/l/1-222") {
		t.Fatalf("gateway callback in another channel: %s, want bob's link", got)
	}
}

// buttonIn is button pressed in channel (of guild g1; "" for a DM with
// the bot).
func (e *env) buttonIn(user, name, channel, customID string) []byte {
	e.seq++
	where := `"guild_id":"g1",` + member(user, name)
	if channel == "dm" {
		where = fmt.Sprintf(`"context":1,"user":{"id":%q,"username":%q}`, user, name)
	}
	return []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":3,"token":"tok%d","channel_id":%q,%s,
		"data":{"custom_id":%q,"component_type":2}}`, e.seq, e.seq, channel, where, customID))
}

// TestOpenBoardLaunchesOnlyWhereItShowsTheGame: the Activity opens the
// games of the channel it runs in, so Open board launches it only where
// that is the button's game. Pressed in a DM with the bot, in another
// channel, or by someone whose own game in the channel the Activity
// would open instead, it answers with the presser's private link.
func TestOpenBoardLaunchesOnlyWhereItShowsTheGame(t *testing.T) {
	e := activityEnv(t, true)
	open := e.openBoardButton() // game #1, alice and bob, channel c1
	now := time.Now()
	e.send(e.command("333", "carol", "challenge", opt("player", 6, "444")+","+opt("size", 3, "9")), now, false)
	e.fake.take()
	e.send(e.command("444", "dave", "accept", ""), now, false) // #2, carol and dave, c1
	if edit := findCall(t, e.fake.take(), "PATCH", ""); !strings.Contains(string(edit.Body), "#2") {
		t.Fatalf("dave's accept: %s", edit.Body)
	}
	for _, c := range []struct {
		user, name, channel string
		launch              bool
		link                string
	}{
		{"111", "alice", "c1", true, ""},
		{"555", "erin", "c1", true, ""}, // plays nothing there: watches
		{"111", "alice", "c2", false, "https://go.example.org/l/1-111"},
		{"111", "alice", "dm", false, "https://go.example.org/l/1-111"},
		{"333", "carol", "c1", false, "https://go.example.org/l/1-333"}, // the Activity would open her #2
	} {
		code, raw := e.sendRaw(e.buttonIn(c.user, c.name, c.channel, open))
		if c.launch {
			if code != 200 || raw != `{"type":12}` {
				t.Errorf("%s in %s: %d %s, want {\"type\":12}", c.name, c.channel, code, raw)
			}
			continue
		}
		var got struct {
			Type int
			Data struct {
				Content string
				Flags   int
				Embeds  []struct{ Description string }
			}
		}
		json.Unmarshal([]byte(raw), &got)
		if code != 200 || got.Type != 4 || got.Data.Flags != 64 || !strings.Contains(fmt.Sprint(got.Data), c.link) {
			t.Errorf("%s in %s: %d %s, want the private link %s", c.name, c.channel, code, raw, c.link)
		}
	}
	if calls := e.fake.take(); len(calls) != 0 {
		t.Errorf("answering Open board called Discord: %v", calls)
	}
}

// TestReviewOpenBoardLaunchesActivity: the answer to /go review carries
// an Open board button (reviews|r1|0); with the Activity on, pressing it
// in the review's channel answers LAUNCH_ACTIVITY, in a channel without
// an open review a refusal; with the Activity off, the presser's link.
func TestReviewOpenBoardLaunchesActivity(t *testing.T) {
	for _, on := range []bool{true, false} {
		e := activityEnv(t, on)
		_, out := e.send(e.command("111", "alice", "review", opt("size", 3, "9")), time.Now(), false)
		open := buttons(out["data"].(map[string]any))["Open board"]
		if open != "reviews|r1|0" {
			t.Fatalf("/go review's answer has no Open board: %v", out)
		}
		code, raw := e.sendRaw(e.button("333", "carol", open))
		if on && (code != 200 || raw != `{"type":12}`) {
			t.Errorf("Open board of a review with the Activity: %d %s, want {\"type\":12}", code, raw)
		}
		if !on && !strings.Contains(raw, "https://go.example.org/r/1-333") {
			t.Errorf("Open board of a review without the Activity: %d %s, want carol's link", code, raw)
		}
		if on {
			if _, raw := e.sendRaw(e.buttonIn("333", "carol", "c2", open)); !strings.Contains(raw, "No review is open") {
				t.Errorf("Open board of a review in another channel: %s", raw)
			}
		}
	}
}

// TestActivityNeedsSecret: the Activity without a client secret is a
// config error in plain words.
func TestActivityNeedsSecret(t *testing.T) {
	bot := chat.New(chat.Config{}, nil, nil, nil, slog.New(slog.DiscardHandler))
	_, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", Activity: true}, bot, nil, nil)
	if err == nil || !strings.Contains(err.Error(), "client_secret") {
		t.Fatalf("no client secret: %v", err)
	}
}

// TestActivitySignIn: the sign-in's calls to discord.com. A code from
// authorize is exchanged once with the client secret for a token that
// names its user; a reused or made-up code, a bad token and another
// application's instance are refused (ErrActivityRefused), and Discord
// out of reach is gobot.ErrUnavailable.
func TestActivitySignIn(t *testing.T) {
	e := activityEnv(t, true)
	o := e.fake.oauth
	ctx := context.Background()
	code := o.Code("111")
	token, err := e.a.ExchangeCode(ctx, code)
	if err != nil || token == "" {
		t.Fatalf("exchange: %q %v", token, err)
	}
	f := o.exchanged[0]
	if f.Get("client_secret") != "s3cret" || f.Get("client_id") != "app" || f.Get("grant_type") != "authorization_code" || f.Get("code") != code {
		t.Fatalf("the exchange sent %v", f)
	}
	if _, err := e.a.ExchangeCode(ctx, code); !errors.Is(err, ErrActivityRefused) {
		t.Errorf("a reused code: %v, want refused", err)
	}
	for _, forged := range []string{"code99-111", "", strings.Repeat("x", 300), "a/../../users/@me"} {
		if _, err := e.a.ExchangeCode(ctx, forged); !errors.Is(err, ErrActivityRefused) {
			t.Errorf("code %q: %v, want refused", forged, err)
		}
	}
	u, err := e.a.TokenUser(ctx, token)
	if err != nil || u.ID != "discord:111" || u.Name != "User 111" {
		t.Fatalf("/users/@me: %+v %v", u, err)
	}
	if _, err := e.a.TokenUser(ctx, "tok1-222"); !errors.Is(err, ErrActivityRefused) {
		t.Errorf("a made-up token: %v, want refused", err)
	}
	o.Instance("i-1-gc-c1", instance{App: "app", Channel: "777", Users: []string{"111", "222"}})
	o.Instance("i-2-gc-c1", instance{App: "other", Channel: "777", Users: []string{"111"}})
	room, users, err := e.a.ActivityInstance(ctx, "i-1-gc-c1")
	if err != nil || room != "discord:777" || fmt.Sprint(users) != "[discord:111 discord:222]" {
		t.Fatalf("instance: %q %v %v", room, users, err)
	}
	for _, id := range []string{"i-2-gc-c1", "i-3", "../../users/@me"} {
		if _, _, err := e.a.ActivityInstance(ctx, id); !errors.Is(err, ErrActivityRefused) {
			t.Errorf("instance %q: %v, want refused", id, err)
		}
	}
	// Discord gone: unavailable, not refused.
	e.a.setAPIBase("http://127.0.0.1:1/api/v9/")
	if _, err := e.a.ExchangeCode(ctx, o.Code("111")); !errors.Is(err, gobot.ErrUnavailable) {
		t.Errorf("Discord unreachable: %v, want ErrUnavailable", err)
	}
}

// TestRegisterKeepsEntryPoint: with Activities enabled, Discord has an
// Entry Point command (type 4) among the global commands and refuses a
// bulk overwrite without it: gobot's registration keeps it as it is.
func TestRegisterKeepsEntryPoint(t *testing.T) {
	e := activityEnv(t, true)
	e.fake.globalCommands = `[{"id":"9","application_id":"app","version":"1","type":1,"name":"go","description":"old"},
		{"id":"10","application_id":"app","version":"1","type":4,"name":"launch","description":"Launch gobot","handler":2,"integration_types":[0,1],"contexts":[0,1,2]}]`
	e.a.cfg.UserInstall = true
	if err := e.a.Register(); err != nil {
		t.Fatal(err)
	}
	puts := e.fake.find("PUT", "/applications/app/commands")
	if len(puts) != 1 {
		t.Fatalf("registrations: %v", puts)
	}
	var cmds []map[string]any
	if err := json.Unmarshal(puts[0].Body, &cmds); err != nil || len(cmds) != 4 {
		t.Fatalf("the overwrite: %s", puts[0].Body)
	}
	if cmds[0]["name"] != "go" || cmds[0]["description"] == "old" || cmds[1]["name"] != "gobot" || cmds[2]["name"] != "tournament" ||
		cmds[3]["type"] != float64(4) || cmds[3]["handler"] != float64(2) || cmds[3]["id"] != "10" {
		t.Fatalf("the overwrite must be the new /go, /gobot and /tournament and the entry point as it was: %s", puts[0].Body)
	}
}
