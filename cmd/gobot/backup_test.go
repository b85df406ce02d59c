package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/storage"
)

func runGobotArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func putPlayer(t *testing.T, db *storage.DB, name string) {
	t.Helper()
	if err := db.Update(func(tx *storage.Tx) error {
		return tx.PutPlayer(&storage.Player{ID: storage.UserID("console:" + name), Name: name, Updated: time.Now()})
	}); err != nil {
		t.Fatal(err)
	}
}

func checkBackupHas(t *testing.T, path string, names ...string) {
	t.Helper()
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, n := range names {
		if err := db.View(func(tx *storage.Tx) error {
			_, err := tx.Player(storage.UserID("console:" + n))
			return err
		}); err != nil {
			t.Fatalf("backup lacks player %s: %v", n, err)
		}
	}
}

func TestBackupOfStoppedDatabase(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	putPlayer(t, db, "ann")
	db.Close()
	out := filepath.Join(dir, "copy.db")
	code, stdout, stderr := runGobotArgs("backup", "-db", path, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stdout, "wrote") {
		t.Fatalf("stdout: %s", stdout)
	}
	checkBackupHas(t, out, "ann")
}

func TestBackupWhileTheBotRuns(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	serveBackups(ctx, db, slog.New(slog.DiscardHandler))
	putPlayer(t, db, "bea")
	// The database is held (locked) by the "bot" above.
	if _, err := storage.Open(path, storage.Options{Timeout: 50 * time.Millisecond}); err == nil {
		t.Fatal("a second open should fail while the bot holds the file")
	}
	out := filepath.Join(dir, "live.db")
	code, _, stderr := runGobotArgs("backup", "-db", path, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkBackupHas(t, out, "bea")
}

func TestBackupUsage(t *testing.T) {
	if code, _, stderr := runGobotArgs("backup"); code != 2 || !strings.Contains(stderr, "-o FILE") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runGobotArgs("backup", "-o", filepath.Join(t.TempDir(), "x.db"), "-db", "/nonexistent/gobot.db"); code != 1 || !strings.Contains(stderr, "no database") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
