package storage

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// mustOpen opens a database on a temp file; at cleanup it checks bbolt's
// consistency and gobot's index invariants, then closes it.
func mustOpen(t testing.TB) *DB {
	t.Helper()
	db, err := Open(filepath.Join(t.TempDir(), "gobot.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	})
	return db
}

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

func newGame(t testing.TB, black, white gobot.UserID, room gobot.RoomID) *gobot.Match {
	r, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	if err != nil {
		panic(err)
	}
	return &gobot.Match{Room: room, Black: black, White: white, Record: g.Record(), Created: t0, Updated: t0}
}

func TestRoundTrip(t *testing.T) {
	db := mustOpen(t)
	komi := 6.5
	g := newGame(t, "test:ann", "test:bob", "test:room")
	g.Clock = gobot.TimeControl{Kind: gobot.Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour}
	g.Deadline = t0.Add(72 * time.Hour)
	g.Undos = []gobot.Undo{{By: "test:ann", Move: 3, Was: game.Move{Color: game.Black, Point: game.Pt(3, 3)}, At: t0}}
	c := &gobot.Challenge{Room: "test:room", From: "test:ann", To: "test:bob", Config: g.Record.Config, Color: "black", Created: t0}
	p := &gobot.Player{ID: "test:ann", Name: "Ann", Notify: "dm", Theme: "dark", Updated: t0}
	r := &gobot.Room{ID: "test:room", Rules: "chinese", Width: 13, Height: 13, Komi: &komi, Clock: "3d", Threads: true, Updated: t0}
	err := db.update(context.Background(), func(tx *Tx) error {
		for _, f := range []func() error{
			func() error { return tx.PutMatch(g) },
			func() error { return tx.PutChallenge(c) },
			func() error { return tx.PutPlayer(p) },
			func() error { return tx.PutRoom(r) },
			func() error { return tx.PutState("matrix", "since", []byte("s123")) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if g.ID != 1 || g.Version != 1 || c.ID != 1 {
		t.Fatalf("ids: game %d v%d, challenge %d", g.ID, g.Version, c.ID)
	}
	db.view(context.Background(), func(tx *Tx) error {
		g2, err := tx.Match(1)
		if err != nil || g2.Black != g.Black || g2.Clock != g.Clock || !g2.Deadline.Equal(g.Deadline) || len(g2.Undos) != 1 || g2.Undos[0].Was != g.Undos[0].Was {
			t.Errorf("game: %+v, %v", g2, err)
		}
		if _, err := game.Replay(g2.Record); err != nil {
			t.Errorf("stored record does not replay: %v", err)
		}
		c2, err := tx.Challenge(1)
		if err != nil || c2.To != "test:bob" || c2.Config != c.Config {
			t.Errorf("challenge: %+v, %v", c2, err)
		}
		p2, err := tx.Player("test:ann")
		if err != nil || *p2 != *p {
			t.Errorf("player: %+v, %v", p2, err)
		}
		r2, err := tx.Room("test:room")
		if err != nil || *r2.Komi != 6.5 || !r2.Threads || r2.Clock != "3d" {
			t.Errorf("room: %+v, %v", r2, err)
		}
		v, err := tx.State("matrix", "since")
		if err != nil || string(v) != "s123" {
			t.Errorf("state: %q, %v", v, err)
		}
		for _, err := range []error{
			func() error { _, err := tx.Match(9); return err }(),
			func() error { _, err := tx.Challenge(9); return err }(),
			func() error { _, err := tx.Player("test:nobody"); return err }(),
			func() error { _, err := tx.Room("test:nowhere"); return err }(),
			func() error { _, err := tx.State("x", "y"); return err }(),
		} {
			if !errors.Is(err, gobot.ErrNotFound) {
				t.Errorf("want ErrNotFound, got %v", err)
			}
		}
		return nil
	})
}

// TestRoundTripEveryField fills every field of every record type and
// compares what comes back as a whole.
func TestRoundTripEveryField(t *testing.T) {
	db := mustOpen(t)
	komi := 0.5
	rules, _ := game.Preset("chinese")
	gg, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	var times []time.Time
	for i, m := range movesFor(3, 12) {
		if err := gg.PlayMove(m); err != nil {
			t.Fatal(err)
		}
		times = append(times, t0.Add(time.Duration(i)*time.Hour+time.Nanosecond))
	}
	rec := gg.Record()
	rec.Resumes = []int{4}
	rec.Dead = []game.Point{game.Pt(1, 2)}
	rec.Accepted = []game.Color{game.White}
	rec.Ended = &game.Result{Winner: game.White, Margin: 3.5}
	g := &gobot.Match{
		Room: "matrix:!abc:example.org", Thread: true, Black: "matrix:@ann:example.org", White: "discord:1234",
		Record: rec, MoveTimes: times,
		Clock:    gobot.TimeControl{Kind: gobot.Fischer, PerMove: time.Hour, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour},
		Left:     [3]time.Duration{0, 50 * time.Hour, 60 * time.Hour},
		Deadline: t0.Add(99 * time.Hour), Reminded: 2, TurnTime: 72 * time.Hour, UndoBy: "discord:1234",
		Undos:     []gobot.Undo{{By: "discord:1234", Move: 5, Was: game.Move{Color: game.Black, Point: game.Pt(4, 4)}, At: t0}},
		Challenge: 1, Created: t0, Updated: t0.Add(time.Minute), Finished: t0.Add(time.Hour), Result: "W+3.5",
	}
	c := &gobot.Challenge{Room: g.Room, From: g.Black, To: g.White, Config: rec.Config, Color: "random", Clock: g.Clock,
		Created: t0, Status: gobot.Accepted, Game: 1, Message: "$event", Answered: t0.Add(time.Second)}
	p := &gobot.Player{ID: g.Black, Name: "Ann", Notify: "off", Theme: "dark", Updated: t0}
	r := &gobot.Room{ID: g.Room, Rules: "aga", Width: 19, Height: 13, Komi: &komi, Clock: "fischer:3d+1d/7d", Threads: true, Updated: t0}
	if err := db.update(context.Background(), func(tx *Tx) error {
		return errors.Join(tx.PutMatch(g), tx.PutChallenge(c), tx.PutPlayer(p), tx.PutRoom(r))
	}); err != nil {
		t.Fatal(err)
	}
	db.view(context.Background(), func(tx *Tx) error {
		g2, err := tx.Match(g.ID)
		if err != nil || !reflect.DeepEqual(g2, g) {
			t.Errorf("game:\n got %+v\nwant %+v\n%v", g2, g, err)
		}
		c2, err := tx.Challenge(c.ID)
		if err != nil || !reflect.DeepEqual(c2, c) {
			t.Errorf("challenge:\n got %+v\nwant %+v\n%v", c2, c, err)
		}
		p2, err := tx.Player(p.ID)
		if err != nil || !reflect.DeepEqual(p2, p) {
			t.Errorf("player: %+v, %v", p2, err)
		}
		r2, err := tx.Room(r.ID)
		if err != nil || !reflect.DeepEqual(r2, r) {
			t.Errorf("room: %+v, %v", r2, err)
		}
		return nil
	})
}

func ids(games []*gobot.Match) []gobot.GameID {
	var out []gobot.GameID
	for _, g := range games {
		out = append(out, g.ID)
	}
	return out
}

func TestIndexesFollowChanges(t *testing.T) {
	db := mustOpen(t)
	var a, b *gobot.Match
	db.update(context.Background(), func(tx *Tx) error {
		a = newGame(t, "t:ann", "t:bob", "t:r1")
		a.Deadline = t0.Add(time.Hour)
		b = newGame(t, "t:ann", "t:cat", "t:r2")
		b.Deadline = t0.Add(2 * time.Hour)
		if err := tx.PutMatch(a); err != nil {
			return err
		}
		return tx.PutMatch(b)
	})
	check := func(what string, got []gobot.GameID, want ...gobot.GameID) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	db.view(context.Background(), func(tx *Tx) error {
		g, _ := tx.ActiveGames("t:ann")
		check("ann's games", ids(g), 1, 2)
		g, _ = tx.DueGames(t0.Add(90*time.Minute), 0)
		check("due", ids(g), 1)
		g, _ = tx.DueGames(t0.Add(3*time.Hour), 1)
		check("due limit 1", ids(g), 1)
		return nil
	})
	// A move moves the deadline; finishing drops the game from the
	// active indexes but keeps it in the room's.
	db.update(context.Background(), func(tx *Tx) error {
		a.Deadline = t0.Add(5 * time.Hour)
		if err := tx.PutMatch(a); err != nil {
			return err
		}
		b.Finished, b.Result, b.Deadline = t0, "B+R", time.Time{}
		return tx.PutMatch(b)
	})
	db.view(context.Background(), func(tx *Tx) error {
		g, _ := tx.ActiveGames("t:ann")
		check("ann's games after finish", ids(g), 1)
		g, _ = tx.ActiveGames("t:cat")
		check("cat's games", ids(g))
		g, _ = tx.DueGames(t0.Add(3*time.Hour), 0)
		check("due after move", ids(g))
		g, _ = tx.RoomGames("t:r2", false)
		check("room r2, all", ids(g), 2)
		g, _ = tx.RoomGames("t:r2", true)
		check("room r2, active", ids(g))
		return nil
	})
	// A game moved to another room (its own thread) and handed to
	// another player leaves the old room's and player's lists.
	if err := db.update(context.Background(), func(tx *Tx) error {
		a.Room, a.Thread, a.White = "t:r1-thread", true, "t:dan"
		return tx.PutMatch(a)
	}); err != nil {
		t.Fatal(err)
	}
	db.view(context.Background(), func(tx *Tx) error {
		g, _ := tx.RoomGames("t:r1", false)
		check("old room", ids(g))
		g, _ = tx.RoomGames("t:r1-thread", true)
		check("thread", ids(g), 1)
		g, _ = tx.ActiveGames("t:bob")
		check("bob's games", ids(g))
		g, _ = tx.ActiveGames("t:dan")
		check("dan's games", ids(g), 1)
		g, _ = tx.DueGames(t0.Add(6*time.Hour), 0)
		check("due after the move to a thread", ids(g), 1)
		return nil
	})
	// Stale writes fail.
	stale := *a
	stale.Version--
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(&stale) }); !errors.Is(err, gobot.ErrConflict) {
		t.Fatalf("stale write: %v", err)
	}
	db.update(context.Background(), func(tx *Tx) error { return tx.DeleteGame(1) })
	db.view(context.Background(), func(tx *Tx) error {
		g, _ := tx.ActiveGames("t:ann")
		check("after delete", ids(g))
		return nil
	})
	// Challenges: pending ones are indexed for both players and the room.
	db.update(context.Background(), func(tx *Tx) error {
		for _, c := range []*gobot.Challenge{{Room: "t:r1", From: "t:ann", To: "t:bob"}, {Room: "t:r1", From: "t:cat"}} {
			if err := tx.PutChallenge(c); err != nil {
				return err
			}
		}
		return nil
	})
	db.view(context.Background(), func(tx *Tx) error {
		cs, _ := tx.PendingChallenges("t:bob")
		cr, _ := tx.RoomChallenges("t:r1")
		if len(cs) != 1 || len(cr) != 2 {
			t.Errorf("bob's %d, room's %d", len(cs), len(cr))
		}
		return nil
	})
	db.update(context.Background(), func(tx *Tx) error {
		c, _ := tx.Challenge(1)
		c.Status = gobot.Declined
		return tx.PutChallenge(c)
	})
	db.view(context.Background(), func(tx *Tx) error {
		cs, _ := tx.PendingChallenges("t:bob")
		cr, _ := tx.RoomChallenges("t:r1")
		if len(cs) != 0 || len(cr) != 1 {
			t.Errorf("after decline: bob's %d, room's %d", len(cs), len(cr))
		}
		return nil
	})
}

func TestEvents(t *testing.T) {
	db := mustOpen(t)
	db.update(context.Background(), func(tx *Tx) error { return tx.MarkEvent("e1", t0) })
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.MarkEvent("e1", t0) }); !errors.Is(err, gobot.ErrDuplicate) {
		t.Fatalf("second mark: %v", err)
	}
	db.update(context.Background(), func(tx *Tx) error { return tx.MarkEvent("e2", t0.Add(time.Hour)) })
	var n int
	db.update(context.Background(), func(tx *Tx) error {
		var err error
		n, err = tx.ExpireEvents(t0.Add(time.Minute))
		return err
	})
	if n != 1 {
		t.Fatalf("expired %d, want 1", n)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.MarkEvent("e1", t0) }); err != nil {
		t.Fatalf("an expired event may be marked again: %v", err)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.MarkEvent("e2", t0) }); !errors.Is(err, gobot.ErrDuplicate) {
		t.Fatalf("e2 should still be known: %v", err)
	}
}

func TestSecondOpenFailsFast(t *testing.T) {
	db := mustOpen(t)
	start := time.Now()
	_, err := Open(db.Path(), Options{Timeout: 100 * time.Millisecond})
	if !errors.Is(err, gobot.ErrInUse) || !strings.Contains(err.Error(), "in use by another gobot") {
		t.Fatalf("second open: %v", err)
	}
	_ = start
}

func TestCorruptRecordIsReportedNotFatal(t *testing.T) {
	db := mustOpen(t)
	db.update(context.Background(), func(tx *Tx) error {
		for range 2 {
			if err := tx.PutMatch(newGame(t, "t:ann", "t:bob", "t:r")); err != nil {
				return err
			}
		}
		// Damage game 1 behind the API's back.
		return tx.tx.Bucket(bGames).Put(idKey(1), []byte("{not json"))
	})
	db.view(context.Background(), func(tx *Tx) error {
		if _, err := tx.Match(1); !errors.Is(err, gobot.ErrCorrupt) || !strings.Contains(err.Error(), "game #1") {
			t.Errorf("game 1: %v", err)
		}
		if _, err := tx.Match(2); err != nil {
			t.Errorf("game 2 must still read: %v", err)
		}
		games, err := tx.ActiveGames("t:ann")
		if len(games) != 1 || games[0].ID != 2 || !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("list: %v, %v", ids(games), err)
		}
		return nil
	})
	// A write over the damaged record is refused, not done blindly.
	err := db.update(context.Background(), func(tx *Tx) error {
		g := newGame(t, "t:ann", "t:bob", "t:r")
		g.ID, g.Version = 1, 1
		return tx.PutMatch(g)
	})
	if !errors.Is(err, gobot.ErrCorrupt) || !strings.Contains(err.Error(), "game #1") {
		t.Errorf("overwriting the damaged game: %v", err)
	}
	// Deleting it removes its index entries too (the cleanup check
	// verifies that none is left).
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.DeleteGame(1) }); err != nil {
		t.Fatal(err)
	}
	db.view(context.Background(), func(tx *Tx) error {
		games, err := tx.ActiveGames("t:ann")
		if len(games) != 1 || games[0].ID != 2 || err != nil {
			t.Errorf("after deleting the damaged game: %v, %v", ids(games), err)
		}
		return nil
	})
}

func TestCorruptChallengeIsReportedNotFatal(t *testing.T) {
	db := mustOpen(t)
	db.update(context.Background(), func(tx *Tx) error {
		for range 2 {
			if err := tx.PutChallenge(&gobot.Challenge{Room: "t:r", From: "t:ann", To: "t:bob", Created: t0}); err != nil {
				return err
			}
		}
		return tx.tx.Bucket(bChallenges).Put(idKey(2), []byte(`{"ID":2,"Status":"pending"}`))
	})
	db.view(context.Background(), func(tx *Tx) error {
		cs, err := tx.PendingChallenges("t:bob")
		if len(cs) != 1 || cs[0].ID != 1 || !errors.Is(err, gobot.ErrCorrupt) || !strings.Contains(err.Error(), "challenge #2") {
			t.Errorf("pending: %d, %v", len(cs), err)
		}
		return nil
	})
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.DeleteChallenge(2) }); err != nil {
		t.Fatal(err)
	}
	db.view(context.Background(), func(tx *Tx) error {
		cs, err := tx.RoomChallenges("t:r")
		if len(cs) != 1 || err != nil {
			t.Errorf("room: %d, %v", len(cs), err)
		}
		return nil
	})
}

func TestPutGameRefusesStaleWrites(t *testing.T) {
	db := mustOpen(t)
	g := newGame(t, "t:ann", "t:bob", "t:r")
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(g) }); err != nil {
		t.Fatal(err)
	}
	stale := *g
	g.Result, g.Finished = "W+R", t0
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(g) }); err != nil || g.Version != 2 {
		t.Fatalf("update: %v, version %d", err, g.Version)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(&stale) }); !errors.Is(err, gobot.ErrConflict) {
		t.Errorf("stale write: %v", err)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.DeleteGame(g.ID) }); err != nil {
		t.Fatal(err)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(g) }); !errors.Is(err, gobot.ErrNotFound) || !strings.Contains(err.Error(), "game #1 not found") {
		t.Errorf("write to a deleted game: %v", err)
	}
	if err := db.update(context.Background(), func(tx *Tx) error { return tx.DeleteGame(g.ID) }); !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("deleting twice: %v", err)
	}
}

// TestCheckFindsBrokenIndexes makes sure the invariant check used by
// every test's cleanup does catch stale, missing and wrong entries.
func TestCheckFindsBrokenIndexes(t *testing.T) {
	db, err := Open(filepath.Join(t.TempDir(), "gobot.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g := newGame(t, "t:ann", "t:bob", "t:r")
	g.Deadline = t0
	db.update(context.Background(), func(tx *Tx) error {
		tx.MarkEvent("e1", t0)
		return tx.PutMatch(g)
	})
	for _, c := range []struct {
		bucket   []byte
		key, val []byte
		del      bool
		want     string
	}{
		{bPlayerGames, pairKey("t:ann", 1), nil, true, "missing entry"},
		{bPlayerGames, pairKey("t:eve", 1), nil, false, "stale entry"},
		{bRoomGames, pairKey("t:r", 1), []byte{0}, false, "want [1]"},
		{bDeadlines, deadlineKey(t0, 1), nil, true, "missing entry"},
		{bEventsByTime, append(timeKey(t0), "e2"...), nil, false, "stale entry"},
	} {
		var saved []byte
		db.update(context.Background(), func(tx *Tx) error {
			b := tx.tx.Bucket(c.bucket)
			saved = append([]byte(nil), b.Get(c.key)...)
			if c.del {
				return b.Delete(c.key)
			}
			return b.Put(c.key, c.val)
		})
		if err := db.Check(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: check says %v", c.bucket, c.key, err)
		}
		db.update(context.Background(), func(tx *Tx) error {
			b := tx.tx.Bucket(c.bucket)
			if c.del || len(saved) > 0 {
				return b.Put(c.key, saved)
			}
			return b.Delete(c.key)
		})
		if err := db.Check(); err != nil {
			t.Fatalf("after repair: %v", err)
		}
	}
}

func TestReadOnlyOpenNeedsCurrentSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	bdb.Update(func(btx *bolt.Tx) error { _, err := btx.CreateBucket(bGames); return err })
	bdb.Close()
	if _, err := Open(path, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "schema 1") {
		t.Fatalf("read-only open of a schema-1 file: %v", err)
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = Open(path, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("after the upgrade: %v", err)
	}
	if err := db.Check(); err != nil {
		t.Error(err)
	}
	db.Close()
	// A file missing one of its buckets is reported, not a nil bucket
	// to panic on later.
	bdb, err = bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	bdb.Update(func(btx *bolt.Tx) error { return btx.DeleteBucket(bState) })
	bdb.Close()
	if _, err := Open(path, Options{ReadOnly: true}); !errors.Is(err, gobot.ErrCorrupt) || !strings.Contains(err.Error(), "state") {
		t.Fatalf("read-only open without the state bucket: %v", err)
	}
}

// TestMigrationFromSchema1 builds a file as the first schema wrote it (no
// schema key, no deadline and event-time indexes) and opens it.
func TestMigrationFromSchema1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "old.db")
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := newGame(t, "t:ann", "t:bob", "t:r")
	g.ID, g.Version, g.Deadline = 7, 3, t0.Add(time.Hour)
	err = bdb.Update(func(btx *bolt.Tx) error {
		for _, name := range [][]byte{bGames, bPlayerGames, bRoomGames, bEvents} {
			if _, err := btx.CreateBucket(name); err != nil {
				return err
			}
		}
		tx := &Tx{btx}
		raw := fmt.Sprintf(`{"ID":7,"Version":3,"Room":"t:r","Black":"t:ann","White":"t:bob","Deadline":"%s","Created":"%s","Updated":"%s"}`,
			g.Deadline.Format(time.RFC3339Nano), t0.Format(time.RFC3339), t0.Format(time.RFC3339))
		if err := btx.Bucket(bGames).Put(idKey(7), []byte(raw)); err != nil {
			return err
		}
		btx.Bucket(bPlayerGames).Put(pairKey("t:ann", 7), nil)
		btx.Bucket(bPlayerGames).Put(pairKey("t:bob", 7), nil)
		btx.Bucket(bRoomGames).Put(pairKey("t:r", 7), []byte{1})
		_ = tx
		return btx.Bucket(bEvents).Put([]byte("old-event"), timeKey(t0))
	})
	bdb.Close()
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatalf("after migration: %v", err)
	}
	db.view(context.Background(), func(tx *Tx) error {
		due, _ := tx.DueGames(t0.Add(2*time.Hour), 0)
		if len(due) != 1 || due[0].ID != 7 {
			t.Errorf("the migration should index the deadline: %v", ids(due))
		}
		v := tx.tx.Bucket(bMeta).Get(keySchema)
		if len(v) != 4 || v[3] != SchemaVersion {
			t.Errorf("schema key %v", v)
		}
		return nil
	})
	db.update(context.Background(), func(tx *Tx) error {
		n, _ := tx.ExpireEvents(t0.Add(time.Minute))
		if n != 1 {
			t.Errorf("the migration should index old events by time: expired %d", n)
		}
		return nil
	})
}

// playMove applies one move to game id inside a transaction, checking
// the turn: it fails when the move was already made or is out of turn.
func playMove(tx *Tx, id gobot.GameID, n int, m game.Move) error {
	g, err := tx.Match(id)
	if err != nil {
		return err
	}
	if len(g.Record.Moves) != n {
		return fmt.Errorf("game #%d: move %d already made or out of order: %w", id, n+1, gobot.ErrConflict)
	}
	gg, err := game.Replay(g.Record)
	if err != nil {
		return err
	}
	if err := gg.PlayMove(m); err != nil {
		return err
	}
	g.Record = gg.Record()
	return tx.PutMatch(g)
}

// movesFor returns a fixed legal sequence for game number i.
func movesFor(i, n int) []game.Move {
	r, _ := game.Preset("japanese")
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	rng := rand.New(rand.NewPCG(uint64(i), 9))
	var out []game.Move
	for tries := 0; len(out) < n; tries++ {
		c := g.ToMove()
		p := game.Pt(rng.IntN(9), rng.IntN(9))
		if tries > 200 { // the board is full: pass (once; a second pass would end the game)
			p, tries = game.Pass, 0
		}
		if g.Play(c, p) == nil {
			out = append(out, game.Move{Color: c, Point: p})
		}
		if g.Phase() != game.Playing {
			break
		}
	}
	return out
}

func TestConcurrentMovesEachOnce(t *testing.T) {
	db := mustOpen(t)
	const games, workers, perGame = 20, 50, 30
	db.update(context.Background(), func(tx *Tx) error {
		for i := range games {
			if err := tx.PutMatch(newGame(t, gobot.UserID(fmt.Sprintf("t:b%d", i)), gobot.UserID(fmt.Sprintf("t:w%d", i)), "t:r")); err != nil {
				return err
			}
		}
		return nil
	})
	seqs := make([][]game.Move, games)
	for i := range seqs {
		seqs[i] = movesFor(i, perGame)
	}
	var mu sync.Mutex
	acked := map[gobot.GameID][]int{}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(w), 1))
			for range 400 {
				id := gobot.GameID(rng.IntN(games) + 1)
				// Every worker tries the game's next move; each delivery
				// happens twice.
				var n int
				db.view(context.Background(), func(tx *Tx) error {
					g, err := tx.Match(id)
					if err == nil {
						n = len(g.Record.Moves)
					}
					return err
				})
				if n >= perGame {
					continue
				}
				for range 2 {
					err := db.update(context.Background(), func(tx *Tx) error { return playMove(tx, id, n, seqs[id-1][n]) })
					if err == nil {
						mu.Lock()
						acked[id] = append(acked[id], n)
						mu.Unlock()
					}
				}
			}
		}()
	}
	wg.Wait()
	db.view(context.Background(), func(tx *Tx) error {
		for id := gobot.GameID(1); id <= games; id++ {
			g, err := tx.Match(id)
			if err != nil {
				t.Fatal(err)
			}
			nums := acked[id]
			if len(nums) != len(g.Record.Moves) {
				t.Errorf("game %d: %d moves acknowledged, %d stored", id, len(nums), len(g.Record.Moves))
			}
			seen := map[int]bool{}
			for _, k := range nums {
				if seen[k] {
					t.Errorf("game %d: move %d acknowledged twice", id, k+1)
				}
				seen[k] = true
			}
			for k, m := range g.Record.Moves {
				if m != seqs[id-1][k] {
					t.Errorf("game %d: move %d is %v, want %v", id, k+1, m, seqs[id-1][k])
				}
			}
		}
		return nil
	})
}

// TestCrashSafety re-runs this test binary as a child that commits moves
// as fast as it can and prints each acknowledgement; the parent kills it
// with SIGKILL at random moments and checks, each time, that the file
// opens, is consistent, and holds every acknowledged move.
func TestCrashSafety(t *testing.T) {
	if os.Getenv("GOBOT_CRASH_CHILD") != "" {
		crashChild(os.Getenv("GOBOT_CRASH_CHILD"))
		return
	}
	if testing.Short() {
		t.Skip("kills child processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	rng := rand.New(rand.NewPCG(42, 42))
	acked := map[string]bool{}
	for round := range 22 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashSafety$")
		cmd.Env = append(os.Environ(), "GOBOT_CRASH_CHILD="+path)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(out)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		// The kill comes 20-220 ms after the child has the file open (a
		// race-instrumented child on a loaded machine may take longer than
		// that just to start).
		wait := time.Duration(20+rng.IntN(200)) * time.Millisecond
		var deadline <-chan time.Time
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				if l == "ready" {
					deadline = time.After(wait)
				}
				if strings.HasPrefix(l, "ack ") {
					acked[strings.TrimPrefix(l, "ack ")] = true
				}
			case <-deadline:
				cmd.Process.Signal(syscall.SIGKILL)
				for l := range lines {
					if strings.HasPrefix(l, "ack ") {
						acked[strings.TrimPrefix(l, "ack ")] = true
					}
				}
				break read
			}
		}
		cmd.Wait()
		db, err := Open(path, Options{})
		if err != nil {
			t.Fatalf("round %d: reopening: %v", round, err)
		}
		if err := db.Check(); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		stored := map[string]bool{}
		db.view(context.Background(), func(tx *Tx) error {
			games, err := tx.RoomGames("t:crash", false)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range games {
				for k := range g.Record.Moves {
					stored[fmt.Sprintf("%d/%d", g.ID, k+1)] = true
				}
			}
			return nil
		})
		db.Close()
		for a := range acked {
			if !stored[a] {
				t.Fatalf("round %d: acknowledged move %s is missing", round, a)
			}
		}
	}
	if len(acked) == 0 {
		t.Fatal("the child never acknowledged a move")
	}
	t.Logf("%d acknowledged moves survived 22 kills", len(acked))
}

func crashChild(path string) {
	db, err := Open(path, Options{Timeout: 5 * time.Second})
	if err != nil {
		fmt.Println("open:", err)
		os.Exit(1)
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "ready")
	w.Flush()
	for {
		var id gobot.GameID
		db.view(context.Background(), func(tx *Tx) error {
			games, _ := tx.RoomGames("t:crash", true)
			for _, g := range games {
				if len(g.Record.Moves) < 40 {
					id = g.ID
				}
			}
			return nil
		})
		if id == 0 {
			db.update(context.Background(), func(tx *Tx) error {
				g := newGame(nil, "t:ann", "t:bob", "t:crash")
				if err := tx.PutMatch(g); err != nil {
					return err
				}
				id = g.ID
				return nil
			})
		}
		var n int
		err := db.update(context.Background(), func(tx *Tx) error {
			g, err := tx.Match(id)
			if err != nil {
				return err
			}
			n = len(g.Record.Moves)
			return playMove(tx, id, n, movesFor(int(id), n+1)[n])
		})
		if err == nil {
			fmt.Fprintf(w, "ack %d/%d\n", id, n+1)
			w.Flush()
		}
	}
}

func BenchmarkCommitMove(b *testing.B) {
	db := mustOpen(b)
	db.update(context.Background(), func(tx *Tx) error { return tx.PutMatch(newGame(b, "t:a", "t:b", "t:r")) })
	moves := movesFor(1, 60)
	i := 0
	for b.Loop() {
		n := i % 60
		if n == 0 && i > 0 {
			db.update(context.Background(), func(tx *Tx) error {
				g, _ := tx.Match(1)
				g.Record.Moves = nil
				return tx.PutMatch(g)
			})
		}
		if err := db.update(context.Background(), func(tx *Tx) error { return playMove(tx, 1, n, moves[n]) }); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkParallelMoves(b *testing.B) {
	b.Run("Batch", func(b *testing.B) { benchParallel(b, func(db *DB) func(func(*Tx) error) error { return db.batch }) })
	b.Run("Update", func(b *testing.B) {
		benchParallel(b, func(db *DB) func(func(*Tx) error) error {
			return func(fn func(*Tx) error) error { return db.update(context.Background(), fn) }
		})
	})
}

func benchParallel(b *testing.B, how func(*DB) func(func(*Tx) error) error) {
	db := mustOpen(b)
	commit := how(db)
	const games = 64
	db.update(context.Background(), func(tx *Tx) error {
		for range games {
			if err := tx.PutMatch(newGame(b, "t:a", "t:b", "t:r")); err != nil {
				return err
			}
		}
		return nil
	})
	var next sync.Mutex
	gameNo := 0
	start := time.Now()
	b.SetParallelism(8)
	b.RunParallel(func(pb *testing.PB) {
		next.Lock()
		id := gobot.GameID(gameNo%games + 1)
		gameNo++
		next.Unlock()
		moves := movesFor(int(id), 60)
		n := 0
		for pb.Next() {
			if n == 60 {
				commit(func(tx *Tx) error {
					g, _ := tx.Match(id)
					g.Record.Moves = nil
					return tx.PutMatch(g)
				})
				n = 0
			}
			err := commit(func(tx *Tx) error {
				g, err := tx.Match(id)
				if err != nil {
					return err
				}
				k := len(g.Record.Moves)
				return playMove(tx, id, k, moves[k])
			})
			if err != nil {
				b.Fatal(err)
			}
			n++
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
}

// fixture100k builds a file with 100,000 finished games plus a few active
// ones, once per benchmark run.
func fixture100k(b *testing.B) *DB {
	path := filepath.Join(b.TempDir(), "big.db")
	db, err := Open(path, Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	base := newGame(b, "t:x", "t:y", "t:r")
	for chunk := 0; chunk < 100; chunk++ {
		db.update(context.Background(), func(tx *Tx) error {
			for i := range 1000 {
				g := *base
				g.ID, g.Version = 0, 0
				g.Black = gobot.UserID("t:p" + strconv.Itoa((chunk*1000+i)%2000))
				g.Room = gobot.RoomID("t:room" + strconv.Itoa(i%50))
				g.Finished, g.Result = t0, "B+R"
				if err := tx.PutMatch(&g); err != nil {
					return err
				}
			}
			return nil
		})
	}
	db.update(context.Background(), func(tx *Tx) error {
		for i := range 20 {
			g := *base
			g.ID, g.Version = 0, 0
			g.Black = "t:p7"
			g.Deadline = t0.Add(time.Duration(i) * time.Hour)
			if err := tx.PutMatch(&g); err != nil {
				return err
			}
		}
		return nil
	})
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkLookups100k(b *testing.B) {
	db := fixture100k(b)
	b.Run("ActiveGames", func(b *testing.B) {
		for b.Loop() {
			db.view(context.Background(), func(tx *Tx) error {
				g, err := tx.ActiveGames("t:p7")
				if err != nil || len(g) != 20 {
					b.Fatalf("%d games, %v", len(g), err)
				}
				return nil
			})
		}
	})
	b.Run("DueGames", func(b *testing.B) {
		for b.Loop() {
			db.view(context.Background(), func(tx *Tx) error {
				g, err := tx.DueGames(t0.Add(5*time.Hour), 0)
				if err != nil || len(g) != 5 {
					b.Fatalf("%d games, %v", len(g), err)
				}
				return nil
			})
		}
	})
}
