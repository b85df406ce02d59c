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
	if !strings.Contains(out.String(), "copied 1 game, 2 challenges") {
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
	if !strings.Contains(out.String(), "copied 1 game, 3 challenges") {
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

// A community's ladder survives a copy to PostgreSQL and back: gobot
// ratings on the copied file lists the same ratings as on the original
// (issue 24: the copy left out every rating).
func TestStoreCopyKeepsRatings(t *testing.T) {
	dir := t.TempDir()
	a := filepath.Join(dir, "a.db")
	var out, errb bytes.Buffer
	in := strings.NewReader("challenge @bob 9 black\n/as bob\naccept\n/as alice\nresign\n" +
		"challenge @carol 9 black\n/as carol\naccept\n/as alice\nplay E5\n/as carol\nresign\n")
	if code := run([]string{"-db", a, "-images", dir}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	ladder := func(db string) string {
		t.Helper()
		var out, errb bytes.Buffer
		if code := run([]string{"ratings", "-db", db}, nil, &out, &errb); code != 0 {
			t.Fatalf("gobot ratings -db %s: exit %d: %s", db, code, errb.String())
		}
		return out.String()
	}
	want := ladder(a)
	if strings.Count(want, "console:") != 3 {
		t.Fatalf("the rated games left no ladder of three:\n%s", want)
	}
	dsn := pgtest.Fresh(t)
	b := filepath.Join(dir, "b.db")
	for _, c := range [][2]string{{"bbolt:" + a, "postgres:" + dsn}, {"postgres:" + dsn, "bbolt:" + b}} {
		out.Reset()
		if code := run([]string{"store", "copy", "--from", c[0], "--to", c[1]}, nil, &out, &errb); code != 0 {
			t.Fatalf("copy %s to %s: exit %d: %s", c[0], c[1], code, errb.String())
		}
		if !strings.Contains(out.String(), "3 ratings") || !strings.Contains(out.String(), "checked") {
			t.Fatalf("copy %s to %s says:\n%s", c[0], c[1], out.String())
		}
	}
	if got := ladder(b); got != want {
		t.Fatalf("gobot ratings after the copy:\n%s\nbefore:\n%s", got, want)
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
