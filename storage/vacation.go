package storage

import (
	"bytes"
	"errors"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

// bVacations indexes the players on vacation by the end of their
// vacation: unixnano(8) user → nil. PutPlayer keeps it. The bucket is
// made on first use (like the claims'): a file written before it existed
// had nobody on vacation, so it needs no migration.
var bVacations = []byte("idx_vacations")

func vacationKey(t time.Time, u gobot.UserID) []byte { return append(timeKey(t), u...) }

// PutPlayer stores a player; the vacation index follows it.
func (tx *Tx) PutPlayer(p *gobot.Player) error {
	if p.ID == "" {
		return errors.New("empty key")
	}
	old, err := tx.Player(p.ID)
	switch {
	case err == nil:
		if due := old.VacationDue(); !due.IsZero() {
			if b := tx.b(bVacations); b != nil {
				if err := b.Delete(vacationKey(due, p.ID)); err != nil {
					return err
				}
			}
		}
	case errors.Is(err, gobot.ErrCorrupt):
		if err := tx.unindexVacation(p.ID); err != nil {
			return err
		}
	case !errors.Is(err, gobot.ErrNotFound):
		return err
	}
	if err := put(tx, bPlayers, string(p.ID), p, record.EncodePlayer); err != nil {
		return err
	}
	if due := p.VacationDue(); !due.IsZero() {
		b, err := tx.tx.CreateBucketIfNotExists(bVacations)
		if err != nil {
			return err
		}
		return b.Put(vacationKey(due, p.ID), nil)
	}
	return nil
}

// unindexVacation drops u's vacation index entries by scanning: for a
// record too damaged to say which it has.
func (tx *Tx) unindexVacation(u gobot.UserID) error {
	b := tx.b(bVacations)
	if b == nil {
		return nil
	}
	var keys [][]byte
	c := b.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		if len(k) > 8 && string(k[8:]) == string(u) {
			keys = append(keys, append([]byte(nil), k...))
		}
	}
	for _, k := range keys {
		if err := b.Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// DueVacations returns the players on vacation whose vacation ends
// before t, earliest first (ties by ID), at most limit (0 = all). A
// damaged player record is skipped and named in a *gobot.DamagedError.
func (tx *Tx) DueVacations(before time.Time, limit int) ([]*gobot.Player, error) {
	b := tx.b(bVacations)
	if b == nil {
		return nil, nil
	}
	end := timeKey(before)
	var out []*gobot.Player
	var errs []error
	c := b.Cursor()
	for k, _ := c.First(); k != nil && len(k) > 8 && bytes.Compare(k[:8], end) < 0; k, _ = c.Next() {
		p, err := tx.Player(gobot.UserID(k[8:]))
		if err != nil {
			if !errors.Is(err, gobot.ErrCorrupt) {
				return nil, err
			}
			errs = append(errs, err)
			continue
		}
		out = append(out, p)
		if limit > 0 && len(out) == limit {
			break
		}
	}
	if errs != nil {
		return out, &gobot.DamagedError{Err: errors.Join(errs...)}
	}
	return out, nil
}
