package main

import (
	"bytes"
	"image"
	"image/png"
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
	for _, want := range []string{"DAMAGED: " + path + ": database file is damaged: the file is ", "it was cut short", "gobot check " + path, "Backup and restore"} {
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
	// Not checked, with a status of its own: a monitor that reads 1 as
	// damage must not fire while gobot runs.
	code, _, stderr := runGobotArgs("check", path)
	if code != 3 || !strings.Contains(stderr, "in use by another gobot") || !strings.Contains(stderr, "gobot backup -o copy.db") {
		t.Fatalf("exit %d, want 3: %s", code, stderr)
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
	for _, want := range []string{"gobot: " + path + ": database file is damaged: ", "cut short", "What to do", "gobot check " + path} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stdout, "Challenge") {
		t.Errorf("a command ran on the damaged file:\n%s", stdout)
	}
}

// TestDamagedHelpNamesOnlyRealCommands: every gobot command the advice
// for a damaged file names runs as written. Before, it promised
// "gobot repair FILE moves the damaged file aside and saves what can
// still be read", a form gobot repair refuses with a usage error.
func TestDamagedHelpNamesOnlyRealCommands(t *testing.T) {
	path := newDatabase(t)
	healthy := newDatabase(t)
	truncateToHalf(t, path)
	_, err := storage.Verify(path)
	help := damagedHelp(err)
	if help == "" {
		t.Fatalf("no advice for %v", err)
	}
	backup := filepath.Join(t.TempDir(), "FILE")
	named := []struct {
		text string   // as the advice writes it
		args []string // run as this (FILE: a real file)
		code int
	}{
		{"gobot backup -o FILE", []string{"backup", "-o", backup, "-db", healthy}, 0},
		{"gobot check " + path, []string{"check", path}, 1}, // it is damaged
	}
	rest := help
	for _, c := range named {
		if !strings.Contains(help, c.text) {
			t.Errorf("the advice no longer names %q:\n%s", c.text, help)
		}
		rest = strings.ReplaceAll(rest, c.text, "")
		if code, _, stderr := runGobotArgs(c.args...); code != c.code {
			t.Errorf("%q (run as %q): exit %d, want %d: %s", c.text, c.args, code, c.code, stderr)
		}
	}
	// Any other "gobot WORD" must be prose ("gobot will not start"), not a command.
	for _, cmd := range []string{"repair", "run", "store", "sgf", "render", "ratings", "backup", "check"} {
		if strings.Contains(rest, "gobot "+cmd) {
			t.Errorf("the advice names gobot %s in a form this test does not run:\n%s", cmd, help)
		}
	}
}

// TestCheckOfAFileThatIsNotADatabase: gobot check and the terminal game
// on a text file, an SGF record or a PNG say plainly that it is not a
// gobot database, with no advice to restore or repair it; the file is
// left as it was.
func TestCheckOfAFileThatIsNotADatabase(t *testing.T) {
	dir := t.TempDir()
	sgf, err := os.ReadFile(filepath.Join("..", "..", "game", "testdata", "ff4_ex.sgf"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name    string
		content []byte
		looks   string
	}{
		{"game.sgf", sgf, "an SGF game record"},
		{"board.png", pngOf(t), "a PNG image"},
		{"notes.txt", []byte("hello\n"), "text"},
	} {
		path := filepath.Join(dir, f.name)
		if err := os.WriteFile(path, f.content, 0o600); err != nil {
			t.Fatal(err)
		}
		want := "gobot: " + path + " is not a gobot database (it looks like " + f.looks + ", not a bbolt database file)\n"
		for _, args := range [][]string{{"check", path}, {"-db", path}} {
			code, stdout, stderr := runGobotIn(strings.NewReader("challenge @bob 9\n"), args...)
			if code != 1 || stderr != want || stdout != "" {
				t.Errorf("gobot %q: exit %d\nstdout: %s\nstderr: %s\nwant exit 1 and only %q", args, code, stdout, stderr, want)
			}
		}
		if after, err := os.ReadFile(path); err != nil || !bytes.Equal(after, f.content) {
			t.Errorf("%s changed (%v)", f.name, err)
		}
	}
}

// pngOf returns a small real PNG.
func pngOf(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func runGobotIn(stdin io.Reader, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, stdin, &out, &errb)
	return code, out.String(), errb.String()
}
