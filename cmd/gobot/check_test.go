package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/storage"
)

// newDatabase writes a database with one player and returns its path.
func newDatabase(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gobot.db")
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	putPlayer(t, db, "ann")
	db.Close()
	return path
}

func truncateToHalf(t *testing.T, path string) {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, st.Size()/2); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCommand(t *testing.T) {
	path := newDatabase(t)
	code, stdout, stderr := runGobotArgs("check", path)
	if code != 0 || !strings.Contains(stdout, path+": healthy.") || !strings.Contains(stdout, "index check passed") {
		t.Fatalf("healthy file: exit %d\n%s%s", code, stdout, stderr)
	}
	truncateToHalf(t, path)
	code, stdout, stderr = runGobotArgs("check", path)
	for _, want := range []string{"DAMAGED: " + path + ": database file is damaged: the file is ", "it was cut short", "gobot repair " + path, "Backup and restore"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("damaged file: stdout lacks %q:\n%s", want, stdout)
		}
	}
	if code != 1 {
		t.Errorf("damaged file: exit %d, want 1 (%s)", code, stderr)
	}
	if code, _, stderr := runGobotArgs("check", path, path); code != 2 || !strings.Contains(stderr, "one file") {
		t.Errorf("two files: exit %d: %s", code, stderr)
	}
	if code, _, stderr := runGobotArgs("check", filepath.Join(t.TempDir(), "none.db")); code != 1 || !strings.Contains(stderr, "no database at") {
		t.Errorf("no file: exit %d: %s", code, stderr)
	}
}

func TestCheckCommandWhileInUse(t *testing.T) {
	path := newDatabase(t)
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	code, _, stderr := runGobotArgs("check", path)
	if code != 1 || !strings.Contains(stderr, "in use by another gobot") || !strings.Contains(stderr, "gobot backup -o copy.db") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}

// TestDamagedDatabaseIsRefusedAtStart: the terminal game does not start
// on a damaged file; the message names the file, what is wrong and what
// to do. (Before, it started and every write failed with "something went
// wrong on my side".)
func TestDamagedDatabaseIsRefusedAtStart(t *testing.T) {
	path := newDatabase(t)
	truncateToHalf(t, path)
	in := strings.NewReader("challenge @bob 9\n")
	code, stdout, stderr := runGobotIn(in, "-db", path)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, want := range []string{"gobot: " + path + ": database file is damaged: ", "cut short", "What to do", "gobot check " + path, "gobot repair " + path} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stdout, "Challenge") {
		t.Errorf("a command ran on the damaged file:\n%s", stdout)
	}
}

func runGobotIn(stdin io.Reader, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}
