package web

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// heartbeat keeps idle event streams open through proxies.
const heartbeat = 25 * time.Second

// events streams a game's state as Server-Sent Events: an event
// "state" with the game's Version as its id whenever the game changes.
// A page that reconnects sends the last id it saw (Last-Event-ID; the
// first connection sends the version it was drawn at as ?v=) and gets
// the current state at once if the game moved meanwhile: each event
// carries the whole state, so no update is missed.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	p, ok := s.session(w, r)
	if !ok {
		return
	}
	f, done, ok := s.stream(w, r, p)
	if !ok {
		return
	}
	defer done()
	// A stream lasts as long as the page: the server's read and write
	// timeouts (httpserver.Timeouts) are for the other requests.
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	last, err := strconv.ParseUint(r.Header.Get("Last-Event-ID"), 10, 64)
	if err != nil {
		last, _ = strconv.ParseUint(r.URL.Query().Get("v"), 10, 64)
	}
	// Subscribe before reading: a change between the read and the wait
	// still wakes this stream.
	wake, stop := s.cfg.Hub.subscribe(p.Game)
	defer stop()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("retry: 1000\n\n"))
	f.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	// A session opened with a link ends with it (web reset): checked
	// when woken without a new state (a reset wakes the game's pages)
	// and at each heartbeat, never on a move, so 1,000 pages woken by a
	// move cost no more reads.
	_, isBearer := bearer(r)
	revocable := !isBearer && !p.Activity
	// A player's own board of a live game counts toward their presence
	// (presence.go); the page hears who is away.
	var mine game.Color
	var told uint64
	toldOver, first := false, true
	defer func() {
		if mine != game.Empty {
			s.cfg.Hub.closed(p.Game, mine, s.now(), s.now)
		}
	}()
	for {
		sn, err := s.live(r.Context(), p.Game)
		if err == nil && first {
			first = false
			if v := sn.viewer(p.User); v.Role == board.Player && !p.Watch && sn.Clock != nil && sn.Phase != "over" {
				mine = v.Color
				s.cfg.Hub.opened(p.Game, mine, s.now())
			}
			told = ^uint64(0) // the first look tells
		}
		if err == nil && sn.Clock != nil {
			over := sn.Phase == "over"
			if away, gen := s.cfg.Hub.away(p.Game, s.now()); gen != told || over != toldOver {
				told, toldOver = gen, over
				if over {
					away = nil // a game over has nobody away
				}
				if _, err := w.Write(presenceEvent(away)); err != nil {
					return
				}
				f.Flush()
			}
		}
		if err == nil && sn.V != last {
			last = sn.V
			// One write: the event goes out in one chunk.
			if _, err := w.Write(s.stateEvent(sn)); err != nil {
				return
			}
			f.Flush()
		} else if err == nil && revocable && errors.Is(s.current(r.Context(), p), ErrRevoked) {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.quit: // shutting down (EndStreams)
			return
		case <-wake:
		case <-tick.C:
			if revocable && errors.Is(s.current(r.Context(), p), ErrRevoked) {
				return
			}
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			f.Flush()
		}
	}
}

// MaxSessionStreams bounds the live streams of one session (its tabs
// and windows on one link), MaxClientStreams those of one client (an
// address, or a user Discord's proxy signed for: clientKey), so no one
// holder of a link, opening it again and again, takes the process's;
// DefaultMaxStreams those of a process (web.max_streams).
const (
	MaxSessionStreams = 8
	MaxClientStreams  = 256
	DefaultMaxStreams = 10_000
)

// stream takes a live stream's place for p's session and r's client (a
// game's or a review's); on failure it has answered. done gives the
// place back.
func (s *Server) stream(w http.ResponseWriter, r *http.Request, p Pass) (f http.Flusher, done func(), ok bool) {
	if f, ok = w.(http.Flusher); !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return nil, nil, false
	}
	done, over, ok := s.streams.take(p.Session, s.clientKey(r))
	if !ok {
		w.Header().Set("Cache-Control", "no-store")
		http.Error(w, streamsFull[over], http.StatusTooManyRequests)
		return nil, nil, false
	}
	return f, done, true
}

// The refusals of a stream over its limits (429), by the limit: the
// process's (-1), the session's, the client's.
var streamsFull = map[int]string{
	-1: "Too many live pages are open on this server just now: reload in a moment.",
	0:  "Too many live pages are open on this link: close some of its tabs, then reload this one.",
	1:  "Too many live pages are open from your network just now: close some, then reload this one.",
}
