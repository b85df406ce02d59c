package web

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
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
}

// snapshot is a game's state at one Version, built once and shared by
// every page of the game, with what the router needs to act in it.
type snapshot struct {
	state
	json      []byte
	gen       uint64 // the Hub's generation of the game when it was read
	id        gobot.GameID
	room      gobot.RoomID
	community gobot.CommunityID
	seats     *gobot.Match // who plays each side (gobot.Side), copied from the game
	names     map[gobot.UserID]string
}

// resignQuestion is what the board asks u before a resignation, in
// the words chat asks it on Discord: "Resign game #1 against bob?" (a
// team game: for the team, against the other team's players).
func (sn *snapshot) resignQuestion(u gobot.UserID) string {
	c := game.Black
	if sn.color(u) == "black" {
		c = game.White
	}
	opp := sn.seats.Side(c)
	ns := opp.Name(func(o gobot.UserID) string { return cmp.Or(sn.names[o], o.Local()) })
	if opp.Rotates() {
		return fmt.Sprintf("Resign game #%d for your team against %s?", sn.id, ns)
	}
	return fmt.Sprintf("Resign game #%d against %s?", sn.id, ns)
}

// color returns u's colour in the game ("black", "white" or "").
func (sn *snapshot) color(u gobot.UserID) string {
	switch sn.seats.ColorOf(u) { // a team game: every member plays
	case game.Black:
		return "black"
	case game.White:
		return "white"
	}
	return ""
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
	return s.snapshot(ctx, id)
}

var errNoGame = errors.New("web: no such game")

// snapshot returns game id's current snapshot.
func (s *Server) snapshot(ctx context.Context, id gobot.GameID) (*snapshot, error) {
	var sn *snapshot
	gen := s.cfg.Hub.generation(id) // before the read: a change after it makes this stale
	err := s.cfg.Store.View(ctx, func(tx gobot.Tx) error {
		match, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return errNoGame
		}
		if err != nil {
			return err
		}
		s.snaps.mu.Lock()
		cached := s.snaps.m[id]
		s.snaps.mu.Unlock()
		if cached != nil && cached.V == match.Version {
			c := *cached
			sn = &c
			return nil
		}
		sn, err = s.build(tx, match)
		return err
	})
	if err != nil {
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
}

type player struct {
	Color, Name, Rank string
	Captures          int
	ToMove            bool
}

func (s *Server) build(tx gobot.Tx, match *gobot.Match) (*snapshot, error) {
	g, err := game.Replay(match.Record)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", match.ID, gobot.ErrCorrupt, err)
	}
	sn := &snapshot{id: match.ID, room: match.Room, seats: &gobot.Match{Black: match.Black, White: match.White, Engine: match.Engine, Vote: match.Vote, Teams: match.Teams.Clone()}, names: map[gobot.UserID]string{}}
	if match.Rating != nil {
		sn.community = match.Rating.Community
	}
	for _, u := range match.Players() {
		name := u.Local()
		if p, err := tx.Player(u); err == nil && p.Name != "" {
			name = p.Name
		}
		sn.names[u] = name
	}
	sn.V = match.Version
	sn.Phase = g.Phase().String()
	var sd side
	for _, c := range []game.Color{game.Black, game.White} {
		name := match.Side(c).Name(func(u gobot.UserID) string { return sn.names[u] }) // a team game: the team's players
		p := player{Color: strings.ToLower(c.Name()), Name: name, Captures: g.Captures(c) + g.PassStones(c),
			ToMove: g.Phase() == game.Playing && g.ToMove() == c && match.Active()}
		if match.Rating != nil {
			p.Rank = match.Rating.BlackRank
			if c == game.White {
				p.Rank = match.Rating.WhiteRank
			}
		}
		sd.Players = append(sd.Players, p)
	}
	switch {
	case !match.Active():
		sn.Phase = "over"
		sn.Status = resultText(match.Result)
	case g.Phase() == game.Scoring:
		sc := g.Score()
		sn.Status = "Scoring: click the dead stones, then Done."
		sd.Score = fmt.Sprintf("Black %s, White %s: %s if this count stands.", ftoa(sc.Black.Total), ftoa(sc.White.Total), sc.Result.Describe())
	default:
		c := g.ToMove()
		sn.Turn = strings.ToLower(c.Name())
		sn.Status = fmt.Sprintf("%s to play (%s)", c.Name(), sn.names[match.Side(c).ToMove()])
		if !match.Deadline.IsZero() {
			sd.Clock = fmt.Sprintf("%s must move by %s.", sn.names[match.Side(c).ToMove()], match.Deadline.UTC().Format("2 Jan 15:04 MST"))
		}
		if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation: the clock is stopped
			sd.Clock = fmt.Sprintf("The clock is stopped for a vacation; %s has %s left.", sn.names[match.Side(c).ToMove()], protocol.FormatDuration(match.PausedLeft))
		}
	}
	if match.UndoBy != "" && match.Active() {
		sn.Undo = sn.color(match.UndoBy)
		sd.Undo = fmt.Sprintf("%s asks to take back the last move.", sn.names[match.UndoBy])
	}
	moves := g.Moves()
	for i := max(0, len(moves)-6); i < len(moves); i++ {
		m := moves[i]
		where := "pass"
		if !m.Point.IsPass() {
			where = m.Point.GTP(g.Config().Height)
		}
		sd.Moves = append(sd.Moves, fmt.Sprintf("%d. %s %s", i+1, m.Color.Name(), where))
	}
	var buf bytes.Buffer
	boardSVG(&buf, g)
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

// resultText is a finished game's status: the result in words with its
// SGF form, "Black wins by 3.5 points (B+3.5)", or "Draw".
func resultText(sgf string) string {
	r, err := game.ParseResult(sgf)
	if err != nil {
		return "Game over (" + clip(sgf) + ")"
	}
	if r.Winner == game.Empty && (r.Reason == game.ByScore || r.Reason == game.ByCycle) {
		return "Draw"
	}
	d := r.Describe()
	return strings.ToUpper(d[:1]) + d[1:] + " (" + r.String() + ")"
}

// pageData is what page.html is executed with.
type pageData struct {
	Title  string
	Game   gobot.GameID
	CSRF   string
	Role   string // player or watcher
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
	d := pageData{Title: fmt.Sprintf("Game #%d", p.Game), Game: p.Game, CSRF: s.sign.csrf(p.Session), Role: "player", Color: sn.color(p.User),
		State: sn.state, Board: template.HTML(sn.Board), Side: template.HTML(sn.Side), Resign: sn.resignQuestion(p.User)}
	if p.Watch || d.Color == "" {
		d.Role = "watcher"
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

// now is the server's time.
func (s *Server) now() time.Time { return s.cfg.Now() }
