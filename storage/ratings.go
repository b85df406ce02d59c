package storage

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
)

// bRatings holds one record per community and player:
// community \x00 user → JSON chat.PlayerRating. The bucket is created by
// the first PutRating, so files written before ratings existed open
// (read-only too) unchanged and simply have no ratings.
var bRatings = []byte("ratings")

func ratingKey(c gobot.CommunityID, u gobot.UserID) []byte {
	return append(append([]byte(c), 0), u...)
}

// Rating returns u's rating record in community c (ErrNotFound if none).
func (tx *Tx) Rating(c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, error) {
	b := tx.b(bRatings)
	var raw []byte
	if b != nil {
		raw = b.Get(ratingKey(c, u))
	}
	if raw == nil {
		return nil, fmt.Errorf("rating of %s in %s %w", u, c, gobot.ErrNotFound)
	}
	return record.DecodeRatingOf(c, u, raw)
}

// PutRating stores a rating record under its Community and User.
func (tx *Tx) PutRating(r *gobot.PlayerRating) error {
	switch {
	case r.Community == "" || r.User == "":
		return errors.New("a rating needs a community and a user")
	case bytes.IndexByte([]byte(r.Community), 0) >= 0:
		return fmt.Errorf("community %q contains a NUL byte", r.Community)
	}
	if err := r.Player().Check(); err != nil {
		return fmt.Errorf("rating of %s in %s: %w", r.User, r.Community, err)
	}
	raw, err := record.EncodeRating(r)
	if err != nil {
		return err
	}
	b, err := tx.tx.CreateBucketIfNotExists(bRatings)
	if err != nil {
		return err
	}
	return b.Put(ratingKey(r.Community, r.User), raw)
}

// Ratings returns the records of community c ("" = all), by community
// then user. Damaged records are skipped and reported in a
// *chat.DamagedError.
func (tx *Tx) Ratings(c gobot.CommunityID) ([]*gobot.PlayerRating, error) {
	b := tx.b(bRatings)
	if b == nil {
		return nil, nil
	}
	var prefix []byte
	if c != "" {
		prefix = append([]byte(c), 0)
	}
	var out []*gobot.PlayerRating
	var errs []error
	cur := b.Cursor()
	for k, v := cur.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = cur.Next() {
		cs, us, ok := bytes.Cut(k, []byte{0})
		if !ok {
			errs = append(errs, fmt.Errorf("rating key %q: %w", k, gobot.ErrCorrupt))
			continue
		}
		r, err := record.DecodeRatingOf(gobot.CommunityID(cs), gobot.UserID(us), v)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	if len(errs) > 0 {
		return out, &gobot.DamagedError{Err: errors.Join(errs...)}
	}
	return out, nil
}

// UserRatings returns u's records in every community, by community.
// Ratings are keyed by community first, so this scans the keys (not the
// records) of every rating: it is asked when accounts are linked, a
// rare act limited per user (LinkCodesPerDay).
func (tx *Tx) UserRatings(u gobot.UserID) ([]*gobot.PlayerRating, error) {
	b := tx.b(bRatings)
	if b == nil {
		return nil, nil
	}
	suffix := append([]byte{0}, u...)
	var out []*gobot.PlayerRating
	cur := b.Cursor()
	for k, v := cur.First(); k != nil; k, v = cur.Next() {
		if !bytes.HasSuffix(k, suffix) || bytes.IndexByte(k, 0) != len(k)-len(suffix) {
			continue
		}
		r, err := record.DecodeRatingOf(gobot.CommunityID(k[:len(k)-len(suffix)]), u, v)
		if err != nil {
			return out, err
		}
		out = append(out, r)
	}
	return out, nil
}

// DeleteRating drops u's record in community c.
func (tx *Tx) DeleteRating(c gobot.CommunityID, u gobot.UserID) error {
	if b := tx.b(bRatings); b != nil {
		return b.Delete(ratingKey(c, u))
	}
	return nil
}

// bJoined holds the joined communities recorded (gobot.JoinedCommunity):
// ID → its record. Made by the first PutJoinedCommunity.
var bJoined = []byte("joined_communities")

// JoinedCommunities returns the joined communities recorded, by ID.
func (tx *Tx) JoinedCommunities() ([]*gobot.JoinedCommunity, error) {
	b := tx.b(bJoined)
	if b == nil {
		return nil, nil
	}
	var out []*gobot.JoinedCommunity
	err := b.ForEach(func(k, v []byte) error {
		j, err := record.DecodeJoinedCommunityOf(gobot.CommunityID(k), v)
		if err == nil {
			out = append(out, j)
		}
		return err
	})
	return out, err
}

// PutJoinedCommunity stores j under its ID.
func (tx *Tx) PutJoinedCommunity(j *gobot.JoinedCommunity) error {
	if j.ID == "" {
		return errors.New("a joined community needs an ID")
	}
	raw, err := record.EncodeJoinedCommunity(j)
	if err != nil {
		return err
	}
	b, err := tx.tx.CreateBucketIfNotExists(bJoined)
	if err != nil {
		return err
	}
	return b.Put([]byte(j.ID), raw)
}
