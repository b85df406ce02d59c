package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/board"
)

// maxBody bounds a POST's body: a click is a few short fields.
const maxBody = 4 << 10

// answer is the JSON a POST gets: the refusal's text (empty when the
// action was taken) and the game's state after it.
type answer struct {
	Message string `json:"message,omitempty"`
	State   *state `json:"state,omitempty"`
}

// actionOf is the act a click stands for (flow.Act takes it as a
// typed command's: a room member's move on a vote game's board is their
// vote there); ok is false for no action of this page.
func actionOf(action, point string) (flow.Action, bool) {
	switch action {
	case "play":
		return flow.Move{Point: point}, validPoint(point)
	case "dead":
		return flow.MarkDead{Points: []string{point}}, validPoint(point)
	case "pass":
		return flow.Move{Point: "pass"}, true
	case "resign":
		return flow.Resign{}, true
	case "undo":
		return flow.Undo{}, true
	case "decline":
		return flow.Undo{Refuse: true}, true
	case "done":
		return flow.Accept{}, true
	case "resume":
		return flow.Resume{}, true
	case "pause":
		return flow.Pause{}, true
	}
	return nil, false
}

// Members says whether a user is a member of a room now, as the room's
// platform says: the Matrix adapter (the room's joined members) and the
// Discord adapter (who may see the channel) implement it.
type Members interface {
	// InRoom reports whether user is a member of room (a game's room; a
	// thread's is its room's). A platform that could not be asked wraps
	// gobot.ErrUnavailable; one that does not let gobot see the room
	// (a Discord server without the bot) wraps gobot.ErrNotFound.
	InRoom(ctx context.Context, room gobot.RoomID, user gobot.UserID) (bool, error)
}

// stillMember checks, before a voter's click, that p's user is still a
// member of the vote game's room, as a typed vote comes from the room
// itself: a watch link or a widget's session outlives a membership, and
// someone who left or was removed votes no more. Rooms of a platform
// with no Members (Config.Members: the terminal's one user) are not
// asked. msg "": still a member.
func (s *Server) stillMember(ctx context.Context, room gobot.RoomID, p Pass) (int, string) {
	m := s.cfg.Members[room.Platform()]
	if m == nil {
		return 0, ""
	}
	in, err := m.InRoom(ctx, room, p.User)
	if errors.Is(err, gobot.ErrNotFound) {
		return http.StatusForbidden, fmt.Sprintf("gobot cannot see game #%d's room to check that you are still in it, so its votes are taken in the room's chat only; nothing was changed.", p.Game)
	}
	if err != nil {
		s.cfg.Log.Warn("web: checking a voter's membership", "game", p.Game, "room", room, "err", err)
		return http.StatusServiceUnavailable, fmt.Sprintf("Your membership of game #%d's room could not be checked just now; nothing was changed. Try again in a moment.", p.Game)
	}
	if !in {
		return http.StatusForbidden, fmt.Sprintf("You are no longer a member of game #%d's room, so you cannot vote in it; nothing was changed.", p.Game)
	}
	return 0, ""
}

// validPoint accepts what looks like a coordinate ("E5", "T19"); the
// router checks it against the board.
func validPoint(p string) bool {
	if len(p) < 2 || len(p) > 3 {
		return false
	}
	if c := p[0] | 0x20; c < 'a' || c > 'z' {
		return false
	}
	for _, d := range p[1:] {
		if d < '0' || d > '9' {
			return false
		}
	}
	return true
}

// validClientID accepts the page's random click IDs: 8 to 64 letters,
// digits, '-' or '_'.
func validClientID(id string) bool {
	if len(id) < 8 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// act takes one click: checks the session, its CSRF token and the
// player's rate in the game, then hands the act to the bot (Request.Act:
// the router takes it through the door into the game as a typed
// command's), with the click's ID as the event ID (a retried POST is
// applied once). A taken action is announced in
// the game's room as a typed one is, through the claim the bot stores
// with the move (Request.Act): once, whatever crashes; a refusal
// comes back with the chat's text.
func (s *Server) act(w http.ResponseWriter, r *http.Request) {
	p, ok := s.session(w, r)
	if !ok {
		return
	}
	// The rate is the player's in the game, whichever session clicks:
	// opening the link again starts a session, not a new allowance.
	if !s.limit.allow(fmt.Sprintf("%d/%s", p.Game, p.User), s.now()) {
		s.answer(w, http.StatusTooManyRequests, answer{Message: "Slow down: too many clicks at once. Nothing was changed; wait a moment."})
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		s.answer(w, http.StatusRequestEntityTooLarge, answer{Message: "That request was too large or malformed; nothing was changed."})
		return
	}
	// A bearer token is sent by the page's own script, never by the
	// browser on its own as a cookie is: it needs no CSRF token.
	if _, isBearer := bearer(r); !isBearer && !s.sign.checkCSRF(p.Session, r.PostForm.Get("csrf")) {
		s.answer(w, http.StatusForbidden, answer{Message: "This page is out of date or was not opened from your link; reload it and try again."})
		return
	}
	// The game as it stands, shared with the live pages (one read per
	// change of the game, not one per click).
	// A state heard from another process (partial) comes with the view
	// of an earlier version: who plays, the room and the names it gives
	// are the game's still (the router checks them again in its
	// transaction), so it serves without a read.
	sn, err := s.live(r.Context(), p.Game)
	if err != nil {
		s.answer(w, http.StatusServiceUnavailable, answer{Message: "The game could not be read just now; nothing was changed."})
		return
	}
	v, role, _ := sn.role(p.User, p.Watch)
	if role == string(board.Watcher) {
		s.answer(w, http.StatusForbidden, answer{Message: fmt.Sprintf("You are watching game #%d: only its players can play.", p.Game), State: s.stamped(sn)})
		return
	}
	action, point, cid := r.PostForm.Get("action"), strings.ToUpper(r.PostForm.Get("point")), r.PostForm.Get("id")
	act, ok := actionOf(action, point)
	if !ok || !validClientID(cid) {
		s.answer(w, http.StatusBadRequest, answer{Message: "That is not an action of this page; nothing was changed.", State: s.stamped(sn)})
		return
	}
	if v.Role == board.Voter {
		if code, msg := s.stillMember(r.Context(), sn.view.Room, p); msg != "" {
			s.answer(w, code, answer{Message: msg, State: s.stamped(sn)})
			return
		}
	}
	view := sn.view
	room := view.Room
	if view.Mirror != "" && p.User.Platform() == view.Mirror.Platform() && p.User.Platform() != room.Platform() {
		room = view.Mirror // a game between platforms: its player's room is on their platform
	}
	req := protocol.Request{
		User:      protocol.User{ID: p.User, Name: view.Names[p.User]},
		Room:      room,
		EventID:   gobot.EventID(fmt.Sprintf("web:%d:%s:%s", p.Game, p.User, cid)),
		Act:       act,
		Game:      p.Game,
		Community: view.Community,
		Platform:  s.platform(room),
	}
	gen := s.cfg.Hub.generation(p.Game)
	rep, then := s.cfg.Bot.Respond(r.Context(), req)
	var a answer
	if rep.Error && !rep.Duplicate { // a retried click was applied once: no refusal
		a.Message = s.plain(rep.Text, view)
	}
	// The game after the click: the live pages' snapshot, read once for
	// them and this answer, when this process's Hub has heard of the
	// change (in one process it has, at the commit); else read here.
	after := s.snapshot
	if s.cfg.Hub.generation(p.Game) != gen {
		after = s.live
	}
	if now, err := after(r.Context(), p.Game); err == nil {
		a.State = s.stamped(now)
	}
	s.answer(w, http.StatusOK, a)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	// The page has its answer; the room's announcement (Request.Act,
	// claimed with the move), the DMs and the engine's turn follow, as
	// after any command — apart from the request, so that a slow
	// platform holds neither the page's connection nor its next click.
	// If this process dies first, the claim has them sent by the next.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), time.Minute)
	if !s.sending.start() { // shutting down: sent here, or by the next process
		defer cancel()
		then(ctx)
		return
	}
	go func() {
		defer s.sending.wg.Done()
		defer cancel()
		then(ctx)
	}()
}

// sends counts the answered clicks whose messages are being sent apart
// from their requests; once a shutdown waits for them, no more start.
type sends struct {
	mu      sync.Mutex
	wg      sync.WaitGroup
	closing bool
}

// start counts one more send, unless the server is shutting down.
func (c *sends) start() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return false
	}
	c.wg.Add(1)
	return true
}

// Wait waits until the messages of the clicks answered so far are sent
// (or ctx ends): a server shutting down calls it after its listener is
// closed; a click answered after that sends its own before its request
// ends. What it does not wait for is sent by the next process, from the
// claims.
func (s *Server) Wait(ctx context.Context) {
	s.sending.mu.Lock()
	s.sending.closing = true
	s.sending.mu.Unlock()
	done := make(chan struct{})
	go func() {
		s.sending.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

func (s *Server) answer(w http.ResponseWriter, code int, a answer) {
	b, err := json.Marshal(a)
	if err != nil {
		code, b = http.StatusInternalServerError, []byte(`{"message":"internal error"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	// The length makes the answer whole once written: the page has it
	// while the handler goes on to send the room's messages.
	w.Header().Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(code)
	w.Write(b)
}

// platform is the descriptor of room's platform, as the bot knows it
// (chat.Bot.Platform; nil: a plain one).
func (s *Server) platform(room gobot.RoomID) *protocol.Platform {
	return s.cfg.Bot.Platform(room.Platform())
}

// plain turns a chat reply's text into the page's: mentions become
// names and command tokens the command as the game's room types it.
func (s *Server) plain(text string, view *board.View) string {
	p := s.platform(view.Room)
	text = protocol.FormatCommands(text, func(c string) string { return "“" + p.Command(c) + "”" })
	text = protocol.FormatText(text, func(u gobot.UserID) string {
		if n, ok := view.Names[u]; ok {
			return n
		}
		return u.Local()
	})
	return strings.ReplaceAll(text, "`", "")
}
