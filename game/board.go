package game

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
)

// Board is a grid of points with stones on it. Board-level plays follow the
// physics of Go (captures, then removal of the mover's own strings without
// liberties) but do not enforce policy: turn, ko and the suicide ban belong
// to Game.Play.
type Board struct {
	w, h  int
	cells []Color
	nb    []int16 // 4 neighbours per point, -1 off the board
	hash  uint64

	// scratch space for flood fills, never part of the position
	mark  []uint32
	gen   uint32
	stack []int16
	// removed lists the stones the last play took off the board, the
	// opponent's captured stones first, so that takeBack can undo it.
	removed []int16
}

// ErrOccupied is returned for a play on a point that holds a stone.
var ErrOccupied = errors.New("point is occupied")

// NewBoard returns an empty w×h board.
func NewBoard(w, h int) (*Board, error) {
	if err := CheckSize(w, h); err != nil {
		return nil, err
	}
	return &Board{w: w, h: h, cells: make([]Color, w*h), nb: neighbours(w, h)}, nil
}

// nbTables holds the neighbour table of each board size, made when a
// board of that size is first made; boards share them and never write
// to them.
var nbTables [MaxSize * MaxSize]atomic.Pointer[[]int16]

// neighbours returns the 4 neighbours of each point of a w×h board (-1
// off the board): left, right, up, down.
func neighbours(w, h int) []int16 {
	t := &nbTables[(w-1)*MaxSize+h-1]
	if nb := t.Load(); nb != nil {
		return *nb
	}
	nb := make([]int16, 4*w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := 4 * (y*w + x)
			nb[i], nb[i+1], nb[i+2], nb[i+3] = -1, -1, -1, -1
			if x > 0 {
				nb[i] = int16(y*w + x - 1)
			}
			if x < w-1 {
				nb[i+1] = int16(y*w + x + 1)
			}
			if y > 0 {
				nb[i+2] = int16((y-1)*w + x)
			}
			if y < h-1 {
				nb[i+3] = int16((y+1)*w + x)
			}
		}
	}
	t.Store(&nb) // two first boards at once make equal tables
	return nb
}

// Width returns the number of columns.
func (b *Board) Width() int { return b.w }

// Height returns the number of rows.
func (b *Board) Height() int { return b.h }

// Hash returns the Zobrist hash of the stones on the board.
func (b *Board) Hash() uint64 { return b.hash }

// Clone returns an independent copy of b.
func (b *Board) Clone() *Board {
	c := &Board{w: b.w, h: b.h, nb: b.nb, hash: b.hash}
	c.cells = append([]Color(nil), b.cells...)
	return c
}

// copyFrom makes b's stones those of o, a board of the same size.
func (b *Board) copyFrom(o *Board) {
	copy(b.cells, o.cells)
	b.hash = o.hash
}

// Equal reports whether two boards have the same size and stones.
func (b *Board) Equal(o *Board) bool {
	if b.w != o.w || b.h != o.h {
		return false
	}
	for i, c := range b.cells {
		if o.cells[i] != c {
			return false
		}
	}
	return true
}

func (b *Board) index(p Point) int { return int(p.Y)*b.w + int(p.X) }

func (b *Board) point(i int) Point { return Pt(i%b.w, i/b.w) }

// At returns the colour at p (Empty off the board).
func (b *Board) At(p Point) Color {
	if !p.In(b.w, b.h) {
		return Empty
	}
	return b.cells[b.index(p)]
}

// Set puts colour c (or Empty) at p with no captures: for setup (handicap,
// SGF AB/AW/AE) and tests.
func (b *Board) Set(p Point, c Color) error {
	if !p.In(b.w, b.h) {
		return fmt.Errorf("%s is %w", p.GTP(b.h), ErrOffBoard)
	}
	b.set(b.index(p), c)
	return nil
}

func (b *Board) set(i int, c Color) {
	if old := b.cells[i]; old != Empty {
		b.hash ^= zobrist[old-1][i]
	}
	if c != Empty {
		b.hash ^= zobrist[c-1][i]
	}
	b.cells[i] = c
}

// Play puts a stone of colour c at p, removes the opponent's strings left
// without liberties, then the mover's own. It returns how many opponent
// stones were captured and how many of the mover's own stones were removed
// (suicide). It fails only for a point off the board or occupied.
func (b *Board) Play(c Color, p Point) (captured, suicided int, err error) {
	if c != Black && c != White {
		return 0, 0, fmt.Errorf("cannot play colour %v", c)
	}
	if !p.In(b.w, b.h) {
		return 0, 0, fmt.Errorf("%s is %w", p.GTP(b.h), ErrOffBoard)
	}
	i := b.index(p)
	if b.cells[i] != Empty {
		return 0, 0, fmt.Errorf("%s: %w", p.GTP(b.h), ErrOccupied)
	}
	captured, suicided = b.play(c, i)
	return captured, suicided, nil
}

// play is Play on an index known to be empty.
func (b *Board) play(c Color, i int) (captured, suicided int) {
	b.removed = b.removed[:0]
	b.set(i, c)
	opp := c.Opponent()
	nb := b.nb[4*i : 4*i+4]
	for _, n := range nb {
		if n >= 0 && b.cells[n] == opp && !b.hasLiberty(int(n)) {
			captured += b.removeString(int(n))
		}
	}
	if captured == 0 && !b.hasLiberty(i) {
		suicided = b.removeString(i)
	}
	return captured, suicided
}

// nextGen starts a flood fill: a point is marked in it when its mark is
// the number returned. The marks are made on the first fill.
func (b *Board) nextGen() uint32 {
	if b.mark == nil {
		b.mark = make([]uint32, len(b.cells))
	}
	b.gen++
	if b.gen == 0 {
		clear(b.mark)
		b.gen = 1
	}
	return b.gen
}

// hasLiberty reports whether the string through index i touches an empty
// point. It stops at the first liberty found.
func (b *Board) hasLiberty(i int) bool {
	c := b.cells[i]
	g := b.nextGen()
	b.mark[i] = g
	st := append(b.stack[:0], int16(i))
	for len(st) > 0 {
		j := int(st[len(st)-1])
		st = st[:len(st)-1]
		for _, n := range b.nb[4*j : 4*j+4] {
			if n < 0 {
				continue
			}
			switch b.cells[n] {
			case Empty:
				b.stack = st
				return true
			case c:
				if b.mark[n] != g {
					b.mark[n] = g
					st = append(st, n)
				}
			}
		}
	}
	b.stack = st
	return false
}

// removeString empties the string through index i and returns its size.
func (b *Board) removeString(i int) int {
	c := b.cells[i]
	st := append(b.stack[:0], int16(i))
	b.set(i, Empty)
	n := 0
	for len(st) > 0 {
		j := int(st[len(st)-1])
		st = st[:len(st)-1]
		b.removed = append(b.removed, int16(j))
		n++
		for _, k := range b.nb[4*j : 4*j+4] {
			if k >= 0 && b.cells[k] == c {
				b.set(int(k), Empty)
				st = append(st, k)
			}
		}
	}
	b.stack = st
	return n
}

// takeBack undoes play(c, i), which captured that many stones: the
// removed stones go back and i is empty again, so the position and its
// hash are the ones before the play.
func (b *Board) takeBack(c Color, i, captured int) {
	for k, j := range b.removed {
		if k < captured {
			b.set(int(j), c.Opponent())
		} else {
			b.set(int(j), c) // the mover's own string, i among them
		}
	}
	b.set(i, Empty)
	b.removed = b.removed[:0]
}

// markString sets flags[j] to v for every stone j of the string through
// index i (a stone).
func (b *Board) markString(i int, flags []bool, v bool) {
	c := b.cells[i]
	g := b.nextGen()
	b.mark[i] = g
	st := append(b.stack[:0], int16(i))
	for len(st) > 0 {
		j := int(st[len(st)-1])
		st = st[:len(st)-1]
		flags[j] = v
		for _, n := range b.nb[4*j : 4*j+4] {
			if n >= 0 && b.cells[n] == c && b.mark[n] != g {
				b.mark[n] = g
				st = append(st, n)
			}
		}
	}
	b.stack = st
}

// String returns the stones on the board, top row first: X black, O white,
// . empty, one row per line.
func (b *Board) String() string {
	var sb strings.Builder
	sb.Grow((b.w + 1) * b.h)
	for y := 0; y < b.h; y++ {
		for x := 0; x < b.w; x++ {
			sb.WriteByte(".XO"[b.cells[y*b.w+x]])
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}

// Rows returns the board as rows top to bottom (X, O, .), as `gobot sgf
// --json` prints it.
func (b *Board) Rows() []string {
	return strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
}

// ParseBoard reads a board drawn in ASCII, top row first: X or # or B for
// black, O or W for white, '.', '+' or ',' for empty. Spaces are ignored
// and blank lines skipped; every row must have the same width.
func ParseBoard(s string) (*Board, error) {
	var rows [][]Color
	for _, line := range strings.Split(s, "\n") {
		var row []Color
		for _, r := range line {
			switch r {
			case ' ', '\t', '\r':
			case 'X', 'x', '#', 'B', '@':
				row = append(row, Black)
			case 'O', 'o', 'W':
				row = append(row, White)
			case '.', '+', ',', '-':
				row = append(row, Empty)
			default:
				return nil, fmt.Errorf("board drawing: unexpected %q", r)
			}
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, errors.New("board drawing is empty")
	}
	w := len(rows[0])
	b, err := NewBoard(w, len(rows))
	if err != nil {
		return nil, err
	}
	for y, row := range rows {
		if len(row) != w {
			return nil, fmt.Errorf("board drawing: row %d has %d points, row 1 has %d", y+1, len(row), w)
		}
		for x, c := range row {
			b.set(y*w+x, c)
		}
	}
	return b, nil
}

// Neighbors returns the on-board points orthogonally adjacent to p.
func (b *Board) Neighbors(p Point) []Point {
	var out []Point
	if !p.In(b.w, b.h) {
		return nil
	}
	for _, n := range b.nb[4*b.index(p) : 4*b.index(p)+4] {
		if n >= 0 {
			out = append(out, b.point(int(n)))
		}
	}
	return out
}

// StringAt returns the points of the string (orthogonally connected stones
// of one colour) through p and its liberties. Both are nil for an empty p.
func (b *Board) StringAt(p Point) (stones, liberties []Point) {
	if !p.In(b.w, b.h) || b.At(p) == Empty {
		return nil, nil
	}
	i := b.index(p)
	c := b.cells[i]
	g := b.nextGen()
	b.mark[i] = g
	st := []int{i}
	for len(st) > 0 {
		j := st[len(st)-1]
		st = st[:len(st)-1]
		stones = append(stones, b.point(j))
		for _, n := range b.nb[4*j : 4*j+4] {
			if n < 0 || b.mark[n] == g {
				continue
			}
			switch b.cells[n] {
			case Empty:
				b.mark[n] = g
				liberties = append(liberties, b.point(int(n)))
			case c:
				b.mark[n] = g
				st = append(st, int(n))
			}
		}
	}
	return stones, liberties
}

// Stones returns every stone of colour c on the board, in reading order.
func (b *Board) Stones(c Color) []Point {
	var out []Point
	for i, x := range b.cells {
		if x == c {
			out = append(out, b.point(i))
		}
	}
	return out
}

// zobrist holds one random key per colour and point, for boards up to
// MaxSize×MaxSize, from a fixed seed so hashes are stable across runs.
var zobrist = makeZobrist()

func makeZobrist() (z [2][MaxSize * MaxSize]uint64) {
	s := uint64(0x9E3779B97F4A7C15)
	for c := range z {
		for i := range z[c] {
			s += 0x9E3779B97F4A7C15
			x := s
			x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
			x = (x ^ (x >> 27)) * 0x94D049BB133111EB
			z[c][i] = x ^ (x >> 31)
		}
	}
	return z
}
