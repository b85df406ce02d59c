package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

// TestRepairQuarantinesADamagedGame: a bad disk garbles one game record;
// `gobot repair --list` names it, `--quarantine` takes it out of play,
// and the player's other game is listed again.
func TestRepairQuarantinesADamagedGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := game.Preset("japanese")
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	rec := g.Record()
	rec.Config.Rules.Name = "japanesX" // marks the record to garble below
	err = db.Update(context.Background(), func(tx gobot.Tx) error {
		now := time.Now()
		if err := tx.PutMatch(&gobot.Match{Room: "console:main", Black: "console:ann", White: "console:bob", Record: g.Record(), Created: now}); err != nil {
			return err
		}
		return tx.PutMatch(&gobot.Match{Room: "console:main", Black: "console:ann", White: "console:bob", Record: rec, Created: now})
	})
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := bytes.Replace(raw, []byte(`"name":"japanesX","ko":"simple"`), []byte(`"name":"japanesX","ko":"SIMPLE"`), 1)
	if bytes.Equal(bad, raw) {
		t.Fatal("game #2's record not found in the file")
	}
	if err := os.WriteFile(path, bad, 0o600); err != nil {
		t.Fatal(err)
	}

	code, out, errs := runGobotArgs("repair", "-db", path, "--list")
	if code != 0 || !strings.Contains(out, "damaged game:2: game #2: record is corrupted") || !strings.Contains(out, "--quarantine game:2") || strings.Contains(out, "game:1") {
		t.Fatalf("repair --list: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runGobotArgs("repair", "-db", path, "--quarantine", "game:1"); code != 1 || !strings.Contains(errs, "game:1: the record is not damaged; nothing was changed") {
		t.Errorf("quarantining a healthy game: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runGobotArgs("repair", "-db", path); code != 2 || !strings.Contains(errs, "gobot repair --list or") {
		t.Errorf("repair without an action: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runGobotArgs("repair", "-db", path, "--quarantine", "#2"); code != 0 || !strings.Contains(out, "game:2 moved to quarantine") {
		t.Fatalf("repair --quarantine #2: %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runGobotArgs("repair", "-db", path, "--list"); code != 0 || out != "no damaged records\nquarantined game:2\n" {
		t.Errorf("repair --list after the quarantine: %d\n%q%s", code, out, errs)
	}

	db, err = storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	db.View(context.Background(), func(tx gobot.Tx) error {
		games, err := tx.ActiveGames("console:ann")
		if err != nil || len(games) != 1 || games[0].ID != 1 {
			t.Errorf("ann's games after the repair: %v, %v", games, err)
		}
		return nil
	})

	// A running bot holds the file: repair says to stop it.
	if code, _, errs := runGobotArgs("repair", "-db", path, "--list"); code != 1 || !strings.Contains(errs, "stop gobot first") {
		t.Errorf("repair while the database is open: %d %s", code, errs)
	}
}
