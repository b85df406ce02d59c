package flow

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Ladders through the door: a ladder is a record of its own
// (gobot.Ladder) whose rungs move by package tournament's ladder rules;
// a challenge's game is made at once, as an accepted challenge's is
// (ladderGame), the challenger with Black, and played through Act like
// any other. The game's end records the challenge's result in the same
// transaction (Commit → gameEnded → ladderGameEnded): a challenger who
// won takes the defender's rung and those between move down one.
//
// A challenge is answered when the defender makes their first move in
// its game. One not answered by its deadline (made + the ladder's
// ForfeitAfter) is forfeited by the player to move (LadderDue): the
// defender, once the challenger has played their first move — or the
// challenger, who never did. Its game ends as a loss on time of that
// player (unrated: the defender never moved), and the ladder records
// the forfeit. An answered challenge loses its deadline: its game runs
// on its clock. A game whose clock a vacation (or a live pause) stops
// at the deadline forfeits nobody: its deadline moves on by the
// ladder's ForfeitAfter.

// LadderProblem is why a ladder command is refused before the ladder's
// own rules are asked (their refusals are tournament.LadderRefusal).
type LadderProblem int

const (
	NoLadderHere       LadderProblem = iota + 1 // the room has no ladder
	WhichLadder                                 // the room has several: name one
	NoSuchLadder                                // no ladder of that number here
	NotLadderOrganiser                          // only its organiser and room admins may
	LadderClosed                                // it takes no more challenges
)

// LadderRefusal refuses a ladder command, for its Problem.
type LadderRefusal struct {
	Problem LadderProblem
	Ladder  *gobot.Ladder   // the ladder meant, when known
	Choices []*gobot.Ladder // WhichLadder
}

func (e LadderRefusal) Error() string { return fmt.Sprintf("ladder refused (%d)", e.Problem) }

// Code names the refusal (Refusal).
func (LadderRefusal) Code() string { return "ladder-refusal" }

// FindLadder is ladder id if w sees it, or (id 0) the one open ladder
// in w's rooms.
func FindLadder(tx gobot.Tx, w Where, id gobot.LadderID) (*gobot.Ladder, error) {
	l, choices, err := findEvent(w, uint64(id), func(id uint64) (*gobot.Ladder, error) { return tx.Ladder(gobot.LadderID(id)) },
		tx.RoomLadders, func(l *gobot.Ladder) gobot.RoomID { return l.Room },
		func(l *gobot.Ladder) gobot.CommunityID { return l.Community }, func(l *gobot.Ladder) uint64 { return uint64(l.ID) })
	switch {
	case errors.Is(err, gobot.ErrNotFound) && id != 0:
		return nil, LadderRefusal{Problem: NoSuchLadder}
	case errors.Is(err, gobot.ErrNotFound):
		return nil, LadderRefusal{Problem: NoLadderHere}
	case err != nil:
		return nil, err
	case choices != nil:
		return nil, LadderRefusal{Problem: WhichLadder, Choices: choices}
	}
	return l, nil
}

// RoomLadders are the ladders of w's rooms, by ID.
func RoomLadders(tx gobot.Tx, w Where) ([]*gobot.Ladder, error) {
	var out []*gobot.Ladder
	for _, r := range w.rooms() {
		ls, err := tx.RoomLadders(r, false)
		if err != nil {
			return out, err
		}
		out = append(out, ls...)
	}
	slices.SortFunc(out, func(a, b *gobot.Ladder) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// NewLadder stores l, made at now.
func NewLadder(tx gobot.Tx, l *gobot.Ladder, now time.Time) error {
	l.Created = now
	if err := l.Check(); err != nil {
		return err
	}
	return tx.PutLadder(l)
}

// rulesOf is l as the ladder rules see it.
func rulesOf(l *gobot.Ladder) *tournament.Ladder {
	r := &tournament.Ladder{Range: l.ChallengeRange, Answer: l.ForfeitAfter}
	for _, u := range l.Rungs {
		r.Rungs = append(r.Rungs, tournament.PlayerID(u))
	}
	for _, c := range l.Challenges {
		r.Open = append(r.Open, tournament.LadderChallenge{Challenger: tournament.PlayerID(c.Challenger),
			Defender: tournament.PlayerID(c.Defender), At: c.Made, Deadline: c.Deadline})
	}
	return r
}

// LadderRules is l as the ladder rules see it, for chat to show.
func LadderRules(l *gobot.Ladder) *tournament.Ladder { return rulesOf(l) }

// adopt writes the rules' rungs and open challenges back into l: each
// challenge keeps its game; a new one has none yet.
func adopt(l *gobot.Ladder, r *tournament.Ladder) {
	old := l.Challenges
	l.Rungs = l.Rungs[:0:0]
	for _, p := range r.Rungs {
		l.Rungs = append(l.Rungs, gobot.UserID(p))
	}
	l.Challenges = nil
	for _, c := range r.Open {
		nc := gobot.LadderChallenge{Challenger: gobot.UserID(c.Challenger), Defender: gobot.UserID(c.Defender), Made: c.At, Deadline: c.Deadline}
		if i := slices.IndexFunc(old, func(o gobot.LadderChallenge) bool {
			return o.Challenger == nc.Challenger && o.Defender == nc.Defender
		}); i >= 0 {
			nc.Game, nc.Deadline = old[i].Game, old[i].Deadline
		}
		l.Challenges = append(l.Challenges, nc)
	}
	l.Due = ladderDue(l)
}

// ladderDue is when l next has timed work: its earliest deadline of a
// challenge not answered yet.
func ladderDue(l *gobot.Ladder) time.Time {
	var due time.Time
	for _, c := range l.Challenges {
		if !c.Deadline.IsZero() && (due.IsZero() || c.Deadline.Before(due)) {
			due = c.Deadline
		}
	}
	return due
}

// JoinLadder puts u on l's bottom rung.
func JoinLadder(tx gobot.Tx, l *gobot.Ladder, u gobot.UserID) error {
	if l.Closed {
		return LadderRefusal{Problem: LadderClosed, Ladder: l}
	}
	r := rulesOf(l)
	if err := r.Join(tournament.PlayerID(u)); err != nil {
		return err
	}
	adopt(l, r)
	return tx.PutLadder(l)
}

// CloseLadder closes l: it takes no more players or challenges; the
// challenges open now are played out, and their results recorded.
func CloseLadder(tx gobot.Tx, l *gobot.Ladder) error {
	if l.Closed {
		return LadderRefusal{Problem: LadderClosed, Ladder: l}
	}
	l.Closed = true
	return tx.PutLadder(l)
}

// LadderLeft is a player taken off a ladder: the games of their open
// challenges, which ended without result.
type LadderLeft struct {
	Aborted []*Loaded
}

// LeaveLadder takes u off l at now: those below move up one, and u's
// open challenges close without result (logged so), their games aborted
// through the save path.
func LeaveLadder(tx gobot.Tx, e Engines, l *gobot.Ladder, u gobot.UserID, now time.Time) (*LadderLeft, error) {
	r := rulesOf(l)
	closed, err := r.Leave(tournament.PlayerID(u))
	if err != nil {
		return nil, err
	}
	games := gamesOf(l)
	adopt(l, r)
	var ids []gobot.GameID
	for _, c := range closed {
		id := games[[2]gobot.UserID{gobot.UserID(c.Challenger), gobot.UserID(c.Defender)}]
		l.AddResult(gobot.LadderResult{Challenger: gobot.UserID(c.Challenger), Defender: gobot.UserID(c.Defender), Game: id, At: now})
		if id != 0 {
			ids = append(ids, id)
		}
	}
	if err := tx.PutLadder(l); err != nil {
		return nil, err
	}
	out := &LadderLeft{}
	for _, id := range ids {
		m, err := tx.Match(id)
		if err != nil {
			return nil, err
		}
		if !m.Active() {
			continue
		}
		g, err := Load(m)
		if err != nil {
			return nil, err
		}
		if _, err := abort(g, now); err != nil {
			return nil, err
		}
		if _, err := Commit(tx, g, e, now); err != nil {
			return nil, err
		}
		out.Aborted = append(out.Aborted, g)
	}
	return out, nil
}

// gamesOf maps l's open challenges (challenger, defender) to their games.
func gamesOf(l *gobot.Ladder) map[[2]gobot.UserID]gobot.GameID {
	m := make(map[[2]gobot.UserID]gobot.GameID, len(l.Challenges))
	for _, c := range l.Challenges {
		m[[2]gobot.UserID{c.Challenger, c.Defender}] = c.Game
	}
	return m
}

// LadderChallenged is a ladder challenge made and its game begun.
type LadderChallenged struct {
	Ladder    *gobot.Ladder
	Challenge gobot.LadderChallenge
	Game      *Loaded
}

// ChallengeOnLadder opens challenger's challenge to defender on l at now
// and begins its game with l's settings, the challenger with Black.
func ChallengeOnLadder(tx gobot.Tx, vc VacationConfig, l *gobot.Ladder, challenger, defender gobot.UserID, now time.Time) (*LadderChallenged, error) {
	if l.Closed {
		return nil, LadderRefusal{Problem: LadderClosed, Ladder: l}
	}
	r := rulesOf(l)
	if _, err := r.Challenge(tournament.PlayerID(challenger), tournament.PlayerID(defender), now); err != nil {
		return nil, err
	}
	g, err := ladderGame(tx, vc, l, challenger, defender, now)
	if err != nil {
		return nil, err
	}
	adopt(l, r)
	k := slices.IndexFunc(l.Challenges, func(c gobot.LadderChallenge) bool { return c.Challenger == challenger && c.Defender == defender })
	l.Challenges[k].Game = g.Match.ID
	return &LadderChallenged{Ladder: l, Challenge: l.Challenges[k], Game: g}, tx.PutLadder(l)
}

// ladderGame begins a challenge's game on l at now, as an accepted
// challenge's: the same game as any other (clocks, reminders, the web
// board), numbered as one.
func ladderGame(tx gobot.Tx, vc VacationConfig, l *gobot.Ladder, challenger, defender gobot.UserID, now time.Time) (*Loaded, error) {
	cfg := game.Config{Width: l.Size, Height: l.Size, Rules: l.Rules}
	c := &gobot.Challenge{From: challenger, To: defender, Room: l.Room, Config: cfg, Clock: l.Clock, Color: "black", Status: gobot.Pending, Created: now}
	if err := Propose(tx, c); err != nil {
		return nil, err
	}
	o := Opening{By: defender, At: now}
	if l.Rated && ratings.RatedSize(l.Size, l.Size) {
		o.Rating = &gobot.GameRating{Community: l.Community, Rated: true,
			BlackRank: rankLabel(tx, l.Community, challenger), WhiteRank: rankLabel(tx, l.Community, defender)}
	}
	g, err := Begin(c, o)
	if err != nil {
		return nil, err
	}
	if _, err := GameBegins(tx, vc, g, now); err != nil {
		return nil, err
	}
	if err := tx.InsertMatch(g.Match); err != nil {
		return nil, err
	}
	ChallengeAccepted(c, g.Match, defender, now)
	return g, tx.PutChallenge(c)
}

// LadderForfeit is a challenge forfeited at its deadline: the player
// who did not move in time (Late: the defender, or a challenger who
// never played their first move), the result, and the game ended.
type LadderForfeit struct {
	Challenge gobot.LadderChallenge
	Late      gobot.UserID
	Settled   tournament.Settled
	Game      *Loaded
}

// LadderDue does l's timed work at now: each challenge whose deadline
// has passed is answered (its defender has moved: the deadline is
// dropped) or forfeited by the player to move (LadderForfeit). Nothing
// when nothing is due (another process did it).
func LadderDue(tx gobot.Tx, e Engines, l *gobot.Ladder, now time.Time) ([]LadderForfeit, error) {
	if l.Due.IsZero() || now.Before(l.Due) {
		return nil, nil
	}
	var out []LadderForfeit
	var ends []*Loaded
	r := rulesOf(l)
	for i := range l.Challenges {
		c := &l.Challenges[i]
		if c.Deadline.IsZero() || now.Before(c.Deadline) {
			continue
		}
		if c.Game == 0 {
			c.Deadline = time.Time{}
			continue
		}
		m, err := tx.Match(c.Game)
		if err != nil {
			return nil, err
		}
		g, err := Load(m)
		if err != nil {
			return nil, err
		}
		if !m.Active() || answered(g, c.Defender) || g.G.Phase() != game.Playing {
			c.Deadline = time.Time{} // answered: the game runs on its clock (an ended one was settled as it ended)
			continue
		}
		if m.Paused() || m.LivePaused() { // a vacation (or a pause) stops the clock: nobody is late
			c.Deadline = now.Add(max(l.ForfeitAfter, time.Minute))
			continue
		}
		late := m.Side(g.G.ToMove()).ToMove()
		res := tournament.DefenderForfeited
		winner := c.Challenger
		if late == c.Challenger {
			res, winner = tournament.ChallengerForfeited, c.Defender
		}
		s, err := r.Result(tournament.PlayerID(c.Challenger), tournament.PlayerID(c.Defender), res)
		if err != nil {
			return nil, err
		}
		l.AddResult(gobot.LadderResult{Challenger: c.Challenger, Defender: c.Defender, Game: c.Game, Winner: winner, Forfeit: true, At: now})
		out = append(out, LadderForfeit{Challenge: *c, Late: late, Settled: s, Game: g})
		ends = append(ends, g)
	}
	adopt(l, r)
	if err := tx.PutLadder(l); err != nil {
		return nil, err
	}
	// The games end after the ladder is stored: their end finds the
	// challenge closed, and records nothing more (ladderGameEnded).
	for _, g := range ends {
		if _, err := Timeout(g, now); err != nil {
			return nil, err
		}
		if _, err := Commit(tx, g, e, now); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// answered reports whether u has made a move in g's game.
func answered(g *Loaded, u gobot.UserID) bool {
	c := g.Match.ColorOf(u)
	return slices.ContainsFunc(g.G.Moves(), func(m game.Move) bool { return m.Color == c })
}

// ladderGameEnded records the result of m, which ended now, in its
// ladder's open challenge (if it has one), in the transaction that ended
// it: a challenger who won moves up.
func ladderGameEnded(tx gobot.Tx, m *gobot.Match, now time.Time) error {
	l, err := tx.LadderOfGame(m.ID)
	if errors.Is(err, gobot.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	k := slices.IndexFunc(l.Challenges, func(c gobot.LadderChallenge) bool { return c.Game == m.ID })
	if k < 0 { // settled already (a forfeit, a player who left)
		return nil
	}
	c := l.Challenges[k]
	res, winner := tournament.ChallengeVoid, gobot.UserID("")
	if r, err := game.ParseResult(m.Result); err == nil && m.Result != "Void" && r.Winner != game.Empty {
		switch w := m.Side(r.Winner); {
		case w.Plays(c.Challenger):
			res, winner = tournament.ChallengerWon, c.Challenger
		case w.Plays(c.Defender):
			res, winner = tournament.DefenderWon, c.Defender
		}
	}
	r := rulesOf(l)
	if _, err := r.Result(tournament.PlayerID(c.Challenger), tournament.PlayerID(c.Defender), res); err != nil {
		return err
	}
	adopt(l, r)
	l.AddResult(gobot.LadderResult{Challenger: c.Challenger, Defender: c.Defender, Game: m.ID, Winner: winner, At: now})
	return tx.PutLadder(l)
}

// LadderResultOf is the logged result of game id on l, if any.
func LadderResultOf(l *gobot.Ladder, id gobot.GameID) (gobot.LadderResult, bool) {
	for i := len(l.Log) - 1; i >= 0; i-- {
		if l.Log[i].Game == id {
			return l.Log[i], true
		}
	}
	return gobot.LadderResult{}, false
}
