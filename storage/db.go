package storage

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout this code writes; older files are upgraded
// by Open.
const SchemaVersion = 4

var (
	bMeta         = []byte("meta")
	bGames        = []byte("games")
	bPlayerGames  = []byte("idx_player_games")   // user \x00 id → nil (active games)
	bRoomGames    = []byte("idx_room_games")     // room \x00 id → 1 active / 0 finished
	bDeadlines    = []byte("idx_deadlines")      // unixnano(8) id(8) → nil (active games)
	bChallenges   = []byte("challenges")         // id → JSON
	bPlayerChals  = []byte("idx_player_chals")   // user \x00 id → nil (pending)
	bRoomChals    = []byte("idx_room_chals")     // room \x00 id → nil (pending)
	bPlayers      = []byte("players")            // id → JSON
	bRooms        = []byte("rooms")              // id → JSON
	bEvents       = []byte("events")             // event id → unixnano(8)
	bEventsByTime = []byte("idx_events_by_time") // unixnano(8) event id → nil
	bState        = []byte("state")              // ns \x00 key → value
	// bQuarantine (repair.go): kind \x00 key → a damaged record taken out of play
	keySchema = []byte("schema")
)

var allBuckets = [][]byte{bMeta, bGames, bPlayerGames, bRoomGames, bDeadlines, bChallenges, bPlayerChals, bRoomChals, bPlayers, bRooms, bEvents, bEventsByTime, bState, bQuarantine}

// Options tune Open.
type Options struct {
	// Timeout is how long to wait for another process to release the
	// file (default 1s); then Open fails with ErrInUse.
	Timeout time.Duration
	// NoSync skips fsync (benchmarks and fixtures only: a crash may lose
	// acknowledged changes).
	NoSync bool
	// ReadOnly opens the file for reading only.
	ReadOnly bool
}

// DB is gobot's database.
type DB struct {
	bolt *bolt.DB
	path string
}

// Open opens (creating if needed) the database at path and upgrades an
// older schema.
func Open(path string, opt Options) (*DB, error) {
	if opt.Timeout == 0 {
		opt.Timeout = time.Second
	}
	if err := checkAtOpen(path, opt.Timeout); err != nil {
		return nil, err // the file is damaged (ErrDamaged) or in use
	}
	b, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: opt.Timeout, NoSync: opt.NoSync, ReadOnly: opt.ReadOnly})
	if err != nil {
		if errors.Is(err, bolterrors.ErrTimeout) {
			return nil, fmt.Errorf("%w (%s)", gobot.ErrInUse, path)
		}
		return nil, fmt.Errorf("opening database %s: %w", path, err)
	}
	// Commands are short; a batch waits at most 1 ms for company.
	b.MaxBatchDelay = time.Millisecond
	db := &DB{bolt: b, path: path}
	check := db.migrate
	if opt.ReadOnly {
		check = db.checkSchema
	}
	if err := check(); err != nil {
		b.Close()
		return nil, fmt.Errorf("database %s: %w", path, err)
	}
	return db, nil
}

// Close closes the database.
func (db *DB) Close() error { return db.bolt.Close() }

// Path returns the file's path.
func (db *DB) Path() string { return db.path }

var _ gobot.Store = (*DB)(nil)

// Update runs fn in one read-write transaction, committed (fsynced) before
// it returns nil; if fn fails nothing is written. A cancelled ctx starts
// no transaction.
func (db *DB) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	return db.update(ctx, func(tx *Tx) error { return fn(tx) })
}

// View runs fn in a read-only transaction.
func (db *DB) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return db.view(ctx, func(tx *Tx) error { return fn(tx) })
}

func (db *DB) update(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.Update(func(btx *bolt.Tx) error { return fn(&Tx{btx}) })
}

// batch runs fn in a transaction shared with other concurrent batch calls
// (fewer fsyncs under load; BenchmarkParallelMoves compares). fn may run
// more than once, so it must be idempotent apart from its effect on the
// transaction.
func (db *DB) batch(fn func(*Tx) error) error {
	return db.bolt.Batch(func(btx *bolt.Tx) error { return fn(&Tx{btx}) })
}

func (db *DB) view(ctx context.Context, fn func(*Tx) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return db.bolt.View(func(btx *bolt.Tx) error { return fn(&Tx{btx}) })
}

// Backup writes a consistent copy of the whole database to w while it is
// in use, and returns the number of bytes written.
func (db *DB) Backup(w io.Writer) (int64, error) {
	var n int64
	err := db.bolt.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	return n, err
}

// Check runs bbolt's consistency check and gobot's index invariants.
func (db *DB) Check() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		var errs []error
		for err := range btx.Check() {
			errs = append(errs, err)
		}
		tx := &Tx{btx}
		if err := tx.checkIndexes(); err != nil {
			errs = append(errs, err)
		}
		if err := checkEvents(tx, tournaments); err != nil {
			errs = append(errs, err)
		}
		if err := checkEvents(tx, ladders); err != nil {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}

// schemaOf reads the file's schema version: 0 for a new file, 1 for a
// file from before the schema key existed.
func schemaOf(btx *bolt.Tx) (int, error) {
	if meta := btx.Bucket(bMeta); meta != nil {
		if raw := meta.Get(keySchema); raw != nil {
			if len(raw) != 4 {
				return 0, fmt.Errorf("schema version: %w: %d bytes", gobot.ErrCorrupt, len(raw))
			}
			return int(binary.BigEndian.Uint32(raw)), nil
		}
	}
	if btx.Bucket(bGames) != nil {
		return 1, nil
	}
	return 0, nil
}

// checkSchema is Open's check for read-only use, which cannot upgrade:
// the file must already have this code's layout.
func (db *DB) checkSchema() error {
	return db.bolt.View(func(btx *bolt.Tx) error {
		v, err := schemaOf(btx)
		if err != nil {
			return err
		}
		if v != SchemaVersion {
			return fmt.Errorf("schema %d, this gobot reads %d; open it read-write once to upgrade", v, SchemaVersion)
		}
		for _, name := range allBuckets {
			if btx.Bucket(name) == nil {
				return fmt.Errorf("%w: bucket %s is missing", gobot.ErrCorrupt, name)
			}
		}
		return nil
	})
}

// migrate brings the file to SchemaVersion. Version 1 files (the first
// layout) had no deadline index and no event expiry index: version 2
// builds both from the records. Version 3 rewrites every record in
// storage/record's format from the model's encoding/json form. Version 4
// records carry "v":4 (the format gained optional fields only): every
// record is read and written again.
func (db *DB) migrate() error {
	return db.bolt.Update(func(btx *bolt.Tx) error {
		meta, err := btx.CreateBucketIfNotExists(bMeta)
		if err != nil {
			return err
		}
		v, err := schemaOf(btx)
		if err != nil {
			return err
		}
		if v > SchemaVersion {
			return fmt.Errorf("written by a newer gobot (schema %d; this one knows %d)", v, SchemaVersion)
		}
		for _, name := range allBuckets {
			if _, err := btx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		tx := &Tx{btx}
		if v == 1 {
			if err := tx.migrate1to2(); err != nil {
				return fmt.Errorf("upgrading schema 1 to 2: %w", err)
			}
		}
		if v == 1 || v == 2 {
			if err := tx.migrate2to3(); err != nil {
				return fmt.Errorf("upgrading schema 2 to 3: %w", err)
			}
		}
		if v >= 1 && v <= 3 {
			if err := tx.migrate3to4(); err != nil {
				return fmt.Errorf("upgrading schema 3 to 4: %w", err)
			}
		}
		return meta.Put(keySchema, binary.BigEndian.AppendUint32(nil, SchemaVersion))
	})
}

// migrate2to3 rewrites games, challenges, players and rooms from the
// schema-2 encoding (record.DecodeMatchV2 and its kin) to package
// record's format.
func (tx *Tx) migrate2to3() error {
	return tx.recodeBuckets([]recodeStep{
		{bGames, recode(record.DecodeMatchV2, record.EncodeMatch)},
		{bChallenges, recode(record.DecodeChallengeV2, record.EncodeChallenge)},
		{bPlayers, recode(record.DecodePlayerV2, record.EncodePlayer)},
		{bRooms, recode(record.DecodeRoomV2, record.EncodeRoom)},
	})
}

// recodeStep rewrites every record of one bucket.
type recodeStep struct {
	bucket []byte
	recode func([]byte) ([]byte, error)
}

// recodeBuckets rewrites the records of each step's bucket (a missing
// bucket has none). Keys and index entries stay as they are. A record
// that cannot be read is left as it was: it is reported as damaged when
// read, like any other.
func (tx *Tx) recodeBuckets(steps []recodeStep) error {
	for _, step := range steps {
		b := tx.b(step.bucket)
		if b == nil {
			continue
		}
		var keys, vals [][]byte
		err := b.ForEach(func(k, v []byte) error {
			nv, err := step.recode(v)
			if err != nil {
				return nil
			}
			keys, vals = append(keys, append([]byte(nil), k...)), append(vals, nv)
			return nil
		})
		if err != nil {
			return err
		}
		for i, k := range keys {
			if err := b.Put(k, vals[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// migrate3to4 writes every record again in schema 4 ("v":4). The
// schema-3 fields are unchanged, so today's decoders read the old bytes.
func (tx *Tx) migrate3to4() error {
	return tx.recodeBuckets([]recodeStep{
		{bGames, recode(record.DecodeMatch, record.EncodeMatch)},
		{bChallenges, recode(record.DecodeChallenge, record.EncodeChallenge)},
		{bPlayers, recode(record.DecodePlayer, record.EncodePlayer)},
		{bRooms, recode(record.DecodeRoom, record.EncodeRoom)},
		{bRatings, recode(record.DecodeRating, record.EncodeRating)},
	})
}

func recode[T any](decode func([]byte) (*T, error), encode func(*T) ([]byte, error)) func([]byte) ([]byte, error) {
	return func(raw []byte) ([]byte, error) {
		v, err := decode(raw)
		if err != nil {
			return nil, err
		}
		return encode(v)
	}
}

func (tx *Tx) migrate1to2() error {
	err := tx.b(bGames).ForEach(func(k, v []byte) error {
		g, err := record.DecodeMatchV2(v)
		if err != nil {
			return nil // reported when read; nothing to index
		}
		if g.Active() && !g.Deadline.IsZero() {
			return tx.b(bDeadlines).Put(deadlineKey(g.Deadline, g.ID), nil)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return tx.b(bEvents).ForEach(func(k, v []byte) error {
		if len(v) != 8 {
			return nil
		}
		return tx.b(bEventsByTime).Put(append(append([]byte(nil), v...), k...), nil)
	})
}

// Tx is one transaction.
type Tx struct{ tx *bolt.Tx }

func (tx *Tx) b(name []byte) *bolt.Bucket { return tx.tx.Bucket(name) }

func idKey(id uint64) []byte { return binary.BigEndian.AppendUint64(nil, id) }

func pairKey(s string, id uint64) []byte {
	k := append([]byte(s), 0)
	return binary.BigEndian.AppendUint64(k, id)
}

func timeKey(t time.Time) []byte { return binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())) }

func deadlineKey(t time.Time, id gobot.GameID) []byte {
	return binary.BigEndian.AppendUint64(timeKey(t), uint64(id))
}

// idsWithPrefix lists the IDs of index keys "s\x00<id>".
func (tx *Tx) idsWithPrefix(bucket []byte, s string, want func(v []byte) bool) []uint64 {
	prefix := append([]byte(s), 0)
	var ids []uint64
	c := tx.b(bucket).Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(k) == len(prefix)+8 && (want == nil || want(v)) {
			ids = append(ids, binary.BigEndian.Uint64(k[len(prefix):]))
		}
	}
	return ids
}

// --- games ---

// Match returns game id.
func (tx *Tx) Match(id gobot.GameID) (*gobot.Match, error) {
	raw := tx.b(bGames).Get(idKey(uint64(id)))
	if raw == nil {
		return nil, fmt.Errorf("game #%d %w", id, gobot.ErrNotFound)
	}
	g, err := record.DecodeMatch(raw)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("game #%d: %w: it says it is game #%d", id, gobot.ErrCorrupt, g.ID)
	}
	return g, nil
}

// PutMatch inserts (ID 0: assigns the next ID) or updates a game. An update
// must carry the Version it read, else ErrConflict; Version is then
// bumped (also on g) and the indexes follow.
func (tx *Tx) PutMatch(g *gobot.Match) error {
	games := tx.b(bGames)
	if g.ID == 0 {
		seq, err := games.NextSequence()
		if err != nil {
			return err
		}
		g.ID, g.Version = gobot.GameID(seq), 0
	} else {
		// A game deleted since it was read stays deleted, and a damaged
		// record is not overwritten blindly (DeleteGame removes it).
		old, err := tx.Match(g.ID)
		if err != nil {
			return err
		}
		if old.Version != g.Version {
			return fmt.Errorf("game #%d (version %d, stored %d): %w", g.ID, g.Version, old.Version, gobot.ErrConflict)
		}
		if err := tx.unindexGame(old); err != nil {
			return err
		}
	}
	g.Version++
	raw, err := record.EncodeMatch(g)
	if err != nil {
		return err
	}
	if err := games.Put(idKey(uint64(g.ID)), raw); err != nil {
		return err
	}
	return tx.indexGame(g)
}

func (tx *Tx) indexGame(g *gobot.Match) error {
	active := []byte{0}
	if g.Active() {
		active[0] = 1
		for _, u := range g.Players() { // every member of a team game's teams too
			if err := tx.b(bPlayerGames).Put(pairKey(string(u), uint64(g.ID)), nil); err != nil {
				return err
			}
		}
		if !g.Deadline.IsZero() {
			if err := tx.b(bDeadlines).Put(deadlineKey(g.Deadline, g.ID), nil); err != nil {
				return err
			}
		}
	}
	for _, r := range g.Rooms() { // its mirror's too (a game between platforms)
		if err := tx.b(bRoomGames).Put(pairKey(string(r), uint64(g.ID)), active); err != nil {
			return err
		}
	}
	return nil
}

func (tx *Tx) unindexGame(g *gobot.Match) error {
	for _, u := range g.Players() { // every member of a team game's teams too
		if err := tx.b(bPlayerGames).Delete(pairKey(string(u), uint64(g.ID))); err != nil {
			return err
		}
	}
	if !g.Deadline.IsZero() {
		if err := tx.b(bDeadlines).Delete(deadlineKey(g.Deadline, g.ID)); err != nil {
			return err
		}
	}
	for _, r := range g.Rooms() {
		if err := tx.b(bRoomGames).Delete(pairKey(string(r), uint64(g.ID))); err != nil {
			return err
		}
	}
	return nil
}

// DeleteGame removes a game and its index entries. A damaged record can
// be deleted too: its index entries are then found by scanning.
func (tx *Tx) DeleteGame(id gobot.GameID) error {
	g, err := tx.Match(id)
	switch {
	case err == nil:
		err = tx.unindexGame(g)
	case errors.Is(err, gobot.ErrCorrupt):
		err = tx.purgeIndexes(uint64(id), bPlayerGames, bRoomGames, bDeadlines)
	}
	if err != nil {
		return err
	}
	return tx.b(bGames).Delete(idKey(uint64(id)))
}

// purgeIndexes deletes the entries ending in id from the given index
// buckets: a full scan, used only for records too damaged to say which
// entries they have.
func (tx *Tx) purgeIndexes(id uint64, buckets ...[]byte) error {
	suffix := idKey(id)
	for _, name := range buckets {
		var doomed [][]byte
		b := tx.b(name)
		b.ForEach(func(k, _ []byte) error {
			if len(k) > 8 && bytes.HasSuffix(k, suffix) {
				doomed = append(doomed, append([]byte(nil), k...))
			}
			return nil
		})
		for _, k := range doomed {
			if err := b.Delete(k); err != nil {
				return err
			}
		}
	}
	return nil
}

// games loads the listed games. Records that cannot be read are left out
// and reported in the error (wrapping ErrCorrupt), so callers can use the
// good ones.
func (tx *Tx) games(ids []uint64) ([]*gobot.Match, error) {
	out := make([]*gobot.Match, 0, len(ids))
	var damaged gobot.DamagedError
	var errs []error
	for _, id := range ids {
		g, err := tx.Match(gobot.GameID(id))
		if err != nil {
			if !errors.Is(err, gobot.ErrCorrupt) {
				return nil, err
			}
			damaged.Games = append(damaged.Games, gobot.GameID(id))
			errs = append(errs, err)
			continue
		}
		out = append(out, g)
	}
	if errs != nil {
		damaged.Err = errors.Join(errs...)
		return out, &damaged
	}
	return out, nil
}

// ActiveGames returns u's games still being played or scored, by ID.
func (tx *Tx) ActiveGames(u gobot.UserID) ([]*gobot.Match, error) {
	return tx.games(tx.idsWithPrefix(bPlayerGames, string(u), nil))
}

// RoomGames returns the games room r sees: their home or mirror (only active ones if
// activeOnly), by ID.
func (tx *Tx) RoomGames(r gobot.RoomID, activeOnly bool) ([]*gobot.Match, error) {
	return tx.games(tx.idsWithPrefix(bRoomGames, string(r), func(v []byte) bool {
		return !activeOnly || (len(v) == 1 && v[0] == 1)
	}))
}

// DueGames returns active games whose Deadline is before t, earliest
// first, at most limit (0 = all).
func (tx *Tx) DueGames(before time.Time, limit int) ([]*gobot.Match, error) {
	end := timeKey(before)
	var ids []uint64
	c := tx.b(bDeadlines).Cursor()
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0; k, _ = c.Next() {
		ids = append(ids, binary.BigEndian.Uint64(k[8:]))
		if limit > 0 && len(ids) == limit {
			break
		}
	}
	return tx.games(ids)
}

// --- challenges ---

// Challenge returns challenge id.
func (tx *Tx) Challenge(id gobot.ChallengeID) (*gobot.Challenge, error) {
	raw := tx.b(bChallenges).Get(idKey(uint64(id)))
	if raw == nil {
		return nil, fmt.Errorf("challenge #%d %w", id, gobot.ErrNotFound)
	}
	c, err := record.DecodeChallenge(raw)
	if err != nil {
		return nil, fmt.Errorf("challenge #%d: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge #%d: %w: it says it is challenge #%d", id, gobot.ErrCorrupt, c.ID)
	}
	return c, nil
}

// PutChallenge inserts (ID 0: assigns the next ID) or updates a
// challenge; only pending challenges are indexed.
func (tx *Tx) PutChallenge(c *gobot.Challenge) error {
	b := tx.b(bChallenges)
	if c.ID == 0 {
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		c.ID = gobot.ChallengeID(seq)
	} else {
		old, err := tx.Challenge(c.ID)
		if err != nil {
			return err // deleted, or damaged: DeleteChallenge removes it
		}
		for _, k := range challengeKeys(old) {
			if err := tx.b(k.bucket).Delete(k.key); err != nil {
				return err
			}
		}
	}
	raw, err := record.EncodeChallenge(c)
	if err != nil {
		return err
	}
	if err := b.Put(idKey(uint64(c.ID)), raw); err != nil {
		return err
	}
	if c.Status == gobot.Pending {
		for _, k := range challengeKeys(c) {
			if err := tx.b(k.bucket).Put(k.key, nil); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteChallenge removes a challenge and its index entries (also a
// damaged one).
func (tx *Tx) DeleteChallenge(id gobot.ChallengeID) error {
	c, err := tx.Challenge(id)
	switch {
	case err == nil:
		for _, k := range challengeKeys(c) {
			if err := tx.b(k.bucket).Delete(k.key); err != nil {
				return err
			}
		}
	case errors.Is(err, gobot.ErrCorrupt):
		err = tx.purgeIndexes(uint64(id), bPlayerChals, bRoomChals)
	}
	if err != nil {
		return err
	}
	return tx.b(bChallenges).Delete(idKey(uint64(id)))
}

type indexKey struct {
	bucket []byte
	key    []byte
}

func challengeKeys(c *gobot.Challenge) []indexKey {
	keys := []indexKey{{bPlayerChals, pairKey(string(c.From), uint64(c.ID))}, {bRoomChals, pairKey(string(c.Room), uint64(c.ID))}}
	if c.To != "" {
		keys = append(keys, indexKey{bPlayerChals, pairKey(string(c.To), uint64(c.ID))})
	}
	if c.Teams != nil { // a team challenge: every named player's
		for _, u := range c.Teams.Members() {
			if u != c.From && u != c.To {
				keys = append(keys, indexKey{bPlayerChals, pairKey(string(u), uint64(c.ID))})
			}
		}
	}
	return keys
}

func (tx *Tx) challenges(ids []uint64) ([]*gobot.Challenge, error) {
	out := make([]*gobot.Challenge, 0, len(ids))
	var damaged gobot.DamagedError
	var errs []error
	for _, id := range ids {
		c, err := tx.Challenge(gobot.ChallengeID(id))
		if err != nil {
			if !errors.Is(err, gobot.ErrCorrupt) {
				return nil, err
			}
			damaged.Challenges = append(damaged.Challenges, gobot.ChallengeID(id))
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	if errs != nil {
		damaged.Err = errors.Join(errs...)
		return out, &damaged
	}
	return out, nil
}

// PendingChallenges returns pending challenges from or to u.
func (tx *Tx) PendingChallenges(u gobot.UserID) ([]*gobot.Challenge, error) {
	return tx.challenges(tx.idsWithPrefix(bPlayerChals, string(u), nil))
}

// RoomChallenges returns the pending challenges in room r.
func (tx *Tx) RoomChallenges(r gobot.RoomID) ([]*gobot.Challenge, error) {
	return tx.challenges(tx.idsWithPrefix(bRoomChals, string(r), nil))
}

// --- players, rooms, state ---

// get reads the record under key with decode.
func get[T any](tx *Tx, bucket []byte, key, what string, decode func([]byte) (*T, error)) (*T, error) {
	raw := tx.b(bucket).Get([]byte(key))
	if raw == nil {
		return nil, fmt.Errorf("%s %s %w", what, key, gobot.ErrNotFound)
	}
	v, err := decode(raw)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w: %v", what, key, gobot.ErrCorrupt, err)
	}
	return v, nil
}

// put stores the record under key with encode.
func put[T any](tx *Tx, bucket []byte, key string, v *T, encode func(*T) ([]byte, error)) error {
	if key == "" {
		return errors.New("empty key")
	}
	raw, err := encode(v)
	if err != nil {
		return err
	}
	return tx.b(bucket).Put([]byte(key), raw)
}

// Player returns what gobot knows of user id (ErrNotFound if nothing).
func (tx *Tx) Player(id gobot.UserID) (*gobot.Player, error) {
	return get(tx, bPlayers, string(id), "player", record.DecodePlayer)
}

// Room returns a room's settings (ErrNotFound if never set).
func (tx *Tx) Room(id gobot.RoomID) (*gobot.Room, error) {
	return get(tx, bRooms, string(id), "room", record.DecodeRoom)
}

// PutRoom stores a room's settings.
func (tx *Tx) PutRoom(r *gobot.Room) error {
	return put(tx, bRooms, string(r.ID), r, record.EncodeRoom)
}

// State returns an adapter's stored value (ErrNotFound when absent).
func (tx *Tx) State(ns, key string) ([]byte, error) {
	v := tx.b(bState).Get([]byte(ns + "\x00" + key))
	if v == nil {
		return nil, fmt.Errorf("state %s/%s %w", ns, key, gobot.ErrNotFound)
	}
	return append([]byte(nil), v...), nil
}

// PutState stores an adapter's value (nil deletes it).
func (tx *Tx) PutState(ns, key string, v []byte) error {
	if v == nil {
		return tx.b(bState).Delete([]byte(ns + "\x00" + key))
	}
	return tx.b(bState).Put([]byte(ns+"\x00"+key), v)
}

// --- events ---

// MarkEvent records that chat event id was handled at t; ErrDuplicate if
// it already was.
func (tx *Tx) MarkEvent(id gobot.EventID, t time.Time) error {
	if id == "" {
		return errors.New("empty event ID")
	}
	ev := tx.b(bEvents)
	if ev.Get([]byte(id)) != nil {
		return fmt.Errorf("event %s: %w", id, gobot.ErrDuplicate)
	}
	tk := timeKey(t)
	if err := ev.Put([]byte(id), tk); err != nil {
		return err
	}
	return tx.b(bEventsByTime).Put(append(tk, id...), nil)
}

// ExpireEvents forgets events handled before t and returns how many.
func (tx *Tx) ExpireEvents(before time.Time) (int, error) {
	end := timeKey(before)
	c := tx.b(bEventsByTime).Cursor()
	n := 0
	for k, _ := c.First(); k != nil && bytes.Compare(k[:8], end) < 0; k, _ = c.First() {
		if err := tx.b(bEvents).Delete(k[8:]); err != nil {
			return n, err
		}
		if err := c.Delete(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// checkIndexes verifies that every index entry matches its record (key
// and value) and every record has its entries. Damaged records are
// skipped, and so are the entries they left: they are reported when read
// and removed with DeleteGame or DeleteChallenge.
func (tx *Tx) checkIndexes() error {
	want := map[string]string{} // bucket \xff key → value
	put := func(bucket, key, val []byte) { want[string(bucket)+"\xff"+string(key)] = string(val) }
	damaged := map[string]bool{} // bucket \xff id(8) of a damaged record's possible entries
	tx.b(bGames).ForEach(func(k, v []byte) error {
		g, err := record.DecodeMatch(v)
		if err != nil || len(k) != 8 || g.ID != gobot.GameID(binary.BigEndian.Uint64(k)) {
			for _, b := range [][]byte{bPlayerGames, bRoomGames, bDeadlines} {
				damaged[string(b)+"\xff"+string(k)] = true
			}
			return nil
		}
		if g.Active() {
			for _, u := range g.Players() {
				put(bPlayerGames, pairKey(string(u), uint64(g.ID)), nil)
			}
			if !g.Deadline.IsZero() {
				put(bDeadlines, deadlineKey(g.Deadline, g.ID), nil)
			}
		}
		active := []byte{0}
		if g.Active() {
			active[0] = 1
		}
		for _, r := range g.Rooms() {
			put(bRoomGames, pairKey(string(r), uint64(g.ID)), active)
		}
		return nil
	})
	tx.b(bChallenges).ForEach(func(k, v []byte) error {
		c, err := record.DecodeChallenge(v)
		if err != nil || len(k) != 8 || c.ID != gobot.ChallengeID(binary.BigEndian.Uint64(k)) {
			for _, b := range [][]byte{bPlayerChals, bRoomChals} {
				damaged[string(b)+"\xff"+string(k)] = true
			}
			return nil
		}
		if c.Status != gobot.Pending {
			return nil
		}
		for _, ik := range challengeKeys(c) {
			put(ik.bucket, ik.key, nil)
		}
		return nil
	})
	tx.b(bEvents).ForEach(func(k, v []byte) error {
		put(bEventsByTime, append(append([]byte(nil), v...), k...), nil)
		return nil
	})
	var errs []error
	for _, bucket := range [][]byte{bPlayerGames, bRoomGames, bDeadlines, bPlayerChals, bRoomChals, bEventsByTime} {
		tx.b(bucket).ForEach(func(k, v []byte) error {
			key := string(bucket) + "\xff" + string(k)
			w, ok := want[key]
			switch {
			case !ok && len(k) > 8 && damaged[string(bucket)+"\xff"+string(k[len(k)-8:])]:
			case !ok:
				errs = append(errs, fmt.Errorf("%s: stale entry %q", bucket, k))
			case w != string(v):
				errs = append(errs, fmt.Errorf("%s: entry %q is %v, want %v", bucket, k, v, []byte(w)))
			}
			delete(want, key)
			return nil
		})
	}
	for k := range want {
		bucket, key, _ := strings.Cut(k, "\xff")
		errs = append(errs, fmt.Errorf("%s: missing entry %q", bucket, key))
	}
	return errors.Join(errs...)
}
