package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
)

// Update runs fn in one read-write SERIALIZABLE transaction, committed
// before it returns nil; if fn fails nothing is written. PostgreSQL may
// abort a transaction that conflicts with a concurrent one; fn then runs
// again, so it must set, not accumulate, what it captures.
func (s *Store) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	return s.run(ctx, pgx.TxOptions{IsoLevel: pgx.Serializable}, func(ptx pgx.Tx) error {
		return runNoted(ctx, ptx, fn)
	})
}

// View runs fn in a read-only transaction on one snapshot.
func (s *Store) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return s.run(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(ptx pgx.Tx) error {
		return runNoted(ctx, ptx, fn)
	})
}

// runNoted runs fn on ptx; when a statement inside failed in a way a new
// attempt can fix, that error is returned (whatever fn made of it) so the
// transaction runs again.
func runNoted(ctx context.Context, ptx pgx.Tx, fn func(gobot.Tx) error) error {
	n := &noted{Tx: ptx, ctx: ctx}
	err := fn(&tx{ctx: ctx, tx: n})
	if n.failed != nil {
		return n.failed
	}
	return err
}

// tx is one transaction.
type tx struct {
	ctx context.Context
	tx  *noted
}

// --- games ---

func (t *tx) Match(id gobot.GameID) (*gobot.Match, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM games WHERE id = $1", int64(id)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("game #%d %w", id, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeGame(id, raw)
}

func (t *tx) next(counter string) (uint64, error) {
	var v int64
	err := t.tx.QueryRow(t.ctx, "UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value", counter).Scan(&v)
	return uint64(v), err
}

func (t *tx) PutMatch(g *gobot.Match) error {
	insert := g.ID == 0
	if insert {
		id, err := t.next("games")
		if err != nil {
			return err
		}
		g.ID, g.Version = gobot.GameID(id), 0
	} else {
		// A game deleted since it was read stays deleted, and a damaged
		// record is not overwritten blindly (DeleteGame removes it).
		old, err := t.Match(g.ID)
		if err != nil {
			return err
		}
		if old.Version != g.Version {
			return fmt.Errorf("game #%d (version %d, stored %d): %w", g.ID, g.Version, old.Version, gobot.ErrConflict)
		}
	}
	g.Version++
	raw, err := encodeGame(g)
	if err != nil {
		g.Version--
		return err
	}
	var deadline *time.Time
	if g.Active() && !g.Deadline.IsZero() {
		d := g.Deadline
		deadline = &d
	}
	if insert {
		_, err = t.tx.Exec(t.ctx, `INSERT INTO games (id, version, room, black, white, active, deadline, record, team, mirror)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			int64(g.ID), int64(g.Version), string(g.Room), string(g.Black), string(g.White), g.Active(), deadline, raw, teamColumn(g), string(g.Mirror))
		return err
	}
	tag, err := t.tx.Exec(t.ctx, `UPDATE games SET version = $2, room = $3, black = $4, white = $5, active = $6,
			deadline = $7, record = $8, team = $10, mirror = $11 WHERE id = $1 AND version = $9`,
		int64(g.ID), int64(g.Version), string(g.Room), string(g.Black), string(g.White), g.Active(), deadline, raw, int64(g.Version-1), teamColumn(g), string(g.Mirror))
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		g.Version--
		return fmt.Errorf("game #%d (version %d): %w", g.ID, g.Version, gobot.ErrConflict)
	}
	return nil
}

// teamColumn is what the games table's team column holds: every member
// of a team game's teams (found by ActiveGames), none otherwise.
func teamColumn(g *gobot.Match) []string {
	out := []string{}
	if g.Teams != nil {
		for _, u := range g.Teams.Members() {
			out = append(out, string(u))
		}
	}
	return out
}

func (t *tx) DeleteGame(id gobot.GameID) error {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM games WHERE id = $1", int64(id))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("game #%d %w", id, gobot.ErrNotFound)
	}
	return nil
}

// listRecords runs a query of (id, record) rows and decodes each record.
// Records that cannot be read are left out and passed to bad, so callers
// can use the good ones and name the others.
func listRecords[T any](t *tx, decode func(id int64, raw []byte) (T, error), bad func(id int64, err error), sql string, args ...any) ([]T, error) {
	rows, err := t.tx.Query(t.ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		var id int64
		var raw []byte
		if err := rows.Scan(&id, &raw); err != nil {
			return nil, err
		}
		v, err := decode(id, raw)
		if err != nil {
			bad(id, err)
			continue
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// games lists the games a query of (id, record) rows names; damaged ones
// are reported in a *chat.DamagedError beside the readable ones.
func (t *tx) games(sql string, args ...any) ([]*gobot.Match, error) {
	var bad damaged
	out, err := listRecords(t, func(id int64, raw []byte) (*gobot.Match, error) { return decodeGame(gobot.GameID(id), raw) },
		func(id int64, err error) { bad.game(gobot.GameID(id), err) }, sql, args...)
	if err != nil {
		return nil, err
	}
	return out, bad.err()
}

func (t *tx) ActiveGames(u gobot.UserID) ([]*gobot.Match, error) {
	return t.games(`SELECT id, record FROM games WHERE active AND (black = $1 OR white = $1 OR team @> ARRAY[$1]::text[]) ORDER BY id`, string(u))
}

func (t *tx) RoomGames(r gobot.RoomID, activeOnly bool) ([]*gobot.Match, error) {
	if activeOnly {
		return t.games(`SELECT id, record FROM games WHERE (room = $1 OR mirror = $1) AND active ORDER BY id`, string(r))
	}
	return t.games(`SELECT id, record FROM games WHERE (room = $1 OR mirror = $1) ORDER BY id`, string(r))
}

func (t *tx) DueGames(before time.Time, limit int) ([]*gobot.Match, error) {
	if limit <= 0 {
		return t.games(`SELECT id, record FROM games WHERE active AND deadline IS NOT NULL AND deadline < $1
			ORDER BY deadline, id`, before)
	}
	return t.games(`SELECT id, record FROM games WHERE active AND deadline IS NOT NULL AND deadline < $1
		ORDER BY deadline, id LIMIT $2`, before, limit)
}

// --- challenges ---

func (t *tx) Challenge(id gobot.ChallengeID) (*gobot.Challenge, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM challenges WHERE id = $1", int64(id)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("challenge #%d %w", id, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeChallenge(id, raw)
}

func (t *tx) PutChallenge(c *gobot.Challenge) error {
	insert := c.ID == 0
	if insert {
		id, err := t.next("challenges")
		if err != nil {
			return err
		}
		c.ID = gobot.ChallengeID(id)
	} else if _, err := t.Challenge(c.ID); err != nil {
		return err // deleted, or damaged: DeleteChallenge removes it
	}
	raw, err := encodeChallenge(c)
	if err != nil {
		return err
	}
	team := []string{}
	if c.Teams != nil {
		for _, u := range c.Teams.Members() {
			team = append(team, string(u))
		}
	}
	_, err = t.tx.Exec(t.ctx, `INSERT INTO challenges (id, room, sender, receiver, pending, record, team)
		VALUES ($1, $2, $3, $4, $5, $6, $7)
		ON CONFLICT (id) DO UPDATE SET room = $2, sender = $3, receiver = $4, pending = $5, record = $6, team = $7`,
		int64(c.ID), string(c.Room), string(c.From), string(c.To), c.Status == gobot.Pending, raw, team)
	return err
}

func (t *tx) DeleteChallenge(id gobot.ChallengeID) error {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM challenges WHERE id = $1", int64(id))
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("challenge #%d %w", id, gobot.ErrNotFound)
	}
	return nil
}

func (t *tx) challenges(sql string, args ...any) ([]*gobot.Challenge, error) {
	var bad damaged
	out, err := listRecords(t, func(id int64, raw []byte) (*gobot.Challenge, error) {
		return decodeChallenge(gobot.ChallengeID(id), raw)
	},
		func(id int64, err error) { bad.challenge(gobot.ChallengeID(id), err) }, sql, args...)
	if err != nil {
		return nil, err
	}
	return out, bad.err()
}

func (t *tx) PendingChallenges(u gobot.UserID) ([]*gobot.Challenge, error) {
	return t.challenges(`SELECT id, record FROM challenges WHERE pending AND (sender = $1 OR receiver = $1 OR team @> ARRAY[$1]::text[]) ORDER BY id`, string(u))
}

func (t *tx) RoomChallenges(r gobot.RoomID) ([]*gobot.Challenge, error) {
	return t.challenges(`SELECT id, record FROM challenges WHERE pending AND room = $1 ORDER BY id`, string(r))
}

// --- players, rooms, state ---

func (t *tx) getRecord(table, what, key string) ([]byte, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM "+table+" WHERE id = $1", key).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%s %s %w", what, key, gobot.ErrNotFound)
	}
	return raw, err
}

func (t *tx) putRecord(table, key string, raw []byte) error {
	if key == "" {
		return errors.New("empty key")
	}
	_, err := t.tx.Exec(t.ctx, "INSERT INTO "+table+" (id, record) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET record = $2", key, raw)
	return err
}

func (t *tx) Player(id gobot.UserID) (*gobot.Player, error) {
	raw, err := t.getRecord("players", "player", string(id))
	if err != nil {
		return nil, err
	}
	return decodePlayer(id, raw)
}

func (t *tx) Room(id gobot.RoomID) (*gobot.Room, error) {
	raw, err := t.getRecord("rooms", "room", string(id))
	if err != nil {
		return nil, err
	}
	return decodeRoom(id, raw)
}

func (t *tx) PutRoom(r *gobot.Room) error {
	raw, err := encodeRoom(r)
	if err != nil {
		return err
	}
	return t.putRecord("rooms", string(r.ID), raw)
}

func (t *tx) State(ns, key string) ([]byte, error) {
	var v []byte
	err := t.tx.QueryRow(t.ctx, "SELECT value FROM state WHERE ns = $1 AND key = $2", ns, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("state %s/%s %w", ns, key, gobot.ErrNotFound)
	}
	return v, err
}

func (t *tx) PutState(ns, key string, v []byte) error {
	if v == nil {
		_, err := t.tx.Exec(t.ctx, "DELETE FROM state WHERE ns = $1 AND key = $2", ns, key)
		return err
	}
	_, err := t.tx.Exec(t.ctx, `INSERT INTO state (ns, key, value) VALUES ($1, $2, $3)
		ON CONFLICT (ns, key) DO UPDATE SET value = $3`, ns, key, v)
	return err
}

// --- events ---

func (t *tx) MarkEvent(id gobot.EventID, at time.Time) error {
	if id == "" {
		return errors.New("empty event ID")
	}
	tag, err := t.tx.Exec(t.ctx, "INSERT INTO events (id, handled) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING", string(id), at)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("event %s: %w", id, gobot.ErrDuplicate)
	}
	return nil
}

func (t *tx) ExpireEvents(before time.Time) (int, error) {
	tag, err := t.tx.Exec(t.ctx, "DELETE FROM events WHERE handled < $1", before)
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}
