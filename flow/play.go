package flow

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// The play of a game: moves, passes, the end by resignation or abort,
// undo by agreement, and the scoring (marking dead stones, accepting
// the count, resuming play). Each operation changes the loaded game at
// the given time (when the server received the command) and returns
// what happened; the caller stores it with Commit.

// NotYourTurn refuses a move by someone whose turn it is not: Next is to
// play (in a team game the turn is one player's: NotTeamTurn).
type NotYourTurn struct {
	Game gobot.GameID
	Next gobot.UserID
}

func (e NotYourTurn) Error() string {
	return fmt.Sprintf("game #%d: not your turn: %s is to play", e.Game, e.Next)
}

// WhilePaused refuses a move in a live game whose clocks are paused
// (pause.go): moves wait for resume.
type WhilePaused struct{ Game gobot.GameID }

func (e WhilePaused) Error() string { return fmt.Sprintf("game #%d is paused", e.Game) }

// TooLate refuses a move in a live game that reached the server By after
// the mover's deadline.
type TooLate struct {
	Game gobot.GameID
	By   time.Duration
}

func (e TooLate) Error() string { return fmt.Sprintf("game #%d: %v too late", e.Game, e.By) }

// IllegalMove is a move the rules refuse at Point: Err is the rules'
// reason (game.ErrOccupied, game.ErrKo, …).
type IllegalMove struct {
	Point game.Point
	Err   error
}

func (e IllegalMove) Error() string { return fmt.Sprintf("%v: %v", e.Point, e.Err) }
func (e IllegalMove) Unwrap() error { return e.Err }

// Turn refuses a move by u, playing colour me, at now that the game does
// not take: in the scoring or after the end (the rules' sentinels), out
// of turn (NotYourTurn; in a team game, NotTeamTurn: the turn is one
// player's), while paused or too late (InTime).
func Turn(l *Loaded, me game.Color, u gobot.UserID, now time.Time) error {
	switch l.G.Phase() {
	case game.Scoring:
		return game.ErrScoring
	case game.Over:
		return game.ErrGameOver
	}
	if l.Match.Side(me).Rotates() {
		if err := TeamTurn(l, u); err != nil {
			return err
		}
	} else if l.G.ToMove() != me {
		return NotYourTurn{Game: l.Match.ID, Next: l.Match.Side(l.G.ToMove()).ToMove()}
	}
	return InTime(l.Match, now)
}

// InTime refuses a move in a live game that reached the server after the
// mover's deadline (TooLate): the clock job ends the game on time
// (Timeout) a moment later. Correspondence clocks take the move until
// then, as before. A paused live game takes no move (WhilePaused).
func InTime(match *gobot.Match, now time.Time) error {
	if match.LivePaused() {
		return WhilePaused{Game: match.ID}
	}
	if !match.Clock.Live() || match.Deadline.IsZero() || now.Before(match.Deadline) {
		return nil
	}
	return TooLate{Game: match.ID, By: now.Sub(match.Deadline)}
}

// Played is a stone played: by Color at Point, capturing Captured
// stones. AutoPass is the pass the game then made for White (white-passes
// placement of the handicap); Over that the move ended the game.
type Played struct {
	Color    game.Color
	Point    game.Point
	Captured int
	AutoPass bool
	Over     bool
}

// play plays colour c's stone at p at t (the turn checked: Turn), and
// runs the clock. An occupied point or a move the rules refuse is an
// IllegalMove.
func play(l *Loaded, c game.Color, p game.Point, t time.Time) (Played, error) {
	if l.G.At(p) != game.Empty {
		return Played{}, IllegalMove{p, game.ErrOccupied}
	}
	before, count := l.G.Captures(c), l.G.MoveCount()
	if err := l.G.Play(c, p); err != nil {
		return Played{}, IllegalMove{p, err}
	}
	Moved(l.Match, l.G, c, t)
	return Played{Color: c, Point: p, Captured: l.G.Captures(c) - before, AutoPass: AutoPassed(l.G, count), Over: ended(l, t)}, nil
}

// AutoPassed reports whether the game passed for White after Black's
// move (white-passes placement), given the move count before that move.
func AutoPassed(g *game.Game, before int) bool {
	n := g.MoveCount()
	return n > before+1 && g.Automatic(n-1)
}

// ended records the end of l's game at t when it is over.
func ended(l *Loaded, t time.Time) bool {
	if l.G.Phase() != game.Over {
		return false
	}
	Finish(l.Match, l.G, t)
	return true
}

// Passed is a pass; Scoring that both sides have now passed, and the
// game is being scored.
type Passed struct {
	Color   game.Color
	Scoring bool
}

// pass passes for colour c at t (the turn checked: Turn).
func pass(l *Loaded, c game.Color, t time.Time) (Passed, error) {
	if err := l.G.Play(c, game.Pass); err != nil {
		return Passed{}, err
	}
	Moved(l.Match, l.G, c, t)
	ended(l, t)
	return Passed{Color: c, Scoring: l.G.Phase() == game.Scoring}, nil
}

// Ended is a game ended by resignation or abort, with its result.
type Ended struct{ Result string }

// resign resigns the game for colour c at t.
func resign(l *Loaded, c game.Color, t time.Time) (Ended, error) {
	return stop(l, t, func() error { return l.G.Resign(c) })
}

// abort aborts the game at t.
func abort(l *Loaded, t time.Time) (Ended, error) { return stop(l, t, l.G.Abort) }

func stop(l *Loaded, t time.Time, fn func() error) (Ended, error) {
	if err := fn(); err != nil {
		return Ended{}, err
	}
	Finish(l.Match, l.G, t)
	return Ended{Result: l.Match.Result}, nil
}

// NoTakeBack refuses an undo in a game against Engine.
type NoTakeBack struct{ Engine string }

func (e NoTakeBack) Error() string { return e.Engine + " does not take back moves" }

// NoUndoAsked refuses to refuse an undo nobody asked for.
type NoUndoAsked struct{}

func (NoUndoAsked) Error() string { return "no undo request to refuse" }

// UndoWaiting refuses a second undo request from Side, asked By (You: the
// caller themselves, else a teammate): the other side is to answer.
type UndoWaiting struct {
	By   gobot.UserID
	You  bool
	Side game.Color
}

func (e UndoWaiting) Error() string { return fmt.Sprintf("undo already asked by %s", e.By) }

// NotYourMove refuses to ask to take back a move that was Last's, not the
// asker's (Team: the asker's team's).
type NotYourMove struct {
	Last game.Color
	Team bool
}

func (e NotYourMove) Error() string { return "the last move was " + e.Last.Name() + "'s" }

// UndoAnswer is what an undo command did.
type UndoAnswer int

const (
	UndoAsked   UndoAnswer = iota // a player asked to take back their last move
	UndoAgreed                    // the opponent agreed: the move was taken back
	UndoRefused                   // the opponent refused: the game goes on
)

// Undone is an undo command's outcome: Answer, by whom it was Asked (the
// one to tell of a refusal), and on agreement the move Taken back with
// its Number, and the owner of the plan that dropped with it (PlanOwner,
// "" if none).
type Undone struct {
	Answer    UndoAnswer
	Asked     gobot.UserID
	Number    int
	Taken     game.Move
	PlanOwner gobot.UserID
}

// undo is u's undo command, playing colour me, at t: it asks to take back
// their side's last move, or answers the other side's request (refuse:
// no; else yes, and the move is taken back and the clock restarts).
func undo(l *Loaded, me game.Color, u gobot.UserID, refuse bool, t time.Time) (Undone, error) {
	m := l.Match
	if l.G.Phase() == game.Over {
		return Undone{}, game.ErrGameOver
	}
	if !m.Undoable() { // the sides' rule (gobot.Side.Undoes): an engine takes nothing back
		return Undone{}, NoTakeBack{m.Engine}
	}
	asker := m.UndoBy
	theirs := asker != "" && m.ColorOf(asker) == me.Opponent()
	switch {
	case refuse && theirs:
		m.UndoBy = ""
		m.UndoRefused = &gobot.UndoRefusal{Asked: asker, By: u, Moves: l.G.MoveCount(), Undos: len(m.Undos)}
		return Undone{Answer: UndoRefused, Asked: asker}, nil
	case refuse:
		return Undone{}, NoUndoAsked{}
	case asker != "" && m.ColorOf(asker) == me:
		return Undone{}, UndoWaiting{By: asker, You: asker == u, Side: me}
	case theirs:
		last, ok := l.G.LastMove()
		if !ok {
			return Undone{}, game.ErrNothingUndo
		}
		n, number := l.G.MoveCount(), l.G.MoveNumber()
		if err := l.G.Undo(); err != nil {
			return Undone{}, err
		}
		m.Undos = append(m.Undos, gobot.Undo{By: asker, Move: n, Was: last, At: t})
		if k := l.G.MoveCount(); k < len(m.MoveTimes) {
			m.MoveTimes = m.MoveTimes[:k]
		}
		m.UndoBy = ""
		// An undo by agreement clears the plan; its owner is told, as
		// when a move leaves it.
		var owner gobot.UserID
		if m.Plan != nil {
			owner, m.Plan = m.Plan.By, nil
		}
		StartClock(m, l.G, t)
		return Undone{Answer: UndoAgreed, Asked: asker, Number: number, Taken: last, PlanOwner: owner}, nil
	}
	last, ok := l.G.LastMove()
	if !ok {
		return Undone{}, game.ErrNothingUndo
	}
	if last.Color != me {
		return Undone{}, NotYourMove{Last: last.Color, Team: m.Side(me).Rotates()}
	}
	m.UndoBy = u
	return Undone{Answer: UndoAsked, Asked: u}, nil
}

// NotAStone refuses a word that is no point of the board in a marking
// (Err: game.ParsePoint's refusal), or a pass (Err nil).
type NotAStone struct {
	Word string
	Err  error
}

func (e NotAStone) Error() string { return fmt.Sprintf("%q is not a point", e.Word) }

// NoStone refuses to mark an empty Point.
type NoStone struct{ Point game.Point }

func (e NoStone) Error() string { return fmt.Sprintf("no stone at %v", e.Point) }

// Mark is a stone's new state in a marking.
type Mark struct {
	Point game.Point
	Dead  bool
}

// Marked is a marking: the stones Toggled, in order, and the sides whose
// acceptance of the count it Withdrew (Black first).
type Marked struct {
	Toggled  []Mark
	Withdrew []game.Color
}

// markStones toggles the stones at words (points, like D4) dead or alive in
// the scoring.
func markStones(l *Loaded, words []string) (Marked, error) {
	if l.G.Phase() != game.Scoring {
		return Marked{}, game.ErrNotScoring
	}
	before := [...]bool{l.G.Accepted(game.Black), l.G.Accepted(game.White)}
	cfg := l.G.Config()
	var out Marked
	for _, s := range words {
		p, err := game.ParsePoint(s, cfg.Width, cfg.Height)
		if err != nil || p.IsPass() {
			return Marked{}, NotAStone{s, err}
		}
		if l.G.At(p) == game.Empty {
			return Marked{}, NoStone{p}
		}
		if err := l.G.ToggleDead(p, false); err != nil {
			return Marked{}, err
		}
		out.Toggled = append(out.Toggled, Mark{p, l.G.IsDead(p)})
	}
	for i, c := range []game.Color{game.Black, game.White} {
		if before[i] && !l.G.Accepted(c) {
			out.Withdrew = append(out.Withdrew, c)
		}
	}
	if len(out.Withdrew) > 0 { // a board says so (board.View.Withdrawn)
		l.Match.Withdrawn = &gobot.Withdrawal{Colors: out.Withdrew, Moves: l.G.MoveCount(), Undos: len(l.Match.Undos)}
	}
	return out, nil
}

// CountAccepted refuses a second acceptance of the count by Side.
type CountAccepted struct{ Side game.Color }

func (e CountAccepted) Error() string { return e.Side.Name() + " already accepted the count" }

// Accepted is an acceptance of the count; Over when both sides have now
// accepted and the game ended.
type Accepted struct{ Over bool }

// accept accepts the count for colour me at t.
func accept(l *Loaded, me game.Color, t time.Time) (Accepted, error) {
	if l.G.Phase() != game.Scoring {
		return Accepted{}, game.ErrNotScoring
	}
	if l.G.Accepted(me) {
		return Accepted{}, CountAccepted{me}
	}
	_, over, err := l.G.Accept(me)
	if err != nil {
		return Accepted{}, err
	}
	if over {
		Finish(l.Match, l.G, t)
	}
	return Accepted{Over: over}, nil
}

// Resumed is a resume: play resumed from the scoring to settle the
// position, or (Live) a live game's paused clocks restarted, with the
// PauseLeft after it.
type Resumed struct {
	Live      bool
	PauseLeft time.Duration
}

// resume resumes play at t: from the scoring, or in a game being played
// the live pause (ResumePause).
func resume(l *Loaded, t time.Time) (Resumed, error) {
	if l.G.Phase() == game.Playing {
		return ResumePause(l, t)
	}
	if err := l.G.Resume(); err != nil {
		return Resumed{}, err
	}
	StartClock(l.Match, l.G, t)
	return Resumed{}, nil
}

// ClockDue reports whether the clock job has work in match at now: its
// time ran out, or a reminder is due that was not sent (RemindersDue).
// A paused game's deadline is its pause's end (the pause job's).
func ClockDue(match *gobot.Match, reminders []time.Duration, now time.Time) bool {
	if !match.Active() || match.Deadline.IsZero() || match.LivePaused() {
		return false
	}
	return !now.Before(match.Deadline) || RemindersDue(match, reminders, now) > match.Reminded
}

// TimedOut is a game lost on time: Lost is the colour whose time ran out.
type TimedOut struct{ Lost game.Color }

// Timeout ends l's game at now, lost on time by the player to move (a
// team game's turn passes to the next teammate first: the caller's).
func Timeout(l *Loaded, now time.Time) (TimedOut, error) {
	lost := l.G.ToMove()
	if err := l.G.Timeout(lost); err != nil {
		return TimedOut{}, err
	}
	l.Match.Record = l.G.Record()
	Finish(l.Match, l.G, now)
	return TimedOut{lost}, nil
}

// Reminder is a reminder due at now: the K-th of reminders (Reminded),
// with the time Left on the clock.
type Reminder struct {
	K    int
	Left time.Duration
}

// Remind marks match's due reminders sent at now; ok is false when none
// is due.
func Remind(match *gobot.Match, reminders []time.Duration, now time.Time) (r Reminder, ok bool) {
	k := RemindersDue(match, reminders, now)
	if k <= match.Reminded {
		return Reminder{}, false
	}
	match.Reminded = k
	return Reminder{K: k, Left: match.Deadline.Sub(now)}, true
}

// Code names the refusal (Refusal).
func (NotYourTurn) Code() string { return "not-your-turn" }

// Code names the refusal (Refusal).
func (WhilePaused) Code() string { return "while-paused" }

// Code names the refusal (Refusal).
func (TooLate) Code() string { return "too-late" }

// Code names the refusal (Refusal).
func (IllegalMove) Code() string { return "illegal-move" }

// Code names the refusal (Refusal).
func (NoTakeBack) Code() string { return "no-take-back" }

// Code names the refusal (Refusal).
func (NoUndoAsked) Code() string { return "no-undo-asked" }

// Code names the refusal (Refusal).
func (UndoWaiting) Code() string { return "undo-waiting" }

// Code names the refusal (Refusal).
func (NotYourMove) Code() string { return "not-your-move" }

// Code names the refusal (Refusal).
func (NotAStone) Code() string { return "not-a-stone" }

// Code names the refusal (Refusal).
func (NoStone) Code() string { return "no-stone" }

// Code names the refusal (Refusal).
func (CountAccepted) Code() string { return "count-accepted" }
