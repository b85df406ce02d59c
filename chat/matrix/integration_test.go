package matrix

import (
	"bytes"
	"context"
	"fmt"
	"image/gif"
	"image/png"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// A human is a Matrix user in the test: a mautrix client that syncs
// (decrypting when encrypted) and records what the bot says.
type human struct {
	name string
	cli  *mautrix.Client

	mu   sync.Mutex
	got  []*event.Event // the bot's messages, in order
	seen chan struct{}  // signalled on every new message
}

func register(t *testing.T, ctx context.Context, hs, name string) *mautrix.Client {
	t.Helper()
	cli, err := mautrix.NewClient(hs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	var resp *mautrix.RespRegister
	for {
		resp, err = cli.RegisterDummy(ctx, &mautrix.ReqRegister[any]{Username: name, Password: "password-" + name, InitialDeviceDisplayName: name})
		wait, limited := retryAfter(err) // registration is rate-limited by address
		if !limited || !sleep(ctx, wait) {
			break
		}
	}
	if err != nil {
		t.Fatalf("registering %s: %v", name, err)
	}
	cli.UserID, cli.AccessToken, cli.DeviceID = resp.UserID, resp.AccessToken, resp.DeviceID
	return cli
}

// newHuman registers name and starts its sync loop; encrypted humans get
// a crypto store in a temporary directory.
func newHuman(t *testing.T, ctx context.Context, hs, name string, bot id.UserID, encrypted bool, options ...func(*human)) *human {
	t.Helper()
	h := &human{name: name, cli: register(t, ctx, hs, name), seen: make(chan struct{}, 1)}
	syncer := h.cli.Syncer.(*mautrix.DefaultSyncer)
	if encrypted {
		humanCrypto(t, ctx, h.cli)
	} else {
		h.cli.StateStore = mautrix.NewMemoryStateStore()
		syncer.OnEvent(h.cli.StateStoreSyncHandler)
	}
	syncer.OnEventType(event.EventMessage, func(ctx context.Context, evt *event.Event) {
		if evt.Sender != bot {
			return
		}
		h.mu.Lock()
		h.got = append(h.got, evt)
		h.mu.Unlock()
		select {
		case h.seen <- struct{}{}:
		default:
		}
	})
	for _, o := range options {
		o(h)
	}
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sctx.Err() == nil {
			if err := h.cli.SyncWithContext(sctx); err != nil && sctx.Err() == nil {
				t.Logf("%s: sync: %v", name, err)
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return h
}

// say sends a command (as HTML when it has pills) and returns its ID.
func (h *human) say(t *testing.T, ctx context.Context, room id.RoomID, text string, pills ...*mautrix.Client) id.EventID {
	t.Helper()
	c := &event.MessageEventContent{MsgType: event.MsgText, Body: text}
	if len(pills) > 0 {
		c.Format, c.FormattedBody = event.FormatHTML, text
		for _, p := range pills {
			c.Body = strings.ReplaceAll(c.Body, "{"+p.UserID.Localpart()+"}", p.UserID.Localpart())
			c.FormattedBody = strings.ReplaceAll(c.FormattedBody, "{"+p.UserID.Localpart()+"}",
				fmt.Sprintf(`<a href="https://matrix.to/#/%s">%s</a>`, p.UserID, p.UserID.Localpart()))
			c.Mentions = &event.Mentions{UserIDs: []id.UserID{p.UserID}}
		}
	}
	resp, err := h.cli.SendMessageEvent(ctx, room, event.EventMessage, c)
	if err != nil {
		t.Fatalf("%s says %q: %v", h.name, text, err)
	}
	return resp.EventID
}

// wait returns the first bot message from index from on that matches.
func (h *human) wait(t *testing.T, ctx context.Context, from int, what string, match func(*event.Event) bool) (*event.Event, int) {
	t.Helper()
	for {
		h.mu.Lock()
		for i := from; i < len(h.got); i++ {
			if match(h.got[i]) {
				evt := h.got[i]
				h.mu.Unlock()
				return evt, i
			}
		}
		h.mu.Unlock()
		select {
		case <-h.seen:
		case <-ctx.Done():
			t.Fatalf("%s never saw %s; the bot said:\n%s", h.name, what, h.transcript())
		}
	}
}

func (h *human) transcript() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var sb strings.Builder
	for _, e := range h.got {
		c := e.Content.AsMessage()
		fmt.Fprintf(&sb, "  %s %s: %q (reply to %s)\n", e.ID, c.MsgType, c.Body, c.RelatesTo.GetReplyTo())
	}
	return sb.String()
}

// replyTo waits for the bot's text answer to the command cmd.
func (h *human) replyTo(t *testing.T, ctx context.Context, cmd id.EventID) (*event.MessageEventContent, int) {
	t.Helper()
	evt, i := h.wait(t, ctx, 0, "an answer to "+string(cmd), func(e *event.Event) bool {
		c := e.Content.AsMessage()
		return c.MsgType == event.MsgNotice && c.RelatesTo.GetReplyTo() == cmd
	})
	return evt.Content.AsMessage(), i
}

// answers counts the bot's text answers to cmd.
func (h *human) answers(cmd id.EventID) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := map[id.EventID]bool{}
	for _, e := range h.got {
		if c := e.Content.AsMessage(); c.MsgType == event.MsgNotice && c.RelatesTo.GetReplyTo() == cmd {
			ids[e.ID] = true
		}
	}
	return len(ids)
}

// runningBot is the real chat.Bot with the Matrix adapter over a bbolt
// file, as cmd/gobot runs it.
type runningBot struct {
	bot     *chat.Bot
	adapter *Adapter
	db      *storage.DB
	stop    func()
}

func startBot(t *testing.T, ctx context.Context, cfg Config, dbPath string, timelineLimit int, logs *logBuffer) *runningBot {
	t.Helper()
	db, err := storage.Open(dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	bot := chat.New(chat.Config{}, db, &render.Renderer{}, nil, log)
	if cfg.CryptoStore == "" {
		cfg.CryptoStore = filepath.Join(filepath.Dir(dbPath), "gobot-crypto.db")
	}
	a, err := New(cfg, bot, gobot.StoreState(db), log)
	if err != nil {
		t.Fatal(err)
	}
	a.timelineLimit = timelineLimit
	a.retryBase = 50 * time.Millisecond
	bot.SetNotifier(Platform, a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx) }()
	select {
	case <-a.ready:
	case err := <-done:
		cancel()
		db.Close()
		t.Fatalf("adapter stopped: %v", err)
	case <-ctx.Done():
		t.Fatal("adapter did not log in")
	}
	rb := &runningBot{bot: bot, adapter: a, db: db}
	var once sync.Once
	rb.stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("adapter: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Error(err)
			}
		})
	}
	t.Cleanup(rb.stop)
	return rb
}

// logBuffer collects the bot's log lines for the test's output.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.b.String(), s)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitJoined waits until each client's sync shows u joined to room.
func waitJoined(t *testing.T, ctx context.Context, room id.RoomID, u id.UserID, clients ...*mautrix.Client) {
	t.Helper()
	for _, c := range clients {
		for !c.StateStore.IsInRoom(ctx, room, u) {
			select {
			case <-ctx.Done():
				t.Fatalf("%s never saw %s join %s", c.UserID, u, room)
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// fetch downloads the media of an m.image or m.file event, decrypting
// it in encrypted rooms.
func fetch(t *testing.T, ctx context.Context, cli *mautrix.Client, c *event.MessageEventContent) []byte {
	t.Helper()
	src := c.URL
	if c.File != nil {
		src = c.File.URL
	}
	uri, err := src.Parse()
	if err != nil {
		t.Fatalf("media URL %q: %v", src, err)
	}
	data, err := cli.DownloadBytes(ctx, uri)
	if err != nil {
		t.Fatalf("downloading %s: %v", uri, err)
	}
	if c.File != nil {
		if c.URL != "" {
			t.Errorf("encrypted media also has a plain url %q", c.URL)
		}
		if data, err = c.File.Decrypt(data); err != nil {
			t.Fatalf("decrypting %s: %v", uri, err)
		}
	}
	return data
}

func TestPlainRoom(t *testing.T) { testScenario(t, false) }

// testScenario plays a whole game in a room through a real homeserver:
// invite, challenge by pill, accept, moves with an illegal one and a
// capture, a bystander refused, a restart of the bot with commands sent
// while it was away (more than fit in one sync), passes, dead stones,
// done, the result and the SGF. Every command is answered exactly once.
func testScenario(t *testing.T, encrypted bool) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@carol:localhost")
	botCli := register(t, ctx, hs, "gobot")
	botID := botCli.UserID
	ann := newHuman(t, ctx, hs, "ann", botID, encrypted)
	bob := newHuman(t, ctx, hs, "bob", botID, encrypted)
	carol := newHuman(t, ctx, hs, "carol", botID, encrypted)

	create := &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "go club"}
	if encrypted {
		create.InitialState = []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
	}
	cr, err := ann.cli.CreateRoom(ctx, create)
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	for _, h := range []*human{bob, carol} {
		if _, err := h.cli.JoinRoomByID(ctx, room); err != nil {
			t.Fatal(err)
		}
	}
	waitJoined(t, ctx, room, carol.cli.UserID, ann.cli, bob.cli, carol.cli)
	// Said before the bot was there: history it must not answer.
	old := ann.say(t, ctx, room, "!go help")

	dir := t.TempDir()
	dbPath := filepath.Join(dir, "gobot.db")
	network := startProxy(t, hs)
	cfg := Config{Homeserver: network.URL(), UserID: string(botID), Password: "password-gobot", DisplayName: "Go Bot", Encryption: encrypted,
		AllowServers: []string{"localhost"}}
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	bot := startBot(t, ctx, cfg, dbPath, 50, logs)
	device := bot.adapter.cli.DeviceID

	if _, err := ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli, carol.cli)

	var cmds []id.EventID
	ask := func(h *human, text string, pills ...*mautrix.Client) (*event.MessageEventContent, int) {
		t.Helper()
		cmd := h.say(t, ctx, room, text, pills...)
		cmds = append(cmds, cmd)
		return ann.replyTo(t, ctx, cmd)
	}
	expect := func(c *event.MessageEventContent, want ...string) {
		t.Helper()
		for _, w := range want {
			if !strings.Contains(c.Body, w) {
				t.Fatalf("the bot said %q; want %q in it", c.Body, w)
			}
		}
	}
	// nextImage waits for the board image that follows answer i.
	nextImage := func(i int) *event.MessageEventContent {
		t.Helper()
		evt, _ := ann.wait(t, ctx, i+1, "a board image", func(e *event.Event) bool { return e.Content.AsMessage().MsgType == event.MsgImage })
		return evt.Content.AsMessage()
	}

	// Only members of the room can be challenged; a bare @name is looked
	// up among them.
	c, _ := ask(ann, "!go challenge @nobody:localhost 9")
	expect(c, "@nobody:localhost is not in this room")
	c, _ = ask(ann, "!go challenge @nobody 9")
	expect(c, "I don't see anyone called \"nobody\" in this room")
	c, _ = ask(ann, "!go challenge {bob} 5 black japanese", bob.cli)
	expect(c, "challenges bob", "!go accept #1")
	if !strings.Contains(c.FormattedBody, `<a href="https://matrix.to/#/@bob:localhost">bob</a>`) {
		t.Errorf("no pill for bob in %q", c.FormattedBody)
	}
	if c.Mentions == nil || len(c.Mentions.UserIDs) != 1 || c.Mentions.UserIDs[0] != bob.cli.UserID {
		t.Errorf("m.mentions = %+v, want bob", c.Mentions)
	}
	c, i := ask(bob, "!go accept")
	expect(c, "Game #1 begins", "ann (Black) to play", "Next: Pass (`!go pass #1`)")
	img := nextImage(i)
	if img.Info == nil || img.Info.MimeType != "image/png" || img.Info.Width == 0 || img.Info.Height == 0 {
		t.Fatalf("image info %+v", img.Info)
	}
	if encrypted != (img.File != nil) {
		t.Errorf("encrypted room %v, but the image is uploaded encrypted: %v", encrypted, img.File != nil)
	}
	data := fetch(t, ctx, ann.cli, img)
	if img.Info.Size != len(data) {
		t.Errorf("info.size %d, image has %d bytes", img.Info.Size, len(data))
	}
	pic, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the board image is no PNG: %v", err)
	}
	if b := pic.Bounds(); b.Dx() != img.Info.Width || b.Dy() != img.Info.Height {
		t.Errorf("PNG is %dx%d, info says %dx%d", b.Dx(), b.Dy(), img.Info.Width, img.Info.Height)
	}

	play := func(h *human, move string, want ...string) int {
		t.Helper()
		c, i := ask(h, "!go "+move)
		expect(c, want...)
		return i
	}
	play(ann, "play C3", "ann played C3", "bob (White) to play")
	play(bob, "play B3", "bob played B3")
	play(ann, "play B2", "ann played B2")
	play(bob, "play A3", "bob played A3")
	c, _ = ask(ann, "!go play C3")
	expect(c, "C3 is occupied")
	c, _ = ask(carol, "!go play E1 #1")
	expect(c, "Only ann and bob play game #1")
	play(ann, "play B4", "ann played B4")
	i = play(bob, "play D2", "bob played D2")
	nextImage(i)

	// The bot goes away; three moves are made meanwhile; it comes back
	// with the same database and device and a sync too short for them.
	bot.stop()
	away := []struct {
		h    *human
		move string
		want string
	}{{ann, "play A2", "ann played A2"}, {bob, "play D3", "bob played D3"}, {ann, "play A4", "ann played A4, capturing 2 stones"}}
	var awayCmds []id.EventID
	for _, m := range away {
		awayCmds = append(awayCmds, m.h.say(t, ctx, room, "!go "+m.move))
	}
	cmds = append(cmds, awayCmds...)
	bot = startBot(t, ctx, cfg, dbPath, 2, logs)
	if got := bot.adapter.cli.DeviceID; got != device {
		t.Errorf("after the restart the bot uses device %s, not %s", got, device)
	}
	last := 0
	for k, m := range away {
		c, i := ann.replyTo(t, ctx, awayCmds[k])
		expect(c, m.want)
		if i < last {
			t.Errorf("the answer to %q came out of order", m.move)
		}
		last = i
	}

	// The network fails (the bot's connections drop, new ones are cut)
	// while two moves are made; when it is back, both are answered.
	nextImage(last) // the bot has finished with the last move
	failed := logs.count("sync failed; retrying")
	network.setDown(true)
	cutCmds := []id.EventID{bob.say(t, ctx, room, "!go play C2"), ann.say(t, ctx, room, "!go play D4")}
	cmds = append(cmds, cutCmds...)
	for logs.count("sync failed; retrying") == failed { // down until the bot noticed
		if !sleep(ctx, 20*time.Millisecond) {
			t.Fatal("the bot's sync never failed while the network was down")
		}
	}
	network.setDown(false)
	for k, want := range []string{"bob played C2", "ann played D4"} {
		c, _ := ann.replyTo(t, ctx, cutCmds[k])
		expect(c, want)
	}

	for _, m := range []struct {
		h    *human
		move string
	}{{bob, "play E4"}, {ann, "play C1"}, {bob, "play B1"}, {ann, "play D5"}, {bob, "pass"}, {ann, "play E5"}, {bob, "play E3"}, {ann, "pass"}} {
		c, _ := ask(m.h, "!go "+m.move)
		expect(c, "Game #1")
	}
	c, _ = ask(bob, "!go pass")
	expect(c, "Scoring:", "!go dead <point>")
	c, _ = ask(bob, "!go dead B1")
	expect(c, "bob marked B1 ", "Scoring:")
	c, _ = ask(ann, "!go done")
	expect(c, "ann accepts the count")
	c, _ = ask(bob, "!go done")
	expect(c, "Game over: Black wins by", "!go sgf #1")
	_, after, _ := strings.Cut(c.Body, "Game over: ")
	result := after[strings.Index(after, "(")+1 : strings.Index(after, ")")]
	{
		// The bot's access token is revoked: it logs in again with its
		// password, on the same device, and goes on answering.
		revoke, err := mautrix.NewClient(hs, botID, bot.adapter.cli.AccessToken)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := revoke.Logout(ctx); err != nil {
			t.Fatal(err)
		}
		// Logging out deletes the device; the bot logs in again on the
		// same device ID and uploads its keys again. A message sent in
		// between is encrypted for no device of the bot's and can never
		// be read, so bob waits until the bot is back and his client
		// has its device again.
		for logs.count("logged in again") == 0 {
			if !sleep(ctx, 20*time.Millisecond) {
				t.Fatal("the bot did not log in again after its token was revoked")
			}
		}
		refreshDevices(t, ctx, bob.cli, botID)
	}
	c, i = ask(bob, "!go sgf #1")
	evt, _ := ann.wait(t, ctx, i, "the SGF file", func(e *event.Event) bool { return e.Content.AsMessage().MsgType == event.MsgFile })
	sgf := evt.Content.AsMessage()
	if sgf.Info == nil || sgf.Info.MimeType != "application/x-go-sgf" || !strings.HasSuffix(sgf.Body, ".sgf") {
		t.Errorf("SGF event %+v", sgf)
	}
	if rec := fetch(t, ctx, ann.cli, sgf); !bytes.HasPrefix(bytes.TrimSpace(rec), []byte("(;")) || !bytes.Contains(rec, []byte("RE["+result+"]")) {
		t.Errorf("SGF record %q", rec)
	}

	c, i = ask(ann, "!go replay #1")
	evt, _ = ann.wait(t, ctx, i, "the replay GIF", func(e *event.Event) bool { return e.Content.AsMessage().MsgType == event.MsgImage })
	replay := evt.Content.AsMessage()
	if replay.Info == nil || replay.Info.MimeType != "image/gif" {
		t.Fatalf("replay info %+v", replay.Info)
	}
	anim, err := gif.DecodeAll(bytes.NewReader(fetch(t, ctx, ann.cli, replay)))
	if err != nil {
		t.Fatalf("the replay is no GIF: %v", err)
	}
	if anim.Config.Width != replay.Info.Width || anim.Config.Height != replay.Info.Height || len(anim.Image) < 2 {
		t.Errorf("GIF %dx%d with %d frames, info says %dx%d", anim.Config.Width, anim.Config.Height, len(anim.Image), replay.Info.Width, replay.Info.Height)
	}

	// Every command answered exactly once, history never.
	for _, cmd := range cmds {
		if n := ann.answers(cmd); n != 1 {
			t.Errorf("command %s answered %d times; the bot said:\n%s", cmd, n, ann.transcript())
		}
	}
	if encrypted {
		ann.mu.Lock()
		for _, e := range ann.got {
			if e.Mautrix.EventSource&event.SourceDecrypted == 0 {
				t.Errorf("the bot sent %s unencrypted into an encrypted room", e.ID)
			}
		}
		ann.mu.Unlock()
		if !bot.adapter.encrypted(ctx, room) {
			t.Error("the bot does not know the room is encrypted")
		}
	}
	if n := ann.answers(old); n != 0 {
		t.Errorf("a command from before the bot joined was answered %d times", n)
	}
	if logs.count("logging in again") == 0 {
		t.Error("the bot did not notice that its token was revoked")
	}
	if n := logs.count("fetched messages missed while away"); n == 0 {
		t.Errorf("the restarted bot did not need to fetch missed messages (timeline limit 2); the test did not test backfilling")
	}
	t.Logf("rate-limit retries: %d", logs.count("M_LIMIT_EXCEEDED"))
}

func TestThreadsAndDirectMessages(t *testing.T) { testThreadsAndDM(t, false) }

// testThreadsAndDM checks room admins (power levels), a game in its own
// thread, a turn notice sent to a player in a direct room the bot makes,
// and a move typed in that direct room.
func testThreadsAndDM(t *testing.T, encrypted bool) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@carol:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, encrypted)
	bob := newHuman(t, ctx, hs, "bob", botID, encrypted, joinInvites)
	carol := newHuman(t, ctx, hs, "carol", botID, encrypted)

	create := &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "threads", Invite: []id.UserID{botID}}
	if encrypted {
		create.InitialState = []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
	}
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	network := startProxy(t, hs)
	cfg := Config{Homeserver: network.URL(), UserID: string(botID), Password: "password-gobot", Encryption: encrypted}
	bot := startBot(t, ctx, cfg, filepath.Join(t.TempDir(), "gobot.db"), 50, logs)
	cr, err := ann.cli.CreateRoom(ctx, create)
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	for _, h := range []*human{bob, carol} {
		if _, err := h.cli.JoinRoomByID(ctx, room); err != nil {
			t.Fatal(err)
		}
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli, carol.cli)
	waitJoined(t, ctx, room, carol.cli.UserID, ann.cli, bob.cli, carol.cli)

	ask := func(h *human, room id.RoomID, text string, pills ...*mautrix.Client) (*event.MessageEventContent, id.EventID) {
		t.Helper()
		cmd := h.say(t, ctx, room, text, pills...)
		c, _ := h.replyTo(t, ctx, cmd)
		return c, cmd
	}
	c, _ := ask(carol, room, "!go settings room threads=on")
	if !strings.Contains(c.Body, "Only room admins") {
		t.Fatalf("carol (power 0) changed the room's settings: %q", c.Body)
	}
	c, _ = ask(ann, room, "!go settings room threads=on")
	if !strings.Contains(c.Body, "threads=on") {
		t.Fatalf("ann (the room's creator) could not turn threads on: %q", c.Body)
	}
	c, _ = ask(bob, room, "!go settings notify=dm")
	if !strings.Contains(c.Body, "notify=dm") {
		t.Fatalf("bob's notify=dm: %q", c.Body)
	}
	ask(ann, room, "!go challenge {bob} 9 white", bob.cli)

	// The accept's answer is the root of the game's thread: not a reply,
	// and the board image follows inside the thread.
	accept := bob.say(t, ctx, room, "!go accept")
	rootEvt, i := ann.wait(t, ctx, 0, "the game's thread root", func(e *event.Event) bool {
		return strings.Contains(e.Content.AsMessage().Body, "Game #1 begins")
	})
	root := rootEvt.Content.AsMessage()
	if root.RelatesTo != nil {
		t.Errorf("the thread root relates to %+v", root.RelatesTo)
	}
	inThread := func(e *event.Event) bool { return e.Content.AsMessage().RelatesTo.GetThreadParent() == rootEvt.ID }
	ann.wait(t, ctx, i, "the board in the thread", func(e *event.Event) bool {
		return e.Content.AsMessage().MsgType == event.MsgImage && inThread(e)
	})
	if n := ann.answers(accept); n != 0 {
		t.Errorf("the accept got %d plain replies besides the thread", n)
	}

	// A move typed in the room's main timeline (naming the game: the
	// thread is the game's room now) is answered in the thread.
	move := bob.say(t, ctx, room, "!go play D4 #1")
	ann.wait(t, ctx, 0, "bob's move in the thread", func(e *event.Event) bool {
		c := e.Content.AsMessage()
		return inThread(e) && strings.Contains(c.Body, "bob played D4")
	})
	// ann moves in the thread; bob, with notify=dm, gets a direct message.
	th := &event.MessageEventContent{MsgType: event.MsgText, Body: "!go play E5",
		RelatesTo: (&event.RelatesTo{}).SetThread(rootEvt.ID, move)}
	if _, err := ann.cli.SendMessageEvent(ctx, room, event.EventMessage, th); err != nil {
		t.Fatal(err)
	}
	dm, _ := bob.wait(t, ctx, 0, "a direct message about his turn", func(e *event.Event) bool {
		return e.RoomID != room && strings.Contains(e.Content.AsMessage().Body, "Your move in game #1")
	})
	if encrypted && dm.Mautrix.EventSource&event.SourceDecrypted == 0 {
		t.Error("the direct message was not encrypted")
	}
	// bob answers in the direct room: the move is made in the game, its
	// board goes to the thread, and the direct room is told where.
	c, _ = ask(bob, dm.RoomID, "!go play E4")
	if !strings.Contains(c.Body, "Answered in") {
		t.Errorf("the direct room got %q", c.Body)
	}
	ann.wait(t, ctx, 0, "the move from the direct room in the thread", func(e *event.Event) bool {
		return inThread(e) && strings.Contains(e.Content.AsMessage().Body, "bob played E4")
	})
	// The next turn notice goes to the same direct room.
	th.Body, th.RelatesTo = "!go play E6", (&event.RelatesTo{}).SetThread(rootEvt.ID, rootEvt.ID)
	if _, err := ann.cli.SendMessageEvent(ctx, room, event.EventMessage, th); err != nil {
		t.Fatal(err)
	}
	second, _ := bob.wait(t, ctx, 0, "a second direct message", func(e *event.Event) bool {
		return e.RoomID != room && e.ID != dm.ID && strings.Contains(e.Content.AsMessage().Body, "Your move in game #1")
	})
	if second.RoomID != dm.RoomID {
		t.Errorf("the second turn notice went to %s, not to the direct room %s", second.RoomID, dm.RoomID)
	}
	if dmRoom, _ := bot.adapter.getState("dm " + string(bob.cli.UserID)); id.RoomID(dmRoom) != dm.RoomID {
		t.Errorf("the bot remembers %q as bob's direct room, not %s", dmRoom, dm.RoomID)
	}
}

// joinInvites makes h accept every invite (the bot's direct rooms).
func joinInvites(h *human) {
	h.cli.Syncer.(*mautrix.DefaultSyncer).OnEventType(event.StateMember, func(ctx context.Context, evt *event.Event) {
		// Raw, not the parsed content: mautrix's memory state store
		// changes that when the client joins.
		if m, _ := evt.Content.Raw["membership"].(string); evt.GetStateKey() == string(h.cli.UserID) && m == "invite" && evt.Mautrix.EventSource&event.SourceInvite != 0 {
			go h.cli.JoinRoomByID(ctx, evt.RoomID)
		}
	})
}
