package main

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/engine"
	"github.com/gobotgo/gobot/storage"
)

func TestEngineConfig(t *testing.T) {
	env := func(string) string { return "" }
	cfg, err := parseConfig([]byte("engines:\n  - name: gnugo\n    command: /usr/games/gnugo\n    args: [--mode, gtp]\n    levels: {1: {gtp: [level 1]}, 4: {args: [--level, \"4\"]}}\n    max_processes: 3\n    move_timeout: 20s\n    sizes: [9]\nscoring:\n  engine: gnugo\n"), "t.yaml", env)
	if err != nil {
		t.Fatal(err)
	}
	e := cfg.Engines[0]
	if e.Name != "gnugo" || e.MaxProcesses != 3 || e.MoveTimeout != 20*time.Second || len(e.Levels) != 2 || e.Levels[4].Args[1] != "4" || cfg.Scoring.Engine != "gnugo" {
		t.Fatalf("parsed %+v, scoring %+v", e, cfg.Scoring)
	}
	for _, tc := range []struct{ yaml, want string }{
		{"engines:\n  - name: gnugo\n", "engines[0]"},
		{"engines:\n  - name: a\n    command: /bin/true\n  - name: A\n    command: /bin/true\n", "used twice"},
		{"engines:\n  - name: a\n    command: /bin/true\nscoring:\n  engine: b\n", "scoring.engine"},
		{"engines:\n  - name: a\n    command: /bin/true\n    colour: x\n", "colour"},
	} {
		if _, err := parseConfig([]byte(tc.yaml), "t.yaml", env); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want it to name %q", tc.yaml, err, tc.want)
		}
	}
}

// With no engines configured, GNU Go is offered when it is installed.
func TestEnginesDiscovered(t *testing.T) {
	if _, err := os.Stat("/usr/games/gnugo"); err != nil {
		t.Skip("GNU Go is not installed: apt-get install gnugo")
	}
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bot := chat.New(chat.Config{}, db, nil, nil, nil)
	stop := setupEngines(&Config{}, bot, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	rep := bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "console:alice"}, Room: "console:main", Command: "engines"})
	if rep.Error || !strings.Contains(rep.Text, "gnugo") || !strings.Contains(rep.Text, "levels 1 to 10") {
		t.Fatalf("engines: %+v", rep)
	}
}

// An engine whose program is missing is not offered: players are told
// plainly, and the engines command names what is missing, instead of a
// challenge failing with the fork/exec error.
func TestMissingEngineNotOffered(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	bot := chat.New(chat.Config{}, db, nil, nil, nil)
	cfg := &Config{Engines: []engine.Config{{Name: "gnugo", Command: "/nonexistent/gnugo", Args: []string{"--mode", "gtp"}}}}
	stop := setupEngines(cfg, bot, slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer stop()
	ask := func(cmd string, args ...string) protocol.Reply {
		return bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "console:alice"}, Room: "console:main", Command: cmd, Args: args})
	}
	if rep := ask("engines"); !strings.Contains(rep.Text, "/nonexistent/gnugo not found") {
		t.Fatalf("engines: %q", rep.Text)
	}
	rep := ask("challenge", "engine=gnugo", "9")
	if !rep.Error || strings.Contains(rep.Text, "fork/exec") || !strings.Contains(rep.Text, "no computer opponent") {
		t.Fatalf("a challenge to the missing engine: %q", rep.Text)
	}
}
