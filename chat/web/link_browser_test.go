package web

import (
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserSignOutAndSwitch (chromium): the board's Sign out clears its
// session (the board then needs the link again, which opens it at once);
// bob's link opened in alice's browser asks first, with one button, and
// the board is bob's only once it is pressed. Both pages fit a desktop
// window and a 360-px phone without scrolling sideways (screenshots in
// docs/web-signout*.png, docs/web-switch*.png with -update).
func TestBrowserSignOutAndSwitch(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice := newTab(t, h, browser, "alice")
	alice.open(h.link(id, "alice", false))
	board := h.ts.URL + gamePath(id)

	fits := func(what string) {
		t.Helper()
		for _, vp := range []struct {
			w, h   int64
			mobile bool
			suffix string
		}{{1000, 800, false, ""}, {360, 740, true, "-phone"}} {
			opts := []chromedp.EmulateViewportOption{}
			if vp.mobile {
				opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
			}
			alice.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
			if wide := eval[bool](alice, `document.documentElement.scrollWidth > innerWidth + 0.5`); wide {
				t.Errorf("%s at %d px scrolls sideways", what, vp.w)
			}
			alice.screenshot(filepath.Join("..", "..", "docs", "web-"+what+vp.suffix+".png")) // with -update only
		}
		alice.do("viewport", chromedp.EmulateViewport(1000, 1000))
	}

	// Sign out.
	alice.do("the Sign out button", chromedp.WaitVisible(chromedp.CSS("[data-signout]")))
	fits("signout")
	alice.do("sign out", chromedp.Click(chromedp.CSS("[data-signout]")), chromedp.WaitVisible(chromedp.CSS("[data-signed-out]")))
	alice.do("the board again", chromedp.Navigate(board), chromedp.WaitVisible(chromedp.CSS("body.error")))
	if n := eval[int](alice, `document.querySelectorAll('[data-point]').length`); n != 0 {
		t.Fatalf("after signing out the board still shows %d points", n)
	}
	alice.open(h.link(id, "alice", false)) // one step: no session held

	// bob's link in alice's browser: asked first.
	alice.do("bob's link", chromedp.Navigate(h.link(id, "bob", false)), chromedp.WaitVisible(chromedp.CSS("[data-confirm]")))
	if n := eval[int](alice, `document.querySelectorAll('button').length`); n != 1 {
		t.Errorf("the question has %d buttons, want 1", n)
	}
	fits("switch")
	// Declining is going back to the board: still alice's.
	alice.do("keep alice", chromedp.Click(chromedp.CSS(`a[href="`+gamePath(id)+`"]`)), chromedp.WaitVisible(chromedp.CSS("[data-status]")))
	if c := eval[string](alice, `document.body.dataset.color`); c != "black" {
		t.Fatalf("after keeping the board: colour %q, want alice's black", c)
	}
	alice.do("bob's link again", chromedp.Navigate(h.link(id, "bob", false)), chromedp.WaitVisible(chromedp.CSS("[data-confirm]")))
	alice.do("switch", chromedp.Click(chromedp.CSS("[data-switch]")), chromedp.WaitVisible(chromedp.CSS("[data-status]")))
	if c := eval[string](alice, `document.body.dataset.color`); c != "white" {
		t.Errorf("after switching: colour %q, want bob's white", c)
	}
	alice.waitFor("the live stream", "document.body.dataset.live === 'on'")
}
