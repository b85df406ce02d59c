package web

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix"
	"github.com/gobotgo/gobot/chat/matrix/dendritetest"
	"github.com/gobotgo/gobot/storage"
)

// TestVendoredWidgetAPI: the embedded matrix-widget-api is the pinned
// npm release's dist/api.min.js, with its licence.
func TestVendoredWidgetAPI(t *testing.T) {
	b, err := files.ReadFile("static/vendor/matrix-widget-api/api.min.js")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != "6a66356cede9b91b7cc8fe02089758d9cc6ac07b12f6b6ca3f67245a2c7eb7fb" {
		t.Errorf("api.min.js sha256 %s is not matrix-widget-api 1.19.0's (see its README.md)", got)
	}
	lic, err := files.ReadFile("static/vendor/matrix-widget-api/LICENSE")
	if err != nil || !strings.Contains(string(lic), "Apache License") {
		t.Errorf("the licence: %v", err)
	}
}

func TestCheckWidgetOrigins(t *testing.T) {
	for _, ok := range [][]string{nil, {"https://app.element.io"}, {"https://app.element.io", "https://*.example.org:8443", "vector:"}, {"*"}, {"http://localhost:8080"}, {"http://127.0.0.1:8080"}, {"http://[::1]:8080"}} {
		if err := CheckWidgetOrigins(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range [][]string{{"app.element.io"}, {"https://app.element.io/x"}, {"http://element.example.org"}, {"*", "https://app.element.io"}, {"https://a b"}, {"https://*"}, {"https://app.element.io?x=1"},
		// Nothing that would add to the header's policy.
		{"https://a.example;script-src"}, {"https://a.example,b"}, {"https://a.example'"}, {"https://a.example;sandbox"}} {
		err := CheckWidgetOrigins(bad)
		if err == nil || !strings.HasPrefix(err.Error(), "web.widget_origins: ") || len(err.Error()) > 300 {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestWidgetSignInBody: the widget's sign-in takes JSON only (as the
// Activity's POSTs), and a body over the limit is 413, not "malformed";
// both are refused before any homeserver is asked.
func TestWidgetSignInBody(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	asked := &countingWidgets{}
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
		Widgets: asked, WidgetOrigins: []string{"https://app.element.io"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	post := func(ctype, body string) (int, widgetSession) {
		t.Helper()
		res, err := http.Post(fmt.Sprintf("%s/widget/%d/session", ts.URL, id), ctype, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var ws widgetSession
		json.NewDecoder(res.Body).Decode(&ws)
		if len(ws.Message) > 300 || ws.Token != "" {
			t.Errorf("%s: %+v", ctype, ws)
		}
		return res.StatusCode, ws
	}
	big := `{"access_token":"` + strings.Repeat("x", 10<<10) + `","matrix_server_name":"example.org"}`
	if code, ws := post("application/json", big); code != http.StatusRequestEntityTooLarge || !strings.Contains(ws.Message, "too large") {
		t.Errorf("a 10 KB sign-in: %d %q, want 413", code, ws.Message)
	}
	ok := `{"access_token":"tok","matrix_server_name":"example.org"}`
	for _, ctype := range []string{"text/plain", "application/x-www-form-urlencoded", ""} {
		if code, ws := post(ctype, ok); code != http.StatusBadRequest || !strings.Contains(ws.Message, "JSON") {
			t.Errorf("a sign-in sent as %q: %d %q, want 400 asking for JSON", ctype, code, ws.Message)
		}
	}
	if asked.n != 0 {
		t.Errorf("refused sign-ins asked a homeserver %d times", asked.n)
	}
	if code, _ := post("application/json; charset=utf-8", ok); code != http.StatusUnauthorized || asked.n != 1 {
		t.Errorf("a JSON sign-in: %d, asked %d times", code, asked.n)
	}
}

// TestWidgetSignInPrivateServer: a widget sign-in naming a homeserver
// by an IP address, or by a name at a loopback address, is refused with
// the Matrix adapter's words (403) before any request leaves gobot, and
// opens no session.
func TestWidgetSignInPrivateServer(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	a, err := matrix.New(matrix.Config{Homeserver: "http://127.0.0.1:1", UserID: "@gobot:example.org", AccessToken: "unused"}, h.bot, gobot.StoreState(h.db), nil)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
		Widgets: a, WidgetOrigins: []string{"https://app.element.io"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(h.ts.URL, "http://"))
	for _, c := range []struct{ server, want string }{
		{"127.0.0.1:" + port, "Your homeserver's name, 127.0.0.1:" + port + ", is an IP address: gobot asks only homeservers with a name, so it cannot confirm who you are."},
		{"localhost:" + port, "Your homeserver's name, localhost:" + port + ", leads to a loopback address: gobot sends no requests there, so it cannot confirm who you are."},
	} {
		body := `{"access_token":"tok-` + c.server + `","matrix_server_name":"` + c.server + `"}`
		res, err := http.Post(fmt.Sprintf("%s/widget/%d/session", ts.URL, id), "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var ws widgetSession
		json.NewDecoder(res.Body).Decode(&ws)
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden || ws.Message != c.want || ws.Token != "" {
			t.Errorf("%s: %d %+v, want 403 %q", c.server, res.StatusCode, ws, c.want)
		}
	}
}

// TestWidgetOpenIDOnce: an OpenID token opens one widget session on
// this process: shown again (a replay, by whoever got it) it is refused
// without asking the homeserver, for as long as the token lives (the
// page's expires_in, at least an hour, at most a day). A reload asks the
// client for a new token, which signs in.
func TestWidgetOpenIDOnce(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	hs := &tokenWidgets{users: map[string]gobot.UserID{"tok-1": "console:alice", "tok-2": "console:alice", "tok-3": "console:bob"}}
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
		Widgets: hs, WidgetOrigins: []string{"https://app.element.io"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	signIn := func(token string, expiresIn int) (int, widgetSession) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"access_token": token, "matrix_server_name": "example.org", "expires_in": expiresIn})
		res, err := http.Post(fmt.Sprintf("%s/widget/%d/session", ts.URL, id), "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var ws widgetSession
		json.NewDecoder(res.Body).Decode(&ws)
		return res.StatusCode, ws
	}
	if code, ws := signIn("tok-1", 3600); code != 200 || ws.Token == "" || ws.Color != "black" {
		t.Fatalf("alice's sign-in: %d %+v", code, ws)
	}
	asked := hs.count()
	code, ws := signIn("tok-1", 3600)
	if code != 401 || ws.Token != "" || !strings.Contains(ws.Message, "used already") || len(ws.Message) > 300 {
		t.Errorf("the same token again: %d %+v", code, ws)
	}
	if hs.count() != asked {
		t.Errorf("a used token was checked with the homeserver again")
	}
	if code, ws := signIn("tok-2", 3600); code != 200 || ws.Token == "" {
		t.Errorf("alice's new token (a reload): %d %+v", code, ws)
	}
	// A token the homeserver refused is not remembered as used, nor
	// does a refused one keep a good one out.
	if code, _ := signIn("tok-bad", 3600); code != 401 {
		t.Errorf("a made-up token: %d", code)
	}
	// A token that lives two hours is refused for two hours; a page
	// claiming a shorter life still gets an hour.
	if code, _ := signIn("tok-3", 7200); code != 200 {
		t.Fatalf("bob's sign-in: %d", code)
	}
	h.now.Advance(time.Hour + time.Minute)
	if code, _ := signIn("tok-3", 0); code != 401 {
		t.Errorf("bob's two-hour token after an hour: %d, want 401", code)
	}
	if code, _ := signIn("tok-1", 0); code != 200 {
		t.Errorf("alice's one-hour token after an hour (expired: the homeserver decides): %d", code)
	}
	h.now.Advance(time.Hour)
	if code, _ := signIn("tok-3", 0); code != 200 {
		t.Errorf("bob's token after its two hours (the homeserver decides): %d", code)
	}
}

// TestUsedTokensBounded: the memory of used OpenID tokens forgets
// expired ones and holds at most max; full of live ones, it remembers
// no more (the sign-in still works) rather than refusing everyone.
func TestUsedTokensBounded(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	u := newUsedTokens(3)
	for i := range 3 {
		if !u.claim(fmt.Sprint(i), now.Add(time.Hour), now) {
			t.Fatalf("token %d claimed before", i)
		}
	}
	if u.claim("0", now.Add(time.Hour), now) {
		t.Error("token 0 claimed twice")
	}
	if !u.claim("3", now.Add(time.Hour), now) || !u.claim("3", now.Add(time.Hour), now) || len(u.m) != 3 {
		t.Errorf("full: a new token is let in unremembered (%d held)", len(u.m))
	}
	later := now.Add(2 * time.Hour)
	if !u.claim("4", later.Add(time.Hour), later) || len(u.m) != 1 || u.claim("4", later.Add(time.Hour), later) {
		t.Errorf("expired tokens are not forgotten: %d held", len(u.m))
	}
	u.release("4")
	if !u.claim("4", later.Add(time.Hour), later) {
		t.Error("a released token stays claimed")
	}
}

// tokenWidgets is a homeserver that knows some OpenID tokens; everyone
// is in the game's room.
type tokenWidgets struct {
	mu    sync.Mutex
	users map[string]gobot.UserID
	n     int
}

func (w *tokenWidgets) VerifyOpenID(_ context.Context, token, _ string) (gobot.UserID, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.n++
	if u, ok := w.users[token]; ok {
		return u, nil
	}
	return "", errors.New("unknown token")
}

func (w *tokenWidgets) InRoom(context.Context, gobot.RoomID, gobot.UserID) (bool, error) {
	return true, nil
}

func (w *tokenWidgets) count() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n
}

// countingWidgets refuses every token and counts the checks.
type countingWidgets struct {
	mu sync.Mutex
	n  int
}

func (c *countingWidgets) VerifyOpenID(context.Context, string, string) (gobot.UserID, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.n++
	return "", errors.New("refused")
}

func (c *countingWidgets) InRoom(context.Context, gobot.RoomID, gobot.UserID) (bool, error) {
	return false, nil
}

// mxHarness is the web board in front of the real Matrix adapter on a
// real Dendrite (federation on, so it serves the OpenID userinfo
// route): a game between alice (Black) and bob in a room with carol.
type mxHarness struct {
	*harness
	hs                string
	alice, bob, carol *mautrix.Client
	dave              *mautrix.Client // in no room
	room              id.RoomID
	game              gobot.GameID
	botID             id.UserID
}

func register(t *testing.T, ctx context.Context, hs, name string) *mautrix.Client {
	t.Helper()
	cli, err := mautrix.NewClient(hs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var resp *mautrix.RespRegister
	for try := 0; ; try++ {
		resp, err = cli.RegisterDummy(ctx, &mautrix.ReqRegister[any]{Username: name, Password: "password-" + name, InitialDeviceDisplayName: name})
		if !errors.Is(err, mautrix.MLimitExceeded) || try == 40 {
			break // registration is rate-limited by address
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("registering %s: %v", name, err)
	}
	cli.UserID, cli.AccessToken, cli.DeviceID = resp.UserID, resp.AccessToken, resp.DeviceID
	return cli
}

// until polls cond every 50 ms until it holds or ctx ends.
func until(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("never: %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// newMatrixHarness starts Dendrite, the bot with its Matrix adapter and
// the web board (framed by origins), and plays `challenge`/`accept` in a
// room so that game #1 is alice's (Black) and bob's.
func newMatrixHarness(t *testing.T, origins ...string) *mxHarness {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	m := &mxHarness{hs: dendritetest.Start(t, dendritetest.Options{Federation: true,
		Exempt: []string{"@gobot:localhost", "@alice:localhost", "@bob:localhost", "@carol:localhost", "@dave:localhost"}})}
	botCli := register(t, ctx, m.hs, "gobot")
	m.botID = botCli.UserID
	m.alice, m.bob, m.carol, m.dave = register(t, ctx, m.hs, "alice"), register(t, ctx, m.hs, "bob"), register(t, ctx, m.hs, "carol"), register(t, ctx, m.hs, "dave")

	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, hub: NewHub(), console: &recorder{}, matrix: &recorder{}}
	wrapped := Publishing(db, h.hub)
	h.db = wrapped
	logw := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logw, &slog.HandlerOptions{Level: slog.LevelInfo}))
	h.bot = chat.New(chat.Config{Platforms: testPlatforms, Rules: "japanese", Width: 9, Height: 9}, wrapped, nil, nil, log)
	a, err := matrix.New(matrix.Config{Homeserver: m.hs, UserID: string(m.botID), Password: "password-gobot"}, h.bot, gobot.StoreState(db), log)
	if err != nil {
		t.Fatal(err)
	}
	h.bot.SetNotifier(matrix.Platform, a)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.srv, err = New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: "http://" + ln.Addr().String(),
		Widgets: a, WidgetOrigins: origins, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	h.bot.SetLinker(h.srv.Linker())
	h.ts = &httptest.Server{Listener: ln, Config: &http.Server{Handler: h.srv.Handler()}}
	h.ts.Start()
	rctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx) }()
	t.Cleanup(func() {
		stop()
		<-done
		h.ts.CloseClientConnections()
		h.ts.Close()
		db.Close()
		if t.Failed() {
			t.Logf("bot log:\n%s", logw)
		}
	})
	m.harness = h

	cr, err := m.alice.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "go club"})
	if err != nil {
		t.Fatal(err)
	}
	m.room = cr.RoomID
	for _, c := range []*mautrix.Client{m.bob, m.carol} {
		if _, err := c.JoinRoomByID(ctx, m.room); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.alice.InviteUser(ctx, m.room, &mautrix.ReqInviteUser{UserID: m.botID}); err != nil {
		t.Fatal(err)
	}
	until(t, ctx, "the bot joins the room", func() bool {
		resp, err := m.alice.JoinedMembers(ctx, m.room)
		return err == nil && resp.Joined[m.botID].DisplayName != "" || err == nil && len(resp.Joined) == 4
	})
	m.say(ctx, m.alice, "!go challenge @bob:localhost 9 black")
	until(t, ctx, "the challenge", func() bool { return m.hasGame(ctx, 1, false) })
	m.say(ctx, m.bob, "!go accept")
	until(t, ctx, "game #1", func() bool { return m.hasGame(ctx, 1, true) })
	m.game = 1
	return m
}

func (m *mxHarness) say(ctx context.Context, c *mautrix.Client, text string) {
	m.t.Helper()
	if _, err := c.SendText(ctx, m.room, text); err != nil {
		m.t.Fatal(err)
	}
}

// hasGame reports whether challenge id (or, with started, game id) is
// stored.
func (m *mxHarness) hasGame(ctx context.Context, n gobot.GameID, started bool) bool {
	found := false
	m.db.View(ctx, func(tx gobot.Tx) error {
		if started {
			_, err := tx.Match(n)
			found = err == nil
		} else {
			_, err := tx.Challenge(gobot.ChallengeID(n))
			found = err == nil
		}
		return nil
	})
	return found
}

// openID is c's OpenID token, as Element gets it for a widget.
func openID(t *testing.T, c *mautrix.Client) *mautrix.RespOpenIDToken {
	t.Helper()
	tok, err := c.RequestOpenIDToken(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// signIn posts credentials to the widget's sign-in route.
func (m *mxHarness) signIn(game gobot.GameID, query string, token, server string) (int, widgetSession) {
	m.t.Helper()
	b, _ := json.Marshal(widgetSignIn{AccessToken: token, MatrixServerName: server})
	resp, err := http.Post(fmt.Sprintf("%s/widget/%d/session%s", m.ts.URL, game, query), "application/json", strings.NewReader(string(b)))
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	var ws widgetSession
	if err := json.NewDecoder(resp.Body).Decode(&ws); err != nil {
		m.t.Fatalf("sign-in answer: %v", err)
	}
	return resp.StatusCode, ws
}

// bearerPost posts an action with a bearer token (and no CSRF token).
func (m *mxHarness) bearerPost(game gobot.GameID, token, action, point string) (int, answer) {
	m.t.Helper()
	f := url.Values{"action": {action}, "point": {point}, "id": {fmt.Sprintf("click-%d-%s", time.Now().UnixNano(), point)}}
	req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/g/%d/act", m.ts.URL, game), strings.NewReader(f.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		m.t.Fatal(err)
	}
	defer resp.Body.Close()
	var a answer
	json.NewDecoder(resp.Body).Decode(&a)
	return resp.StatusCode, a
}

// TestWidgetSignIn: the widget page is framed only by the configured
// origins; a sign-in with alice's OpenID token (checked with the real
// homeserver) opens alice's session, whatever the page's address says;
// its bearer token plays without a cookie or a CSRF token, follows the
// live stream, and opens nothing else. A made-up token, a tampered
// bearer or a cookie as a bearer is refused; a room member who does not
// play watches; someone outside the room gets nothing.
func TestWidgetSignIn(t *testing.T) {
	m := newMatrixHarness(t, "https://app.element.io")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	resp, err := http.Get(fmt.Sprintf("%s/widget/%d?room=!x:localhost&user=@bob:localhost&widgetId=w&parentUrl=https://app.element.io/", m.ts.URL, m.game))
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	csp := resp.Header.Get("Content-Security-Policy")
	if resp.StatusCode != 200 || !strings.HasSuffix(csp, "frame-ancestors https://app.element.io") || resp.Header.Get("X-Frame-Options") != "" ||
		!strings.Contains(string(page), `src="/static/vendor/matrix-widget-api/api.min.js"`) || strings.Contains(string(page), "<script>") {
		t.Fatalf("widget page: %d, CSP %q, XFO %q", resp.StatusCode, csp, resp.Header.Get("X-Frame-Options"))
	}
	if strings.Contains(string(page), "bob") {
		t.Error("the page shows the user its address names")
	}
	for _, path := range []string{"/g/1", "/l/x", "/static/board.js"} {
		r, err := http.Get(m.ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		if !strings.HasSuffix(r.Header.Get("Content-Security-Policy"), "frame-ancestors 'none'") || r.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s may be framed: CSP %q", path, r.Header.Get("Content-Security-Policy"))
		}
	}

	// alice's token, the page's address naming bob: alice's session.
	tok := openID(t, m.alice)
	code, ws := m.signIn(m.game, "?user=@bob:localhost", tok.AccessToken, tok.MatrixServerName)
	if code != 200 || ws.Role != "player" || ws.Color != "black" || ws.Token == "" || ws.State == nil || ws.State.Turn != "black" {
		t.Fatalf("alice's sign-in: %d %+v", code, ws)
	}
	if !strings.HasPrefix(ws.Resign, fmt.Sprintf("Resign game #%d against ", m.game)) {
		t.Errorf("the Resign button's question: %q", ws.Resign)
	}
	alice := ws.Token
	if code, a := m.bearerPost(m.game, alice, "play", "E5"); code != 200 || a.Message != "" || a.State == nil || a.State.Turn != "white" {
		t.Fatalf("alice's click: %d %+v", code, a)
	}
	// The click is announced in the Matrix room.
	until(t, ctx, "the announcement in the room", func() bool { return m.announced(ctx, "E5") })
	if code, a := m.bearerPost(m.game, alice, "play", "D4"); code != 200 || !strings.Contains(a.Message, "not your turn") && !strings.Contains(a.Message, "turn") {
		t.Errorf("alice out of turn: %d %+v", code, a)
	}

	// A token opens one session: shown again (another widget the user
	// allowed could replay it) it is refused.
	if code, ws := m.signIn(m.game, "", tok.AccessToken, tok.MatrixServerName); code != 401 || ws.Token != "" || !strings.Contains(ws.Message, "used already") {
		t.Errorf("alice's token again: %d %+v", code, ws)
	}

	// bob's token is bob's.
	tok = openID(t, m.bob)
	if code, ws := m.signIn(m.game, "?user=@alice:localhost", tok.AccessToken, tok.MatrixServerName); code != 200 || ws.Color != "white" || ws.Name != "bob" {
		t.Fatalf("bob's sign-in: %d %+v", code, ws)
	}
	// The live stream with the bearer token.
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/g/%d/events", m.ts.URL, m.game), nil)
	req.Header.Set("Authorization", "Bearer "+alice)
	es, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	line := ""
	for sc := bufio.NewScanner(es.Body); sc.Scan(); {
		if strings.HasPrefix(sc.Text(), "event: ") {
			line = sc.Text()
			break
		}
	}
	es.Body.Close()
	if es.StatusCode != 200 || line != "event: state" {
		t.Errorf("the live stream with a bearer token: %d %q", es.StatusCode, line)
	}

	// Refusals.
	if code, ws := m.signIn(m.game, "", "made-up-token", "localhost"); code != 401 || ws.Token != "" || !strings.Contains(ws.Message, "did not confirm") {
		t.Errorf("a made-up token: %d %+v", code, ws)
	}
	if code, ws := m.signIn(m.game, "", m.alice.AccessToken, "localhost"); code != 401 || ws.Token != "" {
		t.Errorf("alice's access token (not an OpenID token): %d %+v", code, ws)
	}
	tok = openID(t, m.dave)
	if code, ws := m.signIn(m.game, "", tok.AccessToken, tok.MatrixServerName); code != 403 || ws.Token != "" || !strings.Contains(ws.Message, "members of its room") {
		t.Errorf("dave, outside the room: %d %+v", code, ws)
	}
	tok = openID(t, m.carol)
	code, ws = m.signIn(m.game, "", tok.AccessToken, tok.MatrixServerName)
	if code != 200 || ws.Role != "watcher" || ws.Color != "" {
		t.Fatalf("carol, in the room: %d %+v", code, ws)
	}
	if code, a := m.bearerPost(m.game, ws.Token, "play", "C3"); code != 403 || !strings.Contains(a.Message, "watching") {
		t.Errorf("carol's click: %d %+v", code, a)
	}
	if code, ws := m.signIn(99, "", openID(t, m.alice).AccessToken, "localhost"); code != 404 || ws.Token != "" {
		t.Errorf("a game that does not exist: %d %+v", code, ws)
	}
	tampered := alice[:len(alice)-2] + "xx"
	for name, tk := range map[string]string{"tampered": tampered, "a cookie as a bearer": m.srv.sign.sign(purposeSession, Pass{Game: m.game, User: "matrix:@alice:localhost", Expires: time.Now().Add(time.Hour).Unix(), Session: "s"}), "a link as a bearer": strings.TrimPrefix(m.link(m.game, "alice"), m.ts.URL+"/l/")} {
		if code, _ := m.bearerPost(m.game, tk, "play", "C3"); code != 401 {
			t.Errorf("%s: %d, want 401", name, code)
		}
	}
	if code, _ := m.bearerPost(2, alice, "play", "C3"); code != 403 {
		t.Errorf("game #1's bearer on game #2: %d, want 403", code)
	}
	if _, g := m.game1(ctx); g != 1 {
		t.Errorf("game #1 has %d moves after the refusals, want 1", g)
	}
}

// link is a personal link of user (a Matrix localpart) to game id.
func (m *mxHarness) link(id gobot.GameID, user string) string {
	l, _, err := m.srv.Link(id, gobot.UserID("matrix:@"+user+":localhost"), false, 0)
	if err != nil {
		m.t.Fatal(err)
	}
	return l
}

// game1 returns game #1's move count.
func (m *mxHarness) game1(ctx context.Context) (*gobot.Match, int) {
	var match *gobot.Match
	m.db.View(ctx, func(tx gobot.Tx) error {
		var err error
		match, err = tx.Match(1)
		return err
	})
	if match == nil {
		return nil, -1
	}
	return match, len(match.Record.Moves)
}

// announced reports whether the bot said something naming point in the
// room.
func (m *mxHarness) announced(ctx context.Context, point string) bool {
	resp, err := m.alice.Messages(ctx, m.room, "", "", mautrix.DirectionBackward, nil, 30)
	if err != nil {
		return false
	}
	for _, e := range resp.Chunk {
		if e.Sender != m.botID || e.Type != event.EventMessage {
			continue
		}
		if err := e.Content.ParseRaw(e.Type); err != nil && !errors.Is(err, event.ErrContentAlreadyParsed) {
			continue
		}
		if strings.Contains(e.Content.AsMessage().Body, point) {
			return true
		}
	}
	return false
}

// lockedBuffer is a log for a test's failure output.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestReviewWidgetSignIn (real Dendrite): `!go review 9` in a Matrix room
// adds the review's widget to the room (gobot_review_1, its page
// /widget/r/1); the widget page is framed only by the configured
// origins; alice's OpenID token opens her session as the review's
// controller, whose bearer token plays a stone without a cookie or a
// CSRF token and streams the review; bob's opens a follower's; dave,
// outside the room, gets nothing; a game's widget token opens no
// review.
func TestReviewWidgetSignIn(t *testing.T) {
	m := newMatrixHarness(t, "https://app.element.io")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// alice lets the bot change the room's widgets (power level 100).
	var pl event.PowerLevelsEventContent
	if err := m.alice.StateEvent(ctx, m.room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	pl.SetUserLevel(m.botID, 100)
	if _, err := m.alice.SendStateEvent(ctx, m.room, event.StatePowerLevels, "", &pl); err != nil {
		t.Fatal(err)
	}
	m.say(ctx, m.alice, "!go review 9")
	var w struct {
		URL  string         `json:"url"`
		Data map[string]any `json:"data"`
	}
	until(t, ctx, "the review's widget in the room", func() bool {
		return m.alice.StateEvent(ctx, m.room, event.Type{Type: "im.vector.modular.widgets", Class: event.StateEventType}, "gobot_review_1", &w) == nil && w.URL != ""
	})
	if w.URL != m.ts.URL+"/widget/r/1?room=$matrix_room_id&user=$matrix_user_id" || w.Data["review"] != float64(1) {
		t.Fatalf("the review's widget: %+v", w)
	}
	resp, err := http.Get(m.ts.URL + "/widget/r/1?room=!x:localhost&user=@bob:localhost&widgetId=w&parentUrl=https://app.element.io/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasSuffix(resp.Header.Get("Content-Security-Policy"), "frame-ancestors https://app.element.io") ||
		!strings.Contains(string(page), `data-action="forward"`) || !strings.Contains(string(page), `src="/static/review.js"`) || strings.Contains(string(page), "<script>") || strings.Contains(string(page), "bob") {
		t.Fatalf("the review's widget page: %d %q\n%s", resp.StatusCode, resp.Header.Get("Content-Security-Policy"), page)
	}
	signIn := func(c *mautrix.Client, review int) (int, widgetSession) {
		t.Helper()
		tok := openID(t, c)
		b, _ := json.Marshal(widgetSignIn{AccessToken: tok.AccessToken, MatrixServerName: tok.MatrixServerName})
		resp, err := http.Post(fmt.Sprintf("%s/widget/r/%d/session", m.ts.URL, review), "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var ws widgetSession
		json.NewDecoder(resp.Body).Decode(&ws)
		return resp.StatusCode, ws
	}
	do := func(method, path, token string, form url.Values) (int, string) {
		t.Helper()
		var body io.Reader
		if form != nil {
			body = strings.NewReader(form.Encode())
		}
		req, _ := http.NewRequestWithContext(ctx, method, m.ts.URL+path, body)
		if form != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", "Bearer "+token)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if strings.HasSuffix(path, "/events") {
			for sc := bufio.NewScanner(res.Body); sc.Scan(); {
				if strings.HasPrefix(sc.Text(), "event: ") {
					return res.StatusCode, sc.Text()
				}
			}
			return res.StatusCode, ""
		}
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	code, alice := signIn(m.alice, 1)
	if code != 200 || alice.Role != "controller" || alice.Me != "matrix:@alice:localhost" || alice.ReviewState == nil || alice.Token == "" {
		t.Fatalf("alice's sign-in: %d %+v", code, alice)
	}
	if code, body := do("POST", "/r/1/act", alice.Token, url.Values{"action": {"play"}, "point": {"E5"}}); code != 200 || strings.Contains(body, `"message"`) {
		t.Fatalf("alice's stone with the bearer token: %d %s", code, body)
	}
	if n := len(m.storedReview(1).Tree.Nodes); n != 2 {
		t.Errorf("the stone was not stored: %d nodes", n)
	}
	if code, line := do("GET", "/r/1/events", alice.Token, nil); code != 200 || line != "event: state" {
		t.Errorf("the review's live stream with the bearer token: %d %q", code, line)
	}
	code, bob := signIn(m.bob, 1)
	if code != 200 || bob.Role != "follower" || bob.Me != "matrix:@bob:localhost" || !strings.Contains(bob.Name, "bob") {
		t.Fatalf("bob's sign-in: %d %+v", code, bob)
	}
	if code, body := do("GET", "/r/1/node/0", bob.Token, nil); code != 200 || !strings.Contains(body, `"node":0`) {
		t.Errorf("bob looks around with the bearer token: %d %s", code, body)
	}
	if code, ws := signIn(m.dave, 1); code != 403 || ws.Token != "" || !strings.Contains(ws.Message, "members of review r1's room") {
		t.Errorf("dave, outside the room: %d %+v", code, ws)
	}
	if code, ws := signIn(m.carol, 9); code != 404 || ws.Token != "" {
		t.Errorf("a review that does not exist: %d %+v", code, ws)
	}
	// A game's widget token is the game's only.
	_, game := m.signIn(m.game, "", openID(t, m.alice).AccessToken, "localhost")
	if code, _ := do("GET", "/r/1/node/0", game.Token, nil); code == 200 || game.Token == "" {
		t.Errorf("a game's widget token opened the review: %d (token %q)", code, game.Token)
	}
}
