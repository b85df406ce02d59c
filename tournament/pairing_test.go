package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// randomTournament registers n players with seeded random names, ranks,
// ratings and clubs.
func randomTournament(rng *rand.Rand, sys System, n, rounds int) *Tournament {
	t := &Tournament{System: sys, Rounds: rounds, Bar: DefaultBar, Floor: DefaultFloor}
	for i := 0; i < n; i++ {
		rank := game.Rank(-24 + rng.IntN(31))
		t.Players = append(t.Players, Player{ID: PlayerID(fmt.Sprintf("p%d", i)),
			Name: fmt.Sprintf("Name%03d", rng.IntN(1000)), FirstName: fmt.Sprintf("F%d", i),
			Rank: rank, Rating: RatingForRank(rank) + rng.IntN(100) - 50,
			Club: []string{"Par", "Ber", "Lyon", ""}[rng.IntN(4)], Country: []string{"FR", "DE"}[rng.IntN(2)]})
	}
	return t
}

// play sets random results in a round: mostly wins, some jigos and forfeits.
func play(rng *rand.Rand, rd *Round) {
	for i := range rd.Games {
		g := &rd.Games[i]
		switch x := rng.IntN(100); {
		case x < 5:
			g.Result = Jigo
		case x < 8:
			g.Result, g.Forfeit = BlackWins, true
		case x < 54:
			g.Result = WhiteWins
		default:
			g.Result = BlackWins
		}
	}
}

// checkRound checks that every present player is in exactly one game or
// has the bye, that there is a bye only for an odd number, and that no one
// is paired with themself.
func checkRound(t *testing.T, tr *Tournament, rd Round) {
	t.Helper()
	seen := make(map[PlayerID]int)
	for _, g := range rd.Games {
		if g.White == g.Black {
			t.Fatalf("%s plays themself", g.White)
		}
		seen[g.White]++
		seen[g.Black]++
	}
	for _, b := range rd.Byes {
		seen[b]++
	}
	absent := make(map[PlayerID]bool)
	for _, a := range rd.Absent {
		absent[a] = true
	}
	present := 0
	for _, p := range tr.Players {
		switch {
		case absent[p.ID] && seen[p.ID] > 0:
			t.Fatalf("absent %s is paired", p.ID)
		case absent[p.ID]:
		case seen[p.ID] != 1:
			t.Fatalf("%s is in the round %d times", p.ID, seen[p.ID])
		default:
			present++
		}
	}
	if want := present % 2; len(rd.Byes) != want {
		t.Fatalf("%d byes for %d present players", len(rd.Byes), present)
	}
}

// repeats counts the games of a round between players who met before.
func repeats(tr *Tournament, rd Round) int {
	met := make(map[[2]PlayerID]bool)
	for _, p := range tr.Played {
		for _, g := range p.Games {
			met[[2]PlayerID{g.White, g.Black}] = true
			met[[2]PlayerID{g.Black, g.White}] = true
		}
	}
	n := 0
	for _, g := range rd.Games {
		if met[[2]PlayerID{g.White, g.Black}] {
			n++
		}
	}
	return n
}

// fewestRepeats finds by brute force the fewest repeated games any pairing
// of the round's players can have.
func fewestRepeats(tr *Tournament, rd Round) int {
	var ids []PlayerID
	for _, g := range rd.Games {
		ids = append(ids, g.White, g.Black)
	}
	met := make(map[[2]PlayerID]bool)
	for _, p := range tr.Played {
		for _, g := range p.Games {
			met[[2]PlayerID{g.White, g.Black}] = true
			met[[2]PlayerID{g.Black, g.White}] = true
		}
	}
	used := make([]bool, len(ids))
	var rec func() int
	rec = func() int {
		i := 0
		for i < len(ids) && used[i] {
			i++
		}
		if i == len(ids) {
			return 0
		}
		used[i] = true
		best := len(ids)
		for j := i + 1; j < len(ids); j++ {
			if used[j] {
				continue
			}
			used[j] = true
			r := rec()
			if met[[2]PlayerID{ids[i], ids[j]}] {
				r++
			}
			best = min(best, r)
			used[j] = false
		}
		used[i] = false
		return best
	}
	return rec()
}

// TestPairingProperties plays random McMahon and Swiss tournaments with
// absences and late joiners: in every round everyone present plays once or
// has the bye, and a round repeats a game only when no pairing avoids it.
func TestPairingProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 1))
	for trial := 0; trial < 60; trial++ {
		sys := []System{McMahon, Swiss}[trial%2]
		n := 3 + rng.IntN(10)
		rounds := 3 + rng.IntN(8)
		tr := randomTournament(rng, sys, n, rounds)
		for r := 0; r < rounds; r++ {
			if rng.IntN(4) == 0 { // a late joiner
				tr.Players = append(tr.Players, Player{ID: PlayerID(fmt.Sprintf("late%d", r)), Name: "Late", FirstName: fmt.Sprint(r),
					Rank: game.Rank(rng.IntN(10) - 10), Rating: 1000, Joined: r})
			}
			var absent []PlayerID
			for _, p := range tr.Players {
				if p.Joined < r && rng.IntN(10) == 0 {
					absent = append(absent, p.ID)
				}
			}
			rd, err := tr.Pair(absent...)
			if errors.Is(err, ErrTooFewPlayers) {
				continue
			}
			if err != nil {
				t.Fatalf("trial %d round %d: %v", trial, r+1, err)
			}
			checkRound(t, tr, rd)
			if got, best := repeats(tr, rd), fewestRepeats(tr, rd); got != best {
				t.Fatalf("trial %d round %d: %d repeated games where %d would do", trial, r+1, got, best)
			}
			play(rng, &rd)
			tr.Played = append(tr.Played, rd)
		}
	}
}

// TestPairingAvoidsRepeats plays larger tournaments, where a pairing
// without repeats always exists (every player has met at most 5 of the
// others), and checks that none is repeated.
func TestPairingAvoidsRepeats(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 2))
	for _, n := range []int{20, 41, 64} {
		for _, sys := range []System{McMahon, Swiss} {
			tr := randomTournament(rng, sys, n, 5)
			for r := 0; r < 5; r++ {
				rd, err := tr.Pair()
				if err != nil {
					t.Fatal(err)
				}
				checkRound(t, tr, rd)
				if k := repeats(tr, rd); k > 0 {
					t.Fatalf("%s, %d players, round %d: %d repeated games", sys, n, r+1, k)
				}
				play(rng, &rd)
				tr.Played = append(tr.Played, rd)
			}
		}
	}
}

func TestPairingRefusesBadData(t *testing.T) {
	tr := NewMcMahon(3)
	if _, err := tr.Pair(); !errors.Is(err, ErrTooFewPlayers) {
		t.Errorf("no players: %v", err)
	}
	tr.Players = []Player{{ID: "a", Name: "A"}, {ID: "a", Name: "B"}}
	if _, err := tr.Pair(); !errors.Is(err, ErrBadTournament) {
		t.Errorf("a player twice: %v", err)
	}
	tr.Players = []Player{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}, {ID: "c", Name: "C"}}
	if _, err := tr.Pair("x"); !errors.Is(err, ErrBadTournament) {
		t.Errorf("an unknown absent player: %v", err)
	}
	tr.Played = []Round{{Games: []Game{{White: "a", Black: "b"}, {White: "a", Black: "c"}}}}
	if _, err := tr.Pair(); !errors.Is(err, ErrBadTournament) {
		t.Errorf("a player twice in a round: %v", err)
	}
	tr.Played = []Round{{Games: []Game{{White: "a", Black: "z"}}}}
	if _, err := tr.Pair(); !errors.Is(err, ErrBadTournament) {
		t.Errorf("an unknown player in a game: %v", err)
	}
	tr.Played = nil
	tr.Players[2].Joined = 1
	if _, err := tr.Pair(); !errors.Is(err, ErrBadTournament) {
		t.Errorf("a player joining before an unpaired round: %v", err)
	}
	if _, err := tr.Standings(0); !errors.Is(err, ErrBadTournament) {
		t.Errorf("standings of an unplayed round: %v", err)
	}
}

// BenchmarkPairMcMahon500 pairs the fourth round of a 500-player McMahon.
func BenchmarkPairMcMahon500(b *testing.B) {
	rng := rand.New(rand.NewPCG(500, 4))
	tr := randomTournament(rng, McMahon, 500, 5)
	for r := 0; r < 3; r++ {
		rd, err := tr.Pair()
		if err != nil {
			b.Fatal(err)
		}
		play(rng, &rd)
		tr.Played = append(tr.Played, rd)
	}
	b.ResetTimer()
	for b.Loop() {
		if _, err := tr.Pair(); err != nil {
			b.Fatal(err)
		}
	}
}

// A tournament over MaxPlayers is refused before any pair is weighed.
func TestTooManyPlayers(t *testing.T) {
	tr := randomTournament(rand.New(rand.NewPCG(1, 2)), McMahon, MaxPlayers+1, 5)
	if _, err := tr.Pair(); !errors.Is(err, ErrTooManyPlayers) {
		t.Fatalf("Pair with %d players: %v, want ErrTooManyPlayers", len(tr.Players), err)
	}
	tr.Players = tr.Players[:MaxPlayers]
	if err := tr.check(); err != nil {
		t.Fatalf("%d players: %v", len(tr.Players), err)
	}
}
