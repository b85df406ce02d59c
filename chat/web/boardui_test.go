package web

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestBoardScriptShared: the web board's page and the widget page draw
// and play the board with one script, static/boardui.js, loaded before
// their own (board.js: the cookie and the event stream; widget.js: the
// sign-in and the bearer token), which do not carry a copy of it.
func TestBoardScriptShared(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	b := h.browser()
	page := b.open(h.link(id, "alice", false), id)
	_, widget := b.get(h.ts.URL + "/widget/" + itoa(uint64(id)))
	scripts := regexp.MustCompile(`<script src="/static/([a-z/.-]+)"`)
	for _, c := range []struct{ name, html, own string }{{"page", page, "board.js"}, {"widget", widget, "widget.js"}} {
		var got []string
		for _, m := range scripts.FindAllStringSubmatch(c.html, -1) {
			got = append(got, m[1])
		}
		i := strings.Index(strings.Join(got, " "), "boardui.js "+c.own)
		if i < 0 {
			t.Errorf("the %s loads %q, want boardui.js just before %s", c.name, got, c.own)
		}
	}
	shared := map[string]*regexp.Regexp{
		"apply":    regexp.MustCompile(`function apply\(`),
		"act":      regexp.MustCompile(`function act\(`),
		"keys":     regexp.MustCompile(`addEventListener\("keydown"`),
		"buttons":  regexp.MustCompile(`function buttons\(`),
		"clientID": regexp.MustCompile(`function clientID\(`),
	}
	for _, f := range []string{"boardui.js", "board.js", "widget.js"} {
		res, err := http.Get(h.ts.URL + "/static/" + f)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("/static/%s: %d", f, res.StatusCode)
		}
		for name, re := range shared {
			if has := re.Match(src); has != (f == "boardui.js") {
				t.Errorf("%s: has its own %s: %v (only boardui.js should)", f, name, has)
			}
		}
	}
	// A bearer session's event stream (the Activity, the widgets) is read
	// by one script, static/stream.js, for the game's board and the
	// review's alike.
	reader := regexp.MustCompile(`getReader\(`)
	for _, f := range []string{"stream.js", "boardui.js", "review.js", "board.js", "widget.js", "activity.js"} {
		res, err := http.Get(h.ts.URL + "/static/" + f)
		if err != nil {
			t.Fatal(err)
		}
		src, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if has := reader.Match(src); has != (f == "stream.js") {
			t.Errorf("%s reads an event stream itself: %v (only stream.js should)", f, has)
		}
	}
}
