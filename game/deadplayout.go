package game

import "math/rand/v2"

// pboard is the playout board of the dead-stone estimate: a padded grid
// (one border column, one border row above and below) with strings kept as
// circular lists and pseudo-liberty counts, so that a move costs a few
// neighbour visits instead of flood fills.
type pboard struct {
	w, h, stride int
	cells        []Color // Empty, Black, White, or border
	head         []int32 // per stone: the string's representative
	next         []int32 // per stone: next stone of its string (circular)
	plibs        []int32 // per head: pseudo-liberties (stone–empty adjacencies)
	size         []int32 // per head: stones
	safe         []bool  // per head: the string may not be captured
	mark         []uint32
	gen          uint32
	ko           int32 // point the player to move may not take back, or -1
	empties      []int32
	emptyAt      []int32 // index in empties, or -1
	dirs         [4]int32
	diags        [4]int32
}

const border Color = 3

func newPboard(b *Board) *pboard {
	w, h := b.w, b.h
	stride := w + 1
	n := stride*(h+2) + 1
	pb := &pboard{w: w, h: h, stride: stride,
		cells: make([]Color, n), head: make([]int32, n), next: make([]int32, n),
		plibs: make([]int32, n), size: make([]int32, n), mark: make([]uint32, n),
		emptyAt: make([]int32, n), safe: make([]bool, n), ko: -1,
	}
	pb.dirs = [4]int32{-1, 1, int32(-stride), int32(stride)}
	pb.diags = [4]int32{int32(-stride - 1), int32(-stride + 1), int32(stride - 1), int32(stride + 1)}
	for i := range pb.cells {
		pb.cells[i] = border
		pb.emptyAt[i] = -1
	}
	for y := range h {
		for x := range w {
			i := pb.at(x, y)
			pb.cells[i] = Empty
			pb.emptyAt[i] = int32(len(pb.empties))
			pb.empties = append(pb.empties, i)
		}
	}
	for y := range h {
		for x := range w {
			if c := b.cells[y*w+x]; c != Empty {
				pb.place(c, pb.at(x, y))
			}
		}
	}
	return pb
}

// at is the padded index of column x, row y.
func (pb *pboard) at(x, y int) int32 { return int32((y+1)*pb.stride + x + 1) }

// reset copies the position of src (same size) into pb.
func (pb *pboard) reset(src *pboard) {
	copy(pb.cells, src.cells)
	copy(pb.head, src.head)
	copy(pb.next, src.next)
	copy(pb.plibs, src.plibs)
	copy(pb.size, src.size)
	copy(pb.safe, src.safe)
	copy(pb.emptyAt, src.emptyAt)
	pb.empties = append(pb.empties[:0], src.empties...)
	pb.ko = src.ko
}

func (pb *pboard) clone() *pboard {
	c := &pboard{w: pb.w, h: pb.h, stride: pb.stride, dirs: pb.dirs, diags: pb.diags,
		cells: make([]Color, len(pb.cells)), head: make([]int32, len(pb.cells)), next: make([]int32, len(pb.cells)),
		plibs: make([]int32, len(pb.cells)), size: make([]int32, len(pb.cells)), mark: make([]uint32, len(pb.cells)),
		emptyAt: make([]int32, len(pb.cells)), safe: make([]bool, len(pb.cells)),
	}
	c.reset(pb)
	return c
}

func (pb *pboard) nextGen() uint32 {
	pb.gen++
	if pb.gen == 0 {
		clear(pb.mark)
		pb.gen = 1
	}
	return pb.gen
}

func (pb *pboard) removeEmpty(i int32) {
	k := pb.emptyAt[i]
	last := pb.empties[len(pb.empties)-1]
	pb.empties[k] = last
	pb.emptyAt[last] = k
	pb.empties = pb.empties[:len(pb.empties)-1]
	pb.emptyAt[i] = -1
}

func (pb *pboard) addEmpty(i int32) {
	pb.emptyAt[i] = int32(len(pb.empties))
	pb.empties = append(pb.empties, i)
}

// place puts a stone of colour c on empty point i: joins its strings,
// captures opponent strings without liberties. It returns the number of
// stones captured and, for a single captured stone, where it was. The
// caller has checked that the move is not suicide.
func (pb *pboard) place(c Color, i int32) (captured int32, capAt int32) {
	pb.removeEmpty(i)
	pb.cells[i] = c
	pb.head[i] = i
	pb.next[i] = i
	pb.size[i] = 1
	pb.plibs[i] = 0
	pb.safe[i] = false
	capAt = -1
	opp := c.Opponent()
	for _, d := range pb.dirs {
		n := i + d
		switch pb.cells[n] {
		case Empty:
			pb.plibs[pb.head[i]]++
		case c:
			pb.plibs[pb.head[n]]--
			pb.join(pb.head[i], pb.head[n])
		case opp:
			pb.plibs[pb.head[n]]--
		}
	}
	// captures after every count is done, so that the points they free
	// are counted once (by remove)
	for _, d := range pb.dirs {
		n := i + d
		if pb.cells[n] == opp && pb.plibs[pb.head[n]] == 0 {
			h := pb.head[n]
			captured += pb.size[h]
			capAt = h
			pb.remove(h)
		}
	}
	return captured, capAt
}

// join merges the strings with heads a and b (a may equal b).
func (pb *pboard) join(a, b int32) {
	if a == b {
		return
	}
	if pb.size[a] < pb.size[b] {
		a, b = b, a
	}
	// relabel b's stones to a
	s := b
	for {
		pb.head[s] = a
		s = pb.next[s]
		if s == b {
			break
		}
	}
	pb.next[a], pb.next[b] = pb.next[b], pb.next[a]
	pb.size[a] += pb.size[b]
	pb.safe[a] = pb.safe[a] || pb.safe[b]
	pb.plibs[a] += pb.plibs[b]
}

// remove takes the string with head h off the board.
func (pb *pboard) remove(h int32) {
	s := h
	for {
		nx := pb.next[s]
		pb.cells[s] = Empty
		pb.addEmpty(s)
		s = nx
		if s == h {
			break
		}
	}
	// give liberties back to the neighbours
	s = h
	for {
		for _, d := range pb.dirs {
			n := s + d
			if c := pb.cells[n]; c == Black || c == White {
				pb.plibs[pb.head[n]]++
			}
		}
		s = pb.next[s]
		if s == h {
			break
		}
	}
}

// inAtari reports whether the string with head h has one liberty, and
// which. A string in atari has at most 4 pseudo-liberties (the stones
// around its one liberty), so most strings are answered without a walk.
func (pb *pboard) inAtari(h int32) (bool, int32) {
	if pb.plibs[h] > 4 {
		return false, -1
	}
	n, l := pb.libs(h, 2)
	return n == 1, l
}

// libs counts the liberties of the string with head h, stopping at limit.
func (pb *pboard) libs(h int32, limit int) (n int, last int32) {
	g := pb.nextGen()
	last = -1
	s := h
	for {
		for _, d := range pb.dirs {
			l := s + d
			if pb.cells[l] == Empty && pb.mark[l] != g {
				pb.mark[l] = g
				n++
				last = l
				if n >= limit {
					return n, last
				}
			}
		}
		s = pb.next[s]
		if s == h {
			return n, last
		}
	}
}

// libsAfter counts, up to limit, the liberties the string of a c stone on
// empty point i would have (captures not counted: the caller checks them).
func (pb *pboard) libsAfter(c Color, i int32, limit int) int {
	g := pb.nextGen()
	pb.mark[i] = g
	n := 0
	for _, d := range pb.dirs {
		m := i + d
		switch pb.cells[m] {
		case Empty:
			if pb.mark[m] != g {
				pb.mark[m] = g
				n++
			}
		case c:
			h := pb.head[m]
			if pb.mark[h] == g && pb.cells[h] == c {
				// string already visited (marks on heads of stones are
				// never set otherwise: heads are stones, not empties)
				continue
			}
			pb.mark[h] = g
			s := h
			for {
				for _, e := range pb.dirs {
					l := s + e
					if pb.cells[l] == Empty && pb.mark[l] != g {
						pb.mark[l] = g
						n++
					}
				}
				s = pb.next[s]
				if s == h {
					break
				}
			}
		}
		if n >= limit {
			return n
		}
	}
	return n
}

// captures reports how many opponent stones a c stone at i would capture
// (strings in atari next to i), or -1 if one of them is safe.
func (pb *pboard) captures(c Color, i int32) int32 {
	opp := c.Opponent()
	var total int32
	var seen [4]int32
	k := 0
outer:
	for _, d := range pb.dirs {
		m := i + d
		if pb.cells[m] != opp {
			continue
		}
		h := pb.head[m]
		for _, x := range seen[:k] {
			if x == h {
				continue outer
			}
		}
		seen[k] = h
		k++
		if a, _ := pb.inAtari(h); a {
			if pb.safe[h] {
				return -1
			}
			total += pb.size[h]
		}
	}
	return total
}

// eye reports whether empty i is an eye of c: all neighbours c (or the
// edge) and at most one opponent diagonal (none on the edge).
func (pb *pboard) eye(c Color, i int32) bool {
	for _, d := range pb.dirs {
		if x := pb.cells[i+d]; x != c && x != border {
			return false
		}
	}
	bad, off := 0, 0
	opp := c.Opponent()
	for _, d := range pb.diags {
		switch pb.cells[i+d] {
		case opp:
			bad++
		case border:
			off = 1
		}
	}
	return bad+off < 2
}

// moveKind is what the playout policy thinks of a move.
type moveKind uint8

const (
	moveIllegal moveKind = iota // occupied, ko, suicide
	moveBad                     // own eye, or self-atari of more than one stone
	moveGood                    // anything else
)

// judge classifies a c move at empty point i.
func (pb *pboard) judge(c Color, i int32) moveKind {
	if i == pb.ko {
		return moveIllegal
	}
	if pb.eye(c, i) {
		return moveBad
	}
	switch capt := pb.captures(c, i); {
	case capt < 0:
		return moveBad // would take a string known to live
	case capt > 0:
		return moveGood
	}
	libs := pb.libsAfter(c, i, 2)
	if libs == 0 {
		return moveIllegal
	}
	if libs == 1 {
		// self-atari: allowed for a lone stone (a throw-in), not for a
		// string that would then be captured with more stones
		for _, d := range pb.dirs {
			if pb.cells[i+d] == c {
				return moveBad
			}
		}
	}
	return moveGood
}

// play puts c at i (a move judge did not call illegal) and updates ko.
func (pb *pboard) play(c Color, i int32) {
	captured, capAt := pb.place(c, i)
	pb.ko = -1
	if captured == 1 && pb.size[pb.head[i]] == 1 {
		if n, l := pb.libs(pb.head[i], 2); n == 1 && l == capAt {
			pb.ko = capAt
		}
	}
}

// urgent returns a capture or escape answer to the last move at last, for
// the player c to move, or -1: take an opponent string that the last move
// left in atari (the largest), else save an own string the last move put
// in atari by extending when that gives it two liberties or more.
func (pb *pboard) urgent(c Color, last int32) int32 {
	if last < 0 || pb.cells[last] == Empty {
		return -1
	}
	best, bestSize := int32(-1), int32(0)
	opp := c.Opponent()
	check := func(m int32) {
		if pb.cells[m] != opp {
			return
		}
		h := pb.head[m]
		if a, l := pb.inAtari(h); a && pb.size[h] > bestSize && pb.judge(c, l) == moveGood {
			best, bestSize = l, pb.size[h]
		}
	}
	check(last)
	for _, d := range pb.dirs {
		check(last + d)
	}
	if best >= 0 {
		return best
	}
	for _, d := range pb.dirs {
		m := last + d
		if pb.cells[m] != c {
			continue
		}
		h := pb.head[m]
		a, l := pb.inAtari(h)
		if !a {
			continue
		}
		// capture a neighbour of the string in atari, else extend
		if x := pb.counterCapture(h); x >= 0 && pb.judge(c, x) == moveGood {
			return x
		}
		if pb.judge(c, l) == moveGood && pb.libsAfter(c, l, 3) >= 3 {
			return l
		}
	}
	return -1
}

// local returns a random good move for c among the eight points around
// the last move, or -1: the area's owner answers a move where it is played.
func (pb *pboard) local(rng *rand.Rand, c Color, last int32) int32 {
	if last < 0 {
		return -1
	}
	var cand [8]int32
	k := 0
	for _, d := range pb.dirs {
		if i := last + d; pb.cells[i] == Empty {
			cand[k] = i
			k++
		}
	}
	for _, d := range pb.diags {
		if i := last + d; pb.cells[i] == Empty {
			cand[k] = i
			k++
		}
	}
	for k > 0 {
		j := rng.IntN(k)
		if pb.judge(c, cand[j]) == moveGood {
			return cand[j]
		}
		k--
		cand[j] = cand[k]
	}
	return -1
}

// counterCapture returns the liberty of an opponent string in atari that
// touches the string with head h, or -1.
func (pb *pboard) counterCapture(h int32) int32 {
	opp := pb.cells[h].Opponent()
	s := h
	for {
		for _, d := range pb.dirs {
			m := s + d
			if pb.cells[m] == opp {
				if a, l := pb.inAtari(pb.head[m]); a {
					return l
				}
			}
		}
		s = pb.next[s]
		if s == h {
			return -1
		}
	}
}

// playout plays from the position, c first, until both pass or limit
// moves: answers to ataris first, then random moves that are neither
// illegal nor bad. It returns the number of moves played, passes included.
func (pb *pboard) playout(rng *rand.Rand, c Color, limit int) int {
	passes := 0
	last := int32(-1)
	moves := 0
	for ; passes < 2 && moves < limit; moves++ {
		mv := int32(-1)
		if u := pb.urgent(c, last); u >= 0 && rng.IntN(8) != 0 {
			mv = u
		} else if l := pb.local(rng, c, last); l >= 0 && rng.IntN(2) == 0 {
			mv = l
		} else {
			// draw empty points at random; a point that is no good is
			// swapped behind the ones still to draw
			for m := len(pb.empties); m > 0; m-- {
				k := int32(rng.IntN(m))
				i := pb.empties[k]
				if pb.judge(c, i) == moveGood {
					mv = i
					break
				}
				j := pb.empties[m-1]
				pb.empties[k], pb.empties[m-1] = j, i
				pb.emptyAt[j], pb.emptyAt[i] = k, int32(m-1)
			}
		}
		if mv < 0 {
			passes++
			pb.ko = -1
			last = -1
		} else {
			passes = 0
			pb.play(c, mv)
			last = mv
		}
		c = c.Opponent()
	}
	return moves
}

// owner is the colour owning point i at the end of a playout: its stone,
// or the colour of every neighbour of an empty point.
func (pb *pboard) owner(i int32) Color {
	c := pb.cells[i]
	if c != Empty {
		return c
	}
	var o Color
	for _, d := range pb.dirs {
		switch x := pb.cells[i+d]; x {
		case Empty:
			return Empty
		case Black, White:
			if o == Empty {
				o = x
			} else if o != x {
				return Empty
			}
		}
	}
	return o
}
