package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/term"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/web"
	"github.com/gobotgo/gobot/storage"
)

// cmdConsole plays in this terminal on a local database.
func cmdConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs, db, user, images, cfgPath, webAddr := consoleFlags()
	if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
		writeUsage(stdout)
		return nil
	} else if err != nil {
		return fmt.Errorf("%w: %v (gobot -h lists the commands and flags)", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected %q (try gobot help)", errUsage, fs.Arg(0))
	}
	*user = strings.ToLower(strings.TrimPrefix(*user, "@")) // names are case-blind, as /as makes them
	if err := protocol.ValidName(*user); err != nil {
		return fmt.Errorf("%w: -user: %v", errUsage, err)
	}
	cfg := &Config{}
	if *cfgPath != "" {
		var err error
		if cfg, err = loadConfig(*cfgPath, os.Getenv); err != nil {
			return err
		}
	}
	if *images == "" {
		*images = filepath.Join(filepath.Dir(*db), "boards")
	}
	if err := os.MkdirAll(filepath.Dir(*db), 0o755); err != nil {
		return err
	}
	store, err := storage.Open(*db, storage.Options{})
	if err != nil {
		return err
	}
	defer store.Close()
	log := cfg.logger(stderr)
	if cfg.Log.Level == "" {
		log = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	}
	// The web board: on a loopback address, links signed with a secret
	// of this run (GOBOT_WEB_SECRET keeps them across runs).
	var botStore gobot.Store = store
	var board *webBoard
	var boardLn net.Listener
	if *webAddr != "off" {
		if boardLn, err = net.Listen("tcp", *webAddr); err != nil {
			return fmt.Errorf("-web %s: %w (-web off runs without the web board)", *webAddr, err)
		}
		defer boardLn.Close()
		board = newWebBoard(store, nil)
		botStore = board.store
	}
	bot := chat.New(cfg.chatConfig(), botStore, newRenderer(), nil, log)
	if err := bot.JoinCommunities(context.Background()); err != nil {
		return err
	}
	defer setupEngines(cfg, bot, log)()
	var serveBoard func(context.Context) error
	if board != nil {
		secret := []byte(os.Getenv("GOBOT_WEB_SECRET"))
		if len(secret) < web.MinSecret {
			if len(secret) > 0 {
				// gobot run refuses such a secret; here the board still
				// starts, but says why its links will not outlive the run.
				fmt.Fprintf(stderr, "GOBOT_WEB_SECRET is shorter than %d bytes, so this run signs its links with a random secret instead: they stop working when gobot stops. Set it to at least %d bytes (e.g. `openssl rand -base64 48`) to keep them.\n", web.MinSecret, web.MinSecret)
			}
			secret = randomSecret()
		}
		ttl, _ := parseLinkTTL(cfg.Web.LinkTTL)
		if serveBoard, err = board.serve(boardLn, bot, "http://"+boardLn.Addr().String(), secret, ttl, log); err != nil {
			return err
		}
	}
	interactive := false
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		interactive = true
	}
	con := &console.Console{Bot: bot, In: stdin, Out: stdout, User: *user, Dir: *images, Prompt: interactive}
	bot.Register(console.Descriptor, con)
	if interactive {
		fmt.Fprintf(stdout, "gobot — Go in your terminal. Database: %s\nBoard images are saved in %s\nYou are %s; type help for commands, /as bob to switch player, /quit to leave.\n", *db, *images, *user)
	} else {
		fmt.Fprintf(stderr, "gobot: database %s, board images in %s\n", *db, *images)
	}
	if board != nil {
		// On stderr: the terminal shows it, and stdout stays the game's.
		fmt.Fprintf(stderr, "Web board on %s — type web for your personal link to a game.\n", "http://"+boardLn.Addr().String())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	serveBackups(ctx, store, log)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		bot.Run(ctx)
	}()
	if serveBoard != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := serveBoard(ctx); err != nil {
				log.Error("web board stopped", "err", err)
			}
		}()
	}
	// The console reads a terminal; on SIGINT/SIGTERM stop waiting for the
	// next line. A command in flight finishes first: closing the database
	// waits for its transaction.
	errc := make(chan error, 1)
	go func() { errc <- con.Run(ctx) }()
	select {
	case err = <-errc:
	case <-ctx.Done():
	}
	stop()
	wg.Wait()
	return err
}

// cmdRun starts the adapters a config file enables.
func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (see config.example.yaml)")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *cfgPath == "" {
		return fmt.Errorf("%w: gobot run needs -config FILE (see config.example.yaml)", errUsage)
	}
	cfg, err := loadConfig(*cfgPath, os.Getenv)
	if err != nil {
		return err
	}
	if !cfg.Console.Enabled && !cfg.Discord.Enabled && !cfg.Matrix.Enabled {
		return errors.New("the config enables no adapter: set console.enabled, discord.enabled or matrix.enabled")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return serve(ctx, cfg, stdin, stdout, stderr)
}

// serve runs the bot with the adapters cfg enables until ctx ends (or an
// adapter fails): what `gobot run` does after reading its config.
func serve(ctx context.Context, cfg *Config, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	log := cfg.logger(stderr)
	store, err := openStore(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer store.Close()
	log.Info("database open", "store", store.where)
	var botStore gobot.Store = store
	var board *webBoard
	if cfg.Web.Enabled {
		var shared gamesListener
		if store.pg != nil {
			shared = store.pg // pages on every process see every process's moves
		}
		board = newWebBoard(store, shared)
		botStore = board.store
	}
	bot := chat.New(cfg.chatConfig(), botStore, newRenderer(), nil, log)
	if err := bot.JoinCommunities(ctx); err != nil {
		return err
	}
	defer setupEngines(cfg, bot, log)()

	if store.bolt != nil {
		serveBackups(ctx, store.bolt, log)
	}
	runners, err := adapters(ctx, cfg, bot, store, log, stdin, stdout, board)
	if err != nil {
		return err
	}
	if board != nil {
		ln, err := net.Listen("tcp", cfg.Web.listen())
		if err != nil {
			return fmt.Errorf("web.listen: %w", err)
		}
		ttl, _ := parseLinkTTL(cfg.Web.LinkTTL)                                   // checked with the config
		board.trustedProxies, _ = web.ParseTrustedProxies(cfg.Web.TrustedProxies) // likewise
		board.maxStreams = cfg.Web.MaxStreams
		if err := board.matrixWidgets(cfg, bot, store, log); err != nil {
			ln.Close()
			return err
		}
		public := cfg.Web.PublicURL
		if public == "" {
			public = "http://" + ln.Addr().String() // the port bound, if listen said :0
		}
		run, err := board.serve(ln, bot, public, []byte(cfg.Web.Secret), ttl, log)
		if err != nil {
			ln.Close()
			return err
		}
		log.Info("web board", "listen", ln.Addr().String(), "public_url", public)
		runners = append(runners, run)
	}
	// Shutdown runs adapters -> bot -> store: the adapters finish the
	// commands in flight, then the clock loop stops, then the store
	// closes (deferred above).
	var wg, botDone sync.WaitGroup
	errs := make(chan error, len(runners)+1)
	botCtx, stopBot := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBot()
	botDone.Add(1)
	go func() {
		defer botDone.Done()
		errs <- bot.Run(botCtx)
	}()
	for _, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// An adapter returns when ctx ends, on a fatal error, or (the
			// console) when its input ends or the operator types /quit:
			// each of these stops the process.
			if err := r(ctx); err != nil {
				errs <- err // said once: returned, or logged below
			}
			stop()
		}()
	}
	<-ctx.Done()
	log.Info("shutting down: finishing commands in flight")
	wg.Wait()
	stopBot()
	botDone.Wait()
	close(errs)
	var first error
	for err := range errs {
		switch {
		case err == nil || errors.Is(err, context.Canceled):
		case first == nil:
			first = err // main prints it
		default:
			log.Error("adapter stopped", "err", err)
		}
	}
	return first
}
