package postgres

import (
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

func decodeReview(id gobot.ReviewID, raw []byte) (*gobot.Review, error) {
	r, err := record.DecodeReview(raw)
	if err != nil {
		return nil, fmt.Errorf("review #%d: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if r.ID != id {
		return nil, fmt.Errorf("review #%d: %w: it says it is review #%d", id, gobot.ErrCorrupt, r.ID)
	}
	return r, nil
}

// Review returns review id.
func (t *tx) Review(id gobot.ReviewID) (*gobot.Review, error) {
	var raw []byte
	err := t.tx.QueryRow(t.ctx, "SELECT record FROM reviews WHERE id = $1", int64(id)).Scan(&raw)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("review #%d %w", id, gobot.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeReview(id, raw)
}

// PutReview inserts (ID 0: the next number) or updates a review, checking
// its Version as PutMatch does.
func (t *tx) PutReview(r *gobot.Review) error {
	insert := r.ID == 0
	if insert {
		id, err := t.next("reviews")
		if err != nil {
			return err
		}
		r.ID, r.Version = gobot.ReviewID(id), 0
	}
	r.Version++
	raw, err := record.EncodeReview(r)
	if err != nil {
		r.Version--
		return err
	}
	var due *time.Time
	if d := r.Due(); !d.IsZero() {
		due = &d
	}
	if insert {
		_, err = t.tx.Exec(t.ctx, `INSERT INTO reviews (id, version, room, open, due, record) VALUES ($1, $2, $3, $4, $5, $6)`,
			int64(r.ID), int64(r.Version), string(r.Room), !r.Closed, due, raw)
		return err
	}
	tag, err := t.tx.Exec(t.ctx, `UPDATE reviews SET version = $2, room = $3, open = $4, due = $5, record = $6 WHERE id = $1 AND version = $7`,
		int64(r.ID), int64(r.Version), string(r.Room), !r.Closed, due, raw, int64(r.Version-1))
	if err != nil {
		return err
	}
	if tag.RowsAffected() != 1 {
		r.Version--
		if _, err := t.Review(r.ID); err != nil {
			return err
		}
		return fmt.Errorf("review #%d (version %d): %w", r.ID, r.Version, gobot.ErrConflict)
	}
	return nil
}

// DeleteReview drops review id.
func (t *tx) DeleteReview(id gobot.ReviewID) error {
	_, err := t.tx.Exec(t.ctx, "DELETE FROM reviews WHERE id = $1", int64(id))
	return err
}

func (t *tx) reviews(q string, args ...any) ([]*gobot.Review, error) {
	rows, err := t.tx.Query(t.ctx, q, args...)
	if err != nil {
		return nil, err
	}
	type row struct {
		id  int64
		raw []byte
	}
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.raw); err != nil {
			rows.Close()
			return nil, err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	var out []*gobot.Review
	var bad []error
	for _, r := range all {
		v, err := decodeReview(gobot.ReviewID(r.id), r.raw)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		out = append(out, v)
	}
	if len(bad) > 0 {
		return out, &gobot.DamagedError{Err: fmt.Errorf("%v", bad)}
	}
	return out, nil
}

// RoomReviews returns the open reviews in room r, by ID.
func (t *tx) RoomReviews(r gobot.RoomID) ([]*gobot.Review, error) {
	return t.reviews("SELECT id, record FROM reviews WHERE open AND room = $1 ORDER BY id", string(r))
}

// DueReviews returns the reviews whose Due falls before t, earliest first.
func (t *tx) DueReviews(before time.Time, limit int) ([]*gobot.Review, error) {
	q := "SELECT id, record FROM reviews WHERE due < $1 ORDER BY due, id"
	args := []any{before}
	if limit > 0 {
		q += " LIMIT $2"
		args = append(args, limit)
	}
	return t.reviews(q, args...)
}
