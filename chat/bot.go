package chat

import (
	"context"
	"log/slog"
	"strings"
	"time"
)

// ArgKind says what an argument is, so help, usage errors and each
// platform's typed options come from one declaration.
type ArgKind uint8

const (
	ArgText      ArgKind = iota // free text
	ArgUser                     // a user: "@discord:1234"
	ArgPoint                    // a board point: "D4"
	ArgGame                     // a game reference: "#7"
	ArgChallenge                // a challenge reference: "#3"
	ArgSize                     // "19", "13x9"
	ArgRules                    // a preset name
	ArgColor                    // black, white, random
	ArgKomi                     // komi=6.5
	ArgHandicap                 // handicap=2
	ArgClock                    // clock=3d, clock=fischer:3d+1d/7d
	ArgChoice                   // one of Choices
)

// Arg declares one argument of a command.
type Arg struct {
	Name     string
	Kind     ArgKind
	Required bool
	Repeat   bool // may be given several times (dead D4 Q16)
	Help     string
	Choices  []string
}

// Command declares a command: its name, arguments and help text. The
// router, `help`, usage errors and the Discord command registration are
// all generated from this one declaration.
type Command struct {
	Name    string
	Aliases []string
	Summary string // one line
	Help    string // more detail for `help <command>`
	Args    []Arg
	// Admin commands are for room admins only.
	Admin bool
	run   func(ctx context.Context, b *Bot, r *Request) (Reply, error)
}

// Choice is an autocomplete suggestion.
type Choice struct {
	Name  string // shown
	Value string // sent back
}

// Config holds the bot's defaults, used where a room has no setting.
type Config struct {
	Rules  string // default preset or rules spec ("japanese")
	Width  int    // default board size
	Height int
	Komi   *float64 // nil: the ruleset's default for size and handicap
	Clock  string   // default clock spec: "none", "3d", "fischer:3d+1d/7d"
	// Reminders are how long before a deadline to remind the player to
	// move (default 24h and 1h).
	Reminders []time.Duration
	// EventTTL is how long handled event IDs are remembered (default 7 days).
	EventTTL time.Duration
	// Prefix is how commands are written in text ("!go" on Matrix); it is
	// used in help texts. Adapters may override per reply via FormatText.
	Prefix string
}

// FormatText replaces every mention token <@UserID> in text with what
// mention returns for that user.
func FormatText(text string, mention func(UserID) string) string {
	var sb strings.Builder
	for {
		i := strings.Index(text, "<@")
		if i < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		j := strings.IndexByte(text[i:], '>')
		if j < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		sb.WriteString(text[:i])
		sb.WriteString(mention(UserID(text[i+2 : i+j])))
		text = text[i+j+1:]
	}
}

// Mention writes the mention token for u, for use in Reply.Text.
func Mention(u UserID) string { return "<@" + string(u) + ">" }

// Bot is the platform-neutral bot. It is safe for concurrent use.
type Bot struct {
	cfg       Config
	store     Store
	render    Renderer
	clock     Clock
	log       *slog.Logger
	notifiers map[string]Notifier // by platform ("discord")
}

// New returns a bot over store, drawing with r, telling time with clock.
func New(cfg Config, store Store, r Renderer, clock Clock, log *slog.Logger) *Bot {
	return &Bot{cfg: cfg, store: store, render: r, clock: clock, log: log, notifiers: map[string]Notifier{}}
}

// SetNotifier registers the notifier for a platform ("discord", "matrix",
// "console"); messages to users and rooms of that platform go through it.
// Call before Run.
func (b *Bot) SetNotifier(platform string, n Notifier) { b.notifiers[platform] = n }

// Handle answers one request. It never panics on bad input; every
// mistake comes back as a Reply with Error set.
func (b *Bot) Handle(ctx context.Context, r Request) Reply {
	return Reply{Text: "gobot is still being built", Error: true, Private: true}
}

// Commands returns the command declarations, for help and for platforms
// that register commands (Discord).
func (b *Bot) Commands() []Command { return nil }

// Complete suggests values for argument arg of command cmd, given what the
// user has typed so far (Discord autocomplete): the caller's active games
// for a game reference, legal points for play.
func (b *Bot) Complete(ctx context.Context, r Request, cmd, arg, typed string) []Choice {
	return nil
}

// ThreadCreated tells the bot that the adapter opened room as game's
// thread; the game's updates go there from now on.
func (b *Bot) ThreadCreated(ctx context.Context, game GameID, room RoomID) error { return nil }

// Run drives the clock: reminders and timeouts, until ctx ends.
func (b *Bot) Run(ctx context.Context) error {
	<-ctx.Done()
	return nil
}
