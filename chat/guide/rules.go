package guide

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

// RulesList is what `rules` alone says: the rulesets, where each comes
// from, and how custom rules are written.
func RulesList() string {
	var sb strings.Builder
	sb.WriteString("Rulesets:")
	for _, p := range game.Presets() {
		fmt.Fprintf(&sb, "\n%s — from %s", p.Name, p.Source)
	}
	fmt.Fprintf(&sb, "\n%s explains one. Custom rules: ko=none|simple|positional|situational scoring=area|territory suicide=forbidden|allowed passstones=on|off bonus=0|n|n-1 komi=6.5 handicap=fixed|free|white-passes cycle=void|draw agreement=on|off, alone or after a ruleset (japanese komi=0).", say.Cmd("rules <name>"))
	return sb.String()
}

// maxRulesExplained bounds the rulesets `rules` explains at once.
const maxRulesExplained = 3

// EachRules explains each of the presets names in turn (rules japanese
// chinese), or refuses more than three.
func EachRules(names []string) (string, error) {
	if len(names) > maxRulesExplained {
		return "", say.Refusef("I explain at most three rulesets at a time; you named %d.", len(names))
	}
	var parts []string
	for _, name := range names {
		rules, _ := game.Preset(name)
		parts = append(parts, "== "+rules.Name+" ==\n"+AliasNote(name)+ExplainRules(rules, name))
	}
	return strings.Join(parts, "\n\n"), nil
}

// OptionsNote is what `rules` says before explaining options alone
// (spec, "ko=simple"), which apply to the room's ruleset base.
func OptionsNote(base, spec string) string {
	return fmt.Sprintf("This only explains; nothing was changed. Options alone apply to this room's ruleset, %s, so a challenge with %s plays %s %s:\n", protocol.ClipArg(base), protocol.ClipArg(spec), protocol.ClipArg(base), protocol.ClipArg(spec))
}

// AliasNote says which preset another name stands for ("ing is played
// as new-zealand here"), with a newline; "" for a preset's own name or
// a mere spelling of it (jp, nz).
func AliasNote(word string) string {
	p, ok := game.LookupPreset(word)
	w := strings.ToLower(strings.TrimSpace(word))
	if !ok || w == p.Name || !farAlias[w] {
		return ""
	}
	return fmt.Sprintf("%s is played as %s here, the closest of gobot's rulesets.\n", protocol.ClipArg(word), p.Name)
}

// farAlias are the other names of a preset that stand for a different
// ruleset played as that preset (Ing's rules as new-zealand), not just
// another spelling of it.
var farAlias = map[string]bool{"ing": true, "goe": true}

// ExplainRules describes in plain words the ruleset r, made from spec
// ("japanese ko=simple").
func ExplainRules(r game.Rules, spec string) string {
	var lines []string
	p, preset := game.LookupPreset(r.Name)
	preset = preset && p.Name == r.Name
	if preset {
		lines = append(lines, "From "+p.Source+".")
	}
	switch r.Scoring {
	case game.Area:
		lines = append(lines, "Counting: your stones on the board plus the empty points only you surround (area).")
	default:
		if r.PassStones {
			lines = append(lines, "Counting: the empty points you surround plus the stones you captured (territory), eyes in seki included; with pass stones this comes to the same as area counting.")
		} else {
			lines = append(lines, "Counting: the empty points you surround plus the stones you captured (territory); points in seki count for nobody.")
		}
	}
	switch r.Ko {
	case game.KoNone:
		lines = append(lines, "Ko: no ko rule; if the same position comes back a third time with the same player to move, the game ends "+map[bool]string{true: "as a draw.", false: "with no result."}[r.Cycle == game.CycleDraw])
	case game.KoSimple:
		lines = append(lines, "Ko: you may not retake a ko immediately; play elsewhere first. Long cycles end the game "+map[bool]string{true: "as a draw.", false: "with no result."}[r.Cycle == game.CycleDraw])
	case game.KoPositional:
		lines = append(lines, "Ko: no move may recreate any earlier whole-board position (positional superko).")
	case game.KoSituational:
		lines = append(lines, "Ko: you may not recreate a whole-board position that you yourself created before (situational superko).")
	}
	if r.Suicide {
		lines = append(lines, "Suicide is allowed: a move that leaves your own stones without liberties removes them (after captures).")
	} else {
		lines = append(lines, "Suicide is not allowed.")
	}
	if r.PassStones {
		lines = append(lines, "Each pass hands your opponent a stone as a prisoner, and White must pass last.")
	}
	lines = append(lines, explainKomi(r, p, preset, spec))
	switch r.Placement {
	case game.PlacementFixed:
		lines = append(lines, "Handicap stones go on the marked points, then White moves.")
	case game.PlacementFree:
		lines = append(lines, "Handicap: Black places the stones anywhere, taking that many turns in a row.")
	case game.PlacementWhitePasses:
		lines = append(lines, "Handicap: White passes while Black places the stones anywhere.")
	}
	switch r.Bonus {
	case game.BonusN:
		lines = append(lines, "In handicap games White gets a point per handicap stone.")
	case game.BonusNMinusOne:
		lines = append(lines, "In handicap games White gets a point per handicap stone after the first.")
	}
	if r.NoAgreement {
		lines = append(lines, "At the end everything on the board counts as it stands: capture dead stones before passing.")
	} else {
		lines = append(lines, "At the end, dead stones are removed by agreement; if you disagree, play on.")
	}
	return strings.Join(lines, "\n")
}

// explainKomi says what komi White gets: the preset's policy from game's
// presets table, or the ruleset's own komi.
func explainKomi(r game.Rules, p game.PresetSpec, preset bool, spec string) string {
	k := game.KomiPolicy{Even: r.Komi, Handicap: r.DefaultKomi(19, 19, 2)}
	base, hasBase, komiGiven := protocol.RulesBase(spec)
	switch {
	case preset:
		k.OneStone = p.Komi.OneStone
		if r.Komi == r.DefaultKomi(19, 19, 0) {
			k = p.Komi
		}
	case hasBase && !komiGiven:
		// Options changed a preset: a game gets the preset's komi
		// (protocol.GameOptions.Config), so that is what is explained.
		k = base.Komi
	}
	s := "Komi: " + game.FormatKomi(k.Even) + " points to White in an even game"
	if k.SmallLines > 0 {
		s = fmt.Sprintf("Komi: %s points to White in an even game on boards up to %d×%d, %s on larger ones", game.FormatKomi(k.SmallEven), k.SmallLines, k.SmallLines, game.FormatKomi(k.Even))
	}
	s += ", " + game.FormatKomi(k.Handicap) + " in a handicap game"
	if k.OneStone {
		s += " (one stone too)"
	}
	return s + "."
}
