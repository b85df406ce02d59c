package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

// A review's board (gobot.Review): everyone on it sees the controller's
// position, live; the controller moves through the tree, plays
// variations, marks and comments; a follower may look around on their
// own (GET /r/{id}/node/{n}) and follow again. Its link and session are
// a game's (Pass.Review instead of Pass.Game): /l/{token} sets the
// cookie gobot_r{id} for /r/{id}. A live stream is presence: opening it
// joins the review, closing the last of a user's streams on this
// process leaves it (the controller's control passing on, as
// gobot.Review.Leave says). Changes go through the bot
// (chat.Bot.ReviewAct), which commits them on its publishing store.

// ReviewLink mints a personal link to review id for user
// (chat.ReviewLinker).
func (s *Server) ReviewLink(id gobot.ReviewID, user gobot.UserID, gen uint64) (string, time.Time, error) {
	exp := s.cfg.Now().Add(s.cfg.LinkTTL).Truncate(time.Second)
	tok := s.sign.sign(purposeLink, Pass{Review: id, User: user, Expires: exp.Unix(), Gen: gen})
	return s.base.String() + "/l/" + tok, exp, nil
}

func reviewCookieName(id gobot.ReviewID) string {
	return "gobot_r" + strconv.FormatUint(uint64(id), 10)
}

func reviewPath(id gobot.ReviewID) string { return "/r/" + strconv.FormatUint(uint64(id), 10) }

// A review's link opens in two steps, as a game's (link.go): /l/{token}
// keeps the pass in a cookie of /r/{id}/open for a few minutes, and
// /r/{id}/open makes it the review's session, asking first when this
// browser holds another user's session of the review.

func reviewOpenCookie(id gobot.ReviewID) string {
	return "gobot_lr" + strconv.FormatUint(uint64(id), 10)
}

func reviewOpenPath(id gobot.ReviewID) string { return reviewPath(id) + "/open" }

// exchangeReview is a review link's first step: a link that `review
// reset` ended gets no pending cookie.
func (s *Server) exchangeReview(w http.ResponseWriter, r *http.Request, p Pass) {
	if err := s.reviewCurrent(r.Context(), p); err != nil {
		s.refuse(w, err)
		return
	}
	p.Session = newSessionID()
	http.SetCookie(w, &http.Cookie{Name: reviewOpenCookie(p.Review), Value: s.sign.sign(purposeOpen, p), Path: reviewOpenPath(p.Review),
		MaxAge: int(openTTL / time.Second), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, reviewOpenPath(p.Review), http.StatusSeeOther)
}

// openReview is a review link's second step (GET), or the answer to its
// question (POST).
func (s *Server) openReview(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.refuse(w, ErrForged)
		return
	}
	rid := gobot.ReviewID(id)
	c, err := r.Cookie(reviewOpenCookie(rid))
	if err != nil {
		s.errorPage(w, http.StatusUnauthorized, "This page finishes opening a personal link, and no link is being opened here: open yours again.")
		return
	}
	p, err := s.sign.open(purposeOpen, c.Value, s.cfg.Now())
	if err == nil && (p.Review != rid || p.Session == "") {
		err = errWrongGame
	}
	if err == nil {
		err = s.reviewCurrent(r.Context(), p) // reset since the first step
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
	} else if hc, err := r.Cookie(reviewCookieName(rid)); err == nil {
		if held, err := s.sign.open(purposeSession, hc.Value, s.cfg.Now()); err == nil && held.Review == rid && held.User != p.User && s.reviewCurrent(r.Context(), held) == nil {
			s.askSwitch(w, switchQuestion{On: "on review " + rid.Ref(), What: "review", Verb: "act",
				Held: held.User.Local(), Link: p.User.Local(), Action: reviewOpenPath(rid), CSRF: s.sign.csrf(openCSRF(p.Session)), Back: reviewPath(rid)})
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: reviewCookieName(rid), Value: s.sign.sign(purposeSession, p), Path: reviewPath(rid),
		Expires: time.Unix(p.Expires, 0), MaxAge: maxAge(p.Expires, s.cfg.Now()), HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	http.SetCookie(w, &http.Cookie{Name: reviewOpenCookie(rid), Path: reviewOpenPath(rid), MaxAge: -1, HttpOnly: true, Secure: s.secure(r), SameSite: http.SameSiteLaxMode})
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, reviewPath(rid), http.StatusSeeOther)
}

// reviewSession returns the pass of the request's session for the review
// in its path; on failure it has answered.
func (s *Server) reviewSession(w http.ResponseWriter, r *http.Request) (Pass, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.refuse(w, ErrForged)
		return Pass{}, false
	}
	p, isBearer, err := s.pass(r, reviewCookieName(gobot.ReviewID(id)))
	if err == nil && (p.Review != gobot.ReviewID(id) || p.Session == "") {
		err = errWrongGame
	}
	if err == nil && !isBearer {
		err = s.reviewCurrent(r.Context(), p)
	}
	if err != nil {
		s.refuse(w, err)
		return Pass{}, false
	}
	return p, true
}

// errReviewRevoked: the link a review's session was opened with has
// ended (review reset).
var errReviewRevoked = fmt.Errorf("%w by review reset", ErrRevoked)

// reviewCurrent checks that p, a review link's pass or a session opened
// with one, is of its user's current link generation in the review:
// `review reset` moves it on, ending the links before it and their
// sessions. A review that no longer exists revokes nothing here (its
// page says it is gone); one that cannot be read is errUnavailable.
func (s *Server) reviewCurrent(ctx context.Context, p Pass) error {
	sn, err := s.reviewSnapshot(ctx, p.Review)
	switch {
	case errors.Is(err, errNoReview):
		return nil
	case err != nil:
		s.cfg.Log.Error("web: reading a review's link generation", "review", p.Review, "err", err)
		return errUnavailable
	case sn.rev.LinkGen[p.User] != p.Gen:
		return errReviewRevoked
	}
	return nil
}

// reviewState is what a review's page shows of one position, the same
// for every viewer: the page loads with it, each live update carries the
// controller's, and a follower looking around gets others.
type reviewState struct {
	V            int       `json:"v"`    // the review's Version
	Node         int       `json:"node"` // the position shown
	Controller   string    `json:"controller"`
	ControllerID string    `json:"controllerId"`
	OwnerID      string    `json:"ownerId"`
	Present      []present `json:"present"` // on the board, longest present first
	Closed       bool      `json:"closed"`
	Move         int       `json:"move"` // move number at Node
	Line         []int     `json:"line"` // the line through Node: its path and its main continuation
	At           int       `json:"at"`   // Node's place in Line
	Variation    bool      `json:"variation"`
	Comment      string    `json:"comment"`
	Status       string    `json:"status"`
	Board        string    `json:"board"` // the SVG
	// Info is the game's information (players with ranks, result, komi,
	// rules, date) as the header shows it (HTML), the same at every node.
	Info string `json:"info"`
	// Tree is the review's whole tree, for its move list: each node's
	// parent and move ("B D4", "W pass", "" for none), by index; a
	// node's children in the order of their indices, the first the
	// main line. The same at every node of one version. A stream leaves
	// it out of a state when the page has this tree already (lean).
	Tree json.RawMessage `json:"tree,omitempty"`
	// ToPlay is the colour a stone played here would be ("black",
	// "white"): the ghost of a tap waiting for its Play button.
	ToPlay string `json:"toPlay"`
}

// reviewInfo is what a review's header says of its game (the SGF's
// root, or the game reviewed): the players with their ranks, the
// result, komi, rules, handicap and date; each "" when not known.
type reviewInfo struct {
	Black, BlackRank, White, WhiteRank string
	Result, Komi, Rules, Handicap      string
	Date, Name                         string
}

// treeJSON is t as the move list reads it (reviewState.Tree): a list
// of [parent, move] by node, [[-1,""],[0,"B E5"],[1,"W C3"],[1,"W G3"]].
func treeJSON(t *game.Tree) (json.RawMessage, error) {
	out := make([][2]any, len(t.Nodes))
	for i, n := range t.Nodes {
		move := ""
		if m := n.Move; m.Color != game.Empty {
			move = m.Color.String() + " pass"
			if !m.Point.IsPass() {
				move = m.Color.String() + " " + m.Point.GTP(t.Height)
			}
		}
		out[i] = [2]any{n.Parent, move}
	}
	return json.Marshal(out)
}

// infoOf is tree t's game information for the header.
func infoOf(t *game.Tree) reviewInfo {
	in := t.Info
	ri := reviewInfo{Black: in.Black, BlackRank: in.BlackRank, White: in.White, WhiteRank: in.WhiteRank,
		Komi: game.FormatKomi(t.Komi), Rules: t.Rules, Date: in.Date, Name: in.Name}
	if in.Result != "" {
		ri.Result = say.ResultText(in.Result)
	}
	if t.Handicap >= 2 {
		ri.Handicap = strconv.Itoa(t.Handicap)
	}
	return ri
}

type present struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// reviewSnap is a review as read at one Version, shared by its pages,
// with the controller's state encoded once.
type reviewSnap struct {
	rev   *gobot.Review
	info  string          // the header's game information (reviewState.Info)
	tree  json.RawMessage // the move list's tree (reviewState.Tree)
	names map[gobot.UserID]string
	gen   uint64
	json  []byte
	// lean is json without the tree, for a stream that sent this tree
	// already (nodes are only added: its length tells it).
	lean  []byte
	state reviewState
}

// reviewSnaps caches each review's last snapshot; presence counts each
// user's streams per review on this process.
type reviewSnaps struct {
	mu       sync.Mutex
	m        map[gobot.ReviewID]*reviewSnap
	load     map[gobot.ReviewID]*sync.Mutex
	presence map[presenceKey]int
	nodes    *nodeCache // the positions looked at (reviewNode)
}

type presenceKey struct {
	review gobot.ReviewID
	user   gobot.UserID
}

var errNoReview = errors.New("web: no such review")

func newReviewSnaps() *reviewSnaps {
	return &reviewSnaps{m: map[gobot.ReviewID]*reviewSnap{}, load: map[gobot.ReviewID]*sync.Mutex{}, presence: map[presenceKey]int{}, nodes: newNodeCache(maxCachedNodes)}
}

func (s *Server) reviewCache() *reviewSnaps { return s.reviews }

// reviewSnapshot returns review id's snapshot: the cached one while the
// Hub has heard of no change since it was read, else one read afresh,
// once for all the pages woken together.
func (s *Server) reviewSnapshot(ctx context.Context, id gobot.ReviewID) (*reviewSnap, error) {
	c := s.reviewCache()
	gen := s.cfg.Hub.generationOf(reviewTopic(id))
	c.mu.Lock()
	sn, l := c.m[id], c.load[id]
	if l == nil {
		l = &sync.Mutex{}
		c.load[id] = l
	}
	c.mu.Unlock()
	if sn != nil && sn.gen == gen {
		return sn, nil
	}
	l.Lock()
	defer l.Unlock()
	c.mu.Lock()
	sn = c.m[id]
	c.mu.Unlock()
	if sn != nil && sn.gen == gen {
		return sn, nil
	}
	gen = s.cfg.Hub.generationOf(reviewTopic(id)) // before the read: a change after it makes this stale
	rev, names, err := s.cfg.Bot.ReviewView(ctx, id)
	if errors.Is(err, gobot.ErrNotFound) {
		return nil, errNoReview
	}
	if err != nil {
		return nil, err
	}
	fresh := &reviewSnap{rev: rev, names: names}
	if sn != nil && sn.rev.Version == rev.Version {
		c := *sn // unchanged since: the same snapshot, a newer generation
		fresh = &c
	}
	if fresh.json == nil {
		var info bytes.Buffer
		if err := s.page.ExecuteTemplate(&info, "review-info", infoOf(fresh.rev.Tree)); err != nil {
			return nil, err
		}
		fresh.info = info.String()
		if fresh.tree, err = treeJSON(fresh.rev.Tree); err != nil {
			return nil, err
		}
		st, err := fresh.at(fresh.rev.Node)
		if err != nil {
			return nil, err
		}
		fresh.state = st
		if fresh.json, err = json.Marshal(st); err != nil {
			return nil, err
		}
		st.Tree = nil
		if fresh.lean, err = json.Marshal(st); err != nil {
			return nil, err
		}
	}
	fresh.gen = gen
	c.mu.Lock()
	if old := c.m[id]; old == nil || old.rev.Version < fresh.rev.Version || old.rev.Version == fresh.rev.Version && old.gen < fresh.gen {
		c.m[id] = fresh
	}
	c.mu.Unlock()
	return fresh, nil
}

// at returns the state of node n of the snapshot's review.
func (sn *reviewSnap) at(n int) (reviewState, error) {
	rev, t := sn.rev, sn.rev.Tree
	b, placed, err := t.Position(n)
	if err != nil {
		return reviewState{}, err
	}
	st := reviewState{V: rev.Version, Node: n, Controller: sn.names[rev.Controller], ControllerID: string(rev.Controller),
		OwnerID: string(rev.Owner), Closed: rev.Closed, Move: t.MoveNumber(n), Line: t.Line(n), Variation: !t.OnMainLine(n),
		Comment: t.Nodes[n].Comment, Info: sn.info, Tree: sn.tree, ToPlay: colorName(t.ToPlay(n))}
	for i, k := range st.Line {
		if k == n {
			st.At = i
		}
	}
	for _, u := range rev.Present {
		st.Present = append(st.Present, present{ID: string(u), Name: sn.names[u]})
	}
	ov := &overlay{marks: t.Nodes[n].Marks, variation: map[game.Point]bool{}}
	if kids := t.Nodes[n].Children; len(kids) > 1 { // a branch: letter each variation's next stone
		ov.next = map[game.Point]string{}
		for i, k := range kids {
			if m := t.Nodes[k].Move; m.Color != game.Empty && !m.Point.IsPass() && i < 26 {
				ov.next[m.Point] = string(rune('A' + i))
			}
		}
	}
	for i, k := range placed {
		if k >= 0 && !t.OnMainLine(k) {
			ov.variation[game.Pt(i%t.Width, i/t.Width)] = true
		}
	}
	v := render.View{Board: b, Last: game.Pass}
	m := t.Nodes[n].Move
	if m.Color != game.Empty {
		v.Last = m.Point
	}
	var buf bytes.Buffer
	drawSVG(&buf, v, ov)
	st.Board = buf.String()
	switch {
	case m.Color == game.Empty && n == 0:
		st.Status = "Start: " + t.ToPlay(n).Name() + " to play"
	case m.Color == game.Empty:
		st.Status = fmt.Sprintf("Move %d", st.Move)
	case m.Point.IsPass():
		st.Status = fmt.Sprintf("Move %d: %s passes", st.Move, m.Color.Name())
	default:
		st.Status = fmt.Sprintf("Move %d: %s %s", st.Move, m.Color.Name(), m.Point.GTP(t.Height))
	}
	if st.Variation {
		st.Status += " (variation)"
	}
	if rev.Closed {
		st.Status += " · the review is closed"
	}
	return st, nil
}

// reviewPage is what review.html is executed with.
type reviewPage struct {
	Title     string
	ID        gobot.ReviewID
	CSRF      string
	User      gobot.UserID
	Role      string // controller or follower
	State     reviewState
	Line      string // State.Line as numbers between spaces
	SliderMax int
	Board     template.HTML
	Info      template.HTML
	// Confirm is the viewer's confirmation setting (gobot.Player), which
	// a tap on the board obeys as on a game's (tap.js).
	Confirm string
}

// showReview serves a review's page. GET: it reads, it changes nothing.
func (s *Server) showReview(w http.ResponseWriter, r *http.Request) {
	p, ok := s.reviewSession(w, r)
	if !ok {
		return
	}
	sn, err := s.reviewSnapshot(r.Context(), p.Review)
	if errors.Is(err, errNoReview) {
		s.errorPage(w, http.StatusNotFound, "This review no longer exists.")
		return
	}
	if err != nil {
		s.cfg.Log.Error("web: review page", "review", p.Review, "err", err)
		s.errorPage(w, http.StatusServiceUnavailable, "The review could not be read just now; try again in a moment.")
		return
	}
	d := reviewPage{Title: fmt.Sprintf("Review %s · %s", p.Review.Ref(), sn.rev.Title), ID: p.Review, CSRF: s.sign.csrf(p.Session),
		User: p.User, Role: "follower", State: sn.state, SliderMax: len(sn.state.Line) - 1, Board: template.HTML(sn.state.Board), Info: template.HTML(sn.info)}
	for i, n := range sn.state.Line {
		if i > 0 {
			d.Line += " "
		}
		d.Line += strconv.Itoa(n)
	}
	if sn.rev.Controller == p.User {
		d.Role = "controller"
	}
	d.Confirm = s.confirmOf(r.Context(), p.User)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.page.ExecuteTemplate(w, "review", d); err != nil {
		s.cfg.Log.Error("web: review template", "err", err)
	}
}

// reviewNode answers a follower looking around: the state of node n, as
// JSON. GET: it changes nothing. A position is replayed and drawn once
// per version of the review (s.reviews.nodes); each one drawn is charged
// to the user's looks in the review (reviewLooks), so a flood of
// positions is refused before it costs more than a few replays.
func (s *Server) reviewNode(w http.ResponseWriter, r *http.Request) {
	p, ok := s.reviewSession(w, r)
	if !ok {
		return
	}
	n, err := strconv.Atoi(r.PathValue("n"))
	sn, serr := s.reviewSnapshot(r.Context(), p.Review)
	if serr != nil {
		s.answer(w, http.StatusServiceUnavailable, answer{Message: "The review could not be read just now."})
		return
	}
	if err != nil || !sn.rev.Tree.Has(n) {
		s.answer(w, http.StatusNotFound, answer{Message: "That position is not in this review."})
		return
	}
	k := nodeKey{p.Review, sn.rev.Version, n}
	body, hit := s.reviews.nodes.get(k)
	if !hit {
		if !s.looks.allow(fmt.Sprintf("r%d/%s", p.Review, p.User), s.now()) {
			s.reviewAnswer(w, http.StatusTooManyRequests, "Slow down: too many positions at once. Wait a moment, then look again.", nil)
			return
		}
		st, err := sn.at(n)
		if err != nil {
			s.answer(w, http.StatusServiceUnavailable, answer{Message: "That position could not be drawn."})
			return
		}
		if body, err = reviewAnswerBody("", &st); err != nil {
			s.answer(w, http.StatusInternalServerError, answer{Message: "That position could not be drawn."})
			return
		}
		s.reviews.nodes.put(k, body)
	}
	writeJSON(w, http.StatusOK, body)
}

// nodeKey is a position of a review at one version.
type nodeKey struct {
	review  gobot.ReviewID
	version int
	node    int
}

// nodeCache keeps the answers of the last positions looked at (their
// JSON, board drawn), at most max of them: the oldest put goes first.
type nodeCache struct {
	mu    sync.Mutex
	m     map[nodeKey][]byte
	order []nodeKey // a ring of the keys in m, oldest at next
	next  int
	drawn int // positions put (each one replayed and drawn)
}

// maxCachedNodes bounds the positions kept: an answer is a 19×19
// board's SVG (at most some 40 KB) and the move tree (some 75 KB for the
// largest, 5,000 positions), so 128 of them are at most some 15 MB.
const maxCachedNodes = 128

func newNodeCache(max int) *nodeCache {
	return &nodeCache{m: map[nodeKey][]byte{}, order: make([]nodeKey, 0, max)}
}

func (c *nodeCache) get(k nodeKey) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b, ok := c.m[k]
	return b, ok
}

func (c *nodeCache) put(k nodeKey, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drawn++
	if _, ok := c.m[k]; ok {
		c.m[k] = b
		return
	}
	if len(c.order) < cap(c.order) {
		c.order = append(c.order, k)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = k
		c.next = (c.next + 1) % len(c.order)
	}
	c.m[k] = b
}

// reviewAnswer is a JSON answer with a review's state.
func (s *Server) reviewAnswer(w http.ResponseWriter, code int, msg string, st *reviewState) {
	b, err := reviewAnswerBody(msg, st)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"message":"internal error"}`)
	}
	writeJSON(w, code, b)
}

// reviewAnswerBody encodes a review's answer: a message, a state, or
// both.
func reviewAnswerBody(msg string, st *reviewState) ([]byte, error) {
	return json.Marshal(struct {
		Message string       `json:"message,omitempty"`
		State   *reviewState `json:"state,omitempty"`
	}{msg, st})
}

// writeJSON answers with code and the JSON b, never cached.
func writeJSON(w http.ResponseWriter, code int, b []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	w.Write(b)
}

// reviewActionOf reads a POST's form into a review action; refused, if
// not empty, says what is wrong with it (a point off the board in the
// words every command uses: protocol.PointError).
func reviewActionOf(f map[string][]string, t *game.Tree) (a gobot.ReviewAction, refused string) {
	get := func(k string) string {
		if v := f[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	const notAnAction = "That is not an action of this page; nothing was changed."
	a = gobot.ReviewAction{Kind: get("action")}
	point := func() (game.Point, string) {
		word := get("point")
		p, err := game.ParseGTP(word, t.Width, t.Height)
		if err == nil && !validPoint(strings.ToUpper(word)) {
			err = game.ErrBadCoord // " D4", "d04": not as the page writes points
		}
		if err != nil {
			return p, protocol.PointError(word, t.Width, t.Height, err) + " Nothing was changed."
		}
		return p, ""
	}
	switch a.Kind {
	case "goto":
		var err error
		if a.Node, err = strconv.Atoi(get("node")); err != nil {
			return a, notAnAction
		}
		return a, ""
	case "play":
		if get("point") == "pass" {
			a.Point = game.Pass
			return a, ""
		}
		a.Point, refused = point()
		return a, refused
	case "mark":
		a.Mark.Point, refused = point()
		shape, known := game.ParseMarkShape(get("shape"))
		a.Mark.Shape, a.Mark.Text = shape, get("text")
		if refused == "" && !known {
			refused = notAnAction
		}
		return a, refused
	case "comment":
		a.Text = get("text")
		return a, ""
	case "give":
		if a.To = gobot.UserID(get("to")); a.To == "" {
			return a, notAnAction
		}
		return a, ""
	case "take":
		return a, ""
	}
	return a, notAnAction
}

// reviewAct takes one change from the review's page: checks the session,
// its CSRF token and the user's rate, then makes it through the bot.
func (s *Server) reviewAct(w http.ResponseWriter, r *http.Request) {
	p, ok := s.reviewSession(w, r)
	if !ok {
		return
	}
	if !s.limit.allow(fmt.Sprintf("r%d/%s", p.Review, p.User), s.now()) {
		s.reviewAnswer(w, http.StatusTooManyRequests, "Slow down: too many clicks at once. Nothing was changed; wait a moment.", nil)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		s.reviewAnswer(w, http.StatusRequestEntityTooLarge, "That request was too large or malformed; nothing was changed.", nil)
		return
	}
	// A bearer session needs no CSRF token: a browser adds no
	// Authorization header to another site's request by itself.
	if _, isBearer := bearer(r); !isBearer && !s.sign.checkCSRF(p.Session, r.PostForm.Get("csrf")) {
		s.reviewAnswer(w, http.StatusForbidden, "This page is out of date or was not opened from your link; reload it and try again.", nil)
		return
	}
	sn, err := s.reviewSnapshot(r.Context(), p.Review)
	if err != nil {
		s.reviewAnswer(w, http.StatusServiceUnavailable, "The review could not be read just now; nothing was changed.", nil)
		return
	}
	a, refused := reviewActionOf(r.PostForm, sn.rev.Tree)
	if refused != "" {
		s.reviewAnswer(w, http.StatusBadRequest, refused, &sn.state)
		return
	}
	_, err = s.cfg.Bot.ReviewAct(r.Context(), p.Review, p.User, a)
	msg := ""
	if err != nil {
		var ref protocol.Refusal
		if !errors.As(err, &ref) {
			s.cfg.Log.Error("web: review action", "review", p.Review, "err", err)
			s.reviewAnswer(w, http.StatusServiceUnavailable, "The review could not be changed just now; try again in a moment.", &sn.state)
			return
		}
		msg = ref.Error()
	}
	if now, err := s.reviewSnapshot(r.Context(), p.Review); err == nil {
		sn = now
	}
	s.reviewAnswer(w, http.StatusOK, msg, &sn.state)
}

// reviewEvents streams a review's controller position as Server-Sent
// Events (an event "state" whose id is the review's Version), as a
// game's stream does; the stream is the user's presence on the board.
func (s *Server) reviewEvents(w http.ResponseWriter, r *http.Request) {
	p, ok := s.reviewSession(w, r)
	if !ok {
		return
	}
	f, done, ok := s.stream(w, r, p)
	if !ok {
		return
	}
	defer done()
	rc := http.NewResponseController(w)
	rc.SetReadDeadline(time.Time{})
	rc.SetWriteDeadline(time.Time{})
	last, err := strconv.Atoi(r.Header.Get("Last-Event-ID"))
	if err != nil {
		last, _ = strconv.Atoi(r.URL.Query().Get("v"))
	}
	wake, stop := s.cfg.Hub.subscribeTo(reviewTopic(p.Review))
	defer stop()
	defer s.present(r.Context(), p, -1)
	s.present(r.Context(), p, +1)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	w.Write([]byte("retry: 1000\n\n"))
	f.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	_, isBearer := bearer(r)
	sentTree := -1 // the length of the move tree this stream sent last (reviewState.Tree)
	for {
		sn, err := s.reviewSnapshot(r.Context(), p.Review)
		if errors.Is(err, errNoReview) {
			return // deleted (expired): nothing more to follow
		}
		if err == nil && !isBearer && sn.rev.LinkGen[p.User] != p.Gen {
			return // review reset: the link this board was opened with has ended
		}
		if err == nil && sn.rev.Version != last {
			last = sn.rev.Version
			w.Write([]byte("id: " + strconv.Itoa(last) + "\nevent: state\ndata: "))
			if len(sn.tree) == sentTree {
				w.Write(sn.lean) // the page has this tree: the step alone
			} else {
				w.Write(sn.json)
				sentTree = len(sn.tree)
			}
			if _, err := w.Write([]byte("\n\n")); err != nil {
				return
			}
			f.Flush()
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.quit: // shutting down (EndStreams)
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

// present counts a stream of p's user opening (+1) or closing (-1): the
// first joins the review, the last leaves it. A closed review is left as
// it is.
func (s *Server) present(ctx context.Context, p Pass, d int) {
	c := s.reviewCache()
	k := presenceKey{p.Review, p.User}
	c.mu.Lock()
	before := c.presence[k]
	c.presence[k] += d
	after := c.presence[k]
	if after <= 0 {
		delete(c.presence, k)
	}
	c.mu.Unlock()
	kind := ""
	switch {
	case before == 0 && after > 0:
		kind = "join"
	case before > 0 && after <= 0:
		kind = "leave"
	default:
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if sn, err := s.reviewSnapshot(ctx, p.Review); err == nil && sn.rev.Closed {
		return
	}
	if _, err := s.cfg.Bot.ReviewAct(ctx, p.Review, p.User, gobot.ReviewAction{Kind: kind}); err != nil {
		s.cfg.Log.Warn("web: review presence", "review", p.Review, "user", p.User, "do", kind, "err", err)
	}
}
