package web

import (
	"net/http"
	"strconv"
	"time"
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
	f, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
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
	for {
		sn, err := s.live(r.Context(), p.Game)
		if err == nil && sn.V != last {
			last = sn.V
			w.Write([]byte("id: " + strconv.FormatUint(sn.V, 10) + "\nevent: state\ndata: "))
			w.Write(sn.json)
			if _, err := w.Write([]byte("\n\n")); err != nil {
				return
			}
			f.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-wake:
		case <-tick.C:
			if _, err := w.Write([]byte(": ping\n\n")); err != nil {
				return
			}
			f.Flush()
		}
	}
}
