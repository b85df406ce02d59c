package web

import (
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// The clocks of a live game (issue 38), counted down by the page
// between events. The state carries each colour's clock as the server
// last knew it and, for the running one, the server's time its turn
// began (Since); every event and answer also carries the server's time
// it was sent (state.Now), so the page counts from the server's clock,
// not its own, and is set right again by the next event. The page does
// Elapse and ShowClock over again (boardui.js, gobotClock), the same
// arithmetic as clock.go.

// clockView is a live game's clocks in the state.
type clockView struct {
	// Kind is the system: byoyomi, canadian, fischer, absolute, simple.
	Kind string `json:"kind"`
	// Period (ms) and Stones are the system's byo-yomi or Canadian
	// period and a Canadian period's stones.
	Period int64 `json:"period,omitempty"`
	Stones int   `json:"stones,omitempty"`
	// Running is the colour whose clock runs, since Since (the server's
	// time, ms since 1970); none once the game is over.
	Running string     `json:"running,omitempty"`
	Since   int64      `json:"since,omitempty"`
	Black   clockSideV `json:"black"`
	White   clockSideV `json:"white"`
	// Out is the colour that lost on time.
	Out string `json:"out,omitempty"`
	// Paused is the player to move's colour while a pause stops both
	// clocks (none runs), PauseEnds the server's time (ms) the pause's
	// allowance runs out, which the page counts down to.
	Paused    string `json:"paused,omitempty"`
	PauseEnds int64  `json:"pauseEnds,omitempty"`
}

// clockSideV is one colour's clock (gobot.ClockState, in ms); a simple
// clock's Main is its time per move.
type clockSideV struct {
	Main    int64 `json:"main"`
	Periods int   `json:"periods,omitempty"`
	Stones  int   `json:"stones,omitempty"`
	Period  int64 `json:"period,omitempty"`
}

var clockKinds = map[gobot.ClockKind]string{gobot.ByoYomi: "byoyomi", gobot.Canadian: "canadian", gobot.Fischer: "fischer", gobot.Absolute: "absolute", gobot.Simple: "simple"}

// liveClocks is a live game's clocks (board.View.Live) in the
// state; nil for a correspondence clock or none.
func liveClocks(lc *board.Clocks) *clockView {
	if lc == nil {
		return nil
	}
	tc := lc.Control
	v := &clockView{Kind: clockKinds[tc.Kind], Period: tc.Period.Milliseconds(), Stones: tc.Stones, Running: colorName(lc.Running), Out: colorName(lc.Out), Paused: colorName(lc.Paused)}
	side := func(c game.Color) clockSideV {
		s := lc.Clocks[c]
		if tc.Kind == gobot.Simple && c != lc.Paused {
			s = gobot.ClockState{Main: tc.PerMove}
		}
		return clockSideV{Main: s.Main.Milliseconds(), Periods: s.Periods, Stones: s.Stones, Period: s.Period.Milliseconds()}
	}
	v.Black, v.White = side(game.Black), side(game.White)
	if v.Running != "" {
		v.Since = lc.Since.UnixMilli()
	}
	if v.Paused != "" {
		v.PauseEnds = lc.PauseEnds.UnixMilli()
	}
	return v
}

// reading is colour c's clock as the page first draws it (the page
// counts on from there), read as every surface reads a live clock
// (board.Clocks.At): the time left in the system's terms, and the whole
// seconds left before the loss on time.
func reading(lc *board.Clocks, c game.Color, now time.Time) (text string, seconds int64) {
	s, ok := lc.At(c, now)
	if !ok {
		return "Time is up", 0
	}
	tc := lc.Counted()
	if c == lc.Paused {
		return tc.ShowClock(s) + " · paused", int64(tc.Budget(s) / time.Second)
	}
	return tc.ShowClock(s), int64(tc.Budget(s) / time.Second)
}
