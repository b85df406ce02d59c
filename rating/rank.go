package rating

import (
	"errors"
	"fmt"
	"math"

	"github.com/gobotgo/gobot/game"
)

// The rating ↔ rank mapping follows OGS's published logarithmic formula,
// rank = 23.15 · ln(rating / 525), with 0 at 30k and 30 at 1d, so 1d starts
// at 1919 and 9d at 2711 (as given on the OGS forums, e.g.
// https://forums.online-go.com/t/rating-formula-yet-another-post-like-that/53944).
// A rank is logarithmic in the rating because a handicap stone is worth
// more rating points between strong players than between weak ones.
//
// gobot works on game.Rank's scale (1k = 0, 1d = 1), so a rating's grade
// is 23.15 · ln(rating / 525) − 29: 1k covers [0, 1), 1d [1, 2), 30k
// [−29, −28). A rating shows as the grade it has fully reached (rounded
// down), as on OGS.
const (
	RankRating30k = 525.0 // RankRating30k is the rating where 30k starts.
	RankGradeSpan = 23.15 // RankGradeSpan: grades per unit of ln(rating): one grade multiplies the rating by e^(1/23.15) ≈ 1.044.

	// MinRankRating: ratings under 100 are read as 100 (about 68k) before
	// taking the logarithm, as OGS does, so every rating has a grade.
	MinRankRating = 100.0

	// MinRank and MaxRank are the grades a rating is shown as: 30k to 9d.
	MinRank = game.Rank(-29)
	MaxRank = game.Rank(9)

	// StartRD is the RD of a player who states a rank before their first
	// rated game (`settings rank=5k`): surer than a newcomer's 350, still
	// provisional.
	StartRD = 250.0
)

// ErrRankRange is returned for a rank outside 30k … 9d.
var ErrRankRange = errors.New("ratings go from 30k to 9d")

// offset30k turns OGS's grade (0 at 30k) into game.Rank's (0 at 1k).
const offset30k = 29

// Grade returns the rating's grade on game.Rank's scale as a real number:
// 23.15 · ln(rating/525) − 29 (1k = 0 … 1, 1d = 1 … 2). It is not clamped
// to 30k … 9d; ratings under MinRankRating count as MinRankRating.
func Grade(rating float64) float64 {
	return RankGradeSpan*math.Log(max(rating, MinRankRating)/RankRating30k) - offset30k
}

// RatingAtGrade is Grade's inverse: the rating whose grade is x.
func RatingAtGrade(x float64) float64 {
	return RankRating30k * math.Exp((x+offset30k)/RankGradeSpan)
}

// RankOf returns the rank a rating shows as: its grade rounded down, within
// 30k … 9d.
func RankOf(rating float64) game.Rank {
	x := math.Floor(Grade(rating))
	return game.Rank(min(max(x, float64(MinRank)), float64(MaxRank)))
}

// RatingOf returns the rating in the middle of rank r's band (5k: 1580,
// 1d: 1960), so that RankOf(RatingOf(r)) == r for every rank in 30k … 9d.
func RatingOf(r game.Rank) float64 { return RatingAtGrade(float64(r) + 0.5) }

// Rank returns the rank p's rating shows as.
func (p Player) Rank() game.Rank { return RankOf(p.Rating) }

// RankLabel returns p's rank for display: "5k", or "5k?" while the rating
// is provisional (RD above ProvisionalRD).
func (p Player) RankLabel() string {
	s := p.Rank().String()
	if p.Provisional() {
		s += "?"
	}
	return s
}

// Start returns the starting values of a player who states rank r before
// their first rated game: the middle of r's band, RD StartRD (250), and a
// new player's volatility. Ranks outside 30k … 9d are ErrRankRange.
func Start(r game.Rank) (Player, error) {
	if r < MinRank || r > MaxRank {
		return Player{}, fmt.Errorf("%s: %w", r, ErrRankRange)
	}
	return Player{Rating: RatingOf(r), RD: StartRD, Volatility: NewVolatility}, nil
}
