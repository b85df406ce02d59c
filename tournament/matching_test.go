package tournament

import (
	"math/rand/v2"
	"testing"
)

// bestByBruteForce returns the weight of a maximum-weight perfect matching
// by trying them all.
func bestByBruteForce(n int, w []int64) int64 {
	used := make([]bool, n)
	var rec func() int64
	rec = func() int64 {
		i := 0
		for i < n && used[i] {
			i++
		}
		if i == n {
			return 0
		}
		used[i] = true
		best := int64(-1)
		for j := i + 1; j < n; j++ {
			if !used[j] {
				used[j] = true
				if s := w[i*n+j] + rec(); s > best {
					best = s
				}
				used[j] = false
			}
		}
		used[i] = false
		return best
	}
	return rec()
}

func randomWeights(rng *rand.Rand, n int, maxW int64) []int64 {
	w := make([]int64, n*n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			x := 1 + rng.Int64N(maxW)
			w[i*n+j], w[j*n+i] = x, x
		}
	}
	return w
}

func matchingWeight(t *testing.T, n int, w []int64, mate []int) int64 {
	t.Helper()
	var s int64
	for i, j := range mate {
		if j < 0 || j >= n || j == i || mate[j] != i {
			t.Fatalf("not a perfect matching: mate = %v", mate)
		}
		if i < j {
			s += w[i*n+j]
		}
	}
	return s
}

func TestMatchingIsMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 3000; trial++ {
		n := 2 * (1 + rng.IntN(6))
		maxW := []int64{3, 10, 1000, 1 << 50}[trial%4]
		w := randomWeights(rng, n, maxW)
		got := matchingWeight(t, n, w, maxWeightMatching(n, w))
		if want := bestByBruteForce(n, w); got != want {
			t.Fatalf("trial %d, n=%d: matching weighs %d, the best %d; weights %v", trial, n, got, want, w)
		}
	}
}
