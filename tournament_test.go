package gobot

import (
	"reflect"
	"testing"

	"github.com/gobotgo/gobot/tournament"
)

// A stored tournament converts to package tournament's value, which
// pairs its next round from the rounds stored: no pair of round 1 meets
// again.
func TestTournamentPairing(t *testing.T) {
	tm := &Tournament{Name: "Cup", System: tournament.McMahon, Rounds: 3, Bar: tournament.DefaultBar, Floor: tournament.DefaultFloor}
	for _, id := range []tournament.PlayerID{"t:ann", "t:bob", "t:cat", "t:dan"} {
		tm.Players = append(tm.Players, TournamentPlayer{Player: tournament.Player{ID: id, Name: string(id), Rank: -5}, User: UserID(id)})
	}
	tm.Played = []TournamentRound{{Round: tournament.Round{Games: []tournament.Game{
		{Table: 1, White: "t:ann", Black: "t:bob", Result: tournament.WhiteWins},
		{Table: 2, White: "t:cat", Black: "t:dan", Result: tournament.BlackWins}}}, Matches: []GameID{7, 9}}}
	p := tm.Pairing()
	if len(p.Players) != 4 || p.Players[3].ID != "t:dan" || len(p.Played) != 1 || !reflect.DeepEqual(p.Played[0], tm.Played[0].Round) {
		t.Fatalf("pairing value: %+v", p)
	}
	rd, err := p.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if len(rd.Games) != 2 {
		t.Fatalf("round 2: %+v", rd)
	}
	met := map[[2]tournament.PlayerID]bool{{"t:ann", "t:bob"}: true, {"t:bob", "t:ann"}: true, {"t:cat", "t:dan"}: true, {"t:dan", "t:cat"}: true}
	for _, g := range rd.Games {
		if met[[2]tournament.PlayerID{g.White, g.Black}] {
			t.Errorf("round 2 repeats a pairing of round 1: %+v", g)
		}
	}
	if got := tm.Games(); !reflect.DeepEqual(got, []GameID{7, 9}) {
		t.Errorf("games: %v", got)
	}
	if r := tm.Played[0]; r.Match(1) != 9 || r.Match(5) != 0 {
		t.Errorf("Match: %d, %d", r.Match(1), r.Match(5))
	}
	tm.Played = append(tm.Played, TournamentRound{Round: rd})
	if got := tm.Games(); !reflect.DeepEqual(got, []GameID{7, 9}) {
		t.Errorf("games with a round not yet made: %v", got)
	}
	if err := tm.Check(); err != nil {
		t.Errorf("check: %v", err)
	}
}
