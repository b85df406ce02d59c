package game

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the presets tables in README.md and docs/rules.md")

// The bug the seams review found: a preset's String did not parse back
// (the "name:" prefix), a record's komi like 2.75 was refused, and cycle=
// was dropped under superko.
func TestRulesStringParsesBack(t *testing.T) {
	for _, name := range PresetNames() {
		r := preset(t, name)
		back, err := ParseRules(r.String())
		if err != nil {
			t.Fatalf("ParseRules(%q): %v", r.String(), err)
		}
		if back != r {
			t.Errorf("%s: %s parses back as %s", name, r, back)
		}
	}
	r := preset(t, "chinese")
	r.Komi = 2.75
	if back, err := ParseRules(r.String()); err != nil || back != r {
		t.Errorf("komi 2.75: %v, %v", back, err)
	}
	r.Cycle, r.Name = CycleDraw, "custom"
	if back, err := ParseRules(r.String()); err != nil || back != r {
		t.Errorf("cycle=draw under positional superko: %v, %v", back, err)
	}
}

// randomRules returns any ruleset gobot can hold: a preset with any komi,
// or any combination of options.
func randomRules(rng *rand.Rand) Rules {
	komis := []float64{0, 0.5, -3, 7.5, 2.75, 1000, -1000, 6.25, 0.1}
	if rng.IntN(3) == 0 {
		p := presets[rng.IntN(len(presets))].rules()
		if rng.IntN(2) == 0 {
			p.Komi = komis[rng.IntN(len(komis))]
		}
		return p
	}
	r := Rules{
		Ko: KoRule(rng.IntN(4)), Scoring: Counting(rng.IntN(2)), Suicide: rng.IntN(2) == 0,
		PassStones: rng.IntN(2) == 0, Bonus: Bonus(rng.IntN(3)), Placement: Placement(rng.IntN(3)),
		Cycle: CycleResult(rng.IntN(2)), NoAgreement: rng.IntN(2) == 0,
		Komi: komis[rng.IntN(len(komis))],
	}
	r.Name = "custom"
	for _, p := range presets {
		if sameOptions(r, p.rules()) {
			r.Name = p.Name // a combination that is a preset is named so
		}
	}
	return r
}

func TestRulesStringRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 2))
	for i := 0; i < 2000; i++ {
		r := randomRules(rng)
		back, err := ParseRules(r.String())
		if err != nil {
			t.Fatalf("ParseRules(%q): %v", r.String(), err)
		}
		if back != r {
			t.Fatalf("%s parses back as %s", r, back)
		}
		if r.IsPreset() != (r.Name != "custom") {
			t.Fatalf("%s: IsPreset = %v", r, r.IsPreset())
		}
	}
}

// A preset keeps its name while the options given after it leave it
// unchanged; anything else makes a custom ruleset.
func TestParseRulesNames(t *testing.T) {
	for _, tc := range []struct{ in, name string }{
		{"japanese", "japanese"},
		{"Japanese: komi=0", "japanese"},
		{"japanese ko=simple", "japanese"},
		{"japanese ko=positional", "custom"},
		{"NZ handicap=white-passes", "new-zealand"},
		{"custom", "custom"},
		{"custom: ko=simple", "custom"},
		{"ko=positional scoring=area bonus=n handicap=free", "custom"},
	} {
		r, err := ParseRules(tc.in)
		if err != nil || r.Name != tc.name {
			t.Errorf("ParseRules(%q) = %s, %v; want name %s", tc.in, r, err, tc.name)
		}
	}
	for _, bad := range []string{"komi=nan", "komi=inf", "komi=1000.5", "japanese komi=x"} {
		if _, err := ParseRules(bad); !errors.Is(err, ErrBadKomi) {
			t.Errorf("ParseRules(%q): %v, want ErrBadKomi", bad, err)
		}
	}
	if _, err := ParseRules("custm: ko=simple"); !errors.Is(err, ErrUnknownRules) {
		t.Errorf("misspelt name: %v", err)
	}
}

// Every name and alias finds exactly one preset.
func TestPresetTable(t *testing.T) {
	seen := map[string]string{}
	for _, p := range Presets() {
		for _, n := range append([]string{p.Name}, p.Aliases...) {
			if other, ok := seen[n]; ok {
				t.Errorf("%q names both %s and %s", n, other, p.Name)
			}
			seen[n] = p.Name
			if n != strings.ToLower(n) {
				t.Errorf("%s: spelling %q must be lower case", p.Name, n)
			}
			r, err := Preset(strings.ToUpper(n))
			if err != nil || r.Name != p.Name {
				t.Errorf("Preset(%q) = %s, %v", n, r.Name, err)
			}
		}
		if p.Source == "" {
			t.Errorf("%s: no source", p.Name)
		}
		r := preset(t, p.Name)
		if r.Komi != r.DefaultKomi(19, 19, 0) || !r.IsPreset() {
			t.Errorf("%s: %s", p.Name, r)
		}
	}
	if len(seen) == 0 {
		t.Fatal("no presets")
	}
	custom, _ := ParseRules("ko=simple komi=3")
	if custom.DefaultKomi(9, 9, 0) != 3 || custom.DefaultKomi(19, 19, 1) != 3 || custom.DefaultKomi(19, 19, 2) != 0.5 {
		t.Error("custom komi: its own in even games, 0.5 with two stones or more")
	}
}

// presetsTable renders the presets table as the README and docs/rules.md
// show it.
func presetsTable() string {
	var sb strings.Builder
	sb.WriteString("| preset | from | ko | scoring | suicide | pass stones | komi (even game) | komi (handicap) | handicap placement | White's handicap bonus |\n")
	sb.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range Presets() {
		r := p.Rules
		from := p.Source
		if p.Text != "" {
			from += ", text " + p.Text
		}
		cycle := map[CycleResult]string{CycleVoid: "no result", CycleDraw: "a draw"}[r.Cycle]
		ko := map[KoRule]string{
			KoNone:        "none; a cycle (3rd repetition) is " + cycle,
			KoSimple:      "simple; long cycles = " + cycle,
			KoPositional:  "positional superko",
			KoSituational: "situational superko",
		}[r.Ko]
		scoring := map[Counting]string{Area: "area", Territory: "territory + prisoners (seki counts for nobody)"}[r.Scoring]
		if r.Scoring == Territory && r.PassStones {
			scoring = "territory + prisoners (seki eyes count: with pass stones it equals area)"
		}
		if r.NoAgreement {
			scoring += "; stones count as they stand (no removal by agreement)"
		}
		suicide := map[bool]string{true: "allowed", false: "forbidden"}[r.Suicide]
		pass := map[bool]string{true: "yes (White passes last)", false: "no"}[r.PassStones]
		even := FormatKomi(p.Komi.Even)
		if p.Komi.SmallLines > 0 {
			even = fmt.Sprintf("%s up to %d×%d, %s above", FormatKomi(p.Komi.SmallEven), p.Komi.SmallLines, p.Komi.SmallLines, even)
		}
		handicap := FormatKomi(p.Komi.Handicap)
		if p.Komi.OneStone {
			handicap += " (one stone too)"
		}
		placement := map[Placement]string{
			PlacementFixed:       "fixed points, then White",
			PlacementFree:        "free: Black takes n turns in a row",
			PlacementWhitePasses: "free: White passes n−1 times",
		}[r.Placement]
		bonus := map[Bonus]string{BonusNone: "0", BonusN: "n", BonusNMinusOne: "n−1"}[r.Bonus]
		fmt.Fprintf(&sb, "| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			p.Name, from, ko, scoring, suicide, pass, even, handicap, placement, bonus)
	}
	return sb.String()
}

const (
	tableBegin = "<!-- presets table: generated from game/presets.go by go test ./game -run PresetTables -update -->\n"
	tableEnd   = "<!-- end of presets table -->\n"
)

// TestPresetTables checks that the Rulesets tables in README.md and
// docs/rules.md are the table in presets.go; -update rewrites them.
func TestPresetTables(t *testing.T) {
	want := presetsTable()
	for _, path := range []string{"../README.md", "../docs/rules.md"} {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := string(b)
		i := strings.Index(doc, tableBegin)
		j := strings.Index(doc, tableEnd)
		if i < 0 || j < i {
			t.Fatalf("%s has no presets table between the markers %q and %q", path, tableBegin, tableEnd)
		}
		got := doc[i+len(tableBegin) : j]
		if got == want {
			continue
		}
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i+len(tableBegin)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		t.Errorf("%s: the presets table differs from game/presets.go; run go test ./game -run PresetTables -update\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

// FuzzParseRules: whatever ParseRules accepts prints as a string that
// parses back to the same ruleset.
func FuzzParseRules(f *testing.F) {
	for _, p := range PresetNames() {
		r, err := Preset(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(p)
		f.Add(r.String())
	}
	f.Add("ko=situational,scoring=territory suicide=allowed passstones=on bonus=n-1 handicap=white-passes cycle=draw agreement=off komi=2.75")
	f.Add("custom: komi=-0")
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRules(s)
		if err != nil {
			return
		}
		back, err := ParseRules(r.String())
		if err != nil || back != r {
			t.Fatalf("%q → %s → %s, %v", s, r, back, err)
		}
	})
}
