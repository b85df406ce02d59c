package flow

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Room-vote games (docs/vote.md). The room's seat is gobot.VoteSeat;
// match.Vote holds the turn's ballots and its window. The first vote of
// a turn opens a window of match.Vote.Window (CastVote); the window's end
// is the game's Deadline, and when it comes CloseVote plays the move with
// the most votes.

// VoteChallengeProblem is why a vote challenge is refused.
type VoteChallengeProblem int

// The vote challenge's problems.
const (
	VoteInDM         VoteChallengeProblem = iota + 1 // a direct conversation has no room to vote
	VoteAlone                                        // no opponent for the room
	VoteRated                                        // vote games are unrated
	VoteAutoHandicap                                 // handicap=auto needs the room's rating
)

func (p VoteChallengeProblem) Error() string {
	return "flow: vote challenge refused: " + [...]string{"", "in a DM", "alone", "rated", "handicap=auto"}[p]
}

// CheckVoteChallenge refuses what a vote challenge cannot be: in a
// direct conversation (dm), without an opponent, rated, with
// handicap=auto.
func CheckVoteChallenge(dm, opponent, rated, auto bool) error {
	switch {
	case dm:
		return VoteInDM
	case !opponent:
		return VoteAlone
	case rated:
		return VoteRated
	case auto:
		return VoteAutoHandicap
	}
	return nil
}

// VoteFor is what a voter votes for: a point as the voter wrote it ("E5",
// or "pass"), or resigning.
type VoteFor struct {
	Point  string
	Resign bool
}

// VoteRefusal is why a vote cannot be cast (VoteRefused.Why).
type VoteRefusal int

const (
	VoterPlays       VoteRefusal = iota + 1 // the voter plays against the room: they move, the others vote
	VoteScoring                             // the game is being scored
	VoteNotRoomsTurn                        // the room's opponent is to move
	VoteWindowClosed                        // the window has closed; its move is being played
	VoteTimeUp                              // the room's time ran out before the vote: it loses on time
	VoteOffBoard                            // the point is off the board
	VoteNoColumnI                           // the point names column I, which a go board has not
	VoteNotAPoint                           // the vote is no point
	VoteOccupied                            // the point is occupied
	VoteKo                                  // the move would retake the ko
)

var voteRefusals = [...]string{"", "the voter plays", "scoring", "not the room's turn", "window closed", "time up", "off the board", "no column I", "not a point", "occupied", "ko"}

// VoteRefused is a vote CastVote refuses, and why.
type VoteRefused struct {
	Why   VoteRefusal
	Move  int    // the room's move the vote was for (its number, from 1)
	Point string // VoteOffBoard, VoteNoColumnI, VoteNotAPoint: the vote as written; VoteOccupied, VoteKo: the point's name
}

func (e *VoteRefused) Error() string {
	return fmt.Sprintf("vote for move %d refused: %s", e.Move, voteRefusals[e.Why])
}

// VoteCast is what a vote did (CastVote).
type VoteCast struct {
	Move     int    // the room's move voted for (its number, from 1)
	Ballot   string // the move voted, as a ballot holds it: "E5", "pass", "resign"
	Opened   bool   // the vote opened the turn's window
	Reopened bool   // it opened a window that stayed open without a move (CloseVote) again
	Changed  bool   // the voter had voted in this window: the vote replaced Before
	Before   string
	Closes   time.Time // when the window closes
}

// castBallot casts voter's vote in vote game l at t: the first vote of the
// room's turn opens its window (stopping the room's clock with the time
// it had), a later one is counted in it, and a voter's vote again
// replaces their earlier one. A vote the room cannot cast now is a
// *VoteRefused; a vote for a point is tried on a copy of the game, with
// play's reasons (the game itself changes only when the window closes).
func castBallot(l *Loaded, voter gobot.UserID, vote VoteFor, t time.Time) (VoteCast, error) {
	match, number := l.Match, l.G.MoveNumber()+1
	refuse := func(why VoteRefusal) error { return &VoteRefused{Why: why, Move: number} }
	switch {
	case match.ColorOf(voter) != game.Empty:
		return VoteCast{}, refuse(VoterPlays)
	case l.G.Phase() == game.Scoring:
		return VoteCast{}, refuse(VoteScoring)
	case !match.Find(gobot.SideRoom).Moves(l.G):
		return VoteCast{}, refuse(VoteNotRoomsTurn)
	}
	if c := match.Vote.Closes; !c.IsZero() && !t.Before(c) {
		return VoteCast{}, refuse(VoteWindowClosed)
	}
	if c := match.Vote.Closes; c.IsZero() && !match.Deadline.IsZero() && !t.Before(match.Deadline) {
		return VoteCast{}, refuse(VoteTimeUp)
	}
	move := "resign"
	if !vote.Resign {
		var err error
		if move, err = legalVote(l, vote.Point); err != nil {
			return VoteCast{}, err
		}
	}
	v := match.Vote
	out := VoteCast{Move: number, Ballot: move, Opened: v.Closes.IsZero()}
	out.Reopened = out.Opened && len(v.Ballots) > 0 // a window that stayed open without a move (CloseVote)
	if out.Opened {
		// The room has answered: its clock stops with the time it had
		// (given back if the window stays open without a move).
		switch {
		case !RoomClock(match):
		case match.Paused(): // vacation: the opponent's vacation stopped it
			v.Left = match.PausedLeft
		case !match.Deadline.IsZero():
			v.Left = match.Deadline.Sub(t)
		}
		v.Closes = t.Add(v.Window)
		match.Deadline = v.Closes
	}
	for i := range v.Ballots {
		if v.Ballots[i].By == voter {
			out.Changed, out.Before = true, v.Ballots[i].Move
			v.Ballots[i].Move, v.Ballots[i].At = move, t
		}
	}
	if !out.Changed {
		v.Ballots = append(v.Ballots, gobot.Ballot{By: voter, Move: move, At: t})
	}
	if !v.Voted(voter) {
		v.Voters = append(v.Voters, voter)
	}
	match.Updated = t
	out.Closes = v.Closes
	return out, nil
}

// legalVote checks that the room may play s now, and returns the move as
// a ballot holds it ("E5", "pass").
func legalVote(l *Loaded, s string) (string, error) {
	cfg := l.G.Config()
	number := l.G.MoveNumber() + 1
	p, err := game.ParsePoint(s, cfg.Width, cfg.Height)
	if err != nil {
		why := VoteNotAPoint
		switch {
		case errors.Is(err, game.ErrOffBoard):
			why = VoteOffBoard
		case strings.Contains(strings.ToUpper(s), "I") && !strings.EqualFold(s, "pass"):
			why = VoteNoColumnI
		}
		return "", &VoteRefused{Why: why, Move: number, Point: s}
	}
	try, err := game.Replay(l.G.Record())
	if err != nil {
		return "", err
	}
	rc := try.ToMove()
	if p.IsPass() {
		if err := try.Play(rc, game.Pass); err != nil {
			return "", err
		}
		return "pass", nil
	}
	name := p.GTP(cfg.Height)
	if try.At(p) != game.Empty {
		return "", &VoteRefused{Why: VoteOccupied, Move: number, Point: name}
	}
	if err := try.Play(rc, p); err != nil {
		if errors.Is(err, game.ErrKo) {
			return "", &VoteRefused{Why: VoteKo, Move: number, Point: name}
		}
		return "", err
	}
	return name, nil
}

// VoteCount is one move's votes.
type VoteCount struct {
	Move  string
	N     int
	First int // when its first ballot was cast, as an index
}

// CountVotes counts ballots by move, most votes first (ties: the move
// voted first).
func CountVotes(ballots []gobot.Ballot) []VoteCount {
	var out []VoteCount
	for i, bl := range ballots {
		j := slices.IndexFunc(out, func(c VoteCount) bool { return c.Move == bl.Move })
		if j < 0 {
			out = append(out, VoteCount{Move: bl.Move, First: i})
			j = len(out) - 1
		}
		out[j].N++
	}
	slices.SortStableFunc(out, func(a, b VoteCount) int { return cmp.Or(b.N-a.N, a.First-b.First) })
	return out
}

// VoteMarks are the votes to draw on the board while a window is open:
// the count on each voted point.
func VoteMarks(l *Loaded) map[game.Point]int {
	v := l.Match.Vote
	if v == nil || v.Closes.IsZero() || !l.Match.Find(gobot.SideRoom).Moves(l.G) {
		return nil
	}
	cfg := l.G.Config()
	marks := map[game.Point]int{}
	for _, bl := range v.Ballots {
		if p, err := game.ParsePoint(bl.Move, cfg.Width, cfg.Height); err == nil && !p.IsPass() {
			marks[p]++
		}
	}
	if len(marks) == 0 {
		return nil
	}
	return marks
}

// VoteClosed is what closing the room's window did (CloseVote): the room
// resigned, or the window stayed Open without a move, or a move was
// Played.
type VoteClosed struct {
	Move     int         // the room's move voted for (its number, from 1)
	Tally    []VoteCount // the window's ballots, counted
	Voters   int         // who voted in the window
	Resigns  int         // how many of them voted to resign
	Quorum   int         // the voters a resignation needed (resignQuorum)
	Resigned bool        // the room resigned: the game is over
	// Open: resign was the only vote, short of the quorum. The window
	// stays open, and the room's clock runs again from the time it had
	// when the window opened.
	Open        bool
	Played      string   // otherwise the move played: "E5", "pass"
	Tied        []string // the moves tied for the most votes, Played drawn among them by lot (nil: no tie)
	Captured    int      // the stones the room's move captured
	Scoring     bool     // the room's pass ended play: the game is being scored
	MovesBefore int      // the game's move count before the room's move (an automatic pass may follow it)
}

// CloseVote closes the room's voting window in l at now: it counts the
// ballots, plays the move with the most votes (or resigns), clears them
// and records the game (finished, if it ended). Resigning needs a quorum
// (resignQuorum); short of it the move with the most votes other than
// resign is played, a tie drawn by lot (the same lot on every attempt: it
// hashes the game and the move), and when resign was the only vote the
// window stays open without a move. The caller checks that the window is
// due and the room is to move.
func CloseVote(l *Loaded, now time.Time) (VoteClosed, error) {
	out, err := closeVote(l, now)
	if err != nil {
		return out, err
	}
	if l.G.Phase() == game.Over {
		Finish(l.Match, l.G, now)
	}
	l.Match.Record = l.G.Record()
	l.Match.Updated = now
	return out, nil
}

func closeVote(l *Loaded, now time.Time) (VoteClosed, error) {
	v, rc := l.Match.Vote, l.Match.Find(gobot.SideRoom).Color
	out := VoteClosed{Move: l.G.MoveNumber() + 1, Tally: CountVotes(v.Ballots), Voters: len(v.Ballots), Quorum: resignQuorum(v)}
	var moves []VoteCount
	for _, c := range out.Tally {
		if c.Move == "resign" {
			out.Resigns = c.N
		} else {
			moves = append(moves, c)
		}
	}
	if out.Resigns > 0 && 2*out.Resigns > out.Voters && out.Voters >= out.Quorum {
		endVoteTurn(v)
		out.Resigned = true
		return out, l.G.Resign(rc)
	}
	if len(moves) == 0 {
		// A room nobody else votes for loses on time, as one that casts
		// no vote.
		out.Open = true
		v.Closes = time.Time{}
		l.Match.Deadline = time.Time{}
		if RoomClock(l.Match) {
			l.Match.Deadline = now.Add(v.Left)
			KeepPaused(l.Match, now) // vacation
		}
		return out, nil
	}
	left := v.Left
	endVoteTurn(v)
	if RoomClock(l.Match) {
		// The room's clock is charged as a player's: its time ran until
		// its window opened (left is what it had then), the window's
		// own time is free.
		l.Match.Deadline = now.Add(left)
	}
	var tied []string
	for _, c := range moves {
		if c.N == moves[0].N {
			tied = append(tied, c.Move)
		}
	}
	out.Played = tied[0]
	if len(tied) > 1 {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%d|%d", l.Match.ID, l.G.MoveCount(), len(l.G.Record().Resumes))
		out.Played, out.Tied = tied[h.Sum32()%uint32(len(tied))], tied
	}
	if out.Played == "pass" {
		if err := l.G.Play(rc, game.Pass); err != nil {
			return out, err
		}
		Moved(l.Match, l.G, rc, now)
		out.Scoring = l.G.Phase() == game.Scoring
		return out, nil
	}
	cfg := l.G.Config()
	p, err := game.ParsePoint(out.Played, cfg.Width, cfg.Height)
	if err != nil {
		return out, err
	}
	before := l.G.Captures(rc)
	out.MovesBefore = l.G.MoveCount()
	if err := l.G.Play(rc, p); err != nil {
		return out, fmt.Errorf("the room's vote %s: %w", out.Played, err)
	}
	Moved(l.Match, l.G, rc, now)
	out.Captured = l.G.Captures(rc) - before
	return out, nil
}

// resignQuorum is how many voters a turn's window needs for the room to
// resign (besides more than half of the votes): 3, or every member who
// voted in the room's last gobot.RecentTurns turns (this one included)
// when they are fewer — but 3 on the room's first voted turn, when
// nothing tells yet how many vote here (one voter cannot resign a game
// on its first move). A game stored before the recent turns were kept
// counts everyone who has voted in it.
func resignQuorum(v *gobot.Vote) int {
	var members []gobot.UserID
	add := func(u gobot.UserID) {
		if !slices.Contains(members, u) {
			members = append(members, u)
		}
	}
	for _, turn := range v.Recent {
		for _, u := range turn {
			add(u)
		}
	}
	if v.Recent == nil { // no turn closed since Recent was kept (or before it): every voter so far but this turn's
		for _, u := range v.Voters {
			if !slices.ContainsFunc(v.Ballots, func(b gobot.Ballot) bool { return b.By == u }) {
				add(u)
			}
		}
	}
	if len(members) == 0 {
		// The room's first voted turn: nothing tells how many vote here
		// yet, so a resignation needs the full 3.
		return 3
	}
	for _, bl := range v.Ballots {
		add(bl.By)
	}
	return min(3, len(members))
}

// endVoteTurn closes the room's turn: its voters join the recent turns
// (resignQuorum), its ballots, window and stopped clock are cleared.
func endVoteTurn(v *gobot.Vote) {
	turn := []gobot.UserID{}
	for _, bl := range v.Ballots {
		turn = append(turn, bl.By)
	}
	v.Recent = append(v.Recent, turn)
	if n := len(v.Recent) - (gobot.RecentTurns - 1); n > 0 {
		v.Recent = slices.Delete(v.Recent, 0, n)
	}
	v.Ballots, v.Closes, v.Left = nil, time.Time{}, 0
}

// Code names the refusal (Refusal).
func (VoteChallengeProblem) Code() string { return "vote-challenge-problem" }

// Code names the refusal (Refusal).
func (*VoteRefused) Code() string { return "vote-refused" }
