package storage

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	bolt "go.etcd.io/bbolt"
)

func TestQuarantineDamagedRecords(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	putTwo := func(tx gobot.Tx) error {
		for range 2 {
			if err := tx.PutMatch(newGame(t, "t:ann", "t:bob", "t:room")); err != nil {
				return err
			}
			if err := tx.PutChallenge(&gobot.Challenge{Room: "t:room", From: "t:ann", To: "t:bob", Created: t0}); err != nil {
				return err
			}
		}
		if err := tx.PutPlayer(&gobot.Player{ID: "t:ann", Name: "Ann", Updated: t0}); err != nil {
			return err
		}
		return tx.PutRoom(&gobot.Room{ID: "t:room", Updated: t0})
	}
	if err := db.Update(ctx, putTwo); err != nil {
		t.Fatal(err)
	}
	if d, err := db.Damaged(ctx); err != nil || len(d) != 0 {
		t.Fatalf("a healthy file: %v, %v", d, err)
	}
	db.bolt.Update(func(btx *bolt.Tx) error {
		btx.Bucket(bGames).Put(idKey(2), []byte(`{"v":3,"id":2,"rules":{"ko":"super"}}`))
		btx.Bucket(bChallenges).Put(idKey(1), []byte(`garbage`))
		return btx.Bucket(bPlayers).Put([]byte("t:ann"), []byte(`{"v":9}`))
	})
	d, err := db.Damaged(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var refs []string
	for _, x := range d {
		refs = append(refs, x.Ref())
		if !errors.Is(x.Err, gobot.ErrCorrupt) {
			t.Errorf("%s: %v", x.Ref(), x.Err)
		}
	}
	if got := strings.Join(refs, " "); got != "game:2 challenge:1 player:t:ann" {
		t.Fatalf("damaged: %s", got)
	}

	for _, c := range []struct {
		ref  string
		want error
		text string
	}{
		{"game:1", ErrNotDamaged, "not damaged"},
		{"game:9", gobot.ErrNotFound, "not found"},
		{"table:1", nil, "name a record like game:7"},
		{"game:x", nil, "numbered from 1"},
		{"game:0", nil, "numbered from 1"},
		{"room:" + strings.Repeat("r", 500), nil, "…"},
	} {
		_, err := db.Quarantine(ctx, c.ref)
		if err == nil || (c.want != nil && !errors.Is(err, c.want)) || !strings.Contains(err.Error(), c.text) || len(err.Error()) > 200 {
			t.Errorf("quarantine %.20s: %v; want %v, saying %q", c.ref, err, c.want, c.text)
		}
	}
	for _, ref := range []string{"#2", "challenge:1", "player:t:ann"} {
		if _, err := db.Quarantine(ctx, ref); err != nil {
			t.Fatalf("quarantine %s: %v", ref, err)
		}
	}
	if d, err := db.Damaged(ctx); err != nil || len(d) != 0 {
		t.Errorf("after quarantine: %v, %v", d, err)
	}
	if q, err := db.Quarantined(ctx); err != nil || strings.Join(q, " ") != "challenge:1 game:2 player:t:ann" {
		t.Errorf("quarantined: %v, %v", q, err)
	}
	err = db.View(ctx, func(tx gobot.Tx) error {
		games, err := tx.ActiveGames("t:ann")
		if err != nil || len(games) != 1 || games[0].ID != 1 {
			t.Errorf("ann's games after quarantine: %v, %v", games, err)
		}
		chals, err := tx.RoomChallenges("t:room")
		if err != nil || len(chals) != 1 || chals[0].ID != 2 {
			t.Errorf("room challenges after quarantine: %v, %v", chals, err)
		}
		if _, err := tx.Player("t:ann"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("player after quarantine: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.view(ctx, func(tx *Tx) error {
		if raw := tx.b(bQuarantine).Get([]byte("challenge\x00" + "1")); string(raw) != "garbage" {
			t.Errorf("quarantined challenge: %q", raw)
		}
		return nil
	})
}

// A damaged tournament or ladder is listed and quarantined like a game:
// out of the lists with its index entries (db.Check, in mustOpen's
// cleanup, finds none left), its game free for another.
func TestQuarantineDamagedEvents(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	if d, err := db.Damaged(ctx); err != nil || len(d) != 0 {
		t.Fatalf("a file without tournaments: %v, %v", d, err)
	}
	err := db.Update(ctx, func(tx gobot.Tx) error {
		for i := range 2 {
			tm := storetest.NewTournament("t:room", "t:ann")
			tm.Played[0].Matches, tm.Due = []gobot.GameID{gobot.GameID(5 + i)}, t0
			if err := tx.PutTournament(tm); err != nil {
				return err
			}
			l := storetest.NewLadder("t:room", "t:ann")
			l.Challenges[0].Game = gobot.GameID(5 + i)
			if err := tx.PutLadder(l); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	db.bolt.Update(func(btx *bolt.Tx) error {
		btx.Bucket(bTournaments).Put(idKey(1), []byte(`{"v":4,"id":1,"state":"paused"}`))
		return btx.Bucket(bLadders).Put(idKey(2), []byte(`garbage`))
	})
	d, err := db.Damaged(ctx)
	var refs []string
	for _, x := range d {
		refs = append(refs, x.Ref())
	}
	if err != nil || strings.Join(refs, " ") != "tournament:1 ladder:2" {
		t.Fatalf("damaged: %v (%v)", refs, err)
	}
	if _, err := db.Quarantine(ctx, "tournament:2"); !errors.Is(err, ErrNotDamaged) {
		t.Errorf("quarantine a healthy tournament: %v", err)
	}
	if _, err := db.Quarantine(ctx, "ladder:0"); err == nil || !strings.Contains(err.Error(), "numbered from 1") {
		t.Errorf("quarantine ladder 0: %v", err)
	}
	for _, ref := range []string{"tournament:1", "ladder:2"} {
		if _, err := db.Quarantine(ctx, ref); err != nil {
			t.Fatalf("quarantine %s: %v", ref, err)
		}
	}
	if q, err := db.Quarantined(ctx); err != nil || strings.Join(q, " ") != "ladder:2 tournament:1" {
		t.Errorf("quarantined: %v, %v", q, err)
	}
	err = db.Update(ctx, func(tx gobot.Tx) error {
		if ts, err := tx.DueTournaments(t0.Add(time.Hour), 0); err != nil || len(ts) != 1 || ts[0].ID != 2 {
			t.Errorf("due tournaments after quarantine: %v, %v", ts, err)
		}
		if _, err := tx.TournamentOfGame(5); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("game #5 after its tournament's quarantine: %v", err)
		}
		tm := storetest.NewTournament("t:room", "t:bob")
		tm.Played[0].Matches = []gobot.GameID{5}
		if err := tx.PutTournament(tm); err != nil {
			t.Errorf("game #5 taken again: %v", err)
		}
		if _, err := tx.LadderOfGame(6); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("game #6 after its ladder's quarantine: %v", err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
