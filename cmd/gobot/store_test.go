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
