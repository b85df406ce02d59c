package web

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/board"
)

// The widget page: a game's board inside a chat client (a Matrix room
// widget in Element). Element shows it in a sandboxed iframe of another
// site, where third-party cookies are blocked and native dialogs do
// nothing, so the page keeps its session in memory: it asks the client
// for an OpenID token (the widget API's get_openid), the server checks
// it with the user's homeserver (Widgets.VerifyOpenID) and answers with
// a bearer token, which the page sends as "Authorization: Bearer" to
// the game's routes (/g/{id}/act and /g/{id}/events). docs/matrix.md
// describes the setup.

// Widgets checks who opens a widget page; the Matrix adapter
// (chat/matrix) implements it.
type Widgets interface {
	// VerifyOpenID returns the user an OpenID token from server belongs
	// to, as the user's homeserver says. A server that could not be
	// asked wraps gobot.ErrUnavailable; any other error is a refusal,
	// and one wrapping a protocol.Refusal (a server gobot will not ask)
	// has words for the page.
	VerifyOpenID(ctx context.Context, token, server string) (gobot.UserID, error)
	// InRoom: who may see a game's widget in its room.
	Members
}

// widgetTTL is how long a widget's session (its bearer token) works; the
// page signs in again when it is reopened.
const widgetTTL = 12 * time.Hour

// purposeWidget signs a widget's bearer tokens: neither a link nor a
// cookie can stand for one, nor one for them.
const purposeWidget = "widget"

// CheckWidgetOrigins checks the origins that may frame the widget page
// (web.widget_origins): each "https://host" or "https://host:port" (a
// leading "*." in the host for its subdomains), "http://" on a loopback
// host, a bare scheme like "vector:" (Element Desktop), or "*" alone for
// any site.
func CheckWidgetOrigins(origins []string) error {
	for _, o := range origins {
		if o == "*" {
			if len(origins) > 1 {
				return errors.New(`web.widget_origins: "*" (any site) stands alone; remove the other origins or the "*"`)
			}
			continue
		}
		if strings.HasSuffix(o, ":") && !strings.Contains(o, "/") && len(o) > 1 && validScheme(o[:len(o)-1]) {
			continue
		}
		u, err := url.Parse(o)
		host := ""
		if err == nil {
			host = strings.TrimPrefix(u.Hostname(), "*.")
		}
		if err != nil || u.Host == "" || !validHost(host) || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" || u.User != nil {
			return fmt.Errorf("web.widget_origins: %q is not an origin like https://app.element.io (a scheme and a host, no path)", clip(o))
		}
		if u.Scheme != "https" && !(u.Scheme == "http" && loopback(host)) {
			return fmt.Errorf("web.widget_origins: %q: a chat client that frames the widget is served over https:// (http:// only on a loopback address)", clip(o))
		}
	}
	return nil
}

// validHost accepts a host name (letters, digits, '-' and '.') or an IP
// address: the origin goes into a header, where ';', ',', quotes or
// spaces would add to the policy.
func validHost(h string) bool {
	if net.ParseIP(h) != nil {
		return true
	}
	for _, c := range h {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return false
		}
	}
	return h != ""
}

func validScheme(s string) bool {
	for i, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return s != ""
}

// widgetCSP is the widget page's policy: the board's, but framed by the
// configured origins instead of by no one.
func (s *Server) widgetCSP() string {
	anc := "'none'"
	if len(s.cfg.WidgetOrigins) > 0 {
		var o []string
		for _, x := range s.cfg.WidgetOrigins {
			o = append(o, strings.TrimSuffix(x, "/"))
		}
		anc = strings.Join(o, " ")
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors " + anc
}

// servesWidgets reports whether the widget page can show a board: some
// chat client may frame it (WidgetOrigins; with none its frame-ancestors
// is 'none') and someone can sign the page in (Widgets).
func (s *Server) servesWidgets() bool {
	return len(s.cfg.WidgetOrigins) > 0 && s.cfg.Widgets != nil
}

// Linker is the chat.Linker to give the bot (Bot.SetLinker): a
// chat.WidgetLinker when the board serves widgets, else the Server
// alone, which mints links only, so no room gets a widget that no
// client can load.
func (s *Server) Linker() chat.Linker {
	if s.servesWidgets() {
		return widgetLinker{s}
	}
	return s
}

// widgetLinker is the Server as a chat.WidgetLinker.
type widgetLinker struct{ *Server }

// WidgetURL is game id's widget page. The client fills in the room and
// the user; the page shows them, the server trusts neither.
func (w widgetLinker) WidgetURL(id gobot.GameID) string {
	return w.base.String() + "/widget/" + strconv.FormatUint(uint64(id), 10) + "?room=$matrix_room_id&user=$matrix_user_id"
}

// ReviewWidgetURL is review id's widget page (chat.ReviewWidgetLinker).
func (w widgetLinker) ReviewWidgetURL(id gobot.ReviewID) string {
	return w.base.String() + "/widget/r/" + strconv.FormatUint(uint64(id), 10) + "?room=$matrix_room_id&user=$matrix_user_id"
}

// reviewWidgetPage serves a review's widget page: the review's board,
// empty until the page has signed in. GET: it changes nothing.
func (s *Server) reviewWidgetPage(w http.ResponseWriter, r *http.Request) {
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
	if err := s.page.ExecuteTemplate(w, "review-widget", reviewPage{ID: gobot.ReviewID(id), Role: "follower"}); err != nil {
		s.cfg.Log.Error("web: review widget template", "err", err)
	}
}

// widgetPage serves the widget page: the same markup as a game's page,
// empty until the page has signed in. GET: it reads nothing and changes
// nothing.
func (s *Server) widgetPage(w http.ResponseWriter, r *http.Request) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.unknown(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Security-Policy", s.widgetCSP())
	h.Del("X-Frame-Options") // it names one origin at most; frame-ancestors says who may frame
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	if err := s.page.ExecuteTemplate(w, "widget", struct{ Game gobot.GameID }{gobot.GameID(id)}); err != nil {
		s.cfg.Log.Error("web: widget template", "err", err)
	}
}

// widgetSignIn is what the page posts: the OpenID credentials the chat
// client gave it.
type widgetSignIn struct {
	AccessToken      string `json:"access_token"`
	MatrixServerName string `json:"matrix_server_name"`
	// ExpiresIn is the token's life in seconds, as the client said: how
	// long it is remembered as used (usedTokens), within bounds.
	ExpiresIn float64 `json:"expires_in"`
}

// usedTokens remembers the OpenID tokens that opened a widget session on
// this process (their SHA-256), each until it expires, at most max of
// them: a token opens one session. A Matrix OpenID token is not bound to
// one widget, so one the user gave another widget could otherwise be
// replayed here (docs/matrix.md); the page asks its client for a new
// token each time it loads.
type usedTokens struct {
	mu     sync.Mutex
	max    int
	m      map[[sha256.Size]byte]time.Time // until when
	pruned time.Time
}

// maxUsedTokens bounds the memory of used tokens (about 7 MB).
const maxUsedTokens = 100_000

// A token is remembered for its life as the client says, at least
// minTokenMemory (a homeserver's usual OpenID lifetime: Synapse's and
// Dendrite's are an hour) and at most maxTokenMemory.
const (
	minTokenMemory = time.Hour
	maxTokenMemory = 24 * time.Hour
)

func newUsedTokens(max int) *usedTokens {
	return &usedTokens{max: max, m: map[[sha256.Size]byte]time.Time{}}
}

// tokenMemory is how long a token that lives expiresIn seconds is
// remembered.
func tokenMemory(expiresIn float64) time.Duration {
	if expiresIn > maxTokenMemory.Seconds() {
		return maxTokenMemory
	}
	return max(time.Duration(expiresIn)*time.Second, minTokenMemory)
}

// claim records token as used until then and reports whether it was
// new. Full of live tokens, it records nothing and reports true: a
// flood of genuine sign-ins must not lock everyone out.
func (u *usedTokens) claim(token string, until, now time.Time) bool {
	k := sha256.Sum256([]byte(token))
	u.mu.Lock()
	defer u.mu.Unlock()
	if t, ok := u.m[k]; ok && now.Before(t) {
		return false
	}
	if len(u.m) >= u.max && now.Sub(u.pruned) >= time.Minute {
		u.pruned = now
		for k, t := range u.m {
			if !now.Before(t) {
				delete(u.m, k)
			}
		}
	}
	if len(u.m) < u.max {
		u.m[k] = until
	}
	return true
}

// release forgets token: it opened no session.
func (u *usedTokens) release(token string) {
	k := sha256.Sum256([]byte(token))
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.m, k)
}

// widgetSession is the answer to a sign-in.
type widgetSession struct {
	Message string `json:"message,omitempty"`
	Token   string `json:"token,omitempty"`
	Role    string `json:"role,omitempty"`    // player or watcher
	Color   string `json:"color,omitempty"`   // the player's colour
	Confirm string `json:"confirm,omitempty"` // the player's confirmation setting (gobot.Player)
	Name    string `json:"name,omitempty"`    // who signed in
	Resign  string `json:"resign,omitempty"`  // the Resign button's question, in chat's words
	State   *state `json:"state,omitempty"`
	// A review's widget: the controller's position and the user's ID
	// (who controls is said by ID).
	ReviewState *reviewState `json:"reviewState,omitempty"`
	Me          gobot.UserID `json:"me,omitempty"`
	// A tournament's widget: its number and name. A game's board opened
	// from it: the game's number.
	Tournament gobot.TournamentID `json:"tournament,omitempty"`
	Title      string             `json:"title,omitempty"`
	Game       gobot.GameID       `json:"game,omitempty"`
}

// widgetBusy is a refused sign-in's text, by the limit that refused it.
var widgetBusy = map[refusal]string{
	overClient:   "Too many sign-ins from your network just now; reload the widget in a minute.",
	overTarget:   "Too many sign-ins from your homeserver just now; reload the widget in a moment.",
	overAll:      "Too many sign-ins just now; reload the widget in a moment.",
	overInFlight: "Too many sign-ins are being checked just now; reload the widget in a moment.",
}

// widgetSessionRoute opens a widget's session: it checks the OpenID
// token with the user's homeserver and answers with a bearer token for
// the game's routes. A player may play; anyone else in the game's room
// may watch; nobody else gets the game. It changes no game.
func (s *Server) widgetSessionRoute(w http.ResponseWriter, r *http.Request) {
	s.widgetSession(w, r, widgetOfGame)
}

// What a widget shows: a game's board, a review's, a tournament's page.
type widgetKind int

const (
	widgetOfGame widgetKind = iota
	widgetOfReview
	widgetOfTournament
)

// reviewWidgetSessionRoute opens a review widget's session: as a game's,
// for the members of the review's room.
func (s *Server) reviewWidgetSessionRoute(w http.ResponseWriter, r *http.Request) {
	s.widgetSession(w, r, widgetOfReview)
}

func (s *Server) widgetSession(w http.ResponseWriter, r *http.Request, kind widgetKind) {
	reply := func(code int, ws widgetSession) {
		b, _ := json.Marshal(ws)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(code)
		w.Write(b)
	}
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		reply(http.StatusNotFound, widgetSession{Message: "This is not a game's, a review's or a tournament's widget."})
		return
	}
	if s.cfg.Widgets == nil {
		reply(http.StatusServiceUnavailable, widgetSession{Message: "This gobot cannot check Matrix sign-ins (its Matrix adapter is off)."})
		return
	}
	var in widgetSignIn
	switch err := readJSON(w, r, &in); {
	case errors.Is(err, errNotJSON):
		reply(http.StatusBadRequest, widgetSession{Message: "A widget signs in with JSON (Content-Type: application/json); reload the widget."})
		return
	case errors.Is(err, errTooLarge):
		reply(http.StatusRequestEntityTooLarge, widgetSession{Message: "That sign-in was too large; reload the widget."})
		return
	case err != nil || in.AccessToken == "" || in.MatrixServerName == "":
		reply(http.StatusBadRequest, widgetSession{Message: "The sign-in was malformed; reload the widget."})
		return
	}
	// Each sign-in asks a homeserver: limited per client, then per
	// server named, then for everyone (limit.go), and at most a few
	// checks under way at once, so the page cannot be used to flood a
	// homeserver nor one client to lock others out.
	client, server := s.clientKey(r), strings.ToLower(clip(in.MatrixServerName))
	if why := s.widgetSignIns.allow(client, server, s.now()); why != allowed {
		reply(http.StatusTooManyRequests, widgetSession{Message: widgetBusy[why]})
		return
	}
	release, _, ok := s.checks.take(server, client)
	if !ok {
		reply(http.StatusTooManyRequests, widgetSession{Message: widgetBusy[overInFlight]})
		return
	}
	checked := false
	defer func() {
		if !checked {
			release()
		}
	}()
	// A token opens one session (usedTokens): claimed before the
	// homeserver is asked, so two sign-ins with it at once open one;
	// given back if it opens none.
	now := s.now()
	if !s.openIDs.claim(in.AccessToken, now.Add(tokenMemory(in.ExpiresIn)), now) {
		reply(http.StatusUnauthorized, widgetSession{Message: "This sign-in was used already; reopen the widget to sign in again."})
		return
	}
	opened := false
	defer func() {
		if !opened {
			s.openIDs.release(in.AccessToken)
		}
	}()
	user, err := s.cfg.Widgets.VerifyOpenID(r.Context(), in.AccessToken, in.MatrixServerName)
	checked = true
	release()
	if errors.Is(err, gobot.ErrUnavailable) {
		s.cfg.Log.Warn("web: widget sign-in", "server", clip(in.MatrixServerName), "err", err)
		reply(http.StatusServiceUnavailable, widgetSession{Message: "Your homeserver could not be asked who you are just now; reload the widget in a moment."})
		return
	}
	if ref := (protocol.Refusal{}); errors.As(err, &ref) { // a server gobot asks nothing (matrix.openid_allow_private)
		reply(http.StatusForbidden, widgetSession{Message: ref.Error()})
		return
	}
	if err != nil {
		reply(http.StatusUnauthorized, widgetSession{Message: "Your homeserver did not confirm who you are; reload the widget to sign in again."})
		return
	}
	switch kind {
	case widgetOfReview:
		code, ws := s.reviewWidgetOpen(r.Context(), gobot.ReviewID(id), user)
		opened = code == http.StatusOK
		reply(code, ws)
		return
	case widgetOfTournament:
		code, ws := s.tournamentWidgetOpen(r.Context(), gobot.TournamentID(id), user)
		opened = code == http.StatusOK
		reply(code, ws)
		return
	}
	sn, err := s.snapshot(r.Context(), gobot.GameID(id))
	if errors.Is(err, errNoGame) {
		reply(http.StatusNotFound, widgetSession{Message: fmt.Sprintf("Game #%d no longer exists.", id)})
		return
	}
	if err != nil {
		reply(http.StatusServiceUnavailable, widgetSession{Message: "The game could not be read just now; reload the widget in a moment."})
		return
	}
	v := sn.viewer(user)
	if v.Role != board.Player {
		in, err := s.cfg.Widgets.InRoom(r.Context(), sn.view.Room, user)
		if err == nil && !in && sn.view.Mirror != "" { // a game between platforms: its Matrix room may be its mirror
			in, err = s.cfg.Widgets.InRoom(r.Context(), sn.view.Mirror, user)
		}
		if err != nil {
			reply(http.StatusServiceUnavailable, widgetSession{Message: "The game's room could not be checked just now; reload the widget in a moment."})
			return
		}
		if !in {
			reply(http.StatusForbidden, widgetSession{Message: fmt.Sprintf("Only the players of game #%d and the members of its room can see its board.", id)})
			return
		}
	}
	// A member of a vote game's room votes (board.Voter): its pass is a
	// watch pass, as any non-player's.
	p := Pass{Game: gobot.GameID(id), User: user, Watch: v.Role != board.Player, Expires: s.now().Add(widgetTTL).Unix(), Session: newSessionID()}
	v, role, color := sn.role(user, p.Watch)
	ws := widgetSession{Token: s.sign.sign(purposeWidget, p), Role: role, Color: color, Name: user.Local(), Resign: v.ResignQuestion, State: s.stamped(sn), Confirm: s.confirmOf(r.Context(), user)}
	if n, ok := sn.view.Names[user]; ok {
		ws.Name = n
	}
	opened = true
	reply(http.StatusOK, ws)
}

// reviewWidgetOpen opens review id's widget session for user, a member
// of the review's room (the homeserver says), who follows it and
// controls it when the review says so.
func (s *Server) reviewWidgetOpen(ctx context.Context, id gobot.ReviewID, user gobot.UserID) (int, widgetSession) {
	sn, err := s.reviewSnapshot(ctx, id)
	if errors.Is(err, errNoReview) {
		return http.StatusNotFound, widgetSession{Message: fmt.Sprintf("Review %s no longer exists.", id.Ref())}
	}
	if err != nil {
		return http.StatusServiceUnavailable, widgetSession{Message: "The review could not be read just now; reload the widget in a moment."}
	}
	in, err := s.cfg.Widgets.InRoom(ctx, sn.rev.Room, user)
	if err != nil {
		return http.StatusServiceUnavailable, widgetSession{Message: "The review's room could not be checked just now; reload the widget in a moment."}
	}
	if !in {
		return http.StatusForbidden, widgetSession{Message: fmt.Sprintf("Only the members of review %s's room can see its board.", id.Ref())}
	}
	p := Pass{Review: id, User: user, Expires: s.now().Add(widgetTTL).Unix(), Session: newSessionID()}
	st := sn.state
	ws := widgetSession{Token: s.sign.sign(purposeWidget, p), Role: "follower", Name: user.Local(), ReviewState: &st, Me: user}
	if sn.rev.Controller == user {
		ws.Role = "controller"
	}
	if n, ok := sn.names[user]; ok {
		ws.Name = n
	}
	return http.StatusOK, ws
}

// bearer returns the request's bearer token, if its Authorization
// header has the Bearer scheme (in any case, RFC 9110): then only that
// token counts, never a cookie. Another scheme (Basic credentials a
// reverse proxy passes on) is none of the board's: the cookie session
// decides, with its CSRF check.
func bearer(r *http.Request) (string, bool) {
	scheme, tok, _ := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}
