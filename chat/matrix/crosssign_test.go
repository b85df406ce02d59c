//go:build goolm

package matrix

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/cryptohelper"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// strict makes a human's client share room keys only with cross-signed
// devices, as Element does with "exclude insecure devices" on.
func strict(h *human) {
	h.cli.Crypto.(*cryptohelper.CryptoHelper).Machine().SendKeysMinTrust = id.TrustStateCrossSignedTOFU
}

// syncBuffer is a concurrency-safe bytes.Buffer (the recovery key's
// output).
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// tryBot starts the adapter like startBot, but returns Run's error when
// it stops before it is ready.
func tryBot(t *testing.T, ctx context.Context, cfg Config, dbPath string, logs *logBuffer, opts ...func(*Adapter)) (*runningBot, error) {
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
	a.retryBase = 50 * time.Millisecond
	for _, o := range opts {
		o(a)
	}
	bot.SetNotifier(Platform, a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx) }()
	select {
	case <-a.ready:
	case err := <-done:
		cancel()
		if cerr := db.Close(); cerr != nil {
			t.Error(cerr)
		}
		if err == nil {
			t.Fatal("the adapter stopped without an error before it was ready")
		}
		return nil, err
	case <-ctx.Done():
		t.Fatal("adapter did not log in")
	}
	rb := &runningBot{adapter: a, db: db}
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
	return rb, nil
}

// mustBot is tryBot that fails the test on an error.
func mustBot(t *testing.T, ctx context.Context, cfg Config, dbPath string, logs *logBuffer, opts ...func(*Adapter)) *runningBot {
	t.Helper()
	b, err := tryBot(t, ctx, cfg, dbPath, logs, opts...)
	if err != nil {
		t.Fatalf("adapter stopped: %v", err)
	}
	return b
}

// recoveryKey returns the recovery key the bot printed to out.
func recoveryKey(t *testing.T, out string) string {
	t.Helper()
	_, after, ok := strings.Cut(out, "RECOVERY KEY is:\n\n")
	if !ok {
		t.Fatalf("the bot printed no recovery key; it printed %q", out)
	}
	k, _, _ := strings.Cut(strings.TrimSpace(after), "\n")
	return strings.TrimSpace(k)
}

// checker is a fresh encrypted client that looks at the bot's keys as a
// human's client would, trusting on first use.
type checker struct {
	t   *testing.T
	ctx context.Context
	hs  string
	n   int
}

// trust queries the bot's device from a new account and returns the
// master key the homeserver has for the bot and the device's trust.
func (c *checker) trust(bot id.UserID, device id.DeviceID) (id.Ed25519, id.TrustState) {
	t := c.t
	t.Helper()
	c.n++
	cli := register(t, c.ctx, c.hs, fmt.Sprintf("checker%d", c.n))
	humanCrypto(t, c.ctx, cli)
	mach := cli.Crypto.(*cryptohelper.CryptoHelper).Machine()
	if _, err := mach.FetchKeys(c.ctx, []id.UserID{bot}, true); err != nil {
		t.Fatalf("fetching the bot's keys: %v", err)
	}
	dev, err := mach.GetOrFetchDevice(c.ctx, bot, device)
	if err != nil {
		t.Fatalf("the bot's device %s: %v", device, err)
	}
	trust, err := mach.ResolveTrustContext(c.ctx, dev)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := mach.GetCrossSigningPublicKeys(c.ctx, bot)
	if err != nil {
		t.Fatal(err)
	}
	if keys == nil {
		return "", trust
	}
	return keys.MasterKey, trust
}

// master is the identity the running bot uses.
func (b *runningBot) master() id.Ed25519 {
	xs := b.adapter.crypto.(*helperBox).xs
	if xs == nil {
		return ""
	}
	return xs.mach.CrossSigningKeys.MasterKey.PublicKey()
}

func TestCrossSignedBotInStrictRoom(t *testing.T) { testStrictRoom(t, true) }

// Without cross-signing, the same game fails: the players' clients
// withhold their room keys from the bot.
func TestUnsignedBotInStrictRoom(t *testing.T) { testStrictRoom(t, false) }

// testStrictRoom plays a short game in an encrypted room where the two
// players' clients share room keys only with cross-signed devices, as
// Element's "exclude insecure devices" does; carol's client shares with
// every device. signed says whether the bot cross-signs its device.
func testStrictRoom(t *testing.T, signed bool) {
	t.Parallel() // mostly waiting on the homeserver: keeps the package's time down
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@carol:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, true, strict)
	bob := newHuman(t, ctx, hs, "bob", botID, true, strict)
	carol := newHuman(t, ctx, hs, "carol", botID, true)

	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	out := &syncBuffer{}
	cfg := Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot", Encryption: true}
	bot := mustBot(t, ctx, cfg, filepath.Join(t.TempDir(), "gobot.db"), logs, func(a *Adapter) {
		a.noCrossSigning, a.recoveryOut = !signed, out
	})
	if signed {
		recoveryKey(t, out.String())
		c := &checker{t: t, ctx: ctx, hs: hs}
		if m, trust := c.trust(botID, bot.adapter.cli.DeviceID); m != bot.master() || trust != id.TrustStateCrossSignedTOFU {
			t.Fatalf("a human's client sees master key %q and trust %s for the bot's device; want %s, %s", m, trust, bot.master(), id.TrustStateCrossSignedTOFU)
		}
	} else if out.String() != "" {
		t.Fatalf("the bot without cross-signing printed %q", out)
	}

	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "strict", Invite: []id.UserID{botID},
		InitialState: []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}})
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

	if !signed {
		// ann's command is never answered: her client withholds the key.
		cmd := ann.say(t, ctx, room, "!go help")
		for logs.count("withholds its room keys") == 0 || !strings.Contains(logs.String(), "sender="+string(ann.cli.UserID)) {
			if !sleep(ctx, 20*time.Millisecond) {
				t.Fatal("the bot never logged that ann's client withholds its keys")
			}
		}
		if !strings.Contains(logs.String(), "code="+string(event.RoomKeyWithheldUnverified)) {
			t.Error("the withheld log does not say why (m.unverified)")
		}
		// carol, who shares keys with every device, still gets answers;
		// hers comes after ann's command was handled.
		c, _ := ann.replyTo(t, ctx, carol.say(t, ctx, room, "!go help"))
		if !strings.Contains(c.Body, "!go") {
			t.Errorf("carol's help: %q", c.Body)
		}
		if n := ann.answers(cmd); n != 0 {
			t.Fatalf("the unsigned bot answered ann's command %d times, though her client withholds its keys", n)
		}
		if n := logs.count("Failed to decrypt"); n != 0 {
			t.Errorf("mautrix's warning for each undecryptable message is in the log %d times; the withheld key is said once", n)
		}
		t.Logf("the bot without cross-signing cannot read ann's command, as Element's strict mode would have it")
		return
	}

	// mautrix (the players' client here) stores a fetched device before
	// its owner's cross-signing keys, so a message sent while it fetches
	// could find the bot's device without them and withhold its key: the
	// players first wait until their clients trust the bot's device.
	for _, h := range []*human{ann, bob} {
		waitTrusted(t, ctx, h, botID, bot.adapter.cli.DeviceID)
	}
	ask := func(h *human, text string, want string, pills ...*mautrix.Client) {
		t.Helper()
		cmd := h.say(t, ctx, room, text, pills...)
		evt, _ := ann.wait(t, ctx, 0, "an answer to "+text, func(e *event.Event) bool {
			c := e.Content.AsMessage()
			return c.MsgType == event.MsgNotice && c.RelatesTo.GetReplyTo() == cmd
		})
		if c := evt.Content.AsMessage(); !strings.Contains(c.Body, want) {
			t.Fatalf("the bot answered %q with %q; want %q in it", text, c.Body, want)
		}
		if evt.Mautrix.TrustState < id.TrustStateCrossSignedTOFU {
			t.Errorf("ann's client trusts the bot's answer to %q only as %s (Element would show a warning shield)", text, evt.Mautrix.TrustState)
		}
	}
	ask(ann, "!go challenge {bob} 5 black", "challenges bob", bob.cli)
	ask(bob, "!go accept", "Game #1 begins")
	ask(ann, "!go play C3", "ann played C3")
	ask(bob, "!go play B3", "bob played B3")
	ask(ann, "!go play D2", "ann played D2")
	ask(bob, "!go pass", "bob passed")
	ask(ann, "!go pass", "Scoring:")
	ask(ann, "!go done", "ann accepts the count")
	ask(bob, "!go done", "Game over")
	if n := logs.count("withholds its room keys"); n != 0 {
		t.Errorf("keys were withheld from the cross-signed bot %d times", n)
	}
}

// waitTrusted waits until h's client trusts the bot's device as
// cross-signed.
func waitTrusted(t *testing.T, ctx context.Context, h *human, bot id.UserID, device id.DeviceID) {
	t.Helper()
	mach := h.cli.Crypto.(*cryptohelper.CryptoHelper).Machine()
	trust := id.TrustStateUnset
	for {
		if dev, err := mach.GetOrFetchDevice(ctx, bot, device); err == nil {
			if trust, _ = mach.ResolveTrustContext(ctx, dev); trust >= id.TrustStateCrossSignedTOFU {
				return
			}
		}
		if !sleep(ctx, 50*time.Millisecond) {
			t.Fatalf("%s's client never trusted the bot's device (last: %s)", h.name, trust)
		}
	}
}

// TestCrossSigningIdentity follows the bot's identity through restarts,
// a lost crypto store, keys changed by another client and a reset.
func TestCrossSigningIdentity(t *testing.T) {
	t.Parallel()
	ctx := waitCtx(t)
	hs := startDendrite(t)
	botID := register(t, ctx, hs, "gobot").UserID
	c := &checker{t: t, ctx: ctx, hs: hs}
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	cfg := Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot", Encryption: true}
	db1, db2 := filepath.Join(t.TempDir(), "gobot.db"), filepath.Join(t.TempDir(), "gobot.db")
	start := func(cfg Config, db string) (*runningBot, *syncBuffer, error) {
		t.Helper()
		out := &syncBuffer{}
		b, err := tryBot(t, ctx, cfg, db, logs, func(a *Adapter) { a.recoveryOut = out })
		return b, out, err
	}
	signedBy := func(b *runningBot, master id.Ed25519) {
		t.Helper()
		if b.master() != master {
			t.Fatalf("the bot uses master key %s, want %s", b.master(), master)
		}
		if m, trust := c.trust(botID, b.adapter.cli.DeviceID); m != master || trust != id.TrustStateCrossSignedTOFU {
			t.Fatalf("a human's client sees master key %q, device trust %s; want %s, %s", m, trust, master, id.TrustStateCrossSignedTOFU)
		}
	}

	// First start: a new identity; the recovery key is printed once.
	b, out, err := start(cfg, db1)
	if err != nil {
		t.Fatal(err)
	}
	rk1 := recoveryKey(t, out.String())
	if logs.count(rk1) != 1 {
		t.Errorf("the recovery key is in the log %d times, want once", logs.count(rk1))
	}
	m1 := b.master()
	if m1 == "" {
		t.Fatal("the bot has no master key")
	}
	signedBy(b, m1)
	device1 := b.adapter.cli.DeviceID
	b.stop()

	// A restart keeps identity and device, and prints nothing.
	b, out, err = start(cfg, db1)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("the restarted bot printed %q", out)
	}
	if b.adapter.cli.DeviceID != device1 {
		t.Errorf("after a restart the bot uses device %s, not %s", b.adapter.cli.DeviceID, device1)
	}
	signedBy(b, m1)
	b.stop()

	// A new crypto store (a new device) without the recovery key: a clear
	// error, no new identity.
	if _, _, err := start(cfg, db2); !errors.Is(err, ErrIdentityKeysMissing) || !strings.Contains(err.Error(), "matrix.recovery_key") {
		t.Fatalf("a new crypto store without the recovery key: %v; want %v naming matrix.recovery_key", err, ErrIdentityKeysMissing)
	}
	if m, _ := c.trust(botID, device1); m != m1 {
		t.Fatalf("the failed start changed the bot's master key to %s", m)
	}
	// A wrong recovery key is refused.
	bad := cfg
	bad.RecoveryKey = "EsTc 5rr1 4Jcs 7n7R 6rzQ QKhm pH9E oe6m LKvz dbAK yzs1 kFzK"
	if _, _, err := start(bad, db2); !errors.Is(err, ErrRecoveryKey) {
		t.Fatalf("a wrong recovery key: %v; want %v", err, ErrRecoveryKey)
	}
	// With the recovery key, the new device signs itself with the same
	// identity.
	withKey := cfg
	withKey.RecoveryKey = rk1
	b, out, err = start(withKey, db2)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("the bot restored with its recovery key printed %q", out)
	}
	device2 := b.adapter.cli.DeviceID
	if device2 == device1 {
		t.Fatal("the new crypto store uses the old device")
	}
	signedBy(b, m1)
	b.stop()

	// Another client replaces the bot's cross-signing keys.
	rk2, m2 := otherClientResets(t, ctx, hs, botID)
	_, _, err = start(cfg, db1)
	if !errors.Is(err, ErrIdentityMismatch) {
		t.Fatalf("after the keys changed elsewhere: %v; want %v", err, ErrIdentityMismatch)
	}
	for _, fix := range []string{"matrix.recovery_key", "matrix.reset_cross_signing"} {
		if !strings.Contains(err.Error(), fix) {
			t.Errorf("the mismatch error does not name %s: %v", fix, err)
		}
	}
	// The old recovery key opens nothing current.
	if _, _, err := start(withKey, db1); !errors.Is(err, ErrRecoveryKey) {
		t.Fatalf("the old recovery key after the change: %v; want %v", err, ErrRecoveryKey)
	}
	// The new identity's recovery key adopts it.
	adopt := cfg
	adopt.RecoveryKey = rk2
	b, _, err = start(adopt, db1)
	if err != nil {
		t.Fatal(err)
	}
	signedBy(b, m2)
	b.stop()

	// The reset replaces the identity the other device holds (device 2
	// still has m1) with a new one, confirmed with the password.
	if _, _, err := start(cfg, db2); !errors.Is(err, ErrIdentityMismatch) {
		t.Fatalf("device 2 after the change: %v; want %v", err, ErrIdentityMismatch)
	}
	reset := cfg
	reset.ResetCrossSigning = true
	// Replacing keys needs the password (user-interactive auth): a wrong
	// one is refused by the homeserver, and nothing changes.
	wrong := reset
	wrong.Password = "not-the-password"
	if _, out, err := start(wrong, db2); !errors.Is(err, ErrCrossSigningUpload) || out.String() != "" {
		t.Fatalf("a reset with a wrong password: %v, printed %q; want %v and nothing printed", err, out, ErrCrossSigningUpload)
	}
	if m, _ := c.trust(botID, device1); m != m2 {
		t.Fatalf("the refused reset changed the master key to %s", m)
	}
	b, out, err = start(reset, db2)
	if err != nil {
		t.Fatal(err)
	}
	rk3 := recoveryKey(t, out.String())
	if rk3 == rk1 || rk3 == rk2 || b.master() == m1 || b.master() == m2 {
		t.Fatal("the reset kept an old identity")
	}
	signedBy(b, b.master())
	b.stop()
	// Left on, the reset does nothing more.
	b, out, err = start(reset, db2)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "" {
		t.Errorf("a second start with the reset on printed %q", out)
	}
	if logs.count("nothing reset") != 1 {
		t.Error("the bot did not say that the reset setting did nothing")
	}
	b.stop()
}

// otherClientResets logs in as the bot from another client and gives
// the account a new cross-signing identity, as Element's "reset
// cryptographic identity" does; it returns the recovery key and master
// key.
func otherClientResets(t *testing.T, ctx context.Context, hs string, bot id.UserID) (string, id.Ed25519) {
	t.Helper()
	cli, err := mautrix.NewClient(hs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cli.Login(ctx, &mautrix.ReqLogin{Type: mautrix.AuthTypePassword, Password: "password-gobot",
		Identifier: mautrix.UserIdentifier{Type: mautrix.IdentifierTypeUser, User: string(bot)}, StoreCredentials: true}); err != nil {
		t.Fatal(err)
	}
	humanCrypto(t, ctx, cli)
	mach := cli.Crypto.(*cryptohelper.CryptoHelper).Machine()
	rk, keys, err := mach.GenerateAndUploadCrossSigningKeysWithPassword(ctx, "password-gobot", "")
	if err != nil {
		t.Fatalf("the other client's reset: %v", err)
	}
	return rk, keys.MasterKey.PublicKey()
}

// The withheld log says it once per room, sender and reason.
func TestWithheldLoggedOnce(t *testing.T) {
	logs := &logBuffer{}
	w := &withheldLog{log: slog.New(slog.NewTextHandler(logs, nil))}
	send := func(room id.RoomID, sender id.UserID, code event.RoomKeyWithheldCode, reason string) {
		w.handle(context.Background(), &event.Event{Sender: sender, Type: event.ToDeviceRoomKeyWithheld,
			Content: event.Content{Parsed: &event.RoomKeyWithheldEventContent{RoomID: room, Algorithm: id.AlgorithmMegolmV1, Code: code, Reason: reason}}})
	}
	long := strings.Repeat("x", 5000)
	send("!a:x", "@ann:x", event.RoomKeyWithheldUnverified, long)
	send("!a:x", "@ann:x", event.RoomKeyWithheldUnverified, "again")
	send("!a:x", "@bob:x", event.RoomKeyWithheldUnverified, "")
	send("!b:x", "@ann:x", event.RoomKeyWithheldUnverified, "")
	send("!a:x", "@ann:x", event.RoomKeyWithheldBlacklisted, "")
	if n := logs.count("withholds its room keys"); n != 4 {
		t.Errorf("logged %d times, want 4 (once per room, sender and code):\n%s", n, logs)
	}
	if strings.Contains(logs.String(), long[:300]) {
		t.Error("a long reason was logged unclipped")
	}
	if !strings.Contains(logs.String(), "verified devices") {
		t.Error("no hint for m.unverified")
	}
}
