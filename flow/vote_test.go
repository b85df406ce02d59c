package flow

import (
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

// roomGame is a 5×5 vote game under Japanese rules, the room Black against an engine, after
// moves (alternately from Black, as GTP points or "pass").
func roomGame(t *testing.T, moves ...string) *Loaded {
	t.Helper()
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: 5, Height: 5, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		p, err := game.ParsePoint(s, 5, 5)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	m := &gobot.Match{ID: 7, Black: gobot.VoteSeat, White: gobot.EngineUser("gnugo"), Engine: "gnugo", Record: g.Record(), Vote: &gobot.Vote{Window: time.Minute}}
	l, err := Load(m)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func cast(t *testing.T, l *Loaded, voter gobot.UserID, move string, at time.Time) VoteCast {
	t.Helper()
	vote := VoteFor{Point: move, Resign: move == "resign"}
	if vote.Resign {
		vote.Point = ""
	}
	c, err := castBallot(l, voter, vote, at)
	if err != nil {
		t.Fatalf("%s votes %s: %v", voter, move, err)
	}
	return c
}

// A vote the room cannot cast is refused with its reason.
func TestCastVoteRefusals(t *testing.T) {
	// . . . . .
	// . . . . .
	// . . . . .
	// X . . . .   (room: Black)
	// O X . . .
	for _, tc := range []struct {
		what  string
		moves []string
		voter gobot.UserID
		vote  string
		why   VoteRefusal
		point string
	}{
		{"the opponent votes", []string{"A2", "A1", "B1"}, gobot.EngineUser("gnugo"), "C3", VoterPlays, ""},
		{"the opponent's turn", []string{"A2"}, "t:ann", "C3", VoteNotRoomsTurn, ""},
		{"an occupied point", []string{"A2", "B2"}, "t:ann", "a2", VoteOccupied, "A2"},
		{"off the board", nil, "t:ann", "F9", VoteOffBoard, "F9"},
		{"column I", nil, "t:ann", "I3", VoteNoColumnI, "I3"},
		{"no point", nil, "t:ann", "here", VoteNotAPoint, "here"},
	} {
		l := roomGame(t, tc.moves...)
		_, err := castBallot(l, tc.voter, VoteFor{Point: tc.vote}, t0)
		var r *VoteRefused
		if !errors.As(err, &r) || r.Why != tc.why || r.Point != tc.point || r.Move != l.G.MoveNumber()+1 {
			t.Errorf("%s: %v (%+v), want refusal %d at %q", tc.what, err, r, tc.why, tc.point)
		}
		if len(l.Match.Vote.Ballots) != 0 || !l.Match.Vote.Closes.IsZero() {
			t.Errorf("%s: a refused vote changed the vote: %+v", tc.what, l.Match.Vote)
		}
	}
}

// The room may not retake a ko at once.
func TestCastVoteKo(t *testing.T) {
	// . . . . .
	// . . . . .
	// . X O . .
	// X O . O .   White's B2 took Black's C2
	// . X O . .
	l := roomGame(t, "B3", "C3", "A2", "D2", "B1", "C1", "C2", "B2")
	_, err := castBallot(l, "t:ann", VoteFor{Point: "C2"}, t0)
	var r *VoteRefused
	if !errors.As(err, &r) || r.Why != VoteKo || r.Point != "C2" {
		t.Errorf("retaking the ko: %v, want a ko refusal", err)
	}
	if c := cast(t, l, "t:ann", "D3", t0); c.Ballot != "D3" {
		t.Errorf("a ko threat: %+v", c)
	}
}

// The first vote opens the window; a voter's vote again replaces theirs;
// a vote once the window's time came is refused.
func TestCastVoteWindow(t *testing.T) {
	l := roomGame(t)
	c := cast(t, l, "t:ann", "c3", t0)
	if !c.Opened || c.Reopened || c.Changed || c.Ballot != "C3" || c.Move != 1 || !c.Closes.Equal(t0.Add(time.Minute)) || !l.Match.Deadline.Equal(c.Closes) {
		t.Errorf("the first vote: %+v, deadline %v", c, l.Match.Deadline)
	}
	if c := cast(t, l, "t:bob", "pass", t0.Add(time.Second)); c.Opened || c.Changed || c.Ballot != "pass" {
		t.Errorf("a second vote: %+v", c)
	}
	if c := cast(t, l, "t:ann", "D4", t0.Add(2*time.Second)); !c.Changed || c.Before != "C3" || c.Ballot != "D4" {
		t.Errorf("a changed vote: %+v", c)
	}
	if c := cast(t, l, "t:ann", "D4", t0.Add(3*time.Second)); !c.Changed || c.Before != "D4" {
		t.Errorf("the same vote again: %+v", c)
	}
	if len(l.Match.Vote.Ballots) != 2 || !slices.Equal(l.Match.Vote.Voters, []gobot.UserID{"t:ann", "t:bob"}) {
		t.Errorf("ballots %+v, voters %v", l.Match.Vote.Ballots, l.Match.Vote.Voters)
	}
	var r *VoteRefused
	if _, err := castBallot(l, "t:cat", VoteFor{Point: "E5"}, t0.Add(time.Minute)); !errors.As(err, &r) || r.Why != VoteWindowClosed {
		t.Errorf("a vote at the window's close: %v", err)
	}
}

// Closing the window plays the move with the most votes, a tie drawn by
// the same lot every time, and says what it captured.
func TestCloseVotePlays(t *testing.T) {
	// . . . . .
	// . . . . .
	// . . . . .
	// X . . . .
	// O . . . .   the room (Black) to play: B1 captures A1
	l := roomGame(t, "A2", "A1")
	cast(t, l, "t:ann", "B1", t0)
	cast(t, l, "t:bob", "B1", t0)
	cast(t, l, "t:cat", "C3", t0)
	out, err := CloseVote(l, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if out.Played != "B1" || out.Captured != 1 || out.Tied != nil || out.Voters != 3 || out.Move != 3 || out.MovesBefore != 2 || out.Resigned || out.Open {
		t.Errorf("closed: %+v", out)
	}
	if l.Match.Vote.Ballots != nil || !l.Match.Vote.Closes.IsZero() || len(l.Match.Vote.Recent) != 1 || l.G.MoveCount() != 3 {
		t.Errorf("after the close: vote %+v, %d moves", l.Match.Vote, l.G.MoveCount())
	}

	tie := func() VoteClosed {
		l := roomGame(t)
		cast(t, l, "t:ann", "B2", t0)
		cast(t, l, "t:bob", "D4", t0)
		out, err := CloseVote(l, t0.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := tie(), tie()
	if !slices.Equal(a.Tied, []string{"B2", "D4"}) || !slices.Contains(a.Tied, a.Played) || a.Played != b.Played {
		t.Errorf("a tie: %+v, then %+v", a, b)
	}
}

// Resigning needs more than half of the votes and the quorum; resign
// alone short of it keeps the window open without a move.
func TestCloseVoteResign(t *testing.T) {
	l := roomGame(t)
	for _, u := range []gobot.UserID{"t:ann", "t:bob", "t:cat"} {
		cast(t, l, u, "resign", t0)
	}
	cast(t, l, "t:dan", "C3", t0)
	out, err := CloseVote(l, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Resigned || out.Resigns != 3 || out.Voters != 4 || out.Quorum != 3 || l.G.Phase() != game.Over || l.Match.Finished.IsZero() || l.Match.Result != "W+R" {
		t.Errorf("three of four resign: %+v, result %q", out, l.Match.Result)
	}

	l = roomGame(t)
	cast(t, l, "t:ann", "resign", t0)
	out, err = CloseVote(l, t0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if !out.Open || out.Resigned || out.Played != "" || out.Quorum != 3 || l.G.MoveCount() != 0 || !l.Match.Vote.Closes.IsZero() || len(l.Match.Vote.Ballots) != 1 {
		t.Errorf("a lone resign: %+v, vote %+v", out, l.Match.Vote)
	}
	if c := cast(t, l, "t:bob", "C3", t0.Add(2*time.Minute)); !c.Reopened {
		t.Errorf("the next vote: %+v, want the window run again", c)
	}
}

// The quorum is 3, or every voter of the room's recent turns when fewer,
// but 3 on its first voted turn.
func TestResignQuorum(t *testing.T) {
	ballots := func(us ...gobot.UserID) []gobot.Ballot {
		var b []gobot.Ballot
		for _, u := range us {
			b = append(b, gobot.Ballot{By: u, Move: "resign"})
		}
		return b
	}
	for _, tc := range []struct {
		what string
		v    gobot.Vote
		want int
	}{
		{"the first voted turn", gobot.Vote{Ballots: ballots("t:ann")}, 3},
		{"one voter in the recent turns", gobot.Vote{Recent: [][]gobot.UserID{{"t:ann"}}, Ballots: ballots("t:ann")}, 1},
		{"two voters", gobot.Vote{Recent: [][]gobot.UserID{{"t:ann"}, {"t:bob"}}, Ballots: ballots("t:ann")}, 2},
		{"many voters", gobot.Vote{Recent: [][]gobot.UserID{{"t:ann", "t:bob"}, {"t:cat", "t:dan"}}, Ballots: ballots("t:ann")}, 3},
		{"stored before Recent", gobot.Vote{Voters: []gobot.UserID{"t:ann", "t:bob"}, Ballots: ballots("t:ann")}, 2},
	} {
		if got := resignQuorum(&tc.v); got != tc.want {
			t.Errorf("%s: quorum %d, want %d", tc.what, got, tc.want)
		}
	}
}

// Votes are counted most first, a tie by the move voted first.
func TestCountVotes(t *testing.T) {
	var b []gobot.Ballot
	for _, m := range []string{"C3", "D4", "D4", "pass", "C3", "D4"} {
		b = append(b, gobot.Ballot{Move: m})
	}
	got := CountVotes(b)
	want := []VoteCount{{"D4", 3, 1}, {"C3", 2, 0}, {"pass", 1, 3}}
	if !slices.Equal(got, want) {
		t.Errorf("counted %v, want %v", got, want)
	}
}
