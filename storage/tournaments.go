package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

// Tournaments and ladders (gobot.Tournament, gobot.Ladder) live in
// buckets made on first use, so a file without them opens as it was
// (schema 4 unchanged) and a read-only open of an older file reads none.
// Each kind has four: its records by ID (the bucket's sequence is its
// counter, apart from games'), and three indexes the record's writes
// keep:
//
//	rooms: room \x00 id(8) → 1 while active, 0 after (RoomTournaments)
//	due:   unixnano(8) id(8) → nil, for a record with a Due (DueTournaments)
//	games: game id(8) → id(8), for each of the bot's games it holds
//	       (TournamentOfGame); a game belongs to one record of a kind
var (
	bTournaments     = []byte("tournaments")
	bRoomTournaments = []byte("idx_room_tournaments")
	bTournamentDue   = []byte("idx_tournament_due")
	bTournamentGames = []byte("idx_tournament_games")
	bLadders         = []byte("ladders")
	bRoomLadders     = []byte("idx_room_ladders")
	bLadderDue       = []byte("idx_ladder_due")
	bLadderGames     = []byte("idx_ladder_games")
)

// eventKind is how one kind of event record (a tournament, a ladder) is
// stored: its buckets, codec and the fields its indexes follow.
type eventKind[T any] struct {
	name                       string // "tournament", as errors name a record
	records, rooms, due, games []byte
	encode                     func(*T) ([]byte, error)
	decode                     func([]byte) (*T, error)
	id                         func(*T) uint64
	setID                      func(*T, uint64)
	version                    func(*T) *uint64
	room                       func(*T) gobot.RoomID
	active                     func(*T) bool
	dueAt                      func(*T) time.Time
	gameIDs                    func(*T) []gobot.GameID
	addDamaged                 func(*gobot.DamagedError, uint64)
	damagedCount               func(*gobot.DamagedError) int
}

var tournaments = eventKind[gobot.Tournament]{
	name: "tournament", records: bTournaments, rooms: bRoomTournaments, due: bTournamentDue, games: bTournamentGames,
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
	damagedCount: func(d *gobot.DamagedError) int { return len(d.Tournaments) },
}

var ladders = eventKind[gobot.Ladder]{
	name: "ladder", records: bLadders, rooms: bRoomLadders, due: bLadderDue, games: bLadderGames,
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
	damagedCount: func(d *gobot.DamagedError) int { return len(d.Ladders) },
}

// Tournament returns tournament id.
func (tx *Tx) Tournament(id gobot.TournamentID) (*gobot.Tournament, error) {
	return getEvent(tx, tournaments, uint64(id))
}

// PutTournament inserts (ID 0: the next tournament number) or updates a
// tournament, checking its Version; the indexes follow.
func (tx *Tx) PutTournament(t *gobot.Tournament) error { return putEvent(tx, tournaments, t) }

// RoomTournaments returns room r's tournaments (only active ones if
// activeOnly), by ID.
func (tx *Tx) RoomTournaments(r gobot.RoomID, activeOnly bool) ([]*gobot.Tournament, error) {
	return roomEvents(tx, tournaments, r, activeOnly)
}

// TournamentOfGame returns the tournament holding game g.
func (tx *Tx) TournamentOfGame(g gobot.GameID) (*gobot.Tournament, error) {
	return eventOfGame(tx, tournaments, g)
}

// DueTournaments returns the tournaments due before t, earliest first.
func (tx *Tx) DueTournaments(before time.Time, limit int) ([]*gobot.Tournament, error) {
	return dueEvents(tx, tournaments, before, limit)
}

// Ladder returns ladder id.
func (tx *Tx) Ladder(id gobot.LadderID) (*gobot.Ladder, error) {
	return getEvent(tx, ladders, uint64(id))
}

// PutLadder inserts (ID 0: the next ladder number) or updates a ladder,
// checking its Version; the indexes follow.
func (tx *Tx) PutLadder(l *gobot.Ladder) error { return putEvent(tx, ladders, l) }

// RoomLadders returns room r's ladders (only open ones if activeOnly), by
// ID.
func (tx *Tx) RoomLadders(r gobot.RoomID, activeOnly bool) ([]*gobot.Ladder, error) {
	return roomEvents(tx, ladders, r, activeOnly)
}

// LadderOfGame returns the ladder holding game g.
func (tx *Tx) LadderOfGame(g gobot.GameID) (*gobot.Ladder, error) { return eventOfGame(tx, ladders, g) }

// DueLadders returns the ladders due before t, earliest first.
func (tx *Tx) DueLadders(before time.Time, limit int) ([]*gobot.Ladder, error) {
	return dueEvents(tx, ladders, before, limit)
}

func getEvent[T any](tx *Tx, k eventKind[T], id uint64) (*T, error) {
	if b := tx.b(k.records); b != nil {
		if raw := b.Get(idKey(id)); raw != nil {
			v, err := k.decode(raw)
			if err != nil {
				return nil, fmt.Errorf("%s %d: %w: %v", k.name, id, gobot.ErrCorrupt, err)
			}
			if k.id(v) != id {
				return nil, fmt.Errorf("%s %d: %w: it says it is %s %d", k.name, id, gobot.ErrCorrupt, k.name, k.id(v))
			}
			return v, nil
		}
	}
	return nil, fmt.Errorf("%s %d %w", k.name, id, gobot.ErrNotFound)
}

// eventKeys are the index entries of v.
func eventKeys[T any](k eventKind[T], v *T) []indexKey {
	id := k.id(v)
	keys := []indexKey{{k.rooms, pairKey(string(k.room(v)), id)}}
	if d := k.dueAt(v); !d.IsZero() {
		keys = append(keys, indexKey{k.due, binary.BigEndian.AppendUint64(timeKey(d), id)})
	}
	for _, g := range k.gameIDs(v) {
		keys = append(keys, indexKey{k.games, idKey(uint64(g))})
	}
	return keys
}

// eventValue is the value of index entry key of v.
func eventValue[T any](k eventKind[T], v *T, key indexKey) []byte {
	switch {
	case bytes.Equal(key.bucket, k.rooms):
		if k.active(v) {
			return []byte{1}
		}
		return []byte{0}
	case bytes.Equal(key.bucket, k.games):
		return idKey(k.id(v))
	}
	return nil
}

func (tx *Tx) buckets(names ...[]byte) error {
	for _, name := range names {
		if _, err := tx.tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return nil
}

func putEvent[T any](tx *Tx, k eventKind[T], v *T) error {
	if err := tx.buckets(k.records, k.rooms, k.due, k.games); err != nil {
		return err
	}
	b := tx.b(k.records)
	ver := k.version(v)
	id, version := k.id(v), *ver+1
	var old *T
	if id == 0 {
		id, version = b.Sequence()+1, 1 // NextSequence's, taken once it is stored
	} else {
		var err error
		if old, err = getEvent(tx, k, id); err != nil {
			return err // gone, or damaged: repair quarantines it
		}
		if *k.version(old) != *ver {
			return fmt.Errorf("%s %d (version %d, stored %d): %w", k.name, id, *ver, *k.version(old), gobot.ErrConflict)
		}
	}
	// A game another record of the kind holds stays its.
	for _, g := range k.gameIDs(v) {
		if owner := tx.b(k.games).Get(idKey(uint64(g))); len(owner) == 8 && binary.BigEndian.Uint64(owner) != id {
			return fmt.Errorf("game #%d: %w (%s %d)", g, gobot.ErrGameTaken, k.name, binary.BigEndian.Uint64(owner))
		}
	}
	// Encoded once, as it will be stored; refused (nothing changed, no
	// number spent) when it cannot be.
	wasID, wasVersion := k.id(v), *ver
	k.setID(v, id)
	*ver = version
	raw, err := k.encode(v)
	if err != nil {
		k.setID(v, wasID)
		*ver = wasVersion
		return err
	}
	if old == nil {
		if _, err := b.NextSequence(); err != nil {
			return err
		}
	} else {
		for _, key := range eventKeys(k, old) {
			if err := tx.b(key.bucket).Delete(key.key); err != nil {
				return err
			}
		}
	}
	if err := b.Put(idKey(id), raw); err != nil {
		return err
	}
	for _, key := range eventKeys(k, v) {
		if err := tx.b(key.bucket).Put(key.key, eventValue(k, v, key)); err != nil {
			return err
		}
	}
	return nil
}

// events loads the records numbered ids; damaged ones are named in a
// *gobot.DamagedError beside the rest.
func events[T any](tx *Tx, k eventKind[T], ids []uint64) ([]*T, error) {
	out := make([]*T, 0, len(ids))
	var damaged gobot.DamagedError
	var errs []error
	for _, id := range ids {
		v, err := getEvent(tx, k, id)
		if err != nil {
			if !errors.Is(err, gobot.ErrCorrupt) {
				return nil, err
			}
			k.addDamaged(&damaged, id)
			errs = append(errs, err)
			continue
		}
		out = append(out, v)
	}
	if errs != nil {
		damaged.Err = errors.Join(errs...)
		return out, &damaged
	}
	return out, nil
}

func roomEvents[T any](tx *Tx, k eventKind[T], r gobot.RoomID, activeOnly bool) ([]*T, error) {
	if tx.b(k.rooms) == nil {
		return nil, nil
	}
	return events(tx, k, tx.idsWithPrefix(k.rooms, string(r), func(v []byte) bool {
		return !activeOnly || (len(v) == 1 && v[0] == 1)
	}))
}

func eventOfGame[T any](tx *Tx, k eventKind[T], g gobot.GameID) (*T, error) {
	if b := tx.b(k.games); b != nil {
		if id := b.Get(idKey(uint64(g))); len(id) == 8 {
			return getEvent(tx, k, binary.BigEndian.Uint64(id))
		}
	}
	return nil, fmt.Errorf("game #%d is in no %s: %w", g, k.name, gobot.ErrNotFound)
}

func dueEvents[T any](tx *Tx, k eventKind[T], before time.Time, limit int) ([]*T, error) {
	b := tx.b(k.due)
	if b == nil {
		return nil, nil
	}
	end := timeKey(before)
	var ids []uint64
	c := b.Cursor()
	for key, _ := c.First(); key != nil && len(key) == 16 && bytes.Compare(key[:8], end) < 0; key, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(key[8:]))
		if limit > 0 && len(ids) == limit {
			break
		}
	}
	return events(tx, k, ids)
}

// deleteEvent removes record id and its index entries; a damaged
// record's entries are found by scanning (repair's quarantine).
func deleteEvent[T any](tx *Tx, k eventKind[T], id uint64) error {
	if tx.b(k.records) == nil {
		return nil
	}
	v, err := getEvent(tx, k, id)
	switch {
	case err == nil:
		for _, key := range eventKeys(k, v) {
			if err := tx.b(key.bucket).Delete(key.key); err != nil {
				return err
			}
		}
	case errors.Is(err, gobot.ErrCorrupt):
		if err := tx.purgeIndexes(id, k.rooms, k.due); err != nil {
			return err
		}
		var doomed [][]byte
		own := idKey(id)
		tx.b(k.games).ForEach(func(key, val []byte) error {
			if bytes.Equal(val, own) {
				doomed = append(doomed, append([]byte(nil), key...))
			}
			return nil
		})
		for _, key := range doomed {
			if err := tx.b(k.games).Delete(key); err != nil {
				return err
			}
		}
	case errors.Is(err, gobot.ErrNotFound):
		return nil
	default:
		return err
	}
	return tx.b(k.records).Delete(idKey(id))
}

// checkEvents verifies that k's index entries are exactly those its
// readable records make; a damaged record's entries are let be.
func checkEvents[T any](tx *Tx, k eventKind[T]) error {
	if tx.b(k.records) == nil {
		return nil
	}
	want := map[string]string{}
	damaged := map[uint64]bool{}
	tx.b(k.records).ForEach(func(key, raw []byte) error {
		if len(key) != 8 {
			return nil
		}
		id := binary.BigEndian.Uint64(key)
		v, err := getEvent(tx, k, id)
		if err != nil {
			damaged[id] = true
			return nil
		}
		for _, ik := range eventKeys(k, v) {
			want[string(ik.bucket)+"\xff"+string(ik.key)] = string(eventValue(k, v, ik))
		}
		return nil
	})
	var errs []error
	for _, bucket := range [][]byte{k.rooms, k.due, k.games} {
		tx.b(bucket).ForEach(func(key, val []byte) error {
			full := string(bucket) + "\xff" + string(key)
			w, ok := want[full]
			owner := key
			if bytes.Equal(bucket, k.games) {
				owner = val
			}
			switch {
			case !ok && len(owner) >= 8 && damaged[binary.BigEndian.Uint64(owner[len(owner)-8:])]:
			case !ok:
				errs = append(errs, fmt.Errorf("%s: stale entry %q", bucket, key))
			case w != string(val):
				errs = append(errs, fmt.Errorf("%s: entry %q is %v, want %v", bucket, key, val, []byte(w)))
			}
			delete(want, full)
			return nil
		})
	}
	for full := range want {
		bucket, key, _ := bytes.Cut([]byte(full), []byte{0xff})
		errs = append(errs, fmt.Errorf("%s: missing entry %q", bucket, key))
	}
	return errors.Join(errs...)
}
