package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

func runGobotArgs(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func putPlayer(t *testing.T, db *storage.DB, name string) {
	t.Helper()
	if err := db.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutPlayer(&gobot.Player{ID: gobot.UserID("console:" + name), Name: name, Updated: time.Now()})
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
		if err := db.View(context.Background(), func(tx gobot.Tx) error {
			_, err := tx.Player(gobot.UserID("console:" + n))
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
	if fi, err := os.Stat(backupSocket(path)); err != nil {
		t.Fatal(err)
	} else if fi.Mode().Perm() != 0o600 || fi.Mode().Type() != os.ModeSocket {
		t.Fatalf("backup socket mode %v", fi.Mode())
	}
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

// TestBackupWhileAnotherProcessWrites runs a stand-in bot in another
// process (this test binary re-executed): it holds the database, serves
// the backup socket and commits players as fast as it can, printing each
// acknowledgement. Backups taken meanwhile must be consistent and hold
// every player acknowledged before the backup began.
func TestBackupWhileAnotherProcessWrites(t *testing.T) {
	if path := os.Getenv("GOBOT_BACKUP_WRITER"); path != "" {
		backupWriter(path)
		return
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	cmd := exec.Command(os.Args[0], "-test.run=^TestBackupWhileAnotherProcessWrites$")
	cmd.Env = append(os.Environ(), "GOBOT_BACKUP_WRITER="+path)
	cmd.Stderr = os.Stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Kill()
		cmd.Wait()
	}()
	acks := make(chan int, 1<<16)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if n, err := strconv.Atoi(strings.TrimPrefix(sc.Text(), "ack ")); err == nil {
				acks <- n
			}
		}
		close(acks)
	}()
	last := 0
	drain := func() {
		for {
			select {
			case n, ok := <-acks:
				if !ok {
					t.Fatal("the writer process stopped")
				}
				last = max(last, n)
			default:
				return
			}
		}
	}
	for round := range 5 {
		// Wait for the writer to get some way further.
		for target := last + 20; last < target; {
			n, ok := <-acks
			if !ok {
				t.Fatal("the writer process stopped")
			}
			last = max(last, n)
		}
		drain()
		before := last
		out := filepath.Join(dir, fmt.Sprintf("live%d.db", round))
		code, _, stderr := runGobotArgs("backup", "-db", path, "-o", out)
		if code != 0 {
			t.Fatalf("round %d: exit %d: %s", round, code, stderr)
		}
		// The command itself checked the copy (bbolt's check and the
		// index invariants); it must also hold every acknowledged write.
		checkBackupHas(t, out, "w"+strconv.Itoa(before))
		// And the writer goes on after it.
		if _, ok := <-acks; !ok {
			t.Fatalf("round %d: the writer stopped", round)
		}
	}
}

// backupWriter is the stand-in bot for TestBackupWhileAnotherProcessWrites.
func backupWriter(path string) {
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		fmt.Fprintln(os.Stderr, "writer:", err)
		os.Exit(1)
	}
	serveBackups(context.Background(), db, slog.New(slog.DiscardHandler))
	w := bufio.NewWriter(os.Stdout)
	for i := 1; ; i++ {
		err := db.Update(context.Background(), func(tx gobot.Tx) error {
			return tx.PutPlayer(&gobot.Player{ID: gobot.UserID("console:w" + strconv.Itoa(i)), Name: "w" + strconv.Itoa(i), Updated: time.Now()})
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "writer:", err)
			os.Exit(1)
		}
		fmt.Fprintf(w, "ack %d\n", i)
		w.Flush()
	}
}

// backup -o refuses to overwrite an existing file (or the database
// itself) unless -force says so, and changes nothing when it refuses.
func TestBackupKeepsAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	putPlayer(t, db, "ann")
	db.Close()
	out := filepath.Join(dir, "precious.txt")
	if err := os.WriteFile(out, []byte("not a backup"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runGobotArgs("backup", "-db", path, "-o", out)
	if code == 0 || !strings.Contains(stderr, "already exists; nothing was written") || !strings.Contains(stderr, "-force") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(out); string(b) != "not a backup" {
		t.Fatal("the existing file was overwritten")
	}
	if _, err := os.Stat(out + ".partial"); !os.IsNotExist(err) {
		t.Fatalf("a partial copy was left: %v", err)
	}
	if code, _, stderr := runGobotArgs("backup", "-db", path, "-o", path, "-force"); code == 0 || !strings.Contains(stderr, "is the database itself") {
		t.Fatalf("backup onto the database: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runGobotArgs("backup", "-db", path, "-o", out, "-force"); code != 0 {
		t.Fatalf("-force: exit %d: %s", code, stderr)
	}
	checkBackupHas(t, out, "ann")
	// A new name is written as before, with no leftovers.
	fresh := filepath.Join(dir, "fresh.db")
	if code, _, stderr := runGobotArgs("backup", "-db", path, "-o", fresh); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	checkBackupHas(t, fresh, "ann")
	if _, err := os.Stat(fresh + ".partial"); !os.IsNotExist(err) {
		t.Fatalf("a partial copy was left: %v", err)
	}
}
