package postgres

import (
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
)

// A database at schema 8 upgrades to linked accounts (migration 009):
// its games stay, its accounts are linked to none, and links and codes
// can be stored.
func TestAccountsMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 8})
	if err != nil {
		t.Fatal(err)
	}
	g := storetest.NewGame("console:alice", "console:bob", "console:room")
	putOldGame(t, old, g)
	old.Close()

	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx gobot.Tx) error {
		if p, err := gobot.PlayerOf(tx, "console:alice"); p != "console:alice" || err != nil {
			t.Errorf("an account from before: player %q, %v", p, err)
		}
		if err := tx.PutAccountLink(&gobot.AccountLink{Account: "matrix:@alice:x", Player: "console:alice", Linked: storetest.T0}); err != nil {
			return err
		}
		return tx.PutLinkCode(&gobot.LinkCode{Hash: gobot.HashLinkCode("A"), User: "console:alice", Issued: storetest.T0, Expires: storetest.T0})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx gobot.Tx) error {
		if _, err := tx.Match(g.ID); err != nil {
			t.Errorf("the game from before: %v", err)
		}
		if p, err := gobot.PlayerOf(tx, "matrix:@alice:x"); p != "console:alice" || err != nil {
			t.Errorf("after migrating: player %q, %v", p, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A database at schema 9 upgrades to joined communities (migration
// 010): its ratings stay and are found by player, and joined
// communities can be stored.
func TestCommunitiesMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 9})
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Update(ctx, func(tx gobot.Tx) error { return tx.PutRating(gobot.NewPlayerRating("matrix:!a:x", "matrix:@ann:x")) }); err != nil {
		t.Fatal(err)
	}
	old.Close()

	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx gobot.Tx) error {
		if rs, err := tx.UserRatings("matrix:@ann:x"); len(rs) != 1 || err != nil {
			t.Errorf("the rating from before: %v, %v", rs, err)
		}
		return tx.PutJoinedCommunity(&gobot.JoinedCommunity{ID: "community:go", Name: "Go", Members: []gobot.CommunityID{"matrix:!a:x"}, Updated: storetest.T0})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx gobot.Tx) error {
		if c, err := gobot.StoredCommunityOf(tx, "matrix:!a:x"); c != "community:go" || err != nil {
			t.Errorf("after migrating: %q, %v", c, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
