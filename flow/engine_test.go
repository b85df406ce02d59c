package flow

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

func japanese(t *testing.T) game.Rules {
	t.Helper()
	r, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// engineGame begins a 9x9 game: alice (Black) against gnugo (White).
func engineGame(t *testing.T) *Loaded {
	t.Helper()
	c := &gobot.Challenge{ID: 1, Room: "test:main", From: "test:alice", To: gobot.EngineUser("gnugo"), Color: "black", Status: gobot.Accepted,
		Config: game.Config{Width: 9, Height: 9, Rules: japanese(t)}}
	l, err := Begin(c, Opening{By: gobot.EngineUser("gnugo"), At: t0, Engine: "gnugo", Level: 3})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func reload(t *testing.T, l *Loaded) *Loaded {
	t.Helper()
	m := *l.Match
	m.Record = l.G.Record()
	x, err := Load(&m)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func TestBeginSeats(t *testing.T) {
	l := engineGame(t)
	if l.Match.Black != "test:alice" || l.Match.White != gobot.EngineUser("gnugo") || l.Match.Engine != "gnugo" || l.Match.EngineLevel != 3 || l.Match.ID != 1 {
		t.Fatalf("seats: %+v", l.Match)
	}
	if EngineColor(l.Match) != game.White {
		t.Fatalf("the engine plays %v", EngineColor(l.Match))
	}
	// By vote: the room takes the challenger's seat, and the game is unrated.
	c := &gobot.Challenge{ID: 2, From: "test:alice", Color: "black", VoteWindow: time.Minute, Config: game.Config{Width: 9, Height: 9, Rules: japanese(t)}}
	l, err := Begin(c, Opening{By: "test:bob", At: t0, Rating: &gobot.GameRating{Rated: true}})
	if err != nil {
		t.Fatal(err)
	}
	if l.Match.Black != gobot.VoteSeat || l.Match.Vote == nil || l.Match.Rating != nil {
		t.Fatalf("vote game: %+v", l.Match)
	}
	// Against oneself: unrated.
	c = &gobot.Challenge{ID: 3, From: "test:alice", Color: "black", Config: game.Config{Width: 9, Height: 9, Rules: japanese(t)}}
	if l, _ = Begin(c, Opening{By: "test:alice", At: t0, Rating: &gobot.GameRating{Rated: true}}); l.Match.Rating.Rated {
		t.Fatal("a game against oneself is rated")
	}
	ChallengeAccepted(c, l.Match, "test:alice", t0)
	if c.Status != gobot.Accepted || c.Game != 3 || c.To != "test:alice" {
		t.Fatalf("challenge after: %+v", c)
	}
}

func TestAnswerRefusals(t *testing.T) {
	c := func() *gobot.Challenge { return &gobot.Challenge{From: "a", To: "b", Status: gobot.Pending} }
	for _, tc := range []struct {
		by     gobot.UserID
		status gobot.ChallengeStatus
		want   error
	}{
		{"b", gobot.Declined, nil}, {"a", gobot.Cancelled, nil},
		{"b", gobot.Cancelled, ErrNotYours}, {"a", gobot.Declined, ErrOwnChallenge}, {"c", gobot.Declined, ErrNotForYou},
	} {
		x := c()
		if err := Answer(x, tc.by, tc.status, t0); !errors.Is(err, tc.want) || (err == nil && x.Status != tc.status) {
			t.Errorf("%s %v: %v, status %v", tc.by, tc.status, err, x.Status)
		}
	}
	x := c()
	x.Status = gobot.Declined
	if err := Answer(x, "b", gobot.Declined, t0); !errors.Is(err, ErrAnswered) {
		t.Errorf("answered twice: %v", err)
	}
	for by, want := range map[gobot.UserID]error{"b": nil, "a": ErrOwnChallenge, "c": ErrNotForYou} {
		if err := Acceptable(c(), by); !errors.Is(err, want) {
			t.Errorf("accept by %s: %v, want %v", by, err, want)
		}
	}
	if err := Acceptable(&gobot.Challenge{From: "a", Status: gobot.Pending}, "c"); err != nil {
		t.Errorf("an open challenge: %v", err)
	}
}

func TestEngineTurns(t *testing.T) {
	e := Engines{Running: true}
	l := engineGame(t)
	if j := e.Job(l.Match, l.G); j != JobNone {
		t.Fatalf("Black to move, the engine's job: %v", j)
	}
	if err := l.G.Play(game.Black, game.Pt(2, 2)); err != nil {
		t.Fatal(err)
	}
	if j := e.Job(l.Match, l.G); j != JobMove {
		t.Fatalf("the engine to move: %v", j)
	}
	snap := reload(t, l)
	turn, err := e.Answer(snap, l, EngineAnswer{Job: JobMove, Move: EngineMove{Moves: []game.Move{{Color: game.White, Point: game.Pt(6, 6)}}}}, t0.Add(time.Minute))
	if err != nil || turn.Job != JobMove || len(turn.Played) != 1 || turn.Played[0] != game.Pt(6, 6) || turn.Before != 1 || turn.Over {
		t.Fatalf("a move: %+v, %v", turn, err)
	}
	if l.G.MoveCount() != 2 || l.Match.Updated != t0.Add(time.Minute) || len(l.Match.MoveTimes) != 1 {
		t.Fatalf("after the move: %d moves, updated %v", l.G.MoveCount(), l.Match.Updated)
	}
	// The same answer again: the game moved on, nothing changes.
	if turn, err = e.Answer(snap, l, EngineAnswer{Job: JobMove}, t0); err != nil || turn.Job != JobNone || l.G.MoveCount() != 2 {
		t.Fatalf("a stale answer: %+v, %v", turn, err)
	}
	// Black passes, the engine passes: the game is scored.
	if err := l.G.Play(game.Black, game.Pass); err != nil {
		t.Fatal(err)
	}
	turn, err = e.Answer(reload(t, l), l, EngineAnswer{Job: JobMove, Move: EngineMove{Moves: []game.Move{{Color: game.White, Point: game.Pass}}, Illegal: "Z99"}}, t0)
	if err != nil || !turn.Passed || !turn.Scored || turn.Illegal != "Z99" || l.G.Phase() != game.Scoring {
		t.Fatalf("a pass: %+v, %v", turn, err)
	}
	// Scoring: the engine proposes the dead stones, and accepts them.
	if j := e.Job(l.Match, l.G); j != JobPropose {
		t.Fatalf("in the scoring: %v", j)
	}
	turn, err = e.Answer(reload(t, l), l, EngineAnswer{Job: JobPropose, Dead: []game.Point{game.Pt(2, 2), game.Pt(4, 4)}}, t0)
	if err != nil || len(turn.Dead) != 1 || turn.Dead[0] != game.Pt(2, 2) || !l.G.IsDead(game.Pt(2, 2)) || !l.G.Accepted(game.White) || l.Match.EngineDead != l.G.MoveCount() {
		t.Fatalf("a proposal: %+v, %v", turn, err)
	}
	if j := e.Job(l.Match, l.G); j != JobNone {
		t.Fatalf("after its proposal: %v", j)
	}
}

func TestEngineResigns(t *testing.T) {
	l := engineGame(t)
	if err := l.G.Play(game.Black, game.Pt(2, 2)); err != nil {
		t.Fatal(err)
	}
	turn, err := Engines{}.Answer(reload(t, l), l, EngineAnswer{Job: JobMove, Move: EngineMove{Resign: true}}, t0)
	if err != nil || !turn.Resigned || !turn.Over || l.Match.Result != "B+R" || l.Match.Finished != t0 {
		t.Fatalf("a resignation: %+v, %v, %q", turn, err, l.Match.Result)
	}
}

// Without engines running nobody proposes the dead stones of a people's
// game; with a scorer, it does.
func TestScorerJob(t *testing.T) {
	c := &gobot.Challenge{ID: 1, From: "test:alice", Color: "black", Config: game.Config{Width: 9, Height: 9, Rules: japanese(t)}}
	l, err := Begin(c, Opening{By: "test:bob", At: t0})
	if err != nil {
		t.Fatal(err)
	}
	l.G.Play(game.Black, game.Pass)
	l.G.Play(game.White, game.Pass)
	if j := (Engines{Scorer: "gnugo"}).Job(l.Match, l.G); j != JobNone {
		t.Fatalf("no engines: %v", j)
	}
	if j := (Engines{Running: true, Scorer: "gnugo"}).Job(l.Match, l.G); j != JobPropose {
		t.Fatalf("a scorer: %v", j)
	}
	turn := EngineFallback(reload(t, l), l, JobPropose, t0)
	if turn.Job != JobPropose || l.Match.EngineDead != l.G.MoveCount() || turn.Over {
		t.Fatalf("fallback: %+v", turn)
	}
}
