package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gobotgo/gobot"
)

// A personal link is opened in two steps, so that the session cookie,
// whose path is the game's pages, can be seen before it is replaced:
//
//  1. GET /l/{token} checks the link and keeps its pass, with a new
//     session ID, in a cookie of the game's /open path for a few minutes
//     (signed under purposeOpen), then redirects there: the token leaves
//     the address bar.
//  2. GET /g/{id}/open makes that pass the game's session and redirects
//     to the board, unless the browser already holds a live session of
//     another user for this game: then it asks first (login CSRF: any
//     site can send a browser to its own link), with one button that
//     POSTs back to /g/{id}/open with a CSRF token of the pending pass.
//
// Neither step changes a game, and a link preview that follows them
// gets cookies it throws away.

// openTTL is how long a link being opened waits for its last step.
const openTTL = 10 * time.Minute

// errUnavailable: the store could not say whether a link was revoked.
var errUnavailable = errors.New("web: link generation unavailable")

// openCookie is the name of game id's link being opened.
func openCookie(id gobot.GameID) string { return "gobot_l" + strconv.FormatUint(uint64(id), 10) }

func openPath(id gobot.GameID) string { return gamePath(id) + "/open" }

// current checks that p, a link's pass or a session opened with a link,
// is of its user's current link generation in its game: `web reset`
// ends the links before it and their sessions. An Activity's session is
// opened by Discord's sign-in, not by a link.
func (s *Server) current(ctx context.Context, p Pass) error {
	if p.Activity {
		return nil
	}
	gen, err := s.cfg.Bot.LinkGeneration(ctx, p.Game, p.User)
	if err != nil {
		s.cfg.Log.Error("web: reading a link generation", "game", p.Game, "err", err)
		return errUnavailable
	}
	if p.Gen < gen {
		return ErrRevoked
	}
	return nil
}

// exchange is a link's first step: it checks the link and keeps its
// pass for the game's /open page.
func (s *Server) exchange(w http.ResponseWriter, r *http.Request) {
	p, err := s.sign.open(purposeLink, r.PathValue("token"), s.cfg.Now())
	if err == nil && p.Review != 0 { // a review's link (review.go)
		s.exchangeReview(w, r, p)
		return
	}
	if err == nil && p.Tournament != 0 { // a tournament's page (tournament.go)
		s.exchangeTournament(w, r, p)
		return
	}
	if err == nil && p.Ladder != 0 { // a ladder's page (ladder.go)
		s.exchangeLadder(w, r, p)
		return
	}
	if err == nil {
		err = s.current(r.Context(), p)
	}
	if err != nil {
		s.refuse(w, err)
		return
	}
	p.Session = newSessionID()
	http.SetCookie(w, &http.Cookie{
		Name:     openCookie(p.Game),
		Value:    s.sign.sign(purposeOpen, p),
		Path:     openPath(p.Game),
		MaxAge:   int(openTTL / time.Second),
		HttpOnly: true,
		Secure:   s.secure(r),
		SameSite: http.SameSiteLaxMode,
	})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, openPath(p.Game), http.StatusSeeOther)
}

// open is a link's second step (GET), or the answer to its question
// (POST): the pending pass becomes the game's session.
func (s *Server) open(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.refuse(w, ErrForged)
		return
	}
	c, err := r.Cookie(openCookie(gobot.GameID(id)))
	if err != nil {
		s.errorPage(w, http.StatusUnauthorized, "This page finishes opening a personal link, and no link is being opened here: open yours again.")
		return
	}
	p, err := s.sign.open(purposeOpen, c.Value, s.cfg.Now())
	if err == nil && (p.Game != gobot.GameID(id) || p.Session == "") {
		err = errWrongGame
	}
	if err == nil {
		err = s.current(r.Context(), p)
	}
	if err != nil {
		s.refuse(w, err)
		return
	}
	if r.Method == http.MethodPost {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		if err := r.ParseForm(); err != nil {
			s.errorPage(w, http.StatusRequestEntityTooLarge, "That request was too large or malformed; nothing was changed.")
			return
		}
		if !s.sign.checkCSRF(openCSRF(p.Session), r.PostForm.Get("csrf")) {
			s.errorPage(w, http.StatusForbidden, "This answer did not come from gobot's question in this browser; nothing was changed. Open your link again.")
			return
		}
	} else if held, ok := s.heldBy(r, p.Game); ok && held.User != p.User {
		if p.User == "" {
			// A watcher's pass from a tournament's page (tournament.go)
			// leaves the session this browser holds (a player's own).
			http.SetCookie(w, &http.Cookie{Name: openCookie(p.Game), Path: openPath(p.Game), MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
			w.Header().Set("Cache-Control", "no-store")
			http.Redirect(w, r, gamePath(p.Game), http.StatusSeeOther)
			return
		}
		s.confirm(w, p, held)
		return
	}
	s.startSession(w, r, p)
}

// openCSRF is what the question's CSRF token is made from: the pending
// session's ID, under a name no session has.
func openCSRF(sid string) string { return "open\x00" + sid }

// heldBy returns the live session this browser holds for game id: one
// signed by this server for that game, unexpired and not revoked.
func (s *Server) heldBy(r *http.Request, id gobot.GameID) (Pass, bool) {
	c, err := r.Cookie(cookieName(id))
	if err != nil {
		return Pass{}, false
	}
	p, err := s.sign.open(purposeSession, c.Value, s.cfg.Now())
	if err != nil || p.Game != id || p.Session == "" || s.current(r.Context(), p) != nil {
		return Pass{}, false
	}
	return p, true
}

// confirm asks, before a link replaces another user's session in this
// browser: one button, which posts back to the link's /open page.
func (s *Server) confirm(w http.ResponseWriter, p, held Pass) {
	s.askSwitch(w, switchQuestion{On: fmt.Sprintf("signed in to game #%d", p.Game), What: "board", Verb: "play",
		Held: held.User.Local(), Link: p.User.Local(), Action: openPath(p.Game), CSRF: s.sign.csrf(openCSRF(p.Session)), Back: gamePath(p.Game)})
}

// switchQuestion is the confirm page's question: the browser is already
// On something as Held; the link opened is Link's, for the What (board,
// review) that Verb (play, act) as its user.
type switchQuestion struct {
	On, What, Verb     string
	Held, Link         string
	Action, CSRF, Back string
}

// askSwitch answers with the confirm page, asking q.
func (s *Server) askSwitch(w http.ResponseWriter, q switchQuestion) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.page.ExecuteTemplate(w, "confirm", q)
}

// startSession makes p the game's session cookie, ends the link being
// opened and sends the browser to the board.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, p Pass) {
	http.SetCookie(w, &http.Cookie{
		Name:     cookieName(p.Game),
		Value:    s.sign.sign(purposeSession, p),
		Path:     gamePath(p.Game),
		Expires:  time.Unix(p.Expires, 0),
		MaxAge:   maxAge(p.Expires, s.cfg.Now()),
		HttpOnly: true,
		Secure:   s.secure(r),
		SameSite: http.SameSiteLaxMode,
	})
	http.SetCookie(w, &http.Cookie{Name: openCookie(p.Game), Path: openPath(p.Game), MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, gamePath(p.Game), http.StatusSeeOther)
}

// signOut clears the board's session cookie in this browser (a POST
// with the session's CSRF token, as the board's actions). The link
// still opens the board again; `web reset` ends it.
func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	if _, isBearer := bearer(r); isBearer {
		s.errorPage(w, http.StatusBadRequest, "A widget's board signs out by closing it; nothing was changed.")
		return
	}
	p, ok := s.session(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		s.errorPage(w, http.StatusRequestEntityTooLarge, "That request was too large or malformed; nothing was changed.")
		return
	}
	if !s.sign.checkCSRF(p.Session, r.PostForm.Get("csrf")) {
		s.errorPage(w, http.StatusForbidden, "This page is out of date or was not opened from your link; reload it and try again.")
		return
	}
	gone := &http.Cookie{Name: cookieName(p.Game), Path: gamePath(p.Game), MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode}
	if p.Activity { // the Activity's cookie, as activity.go sets it
		gone.Secure, gone.SameSite, gone.Partitioned = true, http.SameSiteNoneMode, true
		s.activityHeaders(w)
	}
	http.SetCookie(w, gone)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	s.page.ExecuteTemplate(w, "signedout", struct{ Title string }{fmt.Sprintf("Game #%d", p.Game)})
}

// secure reports whether cookies must be Secure: over TLS, or behind a
// public https address.
func (s *Server) secure(r *http.Request) bool { return r.TLS != nil || s.base.Scheme == "https" }
