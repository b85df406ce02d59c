package main

import (
	"fmt"
	"log/slog"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix"
)

// matrixWidgets lets the web board sign in its Matrix widget page when
// Matrix is on: a Matrix adapter of its own that never syncs checks the
// OpenID tokens (with the user's homeserver) and the game rooms'
// members (with the session the syncing adapter keeps in the store), so
// every process serving the board can, whichever holds the sync lease.
func (wb *webBoard) matrixWidgets(cfg *Config, bot *chat.Bot, store *openedStore, log *slog.Logger) error {
	m := cfg.Matrix
	wb.widgetOrigins = cfg.Web.WidgetOrigins
	if !m.Enabled {
		return nil
	}
	a, err := matrix.New(matrix.Config{Homeserver: m.Homeserver, UserID: m.UserID, AccessToken: m.AccessToken, Password: m.Password, OpenIDAllowPrivate: m.OpenIDAllowPrivate}, bot, gobot.StoreState(store), log)
	if err != nil {
		return fmt.Errorf("matrix: %w", err)
	}
	wb.widgets = a
	wb.members[matrix.Platform] = a // a vote from the board: still in the room?
	return nil
}
