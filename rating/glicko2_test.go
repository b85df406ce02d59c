package rating

import (
	"errors"
	"math"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
)

func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// glickman is the rating period of Glickman's "Example of the Glicko-2
// system": a 1500/200 player beats a 1400/30 player and loses to 1550/100
// and 1700/300.
var glickman = struct {
	p       Player
	results []Result
}{
	Player{Rating: 1500, RD: 200, Volatility: 0.06},
	[]Result{{Rating: 1400, RD: 30, Score: 1}, {Rating: 1550, RD: 100, Score: 0}, {Rating: 1700, RD: 300, Score: 0}},
}

// TestGlickmanExample checks every number the paper prints. The paper
// computes each step from the previous steps' rounded values (g to 4
// digits, E to 3), so its later intermediates drift from the exact ones by
// up to 5 units in their last digit (v: 1.7785 printed, 1.77898 exact; Δ:
// −0.4834, −0.48393); the tolerances allow that drift and no more.
func TestGlickmanExample(t *testing.T) {
	p, results := glickman.p, glickman.results
	mu, phi := (p.Rating-NewRating)/Scale, p.RD/Scale
	if !near(phi, 1.1513, 0.00005) {
		t.Errorf("step 2: φ = %.5f, want 1.1513", phi)
	}
	// Step 3: g(φj) and E for each opponent, then v.
	for i, want := range []struct{ g, e float64 }{{0.9955, 0.639}, {0.9531, 0.432}, {0.7242, 0.303}} {
		r := results[i]
		gj := g(r.RD / Scale)
		e, ec := expected(mu, (r.Rating-NewRating)/Scale, gj)
		if !near(gj, want.g, 0.00005) || !near(e, want.e, 0.0005) || !near(e+ec, 1, 1e-12) {
			t.Errorf("step 3, opponent %d: g = %.5f, E = %.4f (1−E = %.4f); want g = %.4f, E = %.3f", i+1, gj, e, ec, want.g, want.e)
		}
	}
	v, sum := estimate(mu, results)
	if !near(v, 1.7785, 0.0006) {
		t.Errorf("step 3: v = %.5f, want 1.7785", v)
	}
	delta := v * sum
	if !near(delta, -0.4834, 0.0006) {
		t.Errorf("step 4: Δ = %.5f, want -0.4834", delta)
	}
	sigma1 := volatility(delta, phi, v, p.Volatility)
	if !near(sigma1, 0.05999, 0.00001) {
		t.Errorf("step 5: σ' = %.6f, want 0.05999", sigma1)
	}
	if phiStar := math.Sqrt(phi*phi + sigma1*sigma1); !near(phiStar, 1.152862, 0.00001) {
		t.Errorf("step 6: φ* = %.7f, want 1.152862", phiStar)
	}

	got, err := Update(p, results)
	if err != nil {
		t.Fatal(err)
	}
	// Step 7 on the Glicko-2 scale: μ' = −0.2069, φ' = 0.8722.
	if mu1, phi1 := (got.Rating-NewRating)/Scale, got.RD/Scale; !near(mu1, -0.2069, 0.00005) || !near(phi1, 0.8722, 0.00005) {
		t.Errorf("step 7: μ' = %.5f, φ' = %.5f; want -0.2069, 0.8722", mu1, phi1)
	}
	// Step 8. The paper's r' = 1464.06 is 173.7178·(−0.2069) + 1500 from
	// the rounded μ'; unrounded it is 1464.0507, so the tolerance is 0.01.
	if !near(got.Rating, 1464.06, 0.01) || !near(got.RD, 151.52, 0.005) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("step 8: %.4f / %.4f / %.6f, want 1464.06 / 151.52 / 0.05999", got.Rating, got.RD, got.Volatility)
	}
}

// TestVolatilityBracket exercises step 5's other initial bracket: when
// Δ² > φ² + v, B = ln(Δ² − φ² − v). A very surprising result does that.
func TestVolatilityBracket(t *testing.T) {
	p := Player{Rating: 1500, RD: 60, Volatility: 0.06}
	mu, phi := 0.0, p.RD/Scale
	results := []Result{{Rating: 2700, RD: 60, Score: 1}}
	v, sum := estimate(mu, results)
	delta := v * sum
	if delta*delta <= phi*phi+v {
		t.Fatalf("Δ² = %g ≤ φ²+v = %g: the case is not exercised", delta*delta, phi*phi+v)
	}
	sigma1 := volatility(delta, phi, v, p.Volatility)
	if !(sigma1 > p.Volatility) {
		t.Errorf("σ' = %g after a huge upset, want above %g", sigma1, p.Volatility)
	}
	// σ' solves f(ln σ'²) = 0 within ε on the x scale: f changes sign
	// across [x − ε, x + ε].
	a, x := math.Log(p.Volatility*p.Volatility), math.Log(sigma1*sigma1)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(Tau*Tau)
	}
	if f(x-2*Epsilon)*f(x+2*Epsilon) > 0 {
		t.Errorf("σ' = %g is not a root of f: f(x±2ε) = %g, %g", sigma1, f(x-2*Epsilon), f(x+2*Epsilon))
	}
}

func TestNoGamesGrowsRDOnly(t *testing.T) {
	p := Player{Rating: 1720, RD: 80, Volatility: 0.06}
	got, err := Update(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := math.Sqrt(80*80 + (0.06*Scale)*(0.06*Scale))
	if got.Rating != p.Rating || got.Volatility != p.Volatility || !near(got.RD, want, 1e-9) {
		t.Errorf("Update with no games = %+v, want rating and σ kept, RD %.4f", got, want)
	}
	if got, _ := Update(New(), nil); got.RD != MaxRD {
		t.Errorf("a new player's RD grew to %g, want capped at %g", got.RD, MaxRD)
	}
}

func TestNewAndGame(t *testing.T) {
	a, b, err := Game(New(), New(), 1)
	if err != nil {
		t.Fatal(err)
	}
	// Two newcomers: the winner gains exactly what the loser loses, and
	// both RDs fall well below 350.
	if !(a.Rating > 1500) || !near(a.Rating-1500, 1500-b.Rating, 1e-9) || a.RD != b.RD || !(a.RD < 300) {
		t.Errorf("Game(new, new, 1) = %+v, %+v", a, b)
	}
	// Game is Update with one result against the other's pre-game value.
	want, _ := Update(New(), []Result{{Rating: 1500, RD: 350, Score: 1}})
	if a != want {
		t.Errorf("Game's winner = %+v, Update gives %+v", a, want)
	}
}

func TestBadInput(t *testing.T) {
	good := New()
	for _, tc := range []struct {
		name string
		p    Player
		r    Result
		want error
	}{
		{"NaN rating", Player{math.NaN(), 100, 0.06}, Result{1500, 100, 1}, ErrBadPlayer},
		{"infinite rating", Player{math.Inf(1), 100, 0.06}, Result{1500, 100, 1}, ErrBadPlayer},
		{"huge rating", Player{1e9, 100, 0.06}, Result{1500, 100, 1}, ErrBadPlayer},
		{"zero RD", Player{1500, 0, 0.06}, Result{1500, 100, 1}, ErrBadPlayer},
		{"negative volatility", Player{1500, 100, -0.06}, Result{1500, 100, 1}, ErrBadPlayer},
		{"opponent RD", good, Result{1500, -1, 1}, ErrBadPlayer},
		{"score 2", good, Result{1500, 100, 2}, ErrBadScore},
		{"score NaN", good, Result{1500, 100, math.NaN()}, ErrBadScore},
		{"score -1", good, Result{1500, 100, -1}, ErrBadScore},
	} {
		if _, err := Update(tc.p, []Result{tc.r}); !errors.Is(err, tc.want) {
			t.Errorf("%s: Update error = %v, want %v", tc.name, err, tc.want)
		}
	}
	if _, _, err := Game(good, Player{1500, 0, 0.06}, 1); !errors.Is(err, ErrBadPlayer) {
		t.Errorf("Game with a zero-RD opponent: %v", err)
	}
	if _, _, err := Game(good, good, 1.5); !errors.Is(err, ErrBadScore) || err.Error() != "score 1.5: a score is 0 (loss), 0.5 (draw) or 1 (win)" {
		t.Errorf("Game with score 1.5: %v", err)
	}
}

// pair is a random game for the property tests: two players and a score.
type pair struct {
	A, B  Player
	Score float64
}

func randPlayer(r *rand.Rand) Player {
	return Player{
		Rating:     100 + r.Float64()*2900,
		RD:         MinRD + r.Float64()*(MaxRD-MinRD),
		Volatility: 0.03 + r.Float64()*0.07,
	}
}

func (pair) Generate(r *rand.Rand, _ int) reflect.Value {
	return reflect.ValueOf(pair{randPlayer(r), randPlayer(r), []float64{0, 0.5, 1}[r.Intn(3)]})
}

func quickConfig() *quick.Config {
	return &quick.Config{MaxCount: 3000, Rand: rand.New(rand.NewSource(14))}
}

// TestGameProperties: the winner never loses rating and the loser never
// gains; RDs stay within [MinRD, MaxRD]; swapping the players swaps the
// results.
func TestGameProperties(t *testing.T) {
	prop := func(g pair) bool {
		a1, b1, err := Game(g.A, g.B, g.Score)
		if err != nil {
			t.Log(err)
			return false
		}
		switch g.Score {
		case 1:
			if a1.Rating < g.A.Rating || b1.Rating > g.B.Rating {
				t.Logf("winner %.3f → %.3f, loser %.3f → %.3f", g.A.Rating, a1.Rating, g.B.Rating, b1.Rating)
				return false
			}
		case 0:
			if a1.Rating > g.A.Rating || b1.Rating < g.B.Rating {
				t.Logf("loser %.3f → %.3f, winner %.3f → %.3f", g.A.Rating, a1.Rating, g.B.Rating, b1.Rating)
				return false
			}
		case 0.5:
			// A draw moves the weaker up and the stronger down.
			lo, hi, lo1, hi1 := g.A, g.B, a1, b1
			if lo.Rating > hi.Rating {
				lo, hi, lo1, hi1 = hi, lo, hi1, lo1
			}
			if lo1.Rating < lo.Rating || hi1.Rating > hi.Rating {
				t.Logf("draw %.3f/%.3f → %.3f/%.3f", lo.Rating, hi.Rating, lo1.Rating, hi1.Rating)
				return false
			}
		}
		for _, p := range []Player{a1, b1} {
			if p.RD < MinRD || p.RD > MaxRD || p.Volatility <= 0 {
				t.Logf("out of bounds: %+v", p)
				return false
			}
		}
		b2, a2, err := Game(g.B, g.A, 1-g.Score)
		if err != nil || a2 != a1 || b2 != b1 {
			t.Logf("not symmetric: %+v %+v vs %+v %+v", a1, b1, a2, b2)
			return false
		}
		return true
	}
	if err := quick.Check(prop, quickConfig()); err != nil {
		t.Error(err)
	}
}

// TestSumConserved: between two players with the same RD and volatility
// the rating one gains is the rating the other loses.
func TestSumConserved(t *testing.T) {
	prop := func(g pair) bool {
		g.B.RD, g.B.Volatility = g.A.RD, g.A.Volatility
		a1, b1, err := Game(g.A, g.B, g.Score)
		if err != nil {
			t.Log(err)
			return false
		}
		before, after := g.A.Rating+g.B.Rating, a1.Rating+b1.Rating
		if !near(before, after, 1e-6) {
			t.Logf("%+v: sum %.9f → %.9f", g, before, after)
			return false
		}
		return true
	}
	if err := quick.Check(prop, quickConfig()); err != nil {
		t.Error(err)
	}
}

// TestRDFloor: two steady players who keep trading wins would drive their
// RDs below MinRD as their volatility falls; the floor holds them there.
func TestRDFloor(t *testing.T) {
	a := Player{Rating: 1500, RD: 100, Volatility: 0.01}
	b := a
	hit := false
	for i := range 400 {
		var err error
		a, b, err = Game(a, b, float64(i%2))
		if err != nil {
			t.Fatal(err)
		}
		if a.RD < MinRD || b.RD < MinRD {
			t.Fatalf("game %d: RD %g / %g below the floor %g", i, a.RD, b.RD, MinRD)
		}
		hit = hit || a.RD == MinRD
	}
	if !hit {
		t.Errorf("the floor was never reached (RD %g): the test does not exercise it", a.RD)
	}
}

func BenchmarkGame(b *testing.B) {
	a, w := New(), Player{Rating: 1700, RD: 80, Volatility: 0.06}
	for i := 0; b.Loop(); i++ {
		var err error
		a, _, err = Game(a, w, float64(i%2))
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}
