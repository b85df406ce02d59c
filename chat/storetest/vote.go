package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// testVoteGames: a room-vote game keeps its voting (window, ballots,
// voters), its open window is due like any deadline, its room seat is
// indexed like a player, and a vote challenge keeps its window; a game
// and a challenge without voting read back without it.
func testVoteGames(t *testing.T, s gobot.Store) {
	g := NewGame(gobot.VoteSeat, "t:ann", "t:room")
	g.Vote = &gobot.Vote{Window: 10 * time.Minute, Closes: T0.Add(10 * time.Minute),
		Ballots: []gobot.Ballot{{By: "t:bob", Move: "E5", At: T0}, {By: "t:cat", Move: "resign", At: T0.Add(time.Minute)}},
		Voters:  []gobot.UserID{"t:bob", "t:cat", "t:dan"}}
	g.Deadline = g.Vote.Closes
	plain := NewGame("t:eve", "t:fay", "t:room")
	putGames(t, s, g, plain)
	if got := getGame(t, s, g.ID); !reflect.DeepEqual(got, g) {
		t.Errorf("vote game round trip:\n got %+v\nwant %+v", got.Vote, g.Vote)
	}
	if got := getGame(t, s, plain.ID); got.Vote != nil {
		t.Errorf("a game without voting reads back with %+v", got.Vote)
	}
	wantIDs(t, "due when the window closes", gameIDs(t, s, "DueGames", func(tx gobot.Tx) ([]*gobot.Match, error) {
		return tx.DueGames(T0.Add(11*time.Minute), 0)
	}), g.ID)
	wantIDs(t, "the room's seat's games", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) {
		return tx.ActiveGames(gobot.VoteSeat)
	}), g.ID)
	// A changed vote and a closed window are stored.
	update(t, s, func(tx gobot.Tx) error {
		m, err := tx.Match(g.ID)
		if err != nil {
			return err
		}
		m.Vote.Ballots, m.Vote.Closes, m.Deadline = nil, time.Time{}, time.Time{}
		return tx.PutMatch(m)
	})
	if got := getGame(t, s, g.ID); got.Vote == nil || len(got.Vote.Ballots) != 0 || !got.Vote.Closes.IsZero() || len(got.Vote.Voters) != 3 {
		t.Errorf("after the window closed: %+v", got.Vote)
	}
	c := &gobot.Challenge{Room: "t:room", From: "t:bob", To: "t:ann", Config: g.Record.Config, Color: "black", Created: T0, VoteWindow: time.Hour}
	update(t, s, func(tx gobot.Tx) error { return tx.PutChallenge(c) })
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Challenge(c.ID)
		if err != nil {
			return err
		}
		if got.VoteWindow != time.Hour {
			t.Errorf("vote challenge's window read back as %v", got.VoteWindow)
		}
		return nil
	})
}
