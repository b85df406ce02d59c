package flow

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// A live game's pause (OGS's manners, issue 38): one player asks with
// pause, the other accepts with pause (or its button), and both clocks
// stop until either player resumes, or until the game's
// gobot.PauseAllowance is spent: then the pause job restarts them
// (EndPause). While a pause runs, Match.Deadline is its end, as a vote
// window's close is, and Pause.Left the time the player to move had;
// moves wait for resume.

// Unpausable refuses a pause where none can be, for its Reason.
type Unpausable struct {
	Game   gobot.GameID
	Reason PauseReason
}

// PauseReason is why a game's clocks cannot pause.
type PauseReason int

const (
	PauseScoring PauseReason = iota // the game is being scored: no clock runs
	PauseNotLive                    // the clock is correspondence, or there is none
	PauseEngine                     // the opponent is an engine
	PauseRoom                       // the room plays by vote, and cannot answer
)

func (e Unpausable) Error() string {
	return fmt.Sprintf("game #%d cannot pause (%d)", e.Game, e.Reason)
}

// AlreadyPaused refuses a pause while the clocks stand paused, with the
// pause time Left.
type AlreadyPaused struct{ Left time.Duration }

func (e AlreadyPaused) Error() string { return "already paused" }

// PauseUsedUp refuses a pause in a game that used its allowance.
type PauseUsedUp struct{}

func (PauseUsedUp) Error() string { return "the pause allowance is used up" }

// PauseWaiting refuses a second ask for a pause from Side.
type PauseWaiting struct{ Side game.Color }

func (e PauseWaiting) Error() string { return "a pause is already asked" }

// NotPaused refuses a resume where the clocks run.
type NotPaused struct{}

func (NotPaused) Error() string { return "nothing is paused" }

// Pausable refuses a pause where none can be: a game not being played,
// a clock that is not live, a game against an engine or by a room's vote.
func Pausable(l *Loaded) error {
	m := l.Match
	refuse := func(r PauseReason) error { return Unpausable{m.ID, r} }
	switch {
	case l.G.Phase() == game.Scoring:
		return refuse(PauseScoring)
	case l.G.Phase() != game.Playing:
		return game.ErrGameOver
	case !m.Clock.Live():
		return refuse(PauseNotLive)
	case m.Has(gobot.SideEngine):
		return refuse(PauseEngine)
	case m.Has(gobot.SideRoom):
		return refuse(PauseRoom)
	}
	return nil
}

// Paused is a pause command's outcome: Accepted (the clocks stopped) or
// asked of the other side, with the pause time Left.
type Paused struct {
	Accepted bool
	Left     time.Duration
}

// pause is u's pause command, playing colour me, at t: it asks the other
// side to pause, or accepts their ask and stops both clocks.
func pause(l *Loaded, me game.Color, u gobot.UserID, t time.Time) (Paused, error) {
	m := l.Match
	if err := Pausable(l); err != nil {
		return Paused{}, err
	}
	if m.LivePaused() {
		return Paused{}, AlreadyPaused{m.PauseLeft(t)}
	}
	left := m.PauseLeft(t)
	if left <= 0 {
		return Paused{}, PauseUsedUp{}
	}
	if !m.Deadline.IsZero() && !t.Before(m.Deadline) {
		return Paused{}, InTime(m, t) // the clock job ends it on time
	}
	if m.Pause == nil {
		m.Pause = &gobot.LivePause{}
	}
	p := m.Pause
	if p.Asked == "" || m.ColorOf(p.Asked) == me {
		if p.Asked != "" {
			return Paused{}, PauseWaiting{me}
		}
		p.Asked = u
		return Paused{Left: left}, nil
	}
	p.Asked, p.Since, p.Left = "", t, m.Deadline.Sub(t)
	m.Deadline, m.Reminded = t.Add(left), 0
	return Paused{Accepted: true, Left: left}, nil
}

// resumePause restarts the paused clocks of live game m at t: the player
// to move gets back the time they had.
func resumePause(m *gobot.Match, t time.Time) {
	p := m.Pause
	p.Used += t.Sub(p.Since)
	m.Deadline = t.Add(p.Left)
	p.Since, p.Left, p.Asked = time.Time{}, 0, ""
	m.Reminded = 0
}

// ResumePause restarts a live game's paused clocks at t, or says why
// there is nothing to resume.
func ResumePause(l *Loaded, t time.Time) (Resumed, error) {
	m := l.Match
	if l.G.Phase() != game.Playing {
		return Resumed{}, game.ErrNotScoring
	}
	if !m.LivePaused() {
		if err := Pausable(l); err != nil {
			return Resumed{}, err
		}
		return Resumed{}, NotPaused{}
	}
	resumePause(m, t)
	return Resumed{Live: true, PauseLeft: m.PauseLeft(t)}, nil
}

// PauseDue reports whether m's clocks stand paused (the pause job's),
// and whether its pause time is spent at now (its Deadline while paused).
func PauseDue(m *gobot.Match, at, now time.Time) (mine, due bool) {
	if !m.LivePaused() {
		return false, false
	}
	return true, !now.Before(at)
}

// EndPause restarts the clocks of a game whose pause time is spent at
// now, from the pause's end (not now); it reports whether it did.
func EndPause(m *gobot.Match, now time.Time) bool {
	if !m.Active() || !m.LivePaused() || now.Before(m.Deadline) {
		return false
	}
	resumePause(m, m.Deadline)
	m.Updated = now
	return true
}

// Code names the refusal (Refusal).
func (Unpausable) Code() string { return "unpausable" }

// Code names the refusal (Refusal).
func (AlreadyPaused) Code() string { return "already-paused" }

// Code names the refusal (Refusal).
func (PauseUsedUp) Code() string { return "pause-used-up" }

// Code names the refusal (Refusal).
func (PauseWaiting) Code() string { return "pause-waiting" }

// Code names the refusal (Refusal).
func (NotPaused) Code() string { return "not-paused" }
