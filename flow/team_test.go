package flow_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const day = 24 * time.Hour

func ids(names ...string) []gobot.UserID {
	var out []gobot.UserID
	for _, n := range names {
		out = append(out, gobot.UserID("t:"+n))
	}
	return out
}

func TestCheckTeams(t *testing.T) {
	alice := gobot.UserID("t:alice")
	for _, tc := range []struct {
		name          string
		first, second []gobot.UserID
		want          flow.TeamsProblem // 0: accepted
		user          gobot.UserID
	}{
		{"no vs", ids("alice", "bob"), nil, flow.NoSecondTeam, ""},
		{"nothing before vs", nil, ids("alice", "bob"), flow.NoFirstTeam, ""},
		{"five in a team", ids("alice", "b", "c", "d", "e"), ids("f"), flow.TeamTooLarge, ""},
		{"in both teams", ids("alice", "bob"), ids("bob", "carol"), flow.NamedTwice, "t:bob"},
		{"an engine", ids("alice", "bob"), []gobot.UserID{gobot.EngineUser("gnugo")}, flow.EngineInTeam, gobot.EngineUser("gnugo")},
		{"proposer not in", ids("bob", "carol"), ids("dave"), flow.ProposerNotIn, ""},
		{"two players", ids("alice"), ids("bob"), flow.TwoPlayers, ""},
		{"two against one", ids("alice", "bob"), ids("carol"), 0, ""},
	} {
		err := flow.CheckTeams(tc.first, tc.second, alice)
		var e flow.TeamsRefusal
		switch {
		case tc.want == 0 && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want != 0 && (!errors.As(err, &e) || e.Problem != tc.want || e.User != tc.user):
			t.Errorf("%s: %v, want problem %d (%s)", tc.name, err, tc.want, tc.user)
		}
	}
}

func TestTurnCycle(t *testing.T) {
	for _, tc := range []struct{ a, b, want int }{{1, 1, 2}, {2, 2, 4}, {1, 3, 6}, {2, 3, 12}, {2, 4, 8}, {3, 4, 24}, {4, 4, 8}} {
		if got := flow.TurnCycle(tc.a, tc.b); got != tc.want {
			t.Errorf("TurnCycle(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// update runs fn in a transaction of db, failing the test on an error.
func update(t *testing.T, db *storage.DB, fn func(tx gobot.Tx) error) {
	t.Helper()
	if err := db.Update(context.Background(), fn); err != nil {
		t.Fatal(err)
	}
}

func newDB(t *testing.T) *storage.DB {
	t.Helper()
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// away puts u on vacation from t0 for five days.
func away(tx gobot.Tx, u gobot.UserID) error {
	return tx.PutPlayer(&gobot.Player{ID: u, Vacation: &gobot.Vacation{FirstGame: t0, Left: 5 * day, Start: t0, End: t0.Add(5 * day)}})
}

// propose stores a team challenge of black against white (a 9×9
// game, a day a move), proposed by black's first player.
func propose(t *testing.T, tx gobot.Tx, black, white []gobot.UserID) *gobot.Challenge {
	t.Helper()
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	c := &gobot.Challenge{Room: "t:room", From: black[0], Config: game.Config{Width: 9, Height: 9, Rules: rules},
		Color: "black", Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: day}, Created: t0,
		Teams: &gobot.Teams{Black: black, White: white}}
	if err := flow.ProposeTeams(tx, c); err != nil {
		t.Fatal(err)
	}
	return c
}

// teamGame proposes black against white and has everyone accept; it
// returns the game begun.
func teamGame(t *testing.T, tx gobot.Tx, black, white []gobot.UserID) flow.TeamAccepted {
	t.Helper()
	c := propose(t, tx, black, white)
	var acc flow.TeamAccepted
	var err error
	for _, u := range append(slices.Clone(black[1:]), white...) {
		if acc, err = flow.AcceptTeam(tx, flow.DefaultVacation, c, u, t0); err != nil {
			t.Fatal(err)
		}
	}
	return acc
}

// A team challenge's answers: each named player accepts once, the
// proposer has agreed, nobody else answers, and the last acceptance
// begins the game under the challenge's number, starting everyone's
// week count.
func TestAcceptTeam(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		c := propose(t, tx, ids("alice", "bob"), ids("carol", "dave"))
		refused := func(u string, want flow.AnswerProblem) {
			t.Helper()
			var e flow.AnswerRefusal
			if _, err := flow.AcceptTeam(tx, flow.DefaultVacation, c, gobot.UserID("t:"+u), t0); !errors.As(err, &e) || e.Problem != want {
				t.Errorf("%s accepts: %v, want problem %d", u, err, want)
			}
		}
		refused("alice", flow.OwnChallenge)
		refused("erin", flow.NotNamed)
		for i, u := range []string{"bob", "carol"} {
			acc, err := flow.AcceptTeam(tx, flow.DefaultVacation, c, gobot.UserID("t:"+u), t0)
			if err != nil || acc.Began != nil || !slices.Equal(acc.Waiting, ids("carol", "dave")[i:]) {
				t.Fatalf("%s accepts: %+v, %v", u, acc, err)
			}
		}
		refused("bob", flow.AlreadyAccepted)
		acc, err := flow.AcceptTeam(tx, flow.DefaultVacation, c, "t:dave", t0)
		if err != nil || acc.Began == nil || len(acc.Waiting) > 0 {
			t.Fatalf("the last acceptance: %+v, %v", acc, err)
		}
		m, err := tx.Match(gobot.GameID(c.ID))
		if err != nil || m.Teams.Accepted != nil || m.Side(game.Black).ToMove() != "t:alice" || !m.Deadline.Equal(t0.Add(day)) {
			t.Fatalf("the game stored: %+v, %v", m, err)
		}
		if c.Status != gobot.Accepted || c.Game != m.ID {
			t.Errorf("the challenge: %+v", c)
		}
		for _, u := range m.Players() {
			if p, err := tx.Player(u); err != nil || !p.Vacation.FirstGame.Equal(t0) {
				t.Errorf("%s's week count: %+v, %v", u, p, err)
			}
		}
		refused("dave", flow.Answered)
		if err := flow.DeclineTeam(tx, c, "t:dave", t0); !errors.As(err, new(flow.AnswerRefusal)) {
			t.Errorf("a decline after the start: %v", err)
		}
		return nil
	})
}

// A team's turn passes on at once from players on vacation, in turn
// order; a team all away keeps its turn.
func TestPassAwayTurns(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		l := teamGame(t, tx, ids("alice", "bob", "carol"), ids("dave", "erin")).Began
		if got := flow.PassAwayTurns(tx, l); len(got.Away) > 0 {
			t.Errorf("nobody away: %+v", got)
		}
		for _, u := range ids("alice", "bob") {
			if err := away(tx, u); err != nil {
				return err
			}
		}
		l.Match.Reminded = 1
		got := flow.PassAwayTurns(tx, l)
		if !slices.Equal(got.Away, ids("alice", "bob")) || got.To != "t:carol" || got.AllAway || got.Color != game.Black || l.Match.Reminded != 0 {
			t.Errorf("alice and bob away: %+v", got)
		}
		if err := away(tx, "t:carol"); err != nil {
			return err
		}
		got = flow.PassAwayTurns(tx, l)
		if !got.AllAway || got.To != "t:carol" || l.Match.Side(game.Black).ToMove() != "t:carol" {
			t.Errorf("all away: %+v", got)
		}
		var e flow.NotTeamTurn
		if err := flow.TeamTurn(l, "t:alice"); !errors.As(err, &e) || e.Next != "t:carol" || e.Color != game.Black {
			t.Errorf("alice plays carol's turn: %v", err)
		}
		return nil
	})
}

// A timeout passes the turn to the next teammate, with a fresh turn,
// until every player present has timed out in a row.
func TestTeamTimeout(t *testing.T) {
	db := newDB(t)
	update(t, db, func(tx gobot.Tx) error {
		l := teamGame(t, tx, ids("alice", "bob", "carol"), ids("dave", "erin")).Began
		if err := away(tx, "t:carol"); err != nil {
			return err
		}
		now := l.Match.Deadline
		out, handled, err := flow.TeamTimeout(tx, l, now)
		if err != nil || !handled || out.Late != "t:alice" || out.Next != "t:bob" || len(out.Turns.Away) > 0 || !l.Match.Deadline.Equal(now.Add(day)) {
			t.Fatalf("alice's timeout: %+v, %v, %v", out, handled, err)
		}
		// bob's ends the run: carol, away, has no turns.
		if _, handled, err := flow.TeamTimeout(tx, l, l.Match.Deadline); handled || err != nil {
			t.Errorf("bob's timeout: handled %v, %v", handled, err)
		}
		return nil
	})
}
