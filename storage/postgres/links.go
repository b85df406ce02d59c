package postgres

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// The generation of each player's personal links to a game, one row per
// game and player (migration 006); no row is generation 0.

func (t *tx) LinkGeneration(g gobot.GameID, u gobot.UserID) (uint64, error) {
	var gen int64
	err := t.tx.QueryRow(t.ctx, "SELECT generation FROM link_generations WHERE game = $1 AND player = $2", int64(g), string(u)).Scan(&gen)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if gen < 0 {
		return 0, fmt.Errorf("link generation of %s in game #%d: %w: %d", u, g, gobot.ErrCorrupt, gen)
	}
	return uint64(gen), nil
}

func (t *tx) PutLinkGeneration(g gobot.GameID, u gobot.UserID, gen uint64) error {
	if g == 0 || u == "" {
		return errors.New("a link generation needs a game and a user")
	}
	if gen > 1<<63-1 {
		return fmt.Errorf("link generation %d of %s in game #%d is out of range", gen, u, g)
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO link_generations (game, player, generation) VALUES ($1, $2, $3)
		ON CONFLICT (game, player) DO UPDATE SET generation = $3`, int64(g), string(u), int64(gen))
	return err
}
