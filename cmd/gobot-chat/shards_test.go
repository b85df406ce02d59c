package main

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/discord"
	"github.com/gobotgo/gobot/storage"
)

func TestDiscordShardsConfig(t *testing.T) {
	const head = "discord:\n  enabled: true\n  token: t\n"
	for _, tc := range []struct {
		yaml        string
		id, count   int
		auto        bool
		errContains string
	}{
		{yaml: "", id: 0, count: 0},
		{yaml: "  shards: auto\n", auto: true},
		{yaml: "  shards: {id: 2, count: 4}\n", id: 2, count: 4},
		{yaml: "  shards:\n    id: 0\n    count: 1\n", id: 0, count: 1},
		{yaml: "  shard_id: 1\n  shard_count: 2\n", id: 1, count: 2},
		{yaml: "  shards: automatic\n", errContains: `discord.shards: write auto or {id: N, count: M}, not "automatic"`},
		{yaml: "  shards: {id: 1}\n", errContains: "both id and count"},
		{yaml: "  shards: {id: 1, count: 2, size: 3}\n", errContains: `unknown key "size"`},
		{yaml: "  shards: {id: one, count: 2}\n", errContains: `discord.shards.id: "one" is not a whole number`},
		{yaml: "  shards: {id: 4, count: 4}\n", errContains: "discord.shards.id: 4 is not a shard of 4 (0 to 3)"},
		{yaml: "  shards: {id: 0, count: 0}\n", errContains: "at least 1"},
		{yaml: "  shards: auto\n  shard_count: 2\n", errContains: "either shards or shard_id/shard_count"},
		{yaml: "  shard_id: 2\n  shard_count: 2\n", errContains: "discord.shard_id: 2 is not a shard of 2"},
		{yaml: "  shard_id: -1\n", errContains: "discord.shard_id: -1"},
		{yaml: "  mode: http\n  public_key: k\n  application_id: a\n  shards: auto\n", errContains: "only the gateway has shards"},
	} {
		cfg, err := parseConfig([]byte(head+tc.yaml), "t.yaml", func(string) string { return "" })
		if tc.errContains != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errContains) {
				t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.errContains)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.yaml, err)
			continue
		}
		id, count, auto := cfg.Discord.shard()
		if id != tc.id || count != tc.count || auto != tc.auto {
			t.Errorf("%q: shard %d of %d auto %v, want %d of %d auto %v", tc.yaml, id, count, auto, tc.id, tc.count, tc.auto)
		}
	}
}

func TestProcessHolderIsUnique(t *testing.T) {
	a, b := leaseHolder(), leaseHolder()
	if a == b || !strings.Contains(a, ":") {
		t.Fatalf("holders %q and %q", a, b)
	}
}

// The adapter gets the configured shards and leases in the store: a
// second process finds a lease the first holds taken.
func TestDiscordConfigWiresLeases(t *testing.T) {
	cfg, err := parseConfig([]byte("discord:\n  enabled: true\n  token: t\n  shards: auto\n"), "t.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	first, second := discordConfig(cfg.Discord, db, "host:1:aa", cfg.storage()), discordConfig(cfg.Discord, db, "host:2:bb", cfg.storage())
	if !first.AutoShards || first.Hold == nil {
		t.Fatalf("config %+v", first)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	holding := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- first.Hold(ctx, "discord:shard:0/2", func(ctx context.Context) error { close(holding); <-ctx.Done(); return nil })
	}()
	<-holding
	if holder, _, _ := gobot.LeaseHolder(ctx, db, "discord:shard:0/2", time.Now()); holder != "host:1:aa" {
		t.Fatalf("lease held by %q", holder)
	}
	ran := false
	if err := second.Hold(ctx, "discord:shard:0/2", func(context.Context) error { ran = true; return nil }); !errors.Is(err, discord.ErrLeaseHeld) || ran {
		t.Fatalf("second process: %v (ran %v), want discord.ErrLeaseHeld", err, ran)
	}
	cancel()
	<-done
	// Released on a clean stop: the other process takes it at once.
	if err := second.Hold(context.Background(), "discord:shard:0/2", func(context.Context) error { ran = true; return nil }); err != nil || !ran {
		t.Fatalf("after release: %v (ran %v)", err, ran)
	}
}
