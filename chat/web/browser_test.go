package web

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Browser tests: real chromium (Debian's package) driven over the
// DevTools protocol. They skip only when chromium is missing and CI is
// unset; .ci/run installs it.

// chromiumPath finds the browser.
func chromiumPath() string {
	for _, name := range []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// startBrowser starts a headless chromium for the test; each tab made
// from it with newTab has its own cookies.
func startBrowser(t *testing.T, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed, and CI must run the browser tests (.ci/run installs it)")
		}
		t.Skip("chromium is not installed (apt-get install -y chromium); these browser tests run in CI")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1000, 1000))
	opts = append(opts, extra...)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return bctx
}

// tab is one browser context (its own cookies) with one page.
type tab struct {
	t    *testing.T
	name string
	ctx  context.Context
	h    *harness
}

func newTab(t *testing.T, h *harness, browser context.Context, name string) *tab {
	ctx, cancel := chromedp.NewContext(browser, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatal(err)
	}
	return &tab{t: t, name: name, ctx: ctx, h: h}
}

// browserStep bounds one browser step (a navigation, a click, a wait for
// the page to show something). It only turns a hung browser into a
// failure: generous, because a loaded machine (CI runs every package's
// tests at once) can take many seconds to load a page's modules.
const browserStep = time.Minute

// do runs actions with a time limit.
func (b *tab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, what, err)
	}
}

// eval returns a JavaScript expression's value.
func eval[T any](b *tab, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("%s: %s: %v", b.name, expr, err)
	}
	return v
}

// waitFor waits until a JavaScript predicate holds.
func (b *tab) waitFor(what, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	// Poll's own bound (30 s by default) is off: the step's bound holds.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInterval(10*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		b.t.Fatalf("%s: waiting for %s: %v (the page: %s)", b.name, what, err, b.describe())
	}
}

func (b *tab) open(link string) {
	b.t.Helper()
	b.do("open "+link, chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("[data-status]")))
	if loc := eval[string](b, "location.href"); strings.Contains(loc, "/l/") {
		b.t.Fatalf("%s: the token stays in the address bar: %s", b.name, loc)
	}
	b.waitFor("the live stream", "document.body.dataset.live === 'on'")
}

func (b *tab) click(sel string) {
	b.t.Helper()
	// The server's time is the harness's, which stands still: a second
	// passes per click, as for a person, so the rate limit lets them by.
	b.h.now.Advance(time.Second)
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// play clicks point p.
func (b *tab) play(p string) { b.t.Helper(); b.click(fmt.Sprintf(`[data-point=%q]`, p)) }

func (b *tab) stone(p string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`document.querySelector('[data-point=%q]').getAttribute('data-stone') || ''`, p))
}

// describe says what the page shows, for a failure's message: its
// address, status and message lines, in the top page or the first
// frame (an Activity's or a widget's), whichever has them.
func (b *tab) describe() string {
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const f = document.querySelector('iframe');
		let d = document;
		try { if (!d.querySelector('[data-status]') && f && f.contentDocument) d = f.contentDocument; } catch (e) {}
		const text = (sel) => { const e = d.querySelector(sel); return e ? JSON.stringify(e.textContent) : "none"; };
 		let inner = "";
		try { if (d === document && f) inner = " frame " + f.src + " → " + (f.contentDocument ? f.contentDocument.location.href + " " + JSON.stringify((f.contentDocument.body || {}).innerText || "").slice(0, 300) : "cross-origin"); } catch (e) { inner = " frame: " + e; }
		return d.location.href + inner + " status " + text('[data-status]') + " message " + text('[data-message]') + " state " + JSON.stringify(d.body ? d.body.dataset : {});
	})()`))
	if err != nil {
		return "unreadable: " + err.Error()
	}
	return v
}

func (b *tab) status() string {
	return eval[string](b, `document.querySelector('[data-status]').textContent`)
}
func (b *tab) message() string {
	return eval[string](b, `document.querySelector('[data-message]').textContent`)
}

// waitStone waits until p shows colour c ("" = empty).
func (b *tab) waitStone(p, c string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("%s to be %q", p, c), fmt.Sprintf(`(document.querySelector('[data-point=%q]').getAttribute('data-stone') || '') === %q`, p, c))
}

func (b *tab) waitMessage(re string) {
	b.t.Helper()
	b.waitFor("a message matching "+re, fmt.Sprintf(`new RegExp(%q).test(document.querySelector('[data-message]').textContent)`, re))
}

func (b *tab) waitStatus(re string) {
	b.t.Helper()
	b.waitFor("a status matching "+re, fmt.Sprintf(`new RegExp(%q).test(document.querySelector('[data-status]').textContent)`, re))
}

// update writes the docs' screenshots (docs/*.png) from the browser
// tests: go test ./chat/web -run Browser -update.
var update = flag.Bool("update", false, "write the screenshots in docs/")

// screenshot writes the page's screenshot to path, with -update only.
func (b *tab) screenshot(path string) {
	b.t.Helper()
	if !*update {
		return
	}
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)) // 100: a PNG
	if err != nil {
		b.t.Fatal(err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// TestBrowserGame: two players play a 9x9 game by clicking in two
// browser contexts while a third watches: moves, a refusal, a capture,
// undo, pass and pass, a dead stone marked, done.
func TestBrowserGame(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice, bob, carol := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob"), newTab(t, h, browser, "carol")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	carol.open(h.link(id, "carol", true))
	for _, b := range []*tab{alice, bob, carol} {
		if n := eval[int](b, `document.querySelectorAll('[data-status]').length * 10 + document.querySelectorAll('[data-message]').length`); n != 11 {
			t.Fatalf("%s: want exactly one data-status and one data-message (got %d)", b.name, n)
		}
		if n := eval[int](b, `document.querySelectorAll('[data-point][role=button][aria-label]').length`); n != 81 {
			t.Fatalf("%s: %d points, want 81", b.name, n)
		}
	}
	if n := eval[int](carol, `document.querySelectorAll('[data-action]').length`); n != 0 {
		t.Errorf("the watcher's page has %d action buttons", n)
	}
	carol.waitStatus("^Black to play")

	// Moves, and the opponent's page follows within a moment.
	var lat []time.Duration
	move := func(by, other *tab, p, color string) {
		t.Helper()
		by.play(p)
		other.waitStone(p, color)
		// From the click's handler on one page to the update applied on
		// the other (one machine, one clock).
		ms := eval[int](other, "Number(document.body.dataset.updatedAt)") - eval[int](by, "Number(document.body.dataset.clickedAt)")
		lat = append(lat, time.Duration(ms)*time.Millisecond)
		carol.waitStone(p, color)
		if by.message() != "" {
			t.Errorf("%s: message %q after a move", by.name, by.message())
		}
	}
	// A move redraws only what it changed: the squares of the points it
	// did not touch are the same elements after it (the page keeps its
	// board and patches it: boardui.js's drawBoard).
	eval[bool](bob, `(document.querySelector('[data-point="A9"]').kept = "yes", true)`)
	move(alice, bob, "E5", "black")
	// A refusal: the chat's text, nothing changes; shown again on a repeat.
	bob.play("E5")
	bob.waitMessage("E5 is occupied")
	eval[bool](bob, `(document.querySelector('[data-message]').textContent = '', true)`)
	bob.play("E5")
	bob.waitMessage("E5 is occupied")
	// A refusal's answer brings the state the page has already: it is
	// not applied again (the side panel is the same element).
	eval[bool](alice, `(document.getElementById('side').firstElementChild.kept = "yes", true)`)
	alice.play("C3") // not her turn
	alice.waitMessage("turn")
	if eval[string](alice, `document.getElementById('side').firstElementChild.kept || ''`) != "yes" {
		t.Errorf("a state the page had already was applied again (its side panel drawn anew)")
	}
	move(bob, alice, "D5", "white")
	if bob.message() != "" {
		t.Errorf("bob's refusal was not cleared by his move: %q", bob.message())
	}
	move(alice, bob, "C5", "black")
	move(bob, alice, "J9", "white")
	move(alice, bob, "D6", "black")
	move(bob, alice, "J8", "white")
	// The capture: D4 takes D5.
	move(alice, bob, "D4", "black")
	for _, b := range []*tab{alice, bob, carol} {
		b.waitStone("D5", "")
	}
	if eval[string](bob, `document.querySelector('[data-point="A9"]').kept || ''`) != "yes" {
		t.Errorf("bob's board was drawn anew for a move, not patched")
	}
	// A patched board is the board drawn whole: a page opened now shows
	// the same elements with the same attributes as the watcher's,
	// patched move by move since E5.
	dave := newTab(t, h, browser, "dave")
	dave.open(h.link(id, "dave", true))
	if got, want := eval[string](carol, boardShape), eval[string](dave, boardShape); got != want {
		t.Errorf("the patched board differs from the board drawn whole:\n%s\nwant\n%s", got, want)
	}
	if side := eval[string](carol, `document.getElementById('side').textContent`); !strings.Contains(side, "1 captured") {
		t.Errorf("carol's page does not count the capture: %q", side)
	}
	// Undo: bob plays, asks to take it back, alice accepts.
	move(bob, alice, "A1", "white")
	bob.click(`[data-action="undo"]`)
	alice.waitFor("the undo request", `!document.querySelector('[data-action="decline"]').hidden`)
	alice.click(`[data-action="undo"]`)
	for _, b := range []*tab{alice, bob, carol} {
		b.waitStone("A1", "")
	}
	// A watcher's click is refused.
	carol.play("G7")
	carol.waitMessage("watching")
	// Two passes: scoring. bob moves again after the undo.
	bob.click(`[data-action="pass"]`)
	alice.waitStatus("^White|^Black")
	alice.waitFor("bob's pass", `document.getElementById('side').textContent.includes('White pass')`)
	alice.click(`[data-action="pass"]`)
	for _, b := range []*tab{alice, bob, carol} {
		b.waitStatus("^Scoring")
	}
	// Scoring starts from the bot's proposal, J9 and J8 dead; a click on
	// a stone toggles its string (the same as `dead J9`): alive, dead.
	dead := func(p string) string {
		return fmt.Sprintf(`document.querySelector('[data-point=%q]').getAttribute('aria-label').includes('dead')`, p)
	}
	carol.waitFor("the proposal: J9 dead", dead("J9"))
	alice.play("J9")
	carol.waitFor("J9 alive again", "!"+dead("J9"))
	if eval[bool](carol, dead("J8")) {
		t.Errorf("J8 (the same string as J9) still marked dead")
	}
	alice.play("J9")
	for _, b := range []*tab{alice, bob, carol} {
		b.waitFor("J9 and J8 marked dead", dead("J9")+" && "+dead("J8"))
	}
	alice.screenshot(filepath.Join("..", "..", "docs", "web-board-scoring.png"))
	alice.click(`[data-action="done"]`)
	bob.click(`[data-action="done"]`)
	for _, b := range []*tab{alice, bob, carol} {
		b.waitStatus(`^Black wins by [0-9.]+ points? \(B\+[0-9.]+\)$`)
	}
	// Every click was a chat move: the room saw them announced.
	room := strings.Join(h.console.texts(), "\n")
	for _, want := range []string{"@alice played E5", "@bob played D5", "@alice played D4, capturing 1 stone", "Game over:"} {
		if !strings.Contains(room, want) {
			t.Errorf("the room did not see %q", want)
		}
	}
	slices.Sort(lat)
	t.Logf("click → opponent's page updated (bbolt, one process): p50 %v, max %v over %d moves", lat[len(lat)/2], lat[len(lat)-1], len(lat))
}

// boardShape describes a page's board: each element of its SVG, its
// attributes sorted (but the page's tabindex).
const boardShape = `Array.from(document.querySelectorAll('#board svg, #board svg *'), (e) =>
  e.tagName + '[' + Array.from(e.attributes).filter((a) => a.name !== 'tabindex').map((a) => a.name + '=' + a.value).sort().join(' ') + ']' +
  (e.children.length ? '' : e.textContent)).join('\n')`

// TestBrowserLayout: a 19x19 board fits a 1000x1000 window and a
// 360-px-wide phone without scrolling the board; stones never take the
// click from their point; screenshots for the docs.
func TestBrowserLayout(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	if r := h.cmd("alice", "challenge", "@console:bob", "19", "black"); r.Error {
		t.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error {
		t.Fatal(r.Text)
	}
	id := r.Game
	moves := []string{"Q16", "D4", "Q4", "D16", "R10", "C10", "K10", "K11", "L11", "J11", "F17", "C14"}
	for i, p := range moves {
		who := "alice"
		if i%2 == 1 {
			who = "bob"
		}
		if r := h.cmd(who, "play", p); r.Error {
			t.Fatal(r.Text)
		}
	}
	alice := newTab(t, h, browser, "alice")
	alice.open(h.link(id, "alice", false))
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 1000, false, "web-board.png"}, {360, 740, true, "web-board-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		alice.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		fits := eval[string](alice, `(() => { const r = document.querySelector('svg.goban').getBoundingClientRect();
			return r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 && r.width > 200 ? 'ok' : JSON.stringify([r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]); })()`)
		if fits != "ok" {
			t.Errorf("%dx%d: the board does not fit the window: %s", vp.w, vp.h, fits)
		}
		alice.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}
	// What is under each stone's centre is its point, not the stone.
	got := eval[string](alice, `(() => { for (const p of document.querySelectorAll('[data-stone]')) {
		const r = p.getBoundingClientRect(); const e = document.elementFromPoint(r.left + r.width/2, r.top + r.height/2);
		if (e !== p) return p.dataset.point + ' is covered by ' + e.outerHTML.slice(0, 60); } return 'ok'; })()`)
	if got != "ok" {
		t.Error(got)
	}
	// Keyboard: focus a point, move with the arrows, play with Enter.
	alice.do("focus", chromedp.Focus(chromedp.CSS(`[data-point="K9"]`)))
	alice.do("keys", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.Enter))
	// The window is a phone's (360 px, touch): Enter, like a tap, asks
	// for the "Play" button first (confirm=touch, the default).
	alice.waitFor("the Play L9 button", `(() => { const b = document.querySelector('[data-action="submit"]'); return !!b && !b.hidden && b.dataset.pending === 'L9'; })()`)
	alice.click(`[data-action="submit"]`)
	alice.waitFor("the keyboard move", `document.querySelectorAll('[data-stone="black"]').length === 7`)
	if alice.stone("L9") != "black" {
		t.Errorf("Enter after ArrowRight from K9 played %s, want L9", eval[string](alice, `[...document.querySelectorAll('[data-stone="black"]')].map(e => e.dataset.point).join(' ')`))
	}
	if m := regexp.MustCompile(`^White to play`).MatchString(alice.status()); !m {
		t.Errorf("after the keyboard move: status %q", alice.status())
	}
	// Resign asks first: cancel changes nothing, confirm resigns.
	alice.click(`[data-action="resign"]`)
	alice.do("the confirmation", chromedp.WaitVisible(chromedp.CSS(`[data-action="confirm"]`)))
	// The question chat asks on Discord (issue 35), with its opponent.
	if q := eval[string](alice, `document.getElementById('confirm').textContent`); !strings.HasPrefix(q, fmt.Sprintf("Resign game #%d against bob? Yes, resign", id)) {
		t.Errorf("the confirmation reads %q", q)
	}
	alice.click(`[data-action="cancel"]`)
	if st := alice.status(); !strings.HasPrefix(st, "White to play") {
		t.Errorf("after cancelling the resignation: status %q", st)
	}
	alice.click(`[data-action="resign"]`)
	alice.click(`[data-action="confirm"]`)
	alice.waitStatus(`^White wins by resignation \(W\+R\)$`)
	if n := eval[int](alice, `[...document.querySelectorAll('[data-action]')].filter(b => !b.hidden && b.offsetParent !== null).length`); n != 0 {
		t.Errorf("%d action buttons still shown after the game ended", n)
	}
}
