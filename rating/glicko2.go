// Package rating rates players with Glicko-2 and maps ratings to kyu/dan
// ranks and handicaps. It is pure: no I/O, no chat or storage types.
//
// The rating algorithm is Mark E. Glickman's "Example of the Glicko-2
// system" (glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the volatility
// found by the Illinois algorithm of step 5. gobot treats every rated game as
// one rating period for both players, computed from both players' values
// before the game (as OGS does): see Game.
package rating

import (
	"errors"
	"fmt"
	"math"
)

// Constants of the Glicko-2 system. Tau to Epsilon are the paper's.
const (
	// Tau (τ) constrains how fast the volatility changes (step 1). The paper
	// suggests 0.3 to 1.2 and uses 0.5 in its example; so do we.
	Tau = 0.5

	// NewRating, NewRD and NewVolatility are an unrated player's values
	// (step 1): rating 1500, RD 350, σ 0.06.
	NewRating     = 1500.0
	NewRD         = 350.0
	NewVolatility = 0.06

	// Scale is the factor between the Glicko scale (r, RD) and the Glicko-2
	// scale (μ, φ) of step 2: μ = (r − 1500)/173.7178, φ = RD/173.7178.
	// It is 400/ln 10.
	Scale = 173.7178

	// Epsilon (ε) is the convergence tolerance of step 5's iteration, on
	// the ln σ² scale.
	Epsilon = 0.000001

	// MinRD is gobot's floor for the RD after a game (not in the paper).
	// With one game per period and σ = 0.06 an active player's RD settles
	// near 60; it drops lower only as the volatility falls. Below 45 a win
	// against an equal opponent would move a rating by less than about 6
	// points, so a rating could no longer follow a player who improves.
	MinRD = 45.0

	// MaxRD caps the RD at a new player's (not in the paper): step 6 adds
	// σ² to φ² every period, and a player can never be less known than
	// someone who has not played at all.
	MaxRD = NewRD

	// ProvisionalRD: a rating whose RD is above this is provisional; its
	// rank is shown with a "?" (issue 14: "5k?").
	ProvisionalRD = 110.0
)

// Errors for values the algorithm cannot rate. Test with errors.Is.
var (
	// ErrBadPlayer: a rating, RD or volatility that is not a usable number.
	ErrBadPlayer = errors.New("not a usable rating")
	// ErrBadScore: a score outside 0 (loss) … 1 (win).
	ErrBadScore = errors.New("a score is 0 (loss), 0.5 (draw) or 1 (win)")
)

// maxSpread bounds |rating − 1500| so that e^(g·(μ−μj)) stays finite in
// float64 for any pair of players (about ±745 on the μ scale).
const maxSpread = 50000.0

// Player is one player's Glicko-2 state on the Glicko scale.
type Player struct {
	Rating     float64 // r: 1500 for a new player
	RD         float64 // rating deviation: the rating is r ± 2·RD with 95% confidence
	Volatility float64 // σ: how erratic the player's results are
}

// New returns an unrated player: 1500, RD 350, σ 0.06.
func New() Player { return Player{Rating: NewRating, RD: NewRD, Volatility: NewVolatility} }

// Provisional reports whether the RD is above ProvisionalRD, i.e. whether
// the rank is still a guess.
func (p Player) Provisional() bool { return p.RD > ProvisionalRD }

// Low and High are the ends of the 95% interval, rating ∓ 2·RD.
func (p Player) Low() float64  { return p.Rating - 2*p.RD }
func (p Player) High() float64 { return p.Rating + 2*p.RD }

// Check reports whether p can be rated: finite values, a rating within
// 50000 of 1500, a positive RD and volatility.
func (p Player) Check() error {
	ok := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !ok(p.Rating) || math.Abs(p.Rating-NewRating) > maxSpread:
		return fmt.Errorf("rating %g: %w", p.Rating, ErrBadPlayer)
	case !ok(p.RD) || p.RD <= 0:
		return fmt.Errorf("RD %g: %w (it must be above 0)", p.RD, ErrBadPlayer)
	case !ok(p.Volatility) || p.Volatility <= 0:
		return fmt.Errorf("volatility %g: %w (it must be above 0)", p.Volatility, ErrBadPlayer)
	}
	return nil
}

// Result is one game of a rating period, seen from the player being rated.
type Result struct {
	Rating float64 // the opponent's rating before the period
	RD     float64 // the opponent's RD before the period
	Score  float64 // 1 win, 0.5 draw, 0 loss
}

// Update rates p for one rating period with the given results (Glickman's
// steps 2 to 8) and returns the player's new values. With no results only
// step 6 applies: the rating and volatility stay, the RD grows. The new RD
// is then kept within [MinRD, MaxRD]; that is the only departure from the
// paper.
func Update(p Player, results []Result) (Player, error) {
	if err := p.Check(); err != nil {
		return Player{}, err
	}
	for _, r := range results {
		if err := (Player{Rating: r.Rating, RD: r.RD, Volatility: NewVolatility}).Check(); err != nil {
			return Player{}, fmt.Errorf("opponent: %w", err)
		}
		if math.IsNaN(r.Score) || r.Score < 0 || r.Score > 1 {
			return Player{}, fmt.Errorf("score %g: %w", r.Score, ErrBadScore)
		}
	}

	// Step 2: onto the Glicko-2 scale.
	mu := (p.Rating - NewRating) / Scale
	phi := p.RD / Scale
	sigma := p.Volatility

	if len(results) == 0 {
		// Step 6 alone: φ' = φ* = √(φ² + σ²).
		return Player{Rating: p.Rating, RD: clampRD(math.Sqrt(phi*phi+sigma*sigma) * Scale), Volatility: sigma}, nil
	}

	// Steps 3 and 4: the estimated variance v of the rating from the game
	// outcomes alone, and the estimated improvement Δ = v·sum.
	v, sum := estimate(mu, results)
	delta := v * sum

	// Step 5: the new volatility σ'.
	sigma1 := volatility(delta, phi, v, sigma)

	// Step 6: the pre-period RD grown by the new volatility.
	phiStar := math.Sqrt(phi*phi + sigma1*sigma1)

	// Step 7: the new RD and rating.
	phi1 := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	mu1 := mu + phi1*phi1*sum

	// Step 8: back to the Glicko scale.
	return Player{Rating: Scale*mu1 + NewRating, RD: clampRD(Scale * phi1), Volatility: sigma1}, nil
}

// Game rates one game as one rating period for both players, each against
// the other's value before the game. scoreA is a's score (1 a won, 0 b won,
// 0.5 a draw); b scores 1 − scoreA.
func Game(a, b Player, scoreA float64) (Player, Player, error) {
	if math.IsNaN(scoreA) || scoreA < 0 || scoreA > 1 {
		return Player{}, Player{}, fmt.Errorf("score %g: %w", scoreA, ErrBadScore)
	}
	if err := b.Check(); err != nil {
		return Player{}, Player{}, err
	}
	a1, err := Update(a, []Result{{Rating: b.Rating, RD: b.RD, Score: scoreA}})
	if err != nil {
		return Player{}, Player{}, err
	}
	b1, err := Update(b, []Result{{Rating: a.Rating, RD: a.RD, Score: 1 - scoreA}})
	if err != nil {
		return Player{}, Player{}, err
	}
	return a1, b1, nil
}

// estimate returns step 3's v = [Σ g(φj)² E (1 − E)]⁻¹ and step 4's
// Σ g(φj)(sj − E), from which Δ = v·Σ.
func estimate(mu float64, results []Result) (v, sum float64) {
	var info float64
	for _, r := range results {
		muj := (r.Rating - NewRating) / Scale
		gj := g(r.RD / Scale)
		e, ec := expected(mu, muj, gj) // E and 1 − E, each computed without cancellation
		info += gj * gj * e * ec
		sum += gj * (r.Score*ec - (1-r.Score)*e) // = gj·(s − E)
	}
	return 1 / info, sum
}

// g is the paper's g(φ) = 1/√(1 + 3φ²/π²): how much an opponent's
// uncertainty discounts the game.
func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// expected returns E(μ, μj, φj) = 1/(1 + exp(−g(φj)(μ − μj))), the expected
// score against the opponent, and 1 − E.
func expected(mu, muj, gj float64) (e, ec float64) {
	z := gj * (mu - muj)
	return 1 / (1 + math.Exp(-z)), 1 / (1 + math.Exp(z))
}

// volatility is step 5: the σ' that solves f(x) = 0 for x = ln σ'², by the
// Illinois variant of regula falsi, to within Epsilon.
func volatility(delta, phi, v, sigma float64) float64 {
	a := math.Log(sigma * sigma)
	d2, p2 := delta*delta, phi*phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		return ex*(d2-p2-v-ex)/(2*(p2+v+ex)*(p2+v+ex)) - (x-a)/(Tau*Tau)
	}
	// Initial bracket (step 5.2).
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*Tau) < 0 {
			k++
		}
		B = a - k*Tau
	}
	fA, fB := f(A), f(B)
	// Step 5.4. f is decreasing and the bracket always holds the root, so
	// this converges; the bound only guards against a non-finite input
	// having slipped past Check.
	for i := 0; math.Abs(B-A) > Epsilon && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

func clampRD(rd float64) float64 { return min(max(rd, MinRD), MaxRD) }
