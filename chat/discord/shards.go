package discord

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
)

// Lease names: one per shard (the count is part of the name, so processes
// that were told different counts never share a name) and one around
// command registration.
const registerLease = "discord:register"

// maxShards bounds the count taken from GET /gateway/bot.
const maxShards = 1 << 14

func shardLease(id, count int) string { return fmt.Sprintf("discord:shard:%d/%d", id, count) }

// runAutoShards asks Discord for the recommended shard count and runs
// the shards no other process holds: each lease round it takes at most
// one more, so processes started together share them out, and a shard
// whose holder died (its lease expired) is taken by a process that is
// still alive. It returns when ctx ends and every shard is closed.
func (a *Adapter) runAutoShards(ctx context.Context) error {
	gb, err := a.s.GatewayBot()
	if err != nil {
		return fmt.Errorf("discord: asking Discord for the shard count (GET /gateway/bot): %w", err)
	}
	if gb.Shards > maxShards {
		return fmt.Errorf("discord: Discord recommends %d shards, more than gobot runs (%d)", gb.Shards, maxShards)
	}
	count := max(gb.Shards, 1)
	a.log.Info("Discord recommends shards", "shards", count, "identify_concurrency", gb.SessionStartLimit.MaxConcurrency)
	var running sync.WaitGroup
	defer running.Wait()
	t := time.NewTicker(a.cfg.LeaseRound)
	defer t.Stop()
	for {
		a.takeShard(ctx, count, &running)
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// takeShard tries the shards this process does not run, in random order,
// until it takes one (or all are held by others).
func (a *Adapter) takeShard(ctx context.Context, count int, running *sync.WaitGroup) {
	for _, id := range rand.Perm(count) {
		if ctx.Err() != nil {
			return
		}
		a.mu.Lock()
		mine := a.shards[id]
		if !mine {
			a.shards[id] = true
		}
		a.mu.Unlock()
		if mine {
			continue
		}
		started := make(chan struct{})
		ended := make(chan error, 1)
		running.Add(1)
		go func() {
			defer running.Done()
			var err error
			if a.cfg.Hold == nil {
				err = a.runShard(ctx, id, count, func() { close(started) })
			} else {
				err = a.cfg.Hold(ctx, shardLease(id, count), func(ctx context.Context) error {
					return a.runShard(ctx, id, count, func() { close(started) })
				})
			}
			a.mu.Lock()
			delete(a.shards, id)
			a.mu.Unlock()
			switch {
			case errors.Is(err, ErrLeaseHeld):
			case errors.Is(err, gobot.ErrLeaseLost):
				a.log.Warn("lost a shard's lease; another process runs it now", "shard", id, "shards", count)
			case err != nil:
				a.log.Error("shard stopped", "shard", id, "shards", count, "err", err)
			}
			ended <- err
		}()
		select {
		case <-started:
			return // one new shard per round
		case err := <-ended:
			if !errors.Is(err, ErrLeaseHeld) {
				return // the store or Discord failed: try again next round
			}
		}
	}
}

// StoreLeases returns a Config.Hold that keeps its leases in store
// (chat's lease records): holder names this process (unique per process,
// such as host:pid:random), ttl is how long a lease outlives its holder's
// last renewal (renewed every ttl/3).
func StoreLeases(store gobot.Store, holder string, ttl time.Duration) func(ctx context.Context, name string, work func(context.Context) error) error {
	return func(ctx context.Context, name string, work func(context.Context) error) error {
		won, err := gobot.AcquireLease(ctx, store, name, holder, ttl, time.Now())
		if err != nil {
			return err
		}
		if !won {
			return ErrLeaseHeld
		}
		return gobot.HoldLease(ctx, store, name, holder, ttl, time.Now, nil, work)
	}
}
