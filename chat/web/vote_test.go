package web

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gobotgo/gobot"
)

// newVoteGame starts a 9x9 vote game in the console room: the room
// plays Black by vote (a window of 10 s) against bob.
func (h *harness) newVoteGame() gobot.GameID {
	h.t.Helper()
	if r := h.cmd("alice", "challenge", "@console:bob", "9", "vote=10s", "black"); r.Error {
		h.t.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error || r.Game == 0 {
		h.t.Fatalf("accept: %+v", r)
	}
	return r.Game
}

// ballots are game id's votes this turn, "carol E5".
func (h *harness) ballots(id gobot.GameID) []string {
	h.t.Helper()
	var out []string
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if err != nil {
			return err
		}
		for _, b := range m.Vote.Ballots {
			out = append(out, b.By.Local()+" "+b.Move)
		}
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	return out
}

// A room member's board in a vote game is a voter's: a click on a point
// is their vote for it, Pass is a vote to pass; the room's opponent
// plays as in any game; a watcher of another game still only watches.
func TestVoteClicks(t *testing.T) {
	h := newHarness(t)
	id := h.newVoteGame()
	carol := h.browser()
	page := carol.open(h.link(id, "carol", true), id) // a watch link, asked for in the room
	for _, want := range []string{`data-role="voter"`, `data-action="pass"`, "voting for the room", "The room votes: “vote &lt;point&gt;”"} {
		if !strings.Contains(page, want) {
			t.Errorf("the voter's page lacks %q", want)
		}
	}
	if code, msg := carol.post("play", "E5", "vote-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("carol's vote: %d %q", code, msg)
	}
	if got := h.ballots(id); len(got) != 1 || got[0] != "carol E5" {
		t.Fatalf("the ballots after carol's click: %q", got)
	}
	_, page = carol.get(h.ts.URL + gamePath(id))
	for _, want := range []string{"Votes: E5 (1 vote); the window closes in 10s", `data-votes="1"`, "E5, empty, 1 vote"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page after the vote lacks %q", want)
		}
	}
	dave := h.browser()
	dave.open(h.link(id, "dave", true), id)
	if code, msg := dave.post("pass", "", "vote-pass-0001"); code != 200 || msg != "" {
		t.Fatalf("dave's pass: %d %q", code, msg)
	}
	if got := h.ballots(id); len(got) != 2 || got[1] != "dave pass" {
		t.Fatalf("the ballots after dave's Pass: %q", got)
	}
	// The opponent's board is a player's: a click out of turn is chat's refusal.
	bob := h.browser()
	bob.open(h.link(id, "bob", false), id)
	if _, msg := bob.post("play", "C3", "bob-c3-0001"); msg == "" {
		t.Error("bob played in the room's turn")
	}
	// The window closes: the room's move is played, and the voters' next
	// click waits for bob's move, in chat's words.
	h.now.Advance(11 * time.Second)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, page = carol.get(h.ts.URL + gamePath(id))
	if !strings.Contains(page, `data-point="E5" data-stone="black"`) || !strings.Contains(page, "White to play (bob)") {
		t.Fatalf("after the window: the page lacks the room's move E5 and bob's turn")
	}
	if _, msg := carol.post("play", "D4", "vote-d4-0001"); !strings.Contains(msg, "It's bob's turn in game #1; the room votes again after that move.") {
		t.Errorf("a vote in bob's turn: %q", msg)
	}
	// Undo is no voter's: refused as chat refuses it.
	if _, msg := carol.post("undo", "", "vote-undo-001"); !strings.Contains(msg, "Vote games have no undo") {
		t.Errorf("a voter's undo: %q", msg)
	}
	// A watcher of a game that is not a vote game still only watches.
	other := h.newGame()
	w := h.browser()
	w.open(h.link(other, "carol", true), other)
	if code, _ := w.post("play", "E5", "watch-e5-0001"); code != http.StatusForbidden {
		t.Errorf("a watcher of a plain game acted: %d", code)
	}
}

// roomMembers is a platform's room membership: who is in the room now.
type roomMembers struct {
	mu    sync.Mutex
	in    map[gobot.UserID]bool
	err   error
	asked int
}

func (m *roomMembers) InRoom(_ context.Context, _ gobot.RoomID, u gobot.UserID) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.asked++
	return m.in[u], m.err
}

func (m *roomMembers) set(u gobot.UserID, in bool, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.in[u], m.err = in, err
}

// TestVoteNeedsMembership: a room member votes on the board; once
// removed from the room, their next click (through the same watch
// link's session) is refused in words and counts nothing; a room that
// cannot be asked refuses too, changing nothing; the opponent's moves
// ask no one.
func TestVoteNeedsMembership(t *testing.T) {
	h := newHarness(t)
	members := &roomMembers{in: map[gobot.UserID]bool{"console:carol": true}}
	h.srv.cfg.Members = map[string]Members{"console": members}
	id := h.newVoteGame()
	carol := h.browser()
	carol.open(h.link(id, "carol", true), id)
	if code, msg := carol.post("play", "E5", "vote-e5-0001"); code != 200 || msg != "" {
		t.Fatalf("carol's vote as a member: %d %q", code, msg)
	}
	members.set("console:carol", false, nil)
	v := h.version(id)
	code, msg := carol.post("play", "D4", "vote-d4-0001")
	if want := fmt.Sprintf("You are no longer a member of game #%d's room, so you cannot vote in it; nothing was changed.", id); code != http.StatusForbidden || msg != want {
		t.Errorf("carol's vote after her removal: %d %q, want 403 %q", code, msg, want)
	}
	if code, _ := carol.post("pass", "", "vote-pass-0001"); code != http.StatusForbidden {
		t.Errorf("carol's pass after her removal: %d", code)
	}
	if got := h.ballots(id); len(got) != 1 || got[0] != "carol E5" {
		t.Errorf("the ballots after the refused votes: %q", got)
	}
	if h.version(id) != v {
		t.Error("a refused vote changed the game")
	}
	members.set("console:carol", true, fmt.Errorf("members: %w", gobot.ErrUnavailable))
	if code, msg := carol.post("play", "D4", "vote-d4-0002"); code != http.StatusServiceUnavailable || !strings.Contains(msg, "could not be checked just now; nothing was changed") {
		t.Errorf("a vote when the room cannot be asked: %d %q", code, msg)
	}
	members.set("console:carol", true, fmt.Errorf("members: %w", gobot.ErrNotFound))
	if code, msg := carol.post("play", "D4", "vote-d4-0003"); code != http.StatusForbidden || !strings.Contains(msg, "votes are taken in the room's chat only") {
		t.Errorf("a vote where the room cannot be seen: %d %q", code, msg)
	}
	if h.version(id) != v {
		t.Error("a vote refused unchecked changed the game")
	}
	// The window closes; the opponent plays from the board, asking no one.
	h.now.Advance(11 * time.Second)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	members.mu.Lock()
	asked := members.asked
	members.mu.Unlock()
	bob := h.browser()
	bob.open(h.link(id, "bob", false), id)
	if code, msg := bob.post("play", "C3", "bob-c3-0001"); code != 200 || msg != "" {
		t.Errorf("bob's move: %d %q", code, msg)
	}
	members.mu.Lock()
	defer members.mu.Unlock()
	if members.asked != asked {
		t.Error("the opponent's move asked the room's membership")
	}
}

// TestBrowserVote: in Chromium, a room member opens the vote game's
// board, clicks a point, the vote shows on the board with the tally,
// and when the window closes the move is played and shows.
func TestBrowserVote(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newVoteGame()
	carol := newTab(t, h, browser, "carol")
	carol.open(h.link(id, "carol", true))
	if role := eval[string](carol, `document.body.dataset.role`); role != "voter" {
		t.Fatalf("carol's role: %q", role)
	}
	if got := eval[string](carol, `[...document.querySelectorAll('#actions button[data-when]:not([hidden])')].map(b => b.textContent).join(",")`); got != "Vote pass,Vote resign" {
		t.Errorf("the voter's buttons: %q", got)
	}
	carol.play("E5")
	carol.waitFor("E5's vote on the board", `document.querySelector('[data-point="E5"]').dataset.votes === "1"`)
	carol.waitFor("the tally", `/Votes: E5 \(1 vote\)/.test(document.querySelector('[data-vote]').textContent)`)
	if msg := carol.message(); msg != "" {
		t.Errorf("the vote's message: %q", msg)
	}
	if got := h.ballots(id); len(got) != 1 || got[0] != "carol E5" {
		t.Fatalf("the ballots: %q", got)
	}
	carol.screenshot("../../docs/web-board-vote.png")
	shot(t, carol, "vote-desktop.png")
	// Resign asks first, as a vote.
	carol.click(`[data-action="resign"]`)
	if q := eval[string](carol, `document.querySelector('[data-question]').textContent`); q != "Vote to resign game #1 against bob?" {
		t.Errorf("the question: %q", q)
	}
	carol.click(`[data-action="cancel"]`)
	h.now.Advance(11 * time.Second)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	carol.waitStone("E5", "black")
	carol.waitStatus(`^White to play \(bob\)`)
	if n := eval[int](carol, `document.querySelectorAll('#actions button[data-when]:not([hidden])').length`); n != 0 {
		t.Errorf("in bob's turn the voter has %d buttons", n)
	}
	carol.do("narrow", chromedp.EmulateViewport(360, 800))
	shot(t, carol, "vote-360.png")
}

// shot writes the page's screenshot into GOBOT_SHOTS, when set (to look
// at a change; docs/*.png are written with -update only).
func shot(t *testing.T, b *tab, name string) {
	dir := os.Getenv("GOBOT_SHOTS")
	if dir == "" {
		return
	}
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, name), png, 0o644)
}
