package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// clientFrom is an HTTP client whose connections come from local
// address ip (any of 127.0.0.0/8 on loopback): another client, as the
// server sees it.
func clientFrom(t testing.TB, ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}
	tr := &http.Transport{DialContext: d.DialContext}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

func TestParseTrustedProxies(t *testing.T) {
	got, err := ParseTrustedProxies([]string{"127.0.0.1", "10.1.2.3/8", "::1", "fd00::/8", "::ffff:192.0.2.1"})
	want := []string{"127.0.0.1/32", "10.0.0.0/8", "::1/128", "fd00::/8", "192.0.2.1/32"}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%v %v, want %v", got, err, want)
	}
	for _, bad := range []string{"proxy.example.org", "10.0.0.0/33", "", "fe80::1%eth0", "1.2.3.4:80"} {
		_, err := ParseTrustedProxies([]string{bad})
		if err == nil || !strings.HasPrefix(err.Error(), "web.trusted_proxies: ") || len(err.Error()) > 300 {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// TestClientAddr: the peer is the client unless it is a trusted proxy;
// then X-Forwarded-For is read from the right, past the trusted hops,
// and what the client wrote to the left of its own address counts for
// nothing.
func TestClientAddr(t *testing.T) {
	trusted, _ := ParseTrustedProxies([]string{"127.0.0.1", "10.0.0.0/8"})
	s := &Server{cfg: Config{TrustedProxies: trusted}}
	for _, c := range []struct {
		peer, xff, want string
	}{
		{"192.0.2.9:5000", "198.51.100.1", "192.0.2.9"},              // not a proxy: its header is ignored
		{"127.0.0.1:5000", "", "127.0.0.1"},                          // a proxy that says nothing
		{"127.0.0.1:5000", "198.51.100.1", "198.51.100.1"},           // one proxy
		{"127.0.0.1:5000", "6.6.6.6, 198.51.100.1", "198.51.100.1"},  // the client's own claim left of it
		{"127.0.0.1:5000", "198.51.100.1, 10.2.3.4", "198.51.100.1"}, // two proxies
		{"127.0.0.1:5000", "198.51.100.1, 10.2.3.4, 10.9.9.9", "198.51.100.1"},
		{"127.0.0.1:5000", "10.2.3.4", "10.2.3.4"},                  // only proxies
		{"127.0.0.1:5000", "junk, 10.2.3.4", "10.2.3.4"},            // not an address: the last proxy
		{"[::1]:5000", "198.51.100.1", "::1"},                       // ::1 is not trusted here
		{"[::ffff:127.0.0.1]:5000", "198.51.100.1", "198.51.100.1"}, // a mapped address is its IPv4
		{"[2001:db8:1:2:3:4:5:6]:5000", "", "2001:db8:1:2:3:4:5:6"},
	} {
		r := httptest.NewRequest("POST", "/", nil)
		r.RemoteAddr = c.peer
		if c.xff != "" {
			r.Header.Set("X-Forwarded-For", c.xff)
		}
		if got := s.clientAddr(r); got != netip.MustParseAddr(c.want) {
			t.Errorf("%s with %q: %v, want %s", c.peer, c.xff, got, c.want)
		}
	}
	r := httptest.NewRequest("POST", "/", nil)
	r.RemoteAddr = "[2001:db8:1:2:3:4:5:6]:5000"
	if k := s.clientKey(r); k != "2001:db8:1:2::/64" {
		t.Errorf("an IPv6 client's key %q, want its /64", k)
	}
}

// widgetBoard is a board with the widget sign-in on a loopback
// listener, checking OpenID tokens with w.
func widgetBoard(t *testing.T, h *harness, w Widgets, trusted ...string) (*Server, string) {
	t.Helper()
	proxies, err := ParseTrustedProxies(trusted)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
		Widgets: w, WidgetOrigins: []string{"https://app.element.io"}, TrustedProxies: proxies})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
	return srv, ts.URL
}

// widgetSignInFrom posts a widget sign-in with c; the status and the
// answer.
func widgetSignInFrom(t *testing.T, c *http.Client, base string, game gobot.GameID, token, server, xff string) (int, widgetSession) {
	t.Helper()
	b, _ := json.Marshal(map[string]any{"access_token": token, "matrix_server_name": server})
	req, _ := http.NewRequestWithContext(context.Background(), "POST", fmt.Sprintf("%s/widget/%d/session", base, game), strings.NewReader(string(b)))
	req.Header.Set("Content-Type", "application/json")
	if xff != "" {
		req.Header.Set("X-Forwarded-For", xff)
	}
	res, err := c.Do(req)
	if err != nil {
		t.Error(err)
		return 0, widgetSession{}
	}
	defer res.Body.Close()
	var ws widgetSession
	json.NewDecoder(res.Body).Decode(&ws)
	if len(ws.Message) > 300 {
		t.Errorf("a refusal of %d bytes", len(ws.Message))
	}
	return res.StatusCode, ws
}

// TestTrustedProxy: behind a trusted proxy, each address it names in
// X-Forwarded-For is a client of its own; the same header from anyone
// else names nobody.
func TestTrustedProxy(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	hs := &tokenWidgets{users: map[string]gobot.UserID{"alice-1": "console:alice"}}
	_, base := widgetBoard(t, h, hs, "127.0.0.1")
	proxy, other := clientFrom(t, "127.0.0.1"), clientFrom(t, "127.0.0.2")
	flood := func(c *http.Client, xff string) (reached, refused int) {
		for i := range widgetClient.Burst + 5 {
			switch code, ws := widgetSignInFrom(t, c, base, id, fmt.Sprintf("made-up-%s-%d", xff, i), "example.org", xff); code {
			case http.StatusUnauthorized:
				reached++
			case http.StatusTooManyRequests:
				if ws.Message != widgetBusy[overClient] {
					t.Fatalf("429 says %q", ws.Message)
				}
				refused++
			}
		}
		return
	}
	if reached, refused := flood(proxy, "198.51.100.7"); reached != widgetClient.Burst || refused != 5 {
		t.Fatalf("through the proxy as 198.51.100.7: %d checked, %d refused; want %d and 5", reached, refused, widgetClient.Burst)
	}
	if code, ws := widgetSignInFrom(t, proxy, base, id, "alice-1", "example.org", "198.51.100.8"); code != 200 || ws.Token == "" {
		t.Fatalf("alice through the same proxy as 198.51.100.8: %d %+v", code, ws)
	}
	// Not a proxy: its header is ignored, and it is one client however
	// it names itself.
	reached, refused := 0, 0
	for i := range widgetClient.Burst + 5 {
		code, _ := widgetSignInFrom(t, other, base, id, fmt.Sprintf("other-%d", i), "example.org", fmt.Sprintf("203.0.113.%d", i))
		if code == http.StatusUnauthorized {
			reached++
		} else if code == http.StatusTooManyRequests {
			refused++
		}
	}
	if reached != widgetClient.Burst || refused != 5 {
		t.Errorf("an untrusted peer naming 25 addresses: %d checked, %d refused; want %d and 5", reached, refused, widgetClient.Burst)
	}
}
