package game

import "math/rand/v2"

// ProposeDead returns one stone of each string the automatic proposal marks
// dead when a game enters the scoring phase. Players then correct it.
//
// The method:
//  1. Benson's algorithm finds the strings that are unconditionally alive
//     (pass-alive: they cannot be captured even if their owner always
//     passes). They are never proposed dead.
//  2. Monte-Carlo ownership: from the final position, many random games
//     are played to the end (both colours; the random player never fills
//     its own eye, respects simple ko and never commits suicide). At the end
//     of each, every point belongs to the colour of its stone or of the
//     stones around its eye. A string whose points end up owned by the
//     opponent in at least 55% of the playouts is proposed dead. Stones in
//     seki end up owned by either side about as often, so they stay alive.
//
// The random seed comes from the position, so the same position always
// gets the same proposal.
func ProposeDead(b *Board, r Rules) []Point {
	n := len(b.cells)
	alive := bensonAlive(b)
	playouts := min(max(40000/n, 64), 400)
	rng := rand.New(rand.NewPCG(b.hash, uint64(n)))
	owned := make([]int, n) // per point: playouts that ended with Black owning it
	scratch := b.Clone()
	for range playouts {
		copy(scratch.cells, b.cells)
		scratch.hash = b.hash
		scratch.randomPlayout(rng, Black, alive)
		for i := range n {
			if scratch.ownerAt(i) == Black {
				owned[i]++
			}
		}
	}
	var dead []Point
	seen := make([]bool, n)
	for i, c := range b.cells {
		if c == Empty || seen[i] || alive[i] {
			continue
		}
		stones, _ := b.StringAt(b.point(i))
		oppOwned := 0
		for _, s := range stones {
			j := b.index(s)
			seen[j] = true
			if c == Black {
				oppOwned += playouts - owned[j]
			} else {
				oppOwned += owned[j]
			}
		}
		if 20*oppOwned >= 11*playouts*len(stones) {
			dead = append(dead, b.point(i))
		}
	}
	return dead
}

// isEye reports whether empty index i is an eye of colour c: every
// neighbour is c, and the diagonals hold at most one opponent stone (none
// on the edge).
func (b *Board) isEye(i int, c Color) bool {
	for _, n := range b.nb[4*i : 4*i+4] {
		if n >= 0 && b.cells[n] != c {
			return false
		}
	}
	x, y := i%b.w, i/b.w
	bad, off := 0, 0
	for _, d := range [4][2]int{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}} {
		dx, dy := x+d[0], y+d[1]
		if dx < 0 || dy < 0 || dx >= b.w || dy >= b.h {
			off++
			continue
		}
		if b.cells[dy*b.w+dx] == c.Opponent() {
			bad++
		}
	}
	if off > 0 {
		return bad == 0
	}
	return bad < 2
}

// ownerAt is the owner of index i at the end of a playout: the stone's
// colour, or for an empty point the colour of all its neighbours.
func (b *Board) ownerAt(i int) Color {
	if c := b.cells[i]; c != Empty {
		return c
	}
	var owner Color
	for _, n := range b.nb[4*i : 4*i+4] {
		if n < 0 {
			continue
		}
		c := b.cells[n]
		if c == Empty {
			return Empty
		}
		if owner == Empty {
			owner = c
		} else if owner != c {
			return Empty
		}
	}
	return owner
}

// randomPlayout plays random moves from the position, colour toMove
// first, until both pass. Pass-alive stones (alive, per point) keep their
// eyes: nobody plays inside a pass-alive group's eye... the eye test
// already stops the owner, and the opponent's stone there would be
// suicide. Returns the number of moves played.
func (b *Board) randomPlayout(rng *rand.Rand, toMove Color, alive []bool) int {
	n := len(b.cells)
	empties := make([]int, 0, n)
	snapshot := make([]Color, n)
	ko := -1
	passes, moves := 0, 0
	limit := 3 * n
	c := toMove
	for passes < 2 && moves < limit {
		empties = empties[:0]
		for i, x := range b.cells {
			if x == Empty {
				empties = append(empties, i)
			}
		}
		played := false
		for len(empties) > 0 {
			k := rng.IntN(len(empties))
			i := empties[k]
			empties[k] = empties[len(empties)-1]
			empties = empties[:len(empties)-1]
			if i == ko || b.isEye(i, c) {
				continue
			}
			copy(snapshot, b.cells)
			h := b.hash
			captured, suicided := b.play(c, i)
			if suicided > 0 {
				copy(b.cells, snapshot)
				b.hash = h
				continue
			}
			ko = -1
			if captured == 1 {
				ko = b.koAfter(i)
			}
			played = true
			break
		}
		if played {
			passes = 0
		} else {
			passes++
			ko = -1
		}
		moves++
		c = c.Opponent()
	}
	return moves
}

// koAfter returns the simple-ko point after a single-stone capture by the
// stone at i, or -1.
func (b *Board) koAfter(i int) int {
	c := b.cells[i]
	lib := -1
	for _, n := range b.nb[4*i : 4*i+4] {
		if n < 0 {
			continue
		}
		switch b.cells[n] {
		case c:
			return -1
		case Empty:
			if lib >= 0 {
				return -1
			}
			lib = int(n)
		}
	}
	return lib
}

// bensonAlive marks, per point, the stones of strings that are
// unconditionally alive by Benson's algorithm.
func bensonAlive(b *Board) []bool {
	n := len(b.cells)
	alive := make([]bool, n)
	for _, c := range []Color{Black, White} {
		// Strings of colour c.
		strID := make([]int, n)
		for i := range strID {
			strID[i] = -1
		}
		var strings [][]int
		for i, x := range b.cells {
			if x != c || strID[i] >= 0 {
				continue
			}
			id := len(strings)
			st := []int{i}
			strID[i] = id
			var pts []int
			for len(st) > 0 {
				j := st[len(st)-1]
				st = st[:len(st)-1]
				pts = append(pts, j)
				for _, k := range b.nb[4*j : 4*j+4] {
					if k >= 0 && b.cells[k] == c && strID[k] < 0 {
						strID[k] = id
						st = append(st, int(k))
					}
				}
			}
			strings = append(strings, pts)
		}
		if len(strings) == 0 {
			continue
		}
		// Regions: maximal connected sets of points not of colour c.
		regID := make([]int, n)
		for i := range regID {
			regID[i] = -1
		}
		type region struct {
			empties []int
			border  map[int]bool // string ids around it
		}
		var regions []region
		for i, x := range b.cells {
			if x == c || regID[i] >= 0 {
				continue
			}
			id := len(regions)
			r := region{border: map[int]bool{}}
			st := []int{i}
			regID[i] = id
			for len(st) > 0 {
				j := st[len(st)-1]
				st = st[:len(st)-1]
				if b.cells[j] == Empty {
					r.empties = append(r.empties, j)
				}
				for _, k := range b.nb[4*j : 4*j+4] {
					if k < 0 {
						continue
					}
					if b.cells[k] == c {
						r.border[strID[k]] = true
					} else if regID[k] < 0 {
						regID[k] = id
						st = append(st, int(k))
					}
				}
			}
			regions = append(regions, r)
		}
		// vital[r] lists the strings region r is vital to: every empty
		// point of r is a liberty of that string.
		vital := make([][]int, len(regions))
		for ri, r := range regions {
			for s := range r.border {
				ok := true
				for _, e := range r.empties {
					adj := false
					for _, k := range b.nb[4*e : 4*e+4] {
						if k >= 0 && strID[k] == s {
							adj = true
							break
						}
					}
					if !adj {
						ok = false
						break
					}
				}
				if ok {
					vital[ri] = append(vital[ri], s)
				}
			}
		}
		liveStr := make([]bool, len(strings))
		for i := range liveStr {
			liveStr[i] = true
		}
		liveReg := make([]bool, len(regions))
		for i := range liveReg {
			liveReg[i] = true
		}
		for changed := true; changed; {
			changed = false
			count := make([]int, len(strings))
			for ri := range regions {
				if !liveReg[ri] {
					continue
				}
				for _, s := range vital[ri] {
					count[s]++
				}
			}
			for s := range strings {
				if liveStr[s] && count[s] < 2 {
					liveStr[s] = false
					changed = true
				}
			}
			for ri, r := range regions {
				if !liveReg[ri] {
					continue
				}
				for s := range r.border {
					if !liveStr[s] {
						liveReg[ri] = false
						changed = true
						break
					}
				}
			}
		}
		for s, pts := range strings {
			if liveStr[s] {
				for _, p := range pts {
					alive[p] = true
				}
			}
		}
	}
	return alive
}
