package tournament

import "math"

// maxWeightMatching returns a maximum-weight matching of the complete graph
// on n vertices whose edge (i, j) weighs w[i*n+j] (symmetric, positive):
// mate[i] is i's partner. With positive weights on a complete graph of an
// even number of vertices the matching is perfect.
//
// It is Edmonds' blossom algorithm in its primal-dual form, O(n³) as Gabow
// arranged it: the search grows alternating trees from the unmatched
// vertices over tight edges (slack 0), shrinks odd cycles into blossoms,
// and when it is stuck changes the dual variables by the largest step that
// keeps every slack non-negative, which makes new edges tight, or a
// blossom's dual zero so that it can be expanded. Each blossom keeps, for
// every other node, the edge of least slack between them, so a step costs
// O(n). The answer is deterministic: the same weights give the same
// matching.
func maxWeightMatching(n int, w []int64) []int {
	if n == 0 {
		return nil
	}
	m := newMatcher(n, w)
	for m.augmentOnce() {
	}
	mate := make([]int, n)
	copy(mate, m.mate[:n])
	return mate
}

// Node labels in the search forest.
const (
	free  = -1 // not in the forest
	outer = 0  // an even node: a root, or reached through its matched edge
	inner = 1  // an odd node: reached through an unmatched tight edge
)

// matcher holds the state of the blossom algorithm. Nodes 0…n-1 are the
// vertices, n…2n-1 blossoms. Dual variables are kept doubled, so an edge's
// slack is dual[u]+dual[v]-2w(u,v) and every step is a whole number.
type matcher struct {
	n    int
	cap  int     // node ids: 2n
	used int     // node ids in use: n plus the highest blossom id + 1
	w    []int64 // n×n
	dual []int64
	// eu, ev: for nodes a and b (cap×cap), the edge of least slack between
	// them, from vertex eu in a to vertex ev in b; eu < 0 when there is none.
	eu, ev []int32
	// within: for a blossom b and a vertex v in it (cap×n), the child of b
	// that holds v; for a vertex, itself.
	within []int32
	top    []int   // the outermost blossom holding a node; -1 for a free blossom id
	mate   []int   // the vertex a node is matched to (a blossom: its base's), -1
	label  []int8  // for an outermost node: free, outer or inner
	from   []int   // for an inner node: the outer vertex it was reached from
	best   []int   // for a node: the outer vertex with the least-slack edge to it, -1
	bestSl []int64 // that edge's slack, kept up to date through dual changes
	kids   [][]int // a blossom's cycle of children, its base first
	queue  []int   // outer vertices whose edges are still to scan
	seen   []int   // marks for lowestCommon
	stamp  int
}

func newMatcher(n int, w []int64) *matcher {
	c := 2 * n
	m := &matcher{n: n, cap: c, used: n, w: w,
		dual: make([]int64, c), eu: make([]int32, c*c), ev: make([]int32, c*c),
		within: make([]int32, c*n), top: make([]int, c), mate: make([]int, c),
		label: make([]int8, c), from: make([]int, c), best: make([]int, c), bestSl: make([]int64, c),
		kids: make([][]int, c), seen: make([]int, c)}
	var wmax int64
	for _, x := range w {
		wmax = max(wmax, x)
	}
	for i := range m.eu {
		m.eu[i] = -1
	}
	for i := range m.within {
		m.within[i] = -1
	}
	for u := 0; u < c; u++ {
		m.top[u] = -1
		m.mate[u] = -1
	}
	for u := 0; u < n; u++ {
		m.top[u] = u
		m.dual[u] = wmax
		m.within[u*n+u] = int32(u)
		for v := 0; v < n; v++ {
			if u != v {
				m.eu[u*c+v], m.ev[u*c+v] = int32(u), int32(v)
			}
		}
	}
	return m
}

// slack is the slack of the least-slack edge between nodes a and b.
func (m *matcher) slack(a, b int) int64 {
	k := a*m.cap + b
	u, v := int(m.eu[k]), int(m.ev[k])
	return m.dual[u] + m.dual[v] - 2*m.w[u*m.n+v]
}

// offerBest records outer vertex u as x's best neighbour if its edge to x,
// of slack sl, has less slack than the one recorded.
func (m *matcher) offerBest(u, x int, sl int64) {
	if m.best[x] < 0 || sl < m.bestSl[x] {
		m.best[x], m.bestSl[x] = u, sl
	}
}

// recomputeBest finds x's best outer neighbour afresh.
func (m *matcher) recomputeBest(x int) {
	m.best[x] = -1
	for u := 0; u < m.n; u++ {
		if m.top[u] != x && m.label[m.top[u]] == outer && m.eu[u*m.cap+x] >= 0 {
			m.offerBest(u, x, m.slack(u, x))
		}
	}
}

// enqueue queues the vertices of node x for scanning.
func (m *matcher) enqueue(x int) {
	if x < m.n {
		m.queue = append(m.queue, x)
		return
	}
	for _, k := range m.kids[x] {
		m.enqueue(k)
	}
}

// setTop makes b the outermost blossom of x and everything inside it.
func (m *matcher) setTop(x, b int) {
	m.top[x] = b
	if x >= m.n {
		for _, k := range m.kids[x] {
			m.setTop(k, b)
		}
	}
}

// evenPosition returns the position of child x in blossom b's cycle,
// reversing the cycle's direction if needed so that the path from the base
// to x has even length.
func (m *matcher) evenPosition(b, x int) int {
	kids := m.kids[b]
	p := 0
	for kids[p] != x {
		p++
	}
	if p%2 == 1 {
		reverseInts(kids[1:])
		return len(kids) - p
	}
	return p
}

func reverseInts(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

// match matches node a to node b along their least-slack edge; inside a
// blossom it rematches the children along the even path from the base to
// the child holding that edge, which becomes the new base.
func (m *matcher) match(a, b int) {
	k := a*m.cap + b
	m.mate[a] = int(m.ev[k])
	if a < m.n {
		return
	}
	x := int(m.within[a*m.n+int(m.eu[k])])
	p := m.evenPosition(a, x)
	kids := m.kids[a]
	for i := 0; i < p; i++ {
		m.match(kids[i], kids[i^1])
	}
	m.match(x, b)
	reverseInts(kids[:p])
	reverseInts(kids[p:])
	reverseInts(kids)
}

// augment flips the matching along the tree path from outer node a to its
// root, after a has been joined to node b.
func (m *matcher) augment(a, b int) {
	for {
		next := -1
		if m.mate[a] >= 0 {
			next = m.top[m.mate[a]]
		}
		m.match(a, b)
		if next < 0 {
			return
		}
		up := m.top[m.from[next]]
		m.match(next, up)
		a, b = up, next
	}
}

// lowestCommon returns the first outer node that the tree paths from a and
// b share, or -1 when they are in different trees.
func (m *matcher) lowestCommon(a, b int) int {
	m.stamp++
	for a >= 0 || b >= 0 {
		if a >= 0 {
			if m.seen[a] == m.stamp {
				return a
			}
			m.seen[a] = m.stamp
			if m.mate[a] >= 0 {
				a = m.top[m.from[m.top[m.mate[a]]]]
			} else {
				a = -1
			}
		}
		a, b = b, a
	}
	return -1
}

// shrink makes the odd cycle through outer nodes a and b, closed by their
// tight edge and meeting at base, a new outer blossom.
func (m *matcher) shrink(a, base, b int) {
	nb := m.n
	for nb < m.used && m.top[nb] >= 0 {
		nb++
	}
	if nb == m.used {
		m.used++
	}
	m.dual[nb] = 0
	m.label[nb] = outer
	m.mate[nb] = m.mate[base]
	kids := append(m.kids[nb][:0], base)
	for x := a; x != base; {
		y := m.top[m.mate[x]]
		kids = append(kids, x, y)
		m.enqueue(y)
		x = m.top[m.from[y]]
	}
	reverseInts(kids[1:])
	for x := b; x != base; {
		y := m.top[m.mate[x]]
		kids = append(kids, x, y)
		m.enqueue(y)
		x = m.top[m.from[y]]
	}
	m.kids[nb] = kids
	m.setTop(nb, nb)
	c, n := m.cap, m.n
	for x := 0; x < m.used; x++ {
		m.eu[nb*c+x], m.eu[x*c+nb] = -1, -1
	}
	for v := 0; v < n; v++ {
		m.within[nb*n+v] = -1
	}
	for _, k := range kids {
		for x := 0; x < m.used; x++ {
			if m.eu[k*c+x] < 0 {
				continue
			}
			if m.eu[nb*c+x] < 0 || m.slack(k, x) < m.slack(nb, x) {
				m.eu[nb*c+x], m.ev[nb*c+x] = m.eu[k*c+x], m.ev[k*c+x]
				m.eu[x*c+nb], m.ev[x*c+nb] = m.eu[x*c+k], m.ev[x*c+k]
			}
		}
		for v := 0; v < n; v++ {
			if m.within[k*n+v] >= 0 {
				m.within[nb*n+v] = int32(k)
			}
		}
	}
	m.recomputeBest(nb)
}

// expand dissolves inner blossom b, whose dual has reached zero: the
// children on the even path from where the tree enters to the base stay in
// the tree (alternately inner and outer), the others become free.
func (m *matcher) expand(b int) {
	for _, k := range m.kids[b] {
		m.setTop(k, k)
	}
	entry := int(m.within[b*m.n+int(m.eu[b*m.cap+m.from[b]])])
	p := m.evenPosition(b, entry)
	kids := m.kids[b]
	for i := 0; i < p; i += 2 {
		odd, even := kids[i], kids[i+1]
		m.from[odd] = int(m.eu[even*m.cap+odd])
		m.label[odd], m.label[even] = inner, outer
		m.best[odd] = -1
		m.recomputeBest(even)
		m.enqueue(even)
	}
	m.label[entry] = inner
	m.from[entry] = m.from[b]
	for _, k := range kids[p+1:] {
		m.label[k] = free
		m.recomputeBest(k)
	}
	m.top[b] = -1
}

// tight handles the tight edge between nodes a (outer) and b: it labels a
// free node, shrinks a blossom, or augments the matching (returning true)
// when the edge joins two trees.
func (m *matcher) tight(a, b int) bool {
	k := a*m.cap + b
	u, v := int(m.eu[k]), int(m.ev[k])
	x, y := m.top[u], m.top[v]
	switch m.label[y] {
	case free:
		m.from[y] = u
		m.label[y] = inner
		z := m.top[m.mate[y]]
		m.best[y], m.best[z] = -1, -1
		m.label[z] = outer
		m.enqueue(z)
	case outer:
		base := m.lowestCommon(x, y)
		if base < 0 {
			m.augment(x, y)
			m.augment(y, x)
			return true
		}
		m.shrink(x, base, y)
	}
	return false
}

// augmentOnce grows the forest until it finds an augmenting path and
// augments the matching (true), or finds the matching of maximum weight
// (false).
func (m *matcher) augmentOnce() bool {
	n := m.n
	for x := 0; x < m.used; x++ {
		m.label[x] = free
		m.best[x] = -1
	}
	m.queue = m.queue[:0]
	for x := 0; x < m.used; x++ {
		if m.top[x] == x && m.mate[x] < 0 {
			m.from[x] = -1
			m.label[x] = outer
			m.enqueue(x)
		}
	}
	if len(m.queue) == 0 {
		return false
	}
	for {
		top, dual, best, bestSl := m.top, m.dual, m.best, m.bestSl
		for len(m.queue) > 0 {
			u := m.queue[0]
			m.queue = m.queue[1:]
			tu := top[u]
			if m.label[tu] == inner {
				continue
			}
			du, row := dual[u], m.w[u*n:u*n+n]
			for v, wv := range row {
				x := top[v]
				if x == tu {
					continue
				}
				sl := du + dual[v] - 2*wv
				if sl == 0 {
					if m.tight(u, v) {
						return true
					}
					tu = top[u] // u may be in a new blossom now
					continue
				}
				if x != v {
					sl = m.slack(u, x) // the least-slack edge from u into blossom x
				}
				if best[x] < 0 || sl < bestSl[x] {
					best[x], bestSl[x] = u, sl
				}
			}
		}
		d := int64(math.MaxInt64)
		for b := n; b < m.used; b++ {
			if m.top[b] == b && m.label[b] == inner {
				d = min(d, m.dual[b]/2)
			}
		}
		for x := 0; x < m.used; x++ {
			if m.top[x] != x || m.best[x] < 0 {
				continue
			}
			switch m.label[x] {
			case free:
				d = min(d, m.bestSl[x])
			case outer:
				d = min(d, m.bestSl[x]/2)
			}
		}
		for u := 0; u < n; u++ {
			switch m.label[m.top[u]] {
			case outer:
				if m.dual[u] <= d {
					return false // the matching already has the maximum weight
				}
				m.dual[u] -= d
			case inner:
				m.dual[u] += d
			}
		}
		for b := n; b < m.used; b++ {
			if m.top[b] != b {
				continue
			}
			switch m.label[b] {
			case outer:
				m.dual[b] += 2 * d
			case inner:
				m.dual[b] -= 2 * d
			}
		}
		// An edge from an outer vertex loses d of slack towards a free
		// node, 2d towards an outer one, nothing towards an inner one.
		for x := 0; x < m.used; x++ {
			if m.top[x] != x || m.best[x] < 0 {
				continue
			}
			switch m.label[x] {
			case free:
				m.bestSl[x] -= d
			case outer:
				m.bestSl[x] -= 2 * d
			}
		}
		m.queue = m.queue[:0]
		for x := 0; x < m.used; x++ {
			if m.top[x] == x && m.best[x] >= 0 && m.top[m.best[x]] != x && m.bestSl[x] == 0 {
				if m.tight(m.best[x], x) {
					return true
				}
			}
		}
		for b := n; b < m.used; b++ {
			if m.top[b] == b && m.label[b] == inner && m.dual[b] == 0 {
				m.expand(b)
			}
		}
	}
}
