package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// MaxSize is the largest board side gobot plays (SGF letters a–y; GTP A–Z
// without I).
const MaxSize = 25

// MinSize is the smallest board side.
const MinSize = 2

// Point is an intersection. X counts columns from the left (0 = "A" in GTP,
// "a" in SGF); Y counts rows from the top (0 = the top row, as SGF does;
// GTP numbers rows from the bottom). The zero Point is the top-left corner.
type Point struct {
	X, Y int8
}

// Pass is the Point of a pass move.
var Pass = Point{-1, -1}

// IsPass reports whether p is the pass point.
func (p Point) IsPass() bool { return p == Pass }

// Pt builds a Point from column x and row y (from the top).
func Pt(x, y int) Point { return Point{int8(x), int8(y)} }

// In reports whether p lies on a w×h board.
func (p Point) In(w, h int) bool {
	return p.X >= 0 && p.Y >= 0 && int(p.X) < w && int(p.Y) < h
}

// gtpLetters are the GTP column letters: A–Z without I.
const gtpLetters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"

// Errors returned by coordinate parsing; wrapped with the offending text.
var (
	ErrBadCoord    = errors.New("not a board coordinate")
	ErrOffBoard    = errors.New("off the board")
	ErrBadSize     = errors.New("bad board size")
	ErrSizeTooBig  = errors.New("board larger than 25×25")
	ErrSizeTooTiny = errors.New("board smaller than 2×2")
)

// GTP formats p in GTP style ("D4", row 1 at the bottom) for a board of
// height h, or "pass".
func (p Point) GTP(h int) string {
	if p.IsPass() {
		return "pass"
	}
	if p.X < 0 || int(p.X) >= len(gtpLetters) {
		return "?"
	}
	return string(gtpLetters[p.X]) + strconv.Itoa(h-int(p.Y))
}

// SGF formats p as an SGF point ("dd"), or "" for a pass.
func (p Point) SGF() string {
	if p.IsPass() {
		return ""
	}
	return string([]byte{sgfLetter(int(p.X)), sgfLetter(int(p.Y))})
}

func sgfLetter(i int) byte {
	if i < 26 {
		return byte('a' + i)
	}
	return byte('A' + i - 26)
}

// ParseGTP parses a GTP coordinate ("D4", "d4", "pass") for a w×h board.
// The letter I is never a column.
func ParseGTP(s string, w, h int) (Point, error) {
	t := strings.TrimSpace(s)
	if strings.EqualFold(t, "pass") {
		return Pass, nil
	}
	if len(t) < 2 || len(t) > 3 {
		return Point{}, fmt.Errorf("%q is %w: write a column letter and a row number, like D4", s, ErrBadCoord)
	}
	letter := t[0]
	if letter >= 'a' && letter <= 'z' {
		letter -= 'a' - 'A'
	}
	if letter == 'I' {
		return Point{}, fmt.Errorf("%q is %w: there is no column I on a go board (columns skip from H to J)", s, ErrBadCoord)
	}
	col := strings.IndexByte(gtpLetters, letter)
	if col < 0 {
		return Point{}, fmt.Errorf("%q is %w: it should start with a column letter, like D4", s, ErrBadCoord)
	}
	row, err := strconv.Atoi(t[1:])
	if err != nil || t[1] == '+' || t[1] == '-' {
		return Point{}, fmt.Errorf("%q is %w: the row after the letter must be a number, like D4", s, ErrBadCoord)
	}
	if row > MaxSize {
		return Point{}, fmt.Errorf("%q is %w: rows only go up to %d on the largest board", s, ErrOffBoard, MaxSize)
	}
	if col >= w || row < 1 || row > h {
		return Point{}, fmt.Errorf("%q is %w: this %s board goes from A1 to %s", s, ErrOffBoard, SizeString(w, h), Pt(w-1, 0).GTP(h))
	}
	return Pt(col, h-row), nil
}

// ParseSGFPoint parses an SGF point ("dd") for a w×h board. The empty
// string is a pass, and so is "tt" on boards up to 19×19 (FF[3] style).
func ParseSGFPoint(s string, w, h int) (Point, error) {
	if s == "" || (s == "tt" && w <= 19 && h <= 19) {
		return Pass, nil
	}
	if len(s) != 2 {
		return Point{}, fmt.Errorf("SGF point %q is %w: it needs two letters", s, ErrBadCoord)
	}
	x, okx := sgfIndex(s[0])
	y, oky := sgfIndex(s[1])
	if !okx || !oky {
		return Point{}, fmt.Errorf("SGF point %q is %w: use letters a–z", s, ErrBadCoord)
	}
	if x >= w || y >= h {
		return Point{}, fmt.Errorf("SGF point %q is %w (board is %s)", s, ErrOffBoard, SizeString(w, h))
	}
	return Pt(x, y), nil
}

func sgfIndex(c byte) (int, bool) {
	switch {
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 26, true
	}
	return 0, false
}

// ParsePoint accepts either notation: GTP ("D4") or SGF ("dd").
func ParsePoint(s string, w, h int) (Point, error) {
	t := strings.TrimSpace(s)
	if len(t) == 2 && isLower(t[0]) && isLower(t[1]) && t != "pa" {
		if p, err := ParseSGFPoint(t, w, h); err == nil {
			return p, nil
		}
	}
	return ParseGTP(t, w, h)
}

func isLower(c byte) bool { return c >= 'a' && c <= 'z' }

// SizeString formats a board size: "19×19" style as "19x19".
func SizeString(w, h int) string {
	return strconv.Itoa(w) + "x" + strconv.Itoa(h)
}

// ParseSize parses "19", "13x9" or "13:9" (SGF style) into width and height.
func ParseSize(s string) (w, h int, err error) {
	t := strings.NewReplacer("\u00d7", "x", ":", "x").Replace(strings.ToLower(strings.TrimSpace(s)))
	a, b, rect := strings.Cut(t, "x")
	w, err1 := strconv.Atoi(a)
	h, err2 := w, error(nil)
	if rect {
		h, err2 = strconv.Atoi(b)
	}
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("size %q is %w: write a number like 19 or a rectangle like 13x9", s, ErrBadSize)
	}
	return w, h, CheckSize(w, h)
}

// CheckSize reports whether a w×h board can be played.
func CheckSize(w, h int) error {
	if w > MaxSize || h > MaxSize {
		return fmt.Errorf("%s: %w — the largest board is 25x25", SizeString(w, h), ErrSizeTooBig)
	}
	if w < MinSize || h < MinSize {
		return fmt.Errorf("%s: %w — the smallest board is 2x2", SizeString(w, h), ErrSizeTooTiny)
	}
	return nil
}
