package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/httpserver"
	"github.com/gobotgo/gobot/chat/web"
	"github.com/gobotgo/gobot/storage/postgres"
)

// WebConfig is the web board's section of the config (docs/web.md).
type WebConfig struct {
	Enabled bool `yaml:"enabled"`
	// Listen is the address served (default 127.0.0.1:8080).
	Listen string `yaml:"listen"`
	// PublicURL is where links point, as players' browsers reach the
	// board (https://go.example.org behind a TLS proxy); default
	// http://LISTEN, accepted only on a loopback address.
	PublicURL string `yaml:"public_url"`
	// Secret signs links and session cookies (at least 32 bytes); set
	// GOBOT_WEB_SECRET rather than writing it here. Processes sharing a
	// database must share it.
	Secret string `yaml:"secret"`
	// LinkTTL is how long a personal link works: 720h or 30d (default).
	LinkTTL string `yaml:"link_ttl"`
	// WidgetOrigins are the chat clients that may show a game's board as
	// a Matrix room widget (its page's frame-ancestors): Element's
	// origins, like https://app.element.io; "*" for any (widget.go).
	WidgetOrigins []string `yaml:"widget_origins" want:"a list of origins like [https://app.element.io]"`
	// TrustedProxies are the proxies in front of the board (addresses or
	// networks) whose X-Forwarded-For names the client that sign-ins
	// are limited by; empty: the peer's address is the client's.
	TrustedProxies []string `yaml:"trusted_proxies" want:"a list of addresses or networks like [127.0.0.1, 10.0.0.0/8]"`
	// MaxStreams bounds the live pages (event streams) open on this
	// process (default 10,000).
	MaxStreams int `yaml:"max_streams" want:"a number like 10000"`
}

func (w WebConfig) check() error {
	if !w.Enabled {
		return nil
	}
	if len(w.Secret) < web.MinSecret {
		return fmt.Errorf("web.secret: give a signing secret of at least %d bytes (or set GOBOT_WEB_SECRET, e.g. to the output of `openssl rand -base64 48`)", web.MinSecret)
	}
	if _, err := parseLinkTTL(w.LinkTTL); err != nil {
		return err
	}
	if _, err := web.CheckPublicURL(w.publicURL()); err != nil {
		return fmt.Errorf("web.public_url: %w", err)
	}
	if w.MaxStreams < 0 {
		return fmt.Errorf("web.max_streams: %d is not a number of streams; give one like 10000, or leave it out for the default", w.MaxStreams)
	}
	if _, err := web.ParseTrustedProxies(w.TrustedProxies); err != nil {
		return err
	}
	return web.CheckWidgetOrigins(w.WidgetOrigins)
}

func (w WebConfig) listen() string { return orDefault(w.Listen, "127.0.0.1:8080") }

func (w WebConfig) publicURL() string { return orDefault(w.PublicURL, "http://"+w.listen()) }

// parseLinkTTL reads web.link_ttl: a Go duration or a number of days.
func parseLinkTTL(s string) (time.Duration, error) {
	if s == "" {
		return web.DefaultLinkTTL, nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if d, err := strconv.Atoi(n); err == nil && d > 0 && d <= 3650 {
			return time.Duration(d) * 24 * time.Hour, nil
		}
	}
	if d, err := time.ParseDuration(s); err == nil && d > 0 {
		return d, nil
	}
	return 0, fmt.Errorf("web.link_ttl: %q is not a duration like 30d or 720h", s)
}

// gamesListener is a store whose processes tell each other of game
// changes and of the boards open on each (PostgreSQL's LISTEN/NOTIFY).
type gamesListener interface {
	PublishStates(ctx context.Context, states []postgres.GameState)
	PublishReviews(ctx context.Context, reviews []gobot.ReviewID)
	PublishPresence(ctx context.Context, ps []postgres.Presence)
	Listen(ctx context.Context, c postgres.Changes) error
}

// webBoard is the web board wired to a store: the store the bot must
// use (it publishes game changes), and the runners to start.
type webBoard struct {
	hub    *web.Hub
	store  gobot.Store
	listen func(context.Context) error // the PostgreSQL listener, or nil
	// activity is the Discord adapter when discord.activity is on.
	activity web.DiscordActivity
	// widgets signs in the Matrix widget page, framed by widgetOrigins
	// (nil: Matrix is off; widget.go).
	widgets       web.Widgets
	widgetOrigins []string
	// members says who is still in a vote game's room, by platform (the
	// Discord adapter, the Matrix widgets' adapter).
	members map[string]web.Members
	// trustedProxies and maxStreams: web.trusted_proxies and
	// web.max_streams (none and the default in the terminal game).
	trustedProxies []netip.Prefix
	maxStreams     int
}

// newWebBoard wraps store so that committed game changes reach the
// pages: through the database when it can tell other processes
// (PostgreSQL), else in this process.
func newWebBoard(store gobot.Store, shared gamesListener) *webBoard {
	wb := &webBoard{hub: web.NewHub(), members: map[string]web.Members{}}
	if shared == nil {
		wb.store = web.Publishing(store, wb.hub)
		return wb
	}
	// Each change carries its game's page state to every process.
	wb.store = web.Publishing(store, wb.hub.Carrying(sharedPublisher{shared}))
	wb.listen = func(ctx context.Context) error {
		// Who is away counts the boards open on every process (issue 43).
		go wb.hub.Share(ctx, func(ctx context.Context, ps []web.Presence) {
			out := make([]postgres.Presence, len(ps))
			for i, p := range ps {
				out[i] = postgres.Presence(p)
			}
			shared.PublishPresence(ctx, out)
		}, time.Now)
		return shared.Listen(ctx, postgres.Changes{Games: wb.hub.Changed, Reviews: wb.hub.ReviewChanged,
			States:   func(st postgres.GameState) { wb.hub.HeardState(st.Game, st.V, st.JSON) },
			Presence: func(p postgres.Presence) { wb.hub.Heard(web.Presence(p)) }})
	}
	return wb
}

// sharedPublisher publishes game changes, with their pages' states, and
// review changes to every process.
type sharedPublisher struct{ l gamesListener }

func (p sharedPublisher) PublishStates(ctx context.Context, states []web.GameState) {
	out := make([]postgres.GameState, len(states))
	for i, st := range states {
		out[i] = postgres.GameState(st)
	}
	p.l.PublishStates(ctx, out)
}

func (p sharedPublisher) PublishReviews(ctx context.Context, r []gobot.ReviewID) {
	p.l.PublishReviews(ctx, r)
}

// serveWeb starts serving the board on ln and enables the `web` command;
// the returned runner serves until ctx ends.
func (wb *webBoard) serve(ln net.Listener, bot *chat.Bot, publicURL string, secret []byte, ttl time.Duration, log *slog.Logger) (func(context.Context) error, error) {
	srv, err := web.New(web.Config{Bot: bot, Hub: wb.hub, Secret: secret, PublicURL: publicURL, LinkTTL: ttl, Log: log,
		Activity: wb.activity, Widgets: wb.widgets, WidgetOrigins: wb.widgetOrigins, Members: wb.members,
		TrustedProxies: wb.trustedProxies, MaxStreams: wb.maxStreams})
	if err != nil {
		return nil, err
	}
	bot.SetLinker(srv.Linker()) // with the widget page only when it can be shown
	hs := srv.HTTPServer(httpserver.Default)
	hs.ErrorLog = slog.NewLogLogger(log.Handler(), slog.LevelWarn)
	return func(ctx context.Context) error {
		errc := make(chan error, 2)
		go func() { errc <- hs.Serve(ln) }()
		if wb.listen != nil {
			go func() { errc <- wb.listen(ctx) }()
		}
		select {
		case <-ctx.Done():
			// Shutdown ends the live streams (web.Server.EndStreams) and
			// waits for the requests in flight; the deadline is for a
			// request that will not finish, cut off by Close.
			sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			defer cancel()
			if err := hs.Shutdown(sctx); err != nil {
				log.Warn("web board: requests still open at shutdown were cut off", "err", err)
			}
			hs.Close()
			srv.Wait(sctx) // the answered clicks' messages (the rest: the claims)
			return nil
		case err := <-errc:
			if errors.Is(err, http.ErrServerClosed) {
				return nil
			}
			return fmt.Errorf("web board: %w", err)
		}
	}, nil
}

// randomSecret is a signing secret for one run of the terminal game: its
// links end with the process.
func randomSecret() []byte {
	b := make([]byte, 32)
	rand.Read(b)
	return b
}
