package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix"
)

// leaseHolder names this process in lease rows: host, pid and a random
// part (a restarted process with a reused pid is another holder).
func leaseHolder() string {
	host, _ := os.Hostname()
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%s:%d:%s", host, os.Getpid(), hex.EncodeToString(r[:]))
}

// matrixRunner returns the runner of the Matrix adapter. On a shared store
// (several processes) one sync loop per bot account runs at a time: the
// runner holds the lease "matrix:sync:USER", standing by while another
// process holds it, and runs a new adapter for each term it holds it (an
// adapter runs once). The bot's Matrix notifier is that adapter only while
// the lease is held, so a standby's clock loop leaves Matrix games alone.
// On the embedded store there is one process: no lease. ttl is the
// lease's (storage.takeover).
func matrixRunner(mc matrix.Config, bot *chat.Bot, store *openedStore, ttl time.Duration, log *slog.Logger) (func(context.Context) error, error) {
	first, err := matrix.New(mc, bot, gobot.StoreState(store), log)
	if err != nil {
		return nil, fmt.Errorf("matrix: %w", err)
	}
	if store.pg == nil {
		bot.Register(matrix.Descriptor(mc.Prefix), first)
		return first.Run, nil
	}
	name := "matrix:sync:" + mc.UserID
	holder := leaseHolder()
	term := func(ctx context.Context) error {
		a := first
		if a == nil {
			if a, err = matrix.New(mc, bot, gobot.StoreState(store), log); err != nil {
				return err
			}
		}
		first = nil
		log.Info("matrix: holding the sync lease", "lease", name, "holder", holder)
		// The notifier and every command this term handles are fenced
		// by the lease's term (ctx carries it): once another process
		// takes the lease, this one writes and claims nothing, even
		// before its sync (cancelled with ctx) returns.
		bot.SetLeasedNotifier(ctx, matrix.Platform, a)
		defer bot.SetNotifier(matrix.Platform, nil) // at once, not when ctx's AfterFunc runs
		return a.Run(ctx)
	}
	standby := func(h string) { log.Info("matrix: standing by; another process syncs", "lease", name, "holder", h) }
	return func(ctx context.Context) error {
		for {
			err := gobot.HoldLease(ctx, store, name, holder, ttl, time.Now, standby, term)
			if ctx.Err() != nil {
				return nil // stopping (the adapter may report the cancelled login)
			}
			if errors.Is(err, gobot.ErrLeaseLost) {
				log.Warn("matrix: lost the sync lease; standing by", "lease", name)
				continue
			}
			return err
		}
	}, nil
}
