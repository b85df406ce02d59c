package web

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// A sign-in is limited by its client first (limit.go): the address the
// request came from, or, when that is a trusted proxy (a TLS proxy in
// front of the board, web.trusted_proxies), the address the proxy says
// in X-Forwarded-For. A header from anyone else is ignored: it would let
// a client name itself anything.

// ParseTrustedProxies reads web.trusted_proxies: addresses
// ("127.0.0.1", "::1") and networks ("10.0.0.0/8", "fd00::/8").
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, s := range list {
		s = strings.TrimSpace(s)
		if p, err := netip.ParsePrefix(s); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return nil, fmt.Errorf("web.trusted_proxies: %q is not an address or a network like 10.0.0.1 or 10.0.0.0/8", clip(s))
		}
		a = a.Unmap()
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// trusted reports whether a is one of the configured proxies.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientAddr is the address of r's client: the peer's, or, while the
// peer is a trusted proxy, the next address to the left in
// X-Forwarded-For (each proxy appends the address it was reached
// from, so the rightmost address no trusted proxy holds is the
// client's; what lies left of it the client wrote itself). An entry
// that is not an address ends the walk at the last proxy.
func (s *Server) clientAddr(r *http.Request) netip.Addr {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	a, err := netip.ParseAddr(host)
	if err != nil {
		return netip.Addr{}
	}
	a = a.WithZone("").Unmap()
	if len(s.cfg.TrustedProxies) == 0 || !s.trusted(a) {
		return a
	}
	hops := strings.Split(strings.Join(r.Header.Values("X-Forwarded-For"), ","), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		next, err := netip.ParseAddr(h)
		if err != nil {
			return a
		}
		a = next.WithZone("").Unmap()
		if !s.trusted(a) {
			return a
		}
	}
	return a
}

// clientKey names r's client for its limits: its address, an IPv6
// address by its /64 (a subscriber usually holds a whole /64, so its
// addresses are one client).
//
// Inside Discord the Activity's requests come through Discord's proxy,
// which hides users' addresses (many users arrive from one): a request
// Discord signed for its user (proxy authentication; the adapter checks
// it with the application's public key) is that user's, whatever its
// address.
func (s *Server) clientKey(r *http.Request) string {
	if s.discord != nil {
		if u, ok := s.discord.d.ProxyUser(r.Header, s.now()); ok {
			return string(u)
		}
	}
	a := s.clientAddr(r)
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}
