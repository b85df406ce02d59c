package protocol

import (
	"errors"
	"strings"
	"testing"
)

// FuzzParseOptions feeds challenge/settings arguments to the parser: it
// must not panic, and every refusal must be a Refusal (text a player
// can act on), never an internal error.
func FuzzParseOptions(f *testing.F) {
	for _, s := range []string{
		"9 black", "13x9 chinese komi=6.5", "handicap=2 white", "clock=3d",
		"clock=fischer:3d+1d/7d", "fischer:1d+12h/3d random", "size=19 rules=aga",
		"threads=on", "komi=-0.5", "19x19x19", "komi=nan", "handicap=99", "0",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		_, err := ParseOptions(strings.Fields(line))
		var ue Refusal
		if err != nil && !errors.As(err, &ue) {
			t.Fatalf("ParseOptions(%q): %v is not a player-facing error", line, err)
		}
	})
}

// FuzzParseClock checks that a clock the parser accepts has no negative
// durations and that its short form (shown in settings and used in
// challenges) parses again to the same clock.
func FuzzParseClock(f *testing.F) {
	for _, s := range []string{"3d", "1d12h", "fischer:3d+1d/7d", "fischer 3d+1d max 7d", "none", "90m", "2w", "fischer:1d+0m/1d",
		"byoyomi:10m+5x30s", "canadian:10m+25/5m", "fischer:5m+10s/10m", "absolute:20m", "simple:30s", "byoyomi:0+3x10s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseClock(s)
		if err != nil {
			var ue Refusal
			if !errors.As(err, &ue) {
				t.Fatalf("ParseClock(%q): %v is not a player-facing error", s, err)
			}
			return
		}
		if c.PerMove < 0 || c.Main < 0 || c.Increment < 0 || c.Max < 0 || c.Period < 0 || c.Periods < 0 || c.Stones < 0 {
			t.Fatalf("ParseClock(%q) = %+v: negative duration", s, c)
		}
		again, err := ParseClock(FormatClock(c))
		if err != nil {
			t.Fatalf("ParseClock(%q) = %+v, but its form %q does not parse: %v", s, c, FormatClock(c), err)
		}
		if again != c {
			t.Fatalf("ParseClock(%q) = %+v, its form %q gives %+v", s, c, FormatClock(c), again)
		}
	})
}
