package main

import (
	"context"
	"errors"
	"io"
	"log/slog"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/console"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// adapters builds a runner for every adapter the config enables and
// registers their notifiers with the bot.
func adapters(ctx context.Context, cfg *Config, bot *chat.Bot, store *storage.DB, log *slog.Logger, stdin io.Reader, stdout io.Writer) ([]func(context.Context) error, error) {
	var runners []func(context.Context) error
	if cfg.Console.Enabled {
		con := &console.Console{Bot: bot, In: stdin, Out: stdout, User: cfg.Console.User, Dir: cfg.Console.ImagesDir}
		bot.SetNotifier(console.Platform, con)
		runners = append(runners, con.Run)
	}
	if cfg.Discord.Enabled {
		return nil, errors.New("discord.enabled: this build of gobot has no Discord adapter yet")
	}
	if cfg.Matrix.Enabled {
		return nil, errors.New("matrix.enabled: this build of gobot has no Matrix adapter yet")
	}
	return runners, nil
}

// newRenderer returns the board renderer.
func newRenderer() chat.Renderer { return &render.Renderer{} }
