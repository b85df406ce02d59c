package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/chat/protocol"
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
	if rep := h.ok("alice", "rules custom ko=simple"); strings.Contains(rep.Text, "From ") {
		t.Errorf("a custom ruleset has no source:\n%s", rep.Text)
	}
}

// A ruleset's komi (game.ParseRules reads any a record may carry) must
// still be a multiple of 0.5 in a challenge or a room setting.
func TestRulesKomiInChallenge(t *testing.T) {
	h := newHarness(t)
	h.fails("alice", "challenge @bob rules=ko=simple,komi=2.75", "multiple of 0.5")
	r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true, Command: "settings", Args: []string{"room", "rules=ko=simple,komi=6.3"}}
	if rep := h.bot.Handle(context.Background(), r); !rep.Error || !strings.Contains(rep.Text, "multiple of 0.5") {
		t.Errorf("room rules with komi 6.3: %s", rep.Text)
	}
	h.ok("alice", "challenge @bob rules=ko=simple,komi=2.5")
}

// Issue 24, item 5: options alone mean the same in the rules command as
// in a challenge: they change the room's ruleset. The rules command
// explains the ruleset, with its komi for a 19x19 even game, that a
// challenge with those options makes.
func TestRulesOptionsAloneAsInChallenge(t *testing.T) {
	h := newHarness(t) // the bot's rules: japanese
	h.admins = map[string]bool{"alice": true}
	rep := h.ok("alice", "rules scoring=territory")
	if rep.Title != "Rules: japanese" || !strings.Contains(rep.Text, "this room's ruleset, japanese") || strings.Contains(rep.Text, "superko") {
		t.Fatalf("rules scoring=territory in a japanese room:\n%s\n%s", rep.Title, rep.Text)
	}
	for _, room := range []string{"", "chinese", "aga", "japanese ko=positional", "new-zealand"} {
		if room != "" {
			h.ok("alice", "settings room rules="+room)
		}
		for _, opts := range []string{"scoring=territory", "scoring=area", "ko=simple", "ko=situational suicide=allowed", "passstones=on"} {
			rep := h.ok("alice", "rules "+opts)
			ch := h.ok("alice", "challenge @carol 19 "+opts)
			// "19x19, japanese rules, komi 6.5, …"
			desc := ch.Text[strings.Index(ch.Text, "19x19, ")+len("19x19, "):]
			name, rest, _ := strings.Cut(desc, " rules, komi ")
			komi := strings.TrimRight(strings.Fields(rest)[0], ".,")
			if rep.Title != "Rules: "+name {
				t.Errorf("room %q, %s: rules explains %q, the challenge makes %q", room, opts, rep.Title, name)
			}
			if !strings.Contains(rep.Text, " "+komi+" points to White in an even game") && !strings.Contains(rep.Text, ", "+komi+" on larger ones") {
				t.Errorf("room %q, %s: the challenge's komi is %s; rules says:\n%s", room, opts, komi, rep.Text)
			}
			h.ok("alice", "cancel "+strings.TrimPrefix(ch.Title, "Challenge "))
		}
	}
}
