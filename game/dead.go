package game

import (
	"math/rand/v2"
	"slices"
)

// ProposeDead returns one stone (the first in reading order) of each
// string the automatic proposal marks dead when a game enters the scoring
// phase. Players then correct it. The playouts are seeded from the
// position, so the same position always gets the same proposal. The rules
// do not change the proposal. See docs/rules.md for the method.
func ProposeDead(b *Board, r Rules) []Point {
	e := newDeadEstimate(b)
	e.decide()
	e.readShared()
	e.settle()
	var out []Point
	for s, st := range e.strs {
		if e.dead[s] {
			out = append(out, b.point(st.stones[0]))
		}
	}
	return out
}

// Thresholds of the estimate, in ownership from the string's point of
// view (1: its colour owns its points at the end of every playout).
const (
	// safeOwn: after the first round, strings at least this sure to live
	// are never captured in the second round's playouts.
	safeOwn = 0.7
	// weakOwn: the consistency pass may only kill a live string below it.
	weakOwn = 0.5
)

// deadString is one string of the position.
type deadString struct {
	color  Color
	stones []int // board indices, reading order
	alive  bool  // unconditionally alive (Benson)
	own    float64
}

// deadEstimate is the dead-stone estimate of one position.
type deadEstimate struct {
	b     *Board
	strs  []deadString
	strOf []int // per point: its string, or -1
	own   []float64
	dead  []bool // per string
}

func newDeadEstimate(b *Board) *deadEstimate {
	n := len(b.cells)
	e := &deadEstimate{b: b, strOf: make([]int, n)}
	for i := range e.strOf {
		e.strOf[i] = -1
	}
	alive := bensonAlive(b)
	for i, c := range b.cells {
		if c == Empty || e.strOf[i] >= 0 {
			continue
		}
		id := len(e.strs)
		stones, _ := b.StringAt(b.point(i))
		st := deadString{color: c, alive: alive[i]}
		for _, p := range stones {
			j := b.index(p)
			e.strOf[j] = id
			st.stones = append(st.stones, j)
		}
		slices.Sort(st.stones)
		e.strs = append(e.strs, st)
	}
	e.dead = make([]bool, len(e.strs))
	return e
}

// decide runs the playouts in two rounds and marks dead the strings their
// opponent owns more often than they do. The first round finds the strings
// that live; the second does not let the playouts capture those (nor the
// unconditionally alive ones), so that random play cannot kill the stones
// around an area and save a dead stone inside it.
func (e *deadEstimate) decide() {
	n := len(e.b.cells)
	p := deadPlayouts(e.b)
	safe := make([]bool, n)
	for _, st := range e.strs {
		for _, j := range st.stones {
			safe[j] = st.alive
		}
	}
	e.own = ownership(e.b, safe, p/2, 1)
	e.stringOwn()
	for _, st := range e.strs {
		for _, j := range st.stones {
			safe[j] = st.alive || st.own >= safeOwn
		}
	}
	e.own = ownership(e.b, safe, p-p/2, 2)
	e.stringOwn()
	for s, st := range e.strs {
		e.dead[s] = !st.alive && st.own < 0
	}
}

// stringOwn sets each string's mean ownership from e.own.
func (e *deadEstimate) stringOwn() {
	for s := range e.strs {
		st := &e.strs[s]
		sum := 0.0
		for _, j := range st.stones {
			sum += e.own[j]
		}
		if st.color == White {
			sum = -sum
		}
		st.own = sum / float64(len(st.stones))
	}
}

// settle makes the marks consistent. A dead string must lie in its
// opponent's area: the region around it (empty points and dead stones)
// may touch no live string of its own colour (GNU Go's dead lists never
// do). Where one does, either the live strings are weak (not surely alive)
// and the region belongs to the opponent in the playouts, and they die
// with it, or the dead string is given back its life.
func (e *deadEstimate) settle() {
	b := e.b
	n := len(b.cells)
	visit := make([]int, n) // region search number per point
	round := 0
	for range 8 {
		changed := false
		for s := range e.strs {
			if !e.dead[s] {
				continue
			}
			round++
			c := e.strs[s].color
			var touch []int
			oppOwn, empties := 0.0, 0
			stack := append([]int(nil), e.strs[s].stones...)
			for _, j := range stack {
				visit[j] = round
			}
			for len(stack) > 0 {
				j := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if b.cells[j] == Empty {
					empties++
					if c == White {
						oppOwn += e.own[j]
					} else {
						oppOwn -= e.own[j]
					}
				}
				for _, k := range b.nb[4*j : 4*j+4] {
					if k < 0 || visit[k] == round {
						continue
					}
					visit[k] = round
					t := e.strOf[k]
					switch {
					case t < 0 || e.dead[t]:
						stack = append(stack, int(k))
					case e.strs[t].color == c:
						if !slices.Contains(touch, t) {
							touch = append(touch, t)
						}
					}
				}
			}
			if len(touch) == 0 {
				continue
			}
			weak := empties > 0 && oppOwn > 0
			for _, t := range touch {
				if e.strs[t].alive || e.strs[t].own >= weakOwn {
					weak = false
				}
			}
			if weak {
				for _, t := range touch {
					e.dead[t] = true
				}
			} else {
				e.dead[s] = false
			}
			changed = true
		}
		if !changed {
			break
		}
	}
}

// ownership plays deterministic playouts from b and returns, per point,
// (Black owned − White owned) / playouts, in [−1, 1]. Strings marked in
// safe (per point) are never captured in the playouts.
func ownership(b *Board, safe []bool, playouts int, seed uint64) []float64 {
	n := len(b.cells)
	pb := newPboard(b)
	for y := range b.h {
		for x := range b.w {
			if safe[y*b.w+x] {
				i := pb.at(x, y)
				pb.safe[pb.head[i]] = true
			}
		}
	}
	scratch := pb.clone()
	rng := rand.New(rand.NewPCG(b.hash, seed))
	score := make([]int32, n)
	limit := 3*len(pb.empties) + 50
	for k := range playouts {
		scratch.reset(pb)
		first := Black
		if k%2 == 1 {
			first = White
		}
		scratch.playout(rng, first, limit)
		for y := range b.h {
			for x := range b.w {
				switch scratch.owner(scratch.at(x, y)) {
				case Black:
					score[y*b.w+x]++
				case White:
					score[y*b.w+x]--
				}
			}
		}
	}
	own := make([]float64, n)
	for i, s := range score {
		own[i] = float64(s) / float64(playouts)
	}
	return own
}

// deadPlayouts is the number of playouts for the estimate on b.
func deadPlayouts(b *Board) int {
	return min(max(64000/len(b.cells), 160), 400)
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
