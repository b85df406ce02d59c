package tournament

import (
	"errors"
	"fmt"
	"slices"
	"time"
)

// Ladder is a standing ladder: its players in order, the top first. A
// player may challenge anyone up to Range places above them; when the
// challenger wins they take the defender's place and everyone between
// moves down one; otherwise nothing moves. Each player has at most one
// open challenge given and one received. Like a Tournament it is a value
// and does no I/O: a method either applies its change whole or refuses
// with a LadderRefusal and changes nothing. Whether an unanswered
// challenge is forfeited is the runner's decision (Overdue lists the
// candidates); the rules here take the outcome.
type Ladder struct {
	Rungs []PlayerID // top first; a player's rung is their index + 1
	Range int        // a player may challenge up to Range places above (at least 1)
	// Answer is how long a defender has to answer a challenge (begin
	// the game) before it may be forfeited; 0 sets no deadline.
	Answer time.Duration
	Open   []LadderChallenge // in the order they were made
}

// LadderChallenge is an open challenge on a ladder. (A challenge to a
// game outside a ladder is a gobot.Challenge: a different thing.)
type LadderChallenge struct {
	Challenger, Defender PlayerID
	At                   time.Time // when it was made
	// Deadline is when the defender's time to answer ends (At +
	// Ladder.Answer); zero when the ladder sets none.
	Deadline time.Time
}

// MaxLadderPlayers bounds a ladder, as MaxPlayers bounds a tournament.
const MaxLadderPlayers = 2000

// ErrBadLadder is returned when a ladder's data do not hold together (a
// player on two rungs, a challenge naming someone off the ladder, …).
var ErrBadLadder = errors.New("the ladder's data do not hold together")

// LadderProblem is why a ladder refuses a change (LadderRefusal).
type LadderProblem int

// The ladder's refusals.
const (
	AlreadyOnLadder     LadderProblem = iota + 1 // Join: Player is on the ladder already, at Rung
	LadderFull                                   // Join: the ladder holds MaxLadderPlayers
	NotOnLadder                                  // Leave, Challenge: Player (leaving, or challenging) is not on the ladder
	DefenderNotOnLadder                          // Challenge: Player, the one challenged, is not on the ladder
	ChallengeSelf                                // Challenge: Player challenged themself
	DefenderNotAbove                             // Challenge: Player is Places below the challenger (0: level is impossible), not above
	DefenderTooFar                               // Challenge: Player is Places above the challenger, more than Range
	ChallengeGiven                               // Challenge: the challenger's open challenge to Player is not settled yet
	ChallengeReceived                            // Challenge: Player has an open challenge from Other already
	NoOpenChallenge                              // Result: there is no open challenge from Player to Other
)

// LadderRefusal refuses a change to a ladder; nothing changed. Its
// Error is a short sentence without mentions; chat words it for its
// surfaces (chat/say).
type LadderRefusal struct {
	Problem LadderProblem
	Player  PlayerID // who the problem is about (see LadderProblem)
	Other   PlayerID // ChallengeReceived: the challenger; NoOpenChallenge: the defender
	Rung    int      // AlreadyOnLadder: Player's rung
	Places  int      // DefenderNotAbove, DefenderTooFar: how many places apart
	Range   int      // DefenderTooFar: the ladder's range
}

func (e LadderRefusal) Error() string {
	switch e.Problem {
	case AlreadyOnLadder:
		return fmt.Sprintf("%s is on the ladder already, at rung %d", e.Player, e.Rung)
	case LadderFull:
		return fmt.Sprintf("the ladder is full: it holds at most %d players", MaxLadderPlayers)
	case NotOnLadder, DefenderNotOnLadder:
		return fmt.Sprintf("%s is not on the ladder", e.Player)
	case ChallengeSelf:
		return "a player cannot challenge themself"
	case DefenderNotAbove:
		return fmt.Sprintf("%s is %d place%s below: challenge someone above", e.Player, e.Places, plural(e.Places))
	case DefenderTooFar:
		return fmt.Sprintf("%s is %d places above; a challenge reaches at most %d", e.Player, e.Places, e.Range)
	case ChallengeGiven:
		return fmt.Sprintf("the challenge to %s is still open: one challenge at a time", e.Player)
	case ChallengeReceived:
		return fmt.Sprintf("%s has an open challenge from %s already", e.Player, e.Other)
	case NoOpenChallenge:
		return fmt.Sprintf("%s has no open challenge to %s", e.Player, e.Other)
	}
	return fmt.Sprintf("the ladder refused (problem %d)", int(e.Problem))
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// ChallengeResult is how a ladder challenge ended.
type ChallengeResult int

// The ways a challenge ends. A forfeit is a result like the others: the
// runner decides that a defender did not answer in time (or that a
// challenger gave up) and records it.
const (
	ChallengerWon       ChallengeResult = iota + 1 // the challenger moves up
	DefenderWon                                    // nothing moves
	DefenderForfeited                              // the defender did not answer in time: as ChallengerWon
	ChallengerForfeited                            // the challenger withdrew or did not play: as DefenderWon
	ChallengeVoid                                  // annulled (a jigo, an organiser's decision): nothing moves
)

// String names the result as a command would.
func (r ChallengeResult) String() string {
	switch r {
	case ChallengerWon:
		return "challenger-won"
	case DefenderWon:
		return "defender-won"
	case DefenderForfeited:
		return "defender-forfeited"
	case ChallengerForfeited:
		return "challenger-forfeited"
	case ChallengeVoid:
		return "void"
	}
	return fmt.Sprintf("ChallengeResult(%d)", int(r))
}

// ChallengerWins reports whether the result moves the challenger up.
func (r ChallengeResult) ChallengerWins() bool {
	return r == ChallengerWon || r == DefenderForfeited
}

// Settled is what a challenge's result did to the ladder: the challenge
// (now closed), its result, and the challenger's rung before and after
// (equal when nothing moved; else the From-To players between moved down
// one, the defender among them).
type Settled struct {
	Challenge LadderChallenge
	Result    ChallengeResult
	From, To  int
}

// Moved reports whether the challenger took the defender's place.
func (s Settled) Moved() bool { return s.To != s.From }

// Rung returns p's rung (1 at the top), or 0 when p is not on the ladder.
func (l *Ladder) Rung(p PlayerID) int {
	if i := slices.Index(l.Rungs, p); i >= 0 {
		return i + 1
	}
	return 0
}

// Given returns p's open challenge given, if any.
func (l *Ladder) Given(p PlayerID) (LadderChallenge, bool) {
	for _, c := range l.Open {
		if c.Challenger == p {
			return c, true
		}
	}
	return LadderChallenge{}, false
}

// Received returns p's open challenge received, if any.
func (l *Ladder) Received(p PlayerID) (LadderChallenge, bool) {
	for _, c := range l.Open {
		if c.Defender == p {
			return c, true
		}
	}
	return LadderChallenge{}, false
}

// Join puts p on the bottom rung.
func (l *Ladder) Join(p PlayerID) error {
	if err := l.check(); err != nil {
		return err
	}
	if p == "" {
		return fmt.Errorf("%w: a player without an ID", ErrBadLadder)
	}
	if r := l.Rung(p); r > 0 {
		return LadderRefusal{Problem: AlreadyOnLadder, Player: p, Rung: r}
	}
	if len(l.Rungs) >= MaxLadderPlayers {
		return LadderRefusal{Problem: LadderFull}
	}
	l.Rungs = append(l.Rungs, p)
	return nil
}

// Leave takes p off the ladder: those below move up one, and p's open
// challenges (given and received) are closed; it returns them, for the
// caller to say so and end their games.
func (l *Ladder) Leave(p PlayerID) ([]LadderChallenge, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	i := slices.Index(l.Rungs, p)
	if i < 0 {
		return nil, LadderRefusal{Problem: NotOnLadder, Player: p}
	}
	var closed, open []LadderChallenge
	for _, c := range l.Open {
		if c.Challenger == p || c.Defender == p {
			closed = append(closed, c)
		} else {
			open = append(open, c)
		}
	}
	l.Rungs = slices.Delete(l.Rungs, i, i+1)
	l.Open = open
	return closed, nil
}

// CanChallenge refuses, as Challenge would, a challenge from challenger
// to defender; nil means Challenge would take it.
func (l *Ladder) CanChallenge(challenger, defender PlayerID) error {
	if err := l.check(); err != nil {
		return err
	}
	ci, di := slices.Index(l.Rungs, challenger), slices.Index(l.Rungs, defender)
	switch {
	case challenger == defender:
		return LadderRefusal{Problem: ChallengeSelf, Player: challenger}
	case ci < 0:
		return LadderRefusal{Problem: NotOnLadder, Player: challenger}
	case di < 0:
		return LadderRefusal{Problem: DefenderNotOnLadder, Player: defender}
	case di > ci:
		return LadderRefusal{Problem: DefenderNotAbove, Player: defender, Places: di - ci}
	case ci-di > l.Range:
		return LadderRefusal{Problem: DefenderTooFar, Player: defender, Places: ci - di, Range: l.Range}
	}
	if c, ok := l.Given(challenger); ok {
		return LadderRefusal{Problem: ChallengeGiven, Player: c.Defender}
	}
	if c, ok := l.Received(defender); ok {
		return LadderRefusal{Problem: ChallengeReceived, Player: defender, Other: c.Challenger}
	}
	return nil
}

// Challenge opens a challenge from challenger to defender at time at,
// with the deadline the ladder's Answer gives, and returns it.
func (l *Ladder) Challenge(challenger, defender PlayerID, at time.Time) (LadderChallenge, error) {
	if err := l.CanChallenge(challenger, defender); err != nil {
		return LadderChallenge{}, err
	}
	c := LadderChallenge{Challenger: challenger, Defender: defender, At: at}
	if l.Answer > 0 {
		c.Deadline = at.Add(l.Answer)
	}
	l.Open = append(l.Open, c)
	return c, nil
}

// Challengeable lists whom p may challenge now, the nearest first.
func (l *Ladder) Challengeable(p PlayerID) []PlayerID {
	if l.check() != nil {
		return nil
	}
	ci := slices.Index(l.Rungs, p)
	if ci < 0 {
		return nil
	}
	if _, ok := l.Given(p); ok {
		return nil
	}
	var out []PlayerID
	for di := ci - 1; di >= 0 && ci-di <= l.Range; di-- {
		if _, ok := l.Received(l.Rungs[di]); !ok {
			out = append(out, l.Rungs[di])
		}
	}
	return out
}

// Overdue lists the open challenges whose deadline has passed at now:
// the runner decides whether each was answered (its game begun) and, if
// not, records DefenderForfeited.
func (l *Ladder) Overdue(now time.Time) []LadderChallenge {
	var out []LadderChallenge
	for _, c := range l.Open {
		if !c.Deadline.IsZero() && !now.Before(c.Deadline) {
			out = append(out, c)
		}
	}
	return out
}

// Result closes the open challenge from challenger to defender with
// result r. When the challenger wins (or the defender forfeits) the
// challenger takes the defender's rung and everyone from there down to
// the challenger's old rung moves down one; otherwise nothing moves.
func (l *Ladder) Result(challenger, defender PlayerID, r ChallengeResult) (Settled, error) {
	if err := l.check(); err != nil {
		return Settled{}, err
	}
	if r < ChallengerWon || r > ChallengeVoid {
		return Settled{}, fmt.Errorf("%w: unknown result %d", ErrBadLadder, int(r))
	}
	k := slices.IndexFunc(l.Open, func(c LadderChallenge) bool {
		return c.Challenger == challenger && c.Defender == defender
	})
	if k < 0 {
		return Settled{}, LadderRefusal{Problem: NoOpenChallenge, Player: challenger, Other: defender}
	}
	ci, di := slices.Index(l.Rungs, challenger), slices.Index(l.Rungs, defender)
	s := Settled{Challenge: l.Open[k], Result: r, From: ci + 1, To: ci + 1}
	if r.ChallengerWins() {
		// check holds that the challenger is below the defender: others
		// only ever jump over those between, or move down with them.
		copy(l.Rungs[di+1:ci+1], l.Rungs[di:ci])
		l.Rungs[di] = challenger
		s.To = di + 1
	}
	l.Open = slices.Delete(l.Open, k, k+1)
	return s, nil
}

// check reports the first way the ladder's data do not hold together.
// Everything it rules out is what the methods never make.
func (l *Ladder) check() error {
	if l.Range < 1 {
		return fmt.Errorf("%w: range %d (a player must reach at least the place above)", ErrBadLadder, l.Range)
	}
	if len(l.Rungs) > MaxLadderPlayers {
		return fmt.Errorf("%w: %d players, more than %d", ErrBadLadder, len(l.Rungs), MaxLadderPlayers)
	}
	rung := make(map[PlayerID]int, len(l.Rungs))
	for i, p := range l.Rungs {
		if p == "" {
			return fmt.Errorf("%w: rung %d has no player", ErrBadLadder, i+1)
		}
		if _, dup := rung[p]; dup {
			return fmt.Errorf("%w: %s is on two rungs", ErrBadLadder, p)
		}
		rung[p] = i
	}
	given := make(map[PlayerID]bool, len(l.Open))
	received := make(map[PlayerID]bool, len(l.Open))
	for _, c := range l.Open {
		ci, okc := rung[c.Challenger]
		di, okd := rung[c.Defender]
		switch {
		case !okc || !okd:
			return fmt.Errorf("%w: a challenge between %s and %s names a player off the ladder", ErrBadLadder, c.Challenger, c.Defender)
		case di >= ci:
			return fmt.Errorf("%w: %s challenges %s, who is not above", ErrBadLadder, c.Challenger, c.Defender)
		case given[c.Challenger]:
			return fmt.Errorf("%w: %s has two open challenges given", ErrBadLadder, c.Challenger)
		case received[c.Defender]:
			return fmt.Errorf("%w: %s has two open challenges received", ErrBadLadder, c.Defender)
		}
		given[c.Challenger], received[c.Defender] = true, true
	}
	return nil
}
