package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobotgo/gobot"
)

// newLadderRun makes a ladder of five in the harness's room: carol has
// beaten alice (the top) and took her rung, erin's challenge to dave is
// open with its game under way. It returns the link `ladder` gave.
func newLadderRun(h *harness) (link string, open gobot.GameID) {
	h.t.Helper()
	h.mustCmd("alice", "ladder", "new", `"Club`, `ladder"`, "size=9", "clock=1d", "challenge=2")
	for _, u := range []string{"alice", "bob", "carol", "dave", "erin"} {
		h.mustCmd(u, "ladder", "join")
	}
	h.mustCmd("carol", "ladder", "challenge", "@console:alice")
	h.mustCmd("alice", "resign", "#1")
	h.mustCmd("erin", "ladder", "challenge", "@console:dave")
	text := h.mustCmd("bob", "ladder")
	link = tournamentLinkRE.FindString(text)
	if link == "" {
		h.t.Fatalf("ladder carries no link to the page:\n%s", text)
	}
	return link, 2
}

// TestLadderPage: `ladder`'s link opens the ladder's page in this
// browser: every rung in order with its open challenges, the open
// challenge with its board, the latest result; a challenge's board opens
// to watch; without the session, with another's or a forged one it is
// refused, a game of no ladder is not opened, and nothing changes.
func TestLadderPage(t *testing.T) {
	h := newHarness(t)
	link, open := newLadderRun(h)
	b := h.browser()
	if res, _ := b.get(link); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/ladder/1" {
		t.Fatalf("the link: %d to %q, want 303 to /ladder/1", res.StatusCode, res.Header.Get("Location"))
	}
	res, page := b.get(h.ts.URL + "/ladder/1")
	if res.StatusCode != 200 || strings.Contains(page, "<script") || strings.Contains(page, "style=") {
		t.Fatalf("the page: %d\n%s", res.StatusCode, page)
	}
	rows := regexp.MustCompile(`<tr data-rung="(\d+)"><td class="num score">\d+</td><th scope="row" class="name">([^<]+)</th><td class="round[^"]*"[^>]*>([^<]*)</td><td class="round[^"]*"[^>]*>([^<]*)</td>`).FindAllStringSubmatch(page, -1)
	var got []string
	for _, r := range rows {
		got = append(got, strings.Join(strings.Fields(r[1]+" "+r[2]+" "+r[3]+" "+r[4]), " "))
	}
	want := []string{"1 carol", "2 alice", "3 bob", "4 dave ← 5", "5 erin → 4"}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("the rungs read %q, want %q", got, want)
	}
	for _, w := range []string{"Club ladder", "challenge up to 2 places above", "5 players", fmt.Sprintf(`href="/ladder/1/g/%d"`, open), "the challenger won", `href="/ladder/1/g/1"`} {
		if !strings.Contains(page, w) {
			t.Errorf("the page lacks %q", w)
		}
	}
	// A challenge's board, to watch.
	res, _ = b.get(fmt.Sprintf("%s/ladder/1/g/%d", h.ts.URL, open))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != openPath(open) {
		t.Errorf("the challenge's board: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	other := h.newGame() // no ladder's
	if res, body := b.get(fmt.Sprintf("%s/ladder/1/g/%d", h.ts.URL, other)); res.StatusCode != 404 || !strings.Contains(body, fmt.Sprintf("Game #%d is not a game of this ladder.", other)) {
		t.Errorf("a game of no ladder: %d", res.StatusCode)
	}
	// Refusals.
	if res, body := h.browser().get(h.ts.URL + "/ladder/1"); res.StatusCode != 401 || !strings.Contains(body, "ladder") {
		t.Errorf("no session: %d", res.StatusCode)
	}
	tl, _, _ := h.srv.TournamentLink(1)
	tb := h.browser()
	tb.get(tl)
	if res, _ := tb.get(h.ts.URL + "/ladder/1"); res.StatusCode != 401 {
		t.Errorf("a tournament's link at the ladder's page: %d, want 401", res.StatusCode)
	}
	l2, _, _ := h.srv.LadderLink(2)
	ob := h.browser()
	ob.get(l2)
	if res, _ := ob.get(h.ts.URL + "/ladder/2"); res.StatusCode != http.StatusNotFound {
		t.Errorf("ladder 2, which does not exist: %d, want 404", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", h.ts.URL+"/ladder/1", nil)
	var cookie *http.Cookie
	for _, c := range b.c.Jar.Cookies(req.URL) {
		if c.Name == "gobot_ld1" {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatal("no ladder cookie")
	}
	forged := h.browser()
	forged.c.Jar.SetCookies(req.URL, []*http.Cookie{{Name: "gobot_ld1", Value: strings.Replace(cookie.Value, "A", "B", 1), Path: "/ladder/1"}})
	if res, _ := forged.get(h.ts.URL + "/ladder/1"); res.StatusCode != 401 {
		t.Errorf("a changed session: %d, want 401", res.StatusCode)
	}
	// A game's session is not a ladder's, nor a ladder's a game's.
	if res, _ := b.get(fmt.Sprintf("%s/g/%d", h.ts.URL, open)); res.StatusCode == 200 && !strings.Contains(res.Request.URL.Path, "/g/") {
		t.Errorf("the ladder's session opened a game's page")
	}
}

// TestBrowserLadder: the ladder's page in chromium at desktop width and
// on a 360-px phone: the rungs in order, the open challenge's board
// link, nothing wider than the window but the tables' own scrolling;
// the board opens from it to watch. docs/ladder-page*.png with -update.
func TestBrowserLadder(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	link, open := newLadderRun(h)
	reader := newTab(t, h, browser, "reader")
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 760, false, "ladder-page.png"}, {360, 740, true, "ladder-page-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		reader.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		reader.do("open the link", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS("[data-rungs]")))
		names := eval[[]string](reader, `[...document.querySelectorAll('[data-rungs] tbody th.name')].map(e => e.textContent)`)
		if strings.Join(names, ",") != "carol,alice,bob,dave,erin" {
			t.Errorf("%dpx: the rungs list %v", vp.w, names)
		}
		if over := eval[string](reader, `(() => { const d = document.documentElement; return d.scrollWidth <= innerWidth ? 'ok' : d.scrollWidth + ' > ' + innerWidth; })()`); over != "ok" {
			t.Errorf("%dpx: the page is wider than the window: %s", vp.w, over)
		}
		reader.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}
	reader.do("open the challenge's board", chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-challenges] a[data-board="%d"]`, open))), chromedp.WaitVisible(chromedp.CSS("[data-status]")))
	reader.waitFor("the board's live stream", "document.body.dataset.live === 'on'")
	if role := eval[string](reader, "document.body.dataset.role"); role != "watcher" {
		t.Errorf("the board opened from the ladder's page is a %q's", role)
	}
}

// BenchmarkLadderPage2000 serves the page of a 2,000-player ladder with
// 500 open challenges, as a browser asks it (gzip): the ladder and every
// player's name read through the bot, the page drawn and compressed. It
// reports the median wall time, the CPU time of the process per page
// (which a loaded machine does not inflate) and the page's size.
func BenchmarkLadderPage2000(b *testing.B) {
	h := newHarness(b)
	h.mustCmd("alice", "ladder", "new", `"Big`, `ladder"`)
	now := h.now.Now()
	err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		l, err := tx.Ladder(1)
		if err != nil {
			return err
		}
		for i := range 2000 {
			u := gobot.UserID(fmt.Sprintf("console:u%d", i))
			if err := tx.PutPlayer(&gobot.Player{ID: u, Name: fmt.Sprintf("Player %d", i)}); err != nil {
				return err
			}
			l.Rungs = append(l.Rungs, u)
		}
		for i := 3; i < 2000; i += 4 {
			l.Challenges = append(l.Challenges, gobot.LadderChallenge{Challenger: l.Rungs[i], Defender: l.Rungs[i-2], Made: now, Deadline: now.Add(72 * time.Hour)})
		}
		return tx.PutLadder(l)
	})
	if err != nil {
		b.Fatal(err)
	}
	link, _, _ := h.srv.LadderLink(1)
	br := h.browser()
	br.get(link)
	req, _ := http.NewRequest(http.MethodGet, h.ts.URL+"/ladder/1", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	var took []time.Duration
	var size int
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for b.Loop() {
		began := time.Now()
		res, err := br.c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		took = append(took, time.Since(began))
		if res.StatusCode != 200 || res.Header.Get("Content-Encoding") != "gzip" {
			b.Fatalf("the page: %d %q", res.StatusCode, res.Header.Get("Content-Encoding"))
		}
		size = len(body)
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(len(took))
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms-median")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond), "cpu-ms/op")
	b.ReportMetric(float64(size)/1024, "KiB-gzipped")
}

// TestRungRowsEscape: the rungs' rows, written without the template,
// escape what a player's name or a title holds.
func TestRungRowsEscape(t *testing.T) {
	got := string(rungRows([]ladderRung{{N: 1, Name: `<b>"Al"</b> & co`, Gives: "→ 3", GivesTitle: `has challenged <i>x</i>`, Challenging: true}}))
	want := "\n" + `<tr data-rung="1"><td class="num score">1</td><th scope="row" class="name">&lt;b&gt;&#34;Al&#34;&lt;/b&gt; &amp; co</th><td class="round loss" title="has challenged &lt;i&gt;x&lt;/i&gt;">→ 3</td><td class="round"></td></tr>`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
