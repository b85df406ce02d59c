// Package discord connects gobot to Discord: one /go application command
// with a subcommand per chat command, buttons, board images, turn pings;
// over the gateway (a bot token) or as an HTTP interactions endpoint
// (Discord signs each request with the application's Ed25519 key). It
// translates; every decision is the chat package's. It is the only
// importer of discordgo.
package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/httpserver"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Platform prefixes Discord user and channel IDs ("discord:1234").
const Platform = "discord"

// Config is the Discord adapter's configuration.
type Config struct {
	// Mode is "gateway" (default; a long-running connection with the bot
	// token) or "http" (Discord POSTs interactions to Listen + Path).
	Mode          string
	Token         string // bot token (both modes: REST calls need it)
	ApplicationID string
	PublicKey     string // hex Ed25519 public key (http mode; with the Activity, also checks its proxied requests)
	Listen        string // http mode address, default 127.0.0.1:8080
	Path          string // default /interactions
	GuildIDs      []string
	// Timeouts bound an http mode connection: its headers, its whole
	// request, the answer, idle between requests (zero:
	// httpserver.Default, the web board's).
	Timeouts httpserver.Timeouts
	// UserInstall registers /go globally for both install types (a
	// server's, and a user's own: then it works in any DM, group DM or
	// server that allows external apps) and all contexts. Off: the
	// command goes to GuildIDs (or globally) as a server-only command.
	UserInstall bool
	// ShardID and ShardCount pin the gateway connection to one shard
	// (default 0 of 1). AutoShards asks Discord (GET /gateway/bot) for the
	// recommended count instead and runs the shards no other process holds
	// (see Hold).
	ShardID    int
	ShardCount int
	AutoShards bool
	// Hold, when set, runs work while this process holds the lease name
	// (renewing it; work's context ends when the lease is lost) and
	// returns ErrLeaseHeld at once when another process holds it. With it,
	// processes sharing a store split the shards (AutoShards) and register
	// the command once. Nil: this process is alone.
	Hold func(ctx context.Context, name string, work func(ctx context.Context) error) error
	// LeaseRound is how often a process with AutoShards looks for a free
	// shard (it takes at most one per round); default 5s.
	LeaseRound time.Duration
	// APIURL is the REST base ("https://discord.com/api/v9/"), and
	// GatewayURL the websocket URL; both default to Discord's own.
	APIURL     string
	GatewayURL string
	// Activity: a game's "Open board" button launches the web board as a
	// Discord Activity (LAUNCH_ACTIVITY) instead of answering with a
	// personal link; ClientSecret is the application's OAuth2 secret the
	// Activity's sign-in needs (activity.go).
	Activity     bool
	ClientSecret string
}

// ErrLeaseHeld is what Config.Hold returns when another process holds
// the lease.
var ErrLeaseHeld = errors.New("discord: another process holds the lease")

// Handler is the part of *chat.Bot the adapter uses.
type Handler interface {
	// Respond answers a request; then sends what the command made for
	// others and is called once the caller is answered (chat.Bot.Respond).
	Respond(ctx context.Context, r protocol.Request) (rep protocol.Reply, then func(context.Context))
	Commands() []chat.Command
	Complete(ctx context.Context, r protocol.Request, cmd, arg, typed string) []chat.Choice
	ThreadCreated(ctx context.Context, id gobot.GameID, room gobot.RoomID) error
}

// MaxBody is the largest interaction request body accepted.
const MaxBody = 1 << 20

// MaxSkew is how far an interaction's timestamp may be from now.
const MaxSkew = 5 * time.Minute

// Adapter is one Discord application.
type Adapter struct {
	cfg   Config
	bot   Handler
	state gobot.State // nil: register every start
	log   *slog.Logger
	s     *discordgo.Session // REST calls (never opened)
	tr    *transport
	pub   ed25519.PublicKey
	now   func() time.Time
	// retryBase is the first wait before a failed registration is tried
	// again (doubling to 5 minutes); tests shorten it.
	retryBase time.Duration
	cmds      map[string]chat.Command

	mu      sync.Mutex
	closing bool           // no new gateway interaction is started
	wg      sync.WaitGroup // interactions and follow-ups in flight
	shards  map[int]bool   // AutoShards: shards being taken or held
	ch      channels       // channels where gobot is no member (context.go)
}

// New checks the config and prepares the adapter (no network yet).
func New(cfg Config, bot Handler, state gobot.State, log *slog.Logger) (*Adapter, error) {
	if cfg.Mode == "" {
		cfg.Mode = "gateway"
	}
	if cfg.Listen == "" {
		cfg.Listen = "127.0.0.1:8080"
	}
	if cfg.Path == "" {
		cfg.Path = "/interactions"
	}
	if cfg.ShardCount == 0 {
		cfg.ShardCount = 1
	}
	if cfg.ShardID < 0 || cfg.ShardID >= cfg.ShardCount {
		return nil, fmt.Errorf("discord: shard %d is not between 0 and shard count %d - 1", cfg.ShardID, cfg.ShardCount)
	}
	if cfg.LeaseRound <= 0 {
		cfg.LeaseRound = 5 * time.Second
	}
	if log == nil {
		log = slog.Default()
	}
	a := &Adapter{cfg: cfg, bot: bot, state: state, log: log.With("adapter", Platform), now: time.Now, retryBase: time.Second,
		cmds: map[string]chat.Command{}, shards: map[int]bool{},
		ch: channels{noBot: map[string]bool{}, latest: map[string]*live{}}}
	for _, c := range bot.Commands() {
		a.cmds[c.Name] = c
	}
	if cfg.PublicKey != "" || cfg.Mode == "http" {
		// Signs HTTP interactions, and (either mode) the Activity's
		// requests through Discord's proxy (ProxyUser).
		key, err := hex.DecodeString(cfg.PublicKey)
		if err != nil || len(key) != ed25519.PublicKeySize {
			return nil, errors.New("discord: public_key must be the application's 64-hex-digit public key")
		}
		a.pub = key
	}
	switch cfg.Mode {
	case "gateway":
		if cfg.Token == "" {
			return nil, errors.New("discord: the gateway needs a bot token")
		}
	case "http":
		if cfg.ApplicationID == "" {
			return nil, errors.New("discord: http mode needs the application ID")
		}
	default:
		return nil, fmt.Errorf("discord: mode %q is not gateway or http", cfg.Mode)
	}
	if cfg.Activity && (cfg.ApplicationID == "" || cfg.ClientSecret == "") {
		return nil, errors.New("discord: the Activity needs the application ID and its client secret (discord.application_id, discord.client_secret)")
	}
	a.tr = &transport{gateway: cfg.GatewayURL, next: http.DefaultTransport}
	if cfg.APIURL != "" {
		if err := a.setAPIBase(cfg.APIURL); err != nil {
			return nil, err
		}
	}
	s, err := a.session(cfg.ShardID, cfg.ShardCount)
	if err != nil {
		return nil, err
	}
	a.s = s
	return a, nil
}

// setAPIBase sends this adapter's REST calls to base.
func (a *Adapter) setAPIBase(base string) error {
	u, err := parseAPIBase(base)
	if err != nil {
		return err
	}
	a.tr.api.Store(u)
	return nil
}

// session makes a discordgo session for shard id of count, its HTTP
// calls going through the adapter's transport.
func (a *Adapter) session(id, count int) (*discordgo.Session, error) {
	s, err := discordgo.New("Bot " + a.cfg.Token)
	if err != nil {
		return nil, err
	}
	s.Client = &http.Client{Timeout: 20 * time.Second, Transport: a.tr}
	s.ShardID, s.ShardCount = id, count
	s.Identify.Intents = discordgo.IntentsGuilds | discordgo.IntentsDirectMessages
	s.ShouldRetryOnRateLimit = true
	// Handlers run in the event loop: the adapter's own handler only
	// counts the interaction in the WaitGroup and starts it.
	s.SyncEvents = true
	return s, nil
}

// Run registers the commands (when they changed, by one process) and
// serves interactions until ctx ends. It returns once every interaction
// in flight is answered: the store may close after it. A registration
// Discord refuses (*RefusedError) ends Run with that error.
func (a *Adapter) Run(ctx context.Context) (err error) {
	var bg sync.WaitGroup
	defer bg.Wait()
	sctx, stopServing := context.WithCancelCause(ctx)
	defer stopServing(nil) // before bg.Wait: Run may end on an error
	bg.Add(1)
	go func() {
		defer bg.Done()
		if err := a.registerOnce(sctx); err != nil {
			stopServing(err) // Run returns it: said once, by whoever runs the adapter
		}
	}()
	defer func() {
		var refused *RefusedError
		if cause := context.Cause(sctx); errors.As(cause, &refused) {
			err = refused
		}
	}()
	if a.cfg.Mode == "http" {
		ln, err := net.Listen("tcp", a.cfg.Listen)
		if err != nil {
			return fmt.Errorf("discord: %w", err)
		}
		return a.Serve(sctx, ln)
	}
	defer a.drain()
	if a.cfg.AutoShards {
		return a.runAutoShards(sctx)
	}
	return a.runShard(sctx, a.cfg.ShardID, a.cfg.ShardCount, nil)
}

// drain stops new gateway interactions and waits for those in flight.
func (a *Adapter) drain() {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	a.wg.Wait()
}

// runShard connects to the gateway as shard id of count and serves its
// interactions until ctx ends. started, when not nil, is called first.
func (a *Adapter) runShard(ctx context.Context, id, count int, started func()) error {
	if started != nil {
		started()
	}
	s, err := a.session(id, count)
	if err != nil {
		return err
	}
	// Commands run to the end even when ctx ends meanwhile (shutdown,
	// lease lost): drain waits for them.
	hctx := context.WithoutCancel(ctx)
	s.AddHandler(func(s *discordgo.Session, ic *discordgo.InteractionCreate) {
		a.mu.Lock()
		if a.closing {
			a.mu.Unlock()
			a.log.Warn("shutting down: dropped an interaction", "id", ic.ID)
			return
		}
		a.wg.Add(1)
		a.mu.Unlock()
		go func() {
			defer a.wg.Done()
			cctx, cancel := context.WithTimeout(hctx, commandTimeout)
			defer cancel()
			a.gatewayInteraction(cctx, ic.Interaction)
		}()
	})
	if err := s.Open(); err != nil {
		return fmt.Errorf("discord gateway (shard %d of %d): %w", id, count, err)
	}
	a.log.Info("connected to the gateway", "shard", id, "shards", count)
	<-ctx.Done()
	err = s.Close()
	a.log.Info("left the gateway", "shard", id, "shards", count)
	return err
}

// commandTimeout bounds one gateway interaction, so shutdown cannot hang
// on a store that stopped answering.
const commandTimeout = time.Minute

// Serve answers interactions over HTTP on ln until ctx ends.
func (a *Adapter) Serve(ctx context.Context, ln net.Listener) error {
	mux := http.NewServeMux()
	mux.Handle(a.cfg.Path, a)
	srv := a.cfg.Timeouts.OrDefault().Server(mux)
	shut := make(chan struct{})
	go func() {
		defer close(shut)
		<-ctx.Done()
		sc, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		srv.Shutdown(sc)
	}()
	a.log.Info("serving interactions", "addr", ln.Addr().String(), "path", a.cfg.Path)
	err := srv.Serve(ln)
	if errors.Is(err, http.ErrServerClosed) {
		<-shut // handlers returned: no follow-up is added after this
	}
	a.wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// Wait blocks until every interaction and follow-up (edits of deferred
// responses) in flight is done.
func (a *Adapter) Wait() { a.wg.Wait() }

// ServeHTTP is the interactions endpoint: size limit, timestamp
// freshness, Ed25519 signature, then the interaction.
func (a *Adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST interactions here", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
	if err != nil {
		http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
		return
	}
	ts, err := strconv.ParseInt(r.Header.Get("X-Signature-Timestamp"), 10, 64)
	if err != nil {
		http.Error(w, "missing or bad signature timestamp", http.StatusUnauthorized)
		return
	}
	if d := a.now().Sub(time.Unix(ts, 0)); d > MaxSkew || d < -MaxSkew {
		http.Error(w, "stale signature timestamp", http.StatusUnauthorized)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !discordgo.VerifyInteraction(r, a.pub) {
		http.Error(w, "bad signature", http.StatusUnauthorized)
		return
	}
	var in discordgo.Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, "malformed interaction", http.StatusBadRequest)
		return
	}
	resp, follow, then := a.interaction(context.Background(), &in)
	if resp == nil {
		// Discord does not send an HTTP interaction twice; if one comes
		// again anyway, it gets a valid answer that repeats nothing.
		resp = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: &discordgo.InteractionResponseData{Content: "I already handled that (it arrived twice); nothing more to do.", Flags: discordgo.MessageFlagsEphemeral}}
	}
	// The whole answer goes out, with its length, before any follow-up
	// starts; the follow-up waits for this handler to return as well, so
	// Discord has the deferred answer before the edit of @original.
	raw, err := json.Marshal(resp)
	if err != nil {
		a.log.Error("encoding an interaction response", "err", err)
		http.Error(w, "internal error", http.StatusInternalServerError)
		if then != nil {
			then(context.Background()) // the command's effect stands: its messages go out
		}
		return
	}
	if follow != nil || then != nil {
		returned := make(chan struct{})
		defer close(returned)
		a.wg.Add(1) // before the answer: Wait must see the follow-up
		go func() {
			defer a.wg.Done()
			<-returned
			if follow != nil {
				follow()
			}
			if then != nil {
				then(context.Background()) // messages to others, after the answer
			}
		}()
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(raw)))
	w.Write(raw)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
}

// gatewayInteraction answers an interaction that came over the gateway:
// through the REST callback, files included.
func (a *Adapter) gatewayInteraction(ctx context.Context, in *discordgo.Interaction) {
	resp, follow, then := a.interaction(ctx, in)
	if then != nil {
		defer then(context.WithoutCancel(ctx)) // messages to others, after the answer
	}
	if resp == nil {
		return // a duplicate: answered already
	}
	if err := a.s.InteractionRespond(in, resp); err != nil {
		a.log.Error("responding to an interaction", "err", err)
		return
	}
	if follow != nil {
		follow()
	}
}

// hashCommands fingerprints the command definitions.
func hashCommands(cmds []*discordgo.ApplicationCommand) string {
	raw, _ := json.Marshal(cmds)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// Register puts the commands (/go, /gobot, and each command with verbs:
// /tournament) globally or in each configured guild, only when their
// definition changed since the last registration. An error Discord gives for good (HTTP 4xx but 429) is a
// *RefusedError.
func (a *Adapter) Register() error {
	appID := a.cfg.ApplicationID
	if appID == "" {
		u, err := a.s.User("@me")
		if err != nil {
			return err
		}
		appID = u.ID
		a.cfg.ApplicationID = appID
	}
	cmds := ApplicationCommands(a.bot.Commands())
	guilds := a.cfg.GuildIDs
	if len(guilds) == 0 {
		guilds = []string{""}
	}
	perGuild := map[string][]*discordgo.ApplicationCommand{}
	if a.cfg.UserInstall {
		// Install types and contexts apply to global commands only. A
		// guild's own /go from before would show twice: it is removed.
		for _, cmd := range cmds {
			cmd.IntegrationTypes = &[]discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall}
			cmd.Contexts = &[]discordgo.InteractionContextType{discordgo.InteractionContextGuild, discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}
		}
		for _, g := range guilds {
			if g != "" {
				perGuild[g] = []*discordgo.ApplicationCommand{}
			}
		}
		guilds = append([]string{""}, a.cfg.GuildIDs...)
	} else if len(a.cfg.GuildIDs) > 0 && a.state != nil {
		// user_install was on before: the global /go would show beside
		// each guild's own, so it is removed.
		none := []*discordgo.ApplicationCommand{}
		if old, _ := a.state.GetState(context.Background(), Platform, "commands:"); len(old) > 0 && string(old) != hashCommands(none) {
			perGuild[""] = none
			guilds = append(guilds, "")
		}
	}
	for _, g := range guilds {
		cmds := cmds
		if c, ok := perGuild[g]; ok {
			cmds = c
		}
		hash := hashCommands(cmds)
		key := "commands:" + g
		if a.state != nil {
			old, _ := a.state.GetState(context.Background(), Platform, key)
			if string(old) == hash {
				continue
			}
		}
		if err := a.overwriteCommands(appID, g, cmds); err != nil { // keeps the Activity's entry point (activity.go)
			return registrationError(g, cmds, err)
		}
		if a.state != nil {
			if err := a.state.PutState(context.Background(), Platform, map[string][]byte{key: []byte(hash)}); err != nil {
				return err
			}
		}
		a.log.Info("registered the commands", "guild", g, "commands", commandNames(cmds), "user_install", a.cfg.UserInstall)
	}
	return nil
}
