package game

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// KoRule says which repetitions of the whole board are forbidden.
type KoRule uint8

const (
	// KoNone forbids nothing; cycles end the game (see CycleResult).
	KoNone KoRule = iota
	// KoSimple forbids retaking a single-stone ko immediately.
	KoSimple
	// KoPositional forbids recreating any earlier board position.
	KoPositional
	// KoSituational forbids a player recreating a position that same
	// player created before, by a move or a pass (texts 000 and 004).
	KoSituational
)

// Counting is how the score is counted.
type Counting uint8

const (
	// Area counts stones on the board plus empty points reaching only
	// that colour.
	Area Counting = iota
	// Territory counts surrounded empty points plus prisoners; points in
	// seki count for nobody.
	Territory
)

// Bonus is the extra points White gets in a handicap game.
type Bonus uint8

const (
	BonusNone      Bonus = iota // 0
	BonusN                      // one point per handicap stone
	BonusNMinusOne              // one point per handicap stone after the first
)

// Placement is how handicap stones reach the board.
type Placement uint8

const (
	// PlacementFixed puts the stones on the traditional points, then White
	// moves (texts 002, 003).
	PlacementFixed Placement = iota
	// PlacementFree lets Black take n consecutive turns (text 000).
	PlacementFree
	// PlacementWhitePasses has White pass the first n−1 moves while Black
	// places freely (text 004).
	PlacementWhitePasses
)

// CycleResult is how a game ends when, under KoNone or KoSimple, the same
// whole-board position with the same player to move occurs a third time.
type CycleResult uint8

const (
	CycleVoid CycleResult = iota // no result ("Void"), as in Japanese rules
	CycleDraw                    // a tie ("0"), as in text 001
)

// Rules is a ruleset as data: a value you can print, store and compare.
type Rules struct {
	Name       string      // preset name, or "custom"
	Ko         KoRule      // which repetitions are forbidden
	Scoring    Counting    // area or territory
	Suicide    bool        // true: a play may remove the mover's own strings
	PassStones bool        // a pass hands the opponent a prisoner; White passes last
	Bonus      Bonus       // White's compensation per handicap stone
	Komi       float64     // points added to White's score
	Placement  Placement   // how handicap stones are placed
	Cycle      CycleResult // outcome of a repeating cycle (KoNone/KoSimple)
	// NoAgreement: dead stones are never removed by agreement; everything on
	// the board at the end is counted as it stands (text 001, which counts
	// "stones and eyes on the grid").
	NoAgreement bool
}

// Errors for rules and ruleset parsing.
var (
	ErrUnknownRules = errors.New("unknown ruleset")
	ErrBadKomi      = errors.New("komi must be a multiple of 0.5")
)

// PresetNames lists the presets in the order the README gives them.
var presetNames = []string{"tromp-taylor", "simple", "complete", "bga", "new-zealand", "japanese", "korean", "chinese", "aga"}

// PresetNames returns the names of every preset.
func PresetNames() []string { return append([]string(nil), presetNames...) }

// presetAliases maps other spellings (and SGF RU values) to presets.
var presetAliases = map[string]string{
	"tt": "tromp-taylor", "tromptaylor": "tromp-taylor", "tromp_taylor": "tromp-taylor",
	"basic": "simple", "platonic": "simple",
	"nz": "new-zealand", "newzealand": "new-zealand", "new_zealand": "new-zealand",
	"jp": "japanese", "japan": "japanese", "jpn": "japanese",
	"kr": "korean", "korea": "korean",
	"cn": "chinese", "china": "chinese", "chn": "chinese",
	"american": "aga", "british": "bga", "uk": "bga",
	// Ing (SGF RU[GOE], RU[Ing]): area scoring, suicide allowed, a
	// superko rule; new-zealand is the preset sharing all three.
	"goe": "new-zealand", "ing": "new-zealand",
}

// Preset returns the named ruleset with the komi its text gives for an
// even game on a 19×19 board. Use Rules.ForGame for other sizes and
// handicaps.
func Preset(name string) (Rules, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := presetAliases[n]; ok && a != "" {
		n = a
	}
	r := Rules{Name: n}
	switch n {
	case "tromp-taylor":
		r.Ko, r.Scoring, r.Suicide, r.Komi, r.Placement = KoSituational, Area, true, 7, PlacementFree
	case "simple":
		r.Ko, r.Scoring, r.Suicide, r.Komi, r.Placement, r.Cycle, r.NoAgreement = KoNone, Area, true, 5.5, PlacementFree, CycleDraw, true
	case "complete":
		r.Ko, r.Scoring, r.Komi = KoPositional, Territory, 5.5
	case "bga":
		r.Ko, r.Scoring, r.PassStones, r.Komi = KoSimple, Territory, true, 7
	case "new-zealand":
		r.Ko, r.Scoring, r.Suicide, r.Komi, r.Placement = KoSituational, Area, true, 7, PlacementWhitePasses
	case "japanese", "korean":
		r.Ko, r.Scoring, r.Komi = KoSimple, Territory, 6.5
	case "chinese":
		r.Ko, r.Scoring, r.Komi, r.Bonus, r.Placement = KoPositional, Area, 7.5, BonusN, PlacementFree
	case "aga":
		r.Ko, r.Scoring, r.PassStones, r.Komi, r.Bonus = KoSituational, Area, true, 7.5, BonusNMinusOne
	default:
		return Rules{}, fmt.Errorf("%q is an %w; choose one of %s, or custom options like ko=simple,scoring=area", name, ErrUnknownRules, strings.Join(presetNames, ", "))
	}
	return r, nil
}

// IsPreset reports whether r is exactly its named preset with that preset's
// default komi for some game (komi is by agreement, so it is not compared).
func (r Rules) IsPreset() bool {
	p, err := Preset(r.Name)
	if err != nil {
		return false
	}
	p.Komi = r.Komi
	return p == r
}

// DefaultKomi returns the komi this ruleset's text gives for a w×h board
// with the given handicap (0 or 1 = even game). Presets follow their texts:
// complete uses 6.5 on boards up to 11 lines and 5.5 above; in handicap
// games bga, new-zealand, tromp-taylor and simple give no komi and the
// others give 0.5.
func (r Rules) DefaultKomi(w, h, handicap int) float64 {
	if handicap >= 2 || (handicap == 1 && r.Name == "bga") {
		switch r.Name {
		case "bga", "new-zealand", "tromp-taylor", "simple":
			return 0
		}
		return 0.5
	}
	if r.Name == "complete" {
		if max(w, h) <= 11 {
			return 6.5
		}
		return 5.5
	}
	p, err := Preset(r.Name)
	if err != nil {
		return r.Komi
	}
	return p.Komi
}

// HandicapBonus returns White's extra points for n handicap stones.
func (r Rules) HandicapBonus(n int) float64 {
	if n < 2 {
		return 0
	}
	switch r.Bonus {
	case BonusN:
		return float64(n)
	case BonusNMinusOne:
		return float64(n - 1)
	}
	return 0
}

// CheckKomi reports whether k is a usable komi: a multiple of 0.5 within
// ±1000.
func CheckKomi(k float64) error {
	if math.IsNaN(k) || math.IsInf(k, 0) || math.Abs(k) > 1000 || k*2 != math.Trunc(k*2) {
		return fmt.Errorf("komi %v: %w (like 6.5 or 7), between -1000 and 1000", k, ErrBadKomi)
	}
	return nil
}

func (k KoRule) String() string {
	return [...]string{"none", "simple", "positional", "situational"}[k]
}

func (s Counting) String() string { return [...]string{"area", "territory"}[s] }

func (b Bonus) String() string { return [...]string{"0", "n", "n-1"}[b] }

func (p Placement) String() string { return [...]string{"fixed", "free", "white-passes"}[p] }

func (c CycleResult) String() string { return [...]string{"void", "draw"}[c] }

// String prints the options in the form ParseRules reads back, e.g.
// "japanese: ko=simple scoring=territory suicide=forbidden ...".
func (r Rules) String() string {
	sui := "forbidden"
	if r.Suicide {
		sui = "allowed"
	}
	ps := "off"
	if r.PassStones {
		ps = "on"
	}
	s := fmt.Sprintf("%s: ko=%s scoring=%s suicide=%s passstones=%s bonus=%s komi=%s handicap=%s",
		r.Name, r.Ko, r.Scoring, sui, ps, r.Bonus, FormatKomi(r.Komi), r.Placement)
	if r.Ko == KoNone || r.Ko == KoSimple {
		s += " cycle=" + r.Cycle.String()
	}
	if r.NoAgreement {
		s += " agreement=off"
	}
	return s
}

// checkKomiValue accepts any komi a game record may carry: a finite
// number within ±1000. Records from some sources write Chinese komi in
// stones (KM[2.75]); gobot plays them as written. New challenges go
// through CheckKomi (multiples of 0.5) instead.
func checkKomiValue(k float64) error {
	if math.IsNaN(k) || math.IsInf(k, 0) || math.Abs(k) > 1000 {
		return fmt.Errorf("komi %v: %w (between -1000 and 1000)", k, ErrBadKomi)
	}
	return nil
}

// FormatKomi prints komi without a trailing ".0": "6.5", "7", "-3".
func FormatKomi(k float64) string { return strconv.FormatFloat(k, 'f', -1, 64) }

// ParseRules reads a preset name, optionally followed by options that
// change it, or just options (a custom ruleset starting from chinese-like
// area scoring): "japanese", "japanese komi=0", "ko=situational,scoring=area,
// suicide=allowed". Options are key=value separated by spaces or commas.
func ParseRules(s string) (Rules, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
	if len(fields) == 0 {
		return Rules{}, fmt.Errorf("empty ruleset: %w", ErrUnknownRules)
	}
	var r Rules
	if !strings.Contains(fields[0], "=") {
		p, err := Preset(fields[0])
		if err != nil {
			return Rules{}, err
		}
		r = p
		fields = fields[1:]
	} else {
		r = Rules{Name: "custom", Ko: KoPositional, Scoring: Area, Komi: 7.5}
	}
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Rules{}, fmt.Errorf("rules option %q: write key=value, like ko=simple", f)
		}
		if err := r.set(strings.ToLower(k), strings.ToLower(v)); err != nil {
			return Rules{}, err
		}
		if k != "komi" {
			r.Name = "custom"
		}
	}
	return r, nil
}

func (r *Rules) set(k, v string) error {
	bad := func(choices ...string) error {
		return fmt.Errorf("rules option %s=%q: choose %s", k, v, strings.Join(choices, ", "))
	}
	switch k {
	case "ko":
		i := indexOf(v, "none", "simple", "positional", "situational")
		if i < 0 {
			return bad("none", "simple", "positional", "situational")
		}
		r.Ko = KoRule(i)
	case "scoring":
		i := indexOf(v, "area", "territory")
		if i < 0 {
			return bad("area", "territory")
		}
		r.Scoring = Counting(i)
	case "suicide":
		i := indexOf(v, "forbidden", "allowed")
		if i < 0 {
			return bad("forbidden", "allowed")
		}
		r.Suicide = i == 1
	case "passstones", "pass-stones", "pass_stones":
		i := indexOf(v, "off", "on")
		if i < 0 {
			return bad("on", "off")
		}
		r.PassStones = i == 1
	case "bonus":
		i := indexOf(v, "0", "n", "n-1")
		if i < 0 {
			return bad("0", "n", "n-1")
		}
		r.Bonus = Bonus(i)
	case "komi":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("komi %q is not a number: %w (like 6.5 or 7)", v, ErrBadKomi)
		}
		if err := CheckKomi(x); err != nil {
			return err
		}
		r.Komi = x
	case "handicap", "placement":
		i := indexOf(v, "fixed", "free", "white-passes")
		if i < 0 {
			return bad("fixed", "free", "white-passes")
		}
		r.Placement = Placement(i)
	case "cycle":
		i := indexOf(v, "void", "draw")
		if i < 0 {
			return bad("void", "draw")
		}
		r.Cycle = CycleResult(i)
	case "agreement":
		i := indexOf(v, "on", "off")
		if i < 0 {
			return bad("on", "off")
		}
		r.NoAgreement = i == 1
	default:
		keys := []string{"ko", "scoring", "suicide", "passstones", "bonus", "komi", "handicap", "cycle", "agreement"}
		sort.Strings(keys)
		return fmt.Errorf("unknown rules option %q; options are %s", k, strings.Join(keys, ", "))
	}
	return nil
}

func indexOf(v string, choices ...string) int {
	for i, c := range choices {
		if v == c {
			return i
		}
	}
	return -1
}
