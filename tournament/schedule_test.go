package tournament

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// ranked returns a fixed field of n players, p1 the strongest.
func ranked(sys System, n int) *Tournament {
	t := &Tournament{System: sys}
	for i := 1; i <= n; i++ {
		r := game.Rank(6 - i)
		t.Players = append(t.Players, Player{ID: PlayerID(fmt.Sprintf("p%d", i)), Name: fmt.Sprintf("P%d", i), Rank: r, Rating: RatingForRank(r)})
	}
	return t
}

func roundLines(rd Round) []string {
	var s []string
	for _, g := range rd.Games {
		s = append(s, fmt.Sprintf("%s-%s", g.White, g.Black))
	}
	for _, b := range rd.Byes {
		s = append(s, "bye "+string(b))
	}
	return s
}

// TestBergerTablesForSix checks the round robin of six against FIDE's
// Berger table for six players (first named has White).
func TestBergerTablesForSix(t *testing.T) {
	want := [][]string{
		{"p1-p6", "p2-p5", "p3-p4"},
		{"p6-p4", "p5-p3", "p1-p2"},
		{"p2-p6", "p3-p1", "p4-p5"},
		{"p6-p5", "p1-p4", "p2-p3"},
		{"p3-p6", "p4-p2", "p5-p1"},
	}
	tr := ranked(RoundRobin, 6)
	for r, w := range want {
		rd, err := tr.Pair()
		if err != nil {
			t.Fatal(err)
		}
		if got := roundLines(rd); !slices.Equal(got, w) {
			t.Errorf("round %d: %v, want %v", r+1, got, w)
		}
		tr.Played = append(tr.Played, rd)
	}
	if _, err := tr.Pair(); !errors.Is(err, ErrFinished) {
		t.Errorf("a sixth round: %v", err)
	}
}

// TestRoundRobinMeetsEveryoneOnce checks single and double round robins of
// 2 to 11 players: every pair meets once a cycle, the second cycle with
// colours reversed, an odd field gives each player one bye a cycle, and
// colours stay within one of balance.
func TestRoundRobinMeetsEveryoneOnce(t *testing.T) {
	for n := 2; n <= 11; n++ {
		for _, double := range []bool{false, true} {
			sys := RoundRobin
			if double {
				sys = DoubleRoundRobin
			}
			tr := ranked(sys, n)
			white := make(map[[2]PlayerID]int) // times a had White against b
			byes := make(map[PlayerID]int)
			rounds := RoundRobinRounds(n, double)
			for r := 0; r < rounds; r++ {
				rd, err := tr.Pair()
				if err != nil {
					t.Fatalf("n=%d round %d: %v", n, r+1, err)
				}
				checkRound(t, tr, rd)
				for _, g := range rd.Games {
					white[[2]PlayerID{g.White, g.Black}]++
				}
				for _, b := range rd.Byes {
					byes[b]++
				}
				tr.Played = append(tr.Played, rd)
			}
			cycles := 1
			if double {
				cycles = 2
			}
			for _, a := range tr.Players {
				if n%2 == 1 && byes[a.ID] != cycles {
					t.Errorf("n=%d: %s has %d byes", n, a.ID, byes[a.ID])
				}
				for _, b := range tr.Players {
					if a.ID >= b.ID {
						continue
					}
					ab, ba := white[[2]PlayerID{a.ID, b.ID}], white[[2]PlayerID{b.ID, a.ID}]
					if ab+ba != cycles || (double && (ab != 1 || ba != 1)) {
						t.Errorf("n=%d double=%v: %s and %s meet %d+%d times", n, double, a.ID, b.ID, ab, ba)
					}
				}
			}
			if _, err := tr.Pair(); !errors.Is(err, ErrFinished) {
				t.Errorf("n=%d: a round after the last: %v", n, err)
			}
		}
	}
}

func TestEliminationBracket(t *testing.T) {
	if got := bracketSeeds(8); !slices.Equal(got, []int{1, 8, 4, 5, 2, 7, 3, 6}) {
		t.Errorf("bracket of 8: %v", got)
	}
	// Six players: seeds 1 and 2 have byes; 3-6 and 4-5 play.
	tr := ranked(Elimination, 6)
	rd, err := tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roundLines(rd), []string{"p4-p5", "p3-p6", "bye p1", "bye p2"}; !slices.Equal(got, want) {
		t.Fatalf("round 1: %v, want %v", got, want)
	}
	if rd.Games[0].Table != 2 || rd.Games[1].Table != 4 {
		t.Errorf("tables %d, %d: want the match numbers 2 and 4", rd.Games[0].Table, rd.Games[1].Table)
	}
	if _, err := (&Tournament{System: Elimination, Players: tr.Players, Played: []Round{rd}}).Pair(); !errors.Is(err, ErrNoWinner) {
		t.Errorf("pairing before the results: %v", err)
	}
	rd.Games[0].Result = BlackWins // p5 beats p4
	rd.Games[1].Result = WhiteWins // p3 beats p6
	tr.Played = append(tr.Played, rd)
	rd, err = tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roundLines(rd), []string{"p1-p5", "p2-p3"}; !slices.Equal(got, want) {
		t.Fatalf("round 2: %v, want %v", got, want)
	}
	rd.Games[0].Result, rd.Games[1].Result = WhiteWins, BlackWins
	tr.Played = append(tr.Played, rd)
	rd, err = tr.Pair()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := roundLines(rd), []string{"p1-p3"}; !slices.Equal(got, want) {
		t.Fatalf("final: %v, want %v", got, want)
	}
	rd.Games[0].Result = BlackWins
	tr.Played = append(tr.Played, rd)
	if _, err := tr.Pair(); !errors.Is(err, ErrFinished) {
		t.Errorf("after the final: %v", err)
	}
	if _, err := ranked(Elimination, 4).Pair("p1"); !errors.Is(err, ErrFixedSchedule) {
		t.Errorf("an absent player in a bracket: %v", err)
	}
}

func TestPointsString(t *testing.T) {
	for p, want := range map[Points]string{0: "0", 2: "½", 4: "1", 10: "2½", 1: "¼", 7: "1¾", -6: "-1½"} {
		if got := p.String(); got != want {
			t.Errorf("%d quarters: %q, want %q", int(p), got, want)
		}
	}
}
