package main

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigParses(t *testing.T) {
	data, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig(data, "config.example.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Defaults.Rules != "japanese" || cfg.Matrix.Prefix != "!go" {
		t.Fatalf("parsed %+v", cfg)
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	for yaml, want := range map[string]string{
		"databse: x\n":                            "databse",
		"log:\n  format: xml\n":                   "log.format",
		"defaults:\n  rules: frisbee\n":           "defaults.rules",
		"defaults:\n  rules: komi=2.75\n":         "defaults.rules",
		"defaults:\n  size: \"40\"\n":             "defaults.size",
		"defaults:\n  komi: 6.3\n":                "defaults.komi",
		"defaults:\n  clock: 3x\n":                "defaults.clock",
		"clock:\n  reminders: [soon]\n":           "clock.reminders[0]",
		"discord:\n  enabled: true\n":             "discord.token",
		"discord:\n  enabled: true\n  mode: ws\n": "discord.mode",
		"matrix:\n  enabled: true\n":              "matrix.homeserver",
		"matrix:\n  enabled: true\n  homeserver: https://m.org\n  user_id: bob\n": "matrix.user_id",
		"defaults: [1, 2]\n":                                                   "cannot unmarshal",
		"storage:\n  driver: mysql\n":                                          "storage.driver",
		"storage:\n  driver: postgres\n":                                       "storage.dsn",
		"storage:\n  dsn: postgres://h/db\n":                                   "storage.dsn",
		"storage:\n  driver: postgres\n  dsn: nonsense\n":                      "storage.dsn",
		"database: a.db\nstorage:\n  path: b.db\n":                             "storage.path",
		"storage:\n  driver: postgres\n  dsn: postgres://h/db\n  path: x.db\n": "storage.path",
		"storage:\n  takeover: soon\n":                                         "storage.takeover",
		"storage:\n  takeover: 1s\n":                                           "storage.takeover",
	} {
		_, err := parseConfig([]byte(yaml), "test.yaml", func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to name %q", yaml, err, want)
		}
	}
}

func TestSecretsFromEnvironment(t *testing.T) {
	env := map[string]string{"GOBOT_DISCORD_TOKEN": "tok", "GOBOT_MATRIX_PASSWORD": "pw", "GOBOT_MATRIX_RECOVERY_KEY": "EsT1 2345"}
	cfg, err := parseConfig([]byte("discord:\n  enabled: true\nmatrix:\n  enabled: true\n  homeserver: https://m.org\n  user_id: \"@bot:m.org\"\n"), "t.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Discord.Token != "tok" || cfg.Matrix.Password != "pw" || cfg.Matrix.RecoveryKey != "EsT1 2345" {
		t.Fatalf("secrets not taken from the environment: %+v", cfg)
	}
}

func TestStorageDSNFromEnvironment(t *testing.T) {
	env := map[string]string{"GOBOT_STORAGE_DSN": "postgres://gobot:pw@db:5432/gobot"}
	cfg, err := parseConfig([]byte("storage:\n  driver: postgres\n  dsn: postgres://old@db/gobot\n"), "t.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if sc := cfg.storage(); sc.Driver != "postgres" || sc.DSN != env["GOBOT_STORAGE_DSN"] {
		t.Fatalf("storage %+v, want the DSN from GOBOT_STORAGE_DSN", sc)
	}
	// The legacy top-level key still names the bbolt file.
	cfg, err = parseConfig([]byte("database: /tmp/x.db\n"), "t.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if sc := cfg.storage(); sc.Driver != "bbolt" || sc.Path != "/tmp/x.db" {
		t.Fatalf("storage %+v from database:, want bbolt /tmp/x.db", sc)
	}
}

// storage.takeover sets the leases: a dead holder's Matrix sync is taken
// within TTL + TTL/3 and a Discord shard within TTL + the shard round,
// both at most the takeover; 15 s by default.
func TestTakeoverSetsLeases(t *testing.T) {
	for yaml, want := range map[string]time.Duration{"": 15 * time.Second, "storage:\n  takeover: 6s\n": 6 * time.Second, "storage:\n  takeover: 1m\n": time.Minute} {
		cfg, err := parseConfig([]byte(yaml), "test.yaml", func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		sc := cfg.storage()
		ttl, round := sc.leaseTTL(), sc.shardRound()
		if ttl <= 0 || round <= 0 || round > 5*time.Second || ttl+ttl/3 > want || ttl+round > want {
			t.Errorf("%q: lease TTL %v, shard round %v: takeover beyond %v", yaml, ttl, round, want)
		}
	}
}
