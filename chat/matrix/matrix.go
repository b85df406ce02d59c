// Package matrix is gobot's Matrix adapter and the only importer of
// mautrix. It logs in, syncs, turns messages that start with the command
// prefix into chat.Requests and presents each chat.Reply as Matrix events:
// an HTML notice with pills, the board as an uploaded m.image, SGF as
// m.file, in reply to the command or in the game's thread. It holds no
// game logic.
//
// End-to-end encryption needs the build tag goolm (see crypto_goolm.go).
package matrix

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rs/zerolog"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot/chat"
)

// Handler is the part of *chat.Bot the adapter uses.
type Handler interface {
	Handle(ctx context.Context, r chat.Request) chat.Reply
	ThreadCreated(ctx context.Context, id chat.GameID, room chat.RoomID) error
	Commands() []chat.Command
	// Delivered records that the reply to an event was sent (see
	// chat.Request.Outbox).
	Delivered(ctx context.Context, eventID chat.EventID) error
}

// stateNS is the adapter's namespace in storage's State.
const stateNS = "matrix"

// Adapter connects one Matrix account to the bot. Create it with New,
// register it with bot.SetNotifier(matrix.Platform, a) and call Run.
type Adapter struct {
	cfg   Config
	bot   Handler
	state chat.State
	log   *slog.Logger

	// timelineLimit is the sync filter's timeline size (tests lower it
	// to exercise backfilling).
	timelineLimit int
	// retryBase is the first backoff delay (tests lower it).
	retryBase time.Duration
	// noCrossSigning and recoveryOut: see identityOptions (tests).
	noCrossSigning bool
	recoveryOut    io.Writer

	cli    *mautrix.Client
	crypto cryptoBox
	ready  chan struct{}
	known  map[string]bool // command names and aliases

	mu    sync.Mutex
	rooms map[id.RoomID]*roomCache

	// recent remembers the messages dispatched lately: a backfill may
	// overlap what a sync already delivered.
	recent recentIDs
	// answeredIDs caches the last commands answered per room (a.mu).
	answeredIDs map[id.RoomID][]id.EventID
}

// recentIDs is a bounded set of event IDs (the last recentSize added).
type recentIDs struct {
	mu   sync.Mutex
	set  map[id.EventID]bool
	ring []id.EventID
	next int
}

const recentSize = 4096

// seen reports whether e was added before, and adds it.
func (r *recentIDs) seen(e id.EventID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set[e] {
		return true
	}
	if r.set == nil {
		r.set, r.ring = map[id.EventID]bool{}, make([]id.EventID, recentSize)
	}
	delete(r.set, r.ring[r.next])
	r.ring[r.next] = e
	r.next = (r.next + 1) % recentSize
	r.set[e] = true
	return false
}

// roomCache holds what the adapter looked up about a room; it is
// dropped when the room's members or power levels change.
type roomCache struct {
	members map[id.UserID]string // joined members → display name
	power   *event.PowerLevelsEventContent
	warned  bool // told the room that encryption is off
}

// New returns an adapter for cfg that hands requests to bot and keeps
// its session, sync position and DM rooms in state. cfg.CryptoStore must
// be set for encryption. It does no I/O; Run logs in.
func New(cfg Config, bot Handler, state chat.State, log *slog.Logger) (*Adapter, error) {
	if log == nil {
		log = slog.Default()
	}
	if cfg.Encryption && !cryptoBuilt {
		return nil, errNoCrypto
	}
	cfg = cfg.withDefaults("")
	if err := cfg.check(); err != nil {
		return nil, err
	}
	a := &Adapter{cfg: cfg, bot: bot, state: state, log: log.With("adapter", Platform),
		timelineLimit: 50, retryBase: time.Second,
		ready: make(chan struct{}), known: map[string]bool{}, rooms: map[id.RoomID]*roomCache{},
		answeredIDs: map[id.RoomID][]id.EventID{}}
	for _, c := range bot.Commands() {
		a.known[c.Name] = true
		for _, al := range c.Aliases {
			a.known[al] = true
		}
	}
	return a, nil
}

// session is what a password login leaves in the database.
type session struct {
	DeviceID    id.DeviceID
	AccessToken string
}

func (a *Adapter) getState(key string) ([]byte, error) {
	v, err := a.state.GetState(context.Background(), stateNS, key)
	if errors.Is(err, chat.ErrNotFound) {
		return nil, nil
	}
	return v, err
}

func (a *Adapter) putState(key string, v []byte) error {
	return a.state.PutState(context.Background(), stateNS, map[string][]byte{key: v})
}

// login makes the client: with the configured access token, or with the
// stored session of an earlier password login, or by logging in with the
// password (reusing the stored device ID) and storing the new session.
func (a *Adapter) login(ctx context.Context) error {
	cli, err := mautrix.NewClient(a.cfg.Homeserver, id.UserID(a.cfg.UserID), "")
	if err != nil {
		return fmt.Errorf("matrix: %w", err)
	}
	cli.Log = zerologTo(a.log)
	cli.UserAgent = "gobot (+mautrix)"
	cli.DefaultHTTPRetries = 0 // retried here, with the advised delays
	cli.IgnoreRateLimit = true
	a.cli = cli
	if a.cfg.AccessToken != "" {
		cli.AccessToken = a.cfg.AccessToken
		who, err := a.whoami(ctx)
		if err != nil {
			return fmt.Errorf("matrix: checking the access token: %w", err)
		}
		cli.DeviceID = who.DeviceID
		return nil
	}
	key := "session " + a.cfg.UserID
	var s session
	if b, err := a.getState(key); err != nil {
		return err
	} else if b != nil {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("matrix: stored session: %w", err)
		}
		cli.AccessToken, cli.DeviceID = s.AccessToken, s.DeviceID
		if _, err := a.whoami(ctx); err == nil {
			return nil
		} else if !errors.Is(err, mautrix.MUnknownToken) {
			return fmt.Errorf("matrix: checking the stored session: %w", err)
		}
		a.log.Info("stored session expired; logging in again", "device", s.DeviceID)
	}
	return a.passwordLogin(ctx, s.DeviceID)
}

// passwordLogin logs the client in with the password, on device (new
// when empty), and stores the session.
func (a *Adapter) passwordLogin(ctx context.Context, device id.DeviceID) error {
	var resp *mautrix.RespLogin
	err := a.retry(ctx, "login", func() error {
		var err error
		resp, err = a.cli.Login(ctx, &mautrix.ReqLogin{
			Type:                     mautrix.AuthTypePassword,
			Identifier:               mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: a.cfg.UserID},
			Password:                 a.cfg.Password,
			DeviceID:                 device,
			InitialDeviceDisplayName: a.cfg.DeviceName,
			StoreCredentials:         true,
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("matrix: logging in as %s: %w", a.cfg.UserID, err)
	}
	b, _ := json.Marshal(session{DeviceID: resp.DeviceID, AccessToken: resp.AccessToken})
	return a.putState("session "+a.cfg.UserID, b)
}

func (a *Adapter) whoami(ctx context.Context) (*mautrix.RespWhoami, error) {
	var who *mautrix.RespWhoami
	err := a.retry(ctx, "whoami", func() error {
		var err error
		who, err = a.cli.Whoami(ctx)
		return err
	})
	if err == nil && who.UserID != id.UserID(a.cfg.UserID) {
		return nil, fmt.Errorf("the token belongs to %s, not %s", who.UserID, a.cfg.UserID)
	}
	return who, err
}

// pickleKey returns the key that encrypts the crypto store.
func (a *Adapter) pickleKey() ([]byte, error) {
	if a.cfg.PickleKeyFile != "" {
		b, err := os.ReadFile(a.cfg.PickleKeyFile)
		if err != nil {
			return nil, fmt.Errorf("matrix: pickle key: %w", err)
		}
		if k := strings.TrimSpace(string(b)); k != "" {
			return []byte(k), nil
		}
		return nil, fmt.Errorf("matrix: pickle key file %s is empty", a.cfg.PickleKeyFile)
	}
	k, err := a.getState("pickle key")
	if err != nil || k != nil {
		return k, err
	}
	k = make([]byte, 32)
	rand.Read(k)
	return k, a.putState("pickle key", k)
}

// Run logs in, then syncs until ctx ends, handling commands as they
// come. Network failures are retried with backoff; it returns early
// only when the login is refused or the crypto store cannot be used.
func (a *Adapter) Run(ctx context.Context) error {
	if err := a.login(ctx); err != nil {
		return err
	}
	syncer := mautrix.NewDefaultSyncer()
	a.cli.Syncer = syncer
	syncer.OnSync(a.prepareSync)
	if a.cfg.Encryption {
		pk, err := a.pickleKey()
		if err != nil {
			return err
		}
		c, err := newCrypto(ctx, a.cli, a.cfg.CryptoStore, pk, a.log)
		if err != nil {
			return err
		}
		a.crypto = c
		defer c.Close()
		if err := a.retry(ctx, "cross-signing", func() error { return c.CrossSign(ctx, a.identity()) }); err != nil {
			return err
		}
	} else {
		a.cli.StateStore = mautrix.NewMemoryStateStore()
		syncer.OnEvent(a.cli.StateStoreSyncHandler)
		syncer.OnEventType(event.EventEncrypted, a.onEncryptedWithoutCrypto)
	}
	syncer.OnEventType(event.EventMessage, a.onMessage)
	syncer.OnEventType(event.StateMember, a.onMember)
	syncer.OnEventType(event.StatePowerLevels, func(ctx context.Context, evt *event.Event) { a.forget(evt.RoomID) })
	if a.cfg.DisplayName != "" {
		if err := a.retry(ctx, "display name", func() error { return a.cli.SetDisplayName(ctx, a.cfg.DisplayName) }); err != nil {
			a.log.Warn("setting the display name", "err", err)
		}
	}
	a.log.Info("logged in", "user", a.cli.UserID, "device", a.cli.DeviceID, "encryption", a.crypto != nil)
	close(a.ready)
	return a.syncLoop(ctx)
}

func (a *Adapter) syncKey() string {
	return "sync " + string(a.cli.UserID) + " " + string(a.cli.DeviceID)
}

// handleTimeout bounds the handling of one sync response after the
// adapter was asked to stop.
const handleTimeout = 2 * time.Minute

// syncLoop long-polls /sync. The position is stored after each response
// has been handled, so a crash or restart hands unhandled events over
// again (the chat layer drops those it already handled) and never skips
// any; on the very first start, the timeline is not handled at all.
func (a *Adapter) syncLoop(ctx context.Context) error {
	tok, err := a.getState(a.syncKey())
	if err != nil {
		return err
	}
	since := string(tok)
	filter := &mautrix.Filter{Room: &mautrix.RoomFilter{Timeline: &mautrix.FilterPart{Limit: a.timelineLimit}}}
	var filterID string
	delay := a.retryBase
	for ctx.Err() == nil {
		if filterID == "" {
			err := a.retry(ctx, "filter", func() error {
				resp, err := a.cli.CreateFilter(ctx, filter)
				if err == nil {
					filterID = resp.FilterID
				}
				return err
			})
			if err != nil {
				continue
			}
		}
		timeout := 30000
		if since == "" || delay > a.retryBase {
			timeout = 0
		}
		resp, err := a.cli.FullSyncRequest(ctx, mautrix.ReqSync{Since: since, Timeout: timeout, FilterID: filterID})
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, mautrix.MUnknownToken) {
				if a.cfg.AccessToken != "" || a.cfg.Password == "" {
					return fmt.Errorf("matrix: the homeserver no longer accepts the bot's access token: %w", err)
				}
				a.log.Warn("the access token was revoked; logging in again", "device", a.cli.DeviceID)
				if err := a.passwordLogin(ctx, a.cli.DeviceID); err != nil {
					return err
				}
				if a.crypto != nil {
					if err := a.crypto.Reshare(ctx); err != nil {
						a.log.Error("uploading the device's encryption keys again", "err", err)
					}
				}
				continue
			}
			wait, ok := retryAfter(err)
			if !ok {
				wait = delay
				delay = min(delay*2, time.Minute)
			}
			a.log.Warn("sync failed; retrying", "err", err, "in", wait)
			if !sleep(ctx, wait) {
				break
			}
			continue
		}
		delay = a.retryBase
		// A batch is handled to the end even when ctx ends meanwhile, so
		// that stopping the bot does not leave commands handled but
		// unanswered (or answered twice after the restart).
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
		err = a.cli.Syncer.ProcessResponse(hctx, resp, since)
		cancel()
		if err != nil {
			a.log.Error("handling a sync response", "err", err)
		}
		since = resp.NextBatch
		pos := map[string][]byte{a.syncKey(): []byte(since)}
		for roomID, room := range resp.Rooms.Join {
			if evs := room.Timeline.Events; len(evs) > 0 {
				pos["last "+string(roomID)] = []byte(evs[len(evs)-1].ID)
			}
		}
		if err := a.state.PutState(context.WithoutCancel(ctx), stateNS, pos); err != nil {
			return fmt.Errorf("matrix: storing the sync position: %w", err)
		}
	}
	return nil
}

// prepareSync runs before a sync response's events are dispatched. It
// drops the messages the bot must not answer: on the first start
// everything in the timelines (old history), and in a room just joined
// what was said before the bot's join. When the homeserver cut a
// timeline short (the bot was away longer than timelineLimit events),
// the missing messages are fetched so no command is lost.
func (a *Adapter) prepareSync(ctx context.Context, resp *mautrix.RespSync, since string) bool {
	for roomID, room := range resp.Rooms.Join {
		evs := room.Timeline.Events
		cut := 0
		if since == "" {
			cut = len(evs)
		} else {
			for i := len(evs) - 1; i >= 0; i-- {
				if a.joinedHere(evs[i]) {
					cut = i + 1
					break
				}
			}
		}
		if cut == 0 && room.Timeline.Limited && room.Timeline.PrevBatch != "" {
			evs = append(a.backfill(ctx, roomID, room.Timeline.PrevBatch, since), evs...)
		}
		kept := evs[:0:0]
		for i, evt := range evs {
			if evt.Type == event.EventMessage || evt.Type == event.EventEncrypted {
				if i < cut || a.recent.seen(evt.ID) {
					continue
				}
			}
			kept = append(kept, evt)
		}
		room.Timeline.Events = kept
	}
	return true
}

// joinedHere reports whether evt is the bot's own join (not a profile
// change of an existing member).
func (a *Adapter) joinedHere(evt *event.Event) bool {
	if evt.Type != event.StateMember || evt.GetStateKey() != string(a.cli.UserID) {
		return false
	}
	if m, _ := evt.Content.Raw["membership"].(string); m != "join" {
		return false
	}
	if evt.Unsigned.PrevContent != nil {
		if m, _ := evt.Unsigned.PrevContent.Raw["membership"].(string); m == "join" {
			return false
		}
	}
	return true
}

// backfill fetches the events between a sync's cut-off and the previous
// position, oldest first. It stops at the last event an earlier sync
// delivered in the room (some servers, Dendrite among them, do not stop
// at the `to` token) or at the bot's join.
func (a *Adapter) backfill(ctx context.Context, room id.RoomID, from, to string) []*event.Event {
	last, err := a.getState("last " + string(room))
	if err != nil {
		a.log.Warn("reading the last event seen", "room", room, "err", err)
	}
	var got []*event.Event
	done := false
	for pages := 0; pages < 20 && from != "" && !done; pages++ {
		var resp *mautrix.RespMessages
		err := a.retry(ctx, "backfill", func() error {
			var err error
			resp, err = a.cli.Messages(ctx, room, from, to, mautrix.DirectionBackward, nil, 100)
			return err
		})
		if err != nil {
			a.log.Warn("fetching missed messages", "room", room, "err", err)
			break
		}
		for _, evt := range resp.Chunk {
			if last != nil && evt.ID == id.EventID(last) {
				done = true
				break
			}
			got = append(got, evt)
			if a.joinedHere(evt) {
				done = true
				break
			}
		}
		if len(resp.Chunk) == 0 || resp.End == "" || resp.End == from {
			break
		}
		from = resp.End
	}
	for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
		got[i], got[j] = got[j], got[i]
	}
	for _, evt := range got {
		evt.RoomID = room
	}
	a.log.Info("fetched messages missed while away", "room", room, "events", len(got))
	return got
}

// onMember joins rooms the bot is invited to (from allowed servers),
// remembers DM rooms, and drops cached room data on membership changes.
func (a *Adapter) onMember(ctx context.Context, evt *event.Event) {
	a.forget(evt.RoomID)
	if evt.GetStateKey() != string(a.cli.UserID) || evt.Mautrix.EventSource&event.SourceInvite == 0 {
		return
	}
	// The raw content: mautrix's memory state store updates the parsed
	// one in place when the bot joins.
	membership, _ := evt.Content.Raw["membership"].(string)
	direct, _ := evt.Content.Raw["is_direct"].(bool)
	if membership != string(event.MembershipInvite) {
		return
	}
	if !a.cfg.autoJoin() {
		return
	}
	if !a.cfg.allowed(evt.Sender.Homeserver()) {
		a.log.Info("declining an invite from a server not allowed", "room", evt.RoomID, "from", evt.Sender)
		if err := a.retry(ctx, "reject", func() error { _, err := a.cli.LeaveRoom(ctx, evt.RoomID); return err }); err != nil {
			a.log.Warn("rejecting an invite", "room", evt.RoomID, "err", err)
		}
		return
	}
	if err := a.retry(ctx, "join", func() error { _, err := a.cli.JoinRoomByID(ctx, evt.RoomID); return err }); err != nil {
		a.log.Warn("joining a room", "room", evt.RoomID, "err", err)
		return
	}
	a.log.Info("joined", "room", evt.RoomID, "invited by", evt.Sender, "direct", direct)
	if direct {
		if err := a.putState("dm "+string(evt.Sender), []byte(evt.RoomID)); err != nil {
			a.log.Warn("remembering a DM room", "err", err)
		}
	}
}

func (a *Adapter) forget(room id.RoomID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.rooms[room]; c != nil {
		a.rooms[room] = &roomCache{warned: c.warned}
	}
}

// onEncryptedWithoutCrypto tells a room once that the bot cannot read
// its encrypted messages.
func (a *Adapter) onEncryptedWithoutCrypto(ctx context.Context, evt *event.Event) {
	if evt.Sender == a.cli.UserID || evt.Mautrix.EventSource&event.SourceTimeline == 0 {
		return
	}
	a.mu.Lock()
	c := a.cache(evt.RoomID)
	warned := c.warned
	c.warned = true
	a.mu.Unlock()
	if warned {
		return
	}
	a.sendContent(ctx, evt.RoomID, &event.MessageEventContent{MsgType: event.MsgNotice,
		Body: "This room is encrypted, but this gobot runs without encryption, so I cannot read commands here."})
}

// cache returns the room's cache entry; a.mu must be held.
func (a *Adapter) cache(room id.RoomID) *roomCache {
	c := a.rooms[room]
	if c == nil {
		c = &roomCache{}
		a.rooms[room] = c
	}
	return c
}

// members returns the room's joined members and their display names.
func (a *Adapter) members(ctx context.Context, room id.RoomID) map[id.UserID]string {
	a.mu.Lock()
	m := a.cache(room).members
	a.mu.Unlock()
	if m != nil {
		return m
	}
	var resp *mautrix.RespJoinedMembers
	if err := a.retry(ctx, "members", func() error {
		var err error
		resp, err = a.cli.JoinedMembers(ctx, room)
		return err
	}); err != nil {
		a.log.Warn("listing members", "room", room, "err", err)
		return nil
	}
	m = map[id.UserID]string{}
	for u, jm := range resp.Joined {
		m[u] = jm.DisplayName
	}
	a.mu.Lock()
	a.cache(room).members = m
	a.mu.Unlock()
	return m
}

// isAdmin reports whether u's power level reaches the room's
// state_default (50 when unset).
func (a *Adapter) isAdmin(ctx context.Context, room id.RoomID, u id.UserID) bool {
	a.mu.Lock()
	pl := a.cache(room).power
	a.mu.Unlock()
	if pl == nil {
		pl = &event.PowerLevelsEventContent{}
		if err := a.retry(ctx, "power levels", func() error {
			return a.cli.StateEvent(ctx, room, event.StatePowerLevels, "", pl)
		}); err != nil {
			a.log.Warn("reading power levels", "room", room, "err", err)
			return false
		}
		var create *event.Event
		if err := a.retry(ctx, "create event", func() error {
			var err error
			create, err = a.cli.FullStateEvent(ctx, room, event.StateCreate, "")
			return err
		}); err == nil && create != nil && create.Content.Parsed != nil {
			pl.CreateEvent = create // room versions where creators outrank everyone
		}
		a.mu.Lock()
		a.cache(room).power = pl
		a.mu.Unlock()
	}
	return pl.GetUserLevel(u) >= pl.StateDefault()
}

// name is how a user is shown in room: display name, else localpart.
func (a *Adapter) name(ctx context.Context, room id.RoomID, u chat.UserID) string {
	mu, ok := matrixUser(u)
	if !ok {
		return u.Local()
	}
	if n := a.members(ctx, room)[mu]; n != "" {
		return n
	}
	return mu.Localpart()
}

// onMessage handles a (decrypted) room message: commands go to the bot
// and its reply back to the room.
func (a *Adapter) onMessage(ctx context.Context, evt *event.Event) {
	if evt.Sender == a.cli.UserID || evt.Mautrix.EventSource&event.SourceTimeline == 0 {
		return
	}
	c, ok := parseCommand(a.cfg.Prefix, evt.Content.AsMessage())
	if !ok {
		return
	}
	thread := evt.Content.AsMessage().RelatesTo.GetThreadParent()
	members := a.members(ctx, evt.RoomID)
	if msg := resolveUsers(&c, members); msg != "" {
		if !a.answered(evt.RoomID, evt.ID) {
			a.deliver(ctx, chat.Reply{Text: msg, Error: true, Private: true}, &route{Room: evt.RoomID, Thread: thread, ReplyTo: evt.ID})
			a.markAnswered(evt.RoomID, evt.ID)
		}
		return
	}
	name := members[evt.Sender]
	if name == "" {
		name = evt.Sender.Localpart()
	}
	req := chat.Request{
		User:     chat.User{ID: UserID(evt.Sender), Name: name},
		Room:     RoomID(evt.RoomID, thread),
		DM:       len(members) == 2,
		Admin:    a.isAdmin(ctx, evt.RoomID, evt.Sender),
		EventID:  chat.NewEventID(Platform, string(evt.ID)),
		Command:  c.Name,
		Args:     c.Args,
		Mentions: c.Mentions,
		Time:     eventTime(evt),
		// The reply is stored with the command's effect, so an event
		// handed over again after a crash gets the reply it was owed.
		Outbox: true,
	}
	req.Community = chat.CommunityID(RoomID(evt.RoomID, "")) // ratings are per room, threads included
	if a.answered(evt.RoomID, evt.ID) {
		a.log.Debug("already answered", "room", evt.RoomID, "event", evt.ID)
		return
	}
	a.log.Debug("command", "room", evt.RoomID, "user", evt.Sender, "command", c.Name, "args", c.Args)
	rep := a.bot.Handle(ctx, req)
	if rep.Duplicate {
		a.log.Debug("dropped a duplicate command", "room", evt.RoomID, "event", evt.ID)
		a.markAnswered(evt.RoomID, evt.ID)
		return
	}
	if afterHandle != nil {
		afterHandle(rep)
	}
	if err := a.deliver(ctx, rep, &route{Room: evt.RoomID, Thread: thread, ReplyTo: evt.ID}); err != nil {
		a.log.Warn("answering a command", "room", evt.RoomID, "event", evt.ID, "err", err)
		return // owed still: answered when the event comes again
	}
	if err := a.bot.Delivered(ctx, req.EventID); err != nil {
		a.log.Warn("recording an answer as sent", "event", evt.ID, "err", err)
	}
	a.markAnswered(evt.RoomID, evt.ID)
}

// afterHandle, set only by tests, runs between the bot's handling of a
// command (committed) and the sending of its reply.
var afterHandle func(chat.Reply)

// answeredSize is how many answered commands are remembered per room.
const answeredSize = 256

// answered reports whether the command evt in room was answered before
// (by this or an earlier run): a homeserver may hand an event over again
// (a backfill overlapping an earlier sync, a restart in the middle of a
// batch), and the chat layer would then answer "already handled".
func (a *Adapter) answered(room id.RoomID, evt id.EventID) bool {
	for _, e := range a.answeredIn(room) {
		if e == evt {
			return true
		}
	}
	return false
}

func (a *Adapter) answeredIn(room id.RoomID) []id.EventID {
	a.mu.Lock()
	defer a.mu.Unlock()
	if l, ok := a.answeredIDs[room]; ok {
		return l
	}
	var l []id.EventID
	if b, err := a.getState("answered " + string(room)); err != nil {
		a.log.Warn("reading answered commands", "room", room, "err", err)
	} else if b != nil {
		if err := json.Unmarshal(b, &l); err != nil {
			a.log.Warn("reading answered commands", "room", room, "err", err)
		}
	}
	a.answeredIDs[room] = l
	return l
}

// markAnswered remembers that the command evt in room was answered.
func (a *Adapter) markAnswered(room id.RoomID, evt id.EventID) {
	l := append(append([]id.EventID(nil), a.answeredIn(room)...), evt)
	if len(l) > answeredSize {
		l = l[len(l)-answeredSize:]
	}
	a.mu.Lock()
	a.answeredIDs[room] = l
	a.mu.Unlock()
	b, _ := json.Marshal(l)
	if err := a.putState("answered "+string(room), b); err != nil {
		a.log.Warn("remembering an answered command", "room", room, "err", err)
	}
}

// Notify sends a message the bot sends on its own: into a room (or a
// game's thread), or to a user in a direct room, made if needed.
func (a *Adapter) Notify(ctx context.Context, m chat.Message) error {
	select {
	case <-a.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if m.To != "" {
		u, ok := matrixUser(m.To)
		if !ok {
			return fmt.Errorf("matrix: %s is not a Matrix user", m.To)
		}
		room, err := a.dmRoom(ctx, u)
		if err != nil {
			return err
		}
		m.Reply.Room = RoomID(room, "")
		return a.deliver(ctx, m.Reply, nil)
	}
	if _, _, ok := matrixRoom(m.Room); !ok {
		return fmt.Errorf("matrix: %s is not a Matrix room", m.Room)
	}
	m.Reply.Room = m.Room
	return a.deliver(ctx, m.Reply, nil)
}

// dmRoom returns the direct room with u: the one u invited the bot to or
// the bot made before, if both are still in it (or u is still invited);
// else a new one.
func (a *Adapter) dmRoom(ctx context.Context, u id.UserID) (id.RoomID, error) {
	key := "dm " + string(u)
	b, err := a.getState(key)
	if err != nil {
		return "", err
	}
	if b != nil {
		room := id.RoomID(b)
		m := a.members(ctx, room)
		_, userIn := m[u]
		if !userIn && a.cli.StateStore != nil {
			userIn = a.cli.StateStore.IsInvited(ctx, room, u) // not answered the invite yet
		}
		if _, botIn := m[a.cli.UserID]; botIn && userIn {
			return room, nil
		}
	}
	req := &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{u}}
	if a.crypto != nil {
		req.InitialState = []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
	}
	var resp *mautrix.RespCreateRoom
	if err := a.retry(ctx, "create DM", func() error {
		var err error
		resp, err = a.cli.CreateRoom(ctx, req)
		return err
	}); err != nil {
		return "", fmt.Errorf("matrix: making a direct room with %s: %w", u, err)
	}
	return resp.RoomID, a.putState(key, []byte(resp.RoomID))
}

// deliver presents a reply. from is the command's route (nil for
// notifications). The reply goes to Reply.Room when set (a game's home
// room or thread), else back where the command was typed, as a reply to
// it. When the reply asks for a thread, its first message becomes the
// thread's root and the rest goes into the thread.
func (a *Adapter) deliver(ctx context.Context, rep chat.Reply, from *route) error {
	var to route
	if from != nil {
		to = *from
	}
	if rep.Room != "" {
		room, thread, ok := matrixRoom(rep.Room)
		if !ok {
			return fmt.Errorf("matrix: %s is not a Matrix room", rep.Room)
		}
		if from == nil || room != from.Room || thread != from.Thread {
			to = route{Room: room, Thread: thread}
		}
	}
	if to.Room == "" {
		return errors.New("matrix: a reply with nowhere to go")
	}
	newThread := rep.Thread && rep.Game != 0 && to.Thread == ""
	if newThread {
		to.ReplyTo = "" // a thread's root must not relate to anything
	}
	name := func(u chat.UserID) string { return a.name(ctx, to.Room, u) }
	rep = chat.FormatReply(rep, chat.CodeCommand(a.cfg.Prefix))
	text := textContent(rep, name, actionCommands(a.cfg.Prefix, rep.Actions, func(s string) bool { return a.known[s] }))
	text.RelatesTo = to.relation()
	first, err := a.sendContent(ctx, to.Room, text)
	if err != nil {
		return err
	}
	if newThread {
		to = route{Room: to.Room, Thread: first}
		if err := a.bot.ThreadCreated(ctx, rep.Game, RoomID(to.Room, first)); err != nil {
			a.log.Warn("recording a game thread", "game", rep.Game, "err", err)
		}
	} else if to.Thread != "" {
		to.ReplyTo = first
	} else {
		to.ReplyTo = "" // the text answered the command; files follow it
	}
	for _, f := range []*chat.File{rep.Image, rep.File} {
		if f == nil {
			continue
		}
		c, err := a.upload(ctx, to.Room, f)
		if err != nil {
			a.log.Warn("uploading", "file", f.Name, "err", err)
			continue
		}
		c.RelatesTo = to.relation()
		if _, err := a.sendContent(ctx, to.Room, c); err != nil {
			return err
		}
	}
	if from != nil && to.Room != from.Room {
		// The answer went to the game's room: say so where the command was.
		ack := &event.MessageEventContent{MsgType: event.MsgNotice, Mentions: &event.Mentions{},
			Body:      "Answered in the game's room: " + to.Room.EventURI(first).MatrixToURL(),
			RelatesTo: from.relation()}
		ack.Format, ack.FormattedBody = event.FormatHTML, fmt.Sprintf(`Answered in <a href="%s">the game's room</a>.`, to.Room.EventURI(first).MatrixToURL())
		if _, err := a.sendContent(ctx, from.Room, ack); err != nil {
			return err
		}
	}
	return nil
}

// encrypted reports whether room is end-to-end encrypted (and the bot
// can encrypt).
func (a *Adapter) encrypted(ctx context.Context, room id.RoomID) bool {
	if a.crypto == nil {
		return false
	}
	ok, err := a.cli.StateStore.IsEncrypted(ctx, room)
	return err == nil && ok
}

// upload puts f into the media repository (encrypted first in encrypted
// rooms) and returns the event content that shows it.
func (a *Adapter) upload(ctx context.Context, room id.RoomID, f *chat.File) (*event.MessageEventContent, error) {
	data := f.Data
	var enc *event.EncryptedFileInfo
	mime := f.MIME
	if a.encrypted(ctx, room) {
		ef := attachment.NewEncryptedFile()
		data = ef.Encrypt(f.Data)
		enc = &event.EncryptedFileInfo{EncryptedFile: *ef}
		mime = "application/octet-stream"
	}
	var resp *mautrix.RespMediaUpload
	err := a.retry(ctx, "upload", func() error {
		var err error
		resp, err = a.cli.UploadBytesWithName(ctx, data, mime, f.Name)
		return err
	})
	if err != nil {
		return nil, err
	}
	if enc != nil {
		enc.URL = resp.ContentURI.CUString()
		return mediaContent(f, "", enc), nil
	}
	return mediaContent(f, resp.ContentURI.CUString(), nil), nil
}

// sendContent sends one m.room.message (encrypted in encrypted rooms),
// retrying rate limits and network failures with the same transaction
// ID so that the room never gets it twice.
func (a *Adapter) sendContent(ctx context.Context, room id.RoomID, c *event.MessageEventContent) (id.EventID, error) {
	txn := a.cli.TxnID()
	var resp *mautrix.RespSendEvent
	err := a.retry(ctx, "send", func() error {
		var err error
		resp, err = a.cli.SendMessageEvent(ctx, room, event.EventMessage, c, mautrix.ReqSendEvent{TransactionID: txn})
		return err
	})
	if err != nil {
		a.log.Warn("sending a message", "room", room, "err", err)
		return "", err
	}
	return resp.EventID, nil
}

// maxAttempts bounds retries of one request (about four minutes with
// the default backoff).
const maxAttempts = 9

// retry runs fn until it succeeds, fails for good or ctx ends: rate
// limits wait as long as the homeserver asks (retry_after_ms), network
// failures and server errors back off exponentially.
func (a *Adapter) retry(ctx context.Context, what string, fn func() error) error {
	delay := a.retryBase
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || attempt == maxAttempts || ctx.Err() != nil {
			return err
		}
		wait, ok := retryAfter(err)
		if !ok {
			if !transient(err) {
				return err
			}
			wait = delay
			delay = min(2*delay, time.Minute)
		}
		a.log.Debug("retrying", "what", what, "err", err, "in", wait)
		if !sleep(ctx, wait) {
			return err
		}
	}
}

// retryAfter returns the delay a rate-limited response asks for.
func retryAfter(err error) (time.Duration, bool) {
	var he mautrix.HTTPError
	if !errors.As(err, &he) || he.RespError == nil || he.RespError.ErrCode != mautrix.MLimitExceeded.ErrCode {
		return 0, false
	}
	if ms, ok := he.RespError.ExtraData["retry_after_ms"].(float64); ok && ms > 0 {
		return time.Duration(ms) * time.Millisecond, true
	}
	return 5 * time.Second, true
}

// transient reports whether err may go away by itself: no answer, or a
// server or gateway error.
func transient(err error) bool {
	var he mautrix.HTTPError
	if !errors.As(err, &he) {
		return false
	}
	if he.Response == nil {
		return he.WrappedError != nil && !errors.Is(he.WrappedError, context.Canceled)
	}
	return he.Response.StatusCode >= 500 || he.Response.StatusCode == 429
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// zerologTo passes mautrix's warnings and errors to log.
func zerologTo(log *slog.Logger) zerolog.Logger {
	return zerolog.New(slogWriter{log}).Level(zerolog.WarnLevel).With().Timestamp().Logger()
}

type slogWriter struct{ log *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	var rec map[string]any
	msg := strings.TrimSpace(string(p))
	level := slog.LevelWarn
	if json.Unmarshal(p, &rec) == nil {
		if m, ok := rec["message"].(string); ok {
			msg = m
		}
		if l, _ := rec["level"].(string); l == "error" || l == "fatal" || l == "panic" {
			level = slog.LevelError
		}
		delete(rec, "message")
		delete(rec, "level")
		delete(rec, "time")
	}
	var args []any
	for k, v := range rec {
		args = append(args, k, v)
	}
	w.log.Log(context.Background(), level, "mautrix: "+msg, args...)
	return len(p), nil
}
