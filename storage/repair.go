package storage

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/gobotgo/gobot"
)

// bQuarantine keeps damaged records an operator took out of play:
// kind \x00 key → the raw record as it was.
var bQuarantine = []byte("quarantine")

// Damage is a record that cannot be read.
type Damage struct {
	Kind string // "game", "challenge", "player", "room", "tournament", "ladder"
	Key  string // "7" for game #7, the user or room ID otherwise
	Err  error
}

// Ref is how the operator names the record: "game:7", "player:discord:1".
func (d Damage) Ref() string { return d.Kind + ":" + d.Key }

func (d Damage) String() string { return d.Ref() + ": " + d.Err.Error() }

// Damaged lists every record that cannot be read.
func (db *DB) Damaged(ctx context.Context) ([]Damage, error) {
	var out []Damage
	err := db.view(ctx, func(tx *Tx) error {
		for _, kind := range []string{"game", "challenge", "player", "room", "tournament", "ladder"} {
			bucket, _ := kindBucket(kind)
			if tx.b(bucket) == nil {
				continue // made on first use
			}
			err := tx.b(bucket).ForEach(func(k, _ []byte) error {
				key := recordKey(kind, k)
				if err := tx.read(kind, key); errors.Is(err, gobot.ErrCorrupt) {
					out = append(out, Damage{Kind: kind, Key: key, Err: err})
				}
				return nil
			})
			if err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// Quarantined lists the records in quarantine as "kind:key".
func (db *DB) Quarantined(ctx context.Context) ([]string, error) {
	var out []string
	err := db.view(ctx, func(tx *Tx) error {
		return tx.b(bQuarantine).ForEach(func(k, _ []byte) error {
			kind, key, _ := strings.Cut(string(k), "\x00")
			out = append(out, kind+":"+key)
			return nil
		})
	})
	sort.Strings(out)
	return out, err
}

// Quarantine takes the damaged record ref ("game:7", "#7",
// "challenge:3", "tournament:2", "ladder:1", "player:discord:1",
// "room:discord:5") out of play: its
// raw bytes move to the quarantine bucket and it is deleted with its
// index entries, so lists stop reporting it. A record that reads fine
// is refused (ErrNotDamaged); so is one that does not exist
// (ErrNotFound).
func (db *DB) Quarantine(ctx context.Context, ref string) (Damage, error) {
	kind, key, err := parseRef(ref)
	if err != nil {
		return Damage{}, err
	}
	d := Damage{Kind: kind, Key: key}
	err = db.update(ctx, func(tx *Tx) error {
		rerr := tx.read(kind, key)
		switch {
		case rerr == nil:
			return fmt.Errorf("%s: %w", clip(d.Ref()), ErrNotDamaged)
		case errors.Is(rerr, gobot.ErrNotFound):
			return fmt.Errorf("%s: %w", clip(d.Ref()), gobot.ErrNotFound)
		case !errors.Is(rerr, gobot.ErrCorrupt):
			return rerr
		}
		d.Err = rerr
		bucket, _ := kindBucket(kind)
		raw := tx.b(bucket).Get(storeKey(kind, key))
		id, _ := strconv.ParseUint(key, 10, 64)
		if err := tx.b(bQuarantine).Put([]byte(kind+"\x00"+key), append([]byte(nil), raw...)); err != nil {
			return err
		}
		switch kind {
		case "game":
			return tx.DeleteGame(gobot.GameID(id))
		case "challenge":
			return tx.DeleteChallenge(gobot.ChallengeID(id))
		case "tournament":
			return deleteEvent(tx, tournaments, id)
		case "ladder":
			return deleteEvent(tx, ladders, id)
		case "player":
			if err := tx.unindexVacation(gobot.UserID(key)); err != nil {
				return err
			}
		}
		return tx.b(bucket).Delete([]byte(key))
	})
	return d, err
}

// ErrNotDamaged refuses to quarantine a record that reads fine.
var ErrNotDamaged = errors.New("the record is not damaged; nothing was changed")

func kindBucket(kind string) ([]byte, bool) {
	switch kind {
	case "game":
		return bGames, true
	case "challenge":
		return bChallenges, true
	case "player":
		return bPlayers, true
	case "room":
		return bRooms, true
	case "tournament":
		return bTournaments, true
	case "ladder":
		return bLadders, true
	}
	return nil, false
}

// numbered reports whether a kind's records are keyed by number.
func numbered(kind string) bool {
	return kind == "game" || kind == "challenge" || kind == "tournament" || kind == "ladder"
}

// recordKey is the operator's key of a stored key.
func recordKey(kind string, k []byte) string {
	if numbered(kind) && len(k) == 8 {
		return strconv.FormatUint(binary.BigEndian.Uint64(k), 10)
	}
	return string(k)
}

func storeKey(kind, key string) []byte {
	if numbered(kind) {
		id, _ := strconv.ParseUint(key, 10, 64)
		return idKey(id)
	}
	return []byte(key)
}

// read reads one record, for its error.
func (tx *Tx) read(kind, key string) error {
	var err error
	switch kind {
	case "game":
		id, _ := strconv.ParseUint(key, 10, 64)
		_, err = tx.Match(gobot.GameID(id))
	case "challenge":
		id, _ := strconv.ParseUint(key, 10, 64)
		_, err = tx.Challenge(gobot.ChallengeID(id))
	case "player":
		_, err = tx.Player(gobot.UserID(key))
	case "room":
		_, err = tx.Room(gobot.RoomID(key))
	case "tournament", "ladder":
		id, _ := strconv.ParseUint(key, 10, 64)
		if kind == "tournament" {
			_, err = tx.Tournament(gobot.TournamentID(id))
		} else {
			_, err = tx.Ladder(gobot.LadderID(id))
		}
	}
	return err
}

func parseRef(ref string) (kind, key string, err error) {
	if n, ok := strings.CutPrefix(ref, "#"); ok {
		ref = "game:" + n
	}
	kind, key, ok := strings.Cut(ref, ":")
	if _, known := kindBucket(kind); !ok || !known || key == "" {
		return "", "", fmt.Errorf("%q: name a record like game:7, challenge:3, tournament:2, ladder:1, player:discord:1 or room:discord:5", clip(ref))
	}
	if numbered(kind) {
		if id, err := strconv.ParseUint(key, 10, 64); err != nil || id == 0 {
			return "", "", fmt.Errorf("%q: a %s is numbered from 1, like %s:7", clip(ref), kind, kind)
		}
	}
	return kind, key, nil
}

// clip shortens what an operator typed, or a key found in a damaged
// file, for a message (invalid UTF-8 shown as "?").
func clip(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if r := []rune(s); len(r) > 60 {
		return string(r[:60]) + "…"
	}
	return s
}
