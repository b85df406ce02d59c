package matrix

import (
	"context"
	"errors"
	"net"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"maunium.net/go/mautrix/federation"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// countingListener accepts connections on loopback, counts them and
// closes each at once.
func countingListener(t *testing.T) (port string, accepted func() int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var n atomic.Int64
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n.Add(1)
			c.Close()
		}
	}()
	_, port, _ = net.SplitHostPort(ln.Addr().String())
	return port, n.Load
}

// testNames resolves the test's names; others go to the system's resolver
// (localhost).
func testNames(ctx context.Context, network, host string) ([]netip.Addr, error) {
	m := map[string][]string{
		"home.private.test": {"192.168.1.9"},
		"ula.test":          {"fd00::1"},
		"cgnat.test":        {"100.64.1.1"},
		"metadata.test":     {"169.254.169.254"},
		"v6link.test":       {"fe80::1"},
		"mixed.test":        {"93.184.215.14", "10.0.0.1"}, // every address counts
	}
	if a, ok := m[host]; ok {
		var out []netip.Addr
		for _, s := range a {
			out = append(out, netip.MustParseAddr(s))
		}
		return out, nil
	}
	return net.DefaultResolver.LookupNetIP(ctx, network, host)
}

// TestOpenIDServerGuard: a widget sign-in naming a homeserver by an IP
// address, or by a name that resolves to a loopback, private or
// link-local address, is refused with words for the page before any
// request is sent; the checks' own connections (the .well-known lookup,
// the federation request) are refused at the dial to such an address
// whatever name led there; matrix.openid_allow_private lets them all
// through.
func TestOpenIDServerGuard(t *testing.T) {
	ctx := context.Background()
	port, accepted := countingListener(t)
	a := &Adapter{cfg: Config{Homeserver: "http://127.0.0.1:1", UserID: "@gobot:example.org"}, lookup: testNames}
	for _, c := range []struct{ server, want string }{
		{"127.0.0.1:" + port, "is an IP address"},
		{"[::1]:" + port, "is an IP address"},
		{"10.0.0.7", "is an IP address"},
		{"93.184.215.14", "is an IP address"},
		{"localhost:" + port, "leads to a loopback address"},
		{"home.private.test", "leads to a private address"},
		{"ula.test:" + port, "leads to a private address"},
		{"cgnat.test", "leads to a private address"},
		{"metadata.test", "leads to a link-local address"},
		{"v6link.test", "leads to a link-local address"},
		{"mixed.test", "leads to a private address"},
	} {
		u, err := a.VerifyOpenID(ctx, "secret-token", c.server)
		var ref protocol.Refusal
		if u != "" || !errors.Is(err, ErrOpenIDRefused) || !errors.As(err, &ref) {
			t.Errorf("%s: %q, %v; want a refusal", c.server, u, err)
			continue
		}
		if !strings.Contains(ref.Error(), c.want) || len(ref.Error()) > 300 || strings.Contains(err.Error(), "secret-token") {
			t.Errorf("%s: %q, want %q", c.server, ref.Error(), c.want)
		}
	}
	if n := accepted(); n != 0 {
		t.Fatalf("refused names reached the listener %d times", n)
	}
	// Past the name check (a name that resolved to a public address a
	// moment before), every connection is guarded at the dial.
	fed := a.federation()
	if _, err := fed.GetOpenIDUserInfo(ctx, "localhost:"+port, "secret-token"); err == nil {
		t.Error("the federation request to loopback went through")
	}
	wk := fed.HTTP.Transport.(*federation.ServerResolvingTransport).ResolveOpts // server discovery's .well-known client
	if wk == nil || wk.HTTPClient == nil {
		t.Fatal("server discovery fetches .well-known with http.DefaultClient, unguarded")
	}
	res, err := wk.HTTPClient.Get("https://localhost:" + port + "/.well-known/matrix/server")
	if err == nil {
		res.Body.Close()
	}
	if !errors.Is(err, errNotPublic) {
		t.Errorf("the .well-known lookup on loopback: %v", err)
	}
	if n := accepted(); n != 0 {
		t.Fatalf("guarded dials reached the listener %d times", n)
	}
	// The operator's allowance: the same checks go out (and fail here,
	// where nothing speaks TLS, as unavailable, not refused).
	open := &Adapter{cfg: Config{Homeserver: "http://127.0.0.1:1", UserID: "@gobot:example.org", OpenIDAllowPrivate: true}, lookup: testNames}
	if _, err := open.VerifyOpenID(ctx, "secret-token", "127.0.0.1:"+port); !errors.Is(err, gobot.ErrUnavailable) {
		t.Errorf("allowed, an IP address: %v", err)
	}
	if res, err := open.wellKnownClient().Get("https://localhost:" + port + "/"); errors.Is(err, errNotPublic) {
		t.Errorf("allowed, the .well-known lookup on loopback: %v", err)
	} else if err == nil {
		res.Body.Close()
	}
	if n := accepted(); n < 2 {
		t.Errorf("allowed, the checks reached the listener %d times, want 2", n)
	}
}
