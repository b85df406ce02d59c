// Package httpserver holds what gobot's HTTP servers that face the
// network share: how long a connection may take over a request. The web
// board (chat/web) and Discord's interactions endpoint (chat/discord, in
// http mode) both make their servers here, so a slow client is cut off
// the same way on each.
package httpserver

import (
	"net/http"
	"time"
)

// Timeouts bound how long a connection may take over a request: its
// headers, the whole request (headers and body), the answer, and waiting
// idle for the next.
type Timeouts struct {
	ReadHeader, Read, Write, Idle time.Duration
}

// Default: a slow client holds a connection for at most 10 s before its
// headers are in, 30 s for its whole request (the board's bodies are at
// most 4 KB, an interaction's 1 MB), 60 s for the answer; an idle
// connection is closed after 2 min.
var Default = Timeouts{ReadHeader: 10 * time.Second, Read: 30 * time.Second, Write: time.Minute, Idle: 2 * time.Minute}

// OrDefault is t, or Default when t is zero.
func (t Timeouts) OrDefault() Timeouts {
	if t == (Timeouts{}) {
		return Default
	}
	return t
}

// Server is an http.Server for h with timeouts t.
func (t Timeouts) Server(h http.Handler) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: t.ReadHeader, ReadTimeout: t.Read, WriteTimeout: t.Write, IdleTimeout: t.Idle}
}
