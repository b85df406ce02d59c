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
	// seki count for nobody, unless pass stones make the count area
	// counting's (text 003).
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

// String prints the ruleset in the form ParseRules reads back to an equal
// value: the name, a colon, then every option, e.g. "japanese: ko=simple
// scoring=territory suicide=forbidden passstones=off bonus=0 komi=6.5
// handicap=fixed cycle=void agreement=on".
func (r Rules) String() string {
	sui := "forbidden"
	if r.Suicide {
		sui = "allowed"
	}
	ps := "off"
	if r.PassStones {
		ps = "on"
	}
	agr := "on"
	if r.NoAgreement {
		agr = "off"
	}
	return fmt.Sprintf("%s: ko=%s scoring=%s suicide=%s passstones=%s bonus=%s komi=%s handicap=%s cycle=%s agreement=%s",
		r.Name, r.Ko, r.Scoring, sui, ps, r.Bonus, FormatKomi(r.Komi), r.Placement, r.Cycle, agr)
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
// It also reads what Rules.String prints: the name may end in a colon, and
// "custom" names the options-only starting point.
//
// The result keeps the preset's name while its options (komi aside) are
// the preset's; any other combination is "custom". Komi may be any finite
// number within ±1000, as game records carry it (KM[2.75]); a new game's
// komi must also pass CheckKomi.
func ParseRules(s string) (Rules, error) {
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
	if len(fields) == 0 {
		return Rules{}, fmt.Errorf("empty ruleset: %w", ErrUnknownRules)
	}
	r := Rules{Name: "custom", Ko: KoPositional, Scoring: Area, Komi: 7.5}
	if !strings.Contains(fields[0], "=") {
		name := strings.TrimSuffix(fields[0], ":")
		if !strings.EqualFold(name, "custom") {
			p, err := Preset(name)
			if err != nil {
				return Rules{}, err
			}
			r = p
		}
		fields = fields[1:]
	}
	start := r
	for _, f := range fields {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return Rules{}, fmt.Errorf("rules option %q: write key=value, like ko=simple", f)
		}
		if err := r.set(strings.ToLower(k), strings.ToLower(v)); err != nil {
			return Rules{}, err
		}
	}
	if !sameOptions(r, start) {
		r.Name = "custom"
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
		if err := checkKomiValue(x); err != nil {
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
