package web

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/tournament"
)

// A tournament's page (gobot.Tournament): its standings, every round's
// pairings with each game's board and result, and the crosstable, read
// through the bot (Bot.TournamentView) and drawn by the server; the page
// has no script and changes nothing. Its link is the room's, not a
// person's (Pass.Tournament, no user): the bot posts it in the
// tournament's room under `tournament standings`, as a watch link is
// given to those in a game's room, and /l/{token} keeps it in the cookie
// gobot_t{id} for /t/{id}. A game's board is opened from the page through
// /t/{id}/g/{game}, which gives this browser a watcher's session of that
// game unless it holds a session of the game already (a player's own).

// TournamentLink mints the link to tournament id's page (chat.TournamentLinker).
func (s *Server) TournamentLink(id gobot.TournamentID) (string, time.Time, error) {
	exp := s.cfg.Now().Add(s.cfg.LinkTTL).Truncate(time.Second)
	tok := s.sign.sign(purposeLink, Pass{Tournament: id, Expires: exp.Unix()})
	return s.base.String() + "/l/" + tok, exp, nil
}

func tournamentCookieName(id gobot.TournamentID) string {
	return "gobot_t" + strconv.FormatUint(uint64(id), 10)
}

func tournamentPath(id gobot.TournamentID) string {
	return "/t/" + strconv.FormatUint(uint64(id), 10)
}

// exchangeTournament opens a tournament's link: its session cookie, and
// the page. The pass is nobody's and the page only reads, so there is no
// other user's session to ask about: one step.
func (s *Server) exchangeTournament(w http.ResponseWriter, r *http.Request, p Pass) {
	p.Session = newSessionID()
	http.SetCookie(w, &http.Cookie{Name: tournamentCookieName(p.Tournament), Value: s.sign.sign(purposeSession, p), Path: tournamentPath(p.Tournament),
		Expires: time.Unix(p.Expires, 0), MaxAge: maxAge(p.Expires, s.cfg.Now()), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, tournamentPath(p.Tournament), http.StatusSeeOther)
}

// tournamentSession returns the pass of the request's session for the
// tournament in its path; on failure it has answered.
func (s *Server) tournamentSession(w http.ResponseWriter, r *http.Request) (Pass, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.refuse(w, ErrForged)
		return Pass{}, false
	}
	// A frame's session (the Activity's, a widget's) is a bearer
	// token its page holds; a browser's, the cookie its link set.
	p, _, err := s.pass(r, tournamentCookieName(gobot.TournamentID(id)))
	if err == nil && (p.Tournament != gobot.TournamentID(id) || p.Session == "") {
		err = errWrongTournament
	}
	if err != nil {
		s.refuseTournament(w, err)
		return Pass{}, false
	}
	return p, true
}

var errWrongTournament = errors.New("web: session for another tournament")

// refuseTournament answers a tournament's page without a valid session:
// as a game's (refuse), saying where its link comes from.
func (s *Server) refuseTournament(w http.ResponseWriter, err error) {
	code, why := http.StatusUnauthorized, "This link was not issued by gobot, or it was changed on the way."
	switch {
	case errors.Is(err, errNoSession):
		why = "This page needs the tournament's link, opened in this browser."
	case errors.Is(err, ErrExpired):
		code, why = http.StatusForbidden, "This tournament link has expired."
	case errors.Is(err, errWrongTournament):
		code, why = http.StatusForbidden, "This link is for another tournament."
	}
	s.tournamentError(w, code, why)
}

// tournamentError answers a refusal about a tournament's page, saying
// how to get its link.
func (s *Server) tournamentError(w http.ResponseWriter, code int, why string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	s.page.ExecuteTemplate(w, "tournament-error", why)
}

// showTournament serves a tournament's page. GET: it reads, it changes
// nothing.
func (s *Server) showTournament(w http.ResponseWriter, r *http.Request) {
	s.serveTournament(w, r, "tournament")
}

// tournamentView serves a tournament's view alone (tournament-view), for
// a frame's page to put in place (the Activity, a widget: static/tview.js)
// with its bearer session. GET: it reads, it changes nothing.
func (s *Server) tournamentView(w http.ResponseWriter, r *http.Request) {
	s.serveTournament(w, r, "tournament-view")
}

// serveTournament reads the tournament of the request's session and
// draws it with template page.
func (s *Server) serveTournament(w http.ResponseWriter, r *http.Request, page string) {
	p, ok := s.tournamentSession(w, r)
	if !ok {
		return
	}
	t, err := s.cfg.Bot.TournamentView(r.Context(), p.Tournament)
	if errors.Is(err, gobot.ErrNotFound) {
		s.tournamentError(w, http.StatusNotFound, "This tournament no longer exists.")
		return
	}
	if err != nil {
		s.cfg.Log.Error("web: tournament page", "tournament", p.Tournament, "err", err)
		s.tournamentError(w, http.StatusServiceUnavailable, "The tournament could not be read just now; try again in a moment.")
		return
	}
	d, err := tournamentData(t)
	if err != nil {
		s.cfg.Log.Error("web: tournament page", "tournament", p.Tournament, "err", err)
		s.tournamentError(w, http.StatusServiceUnavailable, "The tournament's table could not be made; its record may be damaged.")
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Vary", "Accept-Encoding")
	var out io.Writer = w
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip") // a 500-player table is large and repetitive
		zw := gzip.NewWriter(w)
		defer zw.Close()
		out = zw
	}
	if err := s.page.ExecuteTemplate(out, page, d); err != nil {
		s.cfg.Log.Error("web: tournament template", "err", err)
	}
}

// tournamentGame opens game g's board from tournament id's page: a game
// of that tournament, for a browser holding the tournament's session.
// It opens as a link does, through the game's /open step (link.go): a
// browser that holds a session of the game already (a player's, from
// their own link) keeps it; else it gets a watcher's session of the
// game, nobody's, until the tournament's session expires. Like a link's
// opening, it sets a cookie in this browser and changes nothing else.
func (s *Server) tournamentGame(w http.ResponseWriter, r *http.Request) {
	p, ok := s.tournamentSession(w, r)
	if !ok {
		return
	}
	g, err := strconv.ParseUint(r.PathValue("game"), 10, 64)
	if err != nil || g == 0 {
		s.tournamentError(w, http.StatusNotFound, "There is no such game in this tournament.")
		return
	}
	id := gobot.GameID(g)
	t, err := s.cfg.Bot.TournamentView(r.Context(), p.Tournament)
	if errors.Is(err, gobot.ErrNotFound) {
		s.tournamentError(w, http.StatusNotFound, "This tournament no longer exists.")
		return
	}
	if err != nil {
		s.cfg.Log.Error("web: tournament game", "tournament", p.Tournament, "err", err)
		s.tournamentError(w, http.StatusServiceUnavailable, "The tournament could not be read just now; try again in a moment.")
		return
	}
	if !slices.Contains(t.Games(), id) {
		s.tournamentError(w, http.StatusNotFound, fmt.Sprintf("Game #%d is not a game of this tournament.", id))
		return
	}
	s.openToWatch(w, r, id, p.Expires)
}

// openToWatch opens game id's board from a page of the room's (a
// tournament's, a ladder's) until expires: the game's session is seen
// only under its path, so the pass waits in the cookie of the game's
// /open step, as a link's does (link.go), where a session of the game
// this browser holds is kept; else it is a watcher's.
func (s *Server) openToWatch(w http.ResponseWriter, r *http.Request, id gobot.GameID, expires int64) {
	watch := Pass{Game: id, Watch: true, Expires: expires, Session: newSessionID()}
	http.SetCookie(w, &http.Cookie{Name: openCookie(id), Value: s.sign.sign(purposeOpen, watch), Path: openPath(id),
		MaxAge: int(openTTL / time.Second), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, openPath(id), http.StatusSeeOther)
}

// The page's data: what tournament.html draws.
type (
	tournamentPage struct {
		ID       gobot.TournamentID
		Name     string
		Settings string // system, rounds, board, komi, clock, handicap
		State    string // "Registering", "Round 3 of 5", "Over"
		Score    string // the score column's head: MMS or Wins
		McMahon  bool
		After    int   // the round the standings are after (from 1); 0: none paired
		Rounds   []int // the standings' round columns, from 1
		Lines    []standingLine
		Played   []roundPairings // newest first
		Cross    *crosstable
		Players  []registered // before the first round
		Empty    bool         // registering with no one yet
	}
	standingLine struct {
		Place                    int
		Shared                   bool // the place is shared with the line above
		Name, Rank               string
		Score, SOS, SOSOS, SODOS string
		Rounds                   []roundCell
	}
	roundCell struct {
		Text, Title string
		Outcome     string // win, loss, draw, pending, "" (no game)
	}
	roundPairings struct {
		N      int
		Games  []pairing
		Byes   string
		Absent string
	}
	pairing struct {
		Table        int
		White, Black string
		WhiteRank    string
		BlackRank    string
		Handicap     string
		Result       string
		Winner       string // white, black, both, "" (none yet, jigo, none)
		Game         gobot.GameID
		Link         string
	}
	crosstable struct {
		N     []int
		Rows  []crossRow
		More  int
		Limit int
	}
	crossRow struct {
		N     int
		Name  string
		Score string
		Cells []crossCell
	}
	crossCell struct {
		Text, Class string
	}
	registered struct{ Name, Rank string }
)

// webCrossPlayers is how many players the page's crosstable shows: the
// top of the standings (a crosstable grows with the square).
const webCrossPlayers = 40

// tournamentData builds t's page.
func tournamentData(t *gobot.Tournament) (*tournamentPage, error) {
	d := &tournamentPage{ID: t.ID, Name: t.Name, Settings: tournamentSettings(t), McMahon: t.System == tournament.McMahon, Score: "Wins"}
	if d.McMahon {
		d.Score = "MMS"
	}
	switch {
	case t.State == gobot.Ended:
		d.State = "Over"
	case len(t.Played) == 0:
		d.State = "Registering"
	case t.Rounds > 0 && (t.System == tournament.McMahon || t.System == tournament.Swiss):
		d.State = fmt.Sprintf("Round %d of %d", len(t.Played), t.Rounds)
	default:
		d.State = fmt.Sprintf("Round %d", len(t.Played))
	}
	if len(t.Played) == 0 {
		for _, p := range t.Players {
			if !p.Withdrawn {
				d.Players = append(d.Players, registered{Name: p.FullName(), Rank: p.Rank.String()})
			}
		}
		d.Empty = len(d.Players) == 0
		return d, nil
	}
	pt := t.Pairing()
	after := len(t.Played) - 1
	lines, err := pt.Table(after)
	if err != nil {
		return nil, err
	}
	d.After = after + 1
	for r := range after + 1 {
		d.Rounds = append(d.Rounds, r+1)
	}
	for i, l := range lines {
		sl := standingLine{Place: l.Place, Shared: i > 0 && lines[i-1].Place == l.Place, Name: l.Name, Rank: l.Rank.String(),
			Score: l.Score.String(), SOS: l.SOS.String(), SOSOS: l.SOSOS.String(), SODOS: l.SODOS.String()}
		for _, rr := range l.Rounds {
			sl.Rounds = append(sl.Rounds, roundCellOf(rr, lines))
		}
		d.Lines = append(d.Lines, sl)
	}
	who := make(map[tournament.PlayerID]*tournament.Player, len(pt.Players))
	for i := range pt.Players {
		who[pt.Players[i].ID] = &pt.Players[i]
	}
	names := func(ids []tournament.PlayerID) string {
		var s []string
		for _, id := range ids {
			if p := who[id]; p != nil {
				s = append(s, p.FullName())
			}
		}
		return strings.Join(s, ", ")
	}
	for r := len(t.Played) - 1; r >= 0; r-- {
		rd := &t.Played[r]
		rp := roundPairings{N: r + 1, Byes: names(rd.Byes), Absent: names(rd.Absent)}
		for i, g := range rd.Games {
			pg := pairing{Table: g.Table, Handicap: "even", Game: rd.Match(i)}
			if p := who[g.White]; p != nil {
				pg.White, pg.WhiteRank = p.FullName(), p.Rank.String()
			}
			if p := who[g.Black]; p != nil {
				pg.Black, pg.BlackRank = p.FullName(), p.Rank.String()
			}
			if g.Handicap > 0 {
				pg.Handicap = "h" + strconv.Itoa(g.Handicap)
			}
			pg.Result, pg.Winner = resultWords(g, pg.Game != 0 && t.State != gobot.Ended)
			if pg.Game != 0 {
				pg.Link = fmt.Sprintf("%s/g/%d", tournamentPath(t.ID), pg.Game)
			}
			rp.Games = append(rp.Games, pg)
		}
		d.Played = append(d.Played, rp)
	}
	d.Cross = crosstableOf(lines)
	return d, nil
}

// tournamentSettings is t's settings in a line.
func tournamentSettings(t *gobot.Tournament) string {
	system := map[tournament.System]string{tournament.McMahon: "McMahon", tournament.Swiss: "Swiss", tournament.RoundRobin: "Round robin",
		tournament.DoubleRoundRobin: "Double round robin", tournament.Elimination: "Single elimination"}[t.System]
	parts := []string{system}
	if t.Rounds > 0 && (t.System == tournament.McMahon || t.System == tournament.Swiss) {
		parts = append(parts, fmt.Sprintf("%d rounds", t.Rounds))
	}
	parts = append(parts, fmt.Sprintf("%d×%d", t.Size, t.Size), fmt.Sprintf("komi %g", t.Rules.Komi), "clock "+protocol.FormatClock(t.Clock))
	switch {
	case t.Handicap.Kind == gobot.McMahonHandicap && t.Handicap.Cap > 0:
		parts = append(parts, fmt.Sprintf("handicap by McMahon score, at most %d", t.Handicap.Cap))
	case t.Handicap.Kind == gobot.McMahonHandicap:
		parts = append(parts, "handicap by McMahon score")
	default:
		parts = append(parts, "even games")
	}
	if t.Rated {
		parts = append(parts, "rated")
	}
	n := 0
	for _, p := range t.Players {
		if !p.Withdrawn {
			n++
		}
	}
	parts = append(parts, fmt.Sprintf("%d player%s", n, map[bool]string{true: "", false: "s"}[n == 1]))
	return strings.Join(parts, " · ")
}

// roundCellOf is a round's cell in the standings, as OpenGotha writes it
// ("3+/w2"), with its meaning in words for a title.
func roundCellOf(r tournament.RoundResult, lines []tournament.Line) roundCell {
	c := roundCell{Text: r.String()}
	switch r.Kind {
	case tournament.RoundBye:
		c.Title = "a bye"
		return c
	case tournament.RoundAbsent:
		c.Title = "sat out"
		return c
	case tournament.RoundUnpaired:
		c.Title = "not paired"
		return c
	}
	opp := ""
	if r.OpponentLine >= 1 && r.OpponentLine <= len(lines) {
		opp = lines[r.OpponentLine-1].Name
	}
	colour := "Black"
	if r.White {
		colour = "White"
	}
	verb := map[tournament.Outcome]string{tournament.Win: "beat", tournament.Loss: "lost to", tournament.Draw: "drew with", tournament.Pending: "plays"}[r.Outcome]
	c.Outcome = map[tournament.Outcome]string{tournament.Win: "win", tournament.Loss: "loss", tournament.Draw: "draw", tournament.Pending: "pending"}[r.Outcome]
	c.Title = fmt.Sprintf("%s %s (line %d) with %s", verb, opp, r.OpponentLine, colour)
	if r.Handicap > 0 {
		c.Title += fmt.Sprintf(", handicap %d", r.Handicap)
	}
	if r.Forfeit {
		c.Title += ", by default"
	}
	return c
}

// resultWords is a pairing's result as the page shows it, and whose win
// it is: "B+", "W+ by forfeit", "jigo", "playing" while its game goes on
// (playing), "—" for none yet.
func resultWords(g tournament.Game, playing bool) (string, string) {
	res, winner := g.Result.String(), ""
	switch g.Result {
	case tournament.Unknown:
		if playing {
			return "playing", ""
		}
		return "—", ""
	case tournament.WhiteWins:
		winner = "white"
	case tournament.BlackWins:
		winner = "black"
	case tournament.BothWin:
		winner = "both"
	}
	if g.Forfeit {
		res += " by forfeit"
	}
	return res, winner
}

// crosstableOf is the top webCrossPlayers of the standings, each against
// each: the row player's results against the column's, one mark a game.
func crosstableOf(lines []tournament.Line) *crosstable {
	n := min(len(lines), webCrossPlayers)
	ct := &crosstable{More: len(lines) - n, Limit: webCrossPlayers}
	for j := range n {
		ct.N = append(ct.N, j+1)
	}
	for i := range n {
		row := crossRow{N: i + 1, Name: lines[i].Name, Score: lines[i].Score.String(), Cells: make([]crossCell, n)}
		marks := make([]string, n)
		for _, r := range lines[i].Rounds {
			if r.Kind == tournament.RoundPlayed && r.OpponentLine >= 1 && r.OpponentLine <= n {
				marks[r.OpponentLine-1] += r.Outcome.String()
			}
		}
		for j := range n {
			switch {
			case i == j:
				row.Cells[j] = crossCell{Text: "×", Class: "self"}
			case marks[j] == "":
				row.Cells[j] = crossCell{Text: ""}
			default:
				class := map[byte]string{'+': "win", '-': "loss", '=': "draw", '?': "pending"}[marks[j][len(marks[j])-1]]
				row.Cells[j] = crossCell{Text: marks[j], Class: class}
			}
		}
		ct.Rows = append(ct.Rows, row)
	}
	return ct
}

// A tournament's page in a frame: the Discord Activity and the Matrix
// widget hold a bearer session of the tournament (Pass.Tournament with
// the user who signed in), with which their page reads the view
// (GET /t/{id}/view, tournament-view) and opens a game's board from it
// in the same frame: the Activity by activity/session with the
// tournament and the game (activity.go), the widget by
// /widget/t/{id}/g/{game} (below). A frame keeps no cookie.

// TournamentWidgetURL is tournament id's widget page
// (chat.TournamentWidgetLinker).
func (w widgetLinker) TournamentWidgetURL(id gobot.TournamentID) string {
	return w.base.String() + "/widget/t/" + strconv.FormatUint(uint64(id), 10) + "?room=$matrix_room_id&user=$matrix_user_id"
}

// tournamentWidgetPage serves a tournament's widget page: empty until
// the page has signed in. GET: it reads nothing and changes nothing.
func (s *Server) tournamentWidgetPage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.unknown(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", s.widgetCSP())
	h.Del("X-Frame-Options")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	if err := s.page.ExecuteTemplate(w, "tournament-widget", struct{ ID gobot.TournamentID }{gobot.TournamentID(id)}); err != nil {
		s.cfg.Log.Error("web: tournament widget template", "err", err)
	}
}

// tournamentWidgetSessionRoute opens a tournament widget's session: as a
// game's, for the members of the tournament's room.
func (s *Server) tournamentWidgetSessionRoute(w http.ResponseWriter, r *http.Request) {
	s.widgetSession(w, r, widgetOfTournament)
}

// tournamentWidgetOpen opens tournament id's widget session for user, a
// member of the tournament's room (the homeserver says).
func (s *Server) tournamentWidgetOpen(ctx context.Context, id gobot.TournamentID, user gobot.UserID) (int, widgetSession) {
	t, err := s.cfg.Bot.TournamentView(ctx, id)
	if errors.Is(err, gobot.ErrNotFound) {
		return http.StatusNotFound, widgetSession{Message: fmt.Sprintf("Tournament %s no longer exists.", id.Ref())}
	}
	if err != nil {
		return http.StatusServiceUnavailable, widgetSession{Message: "The tournament could not be read just now; reload the widget in a moment."}
	}
	in, err := s.cfg.Widgets.InRoom(ctx, t.Room, user)
	if err != nil {
		return http.StatusServiceUnavailable, widgetSession{Message: "The tournament's room could not be checked just now; reload the widget in a moment."}
	}
	if !in {
		return http.StatusForbidden, widgetSession{Message: fmt.Sprintf("Only the members of tournament %s's room can see its page.", id.Ref())}
	}
	p := Pass{Tournament: id, User: user, Expires: s.now().Add(widgetTTL).Unix(), Session: newSessionID()}
	return http.StatusOK, widgetSession{Token: s.sign.sign(purposeWidget, p), Name: user.Local(), Tournament: id, Title: t.Name}
}

// tournamentWidgetGame opens game g's board in a tournament's widget:
// a game of that tournament, for the widget's session (its bearer
// token), whose user the homeserver named and the room's members
// include. The answer is a game widget's session (widgetSession): the
// player's own board for a player, a watcher's for anyone else. It
// changes nothing.
func (s *Server) tournamentWidgetGame(w http.ResponseWriter, r *http.Request) {
	reply := func(code int, ws widgetSession) {
		b, _ := json.Marshal(ws)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		w.Write(b)
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	tok, isBearer := bearer(r)
	if err != nil || id == 0 || !isBearer {
		reply(http.StatusUnauthorized, widgetSession{Message: "Your session on the tournament's page has ended; reopen the widget."})
		return
	}
	p, err := s.sign.open(purposeWidget, tok, s.now())
	if err != nil || p.Tournament != gobot.TournamentID(id) || p.User == "" || p.Session == "" {
		reply(http.StatusUnauthorized, widgetSession{Message: "Your session on the tournament's page has ended; reopen the widget."})
		return
	}
	g, err := strconv.ParseUint(r.PathValue("game"), 10, 64)
	if err != nil || g == 0 {
		reply(http.StatusNotFound, widgetSession{Message: "There is no such game in this tournament."})
		return
	}
	t, err := s.cfg.Bot.TournamentView(r.Context(), p.Tournament)
	if errors.Is(err, gobot.ErrNotFound) {
		reply(http.StatusNotFound, widgetSession{Message: fmt.Sprintf("Tournament %s no longer exists.", p.Tournament.Ref())})
		return
	}
	if err != nil {
		reply(http.StatusServiceUnavailable, widgetSession{Message: "The tournament could not be read just now; try again in a moment."})
		return
	}
	if !slices.Contains(t.Games(), gobot.GameID(g)) {
		reply(http.StatusNotFound, widgetSession{Message: fmt.Sprintf("Game #%d is not a game of this tournament.", g)})
		return
	}
	sn, err := s.snapshot(r.Context(), gobot.GameID(g))
	if err != nil {
		reply(http.StatusServiceUnavailable, widgetSession{Message: "The game could not be read just now; try again in a moment."})
		return
	}
	watch := sn.viewer(p.User).Role != board.Player
	gp := Pass{Game: gobot.GameID(g), User: p.User, Watch: watch, Expires: p.Expires, Session: newSessionID()}
	v, role, color := sn.role(p.User, watch)
	ws := widgetSession{Token: s.sign.sign(purposeWidget, gp), Role: role, Color: color, Name: p.User.Local(), Resign: v.ResignQuestion,
		State: s.stamped(sn), Confirm: s.confirmOf(r.Context(), p.User), Game: gobot.GameID(g)}
	if n, ok := sn.view.Names[p.User]; ok {
		ws.Name = n
	}
	reply(http.StatusOK, ws)
}
