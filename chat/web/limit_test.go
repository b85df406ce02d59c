package web

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/httpserver"
)

// TestWidgetFloodSparesOthers: the review's attack, 50 made-up tokens
// naming alice's homeserver from one client, reaches the homeserver
// only at that client's rate and leaves alice's sign-in (another
// client, the same homeserver) untouched. Only many clients together
// reach the homeserver's limit, and then other homeservers still sign
// in.
func TestWidgetFloodSparesOthers(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	hs := &tokenWidgets{users: map[string]gobot.UserID{"alice-1": "console:alice", "alice-2": "console:alice", "bob-1": "console:bob"}}
	_, base := widgetBoard(t, h, hs)
	flooder := clientFrom(t, "127.0.0.2")
	refused := 0
	for i := range 50 {
		code, ws := widgetSignInFrom(t, flooder, base, id, fmt.Sprintf("made-up-%d", i), "matrix.org", "")
		if code == http.StatusTooManyRequests {
			refused++
			if ws.Message != widgetBusy[overClient] {
				t.Fatalf("429 says %q", ws.Message)
			}
		}
	}
	if hs.count() != widgetClient.Burst || refused != 50-widgetClient.Burst {
		t.Fatalf("one client's 50 sign-ins: %d checked, %d refused; want %d checked", hs.count(), refused, widgetClient.Burst)
	}
	alice := clientFrom(t, "127.0.0.1")
	if code, ws := widgetSignInFrom(t, alice, base, id, "alice-1", "matrix.org", ""); code != 200 || ws.Token == "" {
		t.Fatalf("alice during the flood: %d %+v", code, ws)
	}
	// Three more clients, each within its own rate, bring matrix.org to
	// its limit.
	over := 0
	for i := range 3 {
		c := clientFrom(t, fmt.Sprintf("127.0.0.%d", 3+i))
		for j := range widgetClient.Burst {
			if code, ws := widgetSignInFrom(t, c, base, id, fmt.Sprintf("made-up-%d-%d", i, j), "matrix.org", ""); code == http.StatusTooManyRequests {
				if ws.Message != widgetBusy[overTarget] {
					t.Fatalf("429 says %q", ws.Message)
				}
				over++
			}
		}
	}
	// 20 + alice's 1 + 60 − 1 = 80 for matrix.org: its burst is 60.
	if want := widgetClient.Burst + 1 + 3*widgetClient.Burst - widgetServer.Burst; over != want {
		t.Errorf("%d sign-ins refused for matrix.org, want %d", over, want)
	}
	if code, ws := widgetSignInFrom(t, alice, base, id, "bob-1", "example.org", ""); code != 200 || ws.Token == "" {
		t.Errorf("another homeserver: %d %+v", code, ws)
	}
	h.now.Advance(time.Second)
	if code, ws := widgetSignInFrom(t, alice, base, id, "alice-2", "matrix.org", ""); code != 200 || ws.Token == "" {
		t.Errorf("matrix.org a second later: %d %+v", code, ws)
	}
}

// heldWidgets is a homeserver that never answers a "held-" token until
// released (a server that hangs, to hold checks open), and knows
// alice's tokens; it counts the checks under way.
type heldWidgets struct {
	mu       sync.Mutex
	now, max int
	release  chan struct{}
}

func (w *heldWidgets) VerifyOpenID(ctx context.Context, token, _ string) (gobot.UserID, error) {
	if strings.HasPrefix(token, "alice-") {
		return "console:alice", nil
	}
	w.mu.Lock()
	w.now++
	w.max = max(w.max, w.now)
	w.mu.Unlock()
	defer func() { w.mu.Lock(); w.now--; w.mu.Unlock() }()
	select {
	case <-w.release:
	case <-ctx.Done():
	}
	return "", errors.New("refused")
}

func (w *heldWidgets) InRoom(context.Context, gobot.RoomID, gobot.UserID) (bool, error) {
	return true, nil
}

func (w *heldWidgets) held() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now
}

// TestOpenIDChecksBounded: the review's second attack, sign-ins naming
// many homeservers that hang. One client holds at most 2 checks open;
// one homeserver at most 4; all together 16. A client holding its 2
// costs alice nothing; only when 16 are held (8 clients at it) is a
// sign-in refused (429), and it goes through as soon as they end.
func TestOpenIDChecksBounded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	hs := &heldWidgets{release: make(chan struct{})}
	_, base := widgetBoard(t, h, hs)
	var wg sync.WaitGroup
	var mu sync.Mutex
	inFlightRefusals := 0
	// start sends n sign-ins from client at once, the i-th naming
	// server(i).
	start := func(client string, server func(int) string, n int) {
		c := clientFrom(t, client)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				code, ws := widgetSignInFrom(t, c, base, id, fmt.Sprintf("held-%s-%d", client, i), server(i), "")
				if code == http.StatusTooManyRequests && ws.Message == widgetBusy[overInFlight] {
					mu.Lock()
					inFlightRefusals++
					mu.Unlock()
				}
			}()
		}
	}
	settle := func(held, refused int) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			r := inFlightRefusals
			mu.Unlock()
			if hs.held() == held && r == refused {
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		t.Fatalf("%d checks held and %d refused, want %d and %d", hs.held(), inFlightRefusals, held, refused)
	}
	defer func() { close(hs.release); wg.Wait() }()
	// One client, ten homeservers: 2 checks held, 8 refused.
	each := func(prefix string) func(int) string {
		return func(i int) string { return fmt.Sprintf("%s-%d.example", prefix, i) }
	}
	start("127.0.0.2", each("hang"), 10)
	settle(2, 8)
	alice := clientFrom(t, "127.0.0.1")
	if code, ws := widgetSignInFrom(t, alice, base, id, "alice-1", "example.org", ""); code != 200 || ws.Token == "" {
		t.Fatalf("alice while one client holds its checks: %d %+v", code, ws)
	}
	// Three clients naming one homeserver: 4 held for it, 2 refused.
	for _, c := range []string{"127.0.0.3", "127.0.0.4", "127.0.0.5"} {
		start(c, func(int) string { return "one.example" }, 2)
	}
	settle(6, 10)
	// Six more clients on homeservers of their own: 10 more held, 16 in
	// all, and the last client's two refused.
	for i := range 6 {
		start(fmt.Sprintf("127.0.0.%d", 10+i), each(fmt.Sprintf("own-%d", i)), 2)
	}
	settle(16, 12)
	start("127.0.0.30", each("late"), 2)
	settle(16, 14)
	if code, ws := widgetSignInFrom(t, alice, base, id, "alice-2", "example.org", ""); code != http.StatusTooManyRequests || ws.Message != widgetBusy[overInFlight] {
		t.Fatalf("alice with 16 checks held: %d %+v, want 429", code, ws)
	}
	close(hs.release)
	wg.Wait()
	hs.release = make(chan struct{}) // for the deferred close
	if code, ws := widgetSignInFrom(t, alice, base, id, "alice-3", "example.org", ""); code != 200 || ws.Token == "" {
		t.Fatalf("alice once the checks ended: %d %+v", code, ws)
	}
}

// openStream opens game id's event stream with c and session cookie
// cookie on base; the response (its body closed at the end of the
// test).
func openStream(t *testing.T, c *http.Client, base string, id gobot.GameID, cookie *http.Cookie) *http.Response {
	t.Helper()
	req, _ := http.NewRequest("GET", base+gamePath(id)+"/events", nil)
	req.AddCookie(cookie)
	res, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { res.Body.Close() })
	return res
}

// sessionCookie opens a link and returns the session cookie it sets.
func sessionCookie(t *testing.T, h *harness, id gobot.GameID, user string, watch bool) *http.Cookie {
	t.Helper()
	b := h.browser()
	res, _ := b.get(h.link(id, user, watch))
	res, _ = b.get(h.ts.URL + res.Header.Get("Location")) // the link's /open step sets it
	for _, c := range res.Cookies() {
		if c.Name == cookieName(id) {
			return c
		}
	}
	t.Fatalf("no session cookie from %s's link", user)
	return nil
}

// TestStreamsBounded: one session (one watch-only link opened once) has
// at most 8 live streams; the 9th gets 429 in words, another session is
// not held back, and a closed stream frees its place. The process has
// a ceiling of its own (MaxStreams).
func TestStreamsBounded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	carol := sessionCookie(t, h, id, "carol", true)
	c := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(c.Transport.(*http.Transport).CloseIdleConnections)
	var open []*http.Response
	for i := range MaxSessionStreams {
		res := openStream(t, c, h.ts.URL, id, carol)
		if res.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i+1, res.StatusCode)
		}
		open = append(open, res)
	}
	refused := func(res *http.Response, want string) {
		t.Helper()
		body, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusTooManyRequests || strings.TrimSpace(string(body)) != want {
			t.Fatalf("over the limit: %d %q, want 429 %q", res.StatusCode, body, want)
		}
	}
	refused(openStream(t, c, h.ts.URL, id, carol), streamsFull[0])
	if res := openStream(t, c, h.ts.URL, id, sessionCookie(t, h, id, "dave", true)); res.StatusCode != 200 {
		t.Fatalf("another session: %d", res.StatusCode)
	}
	open[0].Body.Close()
	deadline := time.Now().Add(10 * time.Second)
	for h.srv.streams.count() != MaxSessionStreams && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if res := openStream(t, c, h.ts.URL, id, carol); res.StatusCode != 200 {
		t.Fatalf("after one closed: %d", res.StatusCode)
	}

	// The process's ceiling, across sessions.
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, Platforms: testPlatforms, PublicURL: h.ts.URL, Now: h.now.Now, MaxStreams: 3})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	for i := range 3 {
		if res := openStream(t, c, ts.URL, id, sessionCookie(t, h, id, fmt.Sprintf("w%d", i), true)); res.StatusCode != 200 {
			t.Fatalf("stream %d of 3: %d", i+1, res.StatusCode)
		}
	}
	refused(openStream(t, c, ts.URL, id, sessionCookie(t, h, id, "w3", true)), streamsFull[-1])
}

// TestClientStreamsBounded: one client opening a watch link again and
// again (each open a new session) holds at most MaxClientStreams live
// streams, so it cannot take the process's; another client still opens
// one.
func TestClientStreamsBounded(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	c := &http.Client{Transport: &http.Transport{}}
	t.Cleanup(c.Transport.(*http.Transport).CloseIdleConnections)
	var cookie *http.Cookie
	for i := range MaxClientStreams {
		if i%MaxSessionStreams == 0 {
			cookie = sessionCookie(t, h, id, "carol", true) // the link opened again
		}
		if res := openStream(t, c, h.ts.URL, id, cookie); res.StatusCode != 200 {
			t.Fatalf("stream %d: %d", i+1, res.StatusCode)
		}
	}
	res := openStream(t, c, h.ts.URL, id, sessionCookie(t, h, id, "carol", true))
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusTooManyRequests || strings.TrimSpace(string(body)) != streamsFull[1] {
		t.Fatalf("a fresh session of the same client: %d %q, want 429 %q", res.StatusCode, body, streamsFull[1])
	}
	if res := openStream(t, clientFrom(t, "127.0.0.2"), h.ts.URL, id, sessionCookie(t, h, id, "dave", true)); res.StatusCode != 200 {
		t.Fatalf("another client: %d", res.StatusCode)
	}
}

// TestTimeouts: a client that sends its headers slowly is cut off (the
// read-header timeout), and so is one that stays idle between requests;
// a live stream outlives the read and write timeouts and still carries
// the next move.
func TestTimeouts(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	const short = 200 * time.Millisecond
	hs := h.srv.HTTPServer(httpserver.Timeouts{ReadHeader: short, Read: short, Write: short, Idle: short})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go hs.Serve(ln)
	t.Cleanup(func() { hs.Close() })
	base := "http://" + ln.Addr().String()
	cutOff := func(what, send string) {
		t.Helper()
		conn, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		io.WriteString(conn, send)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second)) // the test's patience, not the server's timeout
		_, err = io.Copy(io.Discard, conn)
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Errorf("%s: the server still holds the connection after 10 s", what)
		}
	}
	cutOff("headers never finished", "GET /static/board.css HTTP/1.1\r\nHost: x\r\n")
	cutOff("idle after a request", "GET /static/board.css HTTP/1.1\r\nHost: x\r\n\r\n")

	res := openStream(t, http.DefaultClient, base, id, sessionCookie(t, h, id, "carol", true))
	if res.StatusCode != 200 {
		t.Fatalf("stream: %d", res.StatusCode)
	}
	ev := &sse{res: res, r: bufio.NewReader(res.Body)}
	ev.next(t)
	time.Sleep(3 * short) // past every timeout
	if r := h.cmd("alice", "play", "C3"); r.Error {
		t.Fatal(r.Text)
	}
	if _, data := ev.next(t); !strings.Contains(data, `data-point=\"C3\" data-stone=\"black\"`) {
		t.Fatalf("after the timeouts the stream says %.200s", data)
	}
}

// TestStaticFilesOnly: /static/ serves its files and lists no
// directory; /activity/ serves the bundle's two hashed names and nothing
// else (not the vendored SDK's files: the bundle has what the page
// runs).
func TestStaticFilesOnly(t *testing.T) {
	ah := newActivityHarness(t)
	for _, c := range []struct {
		path string
		code int
	}{
		{"/static/board.css", 200},
		{"/static/", 404},
		{"/static/vendor/", 404},
		{"/static/vendor", 404},
		{"/static/nothing.js", 404},
		{"/activity/app.js", 404},
		{"/activity/app-0123456789abcdef.css", 404},
		{"/activity/sdk/", 401},
		{"/activity/sdk/README.md", 401},
	} {
		res, body := ah.get(c.path, nil)
		if res.StatusCode != c.code || c.code != 200 && (strings.Contains(body, "<a href") || strings.Contains(body, ".js")) {
			t.Errorf("%s: %d %.100q, want %d", c.path, res.StatusCode, body, c.code)
		}
	}
}
