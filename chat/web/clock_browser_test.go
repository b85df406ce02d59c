package web

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// liveGame starts a 9x9 game on a live clock, alice Black against bob.
func (h *harness) liveGame(clock string) gobot.GameID {
	h.t.Helper()
	if r := h.cmd("alice", "challenge", "@console:bob", "9", "black", "clock="+clock); r.Error {
		h.t.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error || r.Game == 0 {
		h.t.Fatalf("accept: %+v", r)
	}
	return r.Game
}

// clock returns colour c's clock on the page: its text, data-seconds,
// and which of data-running, data-low, data-out it has.
func (b *tab) clock(c string) string {
	b.t.Helper()
	return eval[string](b, fmt.Sprintf(`(() => { const e = document.querySelector('[data-clock=%q]');
		return e ? e.textContent + " " + e.dataset.seconds + ["running", "low", "out"].filter((a) => e.hasAttribute("data-" + a)).map((a) => " " + a).join("") : "none"; })()`, c))
}

// TestBrowserLiveClock: a live game's clocks count down in the page
// between events, from the server's time (which stands still here), are
// set right by the next event, show byo-yomi's periods and a period's
// last seconds, and say "Time is up" when the server ends the game on
// time, without a reload. The tick sound's toggle is remembered.
func TestBrowserLiveClock(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:1m+3x10s")
	alice := newTab(t, h, browser, "alice")
	alice.open(h.link(id, "alice", false))

	if got := alice.clock("white"); got != "1:00 + 3×10s 90" {
		t.Errorf("white's clock at the start: %q, want %q", got, "1:00 + 3×10s 90")
	}
	// Black's counts down in the page: the server sends nothing.
	alice.waitFor("black's clock to count down", `Number(document.querySelector('[data-clock=black]').dataset.seconds) <= 88 && document.querySelector('[data-clock=black]').hasAttribute('data-running')`)
	if got := alice.clock("white"); got != "1:00 + 3×10s 90" {
		t.Errorf("white's clock runs on black's turn: %q", got)
	}

	// 51 s on the server's clock (50, then the click's second): the
	// event of the move sets black's clock right.
	h.now.Advance(50 * time.Second)
	alice.play("E5")
	alice.waitStone("E5", "black")
	alice.waitFor("black's clock from the server", `document.querySelector('[data-clock=black]').dataset.seconds === '39'`)
	if got := alice.clock("black"); got != "0:09 + 3×10s 39" {
		t.Errorf("black's clock after the move: %q, want %q", got, "0:09 + 3×10s 39")
	}
	// White's clock runs from the move on; a loaded machine may take a
	// few seconds to read it.
	if got := alice.clock("white"); !regexpMatch(`^(1:00|0:5[0-9]) \+ 3×10s (90|8[0-9]) running$`, got) {
		t.Errorf("white's clock on white's turn: %q", got)
	}

	// 75 s into white's turn, a fresh page: main time spent and one
	// period, 5 s left of the second of three; the period's last 10 s.
	h.now.Advance(75 * time.Second)
	alice.open(h.link(id, "alice", false))
	if got := alice.clock("white"); !regexpMatch(`^0:0[0-5] \(2×10s\) (1[0-5]|[0-9]) running low$`, got) {
		t.Errorf("white's clock in byo-yomi: %q, want 0:05 (2×10s) 15 running low", got)
	}

	// The tick sound: off by default, remembered by the browser.
	if on := eval[bool](alice, `document.querySelector('[data-tick-sound]').checked`); on {
		t.Error("the tick sound is on by default")
	}
	alice.do("sound on", chromedp.Click(chromedp.CSS(`[data-tick-sound]`)))
	alice.open(h.link(id, "alice", false))
	if on := eval[bool](alice, `document.querySelector('[data-tick-sound]').checked && localStorage.getItem('gobot.tick') === 'on'`); !on {
		t.Error("the tick sound's toggle was not remembered")
	}

	// The server ends the game on time: the page says so at once.
	eval[bool](alice, `(window.samePage = true)`)
	h.now.Advance(30 * time.Second)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	alice.waitStatus("on time")
	if got := alice.clock("white"); got != "Time is up 0 out" {
		t.Errorf("white's clock after the loss on time: %q", got)
	}
	if !eval[bool](alice, `window.samePage === true`) {
		t.Error("the page was reloaded")
	}
}

// TestBrowserClockArithmetic: the page's clock arithmetic (boardui.js,
// gobotClock) reads as clock.go's: ShowClock and Budget after Elapse,
// for each system, in main time, in its periods and at their end.
func TestBrowserClockArithmetic(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice := newTab(t, h, browser, "alice")
	alice.open(h.link(id, "alice", false))
	m, s := time.Minute, time.Second
	for _, tc := range []gobot.TimeControl{
		{Kind: gobot.ByoYomi, Main: m, Periods: 3, Period: 10 * s},
		{Kind: gobot.ByoYomi, Main: 0, Periods: 1, Period: 30 * s},
		{Kind: gobot.Canadian, Main: 10 * m, Stones: 25, Period: 5 * m},
		{Kind: gobot.Canadian, Main: 0, Stones: 1, Period: 20 * s},
		{Kind: gobot.Fischer, Main: 5 * m, Increment: 10 * s, Max: 10 * m},
		{Kind: gobot.Absolute, Main: 2 * time.Hour},
	} {
		v := &clockView{Kind: clockKinds[tc.Kind], Period: tc.Period.Milliseconds(), Stones: tc.Stones}
		vj, _ := json.Marshal(v)
		for _, d := range []time.Duration{0, 999 * time.Millisecond, 30 * s, m, m + 5*s, m + 10*s, m + 25*s, 5 * m, 11 * m, 3 * time.Hour} {
			st, _ := tc.Elapse(tc.Start(), d)
			want := fmt.Sprintf("%s %d", tc.ShowClock(st), tc.Budget(st).Milliseconds())
			start := tc.Start()
			sj, _ := json.Marshal(clockSideV{Main: start.Main.Milliseconds(), Periods: start.Periods, Stones: start.Stones, Period: start.Period.Milliseconds()})
			got := eval[string](alice, fmt.Sprintf(`(() => { const v = %s; const s = gobotClock.elapse(v, %s, %d); return gobotClock.show(v, s) + " " + gobotClock.budget(v, s); })()`, vj, sj, d.Milliseconds()))
			if got != want {
				t.Errorf("%s after %v: the page reads %q, clock.go %q", protocol.FormatDuration(tc.Main), d, got, want)
			}
		}
	}
}

func regexpMatch(re, s string) bool { return regexp.MustCompile(re).MatchString(s) }

// TestBrowserLiveGame: a live 9x9 game between two browsers: each sees
// the other's moves and both clocks, the mover's running. It takes the
// README's pictures of a live game (with -update): at desktop width, and
// 360 px wide with a tap waiting for its "Play" button.
func TestBrowserLiveGame(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:10m+5x30s")
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	moves := []string{"E5", "C5", "E3", "G5", "D7", "C3", "G7", "F4"}
	for i, p := range moves {
		by, other, color, next := alice, bob, "black", "white"
		if i%2 == 1 {
			by, other, color, next = bob, alice, "white", "black"
		}
		h.now.Advance(time.Duration(7+5*i) * time.Second)
		by.play(p)
		for _, b := range []*tab{by, other} {
			b.waitStone(p, color)
			b.waitFor(next+"'s clock running", fmt.Sprintf(`document.querySelector('[data-clock=%q]').hasAttribute('data-running') && !document.querySelector('[data-clock=%q]').hasAttribute('data-running')`, next, color))
		}
	}
	// Both pages read the same clocks: black has spent 7+17+27+37 s and
	// the clicks' 4 s (10:00 - 1:32), white 12+22+32+42 s and 4 s.
	for _, b := range []*tab{alice, bob} {
		if got := b.clock("white"); got != "8:08 + 5×30s 638" {
			t.Errorf("%s: white's clock %q, want %q", b.name, got, "8:08 + 5×30s 638")
		}
		if got := b.clock("black"); !regexpMatch(`^8:(27|28) \+ 5×30s 65\d running$`, got) {
			t.Errorf("%s: black's clock %q", b.name, got)
		}
	}
	alice.screenshot("../../docs/web-live.png")
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.tap("D3")
	if got := alice.pending(); got != `#b D3 / D3 "Play D3"` {
		t.Errorf("a tap on the phone: %s", got)
	}
	alice.screenshot("../../docs/web-live-phone.png")
}

// TestBrowserLivePause: in a live game one player's Pause button asks,
// the other's (now "Accept pause") accepts: both pages show the mover's
// clock paused and stop counting it down; Resume restarts it.
func TestBrowserLivePause(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.liveGame("byoyomi:1m+3x10s")
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	h.now.Advance(20 * time.Second) // and a second for each click
	bob.click(`[data-action="pause"]`)
	alice.waitFor("the pause asked", `document.querySelector('[data-action="pause"]').textContent === 'Accept pause' && !document.querySelector('[data-action="pause"]').hidden`)
	bob.waitFor("bob's Pause hidden while he waits", `document.querySelector('[data-action="pause"]').hidden`)
	alice.click(`[data-action="pause"]`)
	for _, b := range []*tab{alice, bob} {
		b.waitFor("the clocks paused", `document.querySelector('[data-clock=black]').hasAttribute('data-paused')`)
		if got := b.clock("black"); got != "0:38 + 3×10s · paused 68" {
			t.Errorf("%s: black's paused clock %q", b.name, got)
		}
		if got := eval[string](b, `document.querySelector('#side p.clock').textContent`); !regexpMatch(`^Paused: both clocks stand still`, got) {
			t.Errorf("%s: the side panel says %q", b.name, got)
		}
		if !eval[bool](b, `!document.querySelector('[data-action="resume"]').hidden && document.querySelector('[data-action="pause"]').hidden && document.querySelector('[data-action="pass"]').hidden`) {
			t.Errorf("%s: Resume is not offered while paused", b.name)
		}
	}
	// The pause's allowance counts down in the page while paused, from
	// the server's time (which stands still here): 10m at first.
	for _, b := range []*tab{alice, bob} {
		b.waitFor("the pause allowance counting down", `/^Paused: both clocks stand still until a player resumes \(9m 5[0-9]s of pause left\)\.$/.test(document.querySelector('#side p.clock').textContent)`)
	}
	// A page counts a running clock down each second; a paused one stays.
	eval[bool](alice, `(window.pausedAt = performance.now(), true)`)
	alice.waitFor("1.5 s of the page's time", `performance.now() > window.pausedAt + 1500`)
	if got := alice.clock("black"); !regexpMatch(` 68$`, got) {
		t.Errorf("the paused clock counted down: %q", got)
	}
	h.now.Advance(3 * time.Minute) // a pause's time is nobody's
	bob.click(`[data-action="resume"]`)
	for _, b := range []*tab{alice, bob} {
		b.waitFor("the clocks running again", `document.querySelector('[data-clock=black]').hasAttribute('data-running') && !document.querySelector('[data-clock=black]').hasAttribute('data-paused')`)
		if got := b.clock("black"); !regexpMatch(`^0:(38|37) \+ 3×10s (68|67) running$`, got) {
			t.Errorf("%s: black's clock after resume %q", b.name, got)
		}
	}
}

// TestBrowserClockOneLine: at 1000 px a live clock's reading fits on
// one line beside the board, a Canadian clock's long one included
// (`10:00 + 25 stones in 5:00`), and stays inside the side panel.
func TestBrowserClockOneLine(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	for _, clock := range []string{"canadian:10m+25/5m", "canadian:1h+25/10m", "byoyomi:1h+5x30s"} {
		id := h.liveGame(clock)
		alice := newTab(t, h, browser, "alice")
		alice.do("desktop", chromedp.EmulateViewport(1000, 1000))
		alice.open(h.link(id, "alice", false))
		for _, c := range []string{"black", "white"} {
			got := eval[string](alice, fmt.Sprintf(`(() => { const e = document.querySelector('[data-clock=%q]'), r = e.getBoundingClientRect(), a = document.querySelector('aside').getBoundingClientRect();
				const lines = r.height / parseFloat(getComputedStyle(e).lineHeight);
				return lines < 1.5 && r.right <= a.right + 0.5 && e.scrollWidth <= e.clientWidth ? "ok" : e.textContent + ": " + lines.toFixed(2) + " lines, right " + r.right + " of " + a.right; })()`, c))
			if got != "ok" {
				t.Errorf("%s, %s's clock: %s", clock, c, got)
			}
		}
		if clock == "canadian:1h+25/10m" {
			alice.screenshot("../../docs/web-live-canadian.png")
		}
		h.cmd("alice", "resign")
	}
}
