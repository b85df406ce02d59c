package web

import (
	"bytes"
	"html/template"
	"strconv"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

// The board is drawn by the server as SVG, in the look of the PNG that
// package render draws for the chat (its "wood" theme: the same colours,
// stones shaded by a radial gradient, coordinates on all four sides, a
// ring on the last move, small squares on territory and faded dead
// stones in scoring). Each intersection is a transparent square on top
// carrying the testability contract (docs/web.md): data-point, role,
// aria-label and data-stone. Stones, labels and markers have
// pointer-events: none (board.css), so the square under them takes the
// click.

// Units of the SVG's viewBox: one cell is 40; the margin holds the
// coordinates.
const (
	cell   = 40
	margin = 48
	stoneR = 19.2
)

// Colours of render's wood theme.
const (
	woodBoard = "#dcb35c"
	woodLine  = "#3a2a12"
	markOnB   = "#fff"
	markOnW   = "#101010"
	koColor   = "#b02020"
)

func coord(i int) string { return strconv.Itoa(margin + i*cell) }

// boardSVG writes g's board as an SVG element; votes are the open
// voting window's votes of a vote game, a count on each voted point (as
// the PNG shows them).
func boardSVG(buf *bytes.Buffer, g *game.Game, votes map[game.Point]int) {
	drawSVG(buf, render.ViewOf(g, 0), &overlay{votes: votes})
}

// overlay is what a board shows beyond the position: a vote game's
// votes; a review's marks, and the stones played off the main line
// (data-variation on their points).
type overlay struct {
	votes     map[game.Point]int
	marks     []game.Mark
	variation map[game.Point]bool
	// next are a review's next moves at a branch: each variation's
	// first stone, lettered A (the main line's), B, C… on its point.
	next map[game.Point]string
}

// drawSVG writes the board of v, with ov's votes, marks and variation
// stones (ov may be nil), as an SVG element.
func drawSVG(buf *bytes.Buffer, v render.View, ov *overlay) {
	if ov == nil {
		ov = &overlay{}
	}
	votes := ov.votes
	b := v.Board
	w, h := b.Width(), b.Height()
	W, H := 2*margin+(w-1)*cell, 2*margin+(h-1)*cell
	ws, hs := strconv.Itoa(W), strconv.Itoa(H)
	buf.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ` + ws + ` ` + hs + `" class="goban" role="grid" aria-label="` + game.SizeString(w, h) + ` board">`)
	buf.WriteString(`<defs><radialGradient id="gb" cx=".35" cy=".3" r=".75"><stop offset="0" stop-color="#6e6e6e"/><stop offset="1" stop-color="#080808"/></radialGradient>` +
		`<radialGradient id="gw" cx=".35" cy=".3" r=".75"><stop offset="0" stop-color="#fff"/><stop offset="1" stop-color="#c4c0b8"/></radialGradient>` +
		`<circle id="b" r="` + ftoa(stoneR) + `" fill="url(#gb)" stroke="#000" stroke-width=".8"/>` +
		`<circle id="w" r="` + ftoa(stoneR) + `" fill="url(#gw)" stroke="#6b5a3a" stroke-width=".8"/></defs>`)
	buf.WriteString(`<rect class="wood" width="` + ws + `" height="` + hs + `" fill="` + woodBoard + `"/>`)
	// Grid: one path.
	buf.WriteString(`<path class="grid" stroke="` + woodLine + `" stroke-width="1.2" d="`)
	for x := 0; x < w; x++ {
		buf.WriteString("M" + coord(x) + " " + coord(0) + "V" + coord(h-1))
	}
	for y := 0; y < h; y++ {
		buf.WriteString("M" + coord(0) + " " + coord(y) + "H" + coord(w-1))
	}
	buf.WriteString(`"/>`)
	for _, p := range render.StarPoints(w, h) {
		buf.WriteString(`<circle class="mark" cx="` + coord(int(p.X)) + `" cy="` + coord(int(p.Y)) + `" r="4" fill="` + woodLine + `"/>`)
	}
	// Coordinates on all four sides, as the PNG has them.
	buf.WriteString(`<g class="label" fill="` + woodLine + `" font-family="sans-serif" font-weight="bold" font-size="15" text-anchor="middle" dominant-baseline="central">`)
	for x := 0; x < w; x++ {
		col := game.Pt(x, 0).GTP(1)
		col = col[:len(col)-1]
		buf.WriteString(`<text x="` + coord(x) + `" y="` + strconv.Itoa(margin/2-6) + `">` + col + `</text>`)
		buf.WriteString(`<text x="` + coord(x) + `" y="` + strconv.Itoa(H-margin/2+6) + `">` + col + `</text>`)
	}
	for y := 0; y < h; y++ {
		row := strconv.Itoa(h - y)
		buf.WriteString(`<text x="` + strconv.Itoa(margin/2-6) + `" y="` + coord(y) + `">` + row + `</text>`)
		buf.WriteString(`<text x="` + strconv.Itoa(W-margin/2+6) + `" y="` + coord(y) + `">` + row + `</text>`)
	}
	buf.WriteString(`</g>`)
	// Stones.
	buf.WriteString(`<g class="stones">`)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := game.Pt(x, y)
			c := b.At(p)
			if c == game.Empty {
				continue
			}
			id := "b"
			if c == game.White {
				id = "w"
			}
			buf.WriteString(`<use href="#` + id + `" x="` + coord(x) + `" y="` + coord(y) + `"`)
			if v.Dead[p] {
				buf.WriteString(` class="dead"`)
			}
			buf.WriteString(`/>`)
		}
	}
	buf.WriteString(`</g>`)
	// Markup: territory, dead stones without a territory square, ko,
	// the last move.
	buf.WriteString(`<g class="mark">`)
	if v.Owner != nil {
		for i, c := range v.Owner {
			if c == game.Empty || i >= w*h {
				continue
			}
			p := game.Pt(i%w, i/w)
			if b.At(p) == c {
				continue
			}
			fill, edge := "#080808", "#000"
			if c == game.White {
				fill, edge = "#fff", "#6b5a3a"
			}
			buf.WriteString(`<rect class="terr" x="` + ftoa(float64(margin+int(p.X)*cell)-6.4) + `" y="` + ftoa(float64(margin+int(p.Y)*cell)-6.4) + `" width="12.8" height="12.8" fill="` + fill + `" stroke="` + edge + `"/>`)
		}
		for p := range v.Dead {
			c := b.At(p)
			if c == game.Empty {
				continue
			}
			if i := int(p.Y)*w + int(p.X); i < len(v.Owner) && v.Owner[i] == c.Opponent() {
				continue
			}
			x, y := float64(margin+int(p.X)*cell), float64(margin+int(p.Y)*cell)
			d := stoneR * .45
			buf.WriteString(`<path stroke="` + koColor + `" stroke-width="3" d="M` + ftoa(x-d) + " " + ftoa(y-d) + "L" + ftoa(x+d) + " " + ftoa(y+d) + "M" + ftoa(x-d) + " " + ftoa(y+d) + "L" + ftoa(x+d) + " " + ftoa(y-d) + `"/>`)
		}
	}
	if v.Ko != nil && v.Ko.In(w, h) {
		buf.WriteString(`<rect fill="none" stroke="` + koColor + `" stroke-width="3" x="` + strconv.Itoa(margin+int(v.Ko.X)*cell-9) + `" y="` + strconv.Itoa(margin+int(v.Ko.Y)*cell-9) + `" width="18" height="18"/>`)
	}
	if v.Last.In(w, h) && b.At(v.Last) != game.Empty {
		col := markOnW
		if b.At(v.Last) == game.Black {
			col = markOnB
		}
		buf.WriteString(`<circle class="last" fill="none" stroke="` + col + `" stroke-width="3" cx="` + coord(int(v.Last.X)) + `" cy="` + coord(int(v.Last.Y)) + `" r="` + ftoa(stoneR*.45) + `"/>`)
	}
	for _, m := range ov.marks {
		markSVG(buf, b, m)
	}
	buf.WriteString(`</g>`)
	if len(ov.next) > 0 {
		// The variations' next moves: a letter on a disc, in the blue of
		// the variations' outline, unlike a review's own labels.
		buf.WriteString(`<g class="next" font-family="sans-serif" font-weight="bold" font-size="18" text-anchor="middle" dominant-baseline="central">`)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				l := ov.next[game.Pt(x, y)]
				if l == "" {
					continue
				}
				buf.WriteString(`<circle cx="` + coord(x) + `" cy="` + coord(y) + `" r="13" fill="#1a5fb4" fill-opacity=".85" stroke="#fff" stroke-width="1.5"/>`)
				buf.WriteString(`<text data-next="` + l + `" fill="#fff" x="` + coord(x) + `" y="` + coord(y) + `">` + l + `</text>`)
			}
		}
		buf.WriteString(`</g>`)
	}
	if len(votes) > 0 {
		buf.WriteString(`<g class="votes" font-family="sans-serif" font-weight="bold" font-size="16" text-anchor="middle" dominant-baseline="central">`)
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				n := votes[game.Pt(x, y)]
				if n == 0 {
					continue
				}
				buf.WriteString(`<circle cx="` + coord(x) + `" cy="` + coord(y) + `" r="13" fill="#1d5fa8" stroke="#fff" stroke-width="1.5"/>`)
				buf.WriteString(`<text fill="#fff" x="` + coord(x) + `" y="` + coord(y) + `">` + strconv.Itoa(n) + `</text>`)
			}
		}
		buf.WriteString(`</g>`)
	}
	// The points: transparent squares on top, what tests, screen readers
	// and clicks use. Their size and tabindex come from board.css and
	// boardui.js, to keep the page small.
	buf.WriteString(`<g class="points">`)
	var num [20]byte
	for y := 0; y < h; y++ {
		row := strconv.AppendInt(num[:0], int64(h-y), 10)
		rowS := string(row)
		for x := 0; x < w; x++ {
			p := game.Pt(x, y)
			col := colName(x)
			buf.WriteString(`<rect data-point="`)
			buf.WriteString(col)
			buf.WriteString(rowS)
			buf.WriteString(`"`)
			what := "empty"
			switch b.At(p) {
			case game.Black:
				buf.WriteString(` data-stone="black"`)
				what = "black stone"
			case game.White:
				buf.WriteString(` data-stone="white"`)
				what = "white stone"
			}
			if ov.variation[p] {
				buf.WriteString(` data-variation`)
				what += " (variation)"
			}
			if l := ov.next[p]; l != "" {
				what += ", next move " + l
			}
			buf.WriteString(` role="button" aria-label="`)
			buf.WriteString(col)
			buf.WriteString(rowS)
			buf.WriteString(", ")
			buf.WriteString(what)
			if what != "empty" && v.Dead[p] {
				buf.WriteString(", marked dead")
			}
			if n := votes[p]; n > 0 {
				buf.WriteString(", " + strconv.Itoa(n) + " vote")
				if n > 1 {
					buf.WriteString("s")
				}
				buf.WriteString(`" data-votes="` + strconv.Itoa(n))
			}
			buf.WriteString(`" x="`)
			buf.Write(strconv.AppendInt(num[:0], int64(margin+x*cell-cell/2), 10))
			buf.WriteString(`" y="`)
			buf.Write(strconv.AppendInt(num[:0], int64(margin+y*cell-cell/2), 10))
			buf.WriteString(`"/>`)
		}
	}
	buf.WriteString(`</g></svg>`)
}

// markSVG draws a review's mark on its point, in the colour that shows
// on what is there: white on black stones, black elsewhere.
func markSVG(buf *bytes.Buffer, b *game.Board, m game.Mark) {
	if !m.Point.In(b.Width(), b.Height()) {
		return
	}
	x, y := float64(margin+int(m.Point.X)*cell), float64(margin+int(m.Point.Y)*cell)
	col := markOnW
	if b.At(m.Point) == game.Black {
		col = markOnB
	}
	attrs := ` fill="none" stroke="` + col + `" stroke-width="2.5" data-mark="` + m.Shape.String() + `"`
	switch m.Shape {
	case game.Triangle:
		r := stoneR * .6
		buf.WriteString(`<path` + attrs + ` d="M` + ftoa(x) + " " + ftoa(y-r) + "L" + ftoa(x+r*.87) + " " + ftoa(y+r*.5) + "L" + ftoa(x-r*.87) + " " + ftoa(y+r*.5) + `Z"/>`)
	case game.Square:
		d := stoneR * .45
		buf.WriteString(`<rect` + attrs + ` x="` + ftoa(x-d) + `" y="` + ftoa(y-d) + `" width="` + ftoa(2*d) + `" height="` + ftoa(2*d) + `"/>`)
	case game.Circle:
		buf.WriteString(`<circle` + attrs + ` cx="` + ftoa(x) + `" cy="` + ftoa(y) + `" r="` + ftoa(stoneR*.5) + `"/>`)
	case game.Label:
		if b.At(m.Point) == game.Empty { // the label covers the grid under it
			buf.WriteString(`<circle fill="` + woodBoard + `" cx="` + ftoa(x) + `" cy="` + ftoa(y) + `" r="` + ftoa(stoneR*.7) + `"/>`)
		}
		var t bytes.Buffer
		template.HTMLEscape(&t, []byte(m.Text))
		buf.WriteString(`<text data-mark="label" fill="` + col + `" x="` + ftoa(x) + `" y="` + ftoa(y) + `" font-family="sans-serif" font-weight="bold" font-size="18" text-anchor="middle" dominant-baseline="central">` + t.String() + `</text>`)
	}
}

func ftoa(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// colName is column x's letter in the chat's coordinates (no I).
func colName(x int) string {
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	return letters[x : x+1]
}
