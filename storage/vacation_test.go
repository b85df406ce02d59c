package storage

import (
	"context"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/gobotgo/gobot"
)

// A damaged player record in the vacation index is reported beside the
// readable ones; quarantining it takes its index entry out too.
func TestVacationIndexWithDamagedPlayer(t *testing.T) {
	db := mustOpen(t)
	ctx := context.Background()
	away := func(id gobot.UserID, h int) *gobot.Player {
		return &gobot.Player{ID: id, Name: string(id), Updated: t0, Vacation: &gobot.Vacation{Left: 100 * time.Hour, Start: t0, End: t0.Add(time.Duration(h) * time.Hour)}}
	}
	if err := db.Update(ctx, func(tx gobot.Tx) error {
		if err := tx.PutPlayer(away("t:ann", 2)); err != nil {
			return err
		}
		return tx.PutPlayer(away("t:bob", 3))
	}); err != nil {
		t.Fatal(err)
	}
	db.bolt.Update(func(btx *bolt.Tx) error { return btx.Bucket(bPlayers).Put([]byte("t:ann"), []byte(`{"v":9}`)) })
	due := func() ([]*gobot.Player, error) {
		var ps []*gobot.Player
		err := db.View(ctx, func(tx gobot.Tx) (err error) { ps, err = tx.DueVacations(t0.Add(10*time.Hour), 0); return err })
		return ps, err
	}
	ps, err := due()
	if len(ps) != 1 || ps[0].ID != "t:bob" || gobot.Damaged(err) == nil {
		t.Fatalf("with ann's record damaged: %v, %v; want bob and a damaged-record error", ps, err)
	}
	if _, err := db.Quarantine(ctx, "player:t:ann"); err != nil {
		t.Fatal(err)
	}
	if ps, err := due(); len(ps) != 1 || err != nil {
		t.Fatalf("after the quarantine: %v, %v; want bob alone, no error", ps, err)
	}
}
