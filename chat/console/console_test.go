package console

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/storage"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in ../testdata")

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// run plays a script through the console and returns the transcript.
func run(t *testing.T, script []byte) string {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	}()
	clock := &testClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	bot := chat.New(chat.Config{Rules: "japanese", Width: 19, Height: 19}, db, testRenderer(), clock, nil)
	var out bytes.Buffer
	dir := t.TempDir()
	c := &Console{Bot: bot, In: bytes.NewReader(script), Out: &out, Echo: true, Clock: clock, Dir: dir}
	bot.SetNotifier(Platform, c)
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(out.String(), dir, "$BOARDS")
}

func TestTranscripts(t *testing.T) {
	scripts, _ := filepath.Glob("../testdata/*.script")
	if len(scripts) == 0 {
		t.Fatal("no scripts in ../testdata")
	}
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".script")
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			got := run(t, script)
			golden := strings.TrimSuffix(s, ".script") + ".txt"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := range min(len(gotLines), len(wantLines)) {
					if gotLines[i] != wantLines[i] {
						t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is intended)", golden, i+1, gotLines[i], wantLines[i])
					}
				}
				t.Fatalf("%s differs in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
			}
		})
	}
}

func TestSwitchPlayerAndPrefixes(t *testing.T) {
	out := run(t, []byte("/as\n/go help play\n!go help pass\n/as @bob\n/wait x\n"))
	for _, want := range []string{"! Write /as and a name", "play <point> [#game]", "pass [#game]", "You are now bob.", "! Write /wait and a duration"} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%s", want, out)
		}
	}
}

// /as takes only names the bot can take commands from, and names are
// case-blind: /as Bob and @Bob are bob.
func TestAsChecksTheName(t *testing.T) {
	long := strings.Repeat("x", 5000)
	out := run(t, []byte("/as 🐐\n/as "+long+"\nchallenge @Bob 9 black\nchallenge @console:BOB 9\n/as Bob\naccept #1\ndecline #2\n"))
	if strings.Count(out, "is not a player name") != 2 || strings.Count(out, "You are now") != 1 {
		t.Fatalf("bad names taken:\n%s", ClipForTest(out))
	}
	if !strings.Contains(out, "You are now bob.") || !strings.Contains(out, "Game #1 begins") || !strings.Contains(out, "@bob declined challenge #2") {
		t.Fatalf("Bob is not bob:\n%s", ClipForTest(out))
	}
}

// ClipForTest keeps a failing transcript readable.
func ClipForTest(s string) string {
	if len(s) > 3000 {
		return s[:3000] + "…"
	}
	return s
}
