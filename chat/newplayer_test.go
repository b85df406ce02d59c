package chat

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// What a new player meets (issue 24): the words and buttons a finished,
// handicap or engine game shows.

// A drawn game reads as a draw, not "a draw (jigo) (0)".
func TestDrawReadsPlainly(t *testing.T) {
	h := newHarness(t)
	h.start("5 chinese komi=0")
	h.ok("alice", "pass")
	h.ok("bob", "pass")
	h.ok("alice", "done")
	rep := h.ok("bob", "done")
	if !strings.Contains(rep.Text, "Game over: a draw (jigo).") || strings.Contains(rep.Text, "(0)") {
		t.Fatalf("draw: %s", rep.Text)
	}
	rep = h.fails("alice", "play C3 #1", "Game #1 is over")
	if strings.Contains(rep.Text, "(0)") || !strings.Contains(rep.Text, "a draw") {
		t.Fatalf("play after a draw: %s", rep.Text)
	}
}

// An engine never takes a move back, so its games offer no Undo button;
// a game between people does.
func TestEngineGameHasNoUndoButton(t *testing.T) {
	hasUndo := func(rep protocol.Reply) bool {
		for _, a := range rep.Actions {
			if a.Label == "Undo" {
				return true
			}
		}
		return false
	}
	h := newHarness(t)
	h.bot.SetEngines(&passEngine{}, "", "")
	defer h.bot.StopEngines()
	h.ok("alice", "challenge engine=passer level=1 9 black")
	rep := h.ok("alice", "play D4")
	h.bot.WaitEngines()
	if hasUndo(rep) || hasUndo(h.ok("alice", "board")) {
		t.Fatalf("engine game offers Undo: %+v", rep.Actions)
	}
	people := newHarness(t)
	people.start("9")
	if !hasUndo(people.ok("alice", "play D4")) {
		t.Fatal("a game between people lost its Undo button")
	}
}

// Under new-zealand (white-passes placement) White's automatic passes are
// announced, the stone Black placed carries the last-move marker, and the
// moves are numbered as Black places them: the first stone is move 1.
func TestWhitePassesHandicapIsAnnounced(t *testing.T) {
	h := newHarness(t)
	h.start("9 new-zealand handicap=3")
	rep := h.ok("alice", "play D4")
	if !strings.Contains(rep.Text, "<@test:bob> (White) passes") || !strings.Contains(rep.Text, "2 handicap stones to place") {
		t.Fatalf("first handicap stone: %s", rep.Text)
	}
	if rep.Title != "Game #1 · move 1" {
		t.Fatalf("title %q, want move 1", rep.Title)
	}
	_, g := h.game(1)
	if m, ok := g.LastMove(); !ok || m.Point.GTP(9) != "D4" {
		t.Fatalf("last move %v, want Black's D4", m)
	}
	h.ok("alice", "play F6")
	rep = h.ok("alice", "play C7")
	if strings.Contains(rep.Text, "passes") || rep.Title != "Game #1 · move 3" {
		t.Fatalf("last handicap stone: %s / %s", rep.Title, rep.Text)
	}
	if rep := h.ok("bob", "play E5"); rep.Title != "Game #1 · move 4" {
		t.Fatalf("White's first move is %q, want move 4", rep.Title)
	}
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "move 4") {
		t.Fatalf("games: %s", rep.Text)
	}
	// Black takes back a handicap stone: the stone goes, with White's pass.
	h.ok("bob", "undo")
	h.ok("alice", "undo")
	h.ok("alice", "undo")
	h.ok("bob", "undo")
	_, g = h.game(1)
	c7, _ := game.ParsePoint("C7", 9, 9)
	if g.At(c7) != game.Empty || g.ToMove() != game.Black || g.HandicapLeft() != 1 {
		t.Fatalf("after undoing the last handicap stone: C7 %v, to move %v, %d left", g.At(c7), g.ToMove(), g.HandicapLeft())
	}
}

// games says who must act in a game being scored.
func TestGamesSaysWhoActsInScoring(t *testing.T) {
	h := newHarness(t)
	h.start("5")
	h.ok("alice", "play C3")
	h.ok("bob", "pass")
	h.ok("alice", "pass")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "scoring: mark dead stones, then <cmd:done:cmd> to accept (neither has accepted yet)") {
		t.Fatalf("games in scoring: %s", rep.Text)
	}
	h.ok("bob", "done")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "scoring: <@test:bob> accepted; check the dead stones, then <cmd:done:cmd> to accept") {
		t.Fatalf("games after bob accepted, for alice: %s", rep.Text)
	}
	if rep := h.ok("bob", "games"); !strings.Contains(rep.Text, "scoring: you accepted; waiting for <@test:alice> to accept") {
		t.Fatalf("games after bob accepted, for bob: %s", rep.Text)
	}
}

// A board image is named by what it shows: a replayed move number or
// another theme gets another name, the same picture the same name.
func TestBoardImageNamedByContent(t *testing.T) {
	h := newHarness(t)
	h.bot.render = benchRenderer // the real one: themes differ
	h.start("9")
	first := h.ok("alice", "play D4").Image
	h.ok("alice", "undo")
	h.ok("bob", "undo")
	second := h.ok("alice", "play E5").Image
	if first == nil || second == nil {
		t.Fatal("no image")
	}
	if first.Name == second.Name {
		t.Fatalf("two positions at move 1 share the name %s", first.Name)
	}
	if !strings.HasPrefix(first.Name, "game-1-move-1-") || !strings.HasSuffix(first.Name, ".png") {
		t.Fatalf("name %q", first.Name)
	}
	match, g := h.game(1)
	wood, dark := h.bot.drawer().Board(g, match.ID, "wood", nil), h.bot.drawer().Board(g, match.ID, "dark", nil)
	if wood.Name == dark.Name {
		t.Fatalf("two themes share the name %s", wood.Name)
	}
	if again := h.bot.drawer().Board(g, match.ID, "wood", nil); again.Name != wood.Name {
		t.Fatalf("the same picture is named %s and %s", again.Name, wood.Name)
	}
}
