package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func writeConfig(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "gobot.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// An unreachable PostgreSQL stops gobot at start with the host and the
// cause, not a bot that fails every command.
func TestRunRefusesAnUnreachablePostgres(t *testing.T) {
	cfg := writeConfig(t, "storage:\n  driver: postgres\n  dsn: postgres://gobot:hunter2@127.0.0.1:1/gobot?connect_timeout=2\nconsole:\n  enabled: true\n")
	var out, errb bytes.Buffer
	code := run([]string{"run", "-config", cfg}, strings.NewReader(""), &out, &errb)
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, errb.String())
	}
	msg := errb.String()
	if !strings.Contains(msg, "127.0.0.1:1") || !strings.Contains(msg, "refused") || strings.Contains(msg, "hunter2") {
		t.Fatalf("stderr %q: want the host and the cause, and no password", msg)
	}
}

// `gobot run` on PostgreSQL: a game played in one process is there for the
// next one.
func TestRunOnPostgres(t *testing.T) {
	dsn := pgtest.Fresh(t)
	cfg := writeConfig(t, "storage:\n  driver: postgres\nconsole:\n  enabled: true\n  user: alice\n  images_dir: "+t.TempDir()+"\n")
	t.Setenv("GOBOT_STORAGE_DSN", dsn)
	var out, errb bytes.Buffer
	in := strings.NewReader("challenge @bob 9 black\n/as bob\naccept\n/as alice\nplay E5\n")
	if code := run([]string{"run", "-config", cfg}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "@alice played E5") {
		t.Fatalf("first process:\n%s", out.String())
	}
	out.Reset()
	in = strings.NewReader("/as bob\ngames\n")
	if code := run([]string{"run", "-config", cfg}, in, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "#1 vs @alice") {
		t.Fatalf("second process does not see the game:\n%s", out.String())
	}
}

func TestMain(m *testing.M) { pgtest.Main(m) }

// The maintenance commands find the bbolt file a config names with
// storage.path (not only the older database: key), and say plainly that
// they do not work on a PostgreSQL config.
func TestMaintenanceCommandsFindTheConfiguredFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "named.db")
	var out, errb bytes.Buffer
	if code := run([]string{"-db", db, "-images", dir}, strings.NewReader("challenge @bob 9\n"), &out, &errb); code != 0 {
		t.Fatalf("making the database: exit %d: %s", code, errb.String())
	}
	cfg := writeConfig(t, "storage:\n  path: "+db+"\n")
	for _, args := range [][]string{
		{"ratings", "-config", cfg, "--json"},
		{"repair", "--list", "-config", cfg},
		{"backup", "-o", filepath.Join(dir, "copy.db"), "-config", cfg},
	} {
		out.Reset()
		errb.Reset()
		if code := run(args, nil, &out, &errb); code != 0 {
			t.Errorf("%v: exit %d: %s", args, code, errb.String())
		}
	}
	pg := writeConfig(t, "storage:\n  driver: postgres\n  dsn: postgres://gobot@127.0.0.1:1/gobot\n")
	for _, args := range [][]string{{"ratings", "-config", pg}, {"repair", "--list", "-config", pg}, {"backup", "-o", filepath.Join(dir, "x.db"), "-config", pg}} {
		errb.Reset()
		if code := run(args, nil, &out, &errb); code != 2 || !strings.Contains(errb.String(), "PostgreSQL") {
			t.Errorf("%v on a PostgreSQL config: exit %d: %s", args, code, errb.String())
		}
	}
}
