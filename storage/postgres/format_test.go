package postgres

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
)

// TestFormat3RecordsMigrate: a database whose records a schema-3 gobot
// wrote ("v":3 first) opens with migration 003, which rewrites every kind
// of record as "v":4, and each reads back as it was.
func TestFormat3RecordsMigrate(t *testing.T) {
	s, dsn := mustOpen(t)
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	g := storetest.NewGame("console:alice", "console:bob", "console:room")
	g.ID = 1
	cfg := g.Record.Config
	c := &gobot.Challenge{Room: "console:room", From: "console:alice", To: "console:bob", Config: cfg, Color: "black", Created: at}
	p := &gobot.Player{ID: "console:alice", Name: "alice", Notify: "dm", Updated: at}
	r := &gobot.Room{ID: "console:room", Rules: "japanese", Updated: at}
	pr := &gobot.PlayerRating{Community: "console", User: "console:alice", Rating: 1500, RD: 350, Volatility: 0.06, Updated: at}
	err := s.Update(ctx, func(tx gobot.Tx) error {
		for _, err := range []error{tx.InsertMatch(g), tx.PutChallenge(c), tx.PutPlayer(p), tx.PutRoom(r), tx.PutRating(pr)} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	tables := []string{"games", "challenges", "players", "rooms", "ratings"}
	// Make it the database a schema-3 gobot left: records "v":3, the
	// migration not applied.
	for _, table := range tables {
		if _, err := s.pool.Exec(ctx, "UPDATE "+table+` SET record = '\x7b2276223a332c'::bytea || substring(record FROM 8)`); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.pool.Exec(ctx, "DELETE FROM schema_migrations WHERE version = 3"); err != nil {
		t.Fatal(err)
	}
	s.Close()

	s2, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	for _, table := range tables {
		var raw []byte
		if err := s2.pool.QueryRow(ctx, "SELECT record FROM "+table).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte(`{"v":4,`)) {
			t.Errorf("%s after migrating: %.40s…", table, raw)
		}
	}
	err = s2.View(ctx, func(tx gobot.Tx) error {
		g2, err := tx.Match(1)
		if err != nil {
			return err
		}
		g.Version = g2.Version
		if !reflect.DeepEqual(g2, g) {
			t.Errorf("game:\n%+v\nwant\n%+v", g2, g)
		}
		if c2, err := tx.Challenge(c.ID); err != nil || !reflect.DeepEqual(c2, c) {
			t.Errorf("challenge: %+v, %v", c2, err)
		}
		if p2, err := tx.Player(p.ID); err != nil || !reflect.DeepEqual(p2, p) {
			t.Errorf("player: %+v, %v", p2, err)
		}
		if r2, err := tx.Room(r.ID); err != nil || !reflect.DeepEqual(r2, r) {
			t.Errorf("room: %+v, %v", r2, err)
		}
		if pr2, err := tx.Rating(pr.Community, pr.User); err != nil || !reflect.DeepEqual(pr2, pr) {
			t.Errorf("rating: %+v, %v", pr2, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
