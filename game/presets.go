package game

import (
	"fmt"
	"strings"
)

// A PresetSpec is one named ruleset: where it comes from, its options and
// the komi its text gives. The presets table below is the only place a
// preset is defined; Preset, PresetNames, DefaultKomi, the bot's `rules`
// command and the Rulesets tables in README.md and docs/rules.md are all
// derived from it (game/presets_test.go checks the two tables; `go test
// ./game -run PresetTables -update` rewrites them).
type PresetSpec struct {
	Name string
	// Text is the number of the rule text in the shared rules folder
	// ("000" … "004"), or "" for a ruleset from common practice.
	Text string
	// Source says where the rules come from, as a phrase that reads after
	// "from": `"The Complete Rules of Go"`, `Japanese practice`.
	Source string
	// Rules holds the options. The table leaves its Name and Komi zero;
	// Presets and Preset fill them in (Komi from the policy, for an even
	// 19×19 game).
	Rules Rules
	Komi  KomiPolicy
	// Aliases are other spellings Preset accepts (lower case), SGF RU
	// values among them.
	Aliases []string
	// Board is the shape of board the text plays on: BoardSquare ("a
	// square grid", text 002), BoardSquareOdd ("a square grid … with an
	// odd number of lines", text 001), or any (BoardAny).
	Board BoardShape
}

// BoardShape is the shape of board a ruleset's text plays on.
type BoardShape uint8

const (
	BoardAny       BoardShape = iota // any size the game supports
	BoardSquare                      // w = h
	BoardSquareOdd                   // w = h, odd
)

// CheckBoard says why a w×h board does not suit p's text, or nil.
func (p PresetSpec) CheckBoard(w, h int) error {
	switch {
	case p.Board >= BoardSquare && w != h:
		return fmt.Errorf("%s rules are played on a square board, not %s", p.Name, SizeString(w, h))
	case p.Board == BoardSquareOdd && w%2 == 0:
		return fmt.Errorf("%s rules are played on a board with an odd number of lines, not %s", p.Name, SizeString(w, h))
	}
	return nil
}

// KomiPolicy is the komi a ruleset's text gives, as data. White's bonus
// per handicap stone and how the stones are placed are options of the
// ruleset itself (Rules.Bonus, Rules.Placement).
type KomiPolicy struct {
	Even float64 // komi in an even game
	// SmallLines > 0: on boards whose longer side has at most this many
	// lines an even game has SmallEven instead (text 002: 6.5 on 9×9,
	// 5.5 on 19×19).
	SmallLines int
	SmallEven  float64
	// Handicap is the komi of a handicap game (two stones or more), before
	// White's bonus.
	Handicap float64
	// OneStone: a one-stone handicap (Black plays first, no stones placed)
	// is a handicap game too and gets the Handicap komi (text 003: "no
	// komi in handicap games").
	OneStone bool
}

// For returns the komi for a w×h board with the given handicap (0 or 1 =
// Black plays first with no stones).
func (k KomiPolicy) For(w, h, handicap int) float64 {
	if handicap >= 2 || (handicap == 1 && k.OneStone) {
		return k.Handicap
	}
	if k.SmallLines > 0 && max(w, h) <= k.SmallLines {
		return k.SmallEven
	}
	return k.Even
}

// presets is the table of presets, in the order the README gives them:
// the five rule texts first, then the rulesets players know.
var presets = []PresetSpec{
	{
		Name: "tromp-taylor", Text: "000", Source: `"A short, concise ruleset of Go" (Tromp–Taylor)`,
		Rules:   Rules{Ko: KoSituational, Scoring: Area, Suicide: true, Placement: PlacementFree},
		Komi:    KomiPolicy{Even: 7, Handicap: 0},
		Aliases: []string{"tt", "tromptaylor", "tromp_taylor"},
	},
	{
		Name: "simple", Text: "001", Source: `"Simple Go Rules", the basic game`, Board: BoardSquareOdd,
		Rules:   Rules{Ko: KoNone, Scoring: Area, Suicide: true, Placement: PlacementFree, Cycle: CycleDraw, NoAgreement: true},
		Komi:    KomiPolicy{Even: 5.5, Handicap: 0},
		Aliases: []string{"basic", "platonic"},
	},
	{
		Name: "complete", Text: "002", Source: `"The Complete Rules of Go"`, Board: BoardSquare,
		Rules: Rules{Ko: KoPositional, Scoring: Territory, Placement: PlacementFixed},
		Komi:  KomiPolicy{Even: 5.5, SmallLines: 11, SmallEven: 6.5, Handicap: 0.5},
	},
	{
		Name: "bga", Text: "003", Source: `the British Go Association's "How to Play"`,
		Rules:   Rules{Ko: KoSimple, Scoring: Territory, PassStones: true, Placement: PlacementFixed},
		Komi:    KomiPolicy{Even: 7, Handicap: 0, OneStone: true},
		Aliases: []string{"british", "uk"},
	},
	{
		Name: "new-zealand", Text: "004", Source: `the New Zealand Rules of Go`,
		Rules: Rules{Ko: KoSituational, Scoring: Area, Suicide: true, Placement: PlacementWhitePasses},
		Komi:  KomiPolicy{Even: 7, Handicap: 0},
		// Ing (SGF RU[GOE], RU[Ing]): area scoring, suicide allowed, a
		// superko rule; new-zealand is the preset sharing all three.
		Aliases: []string{"nz", "newzealand", "new_zealand", "goe", "ing"},
	},
	{
		Name: "japanese", Source: "Japanese practice",
		Rules:   Rules{Ko: KoSimple, Scoring: Territory, Placement: PlacementFixed},
		Komi:    KomiPolicy{Even: 6.5, Handicap: 0.5},
		Aliases: []string{"jp", "japan", "jpn"},
	},
	{
		Name: "korean", Source: "Korean practice (as Japanese)",
		Rules:   Rules{Ko: KoSimple, Scoring: Territory, Placement: PlacementFixed},
		Komi:    KomiPolicy{Even: 6.5, Handicap: 0.5},
		Aliases: []string{"kr", "korea"},
	},
	{
		Name: "chinese", Source: "Chinese practice",
		Rules:   Rules{Ko: KoPositional, Scoring: Area, Bonus: BonusN, Placement: PlacementFree},
		Komi:    KomiPolicy{Even: 7.5, Handicap: 0.5},
		Aliases: []string{"cn", "china", "chn"},
	},
	{
		Name: "aga", Source: "American Go Association practice",
		Rules:   Rules{Ko: KoSituational, Scoring: Area, PassStones: true, Bonus: BonusNMinusOne, Placement: PlacementFixed},
		Komi:    KomiPolicy{Even: 7.5, Handicap: 0.5},
		Aliases: []string{"american"},
	},
}

// customKomi is the komi policy of a ruleset that is no preset: its own
// komi in even games, 0.5 with a handicap.
func customKomi(r Rules) KomiPolicy { return KomiPolicy{Even: r.Komi, Handicap: 0.5} }

// Presets returns the table of presets, in the README's order. The copy
// is the caller's.
func Presets() []PresetSpec {
	out := make([]PresetSpec, len(presets))
	for i, p := range presets {
		p.Aliases = append([]string(nil), p.Aliases...)
		p.Rules = p.rules()
		out[i] = p
	}
	return out
}

// rules is the preset as a Rules value: its options, its name and the komi
// of an even 19×19 game.
func (p PresetSpec) rules() Rules {
	r := p.Rules
	r.Name = p.Name
	r.Komi = p.Komi.For(19, 19, 0)
	return r
}

// LookupPreset finds a preset by its name or an alias, ignoring case and
// surrounding space.
func LookupPreset(name string) (PresetSpec, bool) {
	n := strings.ToLower(strings.TrimSpace(name))
	for _, p := range presets {
		if p.Name == n {
			return p, true
		}
		for _, a := range p.Aliases {
			if a == n {
				return p, true
			}
		}
	}
	return PresetSpec{}, false
}

// PresetNames returns the names of every preset, in the README's order.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.Name
	}
	return names
}

// Preset returns the named ruleset (a name or an alias) with the komi its
// text gives for an even game on a 19×19 board. Use Rules.DefaultKomi for
// other sizes and handicaps.
func Preset(name string) (Rules, error) {
	p, ok := LookupPreset(name)
	if !ok {
		return Rules{}, fmt.Errorf("%q is an %w; choose one of %s, or custom options like ko=simple,scoring=area", name, ErrUnknownRules, strings.Join(PresetNames(), ", "))
	}
	return p.rules(), nil
}

// IsPreset reports whether r is exactly its named preset (komi is by
// agreement, so it is not compared).
func (r Rules) IsPreset() bool {
	p, ok := LookupPreset(r.Name)
	return ok && p.Name == r.Name && sameOptions(p.rules(), r)
}

// sameOptions reports whether a and b differ at most in name and komi.
func sameOptions(a, b Rules) bool {
	a.Name, a.Komi = b.Name, b.Komi
	return a == b
}

// OneStoneHandicap reports whether this ruleset's text makes a handicap
// of one stone (Black plays first, no stone placed, the handicap komi).
// Elsewhere a handicap starts at two stones.
func (r Rules) OneStoneHandicap() bool {
	if p, ok := LookupPreset(r.Name); ok && p.Name == r.Name {
		return p.Komi.OneStone
	}
	return false
}

// DefaultKomi returns the komi this ruleset's text gives for a w×h board
// with the given handicap (0 or 1 = even game, except where the preset's
// KomiPolicy says a single stone is a handicap too). A ruleset that is no
// preset keeps its own komi in even games and gives 0.5 with a handicap.
func (r Rules) DefaultKomi(w, h, handicap int) float64 {
	if p, ok := LookupPreset(r.Name); ok && p.Name == r.Name {
		return p.Komi.For(w, h, handicap)
	}
	return customKomi(r).For(w, h, handicap)
}
