package chat

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// ladder returns the stored ladder id.
func (h *harness) ladder(id gobot.LadderID) *gobot.Ladder {
	h.t.Helper()
	var l *gobot.Ladder
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		l, err = tx.Ladder(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return l
}

// Issue 45, item 7: a ladder's bad options and the organiser's commands
// are refused with short words, and change nothing.
func TestLadderRefusals(t *testing.T) {
	h := newHarness(t)
	h.ok("carol", `ladder new "Room ladder" challenge=2 forfeit=1d`)
	h.ok("alice", "ladder join")
	h.ok("bob", "ladder join")
	for _, tc := range []struct{ user, line, want string }{
		{"alice", "ladder close", "Only Room ladder (L1)'s organiser and the room's admins"},
		{"alice", "ladder leave @bob", "Only Room ladder (L1)'s organiser"},
		{"alice", "ladder join", "You are on the ladder already, on rung 1."},
		{"alice", "ladder show page=0", "pages are numbered from 1"},
		{"alice", "ladder show page=2", "page 2 is past the end"},
		{"alice", "ladder show banana", `"banana" is not something`},
		{"alice", "ladder @bob", "names no player; to challenge"},
		{"alice", "ladder join @bob", "names no player"},
		{"alice", "ladder show L9", "There is no such ladder in this room"},
		{"alice", "ladder show L0", `"L0" is no ladder number`},
		{"bob", "ladder challenge @carol", "is not on the ladder"},
		{"carol", `ladder new "X" challenge=0`, "challenge=0: how many places above"},
		{"carol", `ladder new "X" forfeit=10s`, "forfeit=10s: how long a challenge may go unanswered"},
		{"carol", `ladder new "X" banana`, `"banana" is not a ladder option`},
		{"carol", `ladder new "X" rated=maybe`, "rated=maybe: say rated=yes or rated=no"},
		{"carol", `ladder new "X" size=9x13`, "A ladder's board is square"},
		{"carol", `ladder new challenge=2`, "A ladder needs a name"},
		{"carol", `ladder new "` + strings.Repeat("x", 200) + `"`, "A ladder's name is at most 100 bytes"},
	} {
		rep := h.refuses(tc.user, tc.line, tc.want)
		if len(rep.Text) >= 300 {
			t.Errorf("%q: a refusal of %d bytes", tc.line, len(rep.Text))
		}
	}
	// Two ladders: a bare command names one.
	h.ok("carol", `ladder new "Blitz ladder" clock=byoyomi:5m+3x30s`)
	h.refuses("alice", "ladder join", "There are several ladders here (L1, L2)")
	h.ok("dave", "ladder join L2")
	if l := h.ladder(2); len(l.Rungs) != 1 || l.Rungs[0] != "test:dave" {
		t.Errorf("L2's rungs: %v", l.Rungs)
	}
}

// Issue 45, item 7: a challenge whose game a vacation stops at its
// deadline forfeits nobody (the deadline moves on); once the clock runs
// again, the defender who never answered forfeits, announced once.
func TestLadderForfeitWaitsForVacationAndIsAnnouncedOnce(t *testing.T) {
	h := newHarness(t)
	h.ok("carol", `ladder new "Room ladder" challenge=2 forfeit=1d clock=5d`)
	h.ok("alice", "ladder join")
	h.ok("bob", "ladder join")
	h.ok("bob", "ladder challenge @alice")
	h.ok("bob", "play E5")
	h.ok("alice", "vacation on")
	h.tick(25 * time.Hour)
	if n := h.notesSaying("forfeit"); n != 0 {
		t.Fatalf("%d forfeits announced while the game's clock stood", n)
	}
	l := h.ladder(1)
	if len(l.Challenges) != 1 || !l.Challenges[0].Deadline.After(h.clock.Now()) || !l.Due.Equal(l.Challenges[0].Deadline) {
		t.Fatalf("the deadline did not move on: %+v, due %v (now %v)", l.Challenges, l.Due, h.clock.Now())
	}
	h.ok("alice", "vacation off")
	h.tick(25 * time.Hour)
	h.tick(25 * time.Hour)
	if n := h.notesSaying("did not answer the challenge on Room ladder (L1) in time"); n != 1 {
		t.Fatalf("the forfeit was announced %d times", n)
	}
	l = h.ladder(1)
	if len(l.Challenges) != 0 || !l.Due.IsZero() || fmt.Sprint(l.Rungs) != "[test:bob test:alice]" {
		t.Fatalf("after the forfeit: rungs %v, challenges %+v, due %v", l.Rungs, l.Challenges, l.Due)
	}
	if r := l.Log[len(l.Log)-1]; !r.Forfeit || r.Winner != "test:bob" || r.Game != 1 {
		t.Errorf("logged %+v", r)
	}
	if m, _ := h.game(1); m.Active() || m.Result != "B+T" {
		t.Errorf("game #1: active %v, result %q", m.Active(), m.Result)
	}
}

// Issue 45, item 7: a game of a ladder that ends without result (a jigo
// counts as a win for nobody, an abort) moves nobody and closes the
// challenge.
func TestLadderGameAbortedMovesNobody(t *testing.T) {
	h := newHarness(t)
	h.admins = map[string]bool{"carol": true}
	h.ok("carol", `ladder new "Room ladder"`)
	h.ok("alice", "ladder join")
	h.ok("bob", "ladder join")
	h.ok("bob", "ladder challenge @alice")
	rep := h.ok("carol", "abort #1")
	if !strings.Contains(rep.Text, "The challenge on Room ladder (L1) ended without result: nothing moved.") {
		t.Errorf("the abort's reply:\n%s", rep.Text)
	}
	l := h.ladder(1)
	if len(l.Challenges) != 0 || l.Rungs[0] != "test:alice" || len(l.Log) != 1 || l.Log[0].Winner != "" {
		t.Errorf("after the abort: %+v", l)
	}
	h.ok("bob", "ladder challenge @alice") // the challenge is closed: a new one is taken
}
