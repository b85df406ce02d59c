package matrix

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// fakeHS is an in-process homeserver speaking the few client-server API
// endpoints the adapter uses without encryption: login, whoami, filter,
// sync (a stream of events with next_batch tokens), joined members,
// state, send, upload, join, leave, createRoom. Everything it is sent is
// recorded.
type fakeHS struct {
	t   *testing.T
	srv *httptest.Server
	bot string

	mu      sync.Mutex
	changed chan struct{} // closed and replaced when the stream grows
	stream  []fakeItem    // position i+1 is stream[i]
	members map[string]map[string]string
	sent    []fakeSent
	// attempts are the transaction IDs of all sends, failed ones too.
	attempts []string
	// syncs counts the sync requests that have fixed their position.
	syncs   int
	joined  []string
	left    []string
	created int
	logins  int
	// sendAnswers are the answers to the next sends: an HTTP status, or
	// 0 for success.
	sendAnswers []int
	unknown     []string
	// limit, when set, cuts sync timelines to their last limit events
	// (limited, with a prev_batch for /messages).
	limit int
	// power gives a room's m.room.power_levels content (default: Ann
	// 100, everyone else 0); redacted are the events the bot redacted.
	power    map[string]map[string]any
	redacted []string
}

// fakeItem is one event in the sync stream: a timeline event in a joined
// room, or an invite.
type fakeItem struct {
	room   string
	invite bool
	evt    map[string]any
}

// fakeSent is one message the bot sent.
type fakeSent struct {
	room, txn string
	content   map[string]any
}

func newFakeHS(t *testing.T, bot string) *fakeHS {
	f := &fakeHS{t: t, bot: bot, changed: make(chan struct{}), members: map[string]map[string]string{}}
	f.srv = httptest.NewServer(f)
	t.Cleanup(f.srv.Close)
	return f
}

// join makes the room's joined members (user → display name).
func (f *fakeHS) join(room string, members map[string]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.members[room] = members
}

// push adds items to the stream at once (one sync returns them all).
func (f *fakeHS) push(its ...fakeItem) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stream = append(f.stream, its...)
	close(f.changed)
	f.changed = make(chan struct{})
}

// msg is a message from sender in room, with the given event ID.
func msg(room, sender, body, evtID string) fakeItem {
	return fakeItem{room: room, evt: map[string]any{"type": "m.room.message", "event_id": evtID, "sender": sender,
		"origin_server_ts": time.Now().UnixMilli(), "content": map[string]any{"msgtype": "m.text", "body": body}}}
}

// say adds a message from sender to the room's timeline and returns its
// event ID.
func (f *fakeHS) say(room, sender, body string) string {
	f.mu.Lock()
	evtID := fmt.Sprintf("$e%d", len(f.stream)+1)
	f.mu.Unlock()
	f.push(msg(room, sender, body, evtID))
	return evtID
}

// invite adds an invite of the bot to room by sender.
func (f *fakeHS) invite(room, sender string, direct bool) {
	f.push(fakeItem{room: room, invite: true, evt: map[string]any{"type": "m.room.member", "state_key": f.bot, "sender": sender,
		"content": map[string]any{"membership": "invite", "is_direct": direct}}})
}

// answers returns the bot's messages that reply to evtID.
func (f *fakeHS) answers(evtID string) []fakeSent {
	f.mu.Lock()
	defer f.mu.Unlock()
	var got []fakeSent
	for _, s := range f.sent {
		rel, _ := s.content["m.relates_to"].(map[string]any)
		irt, _ := rel["m.in_reply_to"].(map[string]any)
		if irt["event_id"] == evtID {
			got = append(got, s)
		}
	}
	return got
}

// waitFor polls cond (under f.mu) until it holds or the test times out.
func (f *fakeHS) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		f.mu.Lock()
		ok := cond()
		f.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (f *fakeHS) json(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func (f *fakeHS) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p := r.URL.EscapedPath()
	seg := strings.Split(p, "/")
	arg := func(i int) string { // path segment i from the end
		s, _ := url.PathUnescape(seg[len(seg)-1-i])
		return s
	}
	switch {
	case strings.HasSuffix(p, "/account/whoami"):
		if r.Header.Get("Authorization") != "Bearer token" {
			f.json(w, 401, map[string]any{"errcode": "M_UNKNOWN_TOKEN", "error": "who?"})
			return
		}
		f.json(w, 200, map[string]any{"user_id": f.bot, "device_id": "DEV"})
	case strings.HasSuffix(p, "/login"):
		f.mu.Lock()
		f.logins++
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"user_id": f.bot, "device_id": "DEV", "access_token": "token"})
	case strings.HasSuffix(p, "/filter"):
		f.json(w, 200, map[string]any{"filter_id": "1"})
	case strings.HasSuffix(p, "/sync"):
		f.sync(w, r)
	case strings.HasSuffix(p, "/joined_members"):
		f.mu.Lock()
		m := map[string]any{}
		for u, n := range f.members[arg(1)] {
			m[u] = map[string]any{"display_name": n}
		}
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"joined": m})
	case strings.HasSuffix(p, "/members"):
		f.mu.Lock()
		var chunk []map[string]any
		for u := range f.members[arg(1)] {
			chunk = append(chunk, map[string]any{"type": "m.room.member", "state_key": u, "sender": u, "event_id": "$m" + u,
				"room_id": arg(1), "content": map[string]any{"membership": "join"}})
		}
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"chunk": chunk})
	case strings.Contains(p, "/state/m.room.power_levels"):
		f.mu.Lock()
		pl, ok := f.power[arg(3)]
		f.mu.Unlock()
		if !ok {
			pl = map[string]any{"users": map[string]any{"@ann:example.org": 100}}
		}
		f.json(w, 200, pl)
	case strings.Contains(p, "/redact/"):
		f.mu.Lock()
		f.redacted = append(f.redacted, arg(1))
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"event_id": "$redaction"})
	case strings.Contains(p, "/state/m.room.create"):
		f.json(w, 200, map[string]any{"type": "m.room.create", "state_key": "", "sender": "@ann:example.org", "event_id": "$create",
			"room_id": arg(3), "content": map[string]any{"room_version": "10"}})
	case strings.Contains(p, "/send/m.room.message/"):
		var c map[string]any
		json.NewDecoder(r.Body).Decode(&c)
		f.mu.Lock()
		status := 0
		if len(f.sendAnswers) > 0 {
			status, f.sendAnswers = f.sendAnswers[0], f.sendAnswers[1:]
		}
		f.attempts = append(f.attempts, arg(0))
		if status == 0 {
			f.sent = append(f.sent, fakeSent{room: arg(3), txn: arg(0), content: c})
		}
		n := len(f.sent)
		f.mu.Unlock()
		switch status {
		case 0:
			f.json(w, 200, map[string]any{"event_id": fmt.Sprintf("$sent%d", n)})
		case 429:
			f.json(w, 429, map[string]any{"errcode": "M_LIMIT_EXCEEDED", "error": "slow down", "retry_after_ms": 5})
		default:
			f.json(w, status, map[string]any{"errcode": "M_UNKNOWN", "error": "try later"})
		}
	case strings.HasSuffix(p, "/messages"):
		f.messages(w, r, arg(1))
	case strings.HasSuffix(p, "/upload"):
		io.Copy(io.Discard, r.Body)
		f.json(w, 200, map[string]any{"content_uri": "mxc://example.org/board"})
	case strings.HasSuffix(p, "/join"):
		f.mu.Lock()
		f.joined = append(f.joined, arg(1))
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"room_id": arg(1)})
	case strings.HasSuffix(p, "/leave"):
		f.mu.Lock()
		f.left = append(f.left, arg(1))
		f.mu.Unlock()
		f.json(w, 200, map[string]any{})
	case strings.HasSuffix(p, "/createRoom"):
		var req struct{ Invite []string }
		json.NewDecoder(r.Body).Decode(&req)
		f.mu.Lock()
		f.created++
		room := fmt.Sprintf("!dm%d:example.org", f.created)
		f.members[room] = map[string]string{f.bot: "gobot"}
		for _, u := range req.Invite {
			f.members[room][u] = ""
		}
		f.mu.Unlock()
		f.json(w, 200, map[string]any{"room_id": room})
	default:
		f.mu.Lock()
		f.unknown = append(f.unknown, r.Method+" "+p)
		f.mu.Unlock()
		f.json(w, 404, map[string]any{"errcode": "M_NOT_FOUND", "error": "not here"})
	}
}

// sync answers with the stream after the since position, waiting up to
// the timeout for something new.
func (f *fakeHS) sync(w http.ResponseWriter, r *http.Request) {
	since := 0
	if s := r.URL.Query().Get("since"); s != "" {
		n, err := strconv.Atoi(strings.TrimPrefix(s, "s"))
		if err != nil {
			f.json(w, 400, map[string]any{"errcode": "M_INVALID_PARAM", "error": "bad since"})
			return
		}
		since = n
	}
	timeout, _ := strconv.Atoi(r.URL.Query().Get("timeout"))
	deadline := time.After(time.Duration(timeout) * time.Millisecond)
	f.mu.Lock()
	if r.URL.Query().Get("since") != "" {
		f.syncs++ // whatever is pushed from now on is in the answer or the next
	}
	for len(f.stream) <= since && timeout > 0 {
		ch := f.changed
		f.mu.Unlock()
		select {
		case <-ch:
		case <-deadline:
			timeout = 0
		case <-r.Context().Done():
			return
		}
		f.mu.Lock()
	}
	items := f.stream[min(since, len(f.stream)):]
	next := len(f.stream)
	if r.URL.Query().Get("since") == "" {
		f.syncs++ // counted once answered: what is pushed from now on comes next
	}
	f.mu.Unlock()
	join, invite := map[string]any{}, map[string]any{}
	at := map[string][]int{} // a room's timeline → its events' stream positions
	for i, it := range items {
		if it.invite {
			invite[it.room] = map[string]any{"invite_state": map[string]any{"events": []any{it.evt}}}
			continue
		}
		room, _ := join[it.room].(map[string]any)
		if room == nil {
			room = map[string]any{"timeline": map[string]any{"events": []any{}}}
			join[it.room] = room
		}
		tl := room["timeline"].(map[string]any)
		evs := append(tl["events"].([]any), it.evt)
		at[it.room] = append(at[it.room], since+i+1)
		if f.limit > 0 && len(evs) > f.limit {
			evs, at[it.room] = evs[1:], at[it.room][1:]
			tl["limited"], tl["prev_batch"] = true, "p"+strconv.Itoa(at[it.room][0]-1)
		}
		tl["events"] = evs
	}
	f.json(w, 200, map[string]any{"next_batch": "s" + strconv.Itoa(next), "rooms": map[string]any{"join": join, "invite": invite}})
}

// messages answers /messages backwards from a "p<position>" token: the
// room's events at or before it, newest first.
func (f *fakeHS) messages(w http.ResponseWriter, r *http.Request, room string) {
	from, err := strconv.Atoi(strings.TrimPrefix(r.URL.Query().Get("from"), "p"))
	if err != nil || r.URL.Query().Get("dir") != "b" {
		f.json(w, 400, map[string]any{"errcode": "M_INVALID_PARAM", "error": "want from=p<n>&dir=b"})
		return
	}
	limit, _ := strconv.Atoi(r.URL.Query().Get("limit"))
	f.mu.Lock()
	defer f.mu.Unlock()
	chunk := []any{}
	end := 0
	for pos := min(from, len(f.stream)); pos > 0 && len(chunk) < max(limit, 1); pos-- {
		if it := f.stream[pos-1]; it.room == room && !it.invite {
			chunk = append(chunk, it.evt)
		}
		end = pos - 1
	}
	f.json(w, 200, map[string]any{"start": "p" + strconv.Itoa(from), "end": "p" + strconv.Itoa(end), "chunk": chunk})
}

// fakeRun is one run of the adapter against a fakeHS.
type fakeRun struct {
	a    *Adapter
	stop func() error
}

// startFake runs an adapter for f's bot with a real bot on the bbolt
// database at dbPath; cfg's homeserver, user and password are filled in.
// It waits until the first sync was answered.
func startFake(t *testing.T, f *fakeHS, cfg Config, dbPath string, state func(gobot.State) gobot.State) *fakeRun {
	t.Helper()
	db, err := storage.Open(dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	bot := chat.New(chat.Config{}, db, &render.Renderer{}, nil, log)
	cfg.Homeserver, cfg.UserID = f.srv.URL, f.bot
	if cfg.AccessToken == "" {
		cfg.Password = "secret"
	}
	var st gobot.State = gobot.StoreState(db)
	if state != nil {
		st = state(st)
	}
	a, err := New(cfg, bot, st, log)
	if err != nil {
		t.Fatal(err)
	}
	a.retryBase = time.Millisecond
	bot.SetNotifier(Platform, a)
	f.mu.Lock()
	syncs := f.syncs
	f.mu.Unlock()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		err := <-done
		db.Close()
		return err
	}
	t.Cleanup(func() { stop() })
	deadline := time.Now().Add(20 * time.Second)
	for {
		select {
		case err := <-done:
			t.Fatalf("Run returned before syncing: %v", err)
		default:
		}
		f.mu.Lock()
		n := f.syncs
		f.mu.Unlock()
		if n > syncs {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the adapter never synced")
		}
		time.Sleep(5 * time.Millisecond)
	}
	return &fakeRun{a: a, stop: stop}
}

// body returns the plain text of a sent message.
func (s fakeSent) body() string { b, _ := s.content["body"].(string); return b }

const fakeRoom = "!club:example.org"

func fakeClub(t *testing.T) (*fakeHS, string) {
	f := newFakeHS(t, "@gobot:example.org")
	f.join(fakeRoom, map[string]string{"@gobot:example.org": "gobot", "@ann:example.org": "Ann", "@bob:example.org": "Bobby"})
	return f, filepath.Join(t.TempDir(), "gobot.db")
}
