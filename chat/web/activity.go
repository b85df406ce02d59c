package web

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"mime"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/board"
)

// The Discord Activity: the web board inside Discord. A game's "Open
// board" button launches it (chat/discord); Discord loads GET / through
// its proxy (https://<app>.discordsays.com, URL mapping / → public_url)
// with frame_id and instance_id in the query. The page (activity.html,
// static/activity.js, served bundled with Discord's Embedded App SDK,
// vendored in discord-sdk/, as one script: activity/) runs the SDK:
// the handshake, ready, authorize (scope identify), then it posts the
// code to /activity/token, which exchanges it with the client secret
// and, in the same answer, asks Discord who the token belongs to and
// which channel the instance runs in, picks the game, sets the game's
// session cookie (third-party: SameSite=None; Secure; Partitioned) and
// returns the session and the board's state (openActivity); the page
// shows the board and tells the SDK the access token (authenticate).
// A game picked from a list is opened by /activity/session. The board
// plays as for a personal link. Nothing the page says about the user or
// the channel is believed. docs/discord.md.

//go:embed activity.html controls.html activity/app.js activity/app.css
var activityFiles embed.FS

// activityAsset is one of the page's bundled files (activity/app.js,
// app.css), served under a name made of its hash: a new build is a new
// name, so a browser keeps each for good.
type activityAsset struct {
	name  string // "app-<hash>.js"
	ctype string
	body  []byte
	gz    []byte // body gzipped, for a client that accepts it
}

// loadActivityAssets reads the bundle's files and names them.
func loadActivityAssets() (map[string]*activityAsset, error) {
	out := map[string]*activityAsset{}
	for _, f := range []struct{ file, ctype string }{{"activity/app.js", "text/javascript; charset=utf-8"}, {"activity/app.css", "text/css; charset=utf-8"}} {
		b, err := activityFiles.ReadFile(f.file)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(b)
		ext := path.Ext(f.file)
		var gz bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		a := &activityAsset{name: "app-" + hex.EncodeToString(sum[:8]) + ext, ctype: f.ctype, body: b, gz: gz.Bytes()}
		out[strings.TrimPrefix(ext, ".")] = a
	}
	return out, nil
}

// activityAssetCache is how long a browser keeps a bundled file: a year,
// and immutable (its name changes with its contents).
const activityAssetCache = "public, max-age=31536000, immutable"

// activityAsset serves a bundled file by its hashed name; any other
// name is a 404.
func (s *Server) activityAsset(w http.ResponseWriter, r *http.Request) {
	var a *activityAsset
	for _, x := range s.discord.assets {
		if x.name == r.PathValue("file") {
			a = x
		}
	}
	if a == nil {
		http.Error(w, "No such file.", http.StatusNotFound)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.ctype)
	h.Set("Cache-Control", activityAssetCache)
	h.Set("Vary", "Accept-Encoding")
	body := a.body
	if acceptsGzip(r) {
		h.Set("Content-Encoding", "gzip")
		body = a.gz
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// acceptsGzip reports whether r's Accept-Encoding lists gzip (without
// q=0).
func acceptsGzip(r *http.Request) bool {
	for _, e := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		name, params, _ := strings.Cut(strings.TrimSpace(e), ";")
		if strings.EqualFold(strings.TrimSpace(name), "gzip") {
			q := strings.ReplaceAll(params, " ", "")
			return q != "q=0" && q != "q=0.0" && q != "q=0.00" && q != "q=0.000"
		}
	}
	return false
}

// DiscordActivity is Discord's side of the Activity's sign-in; the
// Discord adapter (chat/discord) implements it. Refusals (a forged or
// used code, a bad token, a foreign instance) are errors that do not
// wrap gobot.ErrUnavailable; Discord out of reach is one that does.
type DiscordActivity interface {
	// ActivityClientID is the application's ID (the SDK's client ID).
	ActivityClientID() string
	// ExchangeCode trades an OAuth2 code for an access token.
	ExchangeCode(ctx context.Context, code string) (string, error)
	// TokenUser is the user an access token belongs to.
	TokenUser(ctx context.Context, token string) (protocol.User, error)
	// ActivityInstance is the room an instance runs in and its users.
	ActivityInstance(ctx context.Context, instance string) (gobot.RoomID, []gobot.UserID, error)
	// ProxyUser is the user a request through Discord's proxy came
	// from, when Discord signed it (false: unsigned, or not provably).
	ProxyUser(h http.Header, now time.Time) (gobot.UserID, bool)
}

// activityCSP is the Activity's pages' policy: the page's own CSP, and
// framing allowed by Discord's clients instead of by nobody: the
// application's own proxy origin (https://{application id}.discordsays.com;
// 'self' when the page is served through it) and the origins of
// Discord's clients that the Embedded App SDK accepts messages from
// (discord-sdk/Discord.mjs, less its localhost and staging ones). Never
// https://*.discordsays.com: every application's Activity runs on a
// subdomain of it, and any of them could frame this board with its
// partitioned cookie attached.
func activityCSP(appID string, clients []string) string {
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; " +
		"frame-ancestors 'self' https://" + appID + ".discordsays.com " + strings.Join(clients, " ")
}

// discordClientOrigins are the origins of Discord's own clients.
var discordClientOrigins = []string{
	"https://discord.com", "https://ptb.discord.com", "https://canary.discord.com", "https://pax.discord.com",
	"https://discordapp.com", "https://ptb.discordapp.com", "https://canary.discordapp.com",
}

// validAppID accepts an application ID that is one DNS label (Discord's
// are snowflakes, digits only): it goes into a host name in a header.
func validAppID(id string) bool {
	if id == "" || len(id) > 63 {
		return false
	}
	for _, c := range id {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z') {
			return false
		}
	}
	return true
}

// activitySessionTTL bounds an Activity session (at most the link TTL).
const activitySessionTTL = 12 * time.Hour

// activity is the server's Activity state.
type activity struct {
	d      DiscordActivity
	csp    string // activityCSP for the application
	page   *template.Template
	assets map[string]*activityAsset // by kind: js, css
	// used remembers the codes this process exchanged (10 minutes, the
	// life of a code), so a code shown again is refused without asking
	// Discord; Discord refuses a used code to every process anyway.
	mu   sync.Mutex
	used map[string]time.Time
	// calls bounds the sign-in steps that reach Discord: per client,
	// per instance (the session step) and for everyone (limit.go).
	// Discord bans for a while an address that makes too many refused
	// requests (10,000 in 10 minutes): a flood of made-up codes must not
	// take the bot off Discord, nor one client's lock others out.
	calls *signInLimit
}

// codeTTL is how long an OAuth2 code is remembered as used.
const codeTTL = 10 * time.Minute

func (s *Server) enableActivity(d DiscordActivity) error {
	page, err := template.New("activity").Funcs(pageFuncs).ParseFS(activityFiles, "activity.html", "controls.html")
	if err != nil {
		return err
	}
	id := d.ActivityClientID()
	if !validAppID(id) {
		return fmt.Errorf("web: the Activity's application ID %q is not one like 123456789012345678 (discord.application_id)", clip(id))
	}
	assets, err := loadActivityAssets()
	if err != nil {
		return err
	}
	s.discord = &activity{d: d, csp: activityCSP(id, discordClientOrigins), page: page, assets: assets, used: map[string]time.Time{},
		calls: newSignInLimit(activityClient, activityInstance, activityAll)}
	s.mux.HandleFunc("GET /{$}", s.activityPage)
	s.mux.HandleFunc("GET /activity/{file}", s.activityAsset)
	s.mux.HandleFunc("POST /activity/token", s.activityToken)
	s.mux.HandleFunc("POST /activity/session", s.activitySession)
	return nil
}

// activityHeaders lets Discord's clients frame the response (with the
// Activity off, nobody: an Activity session's board is then framed by
// no one).
func (s *Server) activityHeaders(w http.ResponseWriter) {
	if s.discord == nil {
		return
	}
	w.Header().Set("Content-Security-Policy", s.discord.csp)
	w.Header().Del("X-Frame-Options")
}

// activityPage serves the Activity's page where Discord loads it: GET /
// with the SDK's frame_id. Elsewhere / is what it always was.
func (s *Server) activityPage(w http.ResponseWriter, r *http.Request) {
	if r.URL.Query().Get("frame_id") == "" {
		s.unknown(w, r)
		return
	}
	s.activityHeaders(w)
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Vary", "Accept-Encoding")
	// The bundle is asked for as the page arrives, not when the parser
	// reaches its tags (on a slow phone, some 180 ms later).
	h.Add("Link", "<activity/"+s.discord.assets["js"].name+">; rel=preload; as=script")
	h.Add("Link", "<activity/"+s.discord.assets["css"].name+">; rel=preload; as=style")
	data := struct{ ClientID, Script, Style string }{s.discord.d.ActivityClientID(), s.discord.assets["js"].name, s.discord.assets["css"].name}
	var page bytes.Buffer
	if err := s.discord.page.ExecuteTemplate(&page, "activity", data); err != nil {
		s.cfg.Log.Error("web: activity template", "err", err)
		http.Error(w, "The board's page could not be made; try again in a moment.", http.StatusInternalServerError)
		return
	}
	b := page.Bytes()
	if acceptsGzip(r) {
		b = gzipped(b)
		h.Set("Content-Encoding", "gzip")
	}
	w.Write(b)
}

// activityAnswer is the JSON the Activity's POSTs get.
type activityAnswer struct {
	Message     string `json:"message,omitempty"`
	AccessToken string `json:"access_token,omitempty"`
	Proof       string `json:"proof,omitempty"` // that gobot exchanged AccessToken (tokenProof)
	URL         string `json:"url,omitempty"`   // the board's own page, relative (for the cookie)
	// The session, kept by the page (bearer, purposeActivity), and what
	// the page needs to show the board in place.
	Token string       `json:"token,omitempty"`
	Game  gobot.GameID `json:"game,omitempty"`
	Role  string       `json:"role,omitempty"`  // player or watcher
	Color string       `json:"color,omitempty"` // the player's colour
	// Confirm is the player's confirmation setting (gobot.Player).
	Confirm string `json:"confirm,omitempty"`
	Name    string `json:"name,omitempty"` // who signed in
	// Resign is the question the Resign button asks first, in chat's
	// words ("Resign game #1 against bob?").
	Resign string         `json:"resign,omitempty"`
	State  *state         `json:"state,omitempty"`
	Games  []activityGame `json:"games,omitempty"` // several: the caller chooses
	Watch  bool           `json:"watch,omitempty"` // the games listed are to watch
	// A review's session instead of a game's: its number, title, the
	// controller's position, and the signed-in user's ID (who controls
	// is said by ID). Reviews lists the channel's open reviews beside
	// Games, to choose from.
	Review      gobot.ReviewID   `json:"review,omitempty"`
	Title       string           `json:"title,omitempty"`
	ReviewState *reviewState     `json:"reviewState,omitempty"`
	Me          gobot.UserID     `json:"me,omitempty"`
	Reviews     []activityReview `json:"reviews,omitempty"`
	// A tournament's session instead (its page, tview.js), or a game's
	// board opened from it: the tournament's number. Tournaments lists
	// the channel's tournaments under way beside a game or a list, for
	// the page's tab to them.
	Tournament  gobot.TournamentID `json:"tournament,omitempty"`
	Tournaments []activityEvent    `json:"tournaments,omitempty"`
}

type activityEvent struct {
	ID    gobot.TournamentID `json:"id"`
	Label string             `json:"label"`
}

type activityReview struct {
	ID    gobot.ReviewID `json:"id"`
	Label string         `json:"label"`
}

type activityGame struct {
	ID    gobot.GameID `json:"id"`
	Label string       `json:"label"`
}

const (
	msgSignIn   = "Discord did not accept this sign-in (the code is not valid, or was used already). Close the board and open it again."
	msgDiscord  = "Discord could not be reached just now; close the board and open it again in a moment."
	msgRequest  = "That request is not one the Activity page makes; nothing was changed."
	msgInstance = "This Activity is not gobot's, or it has ended: open the board again from the game's message."
	msgNotIn    = "You are not in this Activity: join it in Discord, then open the board again."
	msgNoGame   = "No game is being played in this channel. Start one with “/go challenge”, then open the board from its message."
	msgBusy     = "Too many sign-ins at once; close the board and open it again in a moment."
)

// activityBusy is a refused step's text, by the limit that refused it.
var activityBusy = map[refusal]string{
	overClient: "Too many sign-ins from your network just now; close the board and open it again in a minute.",
	overTarget: "Too many sign-ins in this Activity just now; close the board and open it again in a moment.",
	overAll:    msgBusy,
}

// busy answers 429 when a sign-in step that reaches Discord is over a
// limit: its client's, its instance's (instance "": none; the session
// step charges its instance once Discord confirmed the caller is in it),
// everyone's.
func (s *Server) busy(w http.ResponseWriter, r *http.Request, instance string) bool {
	why := s.discord.calls.allow(s.clientKey(r), instance, s.now())
	if why == allowed {
		return false
	}
	s.activityAnswer(w, r, http.StatusTooManyRequests, activityAnswer{Message: activityBusy[why]})
	return true
}

// readJSON decodes a sign-in POST (the Activity's, the widget's): JSON
// only (a form from another site cannot send it without the browser
// asking this server first, which never agrees), at most maxBody bytes.
// It returns errNotJSON, errTooLarge, or the decoder's error.
func readJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return errNotJSON
	}
	err := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody)).Decode(v)
	if mb := (*http.MaxBytesError)(nil); errors.As(err, &mb) {
		return errTooLarge
	}
	return err
}

var (
	errNotJSON  = errors.New("web: the body is not JSON")
	errTooLarge = errors.New("web: the body is over the limit")
)

// msgTooLarge answers a POST over maxBody (413).
const msgTooLarge = "That request was too large; nothing was changed."

// readActivity decodes an Activity POST (readJSON); a refused one is
// answered: 413 over the limit, else 400.
func (s *Server) readActivity(w http.ResponseWriter, r *http.Request, v any) bool {
	switch err := readJSON(w, r, v); {
	case errors.Is(err, errTooLarge):
		s.activityAnswer(w, r, http.StatusRequestEntityTooLarge, activityAnswer{Message: msgTooLarge})
		return false
	case err != nil:
		s.activityAnswer(w, r, http.StatusBadRequest, activityAnswer{Message: msgRequest})
		return false
	}
	return true
}

func (s *Server) activityAnswer(w http.ResponseWriter, r *http.Request, code int, a activityAnswer) {
	b, _ := json.Marshal(a) // strings and numbers always encode
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Vary", "Accept-Encoding")
	// The answer that opens a board carries its state (12 KB for a 9×9
	// game, 2 KB gzipped): on a phone's link that is most of its time.
	if len(b) >= gzipAnswerMin && acceptsGzip(r) {
		b = gzipped(b)
		h.Set("Content-Encoding", "gzip")
	}
	w.WriteHeader(code)
	w.Write(b)
}

// gzipAnswerMin is the size from which the Activity's answers are sent
// gzipped: below, the compression saves less than a packet.
const gzipAnswerMin = 1024

// gzipped is b gzip-compressed.
func gzipped(b []byte) []byte {
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestSpeed)
	zw.Write(b)
	zw.Close()
	return gz.Bytes()
}

// discordRefusal answers a failed step with Discord (refusalOf).
func (s *Server) discordRefusal(w http.ResponseWriter, r *http.Request, err error, refused string) {
	code, a := s.refusalOf(err, refused)
	s.activityAnswer(w, r, code, a)
}

// refusalOf is the answer to a failed step with Discord: 503 when
// Discord was out of reach, else 401 with refused.
func (s *Server) refusalOf(err error, refused string) (int, activityAnswer) {
	if errors.Is(err, gobot.ErrUnavailable) {
		s.cfg.Log.Warn("web: activity sign-in", "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: msgDiscord}
	}
	return http.StatusUnauthorized, activityAnswer{Message: refused}
}

// activityToken exchanges the SDK's OAuth2 code for an access token,
// which the page hands to the SDK's authenticate. A code is exchanged
// once. With the instance (the page always sends it), the same answer
// opens the board as activity/session would with the token just
// exchanged (openActivity): the page shows the board from its first
// answer. Without it, the answer is the token and its proof alone.
func (s *Server) activityToken(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Code string `json:"code"`
		activityOpen
	}
	if !s.readActivity(w, r, &in) {
		return
	}
	if in.Code == "" || len(in.Code) > 256 || len(in.Instance) > 256 {
		s.activityAnswer(w, r, http.StatusBadRequest, activityAnswer{Message: msgRequest})
		return
	}
	// The rate first: a code turned away as busy is not used up (the
	// page may post it again), and the codes remembered grow at most at
	// the rate.
	if s.busy(w, r, "") {
		return
	}
	if !s.discord.firstUse(in.Code, s.now()) {
		s.activityAnswer(w, r, http.StatusUnauthorized, activityAnswer{Message: msgSignIn})
		return
	}
	token, err := s.discord.d.ExchangeCode(r.Context(), in.Code)
	if err != nil {
		s.discordRefusal(w, r, err, msgSignIn)
		return
	}
	if in.Instance == "" {
		s.activityAnswer(w, r, http.StatusOK, activityAnswer{AccessToken: token, Proof: s.tokenProof(token)})
		return
	}
	code, a := s.openActivity(w, r, token, in.activityOpen)
	if code == http.StatusOK {
		a.AccessToken, a.Proof = token, s.tokenProof(token)
	}
	s.activityAnswer(w, r, code, a)
}

// activityOpen is what the page asks to open, with a token: the
// instance, and the game, review or tournament picked from a list (0:
// the channel's).
type activityOpen struct {
	Instance string         `json:"instance_id"`
	Game     gobot.GameID   `json:"game"`
	Review   gobot.ReviewID `json:"review"`
	// Tournament: the tournament's page, or with Game that game's board
	// opened from its page.
	Tournament gobot.TournamentID `json:"tournament"`
}

// purposeActivityToken signs the access tokens this gobot exchanged.
const purposeActivityToken = "activity-token"

// tokenProof is the proof, kept by the page beside an access token, that
// gobot got the token from a code of its own application's. /users/@me
// names the user of any application's token with the identify scope:
// without the proof, another application that a user allowed could
// open a session as them with its token of theirs.
func (s *Server) tokenProof(token string) string {
	return base64.RawURLEncoding.EncodeToString(s.sign.mac(purposeActivityToken, []byte(token)))
}

// checkTokenProof reports whether proof is token's tokenProof.
func (s *Server) checkTokenProof(token, proof string) bool {
	got, err := base64.RawURLEncoding.DecodeString(proof)
	return err == nil && hmac.Equal(got, s.sign.mac(purposeActivityToken, []byte(token)))
}

// firstUse records code as used and reports whether it was new.
func (a *activity) firstUse(code string, now time.Time) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	for c, at := range a.used {
		if now.Sub(at) > codeTTL {
			delete(a.used, c)
		}
	}
	if _, seen := a.used[code]; seen {
		return false
	}
	if len(a.used) < 100_000 { // a flood of made-up codes still reaches Discord, which refuses them
		a.used[code] = now
	}
	return true
}

// activitySession opens the game's session for the token's user (a
// token gobot exchanged itself, its proof says): openActivity. The page
// posts here when its user picked a game or review from a list.
func (s *Server) activitySession(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Token string `json:"access_token"`
		Proof string `json:"proof"`
		activityOpen
	}
	if !s.readActivity(w, r, &in) {
		return
	}
	if in.Token == "" || in.Instance == "" || len(in.Instance) > 256 {
		s.activityAnswer(w, r, http.StatusBadRequest, activityAnswer{Message: msgRequest})
		return
	}
	if !s.checkTokenProof(in.Token, in.Proof) { // a token gobot did not exchange
		s.activityAnswer(w, r, http.StatusUnauthorized, activityAnswer{Message: msgSignIn})
		return
	}
	code, a := s.openActivity(w, r, in.Token, in.activityOpen)
	s.activityAnswer(w, r, code, a)
}

// openActivity opens the board for the user of token, which gobot
// exchanged itself, and answers what the page is to show (the answer's
// status and body; the session's cookie is set on w): Discord says who
// the user is (GET /users/@me) and where the instance runs
// (activity-instances), both asked at once; the store says which games
// are played there. The caller's one game there opens at once; several
// are listed to choose from (the page posts again with game); a
// non-player watches.
func (s *Server) openActivity(w http.ResponseWriter, r *http.Request, token string, in activityOpen) (int, activityAnswer) {
	if why := s.discord.calls.allow(s.clientKey(r), "", s.now()); why != allowed { // the client's and everyone's limits: Discord is asked next
		return http.StatusTooManyRequests, activityAnswer{Message: activityBusy[why]}
	}
	var (
		room    gobot.RoomID
		users   []gobot.UserID
		roomErr error
		looked  = make(chan struct{})
	)
	go func() {
		defer close(looked)
		room, users, roomErr = s.discord.d.ActivityInstance(r.Context(), in.Instance)
	}()
	user, err := s.discord.d.TokenUser(r.Context(), token)
	<-looked
	if err != nil {
		return s.refusalOf(err, msgSignIn)
	}
	if roomErr != nil {
		if errors.Is(roomErr, gobot.ErrUnavailable) {
			return s.refusalOf(roomErr, "")
		}
		return http.StatusForbidden, activityAnswer{Message: msgInstance}
	}
	if !slices.Contains(users, user.ID) {
		return http.StatusForbidden, activityAnswer{Message: msgNotIn}
	}
	// The instance's limit counts its members' sign-ins only: charged
	// before Discord said who is in it, anyone could empty it by naming
	// it.
	if !s.discord.calls.target.allow(clip(in.Instance), s.now()) {
		return http.StatusTooManyRequests, activityAnswer{Message: activityBusy[overTarget]}
	}
	reviews, err := s.cfg.Bot.RoomReviews(r.Context(), room)
	if err != nil {
		s.cfg.Log.Error("web: activity reviews", "room", room, "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: "The reviews could not be read just now; try again in a moment."}
	}
	if in.Review != 0 {
		i := slices.IndexFunc(reviews, func(rev *gobot.Review) bool { return rev.ID == in.Review })
		if i < 0 {
			return http.StatusNotFound, activityAnswer{Message: fmt.Sprintf("Review %s is not open in this channel. Close the board and open it again for what is open here.", in.Review.Ref())}
		}
		return s.activityReview(w, r, reviews[i].ID, user)
	}
	tours, err := s.cfg.Bot.RoomTournaments(r.Context(), room)
	if err != nil {
		s.cfg.Log.Error("web: activity tournaments", "room", room, "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: "The tournaments could not be read just now; try again in a moment."}
	}
	var events []activityEvent
	for _, t := range tours {
		events = append(events, activityEvent{ID: t.ID, Label: fmt.Sprintf("Tournament %s: %s", t.ID.Ref(), t.Name)})
	}
	if in.Tournament != 0 {
		i := slices.IndexFunc(tours, func(t *gobot.Tournament) bool { return t.ID == in.Tournament })
		if i < 0 {
			return http.StatusNotFound, activityAnswer{Message: fmt.Sprintf("Tournament %s is not under way in this channel. Close the board and open it again for what is on here.", in.Tournament.Ref())}
		}
		if in.Game == 0 {
			return s.activityTournament(w, r, tours[i], user)
		}
		// A game's board opened from the tournament's page: any game
		// of it, ended or not, the player's own or to watch.
		if !slices.Contains(tours[i].Games(), in.Game) {
			return http.StatusNotFound, activityAnswer{Message: fmt.Sprintf("Game #%d is not a game of tournament %s.", in.Game, in.Tournament.Ref())}
		}
		v, err := s.cfg.Bot.Board(r.Context(), in.Game, user.ID)
		if err != nil {
			s.cfg.Log.Error("web: activity game", "game", in.Game, "err", err)
			return http.StatusServiceUnavailable, activityAnswer{Message: "The game could not be read just now; try again in a moment."}
		}
		code, a := s.activityGame(w, r, v.ID, user, v.Viewer.Role != board.Player)
		a.Tournament, a.Tournaments = in.Tournament, events
		return code, a
	}
	rb, err := s.cfg.Bot.RoomBoards(r.Context(), room, user.ID, 0)
	if err != nil {
		s.cfg.Log.Error("web: activity games", "room", room, "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: "The games could not be read just now; try again in a moment."}
	}
	games, watch := rb.Games, rb.Watch
	if in.Game != 0 {
		i := slices.IndexFunc(games, func(v *board.View) bool { return v.ID == in.Game })
		if i >= 0 {
			games = games[i : i+1]
		} else {
			// Not among the caller's games here: chosen from a list to
			// watch shown before they started one of their own here (or
			// sent by hand). A game being played here they may watch,
			// as that list offered; otherwise say why not.
			v, err := s.cfg.Bot.ChannelBoard(r.Context(), room, in.Game, user.ID)
			switch {
			case err != nil && !errors.Is(err, chat.ErrNoGame):
				s.cfg.Log.Error("web: activity game", "game", in.Game, "err", err)
				return http.StatusServiceUnavailable, activityAnswer{Message: "The game could not be read just now; try again in a moment."}
			case v == nil:
				return http.StatusForbidden, activityAnswer{Message: fmt.Sprintf("Game #%d is not played in this channel.", in.Game)}
			case v.Phase == "over":
				return http.StatusNotFound, activityAnswer{Message: fmt.Sprintf("Game #%d has ended. Close the board and open it again for the games being played here.", in.Game)}
			}
			games, watch = []*board.View{v}, true
		}
	}
	if in.Game == 0 && len(reviews) > 0 {
		// A channel with an open review: the one review and no game
		// opens at once; otherwise games and reviews are listed.
		if len(games) == 0 && len(reviews) == 1 {
			return s.activityReview(w, r, reviews[0].ID, user)
		}
		a := activityAnswer{Watch: watch}
		for _, v := range games[:min(len(games), 15)] {
			a.Games = append(a.Games, activityGame{ID: v.ID, Label: v.Label()})
		}
		for _, rev := range reviews {
			a.Reviews = append(a.Reviews, activityReview{ID: rev.ID, Label: fmt.Sprintf("Review %s: %s", rev.ID.Ref(), rev.Title)})
		}
		a.Tournaments = events
		return http.StatusOK, a
	}
	switch {
	case (len(games) == 0 || watch) && len(tours) == 1:
		// No game of this user's here, a tournament under way: its page,
		// which leads to its games' boards.
		return s.activityTournament(w, r, tours[0], user)
	case len(games) == 0 && len(tours) == 0:
		return http.StatusNotFound, activityAnswer{Message: msgNoGame}
	case len(games) != 1:
		var list []activityGame
		for _, v := range games[:min(len(games), 25)] {
			list = append(list, activityGame{ID: v.ID, Label: v.Label()})
		}
		return http.StatusOK, activityAnswer{Games: list, Watch: watch, Tournaments: events}
	}
	code, a := s.activityGame(w, r, games[0].ID, user, watch)
	a.Tournaments = events
	return code, a
}

// activityGame opens game id's board for user in the Activity (a
// watcher's when watch): a bearer token kept by the page, and the
// partitioned cookie for the board's own page loaded in the frame.
func (s *Server) activityGame(w http.ResponseWriter, r *http.Request, id gobot.GameID, user protocol.User, watch bool) (int, activityAnswer) {
	sn, err := s.live(r.Context(), id)
	if err != nil {
		s.cfg.Log.Error("web: activity game", "game", id, "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: "The game could not be read just now; try again in a moment."}
	}
	ttl := min(s.cfg.LinkTTL, activitySessionTTL)
	p := Pass{Game: id, User: user.ID, Watch: watch, Expires: s.now().Add(ttl).Unix(), Session: newSessionID(), Activity: true}
	v, role, color := sn.role(user.ID, watch)
	a := activityAnswer{URL: strings.TrimPrefix(gamePath(id), "/"), Token: s.sign.sign(purposeActivity, p), Game: id,
		Role: role, Color: color, Name: user.Name, Resign: v.ResignQuestion, State: s.stamped(sn), Confirm: s.confirmOf(r.Context(), user.ID)}
	if a.Name == "" {
		a.Name = user.ID.Local()
	}
	if n, ok := sn.view.Names[user.ID]; ok {
		a.Name = n
	}
	// The page keeps the session (the bearer token above): WebKit —
	// Discord's iOS app — blocks third-party cookies and has no
	// Partitioned. The cookie is the fallback, for the board's own page
	// loaded in the frame by its address. Inside Discord the page is a
	// third-party frame: the cookie must be SameSite=None (so the frame
	// sends it), Secure (which None requires) and Partitioned (kept
	// under Discord's site only, where browsers block other third-party
	// cookies).
	http.SetCookie(w, &http.Cookie{
		Name:        cookieName(id),
		Value:       s.sign.sign(purposeSession, p),
		Path:        gamePath(id),
		Expires:     time.Unix(p.Expires, 0),
		MaxAge:      maxAge(p.Expires, s.now()),
		HttpOnly:    true,
		Secure:      true,
		SameSite:    http.SameSiteNoneMode,
		Partitioned: true,
	})
	return http.StatusOK, a
}

// activityTournament opens tournament t's page for user in the
// Activity: a bearer token kept by the page, with which it reads the
// page's view (GET t/{id}/view) and opens its games' boards.
func (s *Server) activityTournament(w http.ResponseWriter, r *http.Request, t *gobot.Tournament, user protocol.User) (int, activityAnswer) {
	ttl := min(s.cfg.LinkTTL, activitySessionTTL)
	p := Pass{Tournament: t.ID, User: user.ID, Expires: s.now().Add(ttl).Unix(), Session: newSessionID(), Activity: true}
	return http.StatusOK, activityAnswer{Token: s.sign.sign(purposeActivity, p), Tournament: t.ID, Title: t.Name, Name: orName(user)}
}

// purposeActivity signs the Activity's bearer tokens: neither a link, a
// cookie nor a widget's token can stand for one, nor one for them.
const purposeActivity = "activity"

// activityReview opens review id's session for user in the Activity: a
// bearer token kept by the page (as a game's), and the partitioned
// cookie for the review's own page loaded in the frame.
func (s *Server) activityReview(w http.ResponseWriter, r *http.Request, id gobot.ReviewID, user protocol.User) (int, activityAnswer) {
	sn, err := s.reviewSnapshot(r.Context(), id)
	if err != nil {
		s.cfg.Log.Error("web: activity review", "review", id, "err", err)
		return http.StatusServiceUnavailable, activityAnswer{Message: "The review could not be read just now; try again in a moment."}
	}
	ttl := min(s.cfg.LinkTTL, activitySessionTTL)
	p := Pass{Review: id, User: user.ID, Expires: s.now().Add(ttl).Unix(), Session: newSessionID(), Activity: true}
	st := sn.state
	a := activityAnswer{URL: strings.TrimPrefix(reviewPath(id), "/"), Token: s.sign.sign(purposeActivity, p), Review: id,
		Title: fmt.Sprintf("Review %s · %s", id.Ref(), sn.rev.Title), ReviewState: &st, Me: user.ID, Name: orName(user)}
	http.SetCookie(w, &http.Cookie{
		Name:        reviewCookieName(id),
		Value:       s.sign.sign(purposeSession, p),
		Path:        reviewPath(id),
		Expires:     time.Unix(p.Expires, 0),
		MaxAge:      maxAge(p.Expires, s.now()),
		HttpOnly:    true,
		Secure:      true,
		SameSite:    http.SameSiteNoneMode,
		Partitioned: true,
	})
	return http.StatusOK, a
}

// orName is a user's name, or their ID's local part without one.
func orName(u protocol.User) string {
	if u.Name != "" {
		return u.Name
	}
	return u.ID.Local()
}
