package flow

import (
	"fmt"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// EngineMove is an engine's move: one play or pass, or several stones
// when it places free handicap; Resign when it resigns. Illegal names a
// proposal the rules refused (then Moves holds a pass).
type EngineMove struct {
	Moves   []game.Move
	Resign  bool
	Illegal string
}

// EngineColor is the engine's colour in match (Empty in people's games).
func EngineColor(match *gobot.Match) game.Color {
	return match.Find(gobot.SideEngine).Color
}

// EngineJob is what an engine has to do next in a game.
type EngineJob uint8

// String names the work in chat's Done.Did.
func (j EngineJob) String() string {
	return [...]string{"none", "move", "dead stones proposed", "marking reviewed", "count accepted"}[j]
}

// The engine jobs.
const (
	JobNone    EngineJob = iota
	JobMove              // the engine is to play
	JobPropose           // propose dead stones for this scoring phase
	JobReview            // review the marking the player changed
	JobAccept            // accept a count with no dead stones to agree on
)

// Engines is what the flow knows of the bot's engines: whether any are
// set up (Running), and Scorer, the one proposing the dead stones in
// people's games ("" for none).
type Engines struct {
	Running bool
	Scorer  string
}

// Job is the engine's job in match, with g its rules state.
func (e Engines) Job(match *gobot.Match, g *game.Game) EngineJob {
	if !match.Active() {
		return JobNone
	}
	ec := EngineColor(match)
	switch g.Phase() {
	case game.Playing:
		if ec != game.Empty && g.ToMove() == ec {
			return JobMove
		}
	case game.Scoring:
		if g.Rules().NoAgreement {
			if ec != game.Empty && !g.Accepted(ec) {
				return JobAccept
			}
			return JobNone
		}
		proposer := match.Engine
		if proposer == "" {
			proposer = e.Scorer
		}
		if proposer == "" || !e.Running {
			return JobNone
		}
		if match.EngineDead != g.MoveCount() {
			return JobPropose
		}
		if ec != game.Empty && !g.Accepted(ec) {
			return JobReview
		}
	}
	return JobNone
}

// EngineAnswer is an engine's answer to Job: its Move, its Dead stones,
// or whether it Agrees with the players' marking.
type EngineAnswer struct {
	Job    EngineJob
	Move   EngineMove
	Dead   []game.Point
	Agrees bool
}

// EngineTurn is the outcome of an engine's answer: what the engine did.
type EngineTurn struct {
	Job   EngineJob  // the job done; JobNone when the game moved on first
	Color game.Color // the engine's colour (Empty when it judges a people's game)
	Kept  bool       // JobPropose: the players marked first; their marking stands

	Resigned bool         // JobMove: it resigned
	Played   []game.Point // JobMove: the stones it played (several: free handicap)
	Passed   bool         // JobMove: it passed
	Scored   bool         // its pass ended the play: the game is being scored
	Illegal  string       // it proposed this, which the rules refused
	Before   int          // the game's move count before its move

	Dead   []game.Point // JobPropose: the dead stones it marked
	Agrees bool         // JobReview: it accepts the marking (else play resumes)
	Over   bool         // the game is over
}

// SamePosition reports whether two loads of a game are at the same
// point: moves, resumes, phase, marks and acceptances.
func SamePosition(a, b *Loaded) bool {
	ra, rb := a.G.Record(), b.G.Record()
	return a.G.Phase() == b.G.Phase() && len(ra.Moves) == len(rb.Moves) && slices.Equal(ra.Resumes, rb.Resumes) &&
		slices.Equal(ra.Dead, rb.Dead) && slices.Equal(ra.Accepted, rb.Accepted) && a.Match.EngineDead == b.Match.EngineDead
}

// Answer applies the engine's answer a, asked about the game as snap
// was, to the game as it is now (l) at t, if it is still where it was
// asked: a move played, a pass, a resignation, the dead stones marked, a
// marking accepted or disputed, a count accepted. The caller rates a
// game it ended and stores it.
func (e Engines) Answer(snap, l *Loaded, a EngineAnswer, t time.Time) (EngineTurn, error) {
	if !SamePosition(snap, l) || e.Job(l.Match, l.G) != a.Job {
		if a.Job == JobPropose && l.G.Phase() == game.Scoring && l.G.MoveCount() == snap.G.MoveCount() && l.Match.EngineDead != l.G.MoveCount() {
			// The players marked stones first: keep theirs.
			l.Match.EngineDead = l.G.MoveCount()
			StartClock(l.Match, l.G, t)
			return EngineTurn{Job: JobPropose, Kept: true}, nil
		}
		return EngineTurn{}, nil // someone else applied it, or the game moved on
	}
	turn := EngineTurn{Job: a.Job, Color: EngineColor(snap.Match)}
	ec := turn.Color
	switch a.Job {
	case JobMove:
		if err := engineMoved(l, a.Move, t, &turn); err != nil {
			return EngineTurn{}, err
		}
	case JobPropose:
		turn.Dead = markDead(l, a.Dead, ec)
	case JobReview:
		turn.Agrees = a.Agrees
		if a.Agrees {
			l.G.Accept(ec)
		} else if err := l.G.Resume(); err != nil {
			return EngineTurn{}, err
		}
	case JobAccept:
		l.G.Accept(ec)
	}
	if l.G.Phase() == game.Over {
		Finish(l.Match, l.G, t)
		turn.Over = true
	} else if a.Job != JobMove {
		StartClock(l.Match, l.G, t)
	}
	l.Match.Record = l.G.Record()
	l.Match.Updated = t
	return turn, nil
}

// engineMoved plays the engine's move mv in l at t.
func engineMoved(l *Loaded, mv EngineMove, t time.Time, turn *EngineTurn) error {
	ec := turn.Color
	if mv.Resign {
		turn.Resigned = true
		return l.G.Resign(ec)
	}
	turn.Before = l.G.MoveCount()
	for _, m := range mv.Moves {
		if m.Color != ec || l.G.Phase() != game.Playing {
			break
		}
		if err := l.G.PlayMove(m); err != nil {
			return fmt.Errorf("engine move %s: %w", m.Point.GTP(l.G.Config().Height), err)
		}
		Moved(l.Match, l.G, ec, t)
		if m.IsPass() {
			turn.Passed = true
		} else {
			turn.Played = append(turn.Played, m.Point)
		}
	}
	turn.Scored = turn.Passed && l.G.Phase() == game.Scoring
	turn.Illegal = mv.Illegal
	return nil
}

// markDead replaces the marking with the engine's dead stones and
// returns those marked; in an engine game (ec not Empty) the engine
// accepts its own list.
func markDead(l *Loaded, dead []game.Point, ec game.Color) []game.Point {
	for _, p := range l.G.DeadStrings() {
		l.G.ToggleDead(p, false)
	}
	var marked []game.Point
	for _, p := range dead {
		if l.G.At(p) == game.Empty || l.G.IsDead(p) {
			continue
		}
		if err := l.G.ToggleDead(p, false); err == nil {
			marked = append(marked, p)
		}
	}
	l.Match.EngineDead = l.G.MoveCount()
	if ec != game.Empty {
		l.G.Accept(ec)
	}
	return marked
}

// EngineFallback is the engine's turn when judging the dead stones
// (job) failed: if the game l is still where snap was, the marking as it
// stands is accepted for the engine (in an engine game). The turn's Job
// is JobNone when the game moved on.
func EngineFallback(snap, l *Loaded, job EngineJob, t time.Time) EngineTurn {
	if !SamePosition(snap, l) {
		return EngineTurn{}
	}
	turn := EngineTurn{Job: job, Color: EngineColor(l.Match)}
	l.Match.EngineDead = l.G.MoveCount()
	if turn.Color != game.Empty {
		l.G.Accept(turn.Color)
		l.Match.Record = l.G.Record()
	}
	if l.G.Phase() == game.Over {
		Finish(l.Match, l.G, t)
		turn.Over = true
	} else {
		StartClock(l.Match, l.G, t)
	}
	l.Match.Updated = t
	return turn
}
