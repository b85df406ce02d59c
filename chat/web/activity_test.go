package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/discord"
	"github.com/gobotgo/gobot/chat/protocol"
)

// discordCom stands in for discord.com's OAuth2 and Activity endpoints,
// enforcing what Discord does: a code is exchanged once, with the client
// secret; /users/@me answers a live access token; an instance is read
// with the bot token.
type discordCom struct {
	mu        sync.Mutex
	codes     map[string]string // code → user ID, until exchanged
	tokens    map[string]string // access token → user ID
	instances map[string]discordInstance
	exchanges int // POSTs to /oauth2/token
	n         int
}

type discordInstance struct {
	channel string
	users   []string
}

func (d *discordCom) code(user string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n++
	c := fmt.Sprintf("c%d-%s", d.n, user)
	d.codes[c] = user
	return c
}

func (d *discordCom) instance(id, channel string, users ...string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.instances[id] = discordInstance{channel, users}
}

func (d *discordCom) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.mu.Lock()
	defer d.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	path := strings.TrimPrefix(r.URL.Path, "/api/v9")
	switch {
	case path == "/oauth2/token":
		d.exchanges++
		r.ParseForm()
		user, ok := d.codes[r.PostForm.Get("code")]
		if r.PostForm.Get("client_secret") != "activity-secret" || r.PostForm.Get("client_id") != "app" || !ok {
			w.WriteHeader(400)
			io.WriteString(w, `{"error":"invalid_grant"}`)
			return
		}
		delete(d.codes, r.PostForm.Get("code"))
		d.n++
		tok := fmt.Sprintf("t%d-%s", d.n, user)
		d.tokens[tok] = user
		fmt.Fprintf(w, `{"access_token":%q,"token_type":"Bearer","expires_in":604800,"scope":"identify"}`, tok)
	case path == "/users/@me":
		user, ok := d.tokens[strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")]
		if !ok {
			w.WriteHeader(401)
			io.WriteString(w, `{"message":"401: Unauthorized","code":0}`)
			return
		}
		fmt.Fprintf(w, `{"id":%q,"username":"u%s","discriminator":"0"}`, user, user)
	case strings.HasPrefix(path, "/applications/app/activity-instances/") && r.Header.Get("Authorization") == "Bot bot-token":
		id := strings.TrimPrefix(path, "/applications/app/activity-instances/")
		in, ok := d.instances[id]
		if !ok {
			w.WriteHeader(404)
			io.WriteString(w, `{"message":"Unknown Application Instance","code":10000}`)
			return
		}
		users, _ := json.Marshal(in.users)
		fmt.Fprintf(w, `{"application_id":"app","instance_id":%q,"location":{"id":"gc","kind":"gc","channel_id":%q},"users":%s}`, id, in.channel, users)
	default:
		w.WriteHeader(404)
		io.WriteString(w, `{"message":"404: Not Found","code":0}`)
	}
}

// activityHarness is the harness's bot with a second web server whose
// Activity signs in through the real Discord adapter against
// discordCom.
type activityHarness struct {
	*harness
	srv     *Server
	ts      *httptest.Server
	discord *discordCom
	room    gobot.RoomID
	posts   *recorder         // what the bot posts in Discord
	proofs  map[string]string // access token → its proof (signIn)
}

func newActivityHarness(t *testing.T) *activityHarness {
	t.Helper()
	return newActivityHarnessKey(t, "")
}

// newActivityHarnessKey is newActivityHarness with the application's
// public key (hex; "": none), which checks requests Discord's proxy
// signed.
func newActivityHarnessKey(t *testing.T, publicKey string) *activityHarness {
	t.Helper()
	h := newHarness(t)
	dc := &discordCom{codes: map[string]string{}, tokens: map[string]string{}, instances: map[string]discordInstance{}}
	api := httptest.NewServer(dc)
	t.Cleanup(api.Close)
	a, err := discord.New(discord.Config{Mode: "gateway", Token: "bot-token", ApplicationID: "app", APIURL: api.URL + "/api/v9/",
		Activity: true, ClientSecret: "activity-secret", PublicKey: publicKey}, h.bot, nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ah := &activityHarness{harness: h, discord: dc, room: "discord:777", posts: &recorder{}, proofs: map[string]string{}}
	h.bot.SetNotifier("discord", ah.posts)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ah.srv, err = New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: "http://" + ln.Addr().String(), Now: h.now.Now, Activity: a})
	if err != nil {
		t.Fatal(err)
	}
	ah.ts = &httptest.Server{Listener: ln, Config: &http.Server{Handler: ah.srv.Handler()}}
	ah.ts.Start()
	t.Cleanup(func() {
		ah.ts.CloseClientConnections()
		ah.ts.Close()
		// This server's answered clicks send their messages apart, as
		// the harness's own do: done before the database is checked.
		ah.srv.Wait(context.Background())
	})
	return ah
}

// discordCmd runs a command as Discord user id in the harness's channel.
func (ah *activityHarness) discordCmd(user, command string, args ...string) protocol.Reply {
	ah.t.Helper()
	return ah.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: gobot.UserID("discord:" + user), Name: "u" + user},
		Room: ah.room, Command: command, Args: args, Community: "discord:guild:g1"})
}

// discordGame starts a 9x9 game in the channel, black against white.
func (ah *activityHarness) discordGame(black, white string) gobot.GameID {
	ah.t.Helper()
	if r := ah.discordCmd(black, "challenge", "@discord:"+white, "9", "black"); r.Error {
		ah.t.Fatal(r.Text)
	}
	r := ah.discordCmd(white, "accept")
	if r.Error || r.Game == 0 {
		ah.t.Fatalf("accept: %+v", r)
	}
	return r.Game
}

// postJSON posts v as JSON; the status, the answer and its cookies. An
// access token that signIn got goes with its proof, as the page sends
// it, unless v has a proof of its own.
func (ah *activityHarness) postJSON(path string, v any) (int, activityAnswer, []*http.Cookie) {
	ah.t.Helper()
	if m, ok := v.(map[string]any); ok {
		if tok, ok := m["access_token"].(string); ok && ah.proofs[tok] != "" && m["proof"] == nil {
			m["proof"] = ah.proofs[tok]
		}
	}
	body, _ := json.Marshal(v)
	res, err := http.Post(ah.ts.URL+path, "application/json", bytes.NewReader(body))
	if err != nil {
		ah.t.Fatal(err)
	}
	defer res.Body.Close()
	var a activityAnswer
	json.NewDecoder(res.Body).Decode(&a)
	if len(a.Message) > 300 {
		ah.t.Errorf("a refusal of %d bytes: %q", len(a.Message), a.Message)
	}
	return res.StatusCode, a, res.Cookies()
}

// signIn exchanges a code of user's and returns the access token.
func (ah *activityHarness) signIn(user string) string {
	ah.t.Helper()
	code, a, _ := ah.postJSON("/activity/token", map[string]string{"code": ah.discord.code(user)})
	if code != 200 || a.AccessToken == "" || a.Proof == "" {
		ah.t.Fatalf("sign-in of %s: %d %+v", user, code, a)
	}
	ah.proofs[a.AccessToken] = a.Proof
	return a.AccessToken
}

// get fetches path with cookie c (Go's cookie jar keeps Secure cookies
// off plain http, where the browser tests' loopback server runs).
func (ah *activityHarness) get(path string, c *http.Cookie) (*http.Response, string) {
	ah.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, ah.ts.URL+path, nil)
	if c != nil {
		req.AddCookie(c)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		ah.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// activityFrameAncestors is the Activity's frame-ancestors for the
// harness's application ("app"): its own proxy origin and Discord's
// clients, never another application's Activity (*.discordsays.com).
const activityFrameAncestors = "; frame-ancestors 'self' https://app.discordsays.com https://discord.com https://ptb.discord.com https://canary.discord.com https://pax.discord.com https://discordapp.com https://ptb.discordapp.com https://canary.discordapp.com"

// activityFramed reports whether csp lets exactly Discord frame the page.
func activityFramed(csp string) bool {
	return strings.HasSuffix(csp, activityFrameAncestors) && strings.Count(csp, "frame-ancestors") == 1 && !strings.Contains(csp, "*")
}

// TestActivityAppIDChecked: the application ID goes into the Activity's
// frame-ancestors as a host name, so one that is not a DNS label (which
// could add to the policy) is refused when the board starts.
func TestActivityAppIDChecked(t *testing.T) {
	h := newHarness(t)
	checked := 0
	for _, id := range []string{"app.discordsays.com https://evil.example", "*", "123; script-src *"} {
		a, err := discord.New(discord.Config{Mode: "gateway", Token: "bot-token", ApplicationID: id, Activity: true, ClientSecret: "s"}, h.bot, nil, slog.New(slog.DiscardHandler))
		if err != nil {
			continue // the adapter refused it already
		}
		checked++
		_, err = New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: "http://127.0.0.1:1", Activity: a})
		if err == nil || !strings.Contains(err.Error(), "application ID") {
			t.Errorf("application ID %q: %v, want a refusal naming it", id, err)
		}
	}
	if checked == 0 {
		t.Fatal("the Discord adapter refused every ID: the board's own check went untested")
	}
}

// TestActivityPage: Discord loads GET / with frame_id; the page may be
// framed by Discord's clients (not by others), loads the vendored SDK by
// relative addresses, and the SDK's modules are served as JavaScript.
// Without frame_id, / is the usual 401 (a refusal, which Discord may
// frame: TestActivityErrorPages); the other pages keep frame-ancestors
// 'none'.
func TestActivityPage(t *testing.T) {
	ah := newActivityHarness(t)
	res, page := ah.get("/?frame_id=f1&instance_id=i1&platform=desktop", nil)
	csp := res.Header.Get("Content-Security-Policy")
	if res.StatusCode != 200 || !activityFramed(csp) || res.Header.Get("X-Frame-Options") != "" {
		t.Fatalf("activity page: %d, CSP %q, X-Frame-Options %q", res.StatusCode, csp, res.Header.Get("X-Frame-Options"))
	}
	if !strings.Contains(page, `data-client-id="app"`) {
		t.Errorf("the page lacks its client ID")
	}
	if strings.Contains(page, `="/`) || strings.Contains(page, "http") {
		t.Errorf("the page has an absolute address (Discord's proxy forwards only relative ones):\n%s", page)
	}
	// One script and one style sheet, each under its hash's name, kept
	// for good, gzipped for a client that takes it; the page's script is
	// not inline (the CSP has no 'unsafe-inline').
	scripts := regexp.MustCompile(`<script[^>]*>`).FindAllString(page, -1)
	sheets := regexp.MustCompile(`<link rel="stylesheet"[^>]*>`).FindAllString(page, -1)
	if len(scripts) != 1 || len(sheets) != 1 || strings.Contains(page, "<script>") || strings.Contains(csp, "unsafe") {
		t.Fatalf("the page's scripts %q and style sheets %q, want one of each", scripts, sheets)
	}
	for _, c := range []struct {
		tag, ctype, want string
	}{{scripts[0], "text/javascript", "gobotBoard"}, {sheets[0], "text/css", "body.activity"}} {
		name := regexp.MustCompile(`(?:src|href)="activity/(app-[0-9a-f]{16}\.(?:js|css))"`).FindStringSubmatch(c.tag)
		if name == nil {
			t.Errorf("%s: not a relative, hashed name under activity/", c.tag)
			continue
		}
		res, body := ah.get("/activity/"+name[1], nil) // Go's client asks for gzip and undoes it
		if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), c.ctype) || res.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
			!res.Uncompressed || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %q %q gzip %v", name[1], res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"), res.Uncompressed)
		}
		b, _ := activityFiles.ReadFile("activity/app" + path.Ext(name[1]))
		if sum := sha256.Sum256(b); name[1] != "app-"+hex.EncodeToString(sum[:8])+path.Ext(name[1]) || body != string(b) {
			t.Errorf("%s is not the hash of activity/app%s, or not its contents", name[1], path.Ext(name[1]))
		}
		req, _ := http.NewRequest(http.MethodGet, ah.ts.URL+"/activity/"+name[1], nil)
		req.Header.Set("Accept-Encoding", "identity")
		if res, err := http.DefaultTransport.RoundTrip(req); err != nil || res.Header.Get("Content-Encoding") != "" {
			t.Errorf("%s without gzip: %v %v", name[1], err, res.Header)
		} else {
			res.Body.Close()
		}
	}
	for _, p := range []string{"/activity/app-0000000000000000.js", "/activity/app.js", "/activity/sdk/index.mjs", "/activity/token"} {
		if res, _ := ah.get(p, nil); res.StatusCode == 200 {
			t.Errorf("%s: %d, want a refusal (only the bundle's names are files)", p, res.StatusCode)
		}
	}
	if b, _ := activityFiles.ReadFile("activity/app.js"); !strings.Contains(string(b), "Copyright (c) 2024 Discord Inc.") {
		t.Errorf("the bundle lacks the SDK's licence notice")
	}
	res, _ = ah.get("/", nil)
	if res.StatusCode != 401 {
		t.Errorf("/ without frame_id: %d", res.StatusCode)
	}
	res, _ = ah.get("/static/board.css", nil)
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("a page that is not the Activity's: %d %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	// Without the Activity, / with frame_id is the 401 it always was.
	res, _ = ah.harness.browser().get(ah.harness.ts.URL + "/?frame_id=f1&instance_id=i1&platform=desktop")
	if res.StatusCode != 401 {
		t.Errorf("/ on a board without the Activity: %d", res.StatusCode)
	}
}

// TestActivityCompressed: on a phone's link every byte of the opening
// counts. The page names its bundle in Link headers (preload), so the
// browser asks for it as the page's headers arrive; the page and the
// answer that opens the board (its state and its drawn board, 12 KB for
// a 9×9 game) come gzipped to a client that takes gzip, and as they are
// to one that does not; a short refusal is not compressed.
func TestActivityCompressed(t *testing.T) {
	ah := newActivityHarness(t)
	ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	send := func(method, path, encoding string, body any) (*http.Response, []byte) {
		t.Helper()
		var rd io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			rd = bytes.NewReader(b)
		}
		req, _ := http.NewRequest(method, ah.ts.URL+path, rd)
		req.Header.Set("Accept-Encoding", encoding)
		if body != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := http.DefaultTransport.RoundTrip(req) // no transparent gunzip
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return res, b
	}
	gunzip := func(what string, res *http.Response, b []byte) []byte {
		t.Helper()
		if res.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(res.Header.Get("Vary"), "Accept-Encoding") {
			t.Fatalf("%s: Content-Encoding %q, Vary %q, want gzip", what, res.Header.Get("Content-Encoding"), res.Header.Get("Vary"))
		}
		zr, err := gzip.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		out, err := io.ReadAll(zr)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return out
	}

	const pagePath = "/?frame_id=f1&instance_id=i1&platform=desktop"
	res, zpage := send(http.MethodGet, pagePath, "gzip, deflate, br", nil)
	page := gunzip("the page", res, zpage)
	res2, plain := send(http.MethodGet, pagePath, "identity", nil)
	if res2.Header.Get("Content-Encoding") != "" || !bytes.Equal(plain, page) || res.StatusCode != 200 || res2.StatusCode != 200 {
		t.Errorf("the page without gzip: %d %q, or not the same page", res2.StatusCode, res2.Header.Get("Content-Encoding"))
	}
	var links []string
	for _, m := range regexp.MustCompile(`(?:src|href)="(activity/app-[0-9a-f]{16}\.(js|css))"`).FindAllStringSubmatch(string(page), -1) {
		as := map[string]string{"js": "script", "css": "style"}[m[2]]
		links = append(links, "<"+m[1]+">; rel=preload; as="+as)
	}
	if got := res.Header.Values("Link"); len(links) != 2 || !slices.Equal(got, links) {
		t.Errorf("the page's Link headers %q, want its two files preloaded, by their relative names: %q", got, links)
	}

	code := ah.discord.code("111")
	res, zb := send(http.MethodPost, "/activity/token", "gzip", map[string]any{"code": code, "instance_id": "inst1"})
	var a activityAnswer
	if err := json.Unmarshal(gunzip("the token's answer", res, zb), &a); err != nil || res.StatusCode != 200 || a.State == nil || !strings.Contains(a.State.Board, `data-point="E5"`) {
		t.Fatalf("the token's answer, gzipped: %d %v %+v", res.StatusCode, err, a)
	}
	if len(zb) > 4000 {
		t.Errorf("the token's answer is %d bytes gzipped", len(zb))
	}
	res, b := send(http.MethodPost, "/activity/token", "identity", map[string]any{"code": ah.discord.code("111"), "instance_id": "inst1"})
	if err := json.Unmarshal(b, &a); err != nil || res.Header.Get("Content-Encoding") != "" || a.State == nil {
		t.Errorf("the token's answer without gzip: %q %v", res.Header.Get("Content-Encoding"), err)
	}
	res, b = send(http.MethodPost, "/activity/token", "gzip", map[string]any{"code": code, "instance_id": "inst1"})
	if err := json.Unmarshal(b, &a); err != nil || res.StatusCode != 401 || res.Header.Get("Content-Encoding") != "" || a.Message != msgSignIn {
		t.Errorf("a refusal: %d %q %v %+v", res.StatusCode, res.Header.Get("Content-Encoding"), err, a)
	}
}

// TestActivitySignIn: a code is exchanged once; a forged or reused code
// is refused with a short message; the session is the token's user's
// (Discord says who, not the page), for the game in the instance's
// channel (Discord says where), in a third-party cookie; a user not in
// the instance, a made-up token and a channel without games are
// refused; several games are listed to choose from; a non-player
// watches.
func TestActivitySignIn(t *testing.T) {
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222", "333")

	// A code works once; a made-up one never.
	code := ah.discord.code("111")
	st, a, _ := ah.postJSON("/activity/token", map[string]string{"code": code})
	if st != 200 || a.AccessToken == "" {
		t.Fatalf("exchange: %d %+v", st, a)
	}
	token := a.AccessToken
	ah.proofs[token] = a.Proof
	before := ah.discord.exchanges
	if st, a, _ := ah.postJSON("/activity/token", map[string]string{"code": code}); st != 401 || a.Message != msgSignIn || a.AccessToken != "" {
		t.Errorf("a reused code: %d %+v", st, a)
	}
	if ah.discord.exchanges != before {
		t.Errorf("a reused code went to Discord again")
	}
	if st, a, _ := ah.postJSON("/activity/token", map[string]string{"code": "c99-111"}); st != 401 || a.Message != msgSignIn {
		t.Errorf("a forged code: %d %+v", st, a)
	}
	res, err := http.Post(ah.ts.URL+"/activity/token", "application/x-www-form-urlencoded", strings.NewReader("code="+ah.discord.code("111")))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("a form post (what another site can send): %d", res.StatusCode)
	}

	// The session: the token's user, the instance's channel's game.
	st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": token, "instance_id": "inst1"})
	if st != 200 || a.URL != fmt.Sprintf("g/%d", id) || len(cookies) != 1 {
		t.Fatalf("session: %d %+v %v", st, a, cookies)
	}
	c := cookies[0]
	if c.Name != cookieName(id) || c.Path != gamePath(id) || !c.Secure || !c.HttpOnly || c.SameSite != http.SameSiteNoneMode || !c.Partitioned {
		t.Fatalf("the Activity's cookie: %s (want SameSite=None; Secure; Partitioned; HttpOnly)", c)
	}
	if c.MaxAge != int(activitySessionTTL/time.Second) {
		t.Errorf("the Activity's cookie lasts Max-Age=%d, want %d: counted from the browser's receipt, whatever its clock says", c.MaxAge, int(activitySessionTTL/time.Second))
	}
	res, page := ah.get(gamePath(id), c)
	if res.StatusCode != 200 || !strings.Contains(page, `data-role="player"`) || !strings.Contains(page, `data-color="black"`) ||
		!activityFramed(res.Header.Get("Content-Security-Policy")) || res.Header.Get("X-Frame-Options") != "" {
		t.Fatalf("the board in the Activity: %d %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}
	// A personal link's session on the same server keeps
	// frame-ancestors 'none'.
	link, _, _ := ah.srv.Link(id, "discord:111", false, 0)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	lres, err := noFollow.Get(link)
	if err != nil || len(lres.Cookies()) != 1 {
		t.Fatalf("link: %v", err)
	}
	lres.Body.Close()
	// Its /open step (given the link being opened) sets the session.
	open, _ := http.NewRequest("GET", ah.ts.URL+lres.Header.Get("Location"), nil)
	open.AddCookie(lres.Cookies()[0])
	if lres, err = noFollow.Do(open); err != nil || len(lres.Cookies()) == 0 || lres.Cookies()[0].Name != cookieName(id) {
		t.Fatalf("link's open step: %v", err)
	}
	lres.Body.Close()
	if lc := lres.Cookies()[0]; lc.SameSite != http.SameSiteLaxMode || lc.Partitioned {
		t.Errorf("a link's cookie changed: %s", lc)
	}
	res, _ = ah.get(gamePath(id), lres.Cookies()[0])
	if res.StatusCode != 200 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("a link's board: %d %q", res.StatusCode, res.Header.Get("Content-Security-Policy"))
	}

	// A non-player in the instance watches.
	st, a, cookies = ah.postJSON("/activity/session", map[string]any{"access_token": ah.signIn("333"), "instance_id": "inst1"})
	if st != 200 || len(cookies) != 1 {
		t.Fatalf("carol: %d %+v", st, a)
	}
	if _, page := ah.get(gamePath(id), cookies[0]); !strings.Contains(page, `data-role="watcher"`) {
		t.Errorf("carol's board is not watch-only")
	}

	// Refusals, each short and specific, with no cookie.
	ah.discord.instance("inst2", "888", "111")
	ah.discord.instance("inst3", "777", "222")
	for _, c := range []struct {
		why    string
		body   map[string]any
		status int
		msg    string
	}{
		{"a made-up token", map[string]any{"access_token": "t1-111", "instance_id": "inst1"}, 401, msgSignIn},
		{"not in the instance", map[string]any{"access_token": token, "instance_id": "inst3"}, 403, msgNotIn},
		{"an unknown instance", map[string]any{"access_token": token, "instance_id": "inst9"}, 403, msgInstance},
		{"no game in the channel", map[string]any{"access_token": token, "instance_id": "inst2"}, 404, msgNoGame},
		{"another channel's game", map[string]any{"access_token": token, "instance_id": "inst1", "game": 99}, 403, "Game #99 is not played in this channel."},
		{"no instance", map[string]any{"access_token": token}, 400, msgRequest},
	} {
		st, a, cookies := ah.postJSON("/activity/session", c.body)
		if st != c.status || a.Message != c.msg || len(cookies) != 0 || a.URL != "" {
			t.Errorf("%s: %d %+v %v", c.why, st, a, cookies)
		}
	}

	// Two of alice's games in the channel: a list, then her choice.
	id2 := ah.discordGame("111", "333")
	st, a, cookies = ah.postJSON("/activity/session", map[string]any{"access_token": token, "instance_id": "inst1"})
	if st != 200 || len(a.Games) != 2 || len(cookies) != 0 || a.Games[1].ID != id2 || !strings.Contains(a.Games[1].Label, "against") {
		t.Fatalf("two games: %d %+v", st, a)
	}
	if a.Watch {
		t.Errorf("alice's own games listed as to watch")
	}
	// Someone who plays neither chooses one to watch.
	ah.discord.instance("inst4", "777", "444")
	if st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": ah.signIn("444"), "instance_id": "inst4"}); st != 200 || len(a.Games) != 2 || !a.Watch {
		t.Errorf("a watcher with two games in the channel: %d %+v", st, a)
	}
	st, a, cookies = ah.postJSON("/activity/session", map[string]any{"access_token": token, "instance_id": "inst1", "game": id2})
	if st != 200 || a.URL != fmt.Sprintf("g/%d", id2) || len(cookies) != 1 || cookies[0].Path != gamePath(id2) {
		t.Fatalf("choosing game %d: %d %+v", id2, st, a)
	}
}

// TestActivitySignInOneRequest (issue 47): the page posts the code with
// its instance, and gobot's one answer is the sign-in and the board: the
// access token and its proof, the bearer session, the role, the colour
// and the game's state with its SVG (drawn at once), and the partitioned
// cookie — one exchange with Discord. Every check of the two steps
// holds: a reused code opens nothing and reaches Discord no more; a user
// not in the instance, an unknown instance or a channel without a game
// gets the session step's refusal and no token, no cookie. With two
// games the answer lists them with the token and its proof, which
// activity/session then takes for the one picked.
func TestActivitySignInOneRequest(t *testing.T) {
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	code := ah.discord.code("111")
	before := ah.discord.exchanges
	st, a, cookies := ah.postJSON("/activity/token", map[string]any{"code": code, "instance_id": "inst1"})
	if st != 200 || a.AccessToken == "" || !ah.srv.checkTokenProof(a.AccessToken, a.Proof) || a.Token == "" || a.Game != id || a.Role != "player" || a.Color != "black" ||
		a.State == nil || !strings.Contains(a.State.Board, "<svg") || !strings.Contains(a.State.Board, `data-point="E5"`) || len(cookies) != 1 || !cookies[0].Partitioned {
		t.Fatalf("the sign-in and the board in one answer: %d %+v %v", st, a, cookies)
	}
	if ah.discord.exchanges != before+1 {
		t.Errorf("%d exchanges with Discord, want 1", ah.discord.exchanges-before)
	}
	// The session is the Activity's bearer token: it plays.
	res, err := ah.bearer(context.Background(), http.MethodPost, fmt.Sprintf("/g/%d/act", id), a.Token, url.Values{"action": {"play"}, "point": {"E5"}, "id": {"one-request-1"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a click with the session of the one answer: %d", res.StatusCode)
	}
	before = ah.discord.exchanges
	if st, a, cookies := ah.postJSON("/activity/token", map[string]any{"code": code, "instance_id": "inst1"}); st != 401 || a.Message != msgSignIn || a.AccessToken != "" || a.Token != "" || len(cookies) != 0 {
		t.Errorf("a reused code: %d %+v", st, a)
	}
	if ah.discord.exchanges != before {
		t.Errorf("a reused code went to Discord again")
	}

	ah.discord.instance("inst2", "888", "111")
	ah.discord.instance("inst3", "777", "222")
	for _, c := range []struct {
		why, instance string
		status        int
		msg           string
	}{
		{"not in the instance", "inst3", 403, msgNotIn},
		{"an unknown instance", "inst9", 403, msgInstance},
		{"no game in the channel", "inst2", 404, msgNoGame},
		{"an instance of 300 bytes", strings.Repeat("i", 300), 400, msgRequest},
	} {
		st, a, cookies := ah.postJSON("/activity/token", map[string]any{"code": ah.discord.code("111"), "instance_id": c.instance})
		if st != c.status || a.Message != c.msg || a.AccessToken != "" || a.Token != "" || len(cookies) != 0 {
			t.Errorf("%s: %d %+v %v", c.why, st, a, cookies)
		}
	}

	id2 := ah.discordGame("111", "333")
	st, a, cookies = ah.postJSON("/activity/token", map[string]any{"code": ah.discord.code("111"), "instance_id": "inst1"})
	if st != 200 || len(a.Games) != 2 || a.Token != "" || len(cookies) != 0 || a.AccessToken == "" || a.Proof == "" {
		t.Fatalf("two games: %d %+v", st, a)
	}
	st, b, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": a.AccessToken, "proof": a.Proof, "instance_id": "inst1", "game": id2})
	if st != 200 || b.Game != id2 || b.Token == "" || len(cookies) != 1 {
		t.Fatalf("the game picked: %d %+v", st, b)
	}
}

// TestActivityErrorPages: with the Activity on, a refusal on a game's
// page (no session, as when Discord's frame lost or never had its
// cookie; an expired one) may be shown in Discord's frame — it holds
// nothing to click — and says how to open the board there again. On a
// board without the Activity refusals keep frame-ancestors 'none' and
// say nothing of Discord.
func TestActivityErrorPages(t *testing.T) {
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": ah.signIn("111"), "instance_id": "inst1"})
	if st != 200 || len(cookies) != 1 {
		t.Fatalf("session: %d %+v", st, a)
	}
	framed := func(what string, res *http.Response, page string, code int) {
		t.Helper()
		if res.StatusCode != code || !activityFramed(res.Header.Get("Content-Security-Policy")) ||
			res.Header.Get("X-Frame-Options") != "" || !strings.Contains(page, "press <strong>Open board</strong>") {
			t.Errorf("%s: %d, CSP %q, X-Frame-Options %q:\n%s", what, res.StatusCode, res.Header.Get("Content-Security-Policy"), res.Header.Get("X-Frame-Options"), page)
		}
	}
	res, page := ah.get(gamePath(id), nil)
	framed("no session", res, page, 401)
	ah.now.Advance(activitySessionTTL + time.Minute)
	res, page = ah.get(gamePath(id), cookies[0])
	framed("an expired session", res, page, 403)

	res, page = ah.harness.browser().get(ah.harness.ts.URL + gamePath(id))
	if res.StatusCode != 401 || !strings.Contains(res.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" ||
		strings.Contains(page, "Open board") || !strings.Contains(page, "personal link") {
		t.Errorf("a refusal without the Activity: %d %q:\n%s", res.StatusCode, res.Header.Get("Content-Security-Policy"), page)
	}
}

// TestActivityBodyBounded: an Activity POST over the body limit is 413,
// not a malformed request.
func TestActivityBodyBounded(t *testing.T) {
	ah := newActivityHarness(t)
	pad := strings.Repeat("x", 10<<10)
	for _, c := range []struct {
		path string
		body map[string]any
	}{
		{"/activity/token", map[string]any{"code": pad}},
		{"/activity/session", map[string]any{"access_token": pad, "proof": "p", "instance_id": "inst1"}},
	} {
		if st, a, _ := ah.postJSON(c.path, c.body); st != http.StatusRequestEntityTooLarge || !strings.Contains(a.Message, "too large") {
			t.Errorf("%s with 10 KB: %d %+v, want 413", c.path, st, a)
		}
	}
	if ah.discord.exchanges != 0 {
		t.Errorf("a refused body reached Discord")
	}
}

// TestActivityChooseGame: a game chosen from the Activity's list that
// is not among the caller's own there (a list to watch, shown before
// they started a game of their own in the channel) opens to watch, as
// the list offered; a chosen game that has ended, or is played
// elsewhere, is refused saying so.
func TestActivityChooseGame(t *testing.T) {
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	other := ah.discordGame("333", "444")
	ah.discord.instance("inst1", "777", "111", "222", "333", "444", "555")
	// 555 plays none: both games, to watch.
	tok := ah.signIn("555")
	st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1"})
	if st != 200 || len(a.Games) != 2 || !a.Watch {
		t.Fatalf("555's list: %d %+v", st, a)
	}
	// Meanwhile 555 starts a game in the channel, then picks #1 from
	// the list to watch.
	mine := ah.discordGame("555", "666")
	st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "game": id})
	if st != 200 || a.URL != fmt.Sprintf("g/%d", id) || len(cookies) != 1 {
		t.Fatalf("choosing game %d to watch: %d %+v", id, st, a)
	}
	if _, page := ah.get(gamePath(id), cookies[0]); !strings.Contains(page, `data-role="watcher"`) {
		t.Errorf("555's board of game %d is not watch-only", id)
	}
	if st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "game": mine}); st != 200 || a.URL != fmt.Sprintf("g/%d", mine) {
		t.Errorf("choosing their own game: %d %+v", st, a)
	}
	// An ended game: said so.
	if r := ah.discordCmd("333", "resign", fmt.Sprintf("#%d", other)); r.Error {
		t.Fatal(r.Text)
	}
	want := fmt.Sprintf("Game #%d has ended", other)
	if st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "game": other}); st != 404 || !strings.HasPrefix(a.Message, want) || len(cookies) != 0 {
		t.Errorf("choosing an ended game: %d %+v, want %q", st, a, want)
	}
	// A game of another channel: not played here.
	ah.room = "discord:888"
	elsewhere := ah.discordGame("777", "888")
	want = fmt.Sprintf("Game #%d is not played in this channel.", elsewhere)
	if st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "game": elsewhere}); st != 403 || a.Message != want || len(cookies) != 0 {
		t.Errorf("choosing another channel's game: %d %+v, want %q", st, a, want)
	}
}

// TestActivitySignInsBounded: a flood of made-up codes from one client
// reaches Discord at most at that client's rate (Discord bans an address
// for a while after too many refused requests): the rest get 429 in
// words, and another client's sign-in goes through at once. The client
// itself signs in again a moment later.
func TestActivitySignInsBounded(t *testing.T) {
	ah := newActivityHarness(t)
	flooder := clientFrom(t, "127.0.0.2")
	busy := 0
	flood := activityClient.Burst + 30
	for i := range flood {
		st, a := ah.postFrom(flooder, "/activity/token", map[string]string{"code": fmt.Sprintf("forged-%d", i)})
		if st == http.StatusTooManyRequests {
			busy++
			if a.Message != activityBusy[overClient] {
				t.Fatalf("429 says %q", a.Message)
			}
		}
	}
	if ah.discord.exchanges != activityClient.Burst || busy != flood-activityClient.Burst {
		t.Fatalf("%d made-up codes from one client reached Discord (%d refused as busy), want %d", ah.discord.exchanges, busy, activityClient.Burst)
	}
	ah.signIn("111") // from 127.0.0.1, while the flood goes on
	if st, _ := ah.postFrom(flooder, "/activity/token", map[string]string{"code": ah.discord.code("222")}); st != http.StatusTooManyRequests {
		t.Fatalf("the flooding client: %d, want 429", st)
	}
	ah.now.Advance(2 * time.Second)
	if st, a := ah.postFrom(flooder, "/activity/token", map[string]string{"code": ah.discord.code("222")}); st != 200 || a.AccessToken == "" {
		t.Fatalf("the flooding client 2 s later: %d %+v", st, a)
	}
}

// TestActivityInstanceBounded: an instance's limit counts its members'
// sign-ins (here from two clients, each within its own rate); someone
// who is not in it and names it, at their own full rate, is refused as
// not in it and takes nothing from it: a member signs in meanwhile.
func TestActivityInstanceBounded(t *testing.T) {
	ah := newActivityHarness(t)
	ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	member, outsider := ah.signIn("111"), ah.signIn("333")
	step := func(c *http.Client, tok string) (int, activityAnswer) {
		return ah.postFrom(c, "/activity/session", map[string]any{"access_token": tok, "proof": ah.proofs[tok], "instance_id": "inst1"})
	}
	flooder := clientFrom(t, "127.0.0.3")
	for range activityClient.Burst {
		if st, a := step(flooder, outsider); st != http.StatusForbidden || a.Message != msgNotIn {
			t.Fatalf("an outsider naming the instance: %d %+v", st, a)
		}
	}
	if st, a := step(clientFrom(t, "127.0.0.5"), member); st != 200 || a.URL == "" {
		t.Fatalf("a member after an outsider's flood: %d %+v", st, a)
	}
	over, n := 0, 1
	for _, ip := range []string{"127.0.0.6", "127.0.0.7"} {
		c := clientFrom(t, ip)
		for range activityClient.Burst {
			n++
			switch st, a := step(c, member); {
			case st == http.StatusTooManyRequests && a.Message == activityBusy[overTarget]:
				over++
			case st != 200:
				t.Fatalf("a member's sign-in: %d %+v", st, a)
			}
		}
	}
	if want := n - activityInstance.Burst; over != want {
		t.Errorf("%d of %d members' steps refused for the instance, want %d", over, n, want)
	}
}

// TestActivitySignInCeiling: one ceiling for everyone, high above a
// community's needs, keeps many clients together from flooding Discord:
// four clients' bursts (240 steps) reach it, then everyone waits, and a
// second later sign-ins go through again.
func TestActivitySignInCeiling(t *testing.T) {
	ah := newActivityHarness(t)
	clients := activityAll.Burst / activityClient.Burst
	for i := range clients {
		c := clientFrom(t, fmt.Sprintf("127.0.1.%d", i+1))
		for j := range activityClient.Burst {
			if st, a := ah.postFrom(c, "/activity/token", map[string]string{"code": fmt.Sprintf("forged-%d-%d", i, j)}); st != http.StatusUnauthorized {
				t.Fatalf("client %d, code %d: %d %+v", i, j, st, a)
			}
		}
	}
	if ah.discord.exchanges != activityAll.Burst {
		t.Fatalf("%d codes reached Discord, want %d", ah.discord.exchanges, activityAll.Burst)
	}
	if st, a := ah.postFrom(clientFrom(t, "127.0.2.1"), "/activity/token", map[string]string{"code": ah.discord.code("111")}); st != http.StatusTooManyRequests || a.Message != msgBusy {
		t.Fatalf("over the ceiling: %d %+v, want 429 %q", st, a, msgBusy)
	}
	ah.now.Advance(time.Second)
	ah.signIn("111")
}

// postFrom posts v as JSON with client c; the status and the answer.
func (ah *activityHarness) postFrom(c *http.Client, path string, v any) (int, activityAnswer) {
	ah.t.Helper()
	body, _ := json.Marshal(v)
	res, err := c.Post(ah.ts.URL+path, "application/json", bytes.NewReader(body))
	if err != nil {
		ah.t.Fatal(err)
	}
	defer res.Body.Close()
	var a activityAnswer
	json.NewDecoder(res.Body).Decode(&a)
	if len(a.Message) > 300 {
		ah.t.Errorf("a refusal of %d bytes: %q", len(a.Message), a.Message)
	}
	return res.StatusCode, a
}

// TestActivityBusyKeepsCode: a real code turned away while the sign-ins
// are over their rate is not used up: posted again a moment later, it
// is exchanged. (Remembered as used before the rate was checked, it was
// refused as "used already" without ever reaching Discord.)
func TestActivityBusyKeepsCode(t *testing.T) {
	ah := newActivityHarness(t)
	for i := 0; ; i++ {
		if st, _, _ := ah.postJSON("/activity/token", map[string]string{"code": fmt.Sprintf("forged-%d", i)}); st == http.StatusTooManyRequests {
			break
		}
		if i > 100 {
			t.Fatal("the sign-ins are never over their rate")
		}
	}
	code := ah.discord.code("111")
	if st, a, _ := ah.postJSON("/activity/token", map[string]string{"code": code}); st != http.StatusTooManyRequests {
		t.Fatalf("over the rate: %d %+v, want 429", st, a)
	}
	ah.now.Advance(2 * time.Second)
	if st, a, _ := ah.postJSON("/activity/token", map[string]string{"code": code}); st != http.StatusOK || a.AccessToken == "" {
		t.Fatalf("the code turned away as busy, posted again: %d %+v, want its access token", st, a)
	}
}

// TestActivityTokenMustBeGobots: /users/@me names the user of any
// application's access token, so an access token that gobot did not
// exchange itself (another application's, which the user once allowed)
// opens no session, even for a user in the Activity, and is refused
// without asking Discord; nor does one token's proof stand for another.
func TestActivityTokenMustBeGobots(t *testing.T) {
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	ah.discord.mu.Lock()
	ah.discord.tokens["other-app-token-111"] = "111" // Discord's token of alice's for another application
	ah.discord.mu.Unlock()
	bobs := ah.signIn("222")
	for _, c := range []struct {
		why  string
		body map[string]any
	}{
		{"another application's token", map[string]any{"access_token": "other-app-token-111", "instance_id": "inst1"}},
		{"with bob's proof", map[string]any{"access_token": "other-app-token-111", "proof": ah.proofs[bobs], "instance_id": "inst1"}},
		{"with a made-up proof", map[string]any{"access_token": "other-app-token-111", "proof": "AAAA", "instance_id": "inst1"}},
	} {
		st, a, cookies := ah.postJSON("/activity/session", c.body)
		if st != http.StatusUnauthorized || a.Message != msgSignIn || len(cookies) != 0 || a.URL != "" {
			t.Errorf("%s: %d %+v %v, want 401 and no session", c.why, st, a, cookies)
		}
	}
	// bob's own token, with its proof, opens his session.
	if st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": bobs, "instance_id": "inst1"}); st != 200 || a.URL != fmt.Sprintf("g/%d", id) || len(cookies) != 1 {
		t.Fatalf("bob: %d %+v", st, a)
	}
}

// bearer sends method path with the Authorization "Bearer token" and no
// cookie; the status and the body.
func (ah *activityHarness) bearer(ctx context.Context, method, path, token string, form url.Values) (*http.Response, error) {
	var body io.Reader
	if form != nil {
		body = strings.NewReader(form.Encode())
	}
	req, _ := http.NewRequestWithContext(ctx, method, ah.ts.URL+path, body)
	if form != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	return http.DefaultClient.Do(req)
}

// TestActivityBearerSession: the Activity's session is kept by the page,
// not by a cookie (WebKit, Discord's iOS app, keeps no third-party
// cookie): the sign-in answers a bearer token with the role, the colour
// and the game's state; with it alone — no cookie, no CSRF token — the
// player plays and follows the live stream. The token is the
// Activity's: it is not a cookie, a link or a widget's token, and one
// for game 1 opens no other game; the watcher's watches. The partitioned
// cookie is still set, as the fallback for the board's own page.
func TestActivityBearerSession(t *testing.T) {
	ah := newActivityHarness(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	id := ah.discordGame("111", "222")
	other := ah.discordGame("333", "444")
	ah.discord.instance("inst1", "777", "111", "222", "555")
	st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": ah.signIn("111"), "instance_id": "inst1"})
	if st != 200 || a.Token == "" || a.Game != id || a.Role != "player" || a.Color != "black" || a.Name != "u111" || a.State == nil || a.State.Phase != "playing" || len(cookies) != 1 {
		t.Fatalf("the Activity's session: %d %+v %v", st, a, cookies)
	}
	if want := fmt.Sprintf("Resign game #%d against u222?", id); a.Resign != want {
		t.Errorf("the Resign button's question: %q, want chat's %q", a.Resign, want)
	}
	tok := a.Token

	// The live stream with the token, then a click with it: the stream
	// brings the move.
	res, err := ah.bearer(ctx, http.MethodGet, fmt.Sprintf("/g/%d/events?v=%d", id, a.State.V), tok, nil)
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("the live stream with the Activity's token: %v %v", res, err)
	}
	defer res.Body.Close()
	events := bufio.NewScanner(res.Body)
	ah.now.Advance(time.Second)
	res2, err := ah.bearer(ctx, http.MethodPost, fmt.Sprintf("/g/%d/act", id), tok, url.Values{"action": {"play"}, "point": {"E5"}, "id": {"activity-click-1"}})
	if err != nil {
		t.Fatal(err)
	}
	var ans answer
	json.NewDecoder(res2.Body).Decode(&ans)
	res2.Body.Close()
	if res2.StatusCode != 200 || ans.Message != "" || ans.State == nil || !strings.Contains(ans.State.Board, `data-point="E5" data-stone="black"`) {
		t.Fatalf("a click with the Activity's token: %d %+v", res2.StatusCode, ans.Message)
	}
	got := ""
	for events.Scan() {
		if strings.HasPrefix(events.Text(), "data: ") && strings.Contains(events.Text(), `data-point=\"E5\" data-stone=\"black\"`) {
			got = "E5"
			break
		}
	}
	if got != "E5" {
		t.Errorf("the stream did not bring the move: %v", events.Err())
	}

	// What the token is not.
	link, _, _ := ah.srv.Link(id, "discord:111", false, 0)
	for _, c := range []struct{ why, token string }{
		{"the cookie's value as a bearer", cookies[0].Value},
		{"a link's token as a bearer", link[strings.LastIndex(link, "/")+1:]},
		{"a changed token", tok[:len(tok)-2] + "AA"},
	} {
		res, err := ah.bearer(ctx, http.MethodPost, fmt.Sprintf("/g/%d/act", id), c.token, url.Values{"action": {"pass"}, "id": {"activity-click-2"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 401 {
			t.Errorf("%s: %d, want 401", c.why, res.StatusCode)
		}
	}
	res, err = ah.bearer(ctx, http.MethodPost, fmt.Sprintf("/g/%d/act", other), tok, url.Values{"action": {"pass"}, "id": {"activity-click-3"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("game %d's token on game %d: %d, want 403", id, other, res.StatusCode)
	}
	// A watcher's token watches.
	st, w, _ := ah.postJSON("/activity/session", map[string]any{"access_token": ah.signIn("555"), "instance_id": "inst1", "game": id})
	if st != 200 || w.Role != "watcher" || w.Color != "" || w.Token == "" {
		t.Fatalf("a watcher's session: %d %+v", st, w)
	}
	res, err = ah.bearer(ctx, http.MethodPost, fmt.Sprintf("/g/%d/act", id), w.Token, url.Values{"action": {"play"}, "point": {"C3"}, "id": {"activity-click-4"}})
	if err != nil {
		t.Fatal(err)
	}
	json.NewDecoder(res.Body).Decode(&ans)
	res.Body.Close()
	if res.StatusCode != 403 || !strings.Contains(ans.Message, "watching") {
		t.Errorf("a watcher's click: %d %q", res.StatusCode, ans.Message)
	}
	// After 12 hours the token has expired.
	ah.now.Advance(activitySessionTTL)
	res, err = ah.bearer(ctx, http.MethodPost, fmt.Sprintf("/g/%d/act", id), tok, url.Values{"action": {"pass"}, "id": {"activity-click-5"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 403 {
		t.Errorf("an expired token: %d, want 403", res.StatusCode)
	}
}

// proxied signs, as Discord's proxy does with proxy authentication, a
// payload naming user, and returns the headers it adds.
func proxied(priv ed25519.PrivateKey, user string, now time.Time) http.Header {
	created := now.Unix()
	payload := []byte(fmt.Sprintf(`{"created_at":%d,"expires_at":%d,"user_id":%q}`, created, created+3600, user))
	h := http.Header{}
	h.Set("X-Discord-Proxy-Payload", base64.StdEncoding.EncodeToString(payload))
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, payload)))
	h.Set("X-Signature-Timestamp", strconv.FormatInt(created, 10))
	return h
}

// TestActivityProxiedUsers: inside Discord many users reach the board
// from one address of Discord's proxy; a request Discord signed for its
// user counts as that user's, so one user's flood through the proxy
// leaves another's sign-in through the same address alone. A badly
// signed request counts as its address's.
func TestActivityProxiedUsers(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	ah := newActivityHarnessKey(t, hex.EncodeToString(pub))
	proxy := clientFrom(t, "127.0.0.9") // Discord's proxy, for everyone
	post := func(h http.Header, code string) (int, activityAnswer) {
		body, _ := json.Marshal(map[string]string{"code": code})
		req, _ := http.NewRequest(http.MethodPost, ah.ts.URL+"/activity/token", bytes.NewReader(body))
		req.Header = h.Clone()
		req.Header.Set("Content-Type", "application/json")
		res, err := proxy.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var a activityAnswer
		json.NewDecoder(res.Body).Decode(&a)
		return res.StatusCode, a
	}
	flood := proxied(priv, "333", ah.now.Now())
	busy := 0
	for i := range activityClient.Burst + 10 {
		if st, _ := post(flood, fmt.Sprintf("forged-%d", i)); st == http.StatusTooManyRequests {
			busy++
		}
	}
	if busy != 10 {
		t.Fatalf("%d of the flooding user's steps refused, want 10", busy)
	}
	if st, a := post(proxied(priv, "111", ah.now.Now()), ah.discord.code("111")); st != 200 || a.AccessToken == "" {
		t.Fatalf("another user through the same proxy address: %d %+v", st, a)
	}
	// Signed with another key: not Discord's word, so the address's.
	_, other, _ := ed25519.GenerateKey(nil)
	forged := proxied(other, "444", ah.now.Now())
	for i := range activityClient.Burst {
		if st, a := post(forged, fmt.Sprintf("forged-x-%d", i)); st != http.StatusUnauthorized {
			t.Fatalf("a forged signature, step %d: %d %+v", i, st, a)
		}
	}
	if st, _ := post(forged, "forged-y"); st != http.StatusTooManyRequests {
		t.Fatalf("a forged signature past the address's limit: %d, want 429", st)
	}
}

// TestActivityReview: a channel with one open review and no game opens
// it at once: a bearer session of the review (a review's state, the
// user's ID), which acts and streams on /r/{id}/ with the token and no
// CSRF token, and opens no other review nor any game. With a game too,
// both are listed; a review picked opens; one not open in the channel
// is refused in words.
func TestActivityReview(t *testing.T) {
	ah := newActivityHarness(t)
	if r := ah.discordCmd("111", "review", "9"); r.Error {
		t.Fatal(r.Text)
	}
	ah.discord.instance("inst1", "777", "111", "222", "555")
	tok := ah.signIn("222")
	st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1"})
	if st != 200 || a.Review != 1 || a.Token == "" || a.Me != "discord:222" || a.ReviewState == nil || a.ReviewState.ControllerID != "discord:111" || a.URL != "r/1" {
		t.Fatalf("the channel's one review: %d %+v", st, a)
	}
	do := func(method, path, token string, form url.Values) (int, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequest(method, ah.ts.URL+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	// 222 follows: the position is theirs to look at; acting as the
	// controller is refused in words, with no CSRF token asked.
	if st, body := do("GET", "/r/1/node/0", a.Token, nil); st != 200 || !strings.Contains(body, `"node":0`) {
		t.Errorf("a follower's look with the bearer token: %d %s", st, body)
	}
	if st, body := do("POST", "/r/1/act", a.Token, url.Values{"action": {"take"}}); st != 200 || !strings.Contains(body, `"message":"`) || strings.Contains(body, "out of date") {
		t.Errorf("a follower taking control with the bearer token: %d %s", st, body)
	}
	// 111 controls: a stone played with the bearer token is stored.
	t1 := ah.signIn("111")
	_, a1, _ := ah.postJSON("/activity/session", map[string]any{"access_token": t1, "instance_id": "inst1"})
	if st, body := do("POST", "/r/1/act", a1.Token, url.Values{"action": {"play"}, "point": {"E5"}}); st != 200 || strings.Contains(body, `"message"`) {
		t.Fatalf("the controller's stone with the bearer token: %d %s", st, body)
	}
	if n := len(ah.storedReview(1).Tree.Nodes); n != 2 {
		t.Errorf("the stone was not stored: %d nodes", n)
	}
	// The token is the review's only: not another path's, not a game's.
	if r := ah.discordCmd("555", "review", "13"); r.Error {
		t.Fatal(r.Text)
	}
	if st, _ := do("GET", "/r/2/node/0", a.Token, nil); st == 200 {
		t.Errorf("review 1's token opened review 2")
	}
	if st, _ := do("GET", "/r/1/node/0", "forged", nil); st == 200 {
		t.Errorf("a forged token opened review 1")
	}
	// Two reviews and a game: all listed; the one picked opens.
	id := ah.discordGame("111", "555")
	st, a, _ = ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1"})
	if st != 200 || a.Token != "" || len(a.Reviews) != 2 || len(a.Games) != 1 || a.Games[0].ID != id || !strings.HasPrefix(a.Reviews[1].Label, "Review r2: an empty 13x13") {
		t.Fatalf("the list of games and reviews: %d %+v", st, a)
	}
	if st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "review": 2}); st != 200 || a.Review != 2 || a.Token == "" {
		t.Errorf("picking review 2: %d %+v", st, a)
	}
	want := "Review r9 is not open in this channel."
	if st, a, cookies := ah.postJSON("/activity/session", map[string]any{"access_token": tok, "instance_id": "inst1", "review": 9}); st != 404 || !strings.HasPrefix(a.Message, want) || len(cookies) != 0 {
		t.Errorf("picking a review not open here: %d %+v, want %q", st, a, want)
	}
}
