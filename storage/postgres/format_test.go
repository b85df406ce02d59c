package postgres

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	"github.com/gobotgo/gobot/storage/record"
)

// TestFormat3RecordsMigrate: a database whose records a schema-3 gobot
// wrote ("v":3 first) opens with migration 003, which rewrites every kind
// of record as "v":4, and each reads back as it was.
func TestFormat3RecordsMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 2})
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	g := storetest.NewGame("console:alice", "console:bob", "console:room")
	g.ID, g.Version = 1, 1
	cfg := g.Record.Config
	c := &gobot.Challenge{ID: 2, Room: "console:room", From: "console:alice", To: "console:bob", Config: cfg, Color: "black", Created: at}
	p := &gobot.Player{ID: "console:alice", Name: "alice", Notify: "dm", Updated: at}
	r := &gobot.Room{ID: "console:room", Rules: "japanese", Updated: at}
	pr := &gobot.PlayerRating{Community: "console", User: "console:alice", Rating: 1500, RD: 350, Volatility: 0.06, Updated: at}
	// The rows a schema-3 gobot wrote (schema 2's tables, "v":3 records).
	v3 := func(raw []byte, err error) []byte {
		if err != nil || !bytes.HasPrefix(raw, []byte(`{"v":4,`)) {
			t.Fatalf("encoding: %.20s %v", raw, err)
		}
		return append([]byte(`{"v":3,`), raw[7:]...)
	}
	for _, row := range []struct {
		sql  string
		args []any
	}{
		{"INSERT INTO games (id, version, room, black, white, active, record) VALUES (1, 1, $1, $2, $3, true, $4)",
			[]any{g.Room, g.Black, g.White, v3(record.EncodeMatch(g))}},
		{"INSERT INTO challenges (id, room, sender, receiver, pending, record) VALUES (2, $1, $2, $3, true, $4)",
			[]any{c.Room, c.From, c.To, v3(record.EncodeChallenge(c))}},
		{"INSERT INTO players (id, record) VALUES ($1, $2)", []any{p.ID, v3(record.EncodePlayer(p))}},
		{"INSERT INTO rooms (id, record) VALUES ($1, $2)", []any{r.ID, v3(record.EncodeRoom(r))}},
		{"INSERT INTO ratings (community, player, record) VALUES ($1, $2, $3)", []any{pr.Community, pr.User, v3(record.EncodeRating(pr))}},
	} {
		if _, err := old.pool.Exec(ctx, row.sql, row.args...); err != nil {
			t.Fatalf("%s: %v", row.sql, err)
		}
	}
	old.Close()

	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, table := range []string{"games", "challenges", "players", "rooms", "ratings"} {
		var raw []byte
		if err := s.pool.QueryRow(ctx, "SELECT record FROM "+table).Scan(&raw); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(raw, []byte(`{"v":4,`)) {
			t.Errorf("%s after migrating: %.40s…", table, raw)
		}
	}
	err = s.View(ctx, func(tx gobot.Tx) error {
		if g2, err := tx.Match(1); err != nil || !reflect.DeepEqual(g2, g) {
			t.Errorf("game:\n%+v\nwant\n%+v (%v)", g2, g, err)
		}
		if c2, err := tx.Challenge(2); err != nil || !reflect.DeepEqual(c2, c) {
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

// TestLinksMigrate: a database of schema 5 (before link generations)
// with a game in it opens with migration 006; its players' links are of
// generation 0, and a reset is stored.
func TestLinksMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 5})
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
		if gen, err := tx.LinkGeneration(g.ID, "console:alice"); gen != 0 || err != nil {
			t.Errorf("a link generation after migrating: %d, %v; want 0", gen, err)
		}
		return tx.PutLinkGeneration(g.ID, "console:alice", 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.View(ctx, func(tx gobot.Tx) error {
		gen, err := tx.LinkGeneration(g.ID, "console:alice")
		if gen != 1 {
			t.Errorf("after a reset: generation %d, want 1", gen)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// putOldGame stores g as game #1 in a database of an older schema (5 or
// later: the team column), as the gobot of that schema wrote it, without
// the columns later migrations add.
func putOldGame(t *testing.T, old *Store, g *gobot.Match) {
	t.Helper()
	g.ID, g.Version = 1, 1
	raw, err := record.EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.pool.Exec(ctx, "INSERT INTO games (id, version, room, black, white, active, record) VALUES (1, 1, $1, $2, $3, true, $4)",
		g.Room, g.Black, g.White, raw); err != nil {
		t.Fatal(err)
	}
	if _, err := old.pool.Exec(ctx, "UPDATE counters SET value = greatest(value, 1) WHERE name IN ('games', 'challenges')"); err != nil {
		t.Fatal(err)
	}
}

// A database at schema 10 upgrades to mirror rooms (migration 011): its
// game stays in its room and has no mirror; a mirror stored then is
// found.
func TestMirrorMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 10})
	if err != nil {
		t.Fatal(err)
	}
	putOldGame(t, old, storetest.NewGame("console:alice", "console:bob", "console:room"))
	old.Close()
	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	err = s.Update(ctx, func(tx gobot.Tx) error {
		gs, err := tx.RoomGames("console:room", true)
		if err != nil || len(gs) != 1 || gs[0].Mirror != "" {
			t.Fatalf("the old game in its room: %v %v", gs, err)
		}
		gs[0].Mirror = "matrix:!club:x"
		if err := tx.PutMatch(gs[0]); err != nil {
			return err
		}
		if m, err := tx.RoomGames("matrix:!club:x", true); err != nil || len(m) != 1 {
			t.Fatalf("the mirror's games: %v %v", m, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
