package storetest

import (
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// testTeamGames: a team game (rengo) keeps its teams, and every member
// finds it among their active games (InsertMatch and PutMatch alike)
// until it ends; a team challenge keeps its teams too.
func testTeamGames(t *testing.T, s gobot.Store) {
	g := NewGame("t:ann", "t:cat", "t:r1")
	g.Teams = &gobot.Teams{Black: []gobot.UserID{"t:ann", "t:bob"}, White: []gobot.UserID{"t:cat", "t:dan", "t:eve"}}
	g.Teams.Skipped[game.White], g.Teams.Late[game.White] = 1, 1
	g.ID = 7
	update(t, s, func(tx gobot.Tx) error { return tx.InsertMatch(g) })
	if g.ID != 7 {
		t.Fatalf("team game stored as #%d, want #7", g.ID)
	}
	if got := getGame(t, s, 7); !reflect.DeepEqual(got, g) {
		t.Errorf("team game round trip:\n got %+v\nwant %+v", got.Teams, g.Teams)
	}
	other := NewGame("t:bob", "t:fay", "t:r2") // a two-player game of bob's
	putGames(t, s, other)
	active := func(u gobot.UserID) func(tx gobot.Tx) ([]*gobot.Match, error) {
		return func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames(u) }
	}
	for _, u := range []gobot.UserID{"t:ann", "t:cat", "t:dan", "t:eve"} {
		wantIDs(t, string(u)+"'s active games", gameIDs(t, s, "ActiveGames", active(u)), 7)
	}
	wantIDs(t, "bob's active games", gameIDs(t, s, "ActiveGames", active("t:bob")), 7, 8)
	wantIDs(t, "fay's active games", gameIDs(t, s, "ActiveGames", active("t:fay")), 8)

	// A team changes (a PutMatch update) and the game ends: the index
	// follows.
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(7)
		if err != nil {
			return err
		}
		g.Teams.White = []gobot.UserID{"t:cat", "t:gil"}
		return tx.PutMatch(g)
	})
	wantIDs(t, "dan's active games after leaving the team", gameIDs(t, s, "ActiveGames", active("t:dan")))
	wantIDs(t, "gil's active games after joining the team", gameIDs(t, s, "ActiveGames", active("t:gil")), 7)
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(7)
		if err != nil {
			return err
		}
		g.Finished, g.Result = T0.Add(time.Hour), "W+T"
		return tx.PutMatch(g)
	})
	for _, u := range []gobot.UserID{"t:ann", "t:cat", "t:gil"} {
		wantIDs(t, string(u)+"'s active games after the end", gameIDs(t, s, "ActiveGames", active(u)))
	}
	wantIDs(t, "bob's active games after the end", gameIDs(t, s, "ActiveGames", active("t:bob")), 8)

	c := &gobot.Challenge{Room: "t:r1", From: "t:ann", Config: g.Record.Config, Color: "black", Created: T0,
		Teams: &gobot.Teams{Black: []gobot.UserID{"t:ann", "t:bob"}, White: []gobot.UserID{"t:cat"}, Accepted: []gobot.UserID{"t:cat"}}}
	update(t, s, func(tx gobot.Tx) error { return tx.PutChallenge(c) })
	var got *gobot.Challenge
	view(t, s, func(tx gobot.Tx) (err error) { got, err = tx.Challenge(c.ID); return err })
	if !reflect.DeepEqual(got.Teams, c.Teams) {
		t.Errorf("team challenge round trip: got %+v, want %+v", got.Teams, c.Teams)
	}
	pending := func(u gobot.UserID) func(tx gobot.Tx) ([]*gobot.Challenge, error) {
		return func(tx gobot.Tx) ([]*gobot.Challenge, error) { return tx.PendingChallenges(u) }
	}
	for _, u := range []gobot.UserID{"t:ann", "t:bob", "t:cat"} {
		wantIDs(t, string(u)+"'s pending challenges", chalIDs(t, s, "PendingChallenges", pending(u)), c.ID)
	}
	wantIDs(t, "dan's pending challenges", chalIDs(t, s, "PendingChallenges", pending("t:dan")))
	c.Status = gobot.Accepted
	update(t, s, func(tx gobot.Tx) error { return tx.PutChallenge(c) })
	wantIDs(t, "bob's pending challenges once accepted", chalIDs(t, s, "PendingChallenges", pending("t:bob")))
}
