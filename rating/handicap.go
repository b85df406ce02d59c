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
	// Grades is the difference of the two grades rounded up (text 004: "the
	// best handicap is the difference of their ratings rounded up to a
	// whole number"), 0 when it is under half a grade (004: "If the
	// difference is less than 0.5 they may also choose to play an even
	// game"; gobot does). Not capped.
	Grades int
	// Stones is how many handicap stones Black places: 0 for Grades 0 and
	// 1, else Grades capped at game.MaxHandicap (9).
	Stones int
	// Black is the weaker player, who takes Black; Either for an even game.
	Black Side
}

// gradeSlack absorbs floating-point error when rounding a grade difference
// up: players started at 5k and 2k (RatingOf) are 3 grades apart, not
// 3.0000000000004 rounded up to 4.
const gradeSlack = 1e-9

// Suggest returns the handicap for a game between players rated a and b:
//
//   - under half a grade apart: an even game with the ruleset's komi;
//   - up to one grade apart: the weaker takes Black, no stones, komi 0.5;
//   - more: the weaker takes Black with the difference rounded up in
//     stones, at most 9, and the ruleset's komi for handicap games.
func Suggest(a, b float64) Handicap {
	d := Grade(a) - Grade(b)
	weaker := PlayerA
	if d > 0 {
		weaker = PlayerB
	}
	d = math.Abs(d)
	if d < 0.5 {
		return Handicap{}
	}
	n := int(math.Ceil(d - gradeSlack))
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

// HandicapRating returns the rating a player rated r plays at when given a
// handicap worth grades grades: r raised by that many grades on the rank
// scale (so a stone is worth more rating points between strong players).
func HandicapRating(r float64, grades int) float64 {
	return r + RatingAtGrade(Grade(r)+float64(grades)) - max(r, MinRankRating)
}

// HandicapGame rates one game in which Black received a handicap worth
// grades grades (see HandicapGrades). Both players are rated as in Game,
// with Black's rating raised by the handicap (HandicapRating): White is
// rated against the raised rating, and Black's change, computed from the
// raised rating, is applied to Black's own. A handicap that matches the
// rank difference thus makes the expected result even. blackScore is 1 if
// Black won, 0 if White won, 0.5 for a draw.
func HandicapGame(black, white Player, grades int, blackScore float64) (Player, Player, error) {
	if grades < 0 || grades > game.MaxHandicap {
		return Player{}, Player{}, fmt.Errorf("%w: a handicap is worth 0 to %d grades, not %d", game.ErrHandicap, game.MaxHandicap, grades)
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
