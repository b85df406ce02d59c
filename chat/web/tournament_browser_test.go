package web

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestBrowserTournament: the tournament's page in chromium at desktop
// width and on a 360-px phone: the standings' lines and every round's
// pairings, nothing wider than the window but the tables' own scrolling,
// and a game's link opens that game's board, to watch.
func TestBrowserTournament(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	run := newTournamentRun(h)
	tour := h.tournamentView(run.id)
	lines, err := tour.Pairing().Table(len(tour.Played) - 1)
	if err != nil {
		t.Fatal(err)
	}
	reader := newTab(t, h, browser, "reader")
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 900, false, "tournament-page.png"}, {360, 740, true, "tournament-page-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		reader.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		reader.do("open the link", chromedp.Navigate(run.link), chromedp.WaitVisible(chromedp.CSS("[data-standings]")))
		if loc := eval[string](reader, "location.pathname"); loc != "/t/1" {
			t.Fatalf("the link led to %s", loc)
		}
		names := eval[[]string](reader, `[...document.querySelectorAll('[data-standings] tbody th.name')].map(e => e.textContent)`)
		var want []string
		for _, l := range lines {
			want = append(want, l.Name)
		}
		if strings.Join(names, ",") != strings.Join(want, ",") {
			t.Errorf("%dpx: the standings list %v, want %v", vp.w, names, want)
		}
		first := eval[string](reader, `[...document.querySelectorAll('[data-standings] tbody tr:first-child td.round')].map(e => e.textContent).join(' ')`)
		var wantFirst []string
		for _, r := range lines[0].Rounds {
			wantFirst = append(wantFirst, r.String())
		}
		if first != strings.Join(wantFirst, " ") {
			t.Errorf("%dpx: the leader's rounds read %q, want %q", vp.w, first, strings.Join(wantFirst, " "))
		}
		for r, rd := range tour.Played {
			n := eval[int](reader, fmt.Sprintf(`document.querySelectorAll('[data-round="%d"] tbody tr').length`, r+1))
			links := eval[int](reader, fmt.Sprintf(`document.querySelectorAll('[data-round="%d"] a[data-board]').length`, r+1))
			if n != len(rd.Games) || links != len(rd.Games) {
				t.Errorf("%dpx: round %d shows %d pairings with %d board links, want %d", vp.w, r+1, n, links, len(rd.Games))
			}
		}
		// Only the tables scroll sideways: the page itself fits.
		if over := eval[string](reader, `(() => { const d = document.documentElement; return d.scrollWidth <= innerWidth ? 'ok' : d.scrollWidth + ' > ' + innerWidth; })()`); over != "ok" {
			t.Errorf("%dpx: the page is wider than the window: %s", vp.w, over)
		}
		reader.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}
	// The last game (still being played) opens its board, to watch.
	g := run.games[len(run.games)-1]
	reader.do("open a game's board", chromedp.Click(chromedp.CSS(fmt.Sprintf(`a[data-board="%d"]`, g))), chromedp.WaitVisible(chromedp.CSS("[data-status]")))
	if loc := eval[string](reader, "location.pathname"); loc != gamePath(g) {
		t.Fatalf("the game's link led to %s, want %s", loc, gamePath(g))
	}
	reader.waitFor("the board's live stream", "document.body.dataset.live === 'on'")
	if role := eval[string](reader, "document.body.dataset.role"); role != "watcher" {
		t.Errorf("the board opened from the tournament's page is a %q's", role)
	}
	if n := eval[int](reader, `document.querySelectorAll('[data-point]').length`); n != 81 {
		t.Errorf("the board has %d points, want 81", n)
	}
}
