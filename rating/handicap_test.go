package rating

import (
	"errors"
	"math"
	"testing"

	"github.com/gobotgo/gobot/game"
)

func mustRank(t *testing.T, s string) game.Rank {
	t.Helper()
	r, err := game.ParseRank(s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSuggest(t *testing.T) {
	mid := func(s string) float64 { return RatingOf(mustRank(t, s)) }
	for _, tc := range []struct {
		name   string
		a, b   float64
		grades int
		stones int
		black  Side
		text   string
	}{
		{"same rank", mid("4k"), mid("4k"), 0, 0, Either, "even game"},
		{"0.4 grades", RatingAtGrade(-3.2), RatingAtGrade(-3.6), 0, 0, Either, "even game"},
		{"0.6 grades", RatingAtGrade(-3.0), RatingAtGrade(-3.6), 1, 0, PlayerB, "no handicap stones, Black plays first with the handicap komi"},
		{"1k vs 1d", mid("1k"), mid("1d"), 1, 0, PlayerA, "no handicap stones, Black plays first with the handicap komi"},
		// Issue 35: rounded, not rounded up (6k against 5k, 1.2 apart).
		{"1.2 grades", RatingAtGrade(1.7), RatingAtGrade(0.5), 1, 0, PlayerB, "no handicap stones, Black plays first with the handicap komi"},
		{"1.5 grades", RatingAtGrade(2), RatingAtGrade(0.5), 2, 2, PlayerB, "2 stones"},
		{"3.4 grades", RatingAtGrade(-4.1), RatingAtGrade(-0.7), 3, 3, PlayerA, "3 stones"},
		{"5k vs 1k", mid("5k"), mid("1k"), 4, 4, PlayerA, "4 stones"},
		{"2d vs 3k", mid("2d"), mid("3k"), 4, 4, PlayerB, "4 stones"},
		{"20k vs 1d", mid("20k"), mid("1d"), 20, 9, PlayerA, "9 stones"}, // capped
	} {
		h := Suggest(tc.a, tc.b)
		if h.Grades != tc.grades || h.Stones != tc.stones || h.Black != tc.black || h.String() != tc.text {
			t.Errorf("%s: Suggest(%.1f, %.1f) = %+v %q, want grades %d, stones %d, Black %d, %q", tc.name, tc.a, tc.b, h, h, tc.grades, tc.stones, tc.black, tc.text)
		}
	}
}

// TestSuggestMatchesRanks: for players at the middle of their ranks, the
// suggestion is the grade difference exactly (no floating-point 3.0000001
// rounded up to 4), and its stones are game.HandicapFor's from 2 up.
func TestSuggestMatchesRanks(t *testing.T) {
	for a := MinRank; a <= MaxRank; a++ {
		for b := MinRank; b <= MaxRank; b++ {
			h := Suggest(RatingOf(a), RatingOf(b))
			d := int(a - b)
			if d < 0 {
				d = -d
			}
			stones := game.HandicapFor(a, b)
			if stones < 2 {
				stones = 0
			}
			if h.Grades != d || h.Stones != stones {
				t.Fatalf("Suggest(%s, %s) = %+v, want %d grades, %d stones", a, b, h, d, stones)
			}
			// The game it suggests is worth its grades (up to the cap).
			rules, _ := game.Preset("japanese")
			if got := HandicapGrades(h.Stones, h.Komi(rules, 19, 19)); got != min(d, game.MaxHandicap) {
				t.Fatalf("%s vs %s: %+v is worth %d grades, want %d", a, b, h, got, min(d, game.MaxHandicap))
			}
		}
	}
}

func TestHandicapKomi(t *testing.T) {
	jp, _ := game.Preset("japanese")
	nz, _ := game.Preset("new-zealand")
	bga, _ := game.Preset("bga")
	for _, tc := range []struct {
		h     Handicap
		rules game.Rules
		want  float64
	}{
		{Handicap{}, jp, 6.5},
		{Handicap{}, nz, 7},
		{Handicap{Grades: 1, Black: PlayerA}, jp, 0.5},
		// One grade: Black plays first with the ruleset's handicap komi.
		// Text 004: "In a handicap game … There is no komi"; text 003:
		// "In a 1 stone handicap … no komi is given to White".
		{Handicap{Grades: 1, Black: PlayerA}, nz, 0},
		{Handicap{Grades: 1, Black: PlayerA}, bga, 0},
		{Handicap{Grades: 3, Stones: 3, Black: PlayerA}, jp, 0.5},
		{Handicap{Grades: 3, Stones: 3, Black: PlayerA}, nz, 0},
	} {
		if got := tc.h.Komi(tc.rules, 19, 19); got != tc.want {
			t.Errorf("%v under %s: komi %v, want %v", tc.h, tc.rules.Name, got, tc.want)
		}
	}
}

func TestHandicapGrades(t *testing.T) {
	for _, tc := range []struct {
		stones int
		komi   float64
		want   int
	}{
		{0, 6.5, 0}, {0, 7, 0}, {0, 0.5, 1}, {1, 0.5, 1}, {0, 0, 1}, {2, 0.5, 2}, {4, 0, 4}, {9, 0.5, 9}, {12, 0, 9},
	} {
		if got := HandicapGrades(tc.stones, tc.komi); got != tc.want {
			t.Errorf("HandicapGrades(%d, %v) = %d, want %d", tc.stones, tc.komi, got, tc.want)
		}
	}
}

func TestHandicapRating(t *testing.T) {
	for _, r := range []float64{600, 1500, 1918.5, 2400} {
		for g := range 10 {
			got := HandicapRating(r, float64(g))
			if !near(Grade(got), Grade(r)+float64(g), 1e-9) {
				t.Errorf("HandicapRating(%g, %d) = %g: grade %g, want %g", r, g, got, Grade(got), Grade(r)+float64(g))
			}
		}
	}
	// A stone is worth more rating points between strong players.
	if weak, strong := HandicapRating(1000, 1)-1000, HandicapRating(2300, 1)-2300; !(weak < strong) {
		t.Errorf("one grade is %g points at 1000 and %g at 2300", weak, strong)
	}
	// Under MinRankRating the shift is the one at MinRankRating.
	if got, want := HandicapRating(40, 2)-40, HandicapRating(MinRankRating, 2)-MinRankRating; !near(got, want, 1e-9) {
		t.Errorf("two grades at rating 40: +%g, want +%g", got, want)
	}
}

func TestHandicapGame(t *testing.T) {
	white := Player{Rating: RatingOf(mustRank(t, "2k")), RD: 70, Volatility: 0.06}
	black := Player{Rating: RatingOf(mustRank(t, "5k")), RD: 70, Volatility: 0.06}

	// The right handicap makes the game even: a draw changes no rating,
	// and a win moves both ratings by the same amount.
	b1, w1, err := HandicapGame(black, white, 3, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	if !near(b1.Rating, black.Rating, 1e-6) || !near(w1.Rating, white.Rating, 1e-6) {
		t.Errorf("a 3-stone draw between 5k and 2k: %.4f → %.4f, %.4f → %.4f", black.Rating, b1.Rating, white.Rating, w1.Rating)
	}
	b1, w1, err = HandicapGame(black, white, 3, 1)
	if err != nil {
		t.Fatal(err)
	}
	gain, loss := b1.Rating-black.Rating, white.Rating-w1.Rating
	if !(gain > 0) || !near(gain, loss, 1e-6) {
		t.Errorf("Black wins with 3 stones: Black +%.4f, White −%.4f", gain, loss)
	}
	// The same win as an even game is worth more to Black.
	e1, _, err := Game(black, white, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !(e1.Rating-black.Rating > gain) {
		t.Errorf("an even win gives +%.4f, a 3-stone win +%.4f: the handicap should make it worth less", e1.Rating-black.Rating, gain)
	}

	// No handicap is Game.
	for _, s := range []float64{0, 0.5, 1} {
		hb, hw, err1 := HandicapGame(black, white, 0, s)
		gb, gw, err2 := Game(black, white, s)
		if err1 != nil || err2 != nil || hb != gb || hw != gw {
			t.Errorf("HandicapGame(…, 0, %v) = %+v %+v, Game = %+v %+v", s, hb, hw, gb, gw)
		}
	}

	for _, g := range []float64{-1, MaxHandicapGrades + 1, math.NaN()} {
		if _, _, err := HandicapGame(black, white, g, 1); !errors.Is(err, game.ErrHandicap) {
			t.Errorf("HandicapGame with %g grades: %v, want game.ErrHandicap", g, err)
		}
	}
	if _, _, err := HandicapGame(black, white, 2, 3); !errors.Is(err, ErrBadScore) {
		t.Errorf("HandicapGame with score 3: %v", err)
	}
}

// A handicap stone is worth 6 grades on 9x9 and 3 on 13x13 (OGS's
// rating code), 1 on 19x19.
func TestGradesPerStone(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want float64
	}{{9, 9, 6}, {7, 7, 6}, {11, 9, 6}, {13, 13, 3}, {15, 15, 3}, {19, 19, 1}, {21, 21, 1}, {19, 9, 1}} {
		if got := GradesPerStone(tc.w, tc.h); got != tc.want {
			t.Errorf("GradesPerStone(%d, %d) = %g, want %g", tc.w, tc.h, got, tc.want)
		}
	}
}

// What a game's handicap is worth on its board: HandicapGrades on 19x19,
// points of head start on smaller boards.
func TestHandicapWorth(t *testing.T) {
	jp, _ := game.Preset("japanese") // even komi 6.5: a free move is 13 points
	cn, _ := game.Preset("chinese")  // 7.5, White gets a point per stone
	nz, _ := game.Preset("new-zealand")
	custom := jp
	custom.Name = "custom"
	for _, tc := range []struct {
		name   string
		r      game.Rules
		size   int
		stones int
		komi   float64
		want   float64
	}{
		{"19x19 even", jp, 19, 0, 6.5, 0},
		{"19x19 4 stones", jp, 19, 4, 0.5, 4},
		{"19x19 no komi", jp, 19, 0, 0.5, 1},
		{"9x9 even", jp, 9, 0, 6.5, 0},
		{"9x9 more komi than even", jp, 9, 0, 8.5, 0},
		{"9x9 komi 0.5", jp, 9, 0, 0.5, 6 * 6.0 / 13},
		{"9x9 2 stones komi 6.5", jp, 9, 2, 6.5, 6},
		{"9x9 2 stones komi 0.5", jp, 9, 2, 0.5, 6 * 19.0 / 13},
		{"13x13 2 stones komi 6.5", jp, 13, 2, 6.5, 3},
		{"13x13 4 stones komi 0.5", jp, 13, 4, 0.5, 3 * 45.0 / 13},
		{"9x9 chinese 2 stones komi 5.5", cn, 9, 2, 5.5, 6}, // 7.5 − 5.5 − 2 + 15 = 15 points
		{"9x9 new-zealand no komi", nz, 9, 0, 0, 3},
		{"9x9 new-zealand 3 stones", nz, 9, 3, 0, 15},
		{"9x9 custom territory", custom, 9, 0, 0.5, 6 * 6.0 / 13},
		{"9x9 9 stones, komi −1000", jp, 9, 9, -1000, MaxHandicapGrades},
	} {
		if got := HandicapWorth(tc.r, tc.size, tc.size, tc.stones, tc.komi); !near(got, tc.want, 1e-9) {
			t.Errorf("%s: HandicapWorth = %g grades, want %g", tc.name, got, tc.want)
		}
	}
}

// handicap=auto on a small board: a stone is worth more grades there,
// and komi makes up the fraction where the ruleset gives handicap games
// komi. Issue 24: 3.6 grades apart on 9x9 gave 4 stones.
func TestSuggestFor(t *testing.T) {
	jp, _ := game.Preset("japanese")
	cn, _ := game.Preset("chinese")
	nz, _ := game.Preset("new-zealand")
	for _, tc := range []struct {
		name   string
		r      game.Rules
		size   int
		d      float64
		stones int
		komi   float64
		text   string
	}{
		// 3.6 grades on 9x9, 4 rounded: 4·13/6 = 8.7 points, 0.67 of a
		// move: 2 stones and 13 − 8.7 ≈ 4 points of komi back to White.
		{"issue 24", jp, 9, 3.6, 2, 10.5, "2 stones, komi 10.5"},
		{"9x9 1 grade", jp, 9, 1, 0, 4.5, "no handicap stones, Black plays first, komi 4.5"},
		{"9x9 2.9 grades", jp, 9, 2.9, 0, 0.5, "no handicap stones, Black plays first, komi 0.5"},
		{"9x9 6 grades", jp, 9, 6, 2, 6.5, "2 stones, komi 6.5"},
		{"9x9 12 grades", jp, 9, 12, 3, 6.5, "3 stones, komi 6.5"},
		{"9x9 38 grades", jp, 9, 38, 7, 2.5, "7 stones, komi 2.5"},
		{"13x13 3.6 grades", jp, 13, 3.6, 2, 2.5, "2 stones, komi 2.5"},
		{"13x13 9 grades", jp, 13, 9, 4, 6.5, "4 stones, komi 6.5"},
		// docs/rating.md's table.
		{"13x13 1 grade", jp, 13, 1, 0, 2.5, "no handicap stones, Black plays first, komi 2.5"},
		{"13x13 6 grades", jp, 13, 6, 3, 6.5, "3 stones, komi 6.5"},
		{"13x13 12 grades", jp, 13, 12, 5, 6.5, "5 stones, komi 6.5"},
		{"19x19 12 grades", jp, 19, 12, 9, 0.5, "9 stones"},
		{"9x9 chinese 6 grades", cn, 9, 6, 2, 5.5, "2 stones, komi 5.5"}, // plus White's 2 points per the rules
		{"19x19 3.6 grades", jp, 19, 3.6, 4, 0.5, "4 stones"},
		{"9x9 0.4 grades", jp, 9, 0.4, 0, 6.5, "even game"},
		// No komi in handicap games: the nearest whole handicap.
		{"9x9 nz 1 grade", nz, 9, 1, 0, 7, "even game"},
		{"9x9 nz 3.6 grades", nz, 9, 3.6, 0, 0, "no handicap stones, Black plays first, komi 0"},
		{"9x9 nz 8 grades", nz, 9, 8, 2, 0, "2 stones, komi 0"},
		{"13x13 nz 7 grades", nz, 13, 7, 3, 0, "3 stones, komi 0"},
	} {
		strong := RatingOf(mustRank(t, "1k"))
		weak := RatingAtGrade(Grade(strong) - tc.d)
		r := tc.r
		r.Komi = r.DefaultKomi(tc.size, tc.size, 0)
		h := SuggestFor(weak, strong, r, tc.size, tc.size)
		komi := h.Komi(r, tc.size, tc.size)
		if h.Stones != tc.stones || komi != tc.komi || h.String() != tc.text {
			t.Errorf("%s: SuggestFor = %+v, komi %v, %q; want %d stones, komi %v, %q", tc.name, h, komi, h, tc.stones, tc.komi, tc.text)
			continue
		}
		if tc.text != "even game" && h.Black != PlayerA {
			t.Errorf("%s: Black is %v, want the weaker player (A)", tc.name, h.Black)
		}
		// Rated with what it is worth on that board.
		if w := HandicapWorth(r, tc.size, tc.size, h.Stones, komi); !near(w, h.Worth, 1e-9) {
			t.Errorf("%s: Worth %g, HandicapWorth %g", tc.name, h.Worth, w)
		}
		if komiInHandicap(r, tc.size, tc.size) && tc.size < 19 && tc.d >= 0.5 && tc.d < 30 {
			d := math.Round(tc.d)
			// Komi makes up the fraction: within half a point's worth.
			if half := 0.5 * GradesPerStone(tc.size, tc.size) / (2 * r.DefaultKomi(tc.size, tc.size, 0)); math.Abs(h.Worth-d) > half+1e-9 {
				t.Errorf("%s: worth %g grades, %g apart", tc.name, h.Worth, d)
			}
		}
	}
}
