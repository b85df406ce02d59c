package game

import (
	"math/rand/v2"
	"testing"
)

// history answers as a map would, through growth, for the empty board's
// hash 0 and for keys that share their low bits (one slot, then probing).
func TestHistoryAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	h := newHistory(4)
	want := map[uint64]uint8{}
	keys := []uint64{0}
	for i := 0; i < 3000; i++ {
		var k uint64
		switch rng.IntN(4) {
		case 0:
			k = keys[rng.IntN(len(keys))] // a position seen before
		case 1:
			k = uint64(rng.IntN(8)) << 40 // same low bits as 0
		default:
			k = rng.Uint64()
		}
		keys = append(keys, k)
		if rng.IntN(3) == 0 {
			if got := h.get(k); got != want[k] {
				t.Fatalf("op %d: get(%x) = %d, want %d", i, k, got, want[k])
			}
			continue
		}
		bit := uint8(1) << rng.IntN(3)
		h.add(k, bit)
		want[k] |= bit
	}
	for k, v := range want {
		if got := h.get(k); got != v {
			t.Fatalf("get(%x) = %d, want %d", k, got, v)
		}
	}
	if h.n != len(want) || 2*h.n > len(h.keys) {
		t.Fatalf("%d positions in %d slots, want %d at most half full", h.n, len(h.keys), len(want))
	}
}

// inc counts up from 0 and stops at 255, as the cycle count needs.
func TestHistoryInc(t *testing.T) {
	h := newHistory(1)
	for want := 1; want <= 300; want++ {
		got := h.inc(0)
		if w := min(want, 255); int(got) != w {
			t.Fatalf("inc %d: %d, want %d", want, got, w)
		}
	}
	if h.get(7) != 0 {
		t.Fatal("an unseen key has a count")
	}
}
