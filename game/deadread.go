package game

import "slices"

// The playouts of the dead-stone estimate never put a string of two stones
// or more in self-atari, so that a seki stays a seki. That also keeps alive
// what only looks like one: a string whose liberties are shared with a
// small enemy string, where the enemy can throw in, be captured, and leave
// a shape that dies (a straight two, a straight three with the vital point
// taken). readShared reads those fights to the end.
//
//	. O O X .    White's liberties A9 and A7 are shared with the lone
//	X O X . .    black stone at A8. Black plays A7; White must take two
//	. O X . .    stones at A9 and is left with A7–A8, a straight two:
//	O O X . .    dead. The playouts never play A7 (two stones in atari)
//	X X X . X    and call it seki.

// Limits of the reading: bigger fights are left to the playouts.
const (
	readMaxLibs   = 6     // a string with more liberties is not read
	readInnerLibs = 4     // a string touching the area with at most this many liberties is part of the fight
	readMaxEmpty  = 10    // empty points of the area
	readMaxStones = 16    // stones of the strings inside the area, besides the one read
	readBudget    = 4000  // positions searched per string
	readTotal     = 16000 // positions searched per proposal
	readMaxPly    = 40
)

// readShared marks dead the strings the playouts keep alive that lose a
// local fight over shared liberties: a string and an enemy string sharing
// a liberty, neither with more than readMaxLibs liberties, neither dead nor
// unconditionally alive. Each is read with the enemy moving first inside
// the closed area around it (see area). A string that the enemy captures
// whatever it answers is dead, unless the enemy string sharing its
// liberties can be captured in the same way (a capturing race: whoever
// moves first wins, and the playouts decide).
func (e *deadEstimate) readShared() {
	libs := e.liberties()
	readable := func(s int) bool {
		st := e.strs[s]
		return !e.dead[s] && !st.alive && len(libs[s]) <= readMaxLibs
	}
	partners := make([][]int, len(e.strs))
	for s := range e.strs {
		if !readable(s) {
			continue
		}
		for _, l := range libs[s] {
			for _, k := range e.b.nb[4*l : 4*l+4] {
				if k < 0 {
					continue
				}
				t := e.strOf[k]
				if t < 0 || e.strs[t].color == e.strs[s].color || !readable(t) || slices.Contains(partners[s], t) {
					continue
				}
				partners[s] = append(partners[s], t)
			}
		}
	}
	var r *reading
	kills := make([]bool, len(e.strs))
	for s, ps := range partners {
		if len(ps) == 0 {
			continue
		}
		pts, moves, ok := e.area(s, libs)
		if !ok {
			continue
		}
		if r == nil {
			r = &reading{b: e.b.Clone(), memo: map[readKey]bool{}, left: readTotal}
		}
		kills[s] = r.kills(e.strs[s].stones[0], pts, moves)
	}
	for s, ps := range partners {
		if !kills[s] {
			continue
		}
		race := false
		for _, t := range ps {
			race = race || kills[t]
		}
		if !race {
			e.dead[s] = true
		}
	}
}

// liberties returns each string's liberties, as sorted board indices.
func (e *deadEstimate) liberties() [][]int {
	b := e.b
	libs := make([][]int, len(e.strs))
	for s, st := range e.strs {
		for _, j := range st.stones {
			for _, k := range b.nb[4*j : 4*j+4] {
				if k >= 0 && b.cells[k] == Empty && !slices.Contains(libs[s], int(k)) {
					libs[s] = append(libs[s], int(k))
				}
			}
		}
		slices.Sort(libs[s])
	}
	return libs
}

// area returns the closed area of the fight around string s: moves, the
// points where the players may play (its liberties, every empty point
// connected to them, and the stones and liberties of every string with at
// most readInnerLibs liberties that touches one of those points), and pts,
// those and s's stones: all that a move inside can change. It fails when
// the area is too big, or when a string outside it could be captured from
// inside (fewer than two liberties outside the area) or is an enemy string
// that is not sure to live (the fight would be a race with it).
func (e *deadEstimate) area(s int, libs [][]int) (pts, moves []int, ok bool) {
	b := e.b
	in := make(map[int]bool)
	inner := map[int]bool{s: true}
	var outer []int
	queue := slices.Clone(libs[s])
	for _, l := range queue {
		in[l] = true
	}
	empties, stones := len(queue), 0
	for len(queue) > 0 {
		j := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, k := range b.nb[4*j : 4*j+4] {
			if k < 0 || in[int(k)] {
				continue
			}
			t := e.strOf[k]
			if t < 0 {
				in[int(k)] = true
				queue = append(queue, int(k))
				empties++
				continue
			}
			if inner[t] || slices.Contains(outer, t) {
				continue
			}
			if e.strs[t].alive || len(libs[t]) > readInnerLibs {
				outer = append(outer, t)
				continue
			}
			inner[t] = true
			stones += len(e.strs[t].stones)
			for _, x := range e.strs[t].stones {
				in[x] = true
			}
			for _, l := range libs[t] {
				if !in[l] {
					in[l] = true
					queue = append(queue, l)
					empties++
				}
			}
		}
		if empties > readMaxEmpty || stones > readMaxStones {
			return nil, nil, false
		}
	}
	for p := range in {
		moves = append(moves, p)
	}
	slices.Sort(moves)
	pts = append(slices.Clone(moves), e.strs[s].stones...)
	// The strings around the area: those touching its empty points (in
	// outer) and those touching the stones inside.
	for t := range inner {
		for _, j := range e.strs[t].stones {
			for _, k := range b.nb[4*j : 4*j+4] {
				if k < 0 {
					continue
				}
				if u := e.strOf[k]; u >= 0 && !inner[u] && !slices.Contains(outer, u) {
					outer = append(outer, u)
				}
			}
		}
	}
	attacker := e.strs[s].color.Opponent()
	for _, t := range outer {
		st := e.strs[t]
		if st.alive {
			continue
		}
		if st.color == attacker && st.own < safeOwn {
			return nil, nil, false
		}
		outside := 0
		for _, l := range libs[t] {
			if !in[l] {
				outside++
			}
		}
		if outside < 2 {
			return nil, nil, false
		}
	}
	return pts, moves, true
}

// reading is a search of one local fight on a copy of the position.
type reading struct {
	b        *Board
	pts      []int // every point a move in the area can change
	moves    []int // the points of the area
	target   int   // a stone of the string read
	attacker Color
	saved    [][]Color // per ply: pts before the move
	memo     map[readKey]bool
	nodes    int // positions searched in this reading
	budget   int // positions this reading may search
	left     int // positions left for the proposal's readings
}

type readKey struct {
	hash   uint64
	toMove Color
	passed bool
	ko     int
}

// kills reports whether the attacker, moving first and playing only on
// moves, captures the string through target whatever its owner answers.
// Both may pass; two passes in a row end the fight with the string alive.
// Only simple ko is forbidden. A reading that does not end within
// readBudget positions (fewer when the proposal's readTotal runs out) or
// readMaxPly moves finds no kill.
func (r *reading) kills(target int, pts, moves []int) bool {
	r.target, r.pts, r.moves = target, pts, moves
	r.attacker = r.b.cells[target].Opponent()
	r.nodes, r.budget = 0, min(readBudget, r.left)
	clear(r.memo)
	win, _ := r.search(r.attacker, false, -1, 0)
	r.left -= r.nodes
	return win
}

// search returns whether the attacker wins with c to move after a pass
// (passed) or not, ko the point c may not take back. A win is always
// proven; a loss is exact unless the budget or the depth cut it short.
func (r *reading) search(c Color, passed bool, ko, ply int) (win, exact bool) {
	key := readKey{r.b.hash, c, passed, ko}
	if w, ok := r.memo[key]; ok {
		return w, true
	}
	if r.nodes >= r.budget || ply >= readMaxPly {
		return false, false
	}
	r.nodes++
	defender := r.attacker.Opponent()
	if c == defender {
		// The defender lives if one answer (a pass first) holds; a loss
		// found only under a cut-off is not kept.
		if passed {
			r.memo[key] = false
			return false, true
		}
		w, ex := r.search(r.attacker, true, -1, ply+1)
		if !w && ex {
			r.memo[key] = false
			return false, true
		}
		holds := !w
		for _, m := range r.moves {
			nko, ok := r.play(c, m, ko, ply)
			if !ok {
				continue
			}
			w, ex := r.search(r.attacker, false, nko, ply+1)
			r.undo(ply)
			if !w && ex {
				r.memo[key] = false
				return false, true
			}
			holds = holds || !w
		}
		if holds {
			return false, false
		}
		r.memo[key] = true
		return true, true
	}
	exact = true
	for _, m := range r.moves {
		nko, ok := r.play(c, m, ko, ply)
		if !ok {
			continue
		}
		captured := r.b.cells[r.target] != defender
		w, ex := captured, true
		if !captured {
			w, ex = r.search(defender, false, nko, ply+1)
		}
		r.undo(ply)
		if w {
			r.memo[key] = true
			return true, true
		}
		exact = exact && ex
	}
	if !passed {
		w, ex := r.search(defender, true, -1, ply+1)
		if w {
			r.memo[key] = true
			return true, true
		}
		exact = exact && ex
	}
	if exact {
		r.memo[key] = false
	}
	return false, exact
}

// play puts a c stone at m unless the point is taken, is the ko point or
// the move is suicide, and returns the ko point it leaves.
func (r *reading) play(c Color, m, ko, ply int) (nko int, ok bool) {
	b := r.b
	if b.cells[m] != Empty || m == ko {
		return -1, false
	}
	for len(r.saved) <= ply {
		r.saved = append(r.saved, nil)
	}
	save := r.saved[ply][:0]
	for _, p := range r.pts {
		save = append(save, b.cells[p])
	}
	r.saved[ply] = save
	captured, suicided := b.play(c, m)
	if suicided > 0 {
		r.undo(ply)
		return -1, false
	}
	nko = -1
	if captured == 1 {
		nko = b.koAfter(m)
	}
	return nko, true
}

// undo restores the points the move at ply changed.
func (r *reading) undo(ply int) {
	for i, p := range r.pts {
		if c := r.saved[ply][i]; r.b.cells[p] != c {
			r.b.set(p, c)
		}
	}
}
