package tournament

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// smallMcMahon is a McMahon of five over two rounds: a handicap game, a
// forfeit, a jigo, a bye, a late joiner who sat round 1 out, and a game
// without a result yet.
func smallMcMahon() *Tournament {
	t := NewMcMahon(3)
	for _, p := range []Player{
		{ID: "ann", Name: "Ann", Rank: game.Rank(3)},
		{ID: "bob", Name: "Bob", FirstName: "B.", Rank: game.Rank(1)},
		{ID: "cat", Name: "Cat", Rank: game.Rank(0)},
		{ID: "dan", Name: "Dan", Rank: game.Rank(-1)},
		{ID: "eve", Name: "Eve", Rank: game.Rank(-4), Joined: 1},
	} {
		p.Rating = RatingForRank(p.Rank)
		t.Players = append(t.Players, p)
	}
	t.Played = []Round{
		{Games: []Game{
			{Table: 1, White: "ann", Black: "bob", Handicap: 2, Result: BlackWins},
			{Table: 2, White: "cat", Black: "dan", Result: WhiteWins, Forfeit: true},
		}},
		{Games: []Game{
			{Table: 1, White: "bob", Black: "cat", Result: Jigo},
			{Table: 2, White: "dan", Black: "eve", Result: Unknown},
		}, Byes: []PlayerID{"ann"}},
	}
	return t
}

// The results table lists each player's rounds as OpenGotha writes them,
// the opponent named by their line in the table.
func TestTableRounds(t *testing.T) {
	tr := smallMcMahon()
	lines, err := tr.Table(1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range lines {
		var rounds []string
		for _, r := range l.Rounds {
			rounds = append(rounds, r.String())
		}
		got = append(got, l.Name+" "+l.Rank.String()+" "+l.Score.String()+" "+strings.Join(rounds, " "))
	}
	want := []string{
		"Ann 3d 33 2-/w2 0+", // lost with White giving 2 stones to line 2; the bye
		"Bob B. 1d 31½ 1+/b2 3=/w0",
		"Cat 1k 30½ 4+!w0 2=/b0", // won by default
		"Dan 2k 28 3-!b0 5?/w0",  // lost by default; no result yet
		"Eve 5k 25 0= 4?/b0",     // not registered in round 1: absent, half a point (rounded down in the score)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Swiss scores a round sat out as nothing.
	tr.System = Swiss
	lines, err = tr.Table(1)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lines {
		if l.Player == "eve" && l.Rounds[0].String() != "0-" {
			t.Errorf("Swiss, absent: %s", l.Rounds[0])
		}
	}
	// A player present but neither paired nor given the bye scores nothing.
	tr.Played[1].Byes = nil
	lines, _ = tr.Table(1)
	for _, l := range lines {
		if r := l.Rounds[1]; l.Player == "ann" && (r.Kind != RoundUnpaired || r.String() != "0-") {
			t.Errorf("unpaired: %+v", r)
		}
	}
	if _, err := tr.Table(2); err == nil {
		t.Error("a table after an unpaired round")
	}
}
