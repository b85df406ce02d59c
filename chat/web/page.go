package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// state is what a page shows of a game, the same for every viewer: the
// page loads with it, and each live update (SSE) and each answer to a
// click carries it whole, so a page that missed updates catches up with
// the next one.
type state struct {
	V      uint64 `json:"v"`      // the game's Version
	Status string `json:"status"` // whose turn, or the result
	Phase  string `json:"phase"`  // playing, scoring, over
	Turn   string `json:"turn"`   // black or white while playing
	Undo   string `json:"undo"`   // the colour asking to take back a move
	Board  string `json:"board"`  // the SVG
	Side   string `json:"side"`   // players, clock, last moves (HTML)
	// Pause is the colour asking to pause a live game's clocks.
	Pause string `json:"pause,omitempty"`
	// Waiting: while scoring, the colours that accepted the count, each
	// with what its Done button says instead ("Waiting for alice").
	Waiting map[string]string `json:"waiting,omitempty"`
	// Vote is a vote game's line while the room moves: how to vote, or
	// the tally and the open window, as chat says it.
	Vote string `json:"vote,omitempty"`
	// Clock is a live game's clocks (clock.go); Now the server's time
	// (ms since 1970) the state was sent at, set on each sending.
	Clock *clockView `json:"clock,omitempty"`
	Now   int64      `json:"now,omitempty"`
}

// snapshot is a game's state at one Version, built once from the bot's
// one read of the game (chat.Bot.Board) and shared by every page of the
// game; the view answers what each viewer may do (board.View.For).
type snapshot struct {
	state
	json []byte
	gen  uint64 // the Hub's generation of the game when it was read
	view *board.View
	// partial: the state was heard from the process that changed the
	// game (carry.go), the view is of an earlier version (a page drawn
	// whole reads the game).
	partial bool
}

// viewer is what u may do in the game (chat's answer, no read).
func (sn *snapshot) viewer(u gobot.UserID) board.Viewer { return sn.view.For(u) }

// role is u's role on the page ("player", "voter", "watcher") and the
// colour the page acts for ("black", "white"; "" for a watcher). A
// watch pass (a link asked for by someone who plays no side, the
// Activity's list to watch) is a watcher's, but in a vote game, where
// the room's members vote.
func (sn *snapshot) role(u gobot.UserID, watch bool) (board.Viewer, string, string) {
	v := sn.viewer(u)
	if v.Role == board.Watcher || watch && v.Role == board.Player {
		return v, string(board.Watcher), ""
	}
	return v, string(v.Role), colorName(v.Color)
}

// colorName is c's name on the page: "black", "white" or "".
func colorName(c game.Color) string {
	if c == game.Empty {
		return ""
	}
	return strings.ToLower(c.Name())
}

// snapshots caches each game's last snapshot.
type snapshots struct {
	mu      sync.Mutex
	m       map[gobot.GameID]*snapshot
	loading map[gobot.GameID]*sync.Mutex // one reader of the store per game at a time
}

// live returns game id's snapshot for a live page: the cached one while
// the Hub has heard of no change since it was read, else a fresh one
// read once for all the pages woken together.
func (s *Server) live(ctx context.Context, id gobot.GameID) (*snapshot, error) {
	gen := s.cfg.Hub.generation(id)
	s.snaps.mu.Lock()
	sn := s.snaps.m[id]
	l := s.snaps.loading[id]
	if l == nil {
		l = &sync.Mutex{}
		s.snaps.loading[id] = l
	}
	s.snaps.mu.Unlock()
	if sn != nil && sn.gen == gen {
		return sn, nil
	}
	l.Lock()
	defer l.Unlock()
	s.snaps.mu.Lock()
	sn = s.snaps.m[id]
	s.snaps.mu.Unlock()
	if sn != nil && sn.gen == gen {
		return sn, nil // read by the page that held the lock
	}
	// The state that came with the change, if it did: no read.
	if p, ok := s.cfg.Hub.pushedAt(id, gen); ok {
		var next *snapshot
		if sn != nil && sn.V >= p.v {
			c := *sn // heard again (this process's own change)
			next = &c
		} else {
			next = fromPushed(p, sn)
		}
		if next != nil {
			next.gen = gen
			s.snaps.mu.Lock()
			if old := s.snaps.m[id]; old == nil || old.V < next.V || old.V == next.V && old.gen < next.gen {
				s.snaps.m[id] = next
			}
			s.snaps.mu.Unlock()
			return next, nil
		}
	}
	return s.snapshot(ctx, id)
}

var errNoGame = chat.ErrNoGame

// snapshot returns game id's current snapshot.
func (s *Server) snapshot(ctx context.Context, id gobot.GameID) (*snapshot, error) {
	gen := s.cfg.Hub.generation(id) // before the read: a change after it makes this stale
	view, err := s.cfg.Bot.Board(ctx, id, "")
	if err != nil {
		return nil, err
	}
	s.snaps.mu.Lock()
	cached := s.snaps.m[id]
	s.snaps.mu.Unlock()
	var sn *snapshot
	if cached != nil && cached.V == view.Version {
		c := *cached
		c.view, c.partial = view, false
		sn = &c
	} else if sn, err = s.build(view); err != nil {
		return nil, err
	}
	sn.gen = gen
	s.snaps.mu.Lock()
	if old := s.snaps.m[id]; old == nil || old.V < sn.V || old.V == sn.V && old.gen < sn.gen {
		s.snaps.m[id] = sn
	}
	s.snaps.mu.Unlock()
	return sn, nil
}

// side is the data of the panel beside the board.
type side struct {
	Players []player
	Clock   string
	Moves   []string
	Undo    string
	Score   string
	Vote    string
	Live    bool // a live clock: the players' clocks tick (clock.go)

	// PauseLeft is a live pause's time left, which the page counts down,
	// in its line's words (PauseBefore, PauseAfter); "" without one.
	PauseBefore, PauseLeft, PauseAfter string

	// Refused is the colour whose undo request was refused, RefusedText
	// what its player is told (only their page shows it: board.css).
	Refused, RefusedText string
}

type player struct {
	Color, Name, Rank string
	Captures          int
	ToMove            bool
	// A live clock's reading when the state was built and its seconds
	// left; Running: this colour's clock runs; Out: it ran out.
	Clock                string
	Seconds              int64
	Running, Out, Paused bool
}

// build draws view: the board as SVG, the panel beside it as HTML, in
// chat's words (board.View).
func (s *Server) build(view *board.View) (*snapshot, error) {
	sn := &snapshot{view: view}
	sn.V, sn.Phase, sn.Status, sn.Turn, sn.Undo = view.Version, view.Phase, view.Status, colorName(view.Turn), colorName(view.UndoBy)
	sn.Pause = colorName(view.PauseBy)
	for _, c := range []game.Color{game.Black, game.White} {
		if view.Waiting[c] != "" {
			if sn.Waiting == nil {
				sn.Waiting = map[string]string{}
			}
			sn.Waiting[colorName(c)] = view.Waiting[c]
		}
	}
	if view.Vote != "" {
		sn.Vote = s.plain(view.Vote, view)
	}
	sd := side{Clock: view.Clock, Moves: view.Moves, Undo: view.UndoText, Score: view.Score, Vote: sn.Vote,
		Refused: colorName(view.UndoRefused), RefusedText: view.RefusedText}
	sn.Clock = liveClocks(view.Live)
	sd.Live = sn.Clock != nil
	if v := sn.Clock; v != nil && v.Paused != "" {
		// The pause's line in chat's words, its time left a number the
		// page counts down (boardui.js).
		sd.PauseBefore, sd.PauseAfter, _ = strings.Cut(say.LivePaused("\x00"), "\x00")
		sd.PauseLeft = protocol.FormatDuration(view.Live.PauseEnds.Sub(s.now()))
	}
	for _, p := range view.Sides {
		pl := player{Color: colorName(p.Color), Name: p.Name, Rank: p.Rank, Captures: p.Captures, ToMove: p.ToMove}
		if v := sn.Clock; v != nil {
			pl.Clock, pl.Seconds = reading(view.Live, p.Color, s.now())
			pl.Running, pl.Out, pl.Paused = v.Running == pl.Color, v.Out == pl.Color, v.Paused == pl.Color
		}
		sd.Players = append(sd.Players, pl)
	}
	var buf bytes.Buffer
	boardSVG(&buf, view.Game, view.Votes)
	sn.Board = buf.String()
	buf.Reset()
	if err := s.page.ExecuteTemplate(&buf, "side", sd); err != nil {
		return nil, err
	}
	sn.Side = buf.String()
	// The SVG goes into the JSON as it is (no \u003c for each <).
	buf.Reset()
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(sn.state); err != nil {
		return nil, err
	}
	sn.json = bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
	return sn, nil
}

// stamped is sn's state as sent now: with the server's time, which a
// live game's clocks count from.
func (s *Server) stamped(sn *snapshot) *state {
	st := sn.state
	st.Now = s.now().UnixMilli()
	return &st
}

// stateEvent is sn's server-sent event "state": its version as the
// id, and as data stamped's JSON, without encoding the state again.
func (s *Server) stateEvent(sn *snapshot) []byte {
	out := make([]byte, 0, len(sn.json)+64)
	out = append(out, "id: "...)
	out = strconv.AppendUint(out, sn.V, 10)
	out = append(out, "\nevent: state\ndata: {\"now\":"...)
	out = strconv.AppendInt(out, s.now().UnixMilli(), 10)
	out = append(out, ',')
	out = append(out, sn.json[1:]...)
	return append(out, "\n\n"...)
}

// pageFuncs are the words the pages share with chat (chat/say).
var pageFuncs = template.FuncMap{
	"allowUndo":  func() string { return say.AllowUndo },
	"refuseUndo": func() string { return say.RefuseUndo },
	"add":        func(a, b int) int { return a + b },
}

// pageData is what page.html is executed with.
type pageData struct {
	Title  string
	Game   gobot.GameID
	CSRF   string
	Role   string // player, voter (a vote game's room member) or watcher
	Color  string // the viewer's colour
	State  state
	Board  template.HTML
	Side   template.HTML
	Events string
	// Resign is the question the Resign button asks first.
	Resign string
	// SignOut: the page's session is a link's cookie, which its Sign out
	// button clears (not the Activity's: Discord's frame signs it in).
	SignOut bool
	// Confirm is the viewer's confirmation setting (gobot.Player).
	Confirm string
	// Waiting is State.Waiting as JSON ("" when none).
	Waiting string
	// Clocks is a live game's clocks (JSON) and Now the server's time
	// (ms), which the page counts from.
	Clocks string
	Now    int64
}

// show serves a game's page. GET: it reads, it changes nothing.
func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	p, ok := s.session(w, r)
	if !ok {
		return
	}
	sn, err := s.snapshot(r.Context(), p.Game)
	if errors.Is(err, errNoGame) {
		s.errorPage(w, http.StatusNotFound, "This game no longer exists.")
		return
	}
	if err != nil {
		s.cfg.Log.Error("web: page", "game", p.Game, "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The game could not be read just now; try again in a moment.")
		return
	}
	v, role, color := sn.role(p.User, p.Watch)
	d := pageData{Title: fmt.Sprintf("Game #%d", p.Game), Game: p.Game, CSRF: s.sign.csrf(p.Session), Role: role, Color: color,
		State: sn.state, Board: template.HTML(sn.Board), Side: template.HTML(sn.Side), Resign: v.ResignQuestion, Now: s.now().UnixMilli(),
		Confirm: s.confirmOf(r.Context(), p.User)}
	if sn.Clock != nil {
		b, _ := json.Marshal(sn.Clock)
		d.Clocks = string(b)
	}
	if sn.Waiting != nil {
		b, _ := json.Marshal(sn.Waiting)
		d.Waiting = string(b)
	}
	d.SignOut = !p.Activity
	if p.Activity {
		s.activityHeaders(w) // inside Discord's frame (activity.go)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Vary", "Accept-Encoding")
	var out io.Writer = w
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip") // a 19x19 page: ~50 KB, ~6 KB gzipped
		zw := gzip.NewWriter(w)
		defer zw.Close()
		out = zw
	}
	if err := s.page.ExecuteTemplate(out, "page", d); err != nil {
		s.cfg.Log.Error("web: page template", "err", err)
	}
}

// confirmOf is u's confirmation setting (gobot.Player.Confirm): when
// the board asks a tap to be confirmed. Read as the page opens (a
// player's settings are not part of the game's snapshot); "" (the
// default) when it cannot be read.
func (s *Server) confirmOf(ctx context.Context, u gobot.UserID) string {
	return s.cfg.Bot.ConfirmSetting(ctx, u)
}

// now is the server's time.
func (s *Server) now() time.Time { return s.cfg.Now() }
