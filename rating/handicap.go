package rating

import (
	"fmt"
	"math"

	"github.com/gobotgo/gobot/game"
)

// Side names which of two players a suggestion concerns.
type Side int

const (
	Either  Side = iota // an even game: colours as usual (nigiri)
	PlayerA             // the first player given
	PlayerB             // the second player given
)

// Handicap is a suggested handicap between two players.
type Handicap struct {
	// Grades is the difference of the two grades rounded to the nearest
	// whole grade, as OGS, the EGF and the AGA give handicaps (half a grade
	// rounds up): 0 when it is under half a grade (an even game; text 004:
	// "If the difference is less than 0.5 they may also choose to play an
	// even game"), 1 from 0.5 up to 1.5. Not capped.
	Grades int
	// Stones is how many handicap stones Black places: 0 for Grades 0 and
	// 1, else Grades capped at game.MaxHandicap (9).
	Stones int
	// Black is the weaker player, who takes Black; Either for an even game.
	Black Side
	// Worth is what the suggested game's handicap is worth in grades on
	// its board (HandicapWorth); set by SuggestFor.
	Worth float64
	// komi is the suggestion's komi on a small board (SuggestFor);
	// komiSet says it is set.
	komi    float64
	komiSet bool
}

// gradeSlack absorbs floating-point error when comparing grades: players
// started at 5k and 2k (RatingOf) are 3 grades apart, not
// 3.0000000000004.
const gradeSlack = 1e-9

// Suggest returns the handicap for a game between players rated a and b,
// from the difference of their grades rounded to a whole number of
// grades (the convention of OGS, the EGF and the AGA):
//
//   - 0 (under half a grade apart): an even game with the ruleset's komi;
//   - 1: the weaker takes Black, no stones, komi 0.5;
//   - 2 or more: the weaker takes Black with that many stones, at most 9,
//     and the ruleset's komi for handicap games.
func Suggest(a, b float64) Handicap {
	d := Grade(a) - Grade(b)
	weaker := PlayerA
	if d > 0 {
		weaker = PlayerB
	}
	n := int(math.Round(math.Abs(d) + gradeSlack))
	if n == 0 {
		return Handicap{}
	}
	h := Handicap{Grades: n, Black: weaker}
	if n >= 2 {
		h.Stones = min(n, game.MaxHandicap)
	}
	return h
}

// Komi returns the komi for the suggested game on a w×ht board, given the
// rules as they would be for an even game there (r.Komi already the even
// komi the room would use): r.Komi for an even game; for one grade the
// ruleset's handicap komi, at most 0.5 (0.5 in Japanese practice, none
// where the text gives none: "In a 1 stone handicap … no komi is given to
// White", text 003); and r.DefaultKomi for the stones otherwise (0 or 0.5
// depending on the ruleset's text).
func (h Handicap) Komi(r game.Rules, w, ht int) float64 {
	switch {
	case h.komiSet:
		return h.komi
	case h.Grades == 0:
		return r.Komi
	case h.Stones == 0:
		return min(r.DefaultKomi(w, ht, 2), 0.5)
	}
	return r.DefaultKomi(w, ht, h.Stones)
}

// String describes the suggestion: "even game", "no handicap stones, Black
// plays first with the handicap komi", "4 stones".
func (h Handicap) String() string {
	switch {
	case h.Grades == 0:
		return "even game"
	case h.komiSet && h.Stones == 0:
		return "no handicap stones, Black plays first, komi " + game.FormatKomi(h.komi)
	case h.komiSet:
		return fmt.Sprintf("%d stones, komi %s", h.Stones, game.FormatKomi(h.komi))
	case h.Stones == 0:
		return "no handicap stones, Black plays first with the handicap komi"
	}
	return fmt.Sprintf("%d stones", h.Stones)
}

// HandicapGrades returns the rank equivalent of a game's handicap, in
// grades: n stones (n ≥ 2) are n grades, at most 9; a game without stones
// (or with the 1 stone that marks a no-komi game) in which Black gets
// komi 0.5 or less is one grade; anything else is an even game, 0. This
// inverts Suggest: a game it suggests for players g grades apart (g ≤ 9)
// is worth g grades.
func HandicapGrades(stones int, komi float64) int {
	switch {
	case stones >= 2:
		return min(stones, game.MaxHandicap)
	case komi <= 0.5:
		return 1
	}
	return 0
}

// GradesPerStone is what one handicap stone is worth in grades on a w×h
// board, after OGS's rating code (online-go/goratings,
// analysis/util/RatingMath.py, get_handicap_rank_difference: a free move
// "scaled up to a 19x19 board" is 6 ranks on 9x9 and 3 on 13x13): 6 on
// boards whose longer side has at most 11 lines, 3 up to 16 lines, 1 on
// larger ones (19x19). A game on a small board is short, so White has
// fewer moves to catch up a stone.
func GradesPerStone(w, h int) float64 {
	switch n := max(w, h); {
	case n <= 11:
		return 6
	case n <= 16:
		return 3
	}
	return 1
}

// MaxHandicapGrades bounds what a handicap can be worth when a game is
// rated: more than the whole rank scale (30k to 9d is 38 grades).
const MaxHandicapGrades = 60.0

// evenKomi is the komi of an even game under r on a w×h board: the
// preset's, or for custom rules 7 under area and 6.5 under territory
// counting (as the presets give). Half a move is worth that many points,
// so a free move (a handicap stone) is worth twice as many.
func evenKomi(r game.Rules, w, h int) float64 {
	if p, ok := game.LookupPreset(r.Name); ok && p.Name == r.Name {
		if k := r.DefaultKomi(w, h, 0); k > 0 {
			return k
		}
	}
	if r.Scoring == game.Area {
		return 7
	}
	return 6.5
}

// HandicapWorth returns what a game's handicap is worth in grades on its
// w×h board, under rules r with stones handicap stones and komi.
//
// On 19x19 (GradesPerStone 1) it is HandicapGrades: n stones are n
// grades, a game without stones and komi 0.5 or less one grade. On
// smaller boards it is counted in points, as OGS's rating code does:
// Black's head start is the even komi k minus the komi given (and minus
// White's bonus for the stones, Rules.HandicapBonus), plus 2k for each
// stone after the first (each is a free move); that many points are
// head/(2k) stones, each worth GradesPerStone grades. A game with more
// komi than an even one is worth 0; the worth is at most
// MaxHandicapGrades.
func HandicapWorth(r game.Rules, w, h, stones int, komi float64) float64 {
	f := GradesPerStone(w, h)
	if f == 1 {
		return float64(HandicapGrades(stones, komi))
	}
	k := evenKomi(r, w, h)
	head := k - komi - r.HandicapBonus(stones)
	if stones >= 2 {
		head += 2 * k * float64(stones-1)
	}
	return min(max(head*f/(2*k), 0), MaxHandicapGrades)
}

// komiInHandicap reports whether r's text gives handicap games a komi
// (japanese, korean, chinese, aga, complete: 0.5), so that a suggestion
// may use komi for a fraction of a stone; under bga, new-zealand,
// tromp-taylor and simple ("no komi is given to White", text 003) a
// handicap is whole stones with no komi.
func komiInHandicap(r game.Rules, w, h int) bool { return r.DefaultKomi(w, h, 2) != 0 }

// SuggestFor returns the handicap for a game under rules r on a w×h
// board between players rated a and b.
//
// On 19x19 it is Suggest's, with Worth its HandicapGrades. On a smaller
// board a stone is worth GradesPerStone grades (6 on 9x9, 3 on 13x13),
// so the grade difference rounded as Suggest rounds it, d, is first
// turned into points of head start for the weaker player,
// d·2k/GradesPerStone (k the even komi), and then:
//
//   - under half a grade apart: an even game, as Suggest;
//   - where the ruleset gives handicap games a komi: m = that head start
//     in free moves, rounded, half down (2k points each; at most 8), gives m+1
//     stones (none when m is 0: Black plays first), and the komi makes up
//     the rest, rounded to whole points from the even komi (so a .5 komi
//     stays .5);
//   - under rules without komi in handicap games: whichever of an even
//     game, Black first without komi, or 2 to 9 stones without komi is
//     worth nearest d (fewer stones on a tie).
//
// Worth is what the game it suggests is worth (HandicapWorth), which is
// how it is rated.
func SuggestFor(a, b float64, r game.Rules, w, h int) Handicap {
	sug := Suggest(a, b)
	f := GradesPerStone(w, h)
	if f == 1 || sug.Grades == 0 {
		if sug.Grades > 0 {
			sug.Worth = float64(HandicapGrades(sug.Stones, sug.Komi(r, w, h)))
		}
		return sug
	}
	d := float64(sug.Grades)
	k := evenKomi(r, w, h)
	move := 2 * k
	head := d * move / f
	out := Handicap{Grades: sug.Grades, Black: sug.Black, komiSet: true}
	if komiInHandicap(r, w, h) {
		// Half a move rounds down (fewer stones), half a point up (less
		// komi back to White): 3 grades on 9x9 are no stones and komi
		// 0.5, not 2 stones and komi 13.5 nor komi −0.5.
		m := min(math.Ceil(head/move-0.5-gradeSlack), game.MaxHandicap-1)
		if m >= 1 {
			out.Stones = int(m) + 1
		}
		out.komi = k + math.Floor(move*m-head+0.5) - r.HandicapBonus(out.Stones)
	} else {
		hk := r.DefaultKomi(w, h, 2)
		best, bestStones := math.Abs(d), -1 // an even game
		for _, n := range []int{0, 2, 3, 4, 5, 6, 7, 8, 9} {
			if x := math.Abs(HandicapWorth(r, w, h, n, hk) - d); x < best-gradeSlack {
				best, bestStones = x, n
			}
		}
		if bestStones < 0 {
			return Handicap{}
		}
		out.Stones, out.komi = bestStones, hk
	}
	out.Worth = HandicapWorth(r, w, h, out.Stones, out.komi)
	return out
}

// HandicapRating returns the rating a player rated r plays at when given a
// handicap worth grades grades: r raised by that many grades on the rank
// scale (so a stone is worth more rating points between strong players).
func HandicapRating(r float64, grades float64) float64 {
	return r + RatingAtGrade(Grade(r)+grades) - max(r, MinRankRating)
}

// HandicapGame rates one game in which Black received a handicap worth
// grades grades (see HandicapWorth, 0 to MaxHandicapGrades). Both players are rated as in Game,
// with Black's rating raised by the handicap (HandicapRating): White is
// rated against the raised rating, and Black's change, computed from the
// raised rating, is applied to Black's own. A handicap that matches the
// rank difference thus makes the expected result even. blackScore is 1 if
// Black won, 0 if White won, 0.5 for a draw.
func HandicapGame(black, white Player, grades float64, blackScore float64) (Player, Player, error) {
	if !(grades >= 0 && grades <= MaxHandicapGrades) {
		return Player{}, Player{}, fmt.Errorf("%w: a handicap is worth 0 to %g grades, not %g", game.ErrHandicap, MaxHandicapGrades, grades)
	}
	if err := black.Check(); err != nil {
		return Player{}, Player{}, err
	}
	raised := black
	raised.Rating = HandicapRating(black.Rating, grades)
	b1, w1, err := Game(raised, white, blackScore)
	if err != nil {
		return Player{}, Player{}, err
	}
	b1.Rating -= raised.Rating - black.Rating
	return b1, w1, nil
}
