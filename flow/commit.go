package flow

import (
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/ratings"
)

// Committed is the outcome of Commit: the game's rating, if it ended
// now, and the turn passed on from teammates on vacation.
type Committed struct {
	Rated ratings.Rated
	Turns TurnsPassed
}

// Commit stores what an operation did to l at t, in its transaction:
// the game rated if it ended now, its record, the turn passed on from
// absent teammates (PassAwayTurns), the engine's work marked due (Due),
// the time of the change.
func Commit(tx gobot.Tx, l *Loaded, e Engines, t time.Time) (c Committed, err error) {
	if !l.Match.Active() { // it ended now: rate it in this transaction
		if c.Rated, err = ratings.Rate(tx, l.Match, l.G); err != nil {
			return c, err
		}
		if err := gameEnded(tx, l.Match, t); err != nil { // its tournament's or ladder's result (tournament.go, ladder.go)
			return c, err
		}
	}
	l.Match.Record = l.G.Record()
	c.Turns = PassAwayTurns(tx, l)
	l.Match.Updated = t
	e.Due(l, t)
	return c, save(tx, l.Match)
}

// Due marks l's game due in the deadline index at t when an engine has
// work in it (Job), so that the clock loop asks again after a restart.
// Called on every change to a game before it is stored.
func (e Engines) Due(l *Loaded, t time.Time) {
	if e.Job(l.Match, l.G) != JobNone {
		l.Match.Deadline, l.Match.Reminded, l.Match.Due = t, 0, gobot.DueEngine
	} else if l.Match.Due == gobot.DueEngine {
		l.Match.Due = gobot.DueUnknown // the engine's work is done: the save path says what is due
	}
}
