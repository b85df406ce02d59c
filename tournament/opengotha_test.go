package tournament

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// fixture is a tournament OpenGotha 3.51 paired (see testdata/README.md):
// its players, and for each round who sat out, OpenGotha's bye and
// pairing, the results then set, and OpenGotha's standings after it.
type fixture struct {
	Name    string `json:"name"`
	System  string `json:"system"`
	Rounds  int    `json:"rounds"`
	Bar     string `json:"bar"`
	Floor   string `json:"floor"`
	Players []struct {
		Name      string `json:"name"`
		FirstName string `json:"firstName"`
		Rank      string `json:"rank"`
		Rating    int    `json:"rating"`
		Country   string `json:"country"`
		Club      string `json:"club"`
		Joined    int    `json:"joined"`
	} `json:"players"`
	Played []struct {
		Absent []int `json:"absent"`
		Bye    int   `json:"bye"`
		Games  []struct {
			Table    int    `json:"table"`
			White    int    `json:"white"`
			Black    int    `json:"black"`
			Handicap int    `json:"handicap"`
			Result   string `json:"result"`
		} `json:"games"`
		// Standings: player, main score ×2, SOS ×2, SOSOS ×2, SODOS ×4,
		// in OpenGotha's order.
		Standings [][5]int `json:"standings"`
	} `json:"played"`
}

func fixtureID(i int) PlayerID { return PlayerID(fmt.Sprintf("p%d", i)) }

func loadFixtures(t *testing.T, pattern string) []*fixture {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "opengotha", pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures %s: %v", pattern, err)
	}
	var out []*fixture
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		fx := new(fixture)
		if err := json.Unmarshal(b, fx); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, fx)
	}
	return out
}

// tournament returns the fixture's tournament with its first `rounds`
// rounds played, and the players registered by then.
func (fx *fixture) tournament(t *testing.T, rounds int) *Tournament {
	t.Helper()
	tr := &Tournament{Rounds: fx.Rounds}
	switch fx.System {
	case "mcmahon":
		tr.System = McMahon
		tr.Bar, tr.Floor = mustRank(t, fx.Bar), mustRank(t, fx.Floor)
	case "swiss":
		tr.System = Swiss
	default:
		t.Fatalf("%s: system %q", fx.Name, fx.System)
	}
	for i, p := range fx.Players {
		if p.Joined > rounds {
			continue
		}
		tr.Players = append(tr.Players, Player{ID: fixtureID(i), Name: p.Name, FirstName: p.FirstName,
			Rank: mustRank(t, p.Rank), Rating: p.Rating, Club: p.Club, Country: p.Country, Joined: p.Joined})
	}
	for r := 0; r < rounds; r++ {
		fr := fx.Played[r]
		var rd Round
		for _, a := range fr.Absent {
			rd.Absent = append(rd.Absent, fixtureID(a))
		}
		if fr.Bye >= 0 {
			rd.Byes = []PlayerID{fixtureID(fr.Bye)}
		}
		for _, g := range fr.Games {
			res, forfeit := parseFixtureResult(t, g.Result)
			rd.Games = append(rd.Games, Game{Table: g.Table, White: fixtureID(g.White), Black: fixtureID(g.Black),
				Handicap: g.Handicap, Result: res, Forfeit: forfeit})
		}
		tr.Played = append(tr.Played, rd)
	}
	return tr
}

func mustRank(t *testing.T, s string) game.Rank {
	t.Helper()
	r, err := game.ParseRank(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func parseFixtureResult(t *testing.T, s string) (Result, bool) {
	t.Helper()
	forfeit := strings.HasSuffix(s, "forfeit")
	switch strings.TrimSuffix(s, "forfeit") {
	case "W+":
		return WhiteWins, forfeit
	case "B+":
		return BlackWins, forfeit
	case "jigo":
		return Jigo, forfeit
	case "both-lose":
		return BothLose, forfeit
	case "both-win":
		return BothWin, forfeit
	}
	t.Fatalf("result %q", s)
	return Unknown, false
}

// pairingLines writes a round's pairing as sorted lines "white-black hN",
// plus its bye, for comparing and showing differences.
func pairingLines(rd Round) []string {
	var lines []string
	for _, g := range rd.Games {
		lines = append(lines, fmt.Sprintf("%s-%s h%d", g.White, g.Black, g.Handicap))
	}
	for _, b := range rd.Byes {
		lines = append(lines, fmt.Sprintf("bye %s", b))
	}
	slices.Sort(lines)
	return lines
}

// tiedWithOpenGotha are the fixture rounds where two or more pairings are
// equally good by OpenGotha's costs and OpenGotha's matcher (its port of
// Gabow's implementation of Edmonds' algorithm) picks another of them than
// ours: TestPairingWeighsAsOpenGotha checks that these rounds' pairings
// weigh exactly what OpenGotha's do.
var tiedWithOpenGotha = map[string]bool{
	"mcmahon-117-late/round3": true,
	"mcmahon-117-late/round4": true,
	"swiss-24/round5":         true,
	"swiss-77-late/round6":    true,
}

// TestPairingEqualsOpenGotha pairs every round of every fixture from the
// rounds before it and compares with OpenGotha's pairing: who plays whom,
// who has White, the handicap, and the bye.
func TestPairingEqualsOpenGotha(t *testing.T) {
	equal := 0
	for _, fx := range loadFixtures(t, "*.json") {
		for r := range fx.Played {
			name := fmt.Sprintf("%s/round%d", fx.Name, r+1)
			t.Run(name, func(t *testing.T) {
				tr := fx.tournament(t, r)
				want := fx.tournament(t, r+1).Played[r]
				got, err := tr.Pair(want.Absent...)
				if err != nil {
					t.Fatal(err)
				}
				g, w := pairingLines(got), pairingLines(want)
				switch same := slices.Equal(g, w); {
				case tiedWithOpenGotha[name] && same:
					t.Errorf("pairing now equals OpenGotha's: take %s off tiedWithOpenGotha", name)
				case tiedWithOpenGotha[name]:
					t.Skip("a tie that OpenGotha breaks otherwise; see TestPairingWeighsAsOpenGotha")
				case !same:
					t.Errorf("pairing differs from OpenGotha's\n got: %v\nwant: %v", g, w)
				default:
					equal++
				}
			})
		}
	}
	if equal < 30 {
		t.Errorf("only %d fixture rounds paired as OpenGotha pairs them", equal)
	}
}

// TestPairingWeighsAsOpenGotha checks, for every fixture round, that
// OpenGotha's pairing and ours have the same total cost by our cost
// function: our matching is as good as OpenGotha's (it is a maximum), and
// where the two differ, they differ only by a tie.
func TestPairingWeighsAsOpenGotha(t *testing.T) {
	for _, fx := range loadFixtures(t, "*.json") {
		for r := range fx.Played {
			t.Run(fmt.Sprintf("%s/round%d", fx.Name, r+1), func(t *testing.T) {
				tr := fx.tournament(t, r)
				want := fx.tournament(t, r+1).Played[r]
				got, err := tr.Pair(want.Absent...)
				if err != nil {
					t.Fatal(err)
				}
				pr, _, err := tr.newPairing(want.Absent)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := pr.weight(got.Games), pr.weight(want.Games); g != w {
					t.Errorf("our pairing weighs %d, OpenGotha's %d", g, w)
				}
			})
		}
	}
}

// weight is the total cost of a round's games, each pair taken in the
// order makeAutomaticPairing sees them (the cost is not symmetric).
func (pr *pairing) weight(games []Game) int64 {
	var w int64
	for _, g := range games {
		a, b := pr.byID[g.White], pr.byID[g.Black]
		if a.scoreOrder > b.scoreOrder {
			a, b = b, a
		}
		w += pr.cost(a, b)
	}
	return w
}

// TestStandingsEqualOpenGotha compares the standings after every fixture
// round with OpenGotha's: order, scores, SOS, SOSOS and SODOS.
func TestStandingsEqualOpenGotha(t *testing.T) {
	for _, fx := range loadFixtures(t, "*.json") {
		for r := range fx.Played {
			t.Run(fmt.Sprintf("%s/round%d", fx.Name, r+1), func(t *testing.T) {
				st, err := fx.tournament(t, r+1).Standings(r)
				if err != nil {
					t.Fatal(err)
				}
				var got, want []string
				for _, s := range st {
					got = append(got, fmt.Sprintf("%s %d %d %d %d", s.Player, s.Score, s.SOS, s.SOSOS, s.SODOS))
				}
				for _, s := range fx.Played[r].Standings {
					want = append(want, fmt.Sprintf("%s %d %d %d %d", fixtureID(s[0]), 2*s[1], 2*s[2], 2*s[3], s[4]))
				}
				if !slices.Equal(got, want) {
					t.Errorf("standings differ from OpenGotha's\n got: %v\nwant: %v", got, want)
				}
			})
		}
	}
}
