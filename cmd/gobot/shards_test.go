package main

import (
	"strings"
	"testing"
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
	a, b := processHolder(), processHolder()
	if a == b || !strings.Contains(a, ":") {
		t.Fatalf("holders %q and %q", a, b)
	}
}
