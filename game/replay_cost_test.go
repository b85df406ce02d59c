package game

import (
	"math/rand/v2"
	"os"
	"testing"
)

// Replaying a record allocates a fixed handful of objects, however long
// the game: the boards, the superko history (sized for the board, so it
// seldom grows) and the move list; no map growth, no copy of the board per
// move. A 200-move game took 36 allocations before the history had a
// table of its own.
func TestReplayAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	data, err := os.ReadFile("testdata/gnugo19.sgf")
	if err != nil {
		t.Fatal(err)
	}
	r := mustReadSGF(t, string(data))
	rules, _ := Preset("chinese")
	allocs := testing.AllocsPerRun(20, func() {
		if rep, err := r.Replay(rules, false); err != nil || len(rep.Illegal) > 0 {
			t.Fatal(err, rep.Illegal)
		}
	})
	if allocs > 20 {
		t.Errorf("replaying %d moves allocates %.0f times, want at most 20", r.MoveCount(), allocs)
	}
}

// A move the rules refuse (suicide, positional or situational superko)
// leaves the board exactly as it was, its hash included, after whatever
// captures the trial play made; and the game goes on as if it had not
// been tried.
func TestRefusedMoveTakenBack(t *testing.T) {
	refused := 0
	for _, name := range []string{"chinese", "aga", "japanese"} {
		rules, _ := Preset(name)
		for seed := uint64(1); seed <= 30; seed++ {
			rng := rand.New(rand.NewPCG(seed, 3))
			g, err := New(Config{Width: 5, Height: 5, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			for n := 0; n < 400 && g.Phase() == Playing; n++ {
				c := g.ToMove()
				p := Pt(rng.IntN(5), rng.IntN(5))
				if g.At(p) != Empty {
					continue
				}
				before := g.board.Clone()
				moves := g.MoveCount()
				if err := g.Play(c, p); err != nil {
					refused++
					if !g.board.Equal(before) || g.board.Hash() != before.Hash() || g.MoveCount() != moves || g.ToMove() != c {
						t.Fatalf("%s seed %d: %s %s refused (%v) changed the game:\n%s\nwas\n%s", name, seed, c.Name(), p.GTP(5), err, g.board, before)
					}
				}
				if rng.IntN(30) == 0 {
					g.Play(g.ToMove(), Pass)
				}
			}
		}
	}
	if refused < 100 {
		t.Fatalf("only %d refused moves tried", refused)
	}
}
