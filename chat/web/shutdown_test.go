package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/httpserver"
)

// TestShutdownEndsStreams: Shutdown of the board's http.Server
// (HTTPServer) ends the live streams, a game's and a review's, and so
// returns once every request is answered: each stream's response ends
// as a response ends (not cut off with its connection), and Shutdown
// returns nil, not its context's error. Without EndStreams it waits for
// the pages to go, until its deadline (gobot's /quit took 5 s or more).
func TestShutdownEndsStreams(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	b.open(h.link(id, "carol", true), id)
	h.startReview("alice", "13")
	rc := h.openReview(1, "alice")

	hs := h.srv.HTTPServer(httpserver.Default)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	base := "http://" + ln.Addr().String() // the cookies hold: a jar keys them by host, not port
	streams := map[string]*sse{
		"game":   liveStream(t, b.c, base+gamePath(id)+"/events"),
		"review": liveStream(t, rc.c, base+reviewPath(1)+"/events?v=0"),
	}
	for _, s := range streams {
		s.next(t) // its first state: the stream is live
	}

	// A deadline far beyond what answering takes: reaching it is the
	// failure, whatever the machine's speed.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("Shutdown: %v, want nil: a live stream held it", err)
	}
	for name, s := range streams {
		if rest, err := io.ReadAll(s.r); err != nil {
			t.Errorf("the %s stream: %v after %q, want its response's end", name, err, rest)
		}
		s.res.Body.Close()
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		t.Errorf("Serve: %v, want http.ErrServerClosed", err)
	}
	h.srv.EndStreams() // a second call, as a server shut down twice makes, is harmless
}

// liveStream opens an event stream at u with client's cookies.
func liveStream(t *testing.T, client *http.Client, u string) *sse {
	t.Helper()
	res, err := client.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d", u, res.StatusCode)
	}
	t.Cleanup(func() { res.Body.Close() })
	return &sse{res: res, r: bufio.NewReader(res.Body)}
}
