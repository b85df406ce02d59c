package gobot

import (
	"slices"
	"time"
)

// Room-vote games (issue 29): one side of the game is the room, which
// plays by vote. Everyone in the room but the opponent may vote; the
// first vote of a turn opens a window of Vote.Window, and when it closes
// the move with the most votes is played. Against a person the room's
// side has a clock like any side (issue 35): a room that casts no vote
// by its deadline loses on time.

// VoteSeat is the room's seat in a room-vote game: Match.Black or
// Match.White holds it, as an engine's seat holds the engine's user. It
// is nobody's user ID (platform "vote"), so no person ever plays it
// directly; adapters show it as "the room".
const VoteSeat UserID = "vote:the room"

// The shortest and the longest voting window.
const (
	MinVoteWindow = 5 * time.Second
	MaxVoteWindow = 7 * 24 * time.Hour
)

// Vote is the room's side of a room-vote game.
type Vote struct {
	// Window is how long a turn's voting lasts from its first vote.
	Window time.Duration
	// Closes is when the open window closes; zero while nobody has voted
	// this turn. While a window is open it is also the game's Deadline,
	// so the clock loop of any process closes it, once.
	Closes time.Time
	// Ballots are this turn's votes, one per voter (a changed vote
	// replaces the earlier one), in the order first cast.
	Ballots []Ballot
	// Voters is everyone who has voted in this game: any of them marks
	// dead stones and accepts the count for the room.
	Voters []UserID
	// Recent holds who voted in each of the room's last turns before this
	// one, oldest first, at most RecentTurns-1 of them: a resignation's
	// quorum counts on them. Nil in a game stored before it was kept
	// (then Voters stands for them).
	Recent [][]UserID
	// Left is the time the room's clock had when the turn's window
	// opened (its clock stops while the window runs, and runs again from
	// there if the window stays open without a move); zero without a
	// clock.
	Left time.Duration
}

// RecentTurns is how many of the room's turns, this one included, a
// resignation's quorum looks back on.
const RecentTurns = 5

// A Ballot is one voter's vote for the room's next move.
type Ballot struct {
	By   UserID
	Move string // a point in GTP ("E5"), "pass" or "resign"
	At   time.Time
}

// Voted reports whether u has voted in this game.
func (v *Vote) Voted(u UserID) bool { return v != nil && slices.Contains(v.Voters, u) }

// WindowOpen reports whether a voting window is running (its end is the
// game's Deadline).
func (v *Vote) WindowOpen() bool { return v != nil && !v.Closes.IsZero() }
