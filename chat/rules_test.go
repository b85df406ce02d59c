package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// The rules command takes each preset's source and komi from game's
// presets table.
func TestRulesFromPresetTable(t *testing.T) {
	h := newHarness(t)
	list := h.ok("alice", "rules").Text
	for _, p := range game.Presets() {
		if !strings.Contains(list, p.Name+" — from "+p.Source) {
			t.Errorf("rules list misses %s from %s:\n%s", p.Name, p.Source, list)
		}
		rep := h.ok("alice", "rules "+p.Name)
		if !strings.Contains(rep.Text, "From "+p.Source+".") {
			t.Errorf("rules %s: no source:\n%s", p.Name, rep.Text)
		}
		even := "Komi: " + game.FormatKomi(p.Komi.Even) + " points"
		if p.Komi.SmallLines > 0 {
			even = "Komi: " + game.FormatKomi(p.Komi.SmallEven) + " points to White in an even game on boards up to "
		}
		if !strings.Contains(rep.Text, even) || !strings.Contains(rep.Text, game.FormatKomi(p.Komi.Handicap)+" in a handicap game") {
			t.Errorf("rules %s: komi not from the table (%+v):\n%s", p.Name, p.Komi, rep.Text)
		}
	}
	for line, want := range map[string]string{
		"rules complete":            "6.5 points to White in an even game on boards up to 11×11, 5.5 on larger ones, 0.5 in a handicap game.",
		"rules bga":                 "Komi: 7 points to White in an even game, 0 in a handicap game (one stone too).",
		"rules japanese komi=0":     "Komi: 0 points to White in an even game, 0.5 in a handicap game.",
		"rules ko=simple komi=-2.5": "Komi: -2.5 points to White in an even game, 0.5 in a handicap game.",
	} {
		if rep := h.ok("alice", line); !strings.Contains(rep.Text, want) {
			t.Errorf("%s: want %q in\n%s", line, want, rep.Text)
		}
	}
	if rep := h.ok("alice", "rules ko=simple"); strings.Contains(rep.Text, "From ") {
		t.Errorf("a custom ruleset has no source:\n%s", rep.Text)
	}
}

// A ruleset's komi (game.ParseRules reads any a record may carry) must
// still be a multiple of 0.5 in a challenge or a room setting.
func TestRulesKomiInChallenge(t *testing.T) {
	h := newHarness(t)
	h.fails("alice", "challenge @bob rules=ko=simple,komi=2.75", "multiple of 0.5")
	r := Request{User: User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true, Command: "settings", Args: []string{"room", "rules=ko=simple,komi=6.3"}}
	if rep := h.bot.Handle(context.Background(), r); !rep.Error || !strings.Contains(rep.Text, "multiple of 0.5") {
		t.Errorf("room rules with komi 6.3: %s", rep.Text)
	}
	h.ok("alice", "challenge @bob rules=ko=simple,komi=2.5")
}
