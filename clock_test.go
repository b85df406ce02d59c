package gobot

import (
	"testing"
	"time"
)

const (
	sec = time.Second
	mnt = time.Minute
)

// step is one turn of a clock test: the move comes after `after` of the
// turn (moved false: the turn only runs that long), and the clock then
// reads want, or the player has lost on time.
type step struct {
	after time.Duration
	moved bool
	want  ClockState
	lost  bool
}

func TestClockArithmetic(t *testing.T) {
	byo := TimeControl{Kind: ByoYomi, Main: 10 * mnt, Periods: 5, Period: 30 * sec}
	byo0 := TimeControl{Kind: ByoYomi, Periods: 3, Period: 10 * sec}
	can := TimeControl{Kind: Canadian, Main: 10 * mnt, Stones: 25, Period: 5 * mnt}
	can2 := TimeControl{Kind: Canadian, Stones: 2, Period: 20 * sec}
	fis := TimeControl{Kind: Fischer, Main: 5 * mnt, Increment: 10 * sec, Max: 10 * mnt}
	abs := TimeControl{Kind: Absolute, Main: 20 * mnt}
	sim := TimeControl{Kind: Simple, PerMove: 30 * sec}
	per := TimeControl{Kind: PerMove, PerMove: 72 * time.Hour}
	tests := []struct {
		name  string
		c     TimeControl
		steps []step
	}{
		{"byo-yomi: main time is spent first", byo, []step{
			{after: 2 * mnt, moved: true, want: ClockState{Main: 8 * mnt, Periods: 5, Period: 30 * sec}},
			{after: 7*mnt + 59*sec, moved: true, want: ClockState{Main: sec, Periods: 5, Period: 30 * sec}},
		}},
		{"byo-yomi: a move inside a period keeps it and the period starts afresh", byo, []step{
			{after: 10*mnt + 29*sec, moved: true, want: ClockState{Periods: 5, Period: 30 * sec}},
			{after: 29 * sec, moved: true, want: ClockState{Periods: 5, Period: 30 * sec}},
		}},
		{"byo-yomi: a period that runs out is used up and the next begins", byo, []step{
			{after: 10*mnt + 30*sec, moved: true, want: ClockState{Periods: 4, Period: 30 * sec}},
			{after: 75 * sec, moved: true, want: ClockState{Periods: 2, Period: 30 * sec}},
		}},
		{"byo-yomi: the turn running shows the current period", byo, []step{
			{after: 10*mnt + 40*sec, want: ClockState{Periods: 4, Period: 20 * sec}},
		}},
		{"byo-yomi: after the last period the game is lost", byo, []step{
			{after: 10*mnt + 2*mnt + 29*sec, moved: true, want: ClockState{Periods: 1, Period: 30 * sec}},
			{after: 30 * sec, moved: true, lost: true, want: ClockState{}},
		}},
		{"byo-yomi: main time 0 starts in the periods", byo0, []step{
			{after: 9 * sec, moved: true, want: ClockState{Periods: 3, Period: 10 * sec}},
			{after: 25 * sec, moved: true, want: ClockState{Periods: 1, Period: 10 * sec}},
			{after: 10 * sec, lost: true, want: ClockState{}},
		}},
		{"canadian: main time, then stones in a period", can, []step{
			{after: 9 * mnt, moved: true, want: ClockState{Main: mnt, Stones: 25, Period: 5 * mnt}},
			{after: 2 * mnt, moved: true, want: ClockState{Stones: 24, Period: 4 * mnt}},
			{after: 50 * sec, want: ClockState{Stones: 24, Period: 3*mnt + 10*sec}},
		}},
		{"canadian: the period's stones in time give a fresh period", can2, []step{
			{after: 5 * sec, moved: true, want: ClockState{Stones: 1, Period: 15 * sec}},
			{after: 14 * sec, moved: true, want: ClockState{Stones: 2, Period: 20 * sec}},
			{after: 19 * sec, moved: true, want: ClockState{Stones: 1, Period: sec}},
		}},
		{"canadian: a period that runs out loses", can2, []step{
			{after: 5 * sec, moved: true, want: ClockState{Stones: 1, Period: 15 * sec}},
			{after: 15 * sec, moved: true, lost: true, want: ClockState{Stones: 1}},
		}},
		{"fischer: the increment, at most the maximum", fis, []step{
			{after: 20 * sec, moved: true, want: ClockState{Main: 4*mnt + 50*sec}},
			{after: 0, moved: true, want: ClockState{Main: 5 * mnt}},
			{after: 5 * mnt, moved: true, lost: true, want: ClockState{}},
		}},
		{"fischer: capped", TimeControl{Kind: Fischer, Main: 10 * sec, Increment: 10 * sec, Max: 15 * sec}, []step{
			{after: sec, moved: true, want: ClockState{Main: 15 * sec}},
		}},
		{"absolute: one bank for the game", abs, []step{
			{after: 19 * mnt, moved: true, want: ClockState{Main: mnt}},
			{after: 59 * sec, moved: true, want: ClockState{Main: sec}},
			{after: sec, moved: true, lost: true, want: ClockState{}},
		}},
		{"simple: each move, no bank", sim, []step{
			{after: 29 * sec, moved: true, want: ClockState{}},
			{after: 29 * sec, moved: true, want: ClockState{}},
			{after: 30 * sec, moved: true, lost: true, want: ClockState{}},
		}},
		{"per move: as before", per, []step{
			{after: 71 * time.Hour, moved: true, want: ClockState{}},
			{after: 72 * time.Hour, moved: true, lost: true, want: ClockState{}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.c.Start()
			for i, st := range tt.steps {
				budget := tt.c.Budget(s)
				f := tt.c.Elapse
				if st.moved {
					f = tt.c.Spend
				}
				got, ok := f(s, st.after)
				if ok == st.lost || got != st.want {
					t.Fatalf("step %d (%v): got %+v ok=%v, want %+v lost=%v", i+1, st.after, got, ok, st.want, st.lost)
				}
				// The deadline is Budget: time runs out exactly there.
				if _, ok := tt.c.Elapse(s, budget); ok && tt.c.Kind != NoClock {
					t.Fatalf("step %d: still time at Budget %v", i+1, budget)
				}
				if _, ok := tt.c.Elapse(s, budget-time.Nanosecond); !ok {
					t.Fatalf("step %d: out of time before Budget %v", i+1, budget)
				}
				s = got
			}
		})
	}
}

// TestClockBudgetIsTheDeadline: for every clock and every time into a
// turn, the player has lost exactly when that time reaches Budget, and
// the time still left after Elapse is Budget less what went by.
func TestClockBudgetIsTheDeadline(t *testing.T) {
	clocks := []TimeControl{
		{Kind: ByoYomi, Main: 10 * sec, Periods: 3, Period: 7 * sec},
		{Kind: Canadian, Main: 5 * sec, Stones: 3, Period: 20 * sec},
		{Kind: Fischer, Main: 15 * sec, Increment: 4 * sec, Max: 30 * sec},
		{Kind: Absolute, Main: 40 * sec},
		{Kind: Simple, PerMove: 9 * sec},
	}
	for _, c := range clocks {
		s := c.Start()
		for turn := 0; turn < 40; turn++ {
			b := c.Budget(s)
			for d := time.Duration(0); d <= b+sec; d += 500 * time.Millisecond {
				e, ok := c.Elapse(s, d)
				if ok != (d < b) {
					t.Fatalf("%+v turn %d: %v into a turn of %v: ok=%v", c, turn, d, b, ok)
				}
				if ok && c.Kind != Simple && c.Budget(e) != b-d {
					t.Fatalf("%+v turn %d: %v into a turn of %v leaves %v", c, turn, d, b, c.Budget(e))
				}
			}
			// Move at a different point of each turn, never too late.
			next, ok := c.Spend(s, min(time.Duration(turn%7)*1500*time.Millisecond, b-time.Millisecond))
			if !ok {
				t.Fatalf("%+v turn %d: a move in time lost", c, turn)
			}
			s = next
		}
	}
}

func TestShowClock(t *testing.T) {
	byo := TimeControl{Kind: ByoYomi, Main: 10 * mnt, Periods: 5, Period: 30 * sec}
	can := TimeControl{Kind: Canadian, Main: 10 * mnt, Stones: 25, Period: 5 * mnt}
	tests := []struct {
		c    TimeControl
		s    ClockState
		want string
	}{
		{byo, ClockState{Main: 2*mnt + 41*sec, Periods: 3, Period: 30 * sec}, "2:41 + 3×30s"},
		{byo, ClockState{Periods: 3, Period: 21 * sec}, "0:21 (3×30s)"},
		{byo, ClockState{Periods: 1, Period: 9*sec + 900*time.Millisecond}, "0:09 (last period)"},
		{can, ClockState{Main: 10 * mnt, Stones: 25, Period: 5 * mnt}, "10:00 + 25 stones in 5:00"},
		{can, ClockState{Stones: 12, Period: 4*mnt + 10*sec}, "12 stones in 4:10"},
		{can, ClockState{Stones: 1, Period: 10 * sec}, "1 stone in 0:10"},
		{TimeControl{Kind: Fischer, Main: 5 * mnt, Increment: 10 * sec, Max: 10 * mnt}, ClockState{Main: 4*mnt + 59*sec}, "4:59"},
		{TimeControl{Kind: Absolute, Main: 2 * time.Hour}, ClockState{Main: 90 * mnt}, "1:30:00"},
		{TimeControl{Kind: Simple, PerMove: 30 * sec}, ClockState{}, "0:30"},
	}
	for _, tt := range tests {
		if got := tt.c.ShowClock(tt.s); got != tt.want {
			t.Errorf("ShowClock(%+v) = %q, want %q", tt.s, got, tt.want)
		}
	}
}

func TestLive(t *testing.T) {
	tests := []struct {
		c    TimeControl
		want bool
	}{
		{TimeControl{Kind: ByoYomi, Main: 10 * mnt, Periods: 5, Period: 30 * sec}, true},
		{TimeControl{Kind: Canadian, Main: 10 * mnt, Stones: 25, Period: 5 * mnt}, true},
		{TimeControl{Kind: Absolute, Main: 20 * mnt}, true},
		{TimeControl{Kind: Simple, PerMove: 30 * sec}, true},
		{TimeControl{Kind: Fischer, Main: 5 * mnt, Increment: 10 * sec, Max: 10 * mnt}, true},
		{TimeControl{Kind: Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour}, false},
		{TimeControl{Kind: ByoYomi, Main: 3 * 24 * time.Hour, Periods: 5, Period: 24 * time.Hour}, false},
		{TimeControl{Kind: Fischer, Main: time.Hour, Increment: 10 * mnt, Max: 2 * time.Hour}, false},
		{TimeControl{Kind: Fischer, Main: time.Hour, Increment: 30 * sec, Max: 2 * time.Hour}, true}, // a live tournament's clock
		{TimeControl{Kind: Fischer, Main: 24 * time.Hour, Increment: time.Hour, Max: 48 * time.Hour}, false},
		{TimeControl{Kind: ByoYomi, Main: time.Hour, Periods: 5, Period: 30 * sec}, true}, // a live tournament's clock
		{TimeControl{Kind: Absolute, Main: 59 * mnt}, true},
		{TimeControl{Kind: Absolute, Main: 90 * mnt}, true},
		{TimeControl{Kind: Absolute, Main: 3 * 24 * time.Hour}, false},
		{TimeControl{Kind: Simple, PerMove: 2 * time.Hour}, false},
		{TimeControl{Kind: PerMove, PerMove: 5 * mnt}, false},
		{TimeControl{}, false},
	}
	for _, tt := range tests {
		if got := tt.c.Live(); got != tt.want {
			t.Errorf("Live(%+v) = %v, want %v", tt.c, got, tt.want)
		}
	}
}

func TestClockSGF(t *testing.T) {
	for _, tt := range []struct {
		c      TimeControl
		tm, ot string
	}{
		{TimeControl{Kind: ByoYomi, Main: 10 * mnt, Periods: 5, Period: 30 * sec}, "600", "5x30 byo-yomi"},
		{TimeControl{Kind: Canadian, Main: 10 * mnt, Stones: 25, Period: 5 * mnt}, "600", "25/300 Canadian"},
		{TimeControl{Kind: Fischer, Main: 5 * mnt, Increment: 10 * sec, Max: 10 * mnt}, "300", "10 fischer max 600"},
		{TimeControl{Kind: Absolute, Main: 20 * mnt}, "1200", ""},
		{TimeControl{Kind: Simple, PerMove: 30 * sec}, "0", "30 simple"},
		{TimeControl{Kind: PerMove, PerMove: 72 * time.Hour}, "", "correspondence 259200 per move"},
	} {
		tm, ot := tt.c.SGF()
		if tm != tt.tm || ot != tt.ot {
			t.Errorf("%+v: TM[%s] OT[%s], want TM[%s] OT[%s]", tt.c, tm, ot, tt.tm, tt.ot)
		}
		if back, ok := ClockFromSGF(tm, ot); !ok || back != tt.c {
			t.Errorf("ClockFromSGF(%q, %q) = %+v, %v; want %+v", tm, ot, back, ok, tt.c)
		}
	}
	// What others write.
	for _, tt := range []struct {
		tm, ot string
		want   TimeControl
		ok     bool
	}{
		{"1800", "3x30 byo-yomi", TimeControl{Kind: ByoYomi, Main: 30 * mnt, Periods: 3, Period: 30 * sec}, true},
		{"0", "5x10 byo-yomi", TimeControl{Kind: ByoYomi, Periods: 5, Period: 10 * sec}, true},
		{"900.0", "20/600 canadian", TimeControl{Kind: Canadian, Main: 15 * mnt, Stones: 20, Period: 10 * mnt}, true},
		{"300", "10 fischer", TimeControl{Kind: Fischer, Main: 5 * mnt, Increment: 10 * sec, Max: 5 * mnt}, true},
		{"", "", TimeControl{}, false},
		{"abc", "5x30 byo-yomi", TimeControl{}, false},
		{"600", "0x30 byo-yomi", TimeControl{}, false},
		{"600", "hourglass", TimeControl{}, false},
	} {
		got, ok := ClockFromSGF(tt.tm, tt.ot)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ClockFromSGF(%q, %q) = %+v, %v; want %+v, %v", tt.tm, tt.ot, got, ok, tt.want, tt.ok)
		}
	}
}
