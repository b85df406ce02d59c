package flow

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
)

// Timed work through the same door: Due does a game's due work at now,
// as Act does an actor's action — the kind of work is the game's stored
// Match.Due (a clock's timeout or reminder, a live pause's end, a vote
// window's close), the game is replayed once, the work applied and saved
// through the one save path, and what happened returned as data.
// An engine's turn is an actor's (engine.go): it is asked outside any
// transaction first.

// DueOutcome is what a game's due work did: nothing (Did nil: not due
// any more, or done by another process), or Did one of TeamTimedOut,
// TimedOut, Reminder, PauseEnded, VoteClosed; Step names it, for the
// claim of its messages (the same work decided twice is one step).
type DueOutcome struct {
	Game *Loaded
	Did  any
	Step string
	// Late is the player whose clock ran out or is reminded (a team's
	// player to move, the room's seat).
	Late gobot.UserID
	// Lost is a timeout's losing team's presence (who is away).
	Lost Presence
	Committed
	Wake bool
}

// PauseEnded is a live pause that ran out of its allowance: the clocks
// restarted at its end.
type PauseEnded struct{}

// Due does game m's due work at now (m as read in tx), with the clock's
// reminder leads (longest first). It is a no-op when the work is no
// longer due: a second process, or this one again, decides nothing.
func Due(tx gobot.Tx, e Engines, reminders []time.Duration, m *gobot.Match, now time.Time) (*DueOutcome, error) {
	if !m.Active() || m.Deadline.IsZero() {
		return &DueOutcome{}, nil
	}
	switch DueOf(m, e) {
	case gobot.DueClock:
		return clockWork(tx, e, reminders, m, now)
	case gobot.DuePause:
		return pauseWork(tx, m, now)
	case gobot.DueVote:
		return voteWork(tx, e, m, now)
	}
	return &DueOutcome{}, nil
}

// clockWork is a clock's due work: a loss on time (a team's turn passed
// to the next teammate first), or a reminder.
func clockWork(tx gobot.Tx, e Engines, reminders []time.Duration, m *gobot.Match, now time.Time) (*DueOutcome, error) {
	if m.LivePaused() { // paused since it was listed: the pause's work
		return &DueOutcome{}, nil
	}
	l, err := Load(m)
	if err != nil {
		return nil, err
	}
	out := &DueOutcome{Game: l}
	side := m.Side(l.G.ToMove())
	out.Late = side.ToMove()
	deadline := m.Deadline
	if !now.Before(deadline) {
		t, handled, err := TeamTimeout(tx, l, now)
		if err != nil {
			return nil, err
		}
		if handled {
			out.Did, out.Turns = t, t.Turns
			out.Step = fmt.Sprintf("game %d deadline %d team timeout", m.ID, deadline.UnixNano())
			return out, nil
		}
		o, err := Timeout(l, now)
		if err != nil {
			return nil, err
		}
		if out.Committed, err = Commit(tx, l, e, now); err != nil {
			return nil, err
		}
		out.Did, out.Step = o, fmt.Sprintf("game %d timeout", m.ID)
		out.Lost = TeamPresence(tx, m, o.Lost)
		out.Wake = e.Job(m, l.G) != JobNone
		return out, nil
	}
	rem, ok := Remind(m, reminders, now)
	if !ok {
		return &DueOutcome{}, nil
	}
	out.Step = fmt.Sprintf("game %d deadline %d reminder %d", m.ID, deadline.UnixNano(), rem.K)
	if side.Rotates() { // a turn passed on keeps its deadline: each player is reminded
		out.Step += " to " + string(out.Late)
	}
	out.Did = rem
	return out, save(tx, m)
}

// pauseWork restarts the clocks of a game whose pause time is spent.
func pauseWork(tx gobot.Tx, m *gobot.Match, now time.Time) (*DueOutcome, error) {
	if !m.LivePaused() || now.Before(m.Deadline) {
		return &DueOutcome{}, nil
	}
	l, err := Load(m)
	if err != nil {
		return nil, err
	}
	step := fmt.Sprintf("game %d pause %d ends", m.ID, m.Pause.Since.UnixNano())
	EndPause(m, now)
	return &DueOutcome{Game: l, Did: PauseEnded{}, Step: step}, save(tx, m)
}

// voteWork closes a vote game's window once its time has come: it counts
// the ballots and plays the move with the most votes (or resigns).
func voteWork(tx gobot.Tx, e Engines, m *gobot.Match, now time.Time) (*DueOutcome, error) {
	if !m.Vote.WindowOpen() || now.Before(m.Vote.Closes) {
		return &DueOutcome{}, nil
	}
	l, err := Load(m)
	if err != nil {
		return nil, err
	}
	if !m.Find(gobot.SideRoom).Moves(l.G) {
		return &DueOutcome{}, nil
	}
	// A window that stays open without a move closes again later, at
	// the same move: its close time tells the two apart.
	step := fmt.Sprintf("game %d vote at move %d resume %d closes %d", m.ID, l.G.MoveCount(), len(l.G.Record().Resumes), m.Vote.Closes.UnixNano())
	closed, err := CloseVote(l, now)
	if err != nil {
		return nil, err
	}
	out := &DueOutcome{Game: l, Did: closed, Step: step}
	if out.Committed, err = Commit(tx, l, e, now); err != nil {
		return nil, err
	}
	out.Wake = e.Job(m, l.G) != JobNone
	return out, nil
}
