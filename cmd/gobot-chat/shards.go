package main

import (
	"errors"
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// ShardsConfig is discord.shards: `auto` (ask Discord for the count and
// take the shards no other process holds) or `{id: N, count: M}` (this
// process runs shard N of M).
type ShardsConfig struct {
	Auto  bool
	ID    int
	Count int
	set   bool
}

// UnmarshalYAML reads `auto` or a mapping with exactly id and count.
func (s *ShardsConfig) UnmarshalYAML(n *yaml.Node) error {
	const want = "discord.shards: write auto or {id: N, count: M}"
	s.set = true
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Value == "auto" {
			s.Auto = true
			return nil
		}
		return fmt.Errorf("%s, not %q", want, clip(n.Value, 40))
	case yaml.MappingNode:
		seen := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			var dst *int
			switch k {
			case "id":
				dst = &s.ID
			case "count":
				dst = &s.Count
			default:
				return fmt.Errorf("discord.shards: unknown key %q (%s)", clip(k, 40), want)
			}
			x, err := strconv.Atoi(v.Value)
			if v.Kind != yaml.ScalarNode || err != nil {
				return fmt.Errorf("discord.shards.%s: %q is not a whole number", k, clip(v.Value, 40))
			}
			*dst, seen[k] = x, true
		}
		if !seen["id"] || !seen["count"] {
			return errors.New(want + " (both id and count)")
		}
		return nil
	}
	return errors.New(want)
}

// checkShards validates discord.shards and the older shard_id/shard_count.
func (d DiscordConfig) checkShards() error {
	s := d.Shards
	if s.set && (d.ShardID != 0 || d.ShardCount != 0) {
		return errors.New("discord.shards: set either shards or shard_id/shard_count, not both")
	}
	if d.Mode == "http" && (s.set || d.ShardID != 0 || d.ShardCount != 0) {
		return errors.New("discord.shards: only the gateway has shards; mode: http answers any interaction")
	}
	id, count, key := d.ShardID, d.ShardCount, "discord.shard_id"
	if s.set && !s.Auto {
		id, count, key = s.ID, s.Count, "discord.shards.id"
	}
	if count < 0 || (count == 0 && s.set && !s.Auto) {
		return fmt.Errorf("%s: shard count %d must be at least 1", key, count)
	}
	if id < 0 || id >= max(count, 1) {
		return fmt.Errorf("%s: %d is not a shard of %d (0 to %d)", key, id, max(count, 1), max(count, 1)-1)
	}
	return nil
}

// shard returns the pinned shard (id, count) or auto.
func (d DiscordConfig) shard() (id, count int, auto bool) {
	if d.Shards.set {
		return d.Shards.ID, d.Shards.Count, d.Shards.Auto
	}
	return d.ShardID, d.ShardCount, false
}
