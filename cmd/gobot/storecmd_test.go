package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// A bbolt installation moves to PostgreSQL and back: the games, their
// numbers and the players' settings come along, play goes on, and a
// second copy into the same place is refused.
func TestStoreCopyBoltToPostgresAndBack(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "gobot.db")
	var out, errb bytes.Buffer
	in := strings.NewReader("challenge @bob 9 black\n/as bob\naccept\n/as alice\nplay E5\nsettings notify=dm\nchallenge @carol 13\n")
	if code := run([]string{"-db", db, "-images", dir}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	dsn := pgtest.Fresh(t)
	out.Reset()
	code := run([]string{"store", "copy", "--from", "bbolt:" + db, "--to", "postgres:" + dsn}, nil, &out, &errb)
	if code != 0 {
		t.Fatalf("copy to postgres: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "copied 1 games, 2 challenges") {
		t.Fatalf("copy output: %s", out.String())
	}
	// Again: refused, nothing merged.
	errb.Reset()
	if code := run([]string{"store", "copy", "--from", "bbolt:" + db, "--to", dsn}, nil, &out, &errb); code != 1 || !strings.Contains(errb.String(), "not empty") {
		t.Fatalf("second copy: exit %d: %s", code, errb.String())
	}
	// Play on in PostgreSQL: game #1 continues, the next game is #2... the
	// next challenge is numbered after the copied ones.
	cfg := writeConfig(t, "storage:\n  driver: postgres\n  dsn: "+dsn+"\nconsole:\n  enabled: true\n  user: bob\n  images_dir: "+dir+"\n")
	out.Reset()
	in = strings.NewReader("play D4\nchallenge @dave 9\n")
	if code := run([]string{"run", "-config", cfg}, in, &out, &errb); code != 0 {
		t.Fatalf("run on postgres: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "@bob played D4") || !strings.Contains(out.String(), "#3") {
		t.Fatalf("playing on after the copy:\n%s", out.String())
	}
	// And back into a new bbolt file.
	back := filepath.Join(dir, "back.db")
	out.Reset()
	if code := run([]string{"store", "copy", "--from", "postgres:" + dsn, "--to", "bbolt:" + back}, nil, &out, &errb); code != 0 {
		t.Fatalf("copy back: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "copied 1 games, 3 challenges") {
		t.Fatalf("copy back output: %s", out.String())
	}
	out.Reset()
	in = strings.NewReader("board\nsettings\n")
	if code := run([]string{"-db", back, "-user", "alice", "-images", dir}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "Game #1") || !strings.Contains(out.String(), "dm") {
		t.Fatalf("the copied-back game or settings are missing:\n%s", out.String())
	}
}

func TestStoreCopyUsage(t *testing.T) {
	for _, args := range [][]string{
		{"store"},
		{"store", "copy"},
		{"store", "copy", "--from", "bbolt:x.db"},
		{"store", "copy", "--from", "mysql:x", "--to", "bbolt:y.db"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, nil, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2 (usage): %s", args, code, errb.String())
		}
	}
	var out, errb bytes.Buffer
	code := run([]string{"store", "copy", "--from", "bbolt:" + filepath.Join(t.TempDir(), "none.db"), "--to", "bbolt:" + filepath.Join(t.TempDir(), "y.db")}, nil, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "no database at") {
		t.Errorf("missing source: exit %d: %s", code, errb.String())
	}
}
