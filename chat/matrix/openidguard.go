package matrix

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"syscall"
	"time"

	"maunium.net/go/mautrix/federation"

	"github.com/gobotgo/gobot/chat/protocol"
)

// A widget's sign-in names the homeserver to ask (matrix_server_name),
// so without a guard anyone could make gobot send requests to any
// address it can reach: its own host, the private network around it.
// Unless Config.OpenIDAllowPrivate, an OpenID check with another server
// than the bot's own (asked at the configured URL, which the caller does
// not choose) is refused before any request when the name is an IP
// address or resolves to a loopback, private or link-local one (every
// address it resolves to is checked); and every connection the check
// makes (the .well-known lookup, the federation request, wherever SRV or
// .well-known delegate) is refused at the dial unless its address is
// public, so a name that resolves differently a moment later (DNS
// rebinding) reaches nothing either.

// errNotPublic: the dial guard refused an address.
var errNotPublic = errors.New("matrix: refusing to connect to an address that is not public")

// addressKind is what makes addr no place to send a check to: "" for a
// public address.
func addressKind(addr netip.Addr) string {
	addr = addr.Unmap()
	switch {
	case addr.IsLoopback():
		return "loopback"
	case addr.IsPrivate(), sharedSpace.Contains(addr):
		return "private"
	case addr.IsLinkLocalUnicast(), addr.IsLinkLocalMulticast():
		return "link-local"
	case addr.IsUnspecified(), addr.IsMulticast(), addr.IsInterfaceLocalMulticast(), !addr.IsGlobalUnicast():
		return "reserved"
	}
	return ""
}

// sharedSpace is 100.64.0.0/10, carrier-grade NAT's (RFC 6598): private
// in all but name.
var sharedSpace = netip.MustParsePrefix("100.64.0.0/10")

// checkServerName refuses, before any request, a server name that is an
// IP address or resolves to an address that is not public. A name that
// does not resolve here is left to the check itself (server discovery
// may find it through SRV), whose every dial is guarded.
func (a *Adapter) checkServerName(ctx context.Context, server string) error {
	if a.cfg.OpenIDAllowPrivate {
		return nil
	}
	host, _, _ := federation.ParseServerName(server)
	if _, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return refusedServer(fmt.Sprintf("Your homeserver's name, %s, is an IP address: gobot asks only homeservers with a name, so it cannot confirm who you are.", clipText(server, 80)),
			fmt.Sprintf("%s is an IP address", clipText(server, 80)))
	}
	lookup := a.lookup
	if lookup == nil {
		lookup = net.DefaultResolver.LookupNetIP
	}
	addrs, err := lookup(ctx, "ip", host)
	if err != nil {
		return nil
	}
	for _, ip := range addrs {
		if kind := addressKind(ip); kind != "" {
			return refusedServer(fmt.Sprintf("Your homeserver's name, %s, leads to a %s address: gobot sends no requests there, so it cannot confirm who you are.", clipText(server, 80), kind),
				fmt.Sprintf("%s resolves to %s, a %s address", clipText(server, 80), ip, kind))
		}
	}
	return nil
}

// refusedServer is a refusal of a server name: ErrOpenIDRefused, with
// say as the text the widget's page shows (a protocol.Refusal) and why
// for the log.
func refusedServer(say, why string) error {
	return fmt.Errorf("%w: %s: %w", ErrOpenIDRefused, why, protocol.Refusef("%s", say))
}

// allowIP is the dial guard's question: may a check connect to ip?
func (a *Adapter) allowIP(ip net.IP) bool {
	if a.cfg.OpenIDAllowPrivate {
		return true
	}
	addr, ok := netip.AddrFromSlice(ip)
	return ok && addressKind(addr) == ""
}

// guardDial is a net.Dialer's Control: it runs on the address actually
// dialled, after any name was resolved.
func (a *Adapter) guardDial(_ context.Context, network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %q", errNotPublic, address)
	}
	if ip := net.ParseIP(host); ip == nil || !a.allowIP(ip) {
		return fmt.Errorf("%w (%s)", errNotPublic, host)
	}
	return nil
}

// wellKnownClient fetches a server's /.well-known/matrix/server for
// server discovery: HTTPS, no redirects, every dial guarded (mautrix
// would use http.DefaultClient, which dials anything).
func (a *Adapter) wellKnownClient() *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, ControlContext: a.guardDial}
	return &http.Client{
		Timeout: openIDTimeout,
		Transport: &http.Transport{DialContext: d.DialContext, TLSClientConfig: &tls.Config{MinVersion: tls.VersionTLS12},
			TLSHandshakeTimeout: 5 * time.Second, ResponseHeaderTimeout: openIDTimeout, MaxResponseHeaderBytes: 16 << 10},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}
