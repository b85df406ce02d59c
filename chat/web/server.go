// Package web is gobot's web board: an adapter like the chat ones. Each
// game has a live page that shows the board and plays where you click;
// every click goes through chat's router as a command (Bot.Respond), so
// rights, clocks, ratings and engines work as for a typed move, and the
// game's room gets the same announcement. The page is opened from a
// personal link that the chat's `web` command mints (Server.Link); the
// link is exchanged for a session cookie. The same board also runs as a
// Matrix room widget (widget.go), signed in with an OpenID token and a
// bearer token instead. docs/web.md describes the routes, tokens,
// sessions and live updates.
package web

import (
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/httpserver"
)

//go:embed static page.html widget.html review.html controls.html tournament.html ladder.html
var files embed.FS

// DefaultLinkTTL is how long a personal link works when the config does
// not say (web.link_ttl).
const DefaultLinkTTL = 30 * 24 * time.Hour

// MinSecret is the shortest signing secret accepted, in bytes.
const MinSecret = 32

// Config is what a Server needs.
type Config struct {
	Bot *chat.Bot
	// Hub wakes the pages when a game changes; the bot's store must be
	// wrapped with Publishing (to this Hub, or to a publisher whose
	// listener feeds it).
	Hub *Hub
	// Secret signs links and session cookies (at least MinSecret bytes);
	// processes that share it accept each other's links and cookies.
	Secret []byte
	// PublicURL is where links point ("https://go.example.org"); https,
	// or http on a loopback address only.
	PublicURL string
	// LinkTTL is how long a link works (default DefaultLinkTTL).
	LinkTTL time.Duration
	// Rate and Burst limit each player's clicks in a game (all their
	// sessions together): Burst at once, then Rate per second (defaults
	// 8 and 2).
	Rate  float64
	Burst int
	Now   func() time.Time
	Log   *slog.Logger
	// Activity, when set, serves the board as a Discord Activity too
	// (activity.go); nil: no Activity.
	Activity DiscordActivity

	// Widgets checks who opens a game's widget page (the Matrix
	// adapter); nil: the widget page cannot sign anyone in.
	Widgets Widgets
	// Members says who is still a member of a vote game's room, by the
	// room's platform ("matrix", "discord"): a vote from the board is
	// refused to someone who no longer is (act.go). A platform not
	// listed is not asked.
	Members map[string]Members
	// WidgetOrigins may frame the widget page (CSP frame-ancestors):
	// the chat clients' origins, like https://app.element.io; "*" for
	// any site. Empty: no one. Other pages are never framed.
	WidgetOrigins []string

	// TrustedProxies are the proxies in front of the board whose
	// X-Forwarded-For names the client (client.go); nil: none, the
	// peer's address is the client's.
	TrustedProxies []netip.Prefix
	// MaxStreams bounds the live streams open on this process (default
	// DefaultMaxStreams); each session has at most MaxSessionStreams.
	MaxStreams int
}

// Server serves the web board. Link implements chat.Linker; give the bot
// Linker(), which adds the widget page when the board serves it.
type Server struct {
	cfg    Config
	base   *url.URL
	sign   signer
	limit  *limiter
	looks  *limiter // a review's positions drawn for a follower looking around, per user and review (review.go)
	snaps  *snapshots
	page   *template.Template
	static http.Handler
	mux    *http.ServeMux

	discord *activity   // the Discord Activity, or nil (activity.go)
	openIDs *usedTokens // the OpenID tokens that opened widget sessions (widget.go)
	// widgetSignIns and checks bound the widget's sign-ins and the
	// OpenID checks they start (limit.go).
	widgetSignIns *signInLimit
	checks        *places // the OpenID checks under way (by server, by client)
	streams       *places // the live streams open (by session, by client: events.go)
	reviews       *reviewSnaps
	sending       sends // the answered clicks' messages being sent (act.go)
	// quit is closed when the server shuts down (EndStreams): the live
	// streams end, which http.Server.Shutdown does not do by itself.
	quit     chan struct{}
	quitOnce sync.Once
}

// ErrInsecureURL: a public_url that would send links and cookies over the
// network unencrypted.
var ErrInsecureURL = errors.New("web: public_url must be https:// unless it is a loopback address: a link is a credential, and over plain http anyone on the way could read it and play as its owner")

// New checks cfg and returns a Server.
func New(cfg Config) (*Server, error) {
	if cfg.Bot == nil || cfg.Hub == nil {
		return nil, errors.New("web: Bot and Hub are required")
	}
	if len(cfg.Secret) < MinSecret {
		return nil, fmt.Errorf("web: the signing secret must be at least %d bytes (set GOBOT_WEB_SECRET, e.g. to the output of `openssl rand -base64 48`)", MinSecret)
	}
	base, err := CheckPublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	if cfg.LinkTTL <= 0 {
		cfg.LinkTTL = DefaultLinkTTL
	}
	if cfg.Rate <= 0 {
		cfg.Rate = 2
	}
	if cfg.Burst <= 0 {
		cfg.Burst = 8
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.MaxStreams <= 0 {
		cfg.MaxStreams = DefaultMaxStreams
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if err := CheckWidgetOrigins(cfg.WidgetOrigins); err != nil {
		return nil, err
	}
	page, err := template.New("page").Funcs(pageFuncs).ParseFS(files, "page.html", "widget.html", "review.html", "controls.html", "tournament.html", "ladder.html")
	if err != nil {
		return nil, err
	}
	static, _ := fs.Sub(files, "static")
	s := &Server{cfg: cfg, base: base, sign: signer{key: cfg.Secret}, limit: newLimiter(cfg.Rate, cfg.Burst),
		looks: newLimiter(reviewLooks.Rate, reviewLooks.Burst),
		snaps: &snapshots{m: map[gobot.GameID]*snapshot{}, loading: map[gobot.GameID]*sync.Mutex{}}, page: page, static: filesOnly(static),
		openIDs:       newUsedTokens(maxUsedTokens),
		widgetSignIns: newSignInLimit(widgetClient, widgetServer, widgetAll), checks: newPlaces(maxChecks, maxChecksPerServer, maxChecksPerClient),
		streams: newPlaces(cfg.MaxStreams, MaxSessionStreams, MaxClientStreams), reviews: newReviewSnaps(),
		quit: make(chan struct{})}
	cfg.Hub.mu.Lock()
	cfg.Hub.srv = s // it builds the states that Carrying carries
	cfg.Hub.mu.Unlock()
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /l/{token}", s.exchange)
	s.mux.HandleFunc("GET /g/{id}/open", s.open)
	s.mux.HandleFunc("POST /g/{id}/open", s.open)
	s.mux.HandleFunc("POST /g/{id}/signout", s.signOut)
	s.mux.HandleFunc("GET /g/{id}", s.show)
	s.mux.HandleFunc("GET /g/{id}/events", s.events)
	s.mux.HandleFunc("POST /g/{id}/act", s.act)
	s.mux.HandleFunc("GET /r/{id}/open", s.openReview) // review.go
	s.mux.HandleFunc("POST /r/{id}/open", s.openReview)
	s.mux.HandleFunc("GET /r/{id}", s.showReview)
	s.mux.HandleFunc("GET /r/{id}/events", s.reviewEvents)
	s.mux.HandleFunc("GET /r/{id}/node/{n}", s.reviewNode)
	s.mux.HandleFunc("POST /r/{id}/act", s.reviewAct)
	s.mux.HandleFunc("GET /widget/{id}", s.widgetPage)
	s.mux.HandleFunc("POST /widget/{id}/session", s.widgetSessionRoute)
	s.mux.HandleFunc("GET /widget/r/{id}", s.reviewWidgetPage) // widget.go
	s.mux.HandleFunc("POST /widget/r/{id}/session", s.reviewWidgetSessionRoute)
	s.mux.HandleFunc("GET /widget/t/{id}", s.tournamentWidgetPage) // tournament.go
	s.mux.HandleFunc("POST /widget/t/{id}/session", s.tournamentWidgetSessionRoute)
	s.mux.HandleFunc("POST /widget/t/{id}/g/{game}", s.tournamentWidgetGame)
	s.mux.HandleFunc("GET /t/{id}", s.showTournament)
	s.mux.HandleFunc("GET /t/{id}/view", s.tournamentView)
	s.mux.HandleFunc("GET /t/{id}/g/{game}", s.tournamentGame)
	s.mux.HandleFunc("GET /ladder/{id}", s.showLadder) // ladder.go
	s.mux.HandleFunc("GET /ladder/{id}/g/{game}", s.ladderGame)
	s.mux.Handle("GET /static/", http.StripPrefix("/static/", s.static))
	s.mux.HandleFunc("/", s.unknown)
	if cfg.Activity != nil {
		if err := s.enableActivity(cfg.Activity); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// filesOnly serves fsys's files, and a 404 for a directory (no
// listing of what is there) or anything else.
func filesOnly(fsys fs.FS) http.Handler {
	files := http.FileServerFS(fsys)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if st, err := fs.Stat(fsys, name); err != nil || st.IsDir() || strings.HasSuffix(r.URL.Path, "/") {
			http.Error(w, "No such file.", http.StatusNotFound)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// HTTPServer is an http.Server for the board with timeouts t
// (httpserver.Default in production). A live stream is exempt from the
// read and write timeouts (events.go): it lasts as long as its page. Its
// Shutdown ends the live streams (EndStreams) and so returns once the
// requests in flight are answered, instead of waiting for its deadline
// on pages that stay open.
func (s *Server) HTTPServer(t httpserver.Timeouts) *http.Server {
	hs := t.Server(s.Handler())
	hs.RegisterOnShutdown(s.EndStreams)
	return hs
}

// EndStreams ends the live streams (a game's, a review's) open now and
// any opened after: each answers its page's request, which ends as a
// stream ends (the page's EventSource tries again, and finds the
// board when it is back). http.Server.Shutdown waits for every
// request to be answered, and a stream is answered only when its page
// goes, so a server shutting down calls this first; HTTPServer's does.
func (s *Server) EndStreams() { s.quitOnce.Do(func() { close(s.quit) }) }

// CheckPublicURL parses a public_url: https, or http on a loopback host.
func CheckPublicURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSuffix(raw, "/"))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("web: public_url %q is not an http(s) address like https://go.example.org", clip(raw))
	}
	if u.Scheme == "http" && !loopback(u.Hostname()) {
		return nil, fmt.Errorf("%w (%s)", ErrInsecureURL, u.Host)
	}
	return u, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Handler returns the server's handler, with the security headers every
// response carries.
func (s *Server) Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		s.mux.ServeHTTP(w, r)
	})
}

// Link mints a personal link to game id for user, of user's link
// generation gen in that game (chat.Linker).
func (s *Server) Link(id gobot.GameID, user gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	exp := s.cfg.Now().Add(s.cfg.LinkTTL).Truncate(time.Second)
	tok := s.sign.sign(purposeLink, Pass{Game: id, User: user, Watch: watch, Expires: exp.Unix(), Gen: gen})
	return s.base.String() + "/l/" + tok, exp, nil
}

// cookieName is game id's session cookie; its Path is the game's pages,
// so a browser holds one session per game and sends it nowhere else.
func cookieName(id gobot.GameID) string { return "gobot_g" + strconv.FormatUint(uint64(id), 10) }

func gamePath(id gobot.GameID) string { return "/g/" + strconv.FormatUint(uint64(id), 10) }

// maxAge is a cookie's Max-Age for a session that ends at expires (Unix
// seconds): browsers count it from when they get the cookie, so a
// browser whose clock is off from the server's keeps the session as
// long as the server does (with Max-Age, Expires is only for browsers
// too old to know it).
func maxAge(expires int64, now time.Time) int {
	return max(1, int(expires-now.Unix()))
}

// session returns the pass of the request's session for the game in its
// path; on failure it has answered.
func (s *Server) session(w http.ResponseWriter, r *http.Request) (Pass, bool) {
	id, err := strconv.ParseUint(r.PathValue("id"), 10, 64)
	if err != nil || id == 0 {
		s.refuse(w, ErrForged)
		return Pass{}, false
	}
	p, isBearer, err := s.pass(r, cookieName(gobot.GameID(id)))
	if err == nil && (p.Game != gobot.GameID(id) || p.Session == "") {
		err = errWrongGame
	}
	if err == nil && !isBearer {
		err = s.current(r.Context(), p)
	}
	if err != nil {
		s.refuse(w, err)
		return Pass{}, false
	}
	return p, true
}

// pass opens the request's session token: a bearer token (a widget's or
// the Activity's session, from its sign-in, kept by its page), else the
// cookie named cookie (a link's session). A game's and a review's
// sessions are both read here.
func (s *Server) pass(r *http.Request, cookie string) (p Pass, isBearer bool, err error) {
	if tok, ok := bearer(r); ok {
		p, err = s.sign.open(purposeWidget, tok, s.cfg.Now())
		if errors.Is(err, ErrForged) && s.discord != nil {
			p, err = s.sign.open(purposeActivity, tok, s.cfg.Now())
		}
		return p, true, err
	}
	c, err := r.Cookie(cookie)
	if err != nil {
		return Pass{}, false, errNoSession
	}
	p, err = s.sign.open(purposeSession, c.Value, s.cfg.Now())
	return p, false, err
}

var (
	errNoSession = errors.New("web: no session")
	errWrongGame = errors.New("web: session for another game")
)

// refuse answers a request without a valid link or session: 401 when
// none was shown or it was not ours, 403 when it expired or is for
// another game. The page says how to get a new link and nothing about
// the game.
func (s *Server) refuse(w http.ResponseWriter, err error) {
	code, why := http.StatusUnauthorized, "This link was not issued by gobot, or it was changed on the way."
	switch {
	case errors.Is(err, errNoSession):
		why = "This page needs your personal link, opened in this browser."
	case errors.Is(err, ErrExpired):
		code, why = http.StatusForbidden, "This link has expired."
	case errors.Is(err, errWrongGame):
		code, why = http.StatusForbidden, "This link is for another game."
	case errors.Is(err, errReviewRevoked):
		code, why = http.StatusForbidden, "This link was replaced by a newer one (review reset), which ended it and the boards opened with it."
	case errors.Is(err, ErrRevoked):
		code, why = http.StatusForbidden, "This link was replaced by a newer one (web reset), which ended it and the boards opened with it."
	case errors.Is(err, errUnavailable):
		code, why = http.StatusServiceUnavailable, "This link could not be checked just now; try again in a moment."
	}
	s.errorPage(w, code, why)
}

// unknown answers every other path like a link that is not ours.
func (s *Server) unknown(w http.ResponseWriter, r *http.Request) {
	s.errorPage(w, http.StatusUnauthorized, "This address is not a gobot link.")
}

// errorPage answers a refusal. With the Activity on it may be shown in
// Discord's frame (it holds nothing to click, so framing it risks
// nothing), where a game's page is refused when the frame's session
// cookie is gone, and it says how to open the board there again.
func (s *Server) errorPage(w http.ResponseWriter, code int, why string) {
	if s.discord != nil {
		s.activityHeaders(w)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	s.page.ExecuteTemplate(w, "error", struct {
		Why      string
		Activity bool
	}{why, s.discord != nil})
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
