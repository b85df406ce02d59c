package settings_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/gobotgo/gobot/flow/settings"
	"github.com/gobotgo/gobot/storage"

	"github.com/gobotgo/gobot"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

func TestSettings(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.Update(context.Background(), func(tx gobot.Tx) error {
		rank := func(v string) error { return errors.New("rank " + v) }
		err := settings.SetPlayer(tx, "x:ann", "Ann", []string{"theme=DARK", "notify=loud"}, rank, t0)
		if want := (settings.ChoiceRefusal{Key: "notify", Value: "loud"}); err != want {
			t.Errorf("notify=loud: %v, want %v", err, want)
		}
		if err := settings.SetPlayer(tx, "x:ann", "Ann", []string{"rank=5k"}, rank, t0); err == nil || err.Error() != "rank 5k" {
			t.Errorf("rank=5k: %v, want the rank's own error", err)
		}
		if err := settings.SetPlayer(tx, "x:ann", "Ann", []string{"theme=DARK", "confirm=never"}, rank, t0); err != nil {
			return err
		}
		if p, err := tx.Player("x:ann"); err != nil || p.Name != "Ann" || p.Theme != "dark" || p.Confirm != "never" || !p.Updated.Equal(t0) {
			t.Errorf("player: %+v, %v", p, err)
		}
		if rules, err := settings.RoomRules(tx, "x:room", "chinese"); err != nil || rules != "chinese" {
			t.Errorf("rules of a room not stored: %q, %v", rules, err)
		}
		rules, off := "japanese ko=simple", false
		if err := settings.SetRoom(tx, "x:room", settings.RoomChange{Rules: &rules, Width: 13, Height: 13, Engines: &off}, t0); err != nil {
			return err
		}
		if rules, err := settings.RoomRules(tx, "x:room", "chinese"); err != nil || rules != "japanese ko=simple" {
			t.Errorf("room's rules: %q, %v", rules, err)
		}
		rm, err := tx.Room("x:room")
		if err != nil || rm.Width != 13 || !rm.NoEngines || rm.Clock != "" || rm.Komi != nil {
			t.Errorf("room: %+v, %v", rm, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
