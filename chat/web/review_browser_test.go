package web

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// reviewLinkIn finds a review's personal link in a reply.
var reviewLinkIn = regexp.MustCompile(`http://\S+/l/\S+`)

// startReview has user start a review with args and returns its link.
func (h *harness) startReview(user string, args ...string) string {
	h.t.Helper()
	r := h.cmd(user, "review", args...)
	if r.Error {
		h.t.Fatalf("review %v: %s", args, r.Text)
	}
	l := reviewLinkIn.FindString(r.Text)
	if l == "" {
		h.t.Fatalf("no link in %q", r.Text)
	}
	return l
}

// reviewLink is user's link to review id.
func (h *harness) reviewLink(id gobot.ReviewID, user string) string {
	h.t.Helper()
	l, _, err := h.srv.ReviewLink(id, gobot.UserID("console:"+user), 0)
	if err != nil {
		h.t.Fatal(err)
	}
	return l
}

func (h *harness) storedReview(id gobot.ReviewID) *gobot.Review {
	h.t.Helper()
	var rev *gobot.Review
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		rev, err = tx.Review(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return rev
}

// finishedGame plays a short game to its end by resignation.
func (h *harness) finishedGame() gobot.GameID {
	h.t.Helper()
	id := h.newGame()
	for i, p := range []string{"E5", "C3", "G7", "C7", "G3"} {
		u := map[bool]string{true: "alice", false: "bob"}[i%2 == 0]
		if r := h.cmd(u, "play", p); r.Error {
			h.t.Fatal(r.Text)
		}
	}
	if r := h.cmd("bob", "resign"); r.Error {
		h.t.Fatal(r.Text)
	}
	return id
}

func (b *tab) moveNumber() string {
	b.t.Helper()
	return eval[string](b, `document.querySelector('[data-move-number]').textContent`)
}

func (b *tab) waitMove(n int) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("move %d", n), fmt.Sprintf(`document.querySelector('[data-move-number]').textContent === %q`, fmt.Sprint(n)))
}

func (b *tab) waitRole(role string) {
	b.t.Helper()
	b.waitFor("role "+role, fmt.Sprintf(`document.body.dataset.role === %q`, role))
}

// TestBrowserReview: two browsers on one review. The controller (who
// started it) navigates and the follower's board follows; a variation
// played by the controller is seen with data-variation, with its
// comment; the follower looks around on their own and follows again;
// control is handed over and taken back; review end posts the SGF,
// which the SGF reader reads back with the variation and its comment.
func TestBrowserReview(t *testing.T) {
	h := newHarness(t)
	gid := h.finishedGame()
	browser := startBrowser(t)
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.startReview("alice", fmt.Sprintf("#%d", gid)))
	alice.waitRole("controller")
	bob.open(h.reviewLink(1, "bob"))
	bob.waitRole("follower")
	bob.waitFor("bob on the board", `document.querySelector('[data-present]').textContent.includes('bob')`)
	if got := eval[string](bob, `document.querySelector('[data-controller]').textContent`); got != "alice" {
		t.Fatalf("bob sees %q in control, want alice", got)
	}
	if rev := h.storedReview(1); len(rev.Present) != 2 || rev.Present[0] != "console:alice" {
		t.Fatalf("present %v, want alice then bob", rev.Present)
	}

	// Navigation is followed: last, first, forward, back, the slider.
	alice.click(`[data-action="last"]`)
	alice.waitMove(5)
	bob.waitMove(5)
	bob.waitStone("G3", "black")
	alice.click(`[data-action="first"]`)
	bob.waitMove(0)
	bob.waitStone("E5", "")
	alice.click(`[data-action="forward"]`)
	alice.click(`[data-action="forward"]`)
	bob.waitMove(2)
	alice.click(`[data-action="back"]`)
	bob.waitMove(1)
	bob.waitStone("E5", "black")

	// A variation at move 2: White plays G3 instead of C3, with a
	// triangle and a comment.
	alice.play("G3")
	bob.waitMove(2)
	bob.waitFor("the variation stone", `document.querySelector('[data-point="G3"]').hasAttribute('data-variation')`)
	if bob.stone("G3") != "white" {
		t.Fatalf("bob sees G3 %q, want white", bob.stone("G3"))
	}
	if eval[bool](bob, `document.querySelector('[data-point="E5"]').hasAttribute('data-variation')`) {
		t.Fatal("a main-line stone is marked as a variation")
	}
	alice.do("choose the triangle", chromedpClick(`input[name="tool"][value="triangle"]`))
	alice.play("E5")
	bob.waitFor("the triangle", `document.querySelector('[data-mark="triangle"]') !== null`)
	alice.do("write a comment", chromedpSetValue(`[data-comment-text]`, "G3 keeps it simple"))
	alice.click(`[data-action="comment"]`)
	bob.waitFor("the comment", `document.querySelector('[data-comment]').textContent === 'G3 keeps it simple'`)
	alice.screenshot("../../docs/review.png")

	// A follower clicking the board changes nothing; detached, bob looks
	// around on his own while alice moves on; following again, he is back
	// at her position.
	bob.click(`[data-point="A1"]`)
	bob.do("detach", chromedpClick(`[data-action="detach"]`))
	bob.click(`[data-action="first"]`)
	bob.waitMove(0)
	alice.click(`[data-action="back"]`)
	alice.waitMove(1)
	if bob.moveNumber() != "0" {
		t.Fatalf("a detached follower was moved to %s", bob.moveNumber())
	}
	bob.click(`[data-action="follow"]`)
	bob.waitMove(1)

	// Control handed to bob: he moves, alice follows; she takes it back.
	alice.do("choose bob", chromedpSetValue(`[data-give-to]`, "console:bob"))
	alice.click(`[data-action="give"]`)
	bob.waitRole("controller")
	alice.waitRole("follower")
	alice.waitFor("bob in control", `document.querySelector('[data-controller]').textContent === 'bob'`)
	bob.click(`[data-action="last"]`)
	alice.waitMove(5)
	alice.click(`[data-action="take"]`)
	alice.waitRole("controller")
	bob.waitRole("follower")

	// The controller leaving hands control to the longest-present one.
	alice.do("leave", chromedpNavigate("about:blank"))
	bob.waitRole("controller")

	// The end: the SGF posted to the room holds the variation and its comment.
	r := h.cmd("bob", "review", "end")
	if r.Error || r.File == nil {
		t.Fatalf("review end: %+v", r)
	}
	recs, err := game.ReadSGF(r.File.Data)
	if err != nil {
		t.Fatalf("the posted SGF: %v\n%s", err, r.File.Data)
	}
	tree, err := game.TreeFromSGF(recs[0].Root)
	if err != nil {
		t.Fatal(err)
	}
	if recs[0].MoveCount() != 5 || len(tree.Nodes[1].Children) != 2 {
		t.Fatalf("the SGF has no variation at move 2:\n%s", r.File.Data)
	}
	v := tree.Nodes[tree.Nodes[1].Children[1]]
	if v.Comment != "G3 keeps it simple" || len(v.Marks) != 1 || v.Marks[0].Shape != game.Triangle {
		t.Fatalf("the variation's comment and mark: %+v\n%s", v, r.File.Data)
	}
	bob.waitFor("the closed review", `document.body.dataset.closed === 'yes'`)
	if !strings.Contains(string(r.File.Data), "C[G3 keeps it simple]") {
		t.Fatalf("no comment in\n%s", r.File.Data)
	}
}

func chromedpClick(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Click(chromedp.CSS(sel))
}
func chromedpSetValue(sel, v string) chromedp.Action[chromedp.Void] {
	return chromedp.SetValue(chromedp.CSS(sel), v)
}
func chromedpNavigate(u string) chromedp.Action[chromedp.Void] { return chromedp.Navigate(u) }

// TestBrowserReviewInfo: a review's header shows its game: the players
// with their ranks, the result, komi, rules and date, at desktop width
// and on a phone, and again after a move.
func TestBrowserReviewInfo(t *testing.T) {
	h := newHarness(t)
	gid := h.finishedGame()
	browser := startBrowser(t)
	alice := newTab(t, h, browser, "alice")
	alice.open(h.startReview("alice", fmt.Sprintf("#%d", gid)))
	info := func() string {
		return eval[string](alice, `document.querySelector('[data-game-info]').innerText.replace(/\s+/g, " ").trim()`)
	}
	want := regexp.MustCompile(`^alice 6k\? \(Black\) – bob 6k\? \(White\) Black wins by resignation \(B\+R\) komi 6\.5 (?i:japanese) rules 2026-11-25$`)
	if got := info(); !want.MatchString(got) {
		t.Errorf("the header reads %q", got)
	}
	alice.screenshot("../../docs/review-info.png")
	alice.click(`[data-action="last"]`)
	alice.waitMove(5)
	if got := info(); !want.MatchString(got) {
		t.Errorf("after a move the header reads %q", got)
	}
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	if got := eval[string](alice, `(() => { const r = document.querySelector('[data-game-info]').getBoundingClientRect(); return r.right <= innerWidth + 0.5 && r.height < 80 ? "ok" : JSON.stringify([r.right, r.height]); })()`); got != "ok" {
		t.Errorf("on a phone the header does not fit: %s", got)
	}
	alice.screenshot("../../docs/review-info-phone.png")
}

// TestBrowserReviewConfirmTap: on a phone the review's board asks a tap
// to be confirmed as a game's does (tap.js): a tap puts a ghost stone of
// the colour to play and a "Play" button in a place kept for it, which
// moves none of the review's buttons; only the button plays the
// variation. At desktop width a click plays at once.
func TestBrowserReviewConfirmTap(t *testing.T) {
	h := newHarness(t)
	gid := h.finishedGame()
	browser := startBrowser(t)
	alice := newTab(t, h, browser, "alice")
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.open(h.startReview("alice", fmt.Sprintf("#%d", gid)))
	alice.waitRole("controller")
	alice.click(`[data-action="forward"]`)
	alice.waitMove(1)
	boxes := func() string {
		return eval[string](alice, `["first", "back", "forward", "last"].map((a) => { const r = document.querySelector('[data-action="' + a + '"]').getBoundingClientRect();
			return a + " " + [r.x, r.y].map(Math.round).join(","); }).join("; ")`)
	}
	before, v := boxes(), h.storedReview(1).Version
	alice.tap("G3")
	if got := alice.pending(); got != `#w G3 / G3 "Play G3"` {
		t.Fatalf("a tap on G3: %s", got)
	}
	if got := boxes(); got != before {
		t.Errorf("the Play button moved the review's buttons:\nbefore %s\n after %s", before, got)
	}
	alice.tap("D4") // another tap moves the ghost
	if got := alice.pending(); got != `#w D4 / D4 "Play D4"` {
		t.Fatalf("a second tap, on D4: %s", got)
	}
	if h.storedReview(1).Version != v || alice.stone("D4") != "" {
		t.Fatal("a tap played the variation without the button")
	}
	alice.screenshot("../../docs/review-phone-play.png")
	alice.h.now.Advance(1e9)
	alice.do("Play D4", chromedp.Tap(chromedp.CSS(`[data-action="submit"]`)))
	alice.waitStone("D4", "white")
	alice.waitMove(2)
	if got := alice.pending(); got != "no ghost / no button" {
		t.Errorf("after playing: %s", got)
	}

	// At desktop width a click plays the stone at once.
	alice.do("desktop", chromedp.EmulateViewport(1000, 1000))
	alice.play("F4")
	alice.waitStone("F4", "black")
	if got := alice.pending(); got != "no ghost / no button" {
		t.Errorf("a desktop click left %s", got)
	}
}

// TestBrowserReviewTree: at a branch the board letters each
// variation's next stone (A the main line's, B, C…), and the move list
// shows the main line with the variations under the move they replace;
// the controller goes to a node by clicking it, or to the variation
// beside with the Up and Down keys, and the follower's board and list
// follow; a follower clicking the list looks around on their own.
func TestBrowserReviewTree(t *testing.T) {
	h := newHarness(t)
	gid := h.finishedGame() // E5 C3 G7 C7 G3
	browser := startBrowser(t)
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.startReview("alice", fmt.Sprintf("#%d", gid)))
	alice.waitRole("controller")
	bob.open(h.reviewLink(1, "bob"))
	bob.waitRole("follower")
	alice.click(`[data-action="forward"]`)
	alice.waitMove(1)
	alice.play("G3") // White's move 2, a variation
	bob.waitFor("the variation", `document.querySelector('[data-point="G3"]').hasAttribute('data-variation')`)
	alice.click(`[data-action="back"]`)
	bob.waitMove(1)
	next := func(b *tab) string {
		return eval[string](b, `[...document.querySelectorAll('[data-next]')].map((e) => e.dataset.next + " " + [...document.querySelectorAll('[data-point]')].find((p) => p.getAttribute('aria-label').endsWith('next move ' + e.dataset.next)).dataset.point).join(", ")`)
	}
	for _, b := range []*tab{alice, bob} {
		if got := next(b); got != "A C3, B G3" {
			t.Errorf("%s: the next moves at the branch read %q, want A C3, B G3", b.name, got)
		}
	}
	list := func(b *tab) string {
		return eval[string](b, `[...document.querySelectorAll('[data-tree] button')].map((e) => (e.hasAttribute('aria-current') ? '*' : '') + e.textContent).join(" | ")`)
	}
	const want = "Start | *1 B E5 | A) 2 W C3 | B) 2 W G3 | 3 B G7 | 4 W C7 | 5 B G3"
	for _, b := range []*tab{alice, bob} {
		b.waitFor("the move list", `document.querySelectorAll('[data-tree] button').length === 7`)
		if got := list(b); got != want {
			t.Errorf("%s: the move list reads %q", b.name, got)
		}
	}
	if got := eval[string](bob, `document.querySelector('[data-tree] [aria-current]').getAttribute('aria-label')`); got != "Move 1, Black E5" {
		t.Errorf("bob's list marks %q as shown", got)
	}
	alice.screenshot("../../docs/review-tree.png")

	// The controller clicks the variation in the list; bob follows.
	alice.click(`[data-tree] button.var`)
	bob.waitFor("the variation shown", `document.querySelector('[data-tree] [aria-current]').getAttribute('aria-label') === 'Move 2, White G3, variation B'`)
	bob.waitStone("G3", "white")
	bob.waitStone("C3", "")
	// Up: the variation before it, the main line's C3.
	alice.do("ArrowUp", chromedp.KeyEvent(kb.ArrowUp))
	bob.waitStone("C3", "white")
	bob.waitStone("G3", "")
	if got := eval[string](bob, `document.querySelector('[data-tree] [aria-current]').getAttribute('aria-label')`); got != "Move 2, White C3, variation A" {
		t.Errorf("after Up bob's list marks %q", got)
	}
	alice.do("ArrowDown", chromedp.KeyEvent(kb.ArrowDown))
	bob.waitStone("G3", "white")

	// A follower's click on the list looks around, alone.
	bob.click(`[data-tree] button[data-node="0"]`)
	bob.waitMove(0)
	if f := eval[string](bob, `document.body.dataset.following`); f != "off" {
		t.Errorf("bob's click on the list left following %q", f)
	}
	if alice.moveNumber() != "2" {
		t.Errorf("bob's click moved alice to %s", alice.moveNumber())
	}
	alice.do("phone", chromedp.EmulateViewport(360, 740, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	alice.screenshot("../../docs/review-tree-phone.png")
}
