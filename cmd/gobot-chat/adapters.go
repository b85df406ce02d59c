package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/chat/discord"
	"github.com/gobotgo/gobot/chat/matrix"
	"github.com/gobotgo/gobot/render"
)

// adapters builds a runner for every adapter the config enables and
// registers their notifiers with the bot. board is the web board (nil:
// off), which the Discord Activity signs in through.
func adapters(ctx context.Context, cfg *Config, bot *chat.Bot, store *openedStore, log *slog.Logger, stdin io.Reader, stdout io.Writer, board *webBoard) ([]func(context.Context) error, error) {
	var runners []func(context.Context) error
	state := gobot.StoreState(store)
	if cfg.Console.Enabled {
		con := &console.Console{Bot: bot, In: stdin, Out: stdout, User: cfg.Console.User, Dir: cfg.Console.ImagesDir}
		bot.Register(console.Descriptor, con)
		runners = append(runners, con.Run)
	}
	if d := cfg.Discord; d.Enabled {
		a, err := discord.New(discordConfig(d, store, leaseHolder(), cfg.storage()), bot, state, log)
		if err != nil {
			return nil, err
		}
		bot.Register(discord.Descriptor, a)
		if board != nil {
			board.members[discord.Platform] = a // a vote from the board: may they still see the channel?
		}
		if board != nil && d.Activity {
			board.activity = a // the Activity's sign-in asks Discord (docs/discord.md)
		}
		runners = append(runners, a.Run)
	}
	if m := cfg.Matrix; m.Enabled {
		if m.CryptoStore == "" {
			m.CryptoStore = filepath.Join(store.dir, "gobot-crypto.db")
		}
		run, err := matrixRunner(matrix.Config{
			Homeserver: m.Homeserver, UserID: m.UserID, AccessToken: m.AccessToken, Password: m.Password,
			DeviceName: m.DeviceName, DisplayName: m.DisplayName, Prefix: m.Prefix, AllowServers: m.AllowServers, OpenIDAllowPrivate: m.OpenIDAllowPrivate,
			AutoJoin: m.AutoJoin, Encryption: m.Encryption, CryptoStore: m.CryptoStore, PickleKeyFile: m.PickleKeyFile,
			RecoveryKey: m.RecoveryKey, ResetCrossSigning: m.ResetCrossSigning,
		}, bot, store, cfg.storage().leaseTTL(), log)
		if err != nil {
			return nil, err
		}
		runners = append(runners, run)
	}
	return runners, nil
}

// discordConfig is the Discord adapter's config: shards and command
// registration are split between the processes sharing store through
// leases in it, held under holder's name for the TTL storage.takeover
// sets.
func discordConfig(d DiscordConfig, store gobot.Store, holder string, sc StorageConfig) discord.Config {
	id, count, auto := d.shard()
	return discord.Config{
		Mode: d.Mode, Token: d.Token, ApplicationID: d.ApplicationID, PublicKey: d.PublicKey, Listen: d.Listen,
		GuildIDs: d.GuildIDs, UserInstall: d.UserInstall == nil || *d.UserInstall, ShardID: id, ShardCount: count, AutoShards: auto, APIURL: d.APIURL, GatewayURL: d.GatewayURL,
		Hold: discord.StoreLeases(store, holder, sc.leaseTTL()), LeaseRound: sc.shardRound(),
		Activity: d.Activity, ClientSecret: d.ClientSecret,
	}
}

// newRenderer returns the board renderer: at most one board drawn per
// core at once, the rest waiting in order (render.Pool).
func newRenderer() chat.Renderer { return render.NewPool(&render.Renderer{}, 0) }
