package web

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestActivityBundleCurrent: the Activity's bundle (activity/app.js and
// app.css, committed) is the build of the files it is made of as they
// are now. activity/build.sh records the sum of every file esbuild read
// and wrote in activity/inputs.sha256; a source changed since (the
// page's script, the board's, the vendored SDK, the build itself) or a
// bundle edited by hand fails here, saying to build again. CI needs no
// npm: the sums are checked, not the build rerun.
func TestActivityBundleCurrent(t *testing.T) {
	dir := "activity"
	f, err := os.Open(filepath.Join(dir, "inputs.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var listed, stale []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok {
			t.Fatalf("inputs.sha256: %q is not a line of sha256sum", sc.Text())
		}
		listed = append(listed, name)
		b, err := os.ReadFile(filepath.Join(dir, name))
		got := sha256.Sum256(b)
		if err != nil || hex.EncodeToString(got[:]) != sum {
			stale = append(stale, name)
		}
	}
	if len(stale) > 0 {
		t.Errorf("the Activity's bundle is not the build of its files as they are (changed or gone since: %s): run sh chat/web/activity/build.sh (node and npm) and commit its output", strings.Join(stale, ", "))
	}
	// The build read what the page runs: the SDK, the board's scripts and
	// style sheets, the page's own; and the record covers the build.
	for _, want := range []string{"build.sh", "build.mjs", "main.js", "main.css", "app.js", "app.css", "../discord-sdk/index.mjs", "../discord-sdk/Discord.mjs",
		"../static/activity.js", "../static/boardui.js", "../static/stream.js", "../static/tap.js", "../static/review.js",
		"../static/board.css", "../static/activity.css", "../static/review.css"} {
		if !slices.Contains(listed, want) {
			t.Errorf("inputs.sha256 lists no %s: the bundle was not built by build.sh from the page's files", want)
		}
	}
}

// TestActivityBundleTrimmed: the bundle leaves out what would cost a
// phone's opening and the page does not use (activity/build.mjs): the
// SDK's permission table and the big-integer library it needs (22 KB
// the phone fetched and parsed), and zod's binding of every schema's
// methods to it as it is made (some 33,000 functions made before the
// handshake).
func TestActivityBundleTrimmed(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("activity", "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	js := string(b)
	for _, c := range []struct{ what, text string }{
		{"big-integer", "Invalid integer: "},
		{"the permission table", "CREATE_INSTANT_INVITE"},
		{"zod's bound methods", "this.parse=this.parse.bind(this)"},
	} {
		if strings.Contains(js, c.text) {
			t.Errorf("the bundle holds %s (%q): build it with sh chat/web/activity/build.sh", c.what, c.text)
		}
	}
	// What the page does use of the SDK is there.
	for _, want := range []string{"HANDSHAKE", "AUTHORIZE", "AUTHENTICATE", "safeParse"} {
		if !strings.Contains(js, want) {
			t.Errorf("the bundle lacks %q", want)
		}
	}
}
