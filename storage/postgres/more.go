package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// --- shared numbers: a game keeps its challenge's number ---

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
	_, err = t.tx.Exec(t.ctx, `INSERT INTO games (id, version, room, black, white, active, deadline, record)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
		int64(g.ID), int64(g.Version), string(g.Room), string(g.Black), string(g.White), g.Active(), deadlineOf(g), raw)
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

// --- outbox ---

func (t *tx) PutOutbox(id gobot.EventID, at time.Time, v []byte) error {
	if id == "" {
		return errors.New("outbox: empty event ID")
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO outbox (id, stored, value) VALUES ($1, $2, $3)
		ON CONFLICT (id) DO UPDATE SET stored = $2, value = $3`, string(id), at, v)
	return err
}

func (t *tx) Outbox(id gobot.EventID) ([]byte, error) {
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT value FROM outbox WHERE id = $1", string(id)).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("outbox entry %s %w", id, gobot.ErrNotFound)
	}
	return v, err
}

func (t *tx) DeleteOutbox(id gobot.EventID) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM outbox WHERE id = $1", string(id))
	return err
}

func (t *tx) ExpireOutbox(before time.Time) (int, error) {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM outbox WHERE stored < $1", before)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// --- ratings ---

func (t *tx) Rating(c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM ratings WHERE community = $1 AND player = $2", string(c), string(u)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("rating of %s in %s %w", u, c, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeRating(c, u, raw)
}

func decodeRating(c gobot.CommunityID, u gobot.UserID, raw []byte) (*gobot.PlayerRating, error) {
	r, err := record.DecodeRating(raw)
	if err != nil {
		return nil, fmt.Errorf("rating of %s in %s: %w: %v", u, c, gobot.ErrCorrupt, err)
	}
	if r.Community != c || r.User != u {
		return nil, fmt.Errorf("rating of %s in %s: %w: it says it is %s in %s", u, c, gobot.ErrCorrupt, r.User, r.Community)
	}
	return r, nil
}

func (t *tx) PutRating(r *gobot.PlayerRating) error {
	if r.Community == "" || r.User == "" {
		return errors.New("a rating needs a community and a user")
	}
	if err := r.Player().Check(); err != nil {
		return fmt.Errorf("rating of %s in %s: %w", r.User, r.Community, err)
	}
	raw, err := record.EncodeRating(r)
	if err != nil {
		return err
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO ratings (community, player, record) VALUES ($1, $2, $3)
		ON CONFLICT (community, player) DO UPDATE SET record = $3`, string(r.Community), string(r.User), raw)
	return err
}

func (t *tx) Ratings(c gobot.CommunityID) ([]*gobot.PlayerRating, error) {
	sql := `SELECT community, player, record FROM ratings ORDER BY community COLLATE "C", player COLLATE "C"`
	args := []any{}
	if c != "" {
		sql = `SELECT community, player, record FROM ratings WHERE community = $1 ORDER BY player COLLATE "C"`
		args = append(args, string(c))
	}
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*gobot.PlayerRating
	var errs []error
	for rows.Next() {
		var cs, us string
		var raw []byte
		if err := rows.Scan(&cs, &us, &raw); err != nil {
			return nil, err
		}
		r, err := decodeRating(gobot.CommunityID(cs), gobot.UserID(us), raw)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(errs) > 0 {
		return out, &gobot.DamagedError{Err: errors.Join(errs...)}
	}
	return out, nil
}
