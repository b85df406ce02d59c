// Package matrix is gobot's Matrix adapter and the only importer of
// mautrix. It logs in, syncs, turns messages that start with the command
// prefix into protocol.Requests and presents each protocol.Reply as Matrix events:
// an HTML notice with pills, the board as an uploaded m.image, SGF as
// m.file, in reply to the command or in the game's thread. It holds no
// game logic.
//
// End-to-end encryption needs the build tag goolm (see crypto_goolm.go).
package matrix

import (
	"context"
	"io"
	"log/slog"
	"net/netip"
	"sync"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Handler is the part of *chat.Bot the adapter uses.
type Handler interface {
	// Respond answers a request; then sends what the command made for
	// others and is called once the caller is answered (chat.Bot.Respond).
	Respond(ctx context.Context, r protocol.Request) (rep protocol.Reply, then func(context.Context))
	ThreadCreated(ctx context.Context, id gobot.GameID, room gobot.RoomID) error
	Commands() []chat.Command
	// Delivered records that the reply to an event was sent (see
	// protocol.Request.Outbox).
	Delivered(ctx context.Context, eventID gobot.EventID) error
}

// stateNS is the adapter's namespace in storage's State.
const stateNS = "matrix"

// Adapter connects one Matrix account to the bot. Create it with New,
// register it with bot.SetNotifier(matrix.Platform, a) and call Run.
type Adapter struct {
	cfg      Config
	platform *protocol.Platform // Descriptor(cfg.Prefix), on every request
	bot      Handler
	state    gobot.State
	log      *slog.Logger

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
	// wg counts the goroutines the adapter starts besides Run's (see
	// spawn); Run waits for them before it returns.
	wg sync.WaitGroup

	// recent remembers the messages dispatched lately: a backfill may
	// overlap what a sync already delivered. Across restarts, chat's
	// event marks and outbox tell a command handed over again.
	recent recentIDs
	// sent remembers the bot's own events by transaction ID, and a
	// reply handed over again waits resendSettle for a send the last
	// process left in flight (send.go).
	sent         sentTxns
	resendSettle time.Duration

	// fed asks other homeservers about widgets' OpenID tokens (openid.go).
	fed fedClient
	// lookup resolves a homeserver's name for the OpenID guard
	// (openidguard.go); nil: the system's resolver. Tests name theirs.
	lookup func(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// New returns an adapter for cfg that hands requests to bot and keeps
// its session, sync position and DM rooms in state. cfg.CryptoStore must
// be set for encryption. It does no I/O; Run logs in.
func New(cfg Config, bot Handler, state gobot.State, log *slog.Logger) (*Adapter, error) {
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
	a := &Adapter{cfg: cfg, platform: Descriptor(cfg.Prefix), bot: bot, state: state, log: log.With("adapter", Platform),
		timelineLimit: 50, retryBase: time.Second, resendSettle: time.Second,
		ready: make(chan struct{}), known: map[string]bool{}, rooms: map[id.RoomID]*roomCache{}}
	for _, c := range bot.Commands() {
		a.known[c.Name] = true
		for _, al := range c.Aliases {
			a.known[al] = true
		}
	}
	return a, nil
}

// spawn runs fn in a goroutine that Run waits for before it returns
// (and before the crypto store closes).
func (a *Adapter) spawn(fn func()) { a.wg.Go(fn) }

// Run logs in, then syncs until ctx ends, handling commands as they
// come. Network failures are retried with backoff; it returns early
// only when the login is refused or the crypto store cannot be used.
func (a *Adapter) Run(ctx context.Context) error {
	if err := a.login(ctx); err != nil {
		return err
	}
	syncer := mautrix.NewDefaultSyncer()
	a.cli.Syncer = syncer
	syncer.OnSync(a.noteSent) // first: prepareSync may drop events
	syncer.OnSync(a.prepareSync)
	if a.cfg.Encryption {
		pk, err := a.pickleKey()
		if err != nil {
			return err
		}
		c, err := newCrypto(ctx, a.cli, a.cfg.CryptoStore, pk, a.log, a.spawn)
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
	// Deferred after the crypto store's Close, so it runs before it.
	defer a.wg.Wait()
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
