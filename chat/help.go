package chat

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

func cmdHelp(call *Call) (Result, error) {
	b, a := call.bot, call.Args
	args := a.Text
	if len(args) > 0 {
		name := strings.ToLower(strings.TrimLeft(args[0], "/!"))
		c, ok := b.byName[strings.TrimSpace(name)]
		if !ok {
			return Result{}, b.unknownCommand(name)
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s — %s", protocol.UsageToken(c.Usage()), c.Summary)
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&sb, "\nAlso: %s", strings.Join(c.Aliases, ", "))
		}
		if c.Help != "" {
			sb.WriteString("\n" + c.Help)
		}
		for _, arg := range c.Args {
			if arg.Help != "" {
				fmt.Fprintf(&sb, "\n  %s: %s", arg.Name, arg.Help)
			}
		}
		return Result{Reply: protocol.Reply{Text: sb.String(), Private: true}}, nil
	}
	var sb strings.Builder
	sb.WriteString("Commands:")
	for _, c := range b.commands {
		fmt.Fprintf(&sb, "\n%s — %s", protocol.UsageToken(c.Usage()), c.Summary)
	}
	fmt.Fprintf(&sb, "\n%s explains one.", b.cmd("help <command>"))
	return Result{Reply: protocol.Reply{Title: "gobot help", Text: sb.String(), Private: true}}, nil
}

// usageError says what is wrong and, where the refusal stays within
// MaxRefusal bytes, how to call c.
func (b *core) usageError(c string, what string) error {
	return b.byName[c].Decl().UsageError(what)
}

func cmdRules(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if len(a.Text) == 0 {
		var sb strings.Builder
		sb.WriteString("Rulesets:")
		for _, p := range game.Presets() {
			fmt.Fprintf(&sb, "\n%s — from %s", p.Name, p.Source)
		}
		fmt.Fprintf(&sb, "\n%s explains one. Custom rules: ko=none|simple|positional|situational scoring=area|territory suicide=forbidden|allowed passstones=on|off bonus=0|n|n-1 komi=6.5 handicap=fixed|free|white-passes cycle=void|draw agreement=on|off, alone or after a ruleset (japanese komi=0).", b.cmd("rules <name>"))
		sb.WriteString("\n" + say.HandicapRule)
		return Result{Reply: protocol.Reply{Text: sb.String(), Private: true}}, nil
	}
	if len(a.Text) > 1 && allPresets(a.Text) {
		// rules japanese chinese: each in turn.
		if len(a.Text) > 3 {
			return Result{}, errorf("I explain at most three rulesets at a time; you named %d.", len(a.Text))
		}
		var parts []string
		for _, name := range a.Text {
			rules, _ := game.Preset(name)
			parts = append(parts, "== "+rules.Name+" ==\n"+aliasNote(name)+explainRules(rules, name))
		}
		return Result{Reply: protocol.Reply{Title: "Rules", Text: strings.Join(parts, "\n\n") + "\n" + say.HandicapRule, Private: true}}, nil
	}
	spec, note := strings.Join(a.Text, " "), aliasNote(a.Text[0])
	if strings.Contains(a.Text[0], "=") {
		// Options alone change the room's ruleset, as in a challenge
		// (challengeConfig) and in the room's settings.
		room, err := tx.Room(r.Room)
		if err != nil && !errors.Is(err, gobot.ErrNotFound) {
			return Result{}, err
		}
		base := b.cfg.Rules
		if room != nil && room.Rules != "" {
			base = room.Rules
		}
		note = fmt.Sprintf("This only explains; nothing was changed. Options alone apply to this room's ruleset, %s, so a challenge with %s plays %s %s:\n", protocol.ClipArg(base), protocol.ClipArg(spec), protocol.ClipArg(base), protocol.ClipArg(spec))
		spec = base + " " + spec
	}
	rules, err := game.ParseRules(spec)
	if err != nil {
		return Result{}, errorf("%s", protocol.RulesError(err, spec))
	}
	return Result{Reply: protocol.Reply{Title: "Rules: " + rules.Name, Text: note + explainRules(rules, spec) + "\n" + say.HandicapRule, Private: true}}, nil
}

// allPresets reports whether every word names a preset.
func allPresets(words []string) bool {
	for _, w := range words {
		if _, err := game.Preset(w); err != nil {
			return false
		}
	}
	return true
}

// aliasNote says which preset another name stands for ("ing is played
// as new-zealand here"), with a newline; "" for a preset's own name or
// a mere spelling of it (jp, nz).
func aliasNote(word string) string {
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

// explainRules describes in plain words the ruleset r, made from spec
// ("japanese ko=simple").
func explainRules(r game.Rules, spec string) string {
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
		// (challengeConfig), so that is what is explained.
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

// sortedNames returns map keys sorted.
func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
