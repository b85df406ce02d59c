package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

// Tournaments and ladders (migration 008): one table of records per kind
// with the columns its lists read, and one of the bot's games each holds.

// eventKind is how one kind of event record is stored: its tables, codec
// and the fields its columns follow.
type eventKind[T any] struct {
	name         string // "tournament", as errors name a record
	table, games string // "tournaments", "tournament_games"
	owner        string // the games table's column naming the record
	encode       func(*T) ([]byte, error)
	decode       func([]byte) (*T, error)
	id           func(*T) uint64
	setID        func(*T, uint64)
	version      func(*T) *uint64
	room         func(*T) gobot.RoomID
	active       func(*T) bool
	dueAt        func(*T) time.Time
	gameIDs      func(*T) []gobot.GameID
	addDamaged   func(*gobot.DamagedError, uint64)
}

var tournaments = eventKind[gobot.Tournament]{
	name: "tournament", table: "tournaments", games: "tournament_games", owner: "tournament",
	encode: record.EncodeTournament, decode: record.DecodeTournament,
	id:      func(t *gobot.Tournament) uint64 { return uint64(t.ID) },
	setID:   func(t *gobot.Tournament, id uint64) { t.ID = gobot.TournamentID(id) },
	version: func(t *gobot.Tournament) *uint64 { return &t.Version },
	room:    func(t *gobot.Tournament) gobot.RoomID { return t.Room },
	active:  (*gobot.Tournament).Active,
	dueAt:   func(t *gobot.Tournament) time.Time { return t.Due },
	gameIDs: (*gobot.Tournament).Games,
	addDamaged: func(d *gobot.DamagedError, id uint64) {
		d.Tournaments = append(d.Tournaments, gobot.TournamentID(id))
	},
}

var ladders = eventKind[gobot.Ladder]{
	name: "ladder", table: "ladders", games: "ladder_games", owner: "ladder",
	encode: record.EncodeLadder, decode: record.DecodeLadder,
	id:      func(l *gobot.Ladder) uint64 { return uint64(l.ID) },
	setID:   func(l *gobot.Ladder, id uint64) { l.ID = gobot.LadderID(id) },
	version: func(l *gobot.Ladder) *uint64 { return &l.Version },
	room:    func(l *gobot.Ladder) gobot.RoomID { return l.Room },
	active:  (*gobot.Ladder).Active,
	dueAt:   func(l *gobot.Ladder) time.Time { return l.Due },
	gameIDs: (*gobot.Ladder).Games,
	addDamaged: func(d *gobot.DamagedError, id uint64) {
		d.Ladders = append(d.Ladders, gobot.LadderID(id))
	},
}

// Tournament returns tournament id.
func (t *tx) Tournament(id gobot.TournamentID) (*gobot.Tournament, error) {
	return getEvent(t, tournaments, uint64(id))
}

// PutTournament inserts (ID 0: the next tournament number) or updates a
// tournament, checking its Version as PutMatch does.
func (t *tx) PutTournament(v *gobot.Tournament) error { return putEvent(t, tournaments, v) }

// RoomTournaments returns room r's tournaments (only active ones if
// activeOnly), by ID.
func (t *tx) RoomTournaments(r gobot.RoomID, activeOnly bool) ([]*gobot.Tournament, error) {
	return roomEvents(t, tournaments, r, activeOnly)
}

// TournamentOfGame returns the tournament holding game g.
func (t *tx) TournamentOfGame(g gobot.GameID) (*gobot.Tournament, error) {
	return eventOfGame(t, tournaments, g)
}

// DueTournaments returns the tournaments due before t, earliest first.
func (t *tx) DueTournaments(before time.Time, limit int) ([]*gobot.Tournament, error) {
	return dueEvents(t, tournaments, before, limit)
}

// Ladder returns ladder id.
func (t *tx) Ladder(id gobot.LadderID) (*gobot.Ladder, error) {
	return getEvent(t, ladders, uint64(id))
}

// PutLadder inserts (ID 0: the next ladder number) or updates a ladder.
func (t *tx) PutLadder(l *gobot.Ladder) error { return putEvent(t, ladders, l) }

// RoomLadders returns room r's ladders (only open ones if activeOnly).
func (t *tx) RoomLadders(r gobot.RoomID, activeOnly bool) ([]*gobot.Ladder, error) {
	return roomEvents(t, ladders, r, activeOnly)
}

// LadderOfGame returns the ladder holding game g.
func (t *tx) LadderOfGame(g gobot.GameID) (*gobot.Ladder, error) { return eventOfGame(t, ladders, g) }

// DueLadders returns the ladders due before t, earliest first.
func (t *tx) DueLadders(before time.Time, limit int) ([]*gobot.Ladder, error) {
	return dueEvents(t, ladders, before, limit)
}

func decodeEvent[T any](k eventKind[T], id uint64, raw []byte) (*T, error) {
	v, err := k.decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %d: %w: %v", k.name, id, gobot.ErrCorrupt, err)
	}
	if k.id(v) != id {
		return nil, fmt.Errorf("%s %d: %w: it says it is %s %d", k.name, id, gobot.ErrCorrupt, k.name, k.id(v))
	}
	return v, nil
}

func getEvent[T any](t *tx, k eventKind[T], id uint64) (*T, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM "+k.table+" WHERE id = $1", int64(id)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%s %d %w", k.name, id, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeEvent(k, id, raw)
}

func putEvent[T any](t *tx, k eventKind[T], v *T) error {
	if _, err := k.encode(v); err != nil { // refused before anything changes
		return err
	}
	ver := k.version(v)
	insert := k.id(v) == 0
	if !insert {
		// A record deleted since it was read stays deleted, and a
		// damaged one is not overwritten blindly.
		old, err := getEvent(t, k, k.id(v))
		if err != nil {
			return err
		}
		if *k.version(old) != *ver {
			return fmt.Errorf("%s %d (version %d, stored %d): %w", k.name, k.id(v), *ver, *k.version(old), gobot.ErrConflict)
		}
	}
	var games []int64
	for _, g := range k.gameIDs(v) {
		games = append(games, int64(g))
	}
	// A game another record of the kind holds stays its (asked first: a
	// failed INSERT would end the transaction).
	var game, owner int64
	err := t.tx.QueryRow(t.ctx, "SELECT game, "+k.owner+" FROM "+k.games+" WHERE game = ANY($1) AND "+k.owner+" <> $2 ORDER BY game LIMIT 1",
		games, int64(k.id(v))).Scan(&game, &owner)
	switch {
	case err == nil:
		return fmt.Errorf("game #%d: %w (%s %d)", game, gobot.ErrGameTaken, k.name, owner)
	case !errors.Is(err, pgx.ErrNoRows):
		return err
	}
	if insert {
		id, err := t.next(k.table)
		if err != nil {
			return err
		}
		k.setID(v, id)
		*ver = 0
	}
	*ver++
	raw, err := k.encode(v)
	if err != nil {
		*ver--
		return err
	}
	var due *time.Time
	if d := k.dueAt(v); !d.IsZero() {
		due = &d
	}
	id, room, active := int64(k.id(v)), string(k.room(v)), k.active(v)
	if insert {
		_, err = t.tx.Exec(t.ctx, "INSERT INTO "+k.table+" (id, version, room, active, due, record) VALUES ($1, $2, $3, $4, $5, $6)",
			id, int64(*ver), room, active, due, raw)
	} else {
		var tag pgconn.CommandTag
		tag, err = t.tx.Exec(t.ctx, "UPDATE "+k.table+" SET version = $2, room = $3, active = $4, due = $5, record = $6 WHERE id = $1 AND version = $7",
			id, int64(*ver), room, active, due, raw, int64(*ver-1))
		if err == nil && tag.RowsAffected() != 1 {
			*ver--
			return fmt.Errorf("%s %d (version %d): %w", k.name, id, *ver, gobot.ErrConflict)
		}
		if err == nil {
			_, err = t.tx.Exec(t.ctx, "DELETE FROM "+k.games+" WHERE "+k.owner+" = $1", id)
		}
	}
	if err == nil && len(games) > 0 {
		_, err = t.tx.Exec(t.ctx, "INSERT INTO "+k.games+" (game, "+k.owner+") SELECT unnest($1::bigint[]), $2", games, id)
	}
	return err
}

// events lists the records a query of (id, record) rows names; damaged
// ones are named in a *gobot.DamagedError beside the rest.
func events[T any](t *tx, k eventKind[T], sql string, args ...any) ([]*T, error) {
	var bad gobot.DamagedError
	out, err := listRecords(t, func(id int64, raw []byte) (*T, error) { return decodeEvent(k, uint64(id), raw) },
		func(id int64, err error) { k.addDamaged(&bad, uint64(id)); bad.Err = errors.Join(bad.Err, err) }, sql, args...)
	if err != nil {
		return nil, err
	}
	if bad.Err != nil {
		return out, &bad
	}
	return out, nil
}

func roomEvents[T any](t *tx, k eventKind[T], r gobot.RoomID, activeOnly bool) ([]*T, error) {
	if activeOnly {
		return events(t, k, "SELECT id, record FROM "+k.table+" WHERE room = $1 AND active ORDER BY id", string(r))
	}
	return events(t, k, "SELECT id, record FROM "+k.table+" WHERE room = $1 ORDER BY id", string(r))
}

func eventOfGame[T any](t *tx, k eventKind[T], g gobot.GameID) (*T, error) {
	var id int64
	err := t.tx.QueryRow(t.ctx, "SELECT "+k.owner+" FROM "+k.games+" WHERE game = $1", int64(g)).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("game #%d is in no %s: %w", g, k.name, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return getEvent(t, k, uint64(id))
}

func dueEvents[T any](t *tx, k eventKind[T], before time.Time, limit int) ([]*T, error) {
	q := "SELECT id, record FROM " + k.table + " WHERE due IS NOT NULL AND due < $1 ORDER BY due, id"
	if limit > 0 {
		return events(t, k, q+" LIMIT $2", before, limit)
	}
	return events(t, k, q, before)
}
