package postgres

import (
	"time"

	"github.com/gobotgo/gobot"
)

// Game and challenge numbers: a game keeps its challenge's number (one
// counter for both), and the deadline a game is indexed by.

func (t *tx) SkipGameNumbers() error {
	_, err := t.tx.Exec(t.ctx, `UPDATE counters SET value = greatest(value, (SELECT value FROM counters WHERE name = 'games'))
		WHERE name = 'challenges'`)
	return err
}

func (t *tx) InsertMatch(g *gobot.Match) error {
	if g.ID == 0 {
		return t.PutMatch(g)
	}
	var taken bool
	if err := t.tx.QueryRow(t.ctx, "SELECT EXISTS (SELECT 1 FROM games WHERE id = $1)", int64(g.ID)).Scan(&taken); err != nil {
		return err
	}
	if taken {
		// Taken (a database from before numbers were shared): the next
		// number above both counters, which challenges then skip.
		var n int64
		if err := t.tx.QueryRow(t.ctx, "SELECT max(value) + 1 FROM counters WHERE name IN ('games', 'challenges')").Scan(&n); err != nil {
			return err
		}
		if _, err := t.tx.Exec(t.ctx, `UPDATE counters SET value = CASE name WHEN 'challenges' THEN $1::bigint ELSE $1::bigint - 1 END
			WHERE name IN ('games', 'challenges')`, n); err != nil {
			return err
		}
		g.ID = 0
		return t.PutMatch(g)
	}
	if _, err := t.tx.Exec(t.ctx, "UPDATE counters SET value = greatest(value, $1::bigint) WHERE name = 'games'", int64(g.ID)); err != nil {
		return err
	}
	g.Version = 1
	raw, err := encodeGame(g)
	if err != nil {
		g.Version = 0
		return err
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO games (id, version, room, black, white, active, deadline, record, team, mirror)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
		int64(g.ID), int64(g.Version), string(g.Room), string(g.Black), string(g.White), g.Active(), deadlineOf(g), raw, teamColumn(g), string(g.Mirror))
	return err
}

// deadlineOf is the indexed deadline: an active game's, else none.
func deadlineOf(g *gobot.Match) *time.Time {
	if g.Active() && !g.Deadline.IsZero() {
		d := g.Deadline
		return &d
	}
	return nil
}
