package web

import (
	"compress/gzip"
	"errors"
	"fmt"
	"html"
	"html/template"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A ladder's page (gobot.Ladder): every rung with its player and open
// challenges, each open challenge with its game's board, and the latest
// results, read through the bot (Bot.LadderView) and drawn by the
// server; the page has no script and changes nothing. As a tournament's
// (tournament.go), its link is the room's: `ladder` posts it in the
// ladder's room, /l/{token} keeps it in the cookie gobot_ld{id} for
// /ladder/{id}, and a challenge's board opens through
// /ladder/{id}/g/{game}, to watch or as the player's own.

// LadderLink mints the link to ladder id's page (chat.LadderLinker).
func (s *Server) LadderLink(id gobot.LadderID) (string, time.Time, error) {
	exp := s.cfg.Now().Add(s.cfg.LinkTTL).Truncate(time.Second)
	tok := s.sign.sign(purposeLink, Pass{Ladder: id, Expires: exp.Unix()})
	return s.base.String() + "/l/" + tok, exp, nil
}

func ladderCookieName(id gobot.LadderID) string {
	return "gobot_ld" + strconv.FormatUint(uint64(id), 10)
}

func ladderPath(id gobot.LadderID) string {
	return "/ladder/" + strconv.FormatUint(uint64(id), 10)
}

// exchangeLadder opens a ladder's link: its session cookie, and the
// page, in one step (the pass is nobody's and the page only reads).
func (s *Server) exchangeLadder(w http.ResponseWriter, r *http.Request, p Pass) {
	p.Session = newSessionID()
	http.SetCookie(w, &http.Cookie{Name: ladderCookieName(p.Ladder), Value: s.sign.sign(purposeSession, p), Path: ladderPath(p.Ladder),
		Expires: time.Unix(p.Expires, 0), MaxAge: maxAge(p.Expires, s.cfg.Now()), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, ladderPath(p.Ladder), http.StatusSeeOther)
}

var errWrongLadder = errors.New("web: session for another ladder")

// ladderSession returns the pass of the request's session for the
// ladder in its path; on failure it has answered.
func (s *Server) ladderSession(w http.ResponseWriter, r *http.Request) (Pass, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.ladderError(w, http.StatusUnauthorized, "This link was not issued by gobot, or it was changed on the way.")
		return Pass{}, false
	}
	var p Pass
	c, err := r.Cookie(ladderCookieName(gobot.LadderID(id)))
	if err != nil {
		err = errNoSession
	} else {
		p, err = s.sign.open(purposeSession, c.Value, s.cfg.Now())
	}
	if err == nil && (p.Ladder != gobot.LadderID(id) || p.Session == "") {
		err = errWrongLadder
	}
	if err != nil {
		code, why := http.StatusUnauthorized, "This link was not issued by gobot, or it was changed on the way."
		switch {
		case errors.Is(err, errNoSession):
			why = "This page needs the ladder's link, opened in this browser."
		case errors.Is(err, ErrExpired):
			code, why = http.StatusForbidden, "This ladder link has expired."
		case errors.Is(err, errWrongLadder):
			code, why = http.StatusForbidden, "This link is for another ladder."
		}
		s.ladderError(w, code, why)
		return Pass{}, false
	}
	return p, true
}

// ladderError answers a refusal about a ladder's page, saying how to
// get its link.
func (s *Server) ladderError(w http.ResponseWriter, code int, why string) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	s.page.ExecuteTemplate(w, "ladder-error", why)
}

// readLadder reads the session's ladder; on failure it has answered.
func (s *Server) readLadder(w http.ResponseWriter, r *http.Request, p Pass) (*gobot.Ladder, map[gobot.UserID]string, bool) {
	l, names, err := s.cfg.Bot.LadderView(r.Context(), p.Ladder)
	if errors.Is(err, gobot.ErrNotFound) {
		s.ladderError(w, http.StatusNotFound, "This ladder no longer exists.")
		return nil, nil, false
	}
	if err != nil {
		s.cfg.Log.Error("web: ladder page", "ladder", p.Ladder, "err", err)
		s.ladderError(w, http.StatusServiceUnavailable, "The ladder could not be read just now; try again in a moment.")
		return nil, nil, false
	}
	return l, names, true
}

// showLadder serves a ladder's page. GET: it reads, it changes nothing.
func (s *Server) showLadder(w http.ResponseWriter, r *http.Request) {
	p, ok := s.ladderSession(w, r)
	if !ok {
		return
	}
	l, names, ok := s.readLadder(w, r, p)
	if !ok {
		return
	}
	d := ladderData(l, names)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Vary", "Accept-Encoding")
	var out io.Writer = w
	if strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		w.Header().Set("Content-Encoding", "gzip") // 2,000 rungs are large and repetitive
		zw := gzip.NewWriter(w)
		defer zw.Close()
		out = zw
	}
	if err := s.page.ExecuteTemplate(out, "ladder", d); err != nil {
		s.cfg.Log.Error("web: ladder template", "err", err)
	}
}

// ladderGame opens an open challenge's game board from the ladder's
// page, as tournamentGame does for a tournament's games: a game of
// that ladder, for a browser holding its session.
func (s *Server) ladderGame(w http.ResponseWriter, r *http.Request) {
	p, ok := s.ladderSession(w, r)
	if !ok {
		return
	}
	g, err := strconv.ParseUint(r.PathValue("game"), 10, 64)
	if err != nil || g == 0 {
		s.ladderError(w, http.StatusNotFound, "There is no such game on this ladder.")
		return
	}
	l, _, ok := s.readLadder(w, r, p)
	if !ok {
		return
	}
	id := gobot.GameID(g)
	found := false
	for _, c := range l.Challenges {
		found = found || c.Game == id
	}
	for _, c := range l.Log {
		found = found || c.Game == id
	}
	if !found {
		s.ladderError(w, http.StatusNotFound, fmt.Sprintf("Game #%d is not a game of this ladder.", id))
		return
	}
	s.openToWatch(w, r, id, p.Expires)
}

// The page's data: what ladder.html draws.
type (
	ladderPage struct {
		ID       gobot.LadderID
		Name     string
		State    string // "Open", "Closed"
		Settings string
		Rungs    []ladderRung
		// RungRows are the rungs' table rows, written by rungRows.
		RungRows   template.HTML
		Challenges []ladderChallenge
		Results    []ladderResult
		MoreLog    int // results kept beyond those shown
	}
	ladderRung struct {
		N           int
		Name        string
		Gives, Gets string // "→ 3", "← 7"
		GivesTitle  string
		GetsTitle   string
		Challenging bool
		Challenged  bool
	}
	ladderChallenge struct {
		Challenger, Defender string
		From, To             int // rungs
		Game                 gobot.GameID
		Link                 string
		Deadline             string // "answer by 3 Jan 14:00 UTC"; "" once the game began
	}
	ladderResult struct {
		At                   string
		Challenger, Defender string
		Game                 gobot.GameID
		Link                 string
		Outcome              string // "took rung 3", "defended", "void"
		Forfeit              bool
	}
)

// ladderResultsShown is how many of the latest results the page lists.
const ladderResultsShown = 50

// ladderData builds l's page.
func ladderData(l *gobot.Ladder, names map[gobot.UserID]string) *ladderPage {
	name := func(u gobot.UserID) string {
		if n, ok := names[u]; ok {
			return n
		}
		return u.Local()
	}
	d := &ladderPage{ID: l.ID, Name: l.Name, State: "Open", Settings: ladderSettings(l)}
	if l.Closed {
		d.State = "Closed: no more challenges"
	}
	rung := make(map[gobot.UserID]int, len(l.Rungs))
	for i, u := range l.Rungs {
		rung[u] = i + 1
	}
	d.Rungs = make([]ladderRung, len(l.Rungs))
	for i, u := range l.Rungs {
		d.Rungs[i] = ladderRung{N: i + 1, Name: name(u)}
	}
	path := ladderPath(l.ID)
	for _, c := range l.Challenges {
		from, to := rung[c.Challenger], rung[c.Defender]
		if from > 0 && to > 0 {
			r := &d.Rungs[from-1]
			r.Gives, r.GivesTitle, r.Challenging = "→ "+strconv.Itoa(to), "has challenged "+name(c.Defender)+" on rung "+strconv.Itoa(to), true
			r = &d.Rungs[to-1]
			r.Gets, r.GetsTitle, r.Challenged = "← "+strconv.Itoa(from), "challenged by "+name(c.Challenger)+" on rung "+strconv.Itoa(from), true
		}
		lc := ladderChallenge{Challenger: name(c.Challenger), Defender: name(c.Defender), From: from, To: to, Game: c.Game}
		if c.Game != 0 {
			lc.Link = fmt.Sprintf("%s/g/%d", path, c.Game)
		}
		if !c.Deadline.IsZero() {
			lc.Deadline = "answer by " + c.Deadline.UTC().Format("2 Jan 15:04 UTC")
		}
		d.Challenges = append(d.Challenges, lc)
	}
	d.RungRows = rungRows(d.Rungs)
	shown := l.Log[max(0, len(l.Log)-ladderResultsShown):]
	d.MoreLog = len(l.Log) - len(shown)
	for i := len(shown) - 1; i >= 0; i-- {
		c := shown[i]
		lr := ladderResult{At: c.At.UTC().Format("2 Jan 2006"), Challenger: name(c.Challenger), Defender: name(c.Defender), Game: c.Game, Forfeit: c.Forfeit}
		switch c.Winner {
		case c.Challenger:
			lr.Outcome = "the challenger won"
		case c.Defender:
			lr.Outcome = "the defender held"
		default:
			lr.Outcome = "no result"
		}
		if c.Game != 0 {
			lr.Link = fmt.Sprintf("%s/g/%d", path, c.Game)
		}
		d.Results = append(d.Results, lr)
	}
	return d
}

// rungRows writes the rungs' rows of the table, each field escaped: a
// ladder has up to 2,000 rungs, and html/template's escaping of each
// field, through reflection, was 60% of such a page's time.
func rungRows(rungs []ladderRung) template.HTML {
	var b strings.Builder
	b.Grow(len(rungs) * 160)
	cell := func(class, title, text string) {
		b.WriteString(`<td class="round`)
		b.WriteString(class)
		b.WriteString(`"`)
		if title != "" {
			b.WriteString(` title="`)
			b.WriteString(html.EscapeString(title))
			b.WriteString(`"`)
		}
		b.WriteString(">")
		b.WriteString(html.EscapeString(text))
		b.WriteString("</td>")
	}
	for _, r := range rungs {
		n := strconv.Itoa(r.N)
		b.WriteString("\n<tr data-rung=\"" + n + "\"><td class=\"num score\">" + n + "</td><th scope=\"row\" class=\"name\">")
		b.WriteString(html.EscapeString(r.Name))
		b.WriteString("</th>")
		cell(map[bool]string{true: " loss"}[r.Challenging], r.GivesTitle, r.Gives)
		cell(map[bool]string{true: " draw"}[r.Challenged], r.GetsTitle, r.Gets)
		b.WriteString("</tr>")
	}
	return template.HTML(b.String())
}

// ladderSettings is l's settings in a line.
func ladderSettings(l *gobot.Ladder) string {
	parts := []string{fmt.Sprintf("%d×%d", l.Size, l.Size), fmt.Sprintf("komi %g", l.Rules.Komi), "clock " + protocol.FormatClock(l.Clock),
		fmt.Sprintf("challenge up to %d place%s above", l.ChallengeRange, map[bool]string{true: "", false: "s"}[l.ChallengeRange == 1])}
	if l.ForfeitAfter > 0 {
		parts = append(parts, "a challenge unanswered for "+protocol.FormatDuration(l.ForfeitAfter)+" is forfeited")
	}
	if l.Rated {
		parts = append(parts, "rated")
	}
	parts = append(parts, fmt.Sprintf("%d player%s", len(l.Rungs), map[bool]string{true: "", false: "s"}[len(l.Rungs) == 1]))
	return strings.Join(parts, " · ")
}
