package storetest

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/gobotgo/gobot"
)

// testCommunities: a player's ratings are found in every community and
// dropped one by one; joined communities are stored, replaced and
// listed by ID, and a rolled-back one is none.
func testCommunities(t *testing.T, s gobot.Store) {
	rec := func(c gobot.CommunityID, u gobot.UserID, games int) *gobot.PlayerRating {
		r := gobot.NewPlayerRating(c, u)
		r.Games, r.Updated = games, T0
		return r
	}
	update(t, s, func(tx gobot.Tx) error {
		for _, r := range []*gobot.PlayerRating{rec("t:c2", "t:ann", 3), rec("t:c1", "t:ann", 1), rec("t:c1", "t:an", 2),
			rec("t:c1", "t:anna", 2), rec("t:c3", "t:bob", 4)} {
			if err := tx.PutRating(r); err != nil {
				return err
			}
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		rs, err := tx.UserRatings("t:ann")
		if err != nil || len(rs) != 2 || rs[0].Community != "t:c1" || rs[1].Community != "t:c2" || rs[1].Games != 3 || rs[0].User != "t:ann" {
			t.Errorf("UserRatings(ann) = %+v, %v; want c1 and c2", rs, err)
		}
		if rs, err := tx.UserRatings("t:nobody"); len(rs) != 0 || err != nil {
			t.Errorf("UserRatings(nobody) = %v, %v", rs, err)
		}
		if err := tx.DeleteRating("t:c1", "t:ann"); err != nil {
			return err
		}
		if err := tx.DeleteRating("t:c1", "t:nobody"); err != nil {
			t.Errorf("deleting no rating: %v", err)
		}
		if _, err := tx.Rating("t:c1", "t:ann"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("a deleted rating: %v", err)
		}
		if rs, _ := tx.Ratings("t:c1"); len(rs) != 2 {
			t.Errorf("c1 after the delete holds %d ratings, want 2 (an, anna)", len(rs))
		}
		return nil
	})
	view(t, s, func(tx gobot.Tx) error {
		if rs, err := tx.UserRatings("t:ann"); len(rs) != 1 || err != nil || rs[0].Community != "t:c2" {
			t.Errorf("after the delete: UserRatings(ann) = %+v, %v", rs, err)
		}
		if js, err := tx.JoinedCommunities(); len(js) != 0 || err != nil {
			t.Errorf("no joined community yet: %v, %v", js, err)
		}
		return nil
	})
	errRollback := errors.New("rolled back")
	goClub := &gobot.JoinedCommunity{ID: "community:go-club", Name: "Go Club", Members: []gobot.CommunityID{"t:c1", "t:c2"}, Updated: T0}
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:baduk", Name: "Baduk", Updated: T0}); err != nil {
			return err
		}
		if err := tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:go-club", Name: "Go", Members: []gobot.CommunityID{"t:c1"}, Updated: T0}); err != nil {
			return err
		}
		return tx.PutJoinedCommunity(goClub) // replaces it
	})
	if err := s.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:aaa", Name: "Rolled back", Updated: T0}); err != nil {
			return err
		}
		return errRollback
	}); !errors.Is(err, errRollback) {
		t.Fatal(err)
	}
	view(t, s, func(tx gobot.Tx) error {
		js, err := tx.JoinedCommunities()
		if err != nil || len(js) != 2 || js[0].ID != "community:baduk" || len(js[0].Members) != 0 || !reflect.DeepEqual(js[1], goClub) {
			t.Errorf("JoinedCommunities = %+v, %v; want baduk and go-club", js, err)
		}
		if c, err := gobot.StoredCommunityOf(tx, "t:c2"); c != "community:go-club" || err != nil {
			t.Errorf("StoredCommunityOf(c2) = %q, %v", c, err)
		}
		if c, err := gobot.StoredCommunityOf(tx, "t:c3"); c != "t:c3" || err != nil {
			t.Errorf("StoredCommunityOf(c3) = %q, %v", c, err)
		}
		return nil
	})
	if err := s.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutJoinedCommunity(&gobot.JoinedCommunity{Name: "no ID"})
	}); err == nil {
		t.Error("a joined community without an ID was stored")
	}
}
