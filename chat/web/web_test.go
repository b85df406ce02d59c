package web

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/chat/discord"
	"github.com/gobotgo/gobot/chat/matrix"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/storage"
)

// fakeTime is a time source tests move by hand.
type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeTime) Now() time.Time          { f.mu.Lock(); defer f.mu.Unlock(); return f.t }
func (f *fakeTime) Advance(d time.Duration) { f.mu.Lock(); f.t = f.t.Add(d); f.mu.Unlock() }

// recorder is a platform's notifier that keeps what it was given.
type recorder struct {
	mu   sync.Mutex
	msgs []protocol.Message
}

func (r *recorder) Notify(_ context.Context, m protocol.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.msgs = append(r.msgs, m)
	return nil
}

func (r *recorder) texts() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var s []string
	for _, m := range r.msgs {
		s = append(s, protocol.FormatText(m.Reply.Text, func(u gobot.UserID) string { return "@" + u.Local() }))
	}
	return s
}

// harness is a bot on a bbolt file with the web board served on a real
// loopback listener.
type harness struct {
	t       testing.TB
	db      gobot.Store // the store under the bot's publishing wrapper
	bot     *chat.Bot
	hub     *Hub
	srv     *Server
	ts      *httptest.Server
	now     *fakeTime
	console *recorder
	matrix  *recorder
	room    gobot.RoomID
}

var testSecret = []byte("0123456789abcdef0123456789abcdef-test")

func newHarness(t testing.TB) *harness {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	})
	return buildHarness(t, db, nil, nil)
}

// buildHarness serves a bot on store; pub publishes its game changes
// (nil: its own Hub); listen, if set, feeds the harness's Hub from
// elsewhere (a PostgreSQL listener) until the test ends.
func buildHarness(t testing.TB, store gobot.Store, pub func(*Hub) Publisher, listen func(context.Context, *harness)) *harness {
	t.Helper()
	h := &harness{t: t, db: store, hub: NewHub(), now: &fakeTime{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)},
		console: &recorder{}, matrix: &recorder{}, room: "console:main"}
	var p Publisher = h.hub
	if pub != nil {
		p = pub(h.hub)
	}
	wrapped := Publishing(store, p)
	h.bot = chat.New(chat.Config{Platforms: testPlatforms, Rules: "japanese", Width: 9, Height: 9}, wrapped, nil, h.now, nil)
	h.bot.SetNotifier("console", h.console)
	h.bot.SetNotifier("matrix", h.matrix)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	h.srv, err = New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: "http://" + ln.Addr().String(), Now: h.now.Now})
	if err != nil {
		t.Fatal(err)
	}
	h.bot.SetLinker(h.srv.Linker())
	h.ts = &httptest.Server{Listener: ln, Config: &http.Server{Handler: h.srv.Handler()}}
	h.ts.Start()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		if listen != nil {
			listen(ctx, h)
		}
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		h.ts.CloseClientConnections()
		h.ts.Close()
		// The answered clicks' messages are sent apart from their
		// requests (act.go): done before the database is checked.
		h.srv.Wait(context.Background())
	})
	return h
}

// cmd runs a chat command as user (a console name) in the console room.
func (h *harness) cmd(user, command string, args ...string) protocol.Reply {
	h.t.Helper()
	return h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: gobot.UserID("console:" + user), Name: user}, Room: h.room, Command: command, Args: args, Community: "console",
		Platform: console.Descriptor})
}

// testPlatforms are the adapters' descriptors, as cmd/gobot gives the bot them (chat.Config.Platforms).
var testPlatforms = []*protocol.Platform{console.Descriptor, matrix.Descriptor(""), discord.Descriptor}

// newGame starts a 9x9 game, alice Black against bob.
func (h *harness) newGame() gobot.GameID {
	h.t.Helper()
	if r := h.cmd("alice", "challenge", "@console:bob", "9", "black"); r.Error {
		h.t.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error || r.Game == 0 {
		h.t.Fatalf("accept: %+v", r)
	}
	return r.Game
}

// version returns game id's stored version.
func (h *harness) version(id gobot.GameID) uint64 {
	h.t.Helper()
	var v uint64
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if err == nil {
			v = m.Version
		}
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return v
}

func (h *harness) link(id gobot.GameID, user string, watch bool) string {
	l, _, err := h.srv.Link(id, gobot.UserID("console:"+user), watch, 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return l
}

// browser is a client with its own cookies, that does not follow
// redirects by itself.
type browser struct {
	h    *harness
	c    *http.Client
	csrf string
	game gobot.GameID
}

func (h *harness) browser() *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{h: h, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

func (b *browser) get(u string) (*http.Response, string) {
	b.h.t.Helper()
	res, err := b.c.Get(u)
	if err != nil {
		b.h.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

var csrfAttr = regexp.MustCompile(`data-csrf="([^"]+)"`)

// open opens a personal link and the page it leads to.
func (b *browser) open(link string, id gobot.GameID) string {
	b.h.t.Helper()
	res, _ := b.get(link)
	if res.StatusCode != http.StatusSeeOther {
		b.h.t.Fatalf("link: status %d, want 303", res.StatusCode)
	}
	res, _ = b.get(b.h.ts.URL + res.Header.Get("Location")) // its /open step
	if res.StatusCode != http.StatusSeeOther {
		b.h.t.Fatalf("link's open step: status %d, want 303", res.StatusCode)
	}
	res, page := b.get(b.h.ts.URL + res.Header.Get("Location"))
	if res.StatusCode != 200 {
		b.h.t.Fatalf("page: status %d: %s", res.StatusCode, page)
	}
	m := csrfAttr.FindStringSubmatch(page)
	if m == nil {
		b.h.t.Fatal("page has no CSRF token")
	}
	b.csrf, b.game = m[1], id
	return page
}

// post sends an action; the answer's status and message.
func (b *browser) post(action, point, id string) (int, string) {
	b.h.t.Helper()
	return b.postForm(url.Values{"csrf": {b.csrf}, "action": {action}, "point": {point}, "id": {id}})
}

func (b *browser) postForm(f url.Values) (int, string) {
	b.h.t.Helper()
	res, err := b.c.PostForm(b.h.ts.URL+gamePath(b.game)+"/act", f)
	if err != nil {
		b.h.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`"message":"((?:[^"\\]|\\.)*)"`).FindStringSubmatch(string(body))
	if m == nil {
		return res.StatusCode, ""
	}
	return res.StatusCode, m[1]
}

func TestLinkOpensPage(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	link := h.link(id, "alice", false)
	res, _ := b.get(link)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath(id)+"/open" {
		t.Fatalf("exchange: %d to %q, want 303 to %s/open (the token leaves the address bar)", res.StatusCode, res.Header.Get("Location"), gamePath(id))
	}
	ck := res.Cookies()
	if len(ck) != 1 || !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteLaxMode || ck[0].Path != gamePath(id)+"/open" || ck[0].MaxAge != 600 {
		t.Fatalf("the link being opened: cookie %+v, want one HttpOnly, SameSite=Lax cookie on %s/open for 10 minutes", ck, gamePath(id))
	}
	res, _ = b.get(h.ts.URL + gamePath(id) + "/open")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath(id) {
		t.Fatalf("open: %d to %q, want 303 to %s (a first open is one step)", res.StatusCode, res.Header.Get("Location"), gamePath(id))
	}
	ck = res.Cookies()
	if len(ck) != 2 || ck[1].Name != openCookie(id) || ck[1].MaxAge != -1 {
		t.Fatalf("open: cookies %+v, want the session and the link being opened cleared", ck)
	}
	if !ck[0].HttpOnly || ck[0].SameSite != http.SameSiteLaxMode || ck[0].Path != gamePath(id) || ck[0].Secure {
		t.Fatalf("cookie %+v: want one HttpOnly, SameSite=Lax cookie on %s, not Secure over http", ck, gamePath(id))
	}
	if want := int(DefaultLinkTTL / time.Second); ck[0].MaxAge != want {
		t.Errorf("cookie Max-Age=%d, want %d (the link's time left, counted by the browser: its clock may differ from the server's)", ck[0].MaxAge, want)
	}
	for _, hd := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"} {
		if res.Header.Get(hd) == "" {
			t.Errorf("no %s header", hd)
		}
	}
	page := b.open(link, id)
	if n := strings.Count(page, `data-point="`); n != 81 {
		t.Errorf("%d data-point elements, want 81", n)
	}
	for _, attr := range []string{"data-status", "data-message"} {
		if n := strings.Count(page, attr); n != 1 {
			t.Errorf("%d %s elements, want exactly 1", n, attr)
		}
	}
	for _, a := range []string{"pass", "resign", "undo", "done", "resume", "confirm"} {
		if !strings.Contains(page, `data-action="`+a+`"`) {
			t.Errorf("no data-action=%q button", a)
		}
	}
	if !strings.Contains(page, `data-point="E5" role="button"`) || !strings.Contains(page, `aria-label="E5, empty"`) {
		t.Error("E5 is not an empty button point")
	}
	if strings.Contains(page, "<script>") || strings.Contains(page, " style=") || strings.Contains(page, "onclick") {
		t.Error("inline script or style in the page (the CSP forbids them)")
	}
	// The same link opens again in another browser: another session,
	// the first still works.
	b2 := h.browser()
	b2.open(link, id)
	if code, msg := b.post("play", "E5", "first-click-1"); code != 200 || msg != "" {
		t.Fatalf("first session: %d %q", code, msg)
	}
	if code, msg := b2.post("pass", "", "second-sess-1"); code != 200 || msg == "" {
		t.Fatalf("second session (not alice's turn): %d %q, want a refusal", code, msg)
	}
}

func TestBadLinks(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	other := h.newGame()
	link := h.link(id, "alice", false)
	tok := link[strings.LastIndex(link, "/")+1:]
	dot := strings.IndexByte(tok, '.')
	flip := func(s string, i int) string {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		return s[:i] + string(c) + s[i+1:]
	}
	cases := map[string]int{
		"payload changed":   http.StatusUnauthorized,
		"signature changed": http.StatusUnauthorized,
		"garbage":           http.StatusUnauthorized,
		"no signature":      http.StatusUnauthorized,
		"other secret":      http.StatusUnauthorized,
	}
	urls := map[string]string{
		"payload changed":   h.ts.URL + "/l/" + flip(tok, 3),
		"signature changed": h.ts.URL + "/l/" + flip(tok, dot+3),
		"garbage":           h.ts.URL + "/l/hello",
		"no signature":      h.ts.URL + "/l/" + tok[:dot],
		"other secret":      h.ts.URL + "/l/" + signer{key: []byte("another secret, another gobot......")}.sign(purposeLink, Pass{Game: id, User: "console:alice", Expires: h.now.Now().Add(time.Hour).Unix()}),
	}
	for name, u := range urls {
		res, body := h.browser().get(u)
		if res.StatusCode != cases[name] {
			t.Errorf("%s: status %d, want %d", name, res.StatusCode, cases[name])
		}
		if strings.Contains(body, "alice") || strings.Contains(body, "data-point") {
			t.Errorf("%s: the refusal page tells about the game", name)
		}
		if !strings.Contains(body, "web") {
			t.Errorf("%s: the refusal page does not say how to get a new link", name)
		}
	}
	// Without a session, and on paths that are no link.
	for _, p := range []string{gamePath(id), gamePath(id) + "/events", "/", "/l/", "/g/x", "/whatever"} {
		if res, _ := h.browser().get(h.ts.URL + p); res.StatusCode != http.StatusUnauthorized {
			t.Errorf("GET %s without a session: %d, want 401", p, res.StatusCode)
		}
	}
	// A session cookie is not a link, nor a link a cookie.
	b := h.browser()
	b.open(link, id)
	u, _ := url.Parse(h.ts.URL + gamePath(id))
	sess := b.c.Jar.Cookies(u)[0].Value
	if res, _ := h.browser().get(h.ts.URL + "/l/" + sess); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a session cookie as a link: %d, want 401", res.StatusCode)
	}
	forged := h.browser()
	forged.c.Jar.SetCookies(u, []*http.Cookie{{Name: cookieName(id), Value: tok, Path: gamePath(id)}})
	if res, _ := forged.get(h.ts.URL + gamePath(id)); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("a link as the session cookie: %d, want 401", res.StatusCode)
	}
	// A session for another game, presented here: 403, and it cannot act.
	uo, _ := url.Parse(h.ts.URL + gamePath(other))
	moved := h.browser()
	moved.c.Jar.SetCookies(uo, []*http.Cookie{{Name: cookieName(other), Value: sess, Path: gamePath(other)}})
	if res, _ := moved.get(h.ts.URL + gamePath(other)); res.StatusCode != http.StatusForbidden {
		t.Errorf("game #%d's session on game #%d: %d, want 403", id, other, res.StatusCode)
	}
	moved.csrf, moved.game = b.csrf, other
	before := h.version(other)
	if code, _ := moved.post("play", "E5", "wrong-game-1"); code != http.StatusForbidden || h.version(other) != before {
		t.Errorf("acting on another game: %d, version %d → %d", code, before, h.version(other))
	}
	// Expiry: the link and the session both end after link_ttl.
	h.now.Advance(DefaultLinkTTL + time.Second)
	if res, body := h.browser().get(link); res.StatusCode != http.StatusForbidden || !strings.Contains(body, "expired") {
		t.Errorf("expired link: %d, want 403 saying it expired", res.StatusCode)
	}
	if res, _ := b.get(h.ts.URL + gamePath(id)); res.StatusCode != http.StatusForbidden {
		t.Errorf("expired session: %d, want 403", res.StatusCode)
	}
}

func TestGetChangesNothing(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	link := h.link(id, "alice", false)
	b := h.browser()
	b.open(link, id)
	before := h.version(id)
	for _, p := range []string{"/l/" + link[strings.LastIndex(link, "/")+1:], gamePath(id), gamePath(id) + "/act", gamePath(id) + "/act?action=play&point=E5&id=aaaaaaaaaa&csrf=" + url.QueryEscape(b.csrf), "/static/board.js"} {
		for range 3 {
			b.get(h.ts.URL + p)
		}
		res, err := b.c.Head(h.ts.URL + p)
		if err == nil {
			res.Body.Close()
		}
	}
	if v := h.version(id); v != before {
		t.Errorf("GETs changed the game: version %d → %d", before, v)
	}
	if got := h.console.texts(); len(got) != 0 {
		t.Errorf("GETs sent messages: %q", got)
	}
}

func TestCSRF(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	link := h.link(id, "alice", false)
	alice, other := h.browser(), h.browser()
	alice.open(link, id)
	other.open(link, id) // the same player's other session: another token
	before := h.version(id)
	for name, tok := range map[string]string{"none": "", "another session's": other.csrf, "made up": "AAAA"} {
		if other.csrf == alice.csrf {
			t.Fatal("two sessions got the same CSRF token")
		}
		code, msg := alice.postForm(url.Values{"csrf": {tok}, "action": {"play"}, "point": {"E5"}, "id": {"csrf-test-" + strings.ReplaceAll(name, " ", "")}})
		if code != http.StatusForbidden || msg == "" {
			t.Errorf("%s CSRF token: %d %q, want 403 with a message", name, code, msg)
		}
	}
	if v := h.version(id); v != before {
		t.Fatalf("a POST without its CSRF token changed the game")
	}
	if code, msg := alice.post("play", "E5", "csrf-test-ok"); code != 200 || msg != "" || h.version(id) == before {
		t.Fatalf("with the token: %d %q", code, msg)
	}
}

// TestRateLimit: a player's clicks in a game are limited together,
// whichever of their sessions sends them: opening the link again (three
// sessions here) is no new allowance. Another player is not limited by
// them.
func TestRateLimit(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	var sessions []*browser
	for range 3 {
		b := h.browser()
		b.open(h.link(id, "alice", false), id)
		sessions = append(sessions, b)
	}
	limited := 0
	for i := range 21 { // the clock stands still: no token comes back
		code, _ := sessions[i%3].post("play", "Z99", "rate-limit-"+string(rune('a'+i)))
		if code == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited != 21-8 {
		t.Errorf("%d of 21 POSTs from 3 sessions of alice's refused with 429, want 13 (burst 8 for the player)", limited)
	}
	fresh := h.browser()
	fresh.open(h.link(id, "alice", false), id)
	if code, msg := fresh.post("play", "E5", "rate-limit-fresh"); code != http.StatusTooManyRequests || !strings.Contains(msg, "Slow down") {
		t.Errorf("a fourth session of alice's: %d %q, want 429", code, msg)
	}
	bob := h.browser()
	bob.open(h.link(id, "bob", false), id)
	if code, _ := bob.post("play", "E5", "rate-limit-other"); code != 200 {
		t.Errorf("bob is limited by alice's clicks: %d", code)
	}
	h.now.Advance(time.Second)
	if code, _ := sessions[0].post("pass", "", "rate-limit-later"); code == http.StatusTooManyRequests {
		t.Errorf("still limited a second later")
	}
}

func TestBodyBounded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	b.open(h.link(id, "alice", false), id)
	code, _ := b.postForm(url.Values{"csrf": {b.csrf}, "action": {"play"}, "point": {"E5"}, "id": {"big-body-1"}, "pad": {strings.Repeat("x", 10<<10)}})
	if code != http.StatusRequestEntityTooLarge {
		t.Errorf("a 10 KB body: %d, want 413", code)
	}
}

// TestAuthorizationSchemes: only a Bearer Authorization (the scheme in
// any case) is a widget's session. Another scheme, such as the Basic
// credentials a reverse proxy passes on, leaves the cookie session in
// charge, CSRF check included.
func TestAuthorizationSchemes(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	b.open(h.link(id, "alice", false), id)
	send := func(c *http.Client, method, auth string, f url.Values) int {
		t.Helper()
		u := h.ts.URL + gamePath(id)
		var body io.Reader
		if method == http.MethodPost {
			u += "/act"
			body = strings.NewReader(f.Encode())
		}
		req, _ := http.NewRequest(method, u, body)
		if body != nil {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		req.Header.Set("Authorization", auth)
		res, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	const basic = "Basic dXNlcjpwYXNz"
	if code := send(b.c, http.MethodGet, basic, nil); code != 200 {
		t.Errorf("the page with the cookie and Basic credentials: %d", code)
	}
	if code := send(b.c, http.MethodPost, basic, url.Values{"action": {"play"}, "point": {"E5"}, "id": {"auth-no-csrf"}}); code != http.StatusForbidden {
		t.Errorf("Basic credentials stood in for the CSRF token: %d", code)
	}
	if code := send(b.c, http.MethodPost, basic, url.Values{"csrf": {b.csrf}, "action": {"play"}, "point": {"E5"}, "id": {"auth-basic"}}); code != 200 {
		t.Errorf("a move with the cookie and Basic credentials: %d", code)
	}
	// bob's widget token, its scheme written in lower case, plays
	// without cookie or CSRF token.
	tok := h.srv.sign.sign(purposeWidget, Pass{Game: id, User: "console:bob", Expires: h.now.Now().Add(time.Hour).Unix(), Session: newSessionID()})
	if code := send(http.DefaultClient, http.MethodPost, "bearer "+tok, url.Values{"action": {"play"}, "point": {"C3"}, "id": {"auth-bearer"}}); code != 200 {
		t.Errorf("bob's bearer token: %d", code)
	}
	var moves int
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if err == nil {
			moves = len(m.Record.Moves)
		}
		return err
	})
	if moves != 2 {
		t.Errorf("%d moves recorded, want 2 (alice's with the cookie, bob's with the bearer)", moves)
	}
}

func TestClickIsAChatMove(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	alice, bob := h.browser(), h.browser()
	alice.open(h.link(id, "alice", false), id)
	bob.open(h.link(id, "bob", false), id)
	v := h.version(id)
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("play E5: %d %q", code, msg)
	}
	// A retried POST (the same click ID) is applied once.
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("retry: %d %q", code, msg)
	}
	if got := h.version(id); got != v+1 {
		t.Errorf("version %d → %d, want one change", v, got)
	}
	waitFor(t, func() bool { return len(h.console.texts()) >= 1 })
	if got := h.console.texts(); len(got) != 1 || !strings.Contains(got[0], "@alice played E5") {
		t.Errorf("room got %q, want one announcement of alice's move", got)
	}
	// Refusals carry the chat's text and change nothing.
	if _, msg := bob.post("play", "E5", "click-e5-0002"); !strings.Contains(msg, "E5 is occupied") {
		t.Errorf("occupied: %q", msg)
	}
	if _, msg := alice.post("play", "D4", "click-d4-0001"); !strings.Contains(msg, "turn") {
		t.Errorf("out of turn: %q", msg)
	}
	if _, msg := bob.post("play", "J10", "click-j10-001"); !strings.Contains(msg, "off the board") {
		t.Errorf("off the board: %q", msg)
	}
	if got := h.version(id); got != v+1 {
		t.Errorf("refusals changed the game")
	}
	if code, msg := bob.post("explode", "", "click-bad-0001"); code != http.StatusBadRequest || msg == "" {
		t.Errorf("unknown action: %d %q", code, msg)
	}
	if code, msg := bob.post("play", "E5", "x"); code != http.StatusBadRequest || msg == "" {
		t.Errorf("short click ID: %d %q", code, msg)
	}
	// Undo: request, decline, request, accept.
	steps := []struct {
		b           *browser
		action, pt  string
		wantVersion uint64
	}{
		{alice, "undo", "", v + 2}, {bob, "decline", "", v + 3}, {alice, "undo", "", v + 4}, {bob, "undo", "", v + 5},
	}
	for i, s := range steps {
		if code, msg := s.b.post(s.action, s.pt, "undo-step-"+string(rune('a'+i))); code != 200 || msg != "" {
			t.Fatalf("step %d %s: %d %q", i, s.action, code, msg)
		}
	}
	_, page := alice.get(h.ts.URL + gamePath(id))
	if strings.Contains(page, `data-stone="black"`) {
		t.Error("the undone stone is still on the board")
	}
}

func TestWatcher(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	w := h.browser()
	page := w.open(h.link(id, "carol", true), id)
	if strings.Contains(page, "data-action") {
		t.Error("a watcher's page has action buttons")
	}
	if !strings.Contains(page, `data-status`) || !strings.Contains(page, "Black to play") {
		t.Error("a watcher's page shows no status")
	}
	v := h.version(id)
	code, msg := w.post("play", "E5", "watcher-click1")
	if code != http.StatusForbidden || !strings.Contains(msg, "watching") || h.version(id) != v {
		t.Errorf("watcher's click: %d %q", code, msg)
	}
	// A player's link with watch set is watch-only too.
	w2 := h.browser()
	w2.open(h.link(id, "alice", true), id)
	if code, _ := w2.post("play", "E5", "watcher-click2"); code != http.StatusForbidden {
		t.Errorf("a watch link of a player acted: %d", code)
	}
}

// waitFor polls cond for up to 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for range 1000 {
		if cond() {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("condition not met in 10 s")
}

// sse reads a game's event stream.
type sse struct {
	res *http.Response
	r   *bufio.Reader
}

func (b *browser) events(lastID string) *sse {
	b.h.t.Helper()
	req, _ := http.NewRequest("GET", b.h.ts.URL+gamePath(b.game)+"/events", nil)
	if lastID != "" {
		req.Header.Set("Last-Event-ID", lastID)
	}
	res, err := b.c.Do(req)
	if err != nil {
		b.h.t.Fatal(err)
	}
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		b.h.t.Fatalf("events: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	b.h.t.Cleanup(func() { res.Body.Close() })
	return &sse{res: res, r: bufio.NewReader(res.Body)}
}

// next returns the next event's id and data.
func (s *sse) next(t *testing.T) (id, data string) {
	t.Helper()
	for {
		line, err := s.r.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case strings.HasPrefix(line, "id: "):
			id = line[4:]
		case strings.HasPrefix(line, "data: "):
			data = line[6:]
		case line == "" && data != "":
			return id, data
		}
	}
}

func TestLiveUpdates(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	b.open(h.link(id, "carol", true), id)
	v0 := h.version(id)
	ev := b.events("")
	// First the current state, then each change, whoever makes it: here
	// a typed chat command.
	gotID, _ := ev.next(t)
	if gotID != itoa(v0) {
		t.Fatalf("first event id %s, want %d", gotID, v0)
	}
	if r := h.cmd("alice", "play", "C3"); r.Error {
		t.Fatal(r.Text)
	}
	gotID, data := ev.next(t)
	if gotID != itoa(v0+1) || !strings.Contains(data, `data-point=\"C3\" data-stone=\"black\"`) {
		t.Fatalf("after play C3: event %s %.200s", gotID, data)
	}
	// Resume: a page that saw v0 reconnects after two more moves and gets
	// the current state at once.
	h.cmd("bob", "play", "G7")
	h.cmd("alice", "play", "G3")
	again := b.events(itoa(v0))
	gotID, data = again.next(t)
	if gotID != itoa(v0+3) || !strings.Contains(data, `data-point=\"G3\" data-stone=\"black\"`) || !strings.Contains(data, `data-point=\"G7\" data-stone=\"white\"`) {
		t.Fatalf("resumed from %d: event %s", v0, gotID)
	}
	if h.hub.Pages() != 2 {
		t.Errorf("%d pages subscribed, want 2", h.hub.Pages())
	}
}

func itoa(v uint64) string { return strconv.FormatUint(v, 10) }

func TestPublicURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"https://go.example.org": true, "http://127.0.0.1:8080": true, "http://localhost:80": true, "http://[::1]:9": true,
		"http://go.example.org": false, "http://192.168.1.2:8080": false, "ftp://x": false, "": false, "https://x.org/#f": false,
	} {
		if _, err := CheckPublicURL(u); (err == nil) != ok {
			t.Errorf("CheckPublicURL(%q) = %v, want ok=%v", u, err, ok)
		}
	}
	_, err := CheckPublicURL("http://go.example.org")
	if err == nil || !strings.Contains(err.Error(), "credential") {
		t.Errorf("the refusal does not say why: %v", err)
	}
}

// TestClickAcrossPlatforms: in a game between platforms (its room on
// the terminal, its mirror a Matrix room), the Matrix player's click is
// a move from their platform's room: played, not refused for the room's
// platform.
func TestClickAcrossPlatforms(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	const bob = gobot.UserID("matrix:@bob:example.org")
	if err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if err != nil {
			return err
		}
		m.White, m.Mirror = bob, "matrix:!club:example.org"
		return tx.PutMatch(m)
	}); err != nil {
		t.Fatal(err)
	}
	alice, b := h.browser(), h.browser()
	alice.open(h.link(id, "alice", false), id)
	l, _, err := h.srv.Link(id, bob, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	b.open(l, id)
	if code, msg := alice.post("play", "E5", "click-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("alice's E5: %d %q", code, msg)
	}
	v := h.version(id)
	if code, msg := b.post("play", "C3", "click-c3-0001"); code != 200 || msg != "" {
		t.Fatalf("bob's C3 from the board: %d %q", code, msg)
	}
	if got := h.version(id); got != v+1 {
		t.Errorf("version %d → %d, want bob's move", v, got)
	}
}
