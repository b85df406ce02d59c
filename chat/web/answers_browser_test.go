package web

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot/chat/say"
)

// button says what the action button a shows: its text, and whether it
// is shown and enabled ("Done shown enabled").
func (b *tab) button(a string) string {
	b.t.Helper()
	return eval[string](b, `(() => { const e = document.querySelector('[data-action="`+a+`"]');
		return e ? e.textContent + (e.hidden || e.offsetParent === null ? " hidden" : " shown") + (e.disabled ? " disabled" : " enabled") : "none"; })()`)
}

// TestBrowserScoringAccepted: in the scoring, both boards say who has
// accepted the count (as OGS does), the accepting side's Done becomes
// "Waiting for alice" and does nothing, and a change of the dead
// stones says whose acceptance it withdrew, as chat does, and gives
// the Done back.
func TestBrowserScoringAccepted(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	for i, p := range []string{"E5", "J9", "pass", "pass"} {
		u := map[bool]string{true: "alice", false: "bob"}[i%2 == 0]
		cmd, args := "play", []string{p}
		if p == "pass" {
			cmd, args = "pass", nil
		}
		if r := h.cmd(u, cmd, args...); r.Error {
			t.Fatal(r.Text)
		}
	}
	alice, bob := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	for _, b := range []*tab{alice, bob} {
		b.waitStatus("^Scoring: click the dead stones, then Done.$")
		if got := b.button("done"); got != "Done shown enabled" {
			t.Errorf("%s: before anyone accepts, Done is %q", b.name, got)
		}
	}

	bob.click(`[data-action="done"]`)
	for _, b := range []*tab{alice, bob} {
		b.waitStatus("^Scoring: bob has accepted — accept or change the marks.$")
	}
	if got := bob.button("done"); got != "Waiting for alice shown disabled" {
		t.Errorf("bob's Done after he accepted: %q", got)
	}
	if got := alice.button("done"); got != "Done shown enabled" {
		t.Errorf("alice's Done after bob accepted: %q", got)
	}
	bob.click(`[data-action="done"]`) // disabled: nothing is sent
	if msg := bob.message(); msg != "" {
		t.Errorf("the disabled Done answered %q", msg)
	}
	bob.screenshot("../../docs/web-board-accepted.png")

	// alice changes the marks: bob's acceptance is withdrawn, on both
	// boards and in the room.
	alice.play("J9")
	for _, b := range []*tab{alice, bob} {
		b.waitStatus("^Scoring: the marks changed — bob's acceptance is withdrawn; click the dead stones, then Done.$")
	}
	bob.waitFor("bob's Done back", `!document.querySelector('[data-action="done"]').disabled`)
	if got := bob.button("done"); got != "Done shown enabled" {
		t.Errorf("bob's Done after the withdrawal: %q", got)
	}
	if room := strings.Join(h.console.texts(), "\n"); !strings.Contains(room, "so @bob's acceptance is withdrawn") {
		t.Errorf("the room was not told of the withdrawal:\n%s", room)
	}
	// A reload reads it from the game.
	bob.open(h.link(id, "bob", false))
	bob.waitStatus("bob's acceptance is withdrawn")

	// Both accept: the game ends.
	alice.click(`[data-action="done"]`)
	bob.waitStatus("^Scoring: alice has accepted")
	bob.click(`[data-action="done"]`)
	for _, b := range []*tab{alice, bob} {
		b.waitStatus(`^(Black|White) wins by`)
	}
}

// TestBrowserUndoRefused: the web board answers an undo request with
// chat's words (say.AllowUndo, say.RefuseUndo), and a refusal is shown
// to the player who asked, on their board only, until the next move.
func TestBrowserUndoRefused(t *testing.T) {
	browser := startBrowser(t)
	h := newHarness(t)
	id := h.newGame()
	alice, bob, carol := newTab(t, h, browser, "alice"), newTab(t, h, browser, "bob"), newTab(t, h, browser, "carol")
	alice.open(h.link(id, "alice", false))
	bob.open(h.link(id, "bob", false))
	carol.open(h.link(id, "carol", true))
	alice.play("E5")
	bob.waitStone("E5", "black")
	bob.play("C3")
	alice.waitStone("C3", "white")
	bob.click(`[data-action="undo"]`)
	alice.waitFor("the undo request", `!document.querySelector('[data-action="decline"]').hidden`)
	if got, want := alice.button("undo"), say.AllowUndo+" shown enabled"; got != want {
		t.Errorf("alice's undo answer reads %q, want %q", got, want)
	}
	if got, want := alice.button("decline"), say.RefuseUndo+" shown enabled"; got != want {
		t.Errorf("alice's refusal reads %q, want %q", got, want)
	}
	refused := `(() => { const e = document.querySelector('[data-refused]'); return e && e.offsetParent !== null ? e.textContent : ''; })()`
	alice.click(`[data-action="decline"]`)
	bob.waitFor("the refusal shown to bob", refused+` === 'alice refused your undo; the game goes on.'`)
	alice.waitFor("the request gone", `document.querySelector('[data-action="decline"]').hidden`)
	carol.waitFor("the request gone", `document.querySelector('.undo') === null || document.querySelector('[data-refused]') !== null`)
	for _, b := range []*tab{alice, carol} {
		if got := eval[string](b, refused); got != "" {
			t.Errorf("%s is shown bob's refusal: %q", b.name, got)
		}
	}
	bob.screenshot("../../docs/web-board-undo-refused.png")
	// A reload still shows it; the next move ends it.
	bob.open(h.link(id, "bob", false))
	if got := eval[string](bob, refused); got != "alice refused your undo; the game goes on." {
		t.Errorf("after a reload bob sees %q", got)
	}
	alice.play("G7")
	bob.waitStone("G7", "black")
	bob.waitFor("the refusal gone", refused+` === ''`)
}
