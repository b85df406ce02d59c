package say

import (
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// Issue 43: a clock in words, in each system's terms; a Fischer clock
// without an increment says so.
func TestClockWords(t *testing.T) {
	const s, m, d = time.Second, time.Minute, 24 * time.Hour
	for _, tc := range []struct {
		c    gobot.TimeControl
		want string
	}{
		{gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * d}, "3d a move"},
		{gobot.TimeControl{Kind: gobot.Fischer, Main: 5 * m, Increment: 10 * s, Max: 10 * m}, "Fischer 5m + 10s a move, at most 10m"},
		{gobot.TimeControl{Kind: gobot.Fischer, Main: 5 * m, Max: 5 * m}, "Fischer 5m, no increment"},
		{gobot.TimeControl{Kind: gobot.ByoYomi, Main: 10 * m, Periods: 5, Period: 30 * s}, "byo-yomi 10m + 5×30s"},
		{gobot.TimeControl{Kind: gobot.ByoYomi, Periods: 3, Period: 10 * s}, "byo-yomi 3×10s"},
		{gobot.TimeControl{Kind: gobot.Canadian, Main: 10 * m, Stones: 25, Period: 5 * m}, "Canadian 10m + 25 stones in 5m"},
		{gobot.TimeControl{Kind: gobot.Canadian, Stones: 1, Period: 30 * s}, "Canadian 1 stone in 30s"},
		{gobot.TimeControl{Kind: gobot.Absolute, Main: 20 * m}, "absolute 20m"},
		{gobot.TimeControl{Kind: gobot.Simple, PerMove: 30 * s}, "simple 30s a move"},
		{gobot.TimeControl{}, "no clock"},
	} {
		if got := ClockWords(tc.c); got != tc.want {
			t.Errorf("ClockWords(%+v) = %q, want %q", tc.c, got, tc.want)
		}
	}
}
