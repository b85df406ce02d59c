package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The README's first command: gobot with no arguments plays in the
// terminal on a local database.
func TestConsoleStartsWithoutConfig(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "gobot.db")
	in := strings.NewReader("challenge @bob 9 black\n/as bob\naccept\n/as alice\nplay E5\nplay Z9\n")
	var out, errb bytes.Buffer
	if code := run([]string{"-db", db}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"Game #1 begins", "@alice played E5", "Z9 is off the board", "[board image: "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
	if !strings.Contains(errb.String(), db) {
		t.Errorf("the database path is not named: %q", errb.String())
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "boards", "*.png"))
	if len(pngs) == 0 {
		t.Fatal("no board image written")
	}
	// The game is in the database for the next start.
	in = strings.NewReader("games\n")
	out.Reset()
	if code := run([]string{"-db", db, "-user", "bob"}, in, &out, &errb); code != 0 {
		t.Fatal(errb.String())
	}
	if !strings.Contains(out.String(), "#1 vs @alice") {
		t.Fatalf("after a restart: %s", out.String())
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatal(err)
	}
}

func TestRunNeedsAnAdapter(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(cfg, []byte("database: "+filepath.Join(t.TempDir(), "x.db")+"\n"), 0o600)
	code, _, stderr := runGobotArgs("run", "-config", cfg)
	if code != 1 || !strings.Contains(stderr, "enables no adapter") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if code, _, stderr := runGobotArgs("run"); code != 2 || !strings.Contains(stderr, "-config") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
