// Package game holds the rules of Go: boards, moves, rulesets, scoring,
// handicap and SGF. It does no I/O.
package game

// Color is the colour of a point: Empty, Black or White.
type Color uint8

const (
	Empty Color = iota
	Black
	White
)

// Opponent returns the other player's colour (Empty for Empty).
func (c Color) Opponent() Color {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String returns "B", "W" or "." as SGF and the ASCII boards write them.
func (c Color) String() string {
	switch c {
	case Black:
		return "B"
	case White:
		return "W"
	}
	return "."
}

// Name returns "Black", "White" or "empty" for messages.
func (c Color) Name() string {
	switch c {
	case Black:
		return "Black"
	case White:
		return "White"
	}
	return "empty"
}
