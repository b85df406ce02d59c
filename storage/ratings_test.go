package storage

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/gobotgo/gobot"
	bolt "go.etcd.io/bbolt"
)

func TestRatings(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	put := func(c gobot.CommunityID, u gobot.UserID, r float64) {
		t.Helper()
		rec := gobot.NewPlayerRating(c, u)
		rec.Rating, rec.Games = r, 1
		if err := db.Update(ctx, func(tx gobot.Tx) error { return tx.PutRating(rec) }); err != nil {
			t.Fatal(err)
		}
	}
	// Nothing stored yet: the bucket does not exist.
	db.View(ctx, func(tx gobot.Tx) error {
		if _, err := tx.Rating("console", "console:alice"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("no ratings yet: %v", err)
		}
		if rs, err := tx.Ratings(""); len(rs) != 0 || err != nil {
			t.Errorf("no ratings yet: %v %v", rs, err)
		}
		return nil
	})
	put("console2", "console:bob", 1400)
	put("console", "console:bob", 1600)
	put("console", "console:alice", 1700)
	put("discord:guild:1", "discord:9", 1500)
	put("console", "console:alice", 1710) // replaces
	db.View(ctx, func(tx gobot.Tx) error {
		r, err := tx.Rating("console", "console:alice")
		if err != nil || r.Rating != 1710 || r.User != "console:alice" || r.Community != "console" {
			t.Errorf("Rating: %+v %v", r, err)
		}
		rs, err := tx.Ratings("console")
		if err != nil || len(rs) != 2 || rs[0].User != "console:alice" || rs[1].User != "console:bob" || rs[1].Rating != 1600 {
			t.Errorf("Ratings(console): %v %v", rs, err)
		}
		all, err := tx.Ratings("")
		if err != nil || len(all) != 4 || all[2].Community != "console2" || all[3].Community != "discord:guild:1" {
			t.Errorf("Ratings(all): %v %v", all, err)
		}
		return nil
	})
	bad := []*gobot.PlayerRating{
		{Community: "console", User: "", Rating: 1500, RD: 350, Volatility: 0.06},
		{Community: "con\x00sole", User: "console:x", Rating: 1500, RD: 350, Volatility: 0.06},
		{Community: "console", User: "console:x", Rating: 1500, RD: 0, Volatility: 0.06},
	}
	for _, r := range bad {
		if err := db.Update(ctx, func(tx gobot.Tx) error { return tx.PutRating(r) }); err == nil {
			t.Errorf("PutRating(%+v) accepted", r)
		}
	}
	// A damaged record: reported, the others still listed.
	db.bolt.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bRatings).Put(ratingKey("console", "console:carol"), []byte("{not json"))
	})
	db.View(ctx, func(tx gobot.Tx) error {
		if _, err := tx.Rating("console", "console:carol"); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("damaged record: %v", err)
		}
		rs, err := tx.Ratings("console")
		if len(rs) != 2 || !errors.Is(err, gobot.ErrCorrupt) || gobot.Damaged(err) == nil {
			t.Errorf("Ratings with a damaged record: %d, %v", len(rs), err)
		}
		return nil
	})
}

// A file from before ratings existed opens read-only and has none.
func TestRatingsReadOnlyWithoutBucket(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	ro, err := Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	err = ro.View(context.Background(), func(tx gobot.Tx) error {
		rs, err := tx.Ratings("")
		if len(rs) != 0 {
			t.Errorf("ratings in a new file: %v", rs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
