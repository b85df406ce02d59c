package chat

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/deliver"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
)

// Config holds the bot's defaults, used where a room has no setting.
type Config struct {
	// Platforms are the chat platforms this deployment serves (each
	// adapter's descriptor), whether or not this process runs their
	// adapter: the web board words a game's hints as its room's platform
	// types commands (Bot.Platform). An adapter this process runs is
	// registered with its notifier (Bot.Register).
	Platforms []*protocol.Platform
	Rules     string // default preset or rules spec ("japanese")
	Width     int    // default board size
	Height    int
	Komi      *float64 // nil: the ruleset's default for size and handicap
	Clock     string   // default clock spec: "none", "3d", "fischer:3d+1d/7d"
	// Reminders are how long before a deadline to remind the player to
	// move (default 24h and 1h).
	Reminders []time.Duration
	// EventTTL is how long handled event IDs are remembered (default 7 days).
	EventTTL time.Duration
	// Tick is how often Run looks for due clocks (default 30s).
	Tick time.Duration
	// ClaimTTL is how long the messages of a due clock or an engine's
	// move stay claimed by the process that decided them (default 2m):
	// if it has not sent them by then (it died), another process sends
	// them. Longer than a send may take.
	ClaimTTL time.Duration
	// Holder names this process in claims, for the logs (default
	// host:pid).
	Holder string
	// RateEngineGames makes games against an engine rated like games
	// between people (even games on 9, 13 and 19; the engine gets a
	// rating of its own in the community). Off by default: engine games
	// are unrated.
	RateEngineGames bool
	// Vacation: the vacation allowance (vacation.go).
	Vacation flow.VacationConfig
	// Communities are the joined communities (docs/identity.md): a
	// request from one of their members is of the joined community
	// (Respond maps it), so that its ratings, leaderboard, tournaments
	// and ladders are the community's.
	Communities gobot.Communities
}

// Bot is the platform-neutral bot: the router over a store, and the
// notifiers it sends through. It is safe for concurrent use.
type Bot struct {
	*core
	store     gobot.Store
	notifiers deliver.Notifiers // by platform ("discord")
	// wake tells the runner's loop (Run) that a command changed
	// something: it looks again for the next work due on time.
	wake chan struct{}
}

// core is what handlers and the clock's jobs read besides their
// transaction: configuration, the command declarations, the engines, the
// renderer, the logger and the time. It has no store: work inside a
// transaction can only use the transaction it was handed.
type core struct {
	cfg        Config
	render     Renderer
	timeSource TimeSource
	log        *slog.Logger
	commands   []Command
	byName     map[string]*Command
	jobs       []*job       // the timed jobs (runner.go)
	eng        *engineState // computer opponents (engine.go)
	web        webLinks     // the web board's link minting (web.go)
	platforms  sync.Map     // registered descriptors by name (Register)
}

type systemTime struct{}

func (systemTime) Now() time.Time { return time.Now() }

// New returns a bot over store, drawing with r, telling time with ts
// (nil: the system's time).
func New(cfg Config, store gobot.Store, r Renderer, ts TimeSource, log *slog.Logger) *Bot {
	if ts == nil {
		ts = systemTime{}
	}
	if log == nil {
		log = slog.Default()
	}
	if cfg.Rules == "" {
		cfg.Rules = "japanese"
	}
	if cfg.Width == 0 {
		cfg.Width, cfg.Height = 19, 19
	}
	if cfg.Height == 0 {
		cfg.Height = cfg.Width
	}
	if cfg.Reminders == nil {
		cfg.Reminders = []time.Duration{24 * time.Hour, time.Hour}
	}
	// Longest first, on a copy: the caller's slice is left as it was.
	cfg.Reminders = slices.Clone(cfg.Reminders)
	slices.SortFunc(cfg.Reminders, func(a, b time.Duration) int { return cmp.Compare(b, a) })
	if cfg.EventTTL == 0 {
		cfg.EventTTL = 7 * 24 * time.Hour
	}
	if cfg.Tick == 0 {
		cfg.Tick = 30 * time.Second
	}
	if cfg.ClaimTTL == 0 {
		cfg.ClaimTTL = 2 * time.Minute
	}
	cfg.Vacation.SetDefaults()
	if cfg.Holder == "" {
		host, _ := os.Hostname()
		cfg.Holder = fmt.Sprintf("%s:%d", host, os.Getpid())
	}
	b := &Bot{core: &core{cfg: cfg, render: r, timeSource: ts, log: log, eng: &engineState{}}, store: gobot.Fenced(store),
		wake: make(chan struct{}, 1)}
	b.commands = commands()
	b.jobs = jobs()
	b.byName = map[string]*Command{}
	for i := range b.commands {
		c := &b.commands[i]
		b.byName[c.Name] = c
		for _, a := range c.Aliases {
			b.byName[a] = c
		}
	}
	return b
}

// Now is the bot's time (its TimeSource). Adapters stamp a request's
// Arrived with it as the event arrives (a Clock).
func (b *Bot) Now() time.Time { return b.timeSource.Now() }

// A Clock tells the bot's time; *Bot is one. An adapter whose handler is
// one stamps each request's Arrived with it.
type Clock interface {
	Now() time.Time
}

// Register registers an adapter this process runs: its descriptor (the
// platform's name and rules, which Platform gives to the web board) and
// its notifier, through which messages to the platform's users and rooms
// go (SetNotifier). One registration per adapter.
func (b *Bot) Register(p *protocol.Platform, n Notifier) {
	b.platforms.Store(p.Name, p)
	b.SetNotifier(p.Name, n)
}

// Platform is the descriptor of the platform named name: registered, or
// among Config.Platforms; nil when unknown (a plain platform).
func (b *core) Platform(name string) *protocol.Platform {
	if p, ok := b.platforms.Load(name); ok {
		return p.(*protocol.Platform)
	}
	for _, p := range b.cfg.Platforms {
		if p.Name == name {
			return p
		}
	}
	return nil
}

// SetNotifier registers the notifier for a platform ("discord", "matrix",
// "console"); messages to users and rooms of that platform go through it.
// A nil n removes it: the process cannot deliver to that platform now
// (a standby Matrix process), and its clock loop leaves that platform's
// due games to a process that can. Safe to call while the bot runs.
func (b *Bot) SetNotifier(platform string, n Notifier) { b.notifiers.Set(platform, n) }

// SetLeasedNotifier registers n for platform while this process holds
// the lease whose term ctx carries (ctx is HoldLease's work context): the
// clock's claims and engine turns in that platform's games check the
// term in their transactions, so a process that lost the lease without
// noticing yet claims nothing there. n is removed when ctx ends.
func (b *Bot) SetLeasedNotifier(ctx context.Context, platform string, n Notifier) {
	b.notifiers.SetLeased(ctx, platform, n)
}

// CanDeliver reports whether the bot has a notifier for platform now.
func (b *Bot) CanDeliver(platform string) bool { return b.notifiers.Can(platform) }

// Commands returns the command declarations, for help and for platforms
// that register commands (Discord).
func (b *core) Commands() []Command { return append([]Command(nil), b.commands...) }

// cmd writes a command for the user to type, as a token each adapter
// renders in its own syntax ("/go accept #7", "!go accept #7").
func (b *core) cmd(s string) string { return protocol.Cmd(s) }

// notify sends m through the platform's notifier, logging failures. It
// is for messages whose transaction has committed (carryOut).
func (b *Bot) notify(ctx context.Context, m protocol.Message) {
	n, ok := b.notifiers.Get(deliver.Platform(m))
	if !ok {
		b.log.Warn("notification dropped: this process serves no adapter of its platform", "room", m.Room, "to", m.To, "platform", deliver.Platform(m))
		return
	}
	if err := b.present(&m.Reply); err != nil {
		b.log.Warn("notification not drawn", "room", m.Room, "to", m.To, "err", err)
	}
	if err := n.Notify(ctx, m); err != nil {
		b.log.Warn("notification failed", "room", m.Room, "to", m.To, "err", err)
	}
}

// carryOut does what a committed transaction left to be done: it sends
// the notices and starts the engines' turns.
func (b *Bot) carryOut(ctx context.Context, fx Effects) {
	for _, m := range fx.Notices {
		b.notify(ctx, m)
	}
	for _, id := range fx.Wake {
		b.startEngineTurn(id)
	}
}
