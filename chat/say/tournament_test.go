package say

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobotgo/gobot"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// cup is a McMahon of five over two rounds: a handicap game, a forfeit,
// a jigo, a bye, a late joiner, a game still going on.
func cup() *tournament.Tournament {
	t := tournament.NewMcMahon(3)
	for _, p := range []tournament.Player{
		{ID: "ann", Name: "Ann", Rank: game.Rank(3)},
		{ID: "bob", Name: "Bob", FirstName: "B.", Rank: game.Rank(1)},
		{ID: "cat", Name: "Cat `rm`", Rank: game.Rank(0)},
		{ID: "dan", Name: "Dan the\nbold", Rank: game.Rank(-1)},
		{ID: "eve", Name: "Evangelina Ortega-Smith", Rank: game.Rank(-4), Joined: 1},
	} {
		p.Rating = tournament.RatingForRank(p.Rank)
		t.Players = append(t.Players, p)
	}
	t.Played = []tournament.Round{
		{Games: []tournament.Game{
			{Table: 1, White: "ann", Black: "bob", Handicap: 2, Result: tournament.BlackWins},
			{Table: 2, White: "cat", Black: "dan", Result: tournament.WhiteWins, Forfeit: true},
		}},
		{Games: []tournament.Game{
			{Table: 1, White: "bob", Black: "cat", Result: tournament.Jigo},
			{Table: 2, White: "dan", Black: "eve", Result: tournament.Unknown},
		}, Byes: []tournament.PlayerID{"ann"}},
	}
	return t
}

// The standings, the crosstable and a round's pairings of a small
// McMahon as chat shows them; names are clipped and cleaned of what would
// break the code block.
func TestTournamentTablesText(t *testing.T) {
	tr := cup()
	for _, tc := range []struct {
		name string
		got  func() (string, error)
		want string
	}{
		{"standings", func() (string, error) {
			return TournamentStandings(tr, 1, Paging{Page: 1, Command: "tournament standings"})
		}, "```\n" +
			"#  name            rank  MMS  R1     R2     SOS  SOSOS  SODOS\n" +
			"1  Ann             3d     33  2-/w2  0+     65½   125½      0\n" +
			"2  Bob B.          1d    31½  1+/b2  3=/w0  61½    125    46¼\n" +
			"3  Cat 'rm'        1k    30½  4+!w0  2=/b0  59½    117    43¾\n" +
			"4  Dan the bold    2k     28  3-!b0  5?/w0  55½   112½      0\n" +
			"5  Evangelina Or…  5k     25  0=     4?/b0   53   105½      0\n" +
			"```\n" +
			"After round 2. 3+/w2: beat the player on line 3 with White, handicap 2 (- lost, = jigo, ? no result yet; ! by default); 0+ a bye. MMS: McMahon score."},
		{"crosstable", func() (string, error) { return TournamentCrosstable(tr, 1) }, "```\n" +
			"#  name            score  1  2  3  4  5\n" +
			"1  Ann                33  x  -  .  .  .\n" +
			"2  Bob B.            31½  +  x  =  .  .\n" +
			"3  Cat 'rm'          30½  .  =  x  +  .\n" +
			"4  Dan the bold       28  .  .  -  x  ?\n" +
			"5  Evangelina Or…     25  .  .  .  ?  x\n" +
			"```\n" +
			"After round 2: each row's results against each column's player (+ won, - lost, = jigo, ? no result yet)."},
		{"pairings round 1", func() (string, error) {
			return TournamentPairings(tr, 0, Paging{Page: 1, Command: "tournament pairings 1"})
		}, "```\n" +
			"board  White          Black              hcp   result\n" +
			"    1  Ann (3d)       Bob B. (1d)        h2    B+\n" +
			"    2  Cat 'rm' (1k)  Dan the bold (2k)  even  W+forfeit\n" +
			"```\n" +
			"Round 1: 2 games."},
		{"pairings round 2", func() (string, error) {
			return TournamentPairings(tr, 1, Paging{Page: 1, Command: "tournament pairings 2"})
		}, "```\n" +
			"board  White              Black                hcp   result\n" +
			"    1  Bob B. (1d)        Cat 'rm' (1k)        even  jigo\n" +
			"    2  Dan the bold (2k)  Evangelina Or… (5k)  even  ?\n" +
			"```\n" +
			"Round 2: 2 games. Bye: Ann (3d)."},
	} {
		got, err := tc.got()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got != tc.want {
			t.Errorf("%s:\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
	if _, err := TournamentPairings(tr, 2, Paging{Page: 1}); err == nil || err.Error() != "Round 3 has not been paired yet; 2 rounds so far." {
		t.Errorf("an unpaired round: %v", err)
	}
	if _, err := TournamentStandings(tr, 2, Paging{Page: 1}); err == nil {
		t.Error("standings after an unpaired round")
	}
}

// bigMcMahon is a McMahon of n players over rounds rounds, paired by
// Pair, White winning every game.
func bigMcMahon(t testing.TB, n, rounds int) *tournament.Tournament {
	tr := tournament.NewMcMahon(rounds)
	for i := range n {
		r := game.Rank(5 - i%30)
		tr.Players = append(tr.Players, tournament.Player{ID: tournament.PlayerID(fmt.Sprint("p", i)), Name: fmt.Sprintf("Player Number %d", i), Rank: r, Rating: tournament.RatingForRank(r)})
	}
	for range rounds {
		rd, err := tr.Pair()
		if err != nil {
			t.Fatal(err)
		}
		for i := range rd.Games {
			rd.Games[i].Result = tournament.WhiteWins
		}
		tr.Played = append(tr.Played, rd)
	}
	return tr
}

// A long table is cut into pages that each fit one chat message; the
// pages together show every line once, in order; each but the last names
// the command for the next; a page past the end is refused.
func TestTablePages(t *testing.T) {
	tr := bigMcMahon(t, 77, 7)
	lad := &tournament.Ladder{Range: 3}
	for i := range 333 {
		lad.Rungs = append(lad.Rungs, tournament.PlayerID(fmt.Sprint("discord:", 1000+i)))
	}
	lad.Open = []tournament.LadderChallenge{{Challenger: "discord:1300", Defender: "discord:1298"}}
	for _, tc := range []struct {
		name  string
		lines int
		show  func(page int) (string, error)
	}{
		{"standings", 77, func(p int) (string, error) { return TournamentStandings(tr, 6, Paging{p, "tournament standings"}) }},
		{"pairings", 38, func(p int) (string, error) { return TournamentPairings(tr, 6, Paging{p, "tournament pairings 7"}) }},
		{"ladder", 333, func(p int) (string, error) { return LadderTable(numbered{}, lad, Paging{p, "ladder"}) }},
	} {
		var rows []string
		for p := 1; ; p++ {
			s, err := tc.show(p)
			if err != nil {
				if p == 1 || !strings.Contains(err.Error(), "is past the end") {
					t.Fatalf("%s page %d: %v", tc.name, p, err)
				}
				break
			}
			if n := utf8.RuneCountInString(s); n > TableBudget {
				t.Errorf("%s page %d: %d characters", tc.name, p, n)
			}
			block := strings.Split(strings.SplitN(s, "```", 3)[1], "\n")
			rows = append(rows, block[2:len(block)-1]...) // no fence, no header
			last := strings.Split(s, "\n")[len(strings.Split(s, "\n"))-1]
			if strings.Contains(last, "shows the next") != strings.Contains(last, fmt.Sprintf(" page=%d", p+1)) {
				t.Errorf("%s page %d ends %q", tc.name, p, last)
			}
		}
		if len(rows) != tc.lines {
			t.Errorf("%s: %d rows on the pages, want %d", tc.name, len(rows), tc.lines)
		}
		if tc.name == "ladder" {
			// discord:1300 (rung 301) has challenged discord:1298 (rung 299).
			for i, r := range rows {
				want := map[int]string{298: "← 301", 300: "→ 299"}[i]
				if got := strings.Join(strings.Fields(r)[4:], " "); got != want {
					t.Errorf("ladder rung %d: %q, marks %q, want %q", i+1, r, got, want)
				}
			}
		}
		// In order: the rows' first cells count up (the standings' places
		// never go down; the boards and rungs are 1, 2, 3, …).
		prev := 0
		for i, r := range rows {
			n, err := strconv.Atoi(strings.Fields(r)[0])
			if err != nil && tc.name == "standings" {
				continue // a place equal to the line above is blank
			}
			if err != nil || n < prev || (tc.name != "standings" && n != i+1) {
				t.Errorf("%s row %d: %q after %d", tc.name, i, r, prev)
			}
			prev = n
		}
	}
}

// numbered names users "name of N" after their Discord number.
type numbered struct{}

func (numbered) Name(u gobot.UserID) string {
	return "name of " + strings.TrimPrefix(string(u), "discord:")
}
