package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/chat/discord"
	"github.com/gobotgo/gobot/chat/matrix"
	"io"
	"log/slog"
	"os"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/engine"
	"github.com/gobotgo/gobot/game"
)

// Config is gobot's configuration file; config.example.yaml documents
// every key.
type Config struct {
	Database string          `yaml:"database"` // legacy spelling of storage.path
	Storage  StorageConfig   `yaml:"storage"`
	Log      LogConfig       `yaml:"log"`
	Defaults Defaults        `yaml:"defaults"`
	Clock    ClockConfig     `yaml:"clock"`
	Console  ConsoleConfig   `yaml:"console"`
	Discord  DiscordConfig   `yaml:"discord"`
	Matrix   MatrixConfig    `yaml:"matrix"`
	Engines  []engine.Config `yaml:"engines"` // engines.go
	Scoring  ScoringConfig   `yaml:"scoring"`
	Ratings  RatingsConfig   `yaml:"ratings"`
	Web      WebConfig       `yaml:"web"` // web.go
	// Vacation: the vacation allowance (vacation.go).
	Vacation VacationConfig `yaml:"vacation"`
	// Communities join Discord servers and Matrix rooms into one
	// community each (communities.go, docs/identity.md).
	Communities []CommunityConfig `yaml:"communities"`
}

// LogConfig chooses the log format and level.
type LogConfig struct {
	Format string `yaml:"format" want:"text or json"`              // text or json
	Level  string `yaml:"level" want:"debug, info, warn or error"` // debug, info, warn, error
}

// Defaults are the game options used where a room has no setting.
type Defaults struct {
	Rules string   `yaml:"rules" want:"a ruleset like japanese, or options like \"ko=simple scoring=area\""`
	Size  string   `yaml:"size" want:"a size like 19 or 13x9"`
	Komi  *float64 `yaml:"komi" want:"a number like 6.5"`
	Clock string   `yaml:"clock" want:"none, a time per move like 3d, or fischer:3d+1d/7d"`
}

// ClockConfig tunes reminders and the clock loop.
type ClockConfig struct {
	Reminders []string `yaml:"reminders" want:"a list of durations like [24h, 1h]"`
	Tick      string   `yaml:"tick" want:"a duration like 30s"`
	EventTTL  string   `yaml:"event_ttl" want:"a duration like 168h"`
	ClaimTTL  string   `yaml:"claim_ttl" want:"a duration like 2m"`
}

// ConsoleConfig is the terminal adapter.
type ConsoleConfig struct {
	Enabled   bool   `yaml:"enabled"`
	User      string `yaml:"user"`
	ImagesDir string `yaml:"images_dir"`
}

// DiscordConfig is the Discord adapter's section.
type DiscordConfig struct {
	Enabled       bool         `yaml:"enabled"`
	Mode          string       `yaml:"mode" want:"gateway or http"` // gateway or http
	Token         string       `yaml:"token"`
	ApplicationID string       `yaml:"application_id"`
	PublicKey     string       `yaml:"public_key"`
	Listen        string       `yaml:"listen" want:"an address like 127.0.0.1:8080"`
	GuildIDs      []string     `yaml:"guild_ids" want:"a list of server IDs like [\"123456789012345678\"]"`
	Shards        ShardsConfig `yaml:"shards"`      // auto or {id: N, count: M}
	ShardID       int          `yaml:"shard_id"`    // older spelling of shards.id
	ShardCount    int          `yaml:"shard_count"` // older spelling of shards.count
	APIURL        string       `yaml:"api_url"`
	GatewayURL    string       `yaml:"gateway_url"`
	UserInstall   *bool        `yaml:"user_install"` // nil: true (docs/discord.md)
	// Activity: "Open board" launches the web board as a Discord
	// Activity; ClientSecret (or GOBOT_DISCORD_CLIENT_SECRET) signs its
	// users in (docs/discord.md).
	Activity     bool   `yaml:"activity"`
	ClientSecret string `yaml:"client_secret"`
}

// MatrixConfig is the Matrix adapter's section.
type MatrixConfig struct {
	Enabled       bool     `yaml:"enabled"`
	Homeserver    string   `yaml:"homeserver" want:"a URL like https://matrix.example.org"`
	UserID        string   `yaml:"user_id" want:"a Matrix user ID like \"@gobot:example.org\""`
	AccessToken   string   `yaml:"access_token"`
	Password      string   `yaml:"password"`
	Prefix        string   `yaml:"prefix"`
	AllowServers  []string `yaml:"allow_servers" want:"a list of homeservers like [example.org]"`
	Encryption    bool     `yaml:"encryption"`
	CryptoStore   string   `yaml:"crypto_store"`
	DisplayName   string   `yaml:"display_name"`
	DeviceName    string   `yaml:"device_name"`
	AutoJoin      *bool    `yaml:"auto_join"`
	PickleKeyFile string   `yaml:"pickle_key_file"`
	// RecoveryKey and ResetCrossSigning: the bot's cross-signing
	// identity (docs/matrix.md).
	RecoveryKey       string `yaml:"recovery_key"`
	ResetCrossSigning bool   `yaml:"reset_cross_signing"`
	// OpenIDAllowPrivate lets widget sign-ins ask homeservers named by
	// IP addresses or at loopback, private or link-local addresses.
	OpenIDAllowPrivate bool `yaml:"openid_allow_private"`
}

// Environment variables that may hold secrets instead of the file.
var secretEnv = []struct {
	name string
	set  func(c *Config, v string)
}{
	{"GOBOT_DISCORD_TOKEN", func(c *Config, v string) { c.Discord.Token = v }},
	{"GOBOT_DISCORD_PUBLIC_KEY", func(c *Config, v string) { c.Discord.PublicKey = v }},
	{"GOBOT_DISCORD_CLIENT_SECRET", func(c *Config, v string) { c.Discord.ClientSecret = v }},
	{"GOBOT_MATRIX_ACCESS_TOKEN", func(c *Config, v string) { c.Matrix.AccessToken = v }},
	{"GOBOT_MATRIX_PASSWORD", func(c *Config, v string) { c.Matrix.Password = v }},
	{"GOBOT_STORAGE_DSN", func(c *Config, v string) { c.Storage.DSN = v }},
	{"GOBOT_MATRIX_RECOVERY_KEY", func(c *Config, v string) { c.Matrix.RecoveryKey = v }},
	{"GOBOT_WEB_SECRET", func(c *Config, v string) { c.Web.Secret = v }},
}

// loadConfig reads and checks a config file. Unknown keys and invalid
// values are errors that name the key.
func loadConfig(path string, getenv func(string) string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	return parseConfig(data, path, getenv)
}

func parseConfig(data []byte, path string, getenv func(string) string) (*Config, error) {
	var c Config
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, syntaxError(path, err)
	}
	if errs := checkShape(&root, reflect.TypeFor[Config]()); len(errs) > 0 {
		return nil, &configErrors{path: path, errs: errs}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(&c); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("%s: %s", path, strings.TrimPrefix(err.Error(), "yaml: ")) // checkShape missed it
	}
	for _, s := range secretEnv {
		if v := getenv(s.name); v != "" {
			s.set(&c, v)
		}
	}
	if err := c.check(); err != nil {
		return nil, &configErrors{path: path, errs: []*configError{locate(&root, err)}}
	}
	return &c, nil
}

// check validates every value, naming the key at fault.
func (c *Config) check() error {
	switch c.Log.Format {
	case "", "text", "json":
	default:
		return fmt.Errorf("log.format: %q is not text or json", c.Log.Format)
	}
	switch strings.ToLower(c.Log.Level) {
	case "", "debug", "info", "warn", "error":
	default:
		return fmt.Errorf("log.level: %q is not debug, info, warn or error", c.Log.Level)
	}
	if err := c.checkStorage(); err != nil {
		return err
	}
	if err := c.checkEngines(); err != nil {
		return err
	}
	if err := c.Web.check(); err != nil {
		return err
	}
	if err := c.Vacation.check(); err != nil {
		return err
	}
	if _, err := c.communities(); err != nil {
		return err
	}
	if c.Defaults.Rules != "" {
		r, err := game.ParseRules(c.Defaults.Rules)
		if err == nil {
			err = game.CheckKomi(r.Komi) // a record's komi may be 2.75; a new game's may not
		}
		if err != nil {
			return fmt.Errorf("defaults.rules: %v", err)
		}
	}
	if c.Defaults.Size != "" {
		if _, _, err := game.ParseSize(c.Defaults.Size); err != nil {
			return fmt.Errorf("defaults.size: %v", err)
		}
	}
	if c.Defaults.Komi != nil {
		if err := game.CheckKomi(*c.Defaults.Komi); err != nil {
			return fmt.Errorf("defaults.komi: %v", err)
		}
	}
	if c.Defaults.Clock != "" {
		if _, err := protocol.ParseClock(c.Defaults.Clock); err != nil {
			return fmt.Errorf("defaults.clock: %v", err)
		}
	}
	for i, r := range c.Clock.Reminders {
		if d, err := time.ParseDuration(r); err != nil || d <= 0 {
			return fmt.Errorf("clock.reminders[%d]: %q is not a duration like 24h or 1h", i, r)
		}
	}
	for key, v := range map[string]string{"clock.tick": c.Clock.Tick, "clock.event_ttl": c.Clock.EventTTL, "clock.claim_ttl": c.Clock.ClaimTTL} {
		if v == "" {
			continue
		}
		if d, err := time.ParseDuration(v); err != nil || d <= 0 {
			return fmt.Errorf("%s: %q is not a duration like 30s or 168h", key, v)
		}
	}
	if d := c.Discord; d.Enabled {
		switch d.Mode {
		case "gateway", "":
			if d.Token == "" {
				return errors.New("discord.token: the gateway needs a bot token (or set GOBOT_DISCORD_TOKEN)")
			}
		case "http":
			if d.PublicKey == "" {
				return errors.New("discord.public_key: HTTP interactions need the application's public key (or set GOBOT_DISCORD_PUBLIC_KEY)")
			}
			if d.ApplicationID == "" {
				return errors.New("discord.application_id: HTTP interactions need the application ID")
			}
		default:
			return fmt.Errorf("discord.mode: %q is not gateway or http", d.Mode)
		}
		if err := d.checkShards(); err != nil {
			return err
		}
		if err := c.checkActivity(); err != nil {
			return err
		}
	}
	if m := c.Matrix; m.Enabled {
		if m.Homeserver == "" {
			return errors.New("matrix.homeserver: give the homeserver URL, like https://matrix.example.org")
		}
		if !strings.HasPrefix(m.UserID, "@") || !strings.Contains(m.UserID, ":") {
			return fmt.Errorf("matrix.user_id: %q is not a Matrix user ID like @gobot:example.org", m.UserID)
		}
		if m.AccessToken == "" && m.Password == "" {
			return errors.New("matrix.access_token: give an access token or a password (or set GOBOT_MATRIX_ACCESS_TOKEN / GOBOT_MATRIX_PASSWORD)")
		}
	}
	return nil
}

// chatConfig turns the file's defaults into the bot's config.
func (c *Config) chatConfig() chat.Config {
	cc := chat.Config{Rules: c.Defaults.Rules, Komi: c.Defaults.Komi, Clock: c.Defaults.Clock, RateEngineGames: c.Ratings.EngineGames}
	if c.Defaults.Size != "" {
		cc.Width, cc.Height, _ = game.ParseSize(c.Defaults.Size)
	}
	for _, r := range c.Clock.Reminders {
		d, _ := time.ParseDuration(r)
		cc.Reminders = append(cc.Reminders, d)
	}
	if c.Clock.Tick != "" {
		cc.Tick, _ = time.ParseDuration(c.Clock.Tick)
	}
	if c.Clock.EventTTL != "" {
		cc.EventTTL, _ = time.ParseDuration(c.Clock.EventTTL)
	}
	if c.Clock.ClaimTTL != "" {
		cc.ClaimTTL, _ = time.ParseDuration(c.Clock.ClaimTTL)
	}
	cc.Vacation = c.Vacation.chatConfig()
	cc.Communities, _ = c.communities() // checked by check
	cc.Platforms = c.platforms()
	return cc
}

// platforms are the descriptors of the platforms gobot serves, whether
// or not this process runs their adapters: the web board words a game's
// hints as its platform types commands (chat.Bot.Platform).
func (c *Config) platforms() []*protocol.Platform {
	return []*protocol.Platform{discord.Descriptor, matrix.Descriptor(c.Matrix.Prefix), console.Descriptor}
}

// logger builds the slog logger the config asks for.
func (c *Config) logger(w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(strings.ToUpper(orDefault(c.Log.Level, "info"))))
	opts := &slog.HandlerOptions{Level: level}
	if c.Log.Format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
