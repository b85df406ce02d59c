package game

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// Every preset matches its row of the rulesets table (shared/rules/README.md).
func TestPresetsMatchTheirTexts(t *testing.T) {
	for _, tc := range []struct {
		name       string
		ko         KoRule
		scoring    Counting
		suicide    bool
		passStones bool
		komi       float64
		placement  Placement
		bonus      Bonus
	}{
		{"tromp-taylor", KoSituational, Area, true, false, 7, PlacementFree, BonusNone},
		{"simple", KoNone, Area, true, false, 5.5, PlacementFree, BonusNone},
		{"complete", KoPositional, Territory, false, false, 5.5, PlacementFixed, BonusNone},
		{"bga", KoSimple, Territory, false, true, 7, PlacementFixed, BonusNone},
		{"new-zealand", KoSituational, Area, true, false, 7, PlacementWhitePasses, BonusNone},
		{"japanese", KoSimple, Territory, false, false, 6.5, PlacementFixed, BonusNone},
		{"korean", KoSimple, Territory, false, false, 6.5, PlacementFixed, BonusNone},
		{"chinese", KoPositional, Area, false, false, 7.5, PlacementFree, BonusN},
		{"aga", KoSituational, Area, false, true, 7.5, PlacementFixed, BonusNMinusOne},
	} {
		r := preset(t, tc.name)
		if r.Ko != tc.ko || r.Scoring != tc.scoring || r.Suicide != tc.suicide || r.PassStones != tc.passStones ||
			r.Komi != tc.komi || r.Placement != tc.placement || r.Bonus != tc.bonus {
			t.Errorf("%s = %s", tc.name, r)
		}
		back, err := ParseRules(r.String()[len(r.Name)+2:])
		if err != nil {
			t.Fatalf("%s: options do not parse back: %v", tc.name, err)
		}
		back.Name = r.Name
		if back != r {
			t.Errorf("%s: String/ParseRules round trip: %s", tc.name, back)
		}
	}
	if r := preset(t, "simple"); r.Cycle != CycleDraw || !r.NoAgreement {
		t.Errorf("simple: a cycle is a tie and stones count as they stand: %s", r)
	}
	if _, err := Preset("fischer-random"); !errors.Is(err, ErrUnknownRules) {
		t.Errorf("unknown preset: %v", err)
	}
}

func TestDefaultKomi(t *testing.T) {
	for _, tc := range []struct {
		preset   string
		size     int
		handicap int
		want     float64
	}{
		{"complete", 9, 0, 6.5}, {"complete", 19, 0, 5.5}, {"complete", 13, 0, 5.5},
		{"bga", 19, 0, 7}, {"bga", 19, 1, 0}, {"bga", 19, 4, 0},
		{"new-zealand", 19, 0, 7}, {"new-zealand", 19, 3, 0},
		{"tromp-taylor", 19, 0, 7}, {"simple", 9, 0, 5.5},
		{"japanese", 19, 0, 6.5}, {"japanese", 19, 2, 0.5},
		{"chinese", 19, 0, 7.5}, {"aga", 19, 0, 7.5}, {"korean", 9, 0, 6.5},
	} {
		if got := preset(t, tc.preset).DefaultKomi(tc.size, tc.size, tc.handicap); got != tc.want {
			t.Errorf("%s %dx%d handicap %d: komi %v, want %v", tc.preset, tc.size, tc.size, tc.handicap, got, tc.want)
		}
	}
	if preset(t, "chinese").HandicapBonus(4) != 4 || preset(t, "aga").HandicapBonus(4) != 3 || preset(t, "japanese").HandicapBonus(4) != 0 {
		t.Error("handicap bonus: chinese n, aga n-1, japanese 0")
	}
}

func TestFixedHandicapPoints(t *testing.T) {
	gtp := func(pts []Point, h int) string {
		s := ""
		for _, p := range pts {
			s += p.GTP(h) + " "
		}
		return s
	}
	for _, tc := range []struct {
		n, size int
		want    string
	}{
		{2, 19, "D4 Q16 "}, {3, 19, "D4 Q16 D16 "}, {4, 19, "D4 Q16 D16 Q4 "},
		{5, 19, "D4 Q16 D16 Q4 K10 "}, {6, 19, "D4 Q16 D16 Q4 D10 Q10 "},
		{7, 19, "D4 Q16 D16 Q4 D10 Q10 K10 "}, {8, 19, "D4 Q16 D16 Q4 D10 Q10 K4 K16 "},
		{9, 19, "D4 Q16 D16 Q4 D10 Q10 K4 K16 K10 "},
		{4, 13, "D4 K10 D10 K4 "}, {5, 13, "D4 K10 D10 K4 G7 "},
		{2, 9, "C3 G7 "}, {9, 9, "C3 G7 C7 G3 C5 G5 E3 E7 E5 "},
	} {
		pts, err := FixedHandicap(tc.n, tc.size, tc.size)
		if err != nil {
			t.Fatal(err)
		}
		if got := gtp(pts, tc.size); got != tc.want {
			t.Errorf("%d stones on %d: %s, want %s", tc.n, tc.size, got, tc.want)
		}
	}
	for _, bad := range [][3]int{{5, 10, 10}, {3, 5, 5}, {1, 19, 19}, {10, 19, 19}, {6, 8, 8}} {
		if _, err := FixedHandicap(bad[0], bad[1], bad[2]); !errors.Is(err, ErrHandicap) {
			t.Errorf("%d stones on %dx%d: %v", bad[0], bad[1], bad[2], err)
		}
	}
	// A game with fixed handicap starts with the stones placed and White to move.
	g, err := New(Config{Width: 19, Height: 19, Rules: preset(t, "japanese"), Handicap: 3})
	if err != nil {
		t.Fatal(err)
	}
	if g.ToMove() != White || len(g.Board().Stones(Black)) != 3 {
		t.Fatalf("to move %v, %d stones", g.ToMove(), len(g.Board().Stones(Black)))
	}
}

func TestFreeHandicap(t *testing.T) {
	// 000: Black takes n consecutive turns.
	g, _ := New(Config{Width: 9, Height: 9, Rules: preset(t, "tromp-taylor"), Handicap: 3})
	play(t, g, "C3", "G7", "E5")
	if g.ToMove() != White || g.MoveCount() != 3 {
		t.Fatalf("tromp-taylor: to move %v after %d moves", g.ToMove(), g.MoveCount())
	}
	// 004: White passes the first n-1 moves.
	g, _ = New(Config{Width: 9, Height: 9, Rules: preset(t, "new-zealand"), Handicap: 3})
	if err := g.Play(Black, Pass); !errors.Is(err, ErrHandicapPass) {
		t.Fatalf("passing instead of placing: %v", err)
	}
	play(t, g, "C3")
	if g.ToMove() != Black {
		t.Fatal("White should have passed automatically")
	}
	play(t, g, "G7", "E5")
	moves := g.Moves()
	if len(moves) != 5 || !moves[1].IsPass() || !moves[3].IsPass() || moves[1].Color != White || g.ToMove() != White {
		t.Fatalf("new-zealand handicap moves: %v, to move %v", moves, g.ToMove())
	}
	// The automatic passes do not end the game or count as pass stones.
	if g.Phase() != Playing || g.PassStones(Black) != 0 {
		t.Fatal("handicap passes must not count")
	}
	// Undoing the third stone: Black places it again (White's automatic
	// pass after the second stone stays).
	if err := g.Undo(); err != nil || g.MoveCount() != 4 || g.ToMove() != Black || g.HandicapLeft() != 1 {
		t.Fatalf("undo of the last handicap stone: %v, %d moves, %v to move", err, g.MoveCount(), g.ToMove())
	}
}

// 003: each pass hands the opponent a prisoner, and White passes last.
func TestPassStones(t *testing.T) {
	g, _ := New(Config{Width: 9, Height: 9, Rules: preset(t, "bga")})
	play(t, g, "E5")
	g.Play(White, Pass)
	g.Play(Black, Pass) // two passes, but Black's is last: White must pass too
	if g.Phase() != Playing || g.ToMove() != White {
		t.Fatalf("phase %v, to move %v: White must pass last", g.Phase(), g.ToMove())
	}
	g.Play(White, Pass)
	if g.Phase() != Scoring {
		t.Fatal("White's pass after Black's should end the game")
	}
	if g.PassStones(Black) != 2 || g.PassStones(White) != 1 {
		t.Fatalf("pass stones: Black got %d, White %d", g.PassStones(Black), g.PassStones(White))
	}
	s := g.Score()
	if s.Black.Prisoners != 2 || s.White.Prisoners != 1 {
		t.Fatalf("prisoners in the count: %+v", s)
	}
	// Japanese: no pass stones, two passes end the game.
	g, _ = New(Config{Width: 9, Height: 9, Rules: preset(t, "japanese")})
	g.Play(Black, Pass)
	g.Play(White, Pass)
	if g.Phase() != Scoring || g.PassStones(Black) != 0 {
		t.Fatal("japanese: two passes, no pass stones")
	}
}

func TestResultStrings(t *testing.T) {
	for _, tc := range []struct {
		r    Result
		want string
	}{
		{Result{Winner: Black, Margin: 3.5}, "B+3.5"},
		{Result{Winner: White, Margin: 12}, "W+12"},
		{Result{Winner: White, Reason: ByResign}, "W+R"},
		{Result{Winner: Black, Reason: ByTime}, "B+T"},
		{Result{}, "0"},
		{Result{Reason: ByCycle}, "0"},
		{Result{Reason: NoResult}, "Void"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v = %q, want %q", tc.r, got, tc.want)
		}
	}
}

func TestScoringPhase(t *testing.T) {
	g := position(t, preset(t, "japanese"), `
		. . X O .
		. . X O .
		. . X O O
		. X X O .
		. X O O .`, Black)
	play(t, g, "A1") // Black fills a point of its own area
	g.Play(White, pt(t, g, "E4"))
	g.Play(Black, Pass)
	g.Play(White, Pass)
	if g.Phase() != Scoring {
		t.Fatal("not scoring")
	}
	if err := g.Play(Black, pt(t, g, "A5")); !errors.Is(err, ErrScoring) {
		t.Fatalf("playing while scoring: %v", err)
	}
	if err := g.ToggleDead(pt(t, g, "B5"), false); !errors.Is(err, ErrNoStone) {
		t.Fatalf("marking an empty point: %v", err)
	}
	// Mark the white string dead, accept, then a toggle clears acceptance.
	if err := g.ToggleDead(pt(t, g, "D5"), false); err != nil {
		t.Fatal(err)
	}
	if !g.IsDead(pt(t, g, "D1")) {
		t.Fatal("the whole string D5..D1 should be marked")
	}
	g.Accept(Black)
	g.ToggleDead(pt(t, g, "D5"), false)
	if g.Accepted(Black) {
		t.Fatal("a new marking needs new acceptance")
	}
	g.Accept(Black)
	res, over, err := g.Accept(White)
	if err != nil || !over {
		t.Fatalf("both accepted: %v %v", over, err)
	}
	if g.Phase() != Over || res.Reason != ByScore {
		t.Fatalf("phase %v, result %+v", g.Phase(), res)
	}
	// Replay of the record gives the same result.
	r2, err := Replay(g.Record())
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := r2.Result(); got != res {
		t.Fatalf("replayed result %v, want %v", got, res)
	}
}

func TestResumeAndUndo(t *testing.T) {
	g, _ := New(Config{Width: 9, Height: 9, Rules: preset(t, "japanese")})
	play(t, g, "E5", "C3")
	g.Play(Black, Pass)
	g.Play(White, Pass)
	if err := g.Resume(); err != nil {
		t.Fatal(err)
	}
	// White passed last, so Black moves next.
	if g.Phase() != Playing || g.ToMove() != Black {
		t.Fatalf("after resume: %v, %v to move", g.Phase(), g.ToMove())
	}
	play(t, g, "G7")
	g.Play(White, Pass)
	g.Play(Black, Pass)
	if g.Phase() != Scoring {
		t.Fatal("two passes after resuming end play again")
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Phase() != Playing || g.ToMove() != Black || g.MoveCount() != 6 {
		t.Fatalf("undo in scoring: %v, %v, %d moves", g.Phase(), g.ToMove(), g.MoveCount())
	}
	r2, err := Replay(g.Record())
	if err != nil || !r2.Board().Equal(g.Board()) || r2.ToMove() != g.ToMove() {
		t.Fatalf("replay after resume and undo: %v", err)
	}
	g.Resign(White)
	if err := g.Undo(); !errors.Is(err, ErrGameOver) {
		t.Fatalf("undo after the end: %v", err)
	}
}

// Passing again after play resumed over a disputed count ends play, as
// two passes do (text 003: "If you cannot agree whether a string is dead
// or not, then continue playing"); the board repeating through passes is
// no cycle, under any preset with a cycle rule.
func TestPassesAfterResumeAreNoCycle(t *testing.T) {
	for _, name := range []string{"japanese", "korean", "bga", "simple"} {
		g, _ := New(Config{Width: 5, Height: 5, Rules: preset(t, name)})
		play(t, g, "C3")
		for round := 0; round < 3; round++ {
			g.Play(White, Pass)
			g.Play(Black, Pass)
			if g.Phase() == Playing { // BGA: White passes last
				g.Play(White, Pass)
			}
			if _, over := g.Result(); over {
				res, _ := g.Result()
				t.Fatalf("%s, round %d: the game ended by %v", name, round, res)
			}
			if err := g.Resume(); err != nil {
				t.Fatalf("%s: resume: %v", name, err)
			}
		}
	}
}

// Random games under every preset on small boards, square and
// rectangular: no panic; after every legal move no string on the board
// lacks a liberty; the Zobrist hash equals one computed from scratch; and
// Replay(Record()) gives the same position.
func TestRandomPlayoutsKeepInvariants(t *testing.T) {
	sizes := [][2]int{{2, 2}, {3, 3}, {4, 4}, {5, 5}, {7, 7}, {9, 9}, {3, 5}, {6, 4}, {9, 2}}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, name := range PresetNames() {
		for _, sz := range sizes {
			for range 6 {
				g, err := New(Config{Width: sz[0], Height: sz[1], Rules: preset(t, name)})
				if err != nil {
					t.Fatal(err)
				}
				for n := 0; n < 4*sz[0]*sz[1] && g.Phase() == Playing; n++ {
					p := Pt(rng.IntN(sz[0]), rng.IntN(sz[1]))
					if rng.IntN(20) == 0 {
						p = Pass
					}
					if err := g.Play(g.ToMove(), p); err != nil {
						continue
					}
					checkInvariants(t, g, fmt.Sprintf("%s %dx%d move %d", name, sz[0], sz[1], g.MoveCount()))
				}
				r2, err := Replay(g.Record())
				if err != nil {
					t.Fatalf("%s %dx%d: replay: %v", name, sz[0], sz[1], err)
				}
				if !r2.Board().Equal(g.Board()) || r2.Phase() != g.Phase() || !reflect.DeepEqual(r2.Moves(), g.Moves()) {
					t.Fatalf("%s %dx%d: replay differs", name, sz[0], sz[1])
				}
			}
		}
	}
}

func checkInvariants(t *testing.T, g *Game, where string) {
	t.Helper()
	b := g.board
	var h uint64
	for i, c := range b.cells {
		if c == Empty {
			continue
		}
		h ^= zobrist[c-1][i]
		if _, libs := b.StringAt(b.point(i)); len(libs) == 0 {
			t.Fatalf("%s: the string at %s has no liberty\n%s", where, b.point(i).GTP(b.h), b)
		}
	}
	if h != b.hash {
		t.Fatalf("%s: incremental hash %x, from scratch %x", where, b.hash, h)
	}
}

// Under white-passes placement the passes the game makes for White are
// nobody's move: the last move is Black's stone, numbers run as players
// count (Black's n stones are moves 1 to n), and undo takes back Black's
// stone with its pass, mid-placement too.
func TestWhitePassesAreAutomatic(t *testing.T) {
	rules, err := Preset("new-zealand")
	if err != nil {
		t.Fatal(err)
	}
	g, err := New(Config{Width: 9, Height: 9, Rules: rules, Handicap: 3})
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) Point { p, _ := ParsePoint(s, 9, 9); return p }
	if err := g.Play(Black, pt("D4")); err != nil {
		t.Fatal(err)
	}
	if m, ok := g.LastMove(); g.MoveCount() != 2 || !g.Automatic(1) || !ok || m.Point != pt("D4") || g.MoveNumber() != 1 {
		t.Fatalf("after the first stone: %d moves, automatic %v, last %v, number %d", g.MoveCount(), g.Automatic(1), m, g.MoveNumber())
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.MoveCount() != 0 || g.At(pt("D4")) != Empty || g.HandicapLeft() != 3 {
		t.Fatalf("undo of the first stone: %d moves, D4 %v, %d to place", g.MoveCount(), g.At(pt("D4")), g.HandicapLeft())
	}
	for _, p := range []string{"D4", "F6", "C7"} {
		if err := g.Play(Black, pt(p)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Play(White, pt("E5")); err != nil {
		t.Fatal(err)
	}
	if g.MoveNumber() != 4 || g.Number(4) != 3 || g.Number(2) != 2 || g.Automatic(5) {
		t.Fatalf("numbers: last %d, C7 %d, F6 %d", g.MoveNumber(), g.Number(4), g.Number(2))
	}
	for range 2 {
		if err := g.Undo(); err != nil {
			t.Fatal(err)
		}
	}
	if g.At(pt("C7")) != Empty || g.At(pt("F6")) != Black || g.ToMove() != Black || g.HandicapLeft() != 1 || g.MoveNumber() != 2 {
		t.Fatalf("two undos: C7 %v F6 %v, to move %v, %d to place, number %d", g.At(pt("C7")), g.At(pt("F6")), g.ToMove(), g.HandicapLeft(), g.MoveNumber())
	}
}
