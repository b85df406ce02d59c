package protocol

import (
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

func TestParseClockSystems(t *testing.T) {
	const s, m = time.Second, time.Minute
	for spec, want := range map[string]gobot.TimeControl{
		"byoyomi:10m+5x30s":       {Kind: gobot.ByoYomi, Main: 10 * m, Periods: 5, Period: 30 * s},
		"byo-yomi:0+3x10s":        {Kind: gobot.ByoYomi, Periods: 3, Period: 10 * s},
		"byoyomi:0s+1x1s":         {Kind: gobot.ByoYomi, Periods: 1, Period: s},
		"canadian:10m+25/5m":      {Kind: gobot.Canadian, Main: 10 * m, Stones: 25, Period: 5 * m},
		"canadian:0+10/90s":       {Kind: gobot.Canadian, Stones: 10, Period: 90 * s},
		"fischer:5m+10s/10m":      {Kind: gobot.Fischer, Main: 5 * m, Increment: 10 * s, Max: 10 * m},
		"fischer:3d+1d/7d":        {Kind: gobot.Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour},
		"fischer 3d+1d max 7d":    {Kind: gobot.Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour},
		"fischer:10m+1m":          {Kind: gobot.Fischer, Main: 10 * m, Increment: m, Max: 10 * m},
		"fischer:30s+0":           {Kind: gobot.Fischer, Main: 30 * s, Max: 30 * s},
		"fischer:5m+0m/5m":        {Kind: gobot.Fischer, Main: 5 * m, Max: 5 * m},
		"fischer:5m+0/10m":        {Kind: gobot.Fischer, Main: 5 * m, Max: 10 * m},
		"absolute:20m":            {Kind: gobot.Absolute, Main: 20 * m},
		"simple:30s":              {Kind: gobot.Simple, PerMove: 30 * s},
		"3d":                      {Kind: gobot.PerMove, PerMove: 72 * time.Hour},
		"1m30s":                   {Kind: gobot.PerMove, PerMove: 90 * s},
		"none":                    {},
		"Byoyomi:1h+10x1m":        {Kind: gobot.ByoYomi, Main: time.Hour, Periods: 10, Period: m},
		"canadian:1h30m+20/10m":   {Kind: gobot.Canadian, Main: 90 * m, Stones: 20, Period: 10 * m},
		"simple:1m":               {Kind: gobot.Simple, PerMove: m},
		"absolute:1h2m3s":         {Kind: gobot.Absolute, Main: time.Hour + 2*m + 3*s},
		"byoyomi:10m+5×30s":       {Kind: gobot.ByoYomi, Main: 10 * m, Periods: 5, Period: 30 * s},
		"fischer:5m+10s/10m ":     {Kind: gobot.Fischer, Main: 5 * m, Increment: 10 * s, Max: 10 * m},
		"fischer:1h+30s/1h30m15s": {Kind: gobot.Fischer, Main: time.Hour, Increment: 30 * s, Max: 90*m + 15*s},
	} {
		got, err := ParseClock(spec)
		if err != nil || got != want {
			t.Errorf("ParseClock(%q) = %+v, %v; want %+v", spec, got, err, want)
			continue
		}
		// What FormatClock writes reads back the same.
		if back, err := ParseClock(FormatClock(got)); err != nil || back != got {
			t.Errorf("ParseClock(FormatClock(%+v) = %q) = %+v, %v", got, FormatClock(got), back, err)
		}
	}
}

// Issue 43: a clock is written as typed, a Fischer clock without the
// increment it does not have ("+0", not "+0m") and without a maximum
// that is its start; no main time is "0".
func TestFormatClock(t *testing.T) {
	const s, m = time.Second, time.Minute
	for _, tc := range []struct {
		c    gobot.TimeControl
		want string
	}{
		{gobot.TimeControl{Kind: gobot.Fischer, Main: 5 * m, Max: 5 * m}, "fischer:5m+0"},
		{gobot.TimeControl{Kind: gobot.Fischer, Main: 10 * m, Increment: m, Max: 10 * m}, "fischer:10m+1m"},
		{gobot.TimeControl{Kind: gobot.Fischer, Main: 5 * m, Increment: 10 * s, Max: 10 * m}, "fischer:5m+10s/10m"},
		{gobot.TimeControl{Kind: gobot.ByoYomi, Periods: 3, Period: 10 * s}, "byoyomi:0+3x10s"},
	} {
		if got := FormatClock(tc.c); got != tc.want {
			t.Errorf("FormatClock(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}

func TestParseClockRefusals(t *testing.T) {
	for spec, want := range map[string]string{
		"byoyomi:10m+0x30s":     `clock "byoyomi:10m+0x30s": the number of periods is 1 to 100, like byoyomi:10m+5x30s`,
		"byoyomi:10m+5x0s":      `clock "byoyomi:10m+5x0s": a period must be at least 1s`,
		"byoyomi:10m+5":         `byo-yomi is a main time and periods, like byoyomi:10m+5x30s`,
		"byoyomi:10q+5x30s":     `the main time "10q" is not a time like 30s`,
		"canadian:10m+0/5m":     `the stones in a period is 1 to 1000, like canadian:10m+25/5m`,
		"canadian:10m+25/0":     `a period must be at least 1s`,
		"canadian:10m+25":       `Canadian is a main time, then stones in a period`,
		"fischer:0+10s/10m":     `the starting time must be at least 1s`,
		"fischer:10m+1m/5m":     `the maximum must be at least the starting time`,
		"fischer:10m":           `a Fischer clock is a start, an increment per move and a maximum`,
		"absolute:0":            `the game's time must be at least 1s`,
		"simple:0s":             `the time per move must be at least 1s`,
		"simple:400d":           `the most a clock can hold is 365 days`,
		"byoyomi:300d+100x1d":   `the most a clock can hold is 365 days`,
		"30s":                   `clock "30s": a move may take between 1 minute and 365 days; for a live clock of 30s a move write clock=simple:30s`,
		"3x":                    `write a time per move like clock=3d`,
		"hourglass:10m":         `hourglass is not a time system`,
		"byoyomi:10m+99999x30s": `the number of periods is 1 to 100`,
	} {
		_, err := ParseClock(spec)
		if err == nil || !strings.Contains(err.Error(), want) || len(err.Error()) >= 300 {
			t.Errorf("ParseClock(%q) = %v, want %q", spec, err, want)
		}
	}
}
