package console

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/web"
	"github.com/gobotgo/gobot/storage"
)

// runWithBoard plays a script through a console whose bot has the web
// board's links (reviews happen there; the board is not served), and
// returns the transcript with the working directory written $CWD.
func runWithBoard(t *testing.T, script []byte) string {
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
	hub := web.NewHub()
	store := web.Publishing(db, hub)
	bot := chat.New(chat.Config{Platforms: []*protocol.Platform{Descriptor}, Rules: "japanese", Width: 19, Height: 19}, store, testRenderer(), clock, nil)
	srv, err := web.New(web.Config{Bot: bot, Hub: hub, Secret: []byte("0123456789abcdef0123456789abcdef-console"),
		PublicURL: "https://go.example.org", Now: clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	bot.SetLinker(srv.Linker())
	var out bytes.Buffer
	dir := t.TempDir()
	c := &Console{Bot: bot, In: bytes.NewReader(script), Out: &out, Echo: true, Clock: clock, Dir: dir}
	bot.SetNotifier(Platform, c)
	if err := c.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return strings.ReplaceAll(strings.ReplaceAll(out.String(), dir, "$BOARDS"), wd, "$CWD")
}

// The review transcripts (../testdata/review/*.script), with the web
// board's links, compared with their goldens (-update rewrites them).
func TestReviewTranscripts(t *testing.T) {
	scripts, _ := filepath.Glob("../testdata/review/*.script")
	if len(scripts) == 0 {
		t.Fatal("no scripts in ../testdata/review")
	}
	for _, s := range scripts {
		name := strings.TrimSuffix(filepath.Base(s), ".script")
		t.Run(name, func(t *testing.T) {
			script, err := os.ReadFile(s)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, strings.TrimSuffix(s, ".script")+".txt", runWithBoard(t, script))
		})
	}
}

// compareGolden compares a transcript with its golden file (-update
// writes it instead), naming the first line that differs.
func compareGolden(t *testing.T, golden, got string) {
	t.Helper()
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
	if got == string(want) {
		return
	}
	gotLines, wantLines := strings.Split(got, "\n"), strings.Split(string(want), "\n")
	for i := range min(len(gotLines), len(wantLines)) {
		if gotLines[i] != wantLines[i] {
			t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(rerun with -update if the change is intended)", golden, i+1, gotLines[i], wantLines[i])
		}
	}
	t.Fatalf("%s differs in length: got %d lines, want %d", golden, len(gotLines), len(wantLines))
}

// A file attached in the terminal reaches the bot whole, and each file
// that cannot be attached is refused in a short, specific line that
// sends nothing: too big (the platforms' limit), unreadable, not a
// regular file, missing.
func TestAttachRefusals(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	big := write("big.sgf", bytes.Repeat([]byte("x"), protocol.MaxRequestFile+1), 0o644)
	limit := write("limit.sgf", append([]byte("(;SZ[9]C["), append(bytes.Repeat([]byte("x"), protocol.MaxRequestFile-11), "])"...)...), 0o644)
	if err := os.Symlink(big, filepath.Join(dir, "link.sgf")); err != nil {
		t.Fatal(err)
	}
	long := filepath.Join(dir, strings.Repeat("ü", 200)+".sgf")
	cases := []struct{ path, want string }{
		{big, "big.sgf is 257 KB; a file attached to a command is at most 256 KB."},
		{filepath.Join(dir, "link.sgf"), "link.sgf is 257 KB"},
		{dir, "is a folder; attach a file in it"},
		{"/dev/null", "/dev/null is not a regular file"},
		{filepath.Join(dir, "missing.sgf"), "There is no file " + filepath.Join(dir, "missing.sgf") + "; check"},
		{long, "üü.sgf cannot be read: file name too long."},
	}
	if os.Geteuid() != 0 { // root reads any file
		cases = append(cases, struct{ path, want string }{write("secret.sgf", []byte("(;)"), 0o200), "secret.sgf cannot be read: you lack permission to it."})
	}
	for _, c := range cases {
		f, refused := readAttachment(c.path)
		if f != nil || !strings.Contains(refused, c.want) || len(refused) > protocol.MaxRefusal {
			t.Errorf("%.60s: file %v, refused %q; want %q", c.path, f != nil, refused, c.want)
		}
	}
	// The largest file the platforms take is attached whole.
	f, refused := readAttachment(limit)
	if refused != "" || f == nil || len(f.Data) != protocol.MaxRequestFile || f.Name != "limit.sgf" {
		t.Fatalf("a file of the limit: refused %q, %d bytes", refused, len(f.Data))
	}
	// Refused in the terminal: nothing reaches the bot, the next line runs.
	out := run(t, []byte("review < "+big+"\nreview < '"+filepath.Join(dir, "missing.sgf")+"'\ngames\n"))
	if strings.Count(out, "Nothing changed.") != 2 || !strings.Contains(out, "You have no active games") {
		t.Fatalf("transcript:\n%s", ClipForTest(out))
	}
}

// splitAttachment takes the last " <" of a line, and only one that
// starts a word.
func TestSplitAttachment(t *testing.T) {
	for _, c := range []struct {
		line, command, path string
		ok                  bool
	}{
		{"review < game.sgf", "review", "game.sgf", true},
		{"review <game.sgf", "review", "game.sgf", true},
		{`review < "my game.sgf"`, "review", "my game.sgf", true},
		{"review <", "review", "", true},
		{"< game.sgf", "", "game.sgf", true},
		{"review<game.sgf", "review<game.sgf", "", false},
		{"play D4", "play D4", "", false},
		{"review < a<b.sgf", "review", "a<b.sgf", true},
	} {
		command, path, ok := splitAttachment(c.line)
		if command != c.command || path != c.path || ok != c.ok {
			t.Errorf("%q: %q %q %v, want %q %q %v", c.line, command, path, ok, c.command, c.path, c.ok)
		}
	}
}
