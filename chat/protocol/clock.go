package protocol

import (
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// maxClock is the most time a clock may hold.
const maxClock = 365 * 24 * time.Hour

// ParseClock reads a clock (the arithmetic is gobot.TimeControl's):
//
//	none                 no clock
//	3d                   each move within 3 days (correspondence; 1m to 365d)
//	fischer:3d+1d/7d     a bank of 3 days, +1 day a move, at most 7 days
//	                     ("fischer 3d+1d max 7d"; without a maximum, at most the start)
//	byoyomi:10m+5x30s    10 minutes, then 5 periods of 30 seconds
//	canadian:10m+25/5m   10 minutes, then 25 stones in each 5 minutes
//	absolute:20m         20 minutes for the whole game
//	simple:30s           30 seconds each move, no bank
//
// Units: s, m, h, d, w, combined like 1m30s. Main time may be 0 (written
// 0 or 0s); a period, a bank and a time per move are 1 s or more.
func ParseClock(s string) (gobot.TimeControl, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "", "none", "off", "no":
		return gobot.TimeControl{}, nil
	}
	p := clockParser{spec: s}
	kind, rest, hasKind := strings.Cut(t, ":")
	if !hasKind {
		kind, rest, hasKind = strings.Cut(t, " ")
	}
	if !hasKind {
		kind, rest = "", t
	}
	rest = strings.ReplaceAll(strings.TrimSpace(rest), " max ", "/")
	rest = strings.ReplaceAll(rest, " ", "")
	var c gobot.TimeControl
	var err error
	switch strings.ReplaceAll(kind, "-", "") {
	case "":
		c, err = p.perMove(rest)
	case "fischer":
		c, err = p.fischer(rest)
	case "byoyomi", "byo":
		c, err = p.byoYomi(rest)
	case "canadian":
		c, err = p.canadian(rest)
	case "absolute":
		c.Kind = gobot.Absolute
		c.Main, err = p.time(rest, "the game's time", 1)
	case "simple":
		c.Kind = gobot.Simple
		c.PerMove, err = p.time(rest, "the time per move", 1)
	default:
		return gobot.TimeControl{}, Refusef("clock %s: %s is not a time system; write clock=3d, fischer:5m+10s/10m, byoyomi:10m+5x30s, canadian:10m+25/5m, absolute:20m, simple:30s or none", Echo(s), ClipArg(kind))
	}
	if err != nil {
		return gobot.TimeControl{}, err
	}
	if b := c.Budget(c.Start()); b > maxClock || c.Max > maxClock || (c.Kind == gobot.Canadian && c.Main+c.Period > maxClock) {
		return gobot.TimeControl{}, Refusef("clock %s: the most a clock can hold is 365 days", Echo(s))
	}
	return c, nil
}

// clockParser reads the parts of one clock spec, refusing a bad part by
// name.
type clockParser struct{ spec string }

// time reads a part that must be at least least (0: may be 0).
func (p clockParser) time(part, what string, least time.Duration) (time.Duration, error) {
	d, err := parseDuration(part)
	if part == "0" {
		d, err = 0, nil
	}
	switch {
	case err != nil:
		return 0, Refusef("clock %s: %s %s is not a time like 30s, 10m, 1h30m or 3d", Echo(p.spec), what, Echo(part))
	case d < least:
		return 0, Refusef("clock %s: %s must be at least 1s", Echo(p.spec), what)
	case d > maxClock:
		return 0, Refusef("clock %s: the most a clock can hold is 365 days", Echo(p.spec))
	}
	return d, nil
}

// count reads a number of periods or stones, 1 to most.
func (p clockParser) count(part, what, example string, most int) (int, error) {
	n, err := strconv.Atoi(part)
	if err != nil || n < 1 || n > most {
		return 0, Refusef("clock %s: %s is 1 to %d, like %s", Echo(p.spec), what, most, example)
	}
	return n, nil
}

func (p clockParser) perMove(t string) (gobot.TimeControl, error) {
	d, err := parseDuration(t)
	if err != nil || d <= 0 {
		return gobot.TimeControl{}, Refusef("clock %s: write a time per move like clock=3d, a live clock like byoyomi:10m+5x30s or fischer:5m+10s/10m, or clock=none", Echo(p.spec))
	}
	if d < time.Minute || d > maxClock {
		return gobot.TimeControl{}, Refusef("clock %s: a move may take between 1 minute and 365 days; for a live clock of %s a move write clock=simple:%s", Echo(p.spec), ClipArg(t), ClipArg(t))
	}
	return gobot.TimeControl{Kind: gobot.PerMove, PerMove: d}, nil
}

func (p clockParser) fischer(t string) (gobot.TimeControl, error) {
	main, rest, ok := strings.Cut(t, "+")
	if !ok {
		return gobot.TimeControl{}, Refusef("clock %s: a Fischer clock is a start, an increment per move and a maximum, like fischer:10m+1m/30m", Echo(p.spec))
	}
	inc, max, hasMax := strings.Cut(rest, "/")
	c := gobot.TimeControl{Kind: gobot.Fischer}
	var err error
	if c.Main, err = p.time(main, "the starting time", time.Second); err != nil {
		return c, err
	}
	if c.Increment, err = p.time(inc, "the increment", 0); err != nil { // 0 read as before: a bank that never grows
		return c, err
	}
	c.Max = c.Main
	if hasMax {
		if c.Max, err = p.time(max, "the maximum", time.Second); err != nil {
			return c, err
		}
		if c.Max < c.Main {
			return c, Refusef("clock %s: the maximum must be at least the starting time", Echo(p.spec))
		}
	}
	return c, nil
}

func (p clockParser) byoYomi(t string) (gobot.TimeControl, error) {
	main, rest, ok := strings.Cut(t, "+")
	n, period, ok2 := strings.Cut(rest, "x")
	if !ok2 {
		n, period, ok2 = strings.Cut(rest, "×")
	}
	if !ok || !ok2 {
		return gobot.TimeControl{}, Refusef("clock %s: byo-yomi is a main time and periods, like byoyomi:10m+5x30s (10 minutes, then 5 periods of 30s)", Echo(p.spec))
	}
	c := gobot.TimeControl{Kind: gobot.ByoYomi}
	var err error
	if c.Main, err = p.time(main, "the main time", 0); err != nil {
		return c, err
	}
	if c.Periods, err = p.count(n, "the number of periods", "byoyomi:10m+5x30s", 100); err != nil {
		return c, err
	}
	c.Period, err = p.time(period, "a period", time.Second)
	return c, err
}

func (p clockParser) canadian(t string) (gobot.TimeControl, error) {
	main, rest, ok := strings.Cut(t, "+")
	n, period, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 {
		return gobot.TimeControl{}, Refusef("clock %s: Canadian is a main time, then stones in a period, like canadian:10m+25/5m (10 minutes, then 25 stones in each 5 minutes)", Echo(p.spec))
	}
	c := gobot.TimeControl{Kind: gobot.Canadian}
	var err error
	if c.Main, err = p.time(main, "the main time", 0); err != nil {
		return c, err
	}
	if c.Stones, err = p.count(n, "the stones in a period", "canadian:10m+25/5m", 1000); err != nil {
		return c, err
	}
	c.Period, err = p.time(period, "a period", time.Second)
	return c, err
}

// FormatClockDuration prints a clock's duration as typed: "1d12h",
// "10m", "1m30s"; zero is "0" (no main time, no increment).
func FormatClockDuration(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return gobot.ShortTime(d)
}

// FormatClock prints a clock as typed: "none", "3d", "fischer:3d+1d/7d"
// (without a maximum when it is the start: "fischer:10m+1m",
// "fischer:5m+0"), "byoyomi:10m+5x30s", "canadian:10m+25/5m",
// "absolute:20m", "simple:30s".
func FormatClock(c gobot.TimeControl) string {
	short := FormatClockDuration
	switch c.Kind {
	case gobot.PerMove:
		return short(c.PerMove)
	case gobot.Fischer:
		if c.Max == c.Main {
			return "fischer:" + short(c.Main) + "+" + short(c.Increment)
		}
		return "fischer:" + short(c.Main) + "+" + short(c.Increment) + "/" + short(c.Max)
	case gobot.ByoYomi:
		return "byoyomi:" + short(c.Main) + "+" + strconv.Itoa(c.Periods) + "x" + short(c.Period)
	case gobot.Canadian:
		return "canadian:" + short(c.Main) + "+" + strconv.Itoa(c.Stones) + "/" + short(c.Period)
	case gobot.Absolute:
		return "absolute:" + short(c.Main)
	case gobot.Simple:
		return "simple:" + short(c.PerMove)
	}
	return "none"
}
