package rating

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

func TestRankOf(t *testing.T) {
	for _, tc := range []struct {
		rating float64
		want   string
	}{
		{1500, "6k"}, // a new player
		{1545, "6k"},
		{1546, "5k"},
		{1918, "1k"},
		{1919, "1d"}, // OGS: 1d starts at 1919
		{2003, "1d"},
		{2004, "2d"},
		{2711, "9d"},
		{5000, "9d"}, // clamped
		{548, "30k"},
		{549, "29k"},
		{525, "30k"},
		{100, "30k"}, // clamped
		{-300, "30k"},
	} {
		if got := RankOf(tc.rating).String(); got != tc.want {
			t.Errorf("RankOf(%g) = %s (grade %.3f), want %s", tc.rating, got, Grade(tc.rating), tc.want)
		}
	}
}

// TestRankRoundTrip: every rank's middle rating shows as that rank, and its
// band starts exactly at RatingAtGrade.
func TestRankRoundTrip(t *testing.T) {
	for r := MinRank; r <= MaxRank; r++ {
		if got := RankOf(RatingOf(r)); got != r {
			t.Errorf("RankOf(RatingOf(%s) = %.1f) = %s", r, RatingOf(r), got)
		}
		edge := RatingAtGrade(float64(r))
		if got := RankOf(edge + 0.001); got != r {
			t.Errorf("just above %s's lower edge %.3f: %s", r, edge, got)
		}
		if r > MinRank {
			if got := RankOf(edge - 0.001); got != r-1 {
				t.Errorf("just below %s's lower edge %.3f: %s, want %s", r, edge, got, r-1)
			}
		}
		parsed, err := game.ParseRank(r.String())
		if err != nil || parsed != r {
			t.Errorf("game.ParseRank(%q) = %v, %v", r.String(), parsed, err)
		}
	}
	for x := -60.0; x <= 20; x += 0.37 {
		if got := Grade(RatingAtGrade(x)); !near(got, x, 1e-9) {
			t.Errorf("Grade(RatingAtGrade(%g)) = %g", x, got)
		}
	}
}

func TestRankMonotonic(t *testing.T) {
	prevGrade, prevRank := math.Inf(-1), MinRank
	for r := MinRankRating; r <= 4000; r += 0.25 {
		x, k := Grade(r), RankOf(r)
		if !(x > prevGrade) || k < prevRank {
			t.Fatalf("rating %g: grade %g after %g, rank %s after %s", r, x, prevGrade, k, prevRank)
		}
		if k > prevRank+1 {
			t.Fatalf("rating %g: rank jumped from %s to %s", r, prevRank, k)
		}
		prevGrade, prevRank = x, k
	}
	if prevRank != MaxRank {
		t.Errorf("4000 shows as %s, want %s", prevRank, MaxRank)
	}
}

func TestRankLabel(t *testing.T) {
	five := RatingOf(game.Rank(-4))
	for _, tc := range []struct {
		p    Player
		want string
	}{
		{Player{five, 110, 0.06}, "5k"},
		{Player{five, 110.01, 0.06}, "5k?"},
		{Player{1960, 60, 0.06}, "1d"},
		{New(), "6k?"},
	} {
		if got := tc.p.RankLabel(); got != tc.want {
			t.Errorf("%+v.RankLabel() = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestStart(t *testing.T) {
	r, err := game.ParseRank("5k")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Start(r)
	if err != nil {
		t.Fatal(err)
	}
	if p.RD != StartRD || p.Volatility != NewVolatility || p.Rank() != r || !near(p.Rating, 1579.6, 0.05) || p.RankLabel() != "5k?" {
		t.Errorf("Start(5k) = %+v (%s)", p, p.RankLabel())
	}
	r, _ = game.ParseRank("35k")
	if _, err := Start(r); !errors.Is(err, ErrRankRange) || err.Error() != "35k: ratings go from 30k to 9d" {
		t.Errorf("Start(35k) error = %v", err)
	}
	if _, err := Start(game.Rank(10)); !errors.Is(err, ErrRankRange) {
		t.Errorf("Start(10d) error = %v", err)
	}
}

// FuzzRank: whatever game.ParseRank accepts formats back to itself, and
// within 30k … 9d survives rating → rank → rating. Seeded with the ranks in
// game/testdata's SGF files (BR[…], WR[…]).
func FuzzRank(f *testing.F) {
	for _, s := range []string{"5k", "1d", "30k", "35k", "9d", "3 Dan", "12 kyu", "0k", "10d", "k", ""} {
		f.Add(s)
	}
	files, _ := filepath.Glob("../game/testdata/*.sgf")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		for _, prop := range []string{"BR[", "WR["} {
			for rest := string(data); ; {
				i := strings.Index(rest, prop)
				if i < 0 {
					break
				}
				rest = rest[i+len(prop):]
				if j := strings.IndexByte(rest, ']'); j >= 0 {
					f.Add(rest[:j])
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := game.ParseRank(s)
		if err != nil {
			if !errors.Is(err, game.ErrBadRank) {
				t.Fatalf("ParseRank(%q) error %v is not ErrBadRank", s, err)
			}
			return
		}
		back, err := game.ParseRank(r.String())
		if err != nil || back != r {
			t.Fatalf("ParseRank(%q) = %s, which reads back as %v, %v", s, r, back, err)
		}
		p, err := Start(r)
		if r < MinRank || r > MaxRank {
			if !errors.Is(err, ErrRankRange) {
				t.Fatalf("Start(%s) error = %v, want ErrRankRange", r, err)
			}
			return
		}
		if err != nil || p.Rank() != r || RankOf(RatingOf(r)) != r {
			t.Fatalf("Start(%s) = %+v, %v; shows as %s", r, p, err, p.Rank())
		}
	})
}
