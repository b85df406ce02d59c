package web

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// pending says what a tap left on the page: the ghost stones (colour
// and point) and the "Play" button's point and text, or "none".
func (b *tab) pending() string {
	b.t.Helper()
	return eval[string](b, `(() => {
		const g = Array.from(document.querySelectorAll('.ghost.pending'), (u) => u.getAttribute('href') + ' ' + u.dataset.ghost).join(',');
		const s = document.querySelector('[data-action="submit"]');
		return (g || 'no ghost') + ' / ' + (s && !s.hidden ? s.dataset.pending + ' ' + JSON.stringify(s.textContent) : 'no button');
	})()`)
}

// tap taps point p with a finger.
func (b *tab) tap(p string) {
	b.t.Helper()
	b.h.now.Advance(1e9)
	b.do("tap "+p, chromedp.Tap(chromedp.CSS(fmt.Sprintf(`[data-point=%q]`, p))))
}

// TestBrowserConfirmTap: on a touch screen (mobile emulation) a tap
// puts a ghost stone and a "Play E5" button, another tap moves them,
// and only the button plays; at desktop width a click plays at once and
// hovering shows the ghost; a window under 600 px confirms too; the
// player's setting confirm=always|never|touch overrides it.
func TestBrowserConfirmTap(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.do("touch screen", chromedp.EmulateViewport(800, 1000, chromedp.EmulateTouch, chromedp.EmulateMobile))
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))

	v := h.version(id)
	alice.tap("E5")
	if got, want := alice.pending(), `#b E5 / E5 "Play E5"`; got != want {
		t.Errorf("after a tap on E5: %s, want %s", got, want)
	}
	alice.tap("D4")
	if got, want := alice.pending(), `#b D4 / D4 "Play D4"`; got != want {
		t.Errorf("after a second tap, on D4: %s, want %s", got, want)
	}
	if h.version(id) != v || alice.stone("E5") != "" || alice.stone("D4") != "" {
		t.Fatal("a tap played without the button")
	}
	alice.h.now.Advance(1e9)
	alice.do("Play D4", chromedp.Tap(chromedp.CSS(`[data-action="submit"]`)))
	alice.waitStone("D4", "black")
	bob.waitStone("D4", "black")
	if got := alice.pending(); got != "no ghost / no button" {
		t.Errorf("after playing: %s", got)
	}

	// At desktop width a click plays, and the mouse over a point shows
	// the ghost stone of the player's colour.
	x := eval[float64](bob, `(() => { const r = document.querySelector('[data-point="F6"]').getBoundingClientRect(); return r.x + r.width / 2; })()`)
	y := eval[float64](bob, `(() => { const r = document.querySelector('[data-point="F6"]').getBoundingClientRect(); return r.y + r.height / 2; })()`)
	bob.do("hover F6", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
	bob.waitFor("the hover ghost", `(() => { const g = document.querySelector('.ghost.hover'); return !!g && g.dataset.ghost === 'F6' && g.getAttribute('href') === '#w'; })()`)
	bob.play("F6")
	bob.waitStone("F6", "white")
	if got := bob.pending(); got != "no ghost / no button" {
		t.Errorf("a desktop click left %s", got)
	}

	// confirm=never: the tap plays at once, even on a touch screen.
	if r := h.cmd("alice", "settings", "confirm=never"); r.Error {
		t.Fatal(r.Text)
	}
	alice.open(h.link(id, "alice", false))
	alice.tap("C3")
	alice.waitStone("C3", "black")

	// confirm=always: the desktop asks too.
	if r := h.cmd("bob", "settings", "confirm=always"); r.Error {
		t.Fatal(r.Text)
	}
	bob.open(h.link(id, "bob", false))
	bob.play("G7")
	if got, want := bob.pending(), `#w G7 / G7 "Play G7"`; got != want {
		t.Errorf("confirm=always, a click: %s, want %s", got, want)
	}
	bob.click(`[data-action="submit"]`)
	bob.waitStone("G7", "white")

	// confirm=touch (the default) in a window 360 px wide, no touch.
	if r := h.cmd("alice", "settings", "confirm=touch"); r.Error {
		t.Fatal(r.Text)
	}
	alice.do("narrow window", chromedp.EmulateViewport(360, 740))
	alice.open(h.link(id, "alice", false))
	alice.play("B2")
	if got, want := alice.pending(), `#b B2 / B2 "Play B2"`; got != want {
		t.Errorf("360 px wide, a click: %s, want %s", got, want)
	}
	alice.click(`[data-action="submit"]`)
	alice.waitStone("B2", "black")
}

// square is point p's square as drawn: its fill and stroke.
func (b *tab) square(p string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(() => { const s = getComputedStyle(document.querySelector('[data-point=%q]')); return s.fill + " " + s.stroke + " " + s.webkitTapHighlightColor; })()`, p))
}

// TestBrowserGhostUnderFocus: on a phone the tapped point's square,
// which has the focus, draws neither its blue focus fill nor its hover
// tint (nor the browser its tap highlight) over the ghost stone, which reads as a translucent stone of the
// player's colour; the square shows its focus again once the ghost has
// gone. The tick's box keeps the focus while a move redraws the side
// panel.
func TestBrowserGhostUnderFocus(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:10m+5x30s")
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))

	alice.tap("D3")
	if got := alice.pending(); got != `#b D3 / D3 "Play D3"` {
		t.Fatalf("a tap on the phone: %s", got)
	}
	alice.do("focus D3 as the keyboard would", chromedp.Focus(chromedp.CSS(`[data-point="D3"]`)))
	if !eval[bool](alice, `document.activeElement.dataset.point === 'D3'`) {
		t.Fatal("D3 does not have the focus")
	}
	if got := alice.square("D3"); got != "rgba(0, 0, 0, 0) none rgba(0, 0, 0, 0)" {
		t.Errorf("the square over the ghost is drawn: %s", got)
	}
	if got := eval[string](alice, `getComputedStyle(document.querySelector('.ghost.pending')).opacity`); got != "0.55" {
		t.Errorf("the ghost's opacity: %s", got)
	}
	alice.tap("E4") // the ghost moves: D3's square is its own again
	if eval[bool](alice, `document.querySelector('[data-point="D3"]').hasAttribute('data-ghosted') || document.querySelector('[data-point="E4"]').dataset.ghosted !== 'pending'`) {
		t.Error("the ghost moved to E4 but the squares were not marked so")
	}

	// The tick's box keeps its focus through bob's move's redraw.
	bob.do("focus the tick", chromedp.Focus(chromedp.CSS(`[data-tick-sound]`)))
	h.now.Advance(1e9)
	alice.do("Play E4", chromedp.Tap(chromedp.CSS(`[data-action="submit"]`)))
	bob.waitStone("E4", "black")
	if !eval[bool](bob, `document.activeElement && document.activeElement.matches('[data-tick-sound]') && !document.querySelector('[data-tick-sound]').closest('label').hidden`) {
		t.Error("the tick's box lost the focus when the side panel was redrawn")
	}
}

// TestBrowserPlaySlot: on a phone (360 px wide) the tap's "Play" button
// has a place of its own, kept free while the board may ask for it:
// Pass, Undo and Resign do not move when it appears, nor when it goes.
func TestBrowserPlaySlot(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice := newTab(t, h, browser, "alice")
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.open(h.link(id, "alice", false))
	boxes := func() string {
		return eval[string](alice, `["pass", "undo", "resign"].map((a) => { const r = document.querySelector('[data-action="' + a + '"]').getBoundingClientRect();
			return a + " " + [r.x, r.y, r.width, r.height].map(Math.round).join(","); }).join("; ")`)
	}
	before := boxes()
	alice.tap("E5")
	if got := alice.pending(); got != `#b E5 / E5 "Play E5"` {
		t.Fatalf("a tap on E5: %s", got)
	}
	if got := boxes(); got != before {
		t.Errorf("the Play button moved the buttons:\nbefore %s\n after %s", before, got)
	}
	// The Play button is shown, on a row of its own, under the board.
	if got := eval[string](alice, `(() => { const p = document.querySelector('[data-action="submit"]').getBoundingClientRect(), q = document.querySelector('[data-action="pass"]').getBoundingClientRect(), b = document.querySelector('svg.goban').getBoundingClientRect();
		return p.width > 0 && p.top >= b.bottom && p.bottom <= q.top ? "ok" : JSON.stringify([p.top, p.bottom, p.width, q.top, b.bottom]); })()`); got != "ok" {
		t.Errorf("the Play button's place: %s", got)
	}
	alice.screenshot("../../docs/web-board-phone-play.png")
	alice.h.now.Advance(1e9)
	alice.do("Play E5", chromedp.Tap(chromedp.CSS(`[data-action="submit"]`)))
	alice.waitStone("E5", "black")
	if got := boxes(); got != before {
		t.Errorf("playing moved the buttons:\nbefore %s\n after %s", before, got)
	}
}
