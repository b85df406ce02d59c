package web

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// openBoards is how many of colour c's own boards of game id are open
// on the harness's process.
func (h *harness) openBoards(id gobot.GameID, c game.Color) int {
	h.hub.mu.Lock()
	defer h.hub.mu.Unlock()
	if p := h.hub.presence[id]; p != nil {
		return p.by[c].open
	}
	return 0
}

// waitBoards waits until the process counts n boards of c open.
func (h *harness) waitBoards(id gobot.GameID, c game.Color, n int) {
	h.t.Helper()
	for end := time.Now().Add(browserStep); h.openBoards(id, c) != n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			h.t.Fatalf("%d boards of %s open, want %d", h.openBoards(id, c), c.Name(), n)
		}
	}
}

// TestBrowserAway: in a live game, when bob's board has been closed for
// 30 s of the server's time, alice's board shows him as away next to his
// name; when he opens it again the mark goes. A watcher's page does not
// count as his board.
func TestBrowserAway(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:10m+5x30s")
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	h.waitBoards(id, game.White, 1)
	away := `document.querySelector('#side li.white [data-away]') !== null`

	bob.do("close the board", chromedp.Navigate("about:blank"))
	h.waitBoards(id, game.White, 0)
	h.now.Advance(29 * time.Second)
	alice.play("E5") // a second for the click: 30 s in all
	alice.waitStone("E5", "black")
	alice.waitFor("bob away after 30 s", away)
	if got := eval[string](alice, `document.querySelector('#side li.white').textContent`); !regexpMatch(`bob away`, got) {
		t.Errorf("bob's line: %q", got)
	}
	if eval[bool](alice, `document.querySelector('#side li.black [data-away]') !== null`) {
		t.Error("alice, whose board is open, is shown away")
	}

	// A fresh page hears who is away at once.
	watcher := newTab(t, h, browser, "carol")
	watcher.open(h.link(id, "carol", true))
	watcher.waitFor("bob away on a watcher's page", away)

	bob.open(h.link(id, "bob", false))
	alice.waitFor("bob back", `document.querySelector('#side li.white [data-away]') === null`)
	watcher.waitFor("bob back on the watcher's page", `document.querySelector('#side li.white [data-away]') === null`)
}

// TestBrowserNotAwayBefore30s: a board closed for 29 s is not away.
func TestBrowserNotAwayBefore30s(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:10m+5x30s")
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	h.waitBoards(id, game.White, 1)
	bob.do("close the board", chromedp.Navigate("about:blank"))
	h.waitBoards(id, game.White, 0)
	h.now.Advance(28 * time.Second)
	alice.play("E5") // 29 s
	alice.waitStone("E5", "black")
	// The sweeper looks each second: give it two looks.
	eval[bool](alice, `(window.t0 = performance.now(), true)`)
	alice.waitFor("two of the sweeper's looks", `performance.now() > window.t0 + 2100`)
	if eval[bool](alice, `document.querySelector('#side li.white [data-away]') !== null`) {
		t.Error("bob is away after 29 s")
	}
}
