package gobot

import (
	"fmt"
	"strings"
	"time"
)

// ClockKind is the kind of clock a game is played with.
type ClockKind uint8

const (
	NoClock  ClockKind = iota // no time limit
	PerMove                   // each move within PerMove (correspondence)
	Fischer                   // a bank: Main to start, +Increment per move, capped at Max
	ByoYomi                   // Main, then Periods periods of Period; a move inside a period keeps it
	Canadian                  // Main, then Stones stones in each Period
	Absolute                  // Main for the whole game
	Simple                    // each move within PerMove, no bank (live)
)

// TimeControl is a game's clock: how long a player may take (what tells
// the time is chat's TimeSource). The systems are OGS's and KGS's; the
// arithmetic is in Budget, Elapse and Spend.
type TimeControl struct {
	Kind      ClockKind
	PerMove   time.Duration // PerMove, Simple
	Main      time.Duration // Fischer, ByoYomi, Canadian, Absolute
	Increment time.Duration // Fischer
	Max       time.Duration // Fischer
	Periods   int           // ByoYomi: how many periods
	Period    time.Duration // ByoYomi, Canadian: a period's length
	Stones    int           // Canadian: stones to play in each period
}

// The lines between live and correspondence clocks (Live).
const (
	liveOvertime = time.Hour     // a byo-yomi or Canadian period, a simple clock's move
	liveAbsolute = 4 * time.Hour // a whole game on an absolute clock
	liveFischer  = time.Minute   // a Fischer increment (or a start under liveOvertime)
)

// Live reports whether c is a live clock, made to be played in one
// sitting: byo-yomi and Canadian whose periods (a Canadian period per
// stone) are under an hour, whatever the main time; simple under an
// hour a move; absolute under 4 hours; Fischer starting under an hour or
// adding under a minute a move. So byo-yomi 1h+5×30s and Fischer 1h+30s
// are live, byo-yomi 3d+5×1d and Fischer 1h+10m/2h are not. Live games
// ignore vacations and refuse a move that comes after the deadline.
// Per-move clocks are correspondence clocks, whatever their length.
func (c TimeControl) Live() bool {
	switch c.Kind {
	case ByoYomi:
		return c.Period < liveOvertime
	case Canadian:
		return c.Period/time.Duration(max(c.Stones, 1)) < liveOvertime
	case Simple:
		return c.PerMove < liveOvertime
	case Absolute:
		return c.Main < liveAbsolute
	case Fischer:
		return c.Main < liveOvertime || c.Increment < liveFischer
	}
	return false // no clock, per move
}

// ClockState is one player's (or team's) clock between turns.
type ClockState struct {
	// Main is the main time left: Fischer's bank, absolute's time.
	Main time.Duration
	// Periods is how many byo-yomi periods are left, the current one
	// included.
	Periods int
	// Stones is how many stones a Canadian period still asks for.
	Stones int
	// Period is the time left in the current period (byo-yomi at a
	// turn's start: always a whole period).
	Period time.Duration
}

// Start is a player's clock when the game begins.
func (c TimeControl) Start() ClockState {
	switch c.Kind {
	case Fischer, Absolute:
		return ClockState{Main: c.Main}
	case ByoYomi:
		return ClockState{Main: c.Main, Periods: c.Periods, Period: c.Period}
	case Canadian:
		return ClockState{Main: c.Main, Stones: c.Stones, Period: c.Period}
	}
	return ClockState{}
}

// Budget is the time a player whose clock is s has before losing on
// time, if they make no move. Per-move and simple clocks keep no state:
// each turn has PerMove.
func (c TimeControl) Budget(s ClockState) time.Duration {
	switch c.Kind {
	case PerMove, Simple:
		return c.PerMove
	case Fischer, Absolute:
		return s.Main
	case ByoYomi:
		if s.Periods <= 0 {
			return s.Main
		}
		return s.Main + s.Period + time.Duration(s.Periods-1)*c.Period
	case Canadian:
		return s.Main + s.Period
	}
	return 0
}

// Elapse is s after d of a turn has gone by with no move: main time is
// spent first; then each byo-yomi period that runs out is used up and the
// next begins; a Canadian period only runs. ok is false when the time
// ran out (d reached Budget(s)).
func (c TimeControl) Elapse(s ClockState, d time.Duration) (_ ClockState, ok bool) {
	if d < 0 {
		d = 0
	}
	switch c.Kind {
	case NoClock:
		return s, true
	case PerMove, Simple:
		return s, d < c.PerMove
	}
	if d < s.Main {
		s.Main -= d
		return s, true
	}
	d -= s.Main
	s.Main = 0
	switch c.Kind {
	case ByoYomi:
		for s.Periods > 0 && d >= s.Period {
			d -= s.Period
			s.Periods--
			s.Period = c.Period
		}
		if s.Periods == 0 {
			s.Period = 0
			return s, false
		}
		s.Period -= d
		return s, true
	case Canadian:
		if d >= s.Period {
			s.Period = 0
			return s, false
		}
		s.Period -= d
		return s, true
	}
	return s, false // Fischer, Absolute: the main time was all
}

// Spend is s after a move made d into the turn: Elapse, then the move's
// due. A byo-yomi move inside a period keeps it, and the period starts
// afresh; a Canadian move in overtime counts a stone, and the period's
// last stone played in time gives a fresh period; Fischer adds the
// increment (at most Max). A move exactly at the end of a stage counts
// in the next one (at the end of main time: in the first period). ok is
// false when the move came too late.
func (c TimeControl) Spend(s ClockState, d time.Duration) (_ ClockState, ok bool) {
	s, ok = c.Elapse(s, d)
	if !ok {
		return s, false
	}
	switch c.Kind {
	case Fischer:
		s.Main = min(s.Main+c.Increment, c.Max)
	case ByoYomi:
		if s.Main == 0 {
			s.Period = c.Period
		}
	case Canadian:
		if s.Main == 0 {
			s.Stones--
			if s.Stones <= 0 {
				s.Stones, s.Period = c.Stones, c.Period
			}
		}
	}
	return s, true
}

// Overtime reports whether c has periods after its main time.
func (c TimeControl) Overtime() bool { return c.Kind == ByoYomi || c.Kind == Canadian }

// ShowClock is s in the system's own terms, the way live players read a
// clock: "2:41 + 3×30s" (byo-yomi in main time), "0:21 (2×30s left)" (in
// its periods), "10:00 + 25 stones in 5:00" (Canadian in main time),
// "12 stones in 4:10" (in a period), "4:59" (Fischer, absolute, simple).
func (c TimeControl) ShowClock(s ClockState) string {
	switch c.Kind {
	case NoClock:
		return ""
	case PerMove, Simple:
		return ClockTime(c.PerMove)
	case ByoYomi:
		if s.Main > 0 || s.Periods <= 0 {
			if s.Periods <= 0 {
				return ClockTime(s.Main)
			}
			return fmt.Sprintf("%s + %d×%s", ClockTime(s.Main), s.Periods, ShortTime(c.Period))
		}
		if s.Periods == 1 {
			return ClockTime(s.Period) + " (last period)"
		}
		return fmt.Sprintf("%s (%d×%s)", ClockTime(s.Period), s.Periods, ShortTime(c.Period))
	case Canadian:
		if s.Main > 0 {
			return fmt.Sprintf("%s + %d stones in %s", ClockTime(s.Main), c.Stones, ClockTime(c.Period))
		}
		return fmt.Sprintf("%d %s in %s", s.Stones, plural(s.Stones, "stone"), ClockTime(s.Period))
	}
	return ClockTime(s.Main)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// ClockTime is a live clock's reading, seconds rounded down: "4:10",
// "0:07", "1:02:03" from an hour on. A time under zero reads "0:00".
func ClockTime(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	sec := int64(d / time.Second)
	h, m, s := sec/3600, sec/60%60, sec%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02d", h, m, s)
	}
	return fmt.Sprintf("%d:%02d", m, s)
}

// ShortTime is a period's length as typed: "30s", "5m", "1m30s", "1h".
func ShortTime(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	out := ""
	for _, u := range []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "m"}, {time.Second, "s"}} {
		if n := d / u.d; n > 0 {
			out += fmt.Sprintf("%d%s", n, u.name)
			d -= n * u.d
		}
	}
	return out
}

// SGF is c as SGF's TM (main time in seconds) and OT (overtime, in the
// words OGS and KGS write): "5x30 byo-yomi", "25/300 Canadian",
// "10 fischer max 600"; per-move clocks are "correspondence 259200 per
// move". Empty for no clock.
func (c TimeControl) SGF() (tm, ot string) {
	secs := func(d time.Duration) string { return fmt.Sprint(int64(d / time.Second)) }
	switch c.Kind {
	case PerMove:
		return "", "correspondence " + secs(c.PerMove) + " per move"
	case Simple:
		return "0", secs(c.PerMove) + " simple"
	case Fischer:
		return secs(c.Main), secs(c.Increment) + " fischer max " + secs(c.Max)
	case ByoYomi:
		return secs(c.Main), fmt.Sprintf("%dx%s byo-yomi", c.Periods, secs(c.Period))
	case Canadian:
		return secs(c.Main), fmt.Sprintf("%d/%s Canadian", c.Stones, secs(c.Period))
	case Absolute:
		return secs(c.Main), ""
	}
	return "", ""
}

// ClockFromSGF reads SGF's TM and OT as SGF writes them, and the common
// forms others write ("5x30 byo-yomi", "25/300 Canadian", "10 fischer",
// a TM alone: absolute); false when they say no clock gobot keeps.
func ClockFromSGF(tm, ot string) (TimeControl, bool) {
	secs := func(s string) (time.Duration, bool) {
		var f float64
		if _, err := fmt.Sscan(strings.TrimSpace(s), &f); err != nil || f < 0 || f > float64(365*24*3600) {
			return 0, false
		}
		return time.Duration(f * float64(time.Second)).Round(time.Second), true
	}
	main, hasMain := secs(tm)
	if strings.TrimSpace(tm) == "" {
		main, hasMain = 0, true
	}
	if !hasMain {
		return TimeControl{}, false
	}
	o := strings.ToLower(strings.TrimSpace(ot))
	var n, m int
	var rest string
	switch {
	case o == "" && main > 0:
		return TimeControl{Kind: Absolute, Main: main}, true
	case strings.HasPrefix(o, "correspondence "):
		var d int64
		if _, err := fmt.Sscanf(o, "correspondence %d per move", &d); err == nil && d > 0 {
			return TimeControl{Kind: PerMove, PerMove: time.Duration(d) * time.Second}, true
		}
	case strings.Contains(o, "byo-yomi") || strings.Contains(o, "byoyomi"):
		if k, _ := fmt.Sscanf(o, "%dx%d%s", &n, &m, &rest); k >= 2 && n > 0 && m > 0 {
			return TimeControl{Kind: ByoYomi, Main: main, Periods: n, Period: time.Duration(m) * time.Second}, true
		}
	case strings.Contains(o, "canadian"):
		if k, _ := fmt.Sscanf(o, "%d/%d%s", &n, &m, &rest); k >= 2 && n > 0 && m > 0 {
			return TimeControl{Kind: Canadian, Main: main, Stones: n, Period: time.Duration(m) * time.Second}, true
		}
	case strings.Contains(o, "fischer"):
		var inc, most int64
		k, _ := fmt.Sscanf(o, "%d fischer max %d", &inc, &most)
		if k >= 1 && inc >= 0 && main > 0 {
			c := TimeControl{Kind: Fischer, Main: main, Increment: time.Duration(inc) * time.Second, Max: time.Duration(most) * time.Second}
			if c.Max < c.Main {
				c.Max = c.Main
			}
			return c, true
		}
	case strings.HasSuffix(o, " simple"):
		var d int64
		if _, err := fmt.Sscanf(o, "%d simple", &d); err == nil && d > 0 {
			return TimeControl{Kind: Simple, PerMove: time.Duration(d) * time.Second}, true
		}
	}
	return TimeControl{}, false
}
