package storage

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

// Reviews (gobot.Review) live in two buckets made on first use, so that
// a file without reviews opens as it was: bReviews holds each review's
// record by ID, bReviewMeta what the lists need without decoding trees
// (room, open, due), as JSON by ID. Reviews are few (a room's open ones
// and the kept ones): the lists scan bReviewMeta.
var (
	bReviews    = []byte("reviews")     // id(8) → record
	bReviewMeta = []byte("review_meta") // id(8) → reviewMeta JSON
)

type reviewMeta struct {
	Room string    `json:"room"`
	Open bool      `json:"open"`
	Due  time.Time `json:"due,omitzero"`
}

// Review returns review id.
func (tx *Tx) Review(id gobot.ReviewID) (*gobot.Review, error) {
	if b := tx.tx.Bucket(bReviews); b != nil {
		if raw := b.Get(idKey(uint64(id))); raw != nil {
			r, err := record.DecodeReview(raw)
			if err != nil {
				return nil, fmt.Errorf("review #%d: %w: %v", id, gobot.ErrCorrupt, err)
			}
			return r, nil
		}
	}
	return nil, fmt.Errorf("review #%d %w", id, gobot.ErrNotFound)
}

// PutReview inserts (ID 0: assigns the next ID) or updates a review. An
// update must carry the Version it read, else ErrConflict; Version is
// then bumped (also on r).
func (tx *Tx) PutReview(r *gobot.Review) error {
	b, err := tx.tx.CreateBucketIfNotExists(bReviews)
	if err != nil {
		return err
	}
	meta, err := tx.tx.CreateBucketIfNotExists(bReviewMeta)
	if err != nil {
		return err
	}
	if r.ID == 0 {
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		r.ID, r.Version = gobot.ReviewID(seq), 0
	} else {
		old, err := tx.Review(r.ID)
		if err != nil {
			return err
		}
		if old.Version != r.Version {
			return fmt.Errorf("review #%d (version %d, stored %d): %w", r.ID, r.Version, old.Version, gobot.ErrConflict)
		}
	}
	r.Version++
	raw, err := record.EncodeReview(r)
	if err != nil {
		r.Version--
		return err
	}
	m, err := json.Marshal(reviewMeta{Room: string(r.Room), Open: !r.Closed, Due: r.Due().UTC()})
	if err != nil {
		return err
	}
	if err := meta.Put(idKey(uint64(r.ID)), m); err != nil {
		return err
	}
	return b.Put(idKey(uint64(r.ID)), raw)
}

// DeleteReview drops review id.
func (tx *Tx) DeleteReview(id gobot.ReviewID) error {
	for _, name := range [][]byte{bReviews, bReviewMeta} {
		if b := tx.tx.Bucket(name); b != nil {
			if err := b.Delete(idKey(uint64(id))); err != nil {
				return err
			}
		}
	}
	return nil
}

// reviews returns the reviews whose meta passes want, by ID; damaged ones
// are named in a *gobot.DamagedError beside the rest.
func (tx *Tx) reviews(want func(reviewMeta) bool) ([]*gobot.Review, error) {
	meta := tx.tx.Bucket(bReviewMeta)
	if meta == nil {
		return nil, nil
	}
	var out []*gobot.Review
	var bad []error
	err := meta.ForEach(func(k, v []byte) error {
		var m reviewMeta
		if err := json.Unmarshal(v, &m); err != nil {
			bad = append(bad, fmt.Errorf("review #%d: %w", binary.BigEndian.Uint64(k), err))
			return nil
		}
		if !want(m) {
			return nil
		}
		r, err := tx.Review(gobot.ReviewID(binary.BigEndian.Uint64(k)))
		if err != nil {
			bad = append(bad, err)
			return nil
		}
		out = append(out, r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return out, &gobot.DamagedError{Err: fmt.Errorf("%v", bad)}
	}
	return out, nil
}

// RoomReviews returns the open reviews in room r, by ID.
func (tx *Tx) RoomReviews(r gobot.RoomID) ([]*gobot.Review, error) {
	return tx.reviews(func(m reviewMeta) bool { return m.Open && m.Room == string(r) })
}

// DueReviews returns the reviews whose timed work (gobot.Review.Due)
// falls before t, earliest first, at most limit (0: all).
func (tx *Tx) DueReviews(before time.Time, limit int) ([]*gobot.Review, error) {
	out, err := tx.reviews(func(m reviewMeta) bool { return !m.Due.IsZero() && m.Due.Before(before) })
	slices.SortStableFunc(out, func(a, b *gobot.Review) int { return a.Due().Compare(b.Due()) })
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, err
}
