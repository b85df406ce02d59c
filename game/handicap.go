package game

import (
	"errors"
	"fmt"
)

// ErrHandicap is returned for a handicap that cannot be given.
var ErrHandicap = errors.New("bad handicap")

// MaxHandicap is the most handicap stones gobot gives.
const MaxHandicap = 9

// FixedHandicap returns the traditional points for n handicap stones on a
// w×h board, in the order of text 004's diagram 8 (the GTP order): the
// corners a–d first (lower left, upper right, upper left, lower right, as
// Black sees the board), then the sides e–h (left, right, bottom, top),
// with 5 and 7 stones taking the centre i as their last stone, and 9 all
// of them.
//
// The points lie on the 4th line on boards of 13 lines or more and on the
// 3rd line on boards of 7 to 12 lines. Side points and the centre exist only
// on axes with an odd number of lines, at least 9 of them; so a 7×7 or an
// even-sized board takes at most 4 fixed stones, and boards under 7 lines
// take none (use free placement there).
func FixedHandicap(n, w, h int) ([]Point, error) {
	if n < 2 || n > MaxHandicap {
		return nil, fmt.Errorf("%w: fixed handicap is 2 to %d stones, not %d", ErrHandicap, MaxHandicap, n)
	}
	if min(w, h) < 7 {
		return nil, fmt.Errorf("%w: a %s board has no handicap points; use free placement", ErrHandicap, SizeString(w, h))
	}
	edge := func(size int) int {
		if size >= 13 {
			return 3
		}
		return 2
	}
	ex, ey := edge(w), edge(h)
	left, right := ex, w-1-ex
	top, bottom := ey, h-1-ey
	midX := w%2 == 1 && w >= 9
	midY := h%2 == 1 && h >= 9
	cx, cy := w/2, h/2
	corners := []Point{Pt(left, bottom), Pt(right, top), Pt(left, top), Pt(right, bottom)}
	var pts []Point
	switch {
	case n <= 4:
		pts = corners[:n]
	case n == 5 || n == 7 || n == 9:
		if !midX || !midY {
			return nil, fmt.Errorf("%w: a %s board has no centre point for %d stones; use free placement", ErrHandicap, SizeString(w, h), n)
		}
		pts = append(pts, corners...)
		if n >= 7 {
			pts = append(pts, Pt(left, cy), Pt(right, cy))
		}
		if n == 9 {
			pts = append(pts, Pt(cx, bottom), Pt(cx, top))
		}
		pts = append(pts, Pt(cx, cy))
	default: // 6, 8
		if !midY || (n == 8 && !midX) {
			return nil, fmt.Errorf("%w: a %s board has no side points for %d stones; use free placement", ErrHandicap, SizeString(w, h), n)
		}
		pts = append(pts, corners...)
		pts = append(pts, Pt(left, cy), Pt(right, cy))
		if n == 8 {
			pts = append(pts, Pt(cx, bottom), Pt(cx, top))
		}
	}
	return pts, nil
}
