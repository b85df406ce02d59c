package say

import (
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// voteGame is a 9×9 vote game #7, the room Black against alice, before
// its first move.
func voteGame(t *testing.T) *flow.Loaded {
	t.Helper()
	g, err := game.New(game.Config{Width: 9, Height: 9})
	if err != nil {
		t.Fatal(err)
	}
	return &flow.Loaded{Match: &gobot.Match{ID: 7, Black: gobot.VoteSeat, White: "t:alice", Record: g.Record(), Vote: &gobot.Vote{Window: time.Minute}}, G: g}
}

// Each reason flow gives for refusing a vote has its words.
func TestVoteRefused(t *testing.T) {
	l := voteGame(t)
	for _, tc := range []struct {
		r    flow.VoteRefused
		want string
	}{
		{flow.VoteRefused{Why: flow.VoterPlays, Move: 1}, "You play against the room in game #7: make your moves with " + Cmd("play") + "; the others vote."},
		{flow.VoteRefused{Why: flow.VoteScoring, Move: 1}, "Game #7 is being scored: those who voted mark dead stones with " + Cmd("dead <point>") + " and accept for the room with " + Cmd("done") + "."},
		{flow.VoteRefused{Why: flow.VoteNotRoomsTurn, Move: 2}, "It's <@t:alice>'s turn in game #7; the room votes again after that move."},
		{flow.VoteRefused{Why: flow.VoteWindowClosed, Move: 3}, "The vote for move 3 of game #7 has closed; its move is being played. Vote again on the room's next turn."},
		{flow.VoteRefused{Why: flow.VoteTimeUp, Move: 3}, "The room's time for move 3 of game #7 ran out before this vote: it loses on time."},
		{flow.VoteRefused{Why: flow.VoteOffBoard, Point: "Z9"}, "Z9 is off the board: this 9x9 board goes from A1 to J9."},
		{flow.VoteRefused{Why: flow.VoteNoColumnI, Point: "I3"}, `"I3": there is no column I on a go board (the letters skip from H to J).`},
		{flow.VoteRefused{Why: flow.VoteNotAPoint, Point: "here"}, `"here" isn't a point: write a column letter and a row number, like D4.`},
		{flow.VoteRefused{Why: flow.VoteOccupied, Point: "C3"}, "C3 is occupied — choose an empty point."},
		{flow.VoteRefused{Why: flow.VoteKo, Point: "C3"}, "C3 would retake the ko — the room must play elsewhere first (a ko threat)."},
	} {
		if err := VoteRefused(l, &tc.r); err == nil || err.Error() != tc.want {
			t.Errorf("refusal %d: %v\nwant %s", tc.r.Why, err, tc.want)
		}
	}
}

// The close of a window says what was played and why a resignation was
// not.
func TestVoteClosed(t *testing.T) {
	l := voteGame(t)
	counts := []flow.VoteCount{{Move: "C3", N: 2}, {Move: "D4", N: 2}, {Move: "resign", N: 1}}
	for _, tc := range []struct {
		what string
		c    flow.VoteClosed
		want string
	}{
		{"a tie and a capture", flow.VoteClosed{Move: 5, Tally: counts, Voters: 5, Resigns: 1, Quorum: 3, Played: "D4", Tied: []string{"C3", "D4"}, Captured: 2},
			"The room plays D4 (C3 and D4 tied; drawn at random), capturing 2 stones. Votes: C3 (2 votes), D4 (2), resign (1). Resigning had 1 of 5 votes; it needs more than half."},
		{"a pass that ends play", flow.VoteClosed{Move: 9, Tally: counts[:1], Voters: 2, Played: "pass", Scoring: true},
			"The room passes. Votes: C3 (2 votes). Both sides passed: the game is being scored; those who voted mark and accept for the room."},
		{"a resignation short of the quorum", flow.VoteClosed{Move: 9, Tally: []flow.VoteCount{{Move: "resign", N: 2}}, Voters: 2, Resigns: 2, Quorum: 3, Open: true},
			"The vote for move 9 stays open: votes resign (2 votes). Resigning needs 3 voters; 2 voted. The next vote runs the window again (" + Cmd("vote <point>") + "), and any other move is played over resign."},
		{"a resignation", flow.VoteClosed{Move: 9, Tally: []flow.VoteCount{{Move: "resign", N: 1}}, Voters: 1, Resigns: 1, Quorum: 1, Resigned: true},
			"The room resigns (1 of 1 voter chose to). Votes: resign (1 vote)."},
	} {
		if got := VoteClosed(l.Match, tc.c, ""); got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.what, got, tc.want)
		}
	}
}

// The window's time left is rounded up to the second, never 0s while
// open.
func TestWindowLeft(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		left time.Duration
		want string
	}{
		{3*time.Second + time.Millisecond, "the window closes in 4s"},
		{time.Millisecond, "the window closes in 1s"},
		{0, "the window has closed, and its move is being played"},
	} {
		if got := windowLeft(now.Add(tc.left), now); got != tc.want {
			t.Errorf("%v left: %q, want %q", tc.left, got, tc.want)
		}
	}
}

// Issue 43: the room's games line says an engine on its turn is
// thinking; a person's turn is their move.
func TestRoomVoteLineEngineThinks(t *testing.T) {
	l := voteGame(t)
	if err := l.G.Play(game.Black, game.Pt(4, 4)); err != nil {
		t.Fatal(err)
	}
	if got := RoomVoteLine(l, "t:bob", ""); !strings.HasSuffix(got, ": their move") {
		t.Errorf("alice's turn: %s", got)
	}
	l.Match.White = gobot.EngineUser("gnugo")
	if got := RoomVoteLine(l, "t:bob", ""); !strings.HasSuffix(got, ": <@engine:gnugo> is thinking") {
		t.Errorf("the engine's turn: %s", got)
	}
}
