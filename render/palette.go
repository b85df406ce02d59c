package render

import (
	"image"
	"image/color"
	"image/draw"
	"sort"
	"sync/atomic"

	"github.com/gobotgo/gobot/game"
)

// palette maps the colours of one (board size, theme, pixels) onto at
// most 256 entries: the most frequent colours of the cached background and
// stone sprites, plus every theme colour, with a lookup table from 15-bit
// RGB to the nearest entry.
type palette struct {
	colors color.Palette
	lut    [1 << 15]atomic.Uint32 // 1 + the index of a bucket's colour; 0: not looked up yet
}

func key15(r, g, b uint8) int { return int(r>>3)<<10 | int(g>>3)<<5 | int(b>>3) }

func buildPalette(l layout, t *Theme, bg *image.RGBA) *palette {
	type bucket struct {
		n       int
		r, g, b int
	}
	hist := make([]bucket, 1<<15)
	var keys []int // the buckets in use
	addImg := func(img *image.RGBA, weight int) {
		for i := 0; i+3 < len(img.Pix); i += 4 {
			r, g, b := img.Pix[i], img.Pix[i+1], img.Pix[i+2]
			k := key15(r, g, b)
			bk := &hist[k]
			if bk.n == 0 {
				keys = append(keys, k)
			}
			bk.n += weight
			bk.r += int(r) * weight
			bk.g += int(g) * weight
			bk.b += int(b) * weight
		}
	}
	addImg(bg, 1)
	// Stones (also faded, for dead stones) over the board colour.
	for _, c := range []game.Color{game.Black, game.White} {
		s := shared.sprite(t, c, l.stoneR)
		for _, alpha := range []uint8{0xff, 0x70} {
			over := image.NewRGBA(s.Bounds())
			draw.Draw(over, over.Bounds(), image.NewUniform(t.Board), image.Point{}, draw.Src)
			draw.DrawMask(over, over.Bounds(), s, image.Point{}, image.NewUniform(color.Alpha{alpha}), image.Point{}, draw.Over)
			addImg(over, 40)
		}
	}
	fixed := []color.RGBA{t.Board, t.Line, t.Coord, t.BlackHi, t.BlackLo, t.WhiteHi, t.WhiteLo, t.BlackRim, t.WhiteRim, t.MarkOnBlack, t.MarkOnWhite, t.Ko}
	sort.Slice(keys, func(i, j int) bool {
		if hist[keys[i]].n != hist[keys[j]].n {
			return hist[keys[i]].n > hist[keys[j]].n
		}
		return keys[i] < keys[j]
	})
	p := &palette{}
	seen := map[color.RGBA]bool{}
	for _, c := range fixed {
		if !seen[c] {
			seen[c] = true
			p.colors = append(p.colors, c)
		}
	}
	for _, k := range keys {
		if len(p.colors) == 255 { // one index stays free for GIF transparency
			break
		}
		bk := hist[k]
		c := color.RGBA{uint8(bk.r / bk.n), uint8(bk.g / bk.n), uint8(bk.b / bk.n), 0xff}
		if !seen[c] {
			seen[c] = true
			p.colors = append(p.colors, c)
		}
	}
	return p
}

// index returns the palette colour nearest r, g, b: the one nearest the
// centre of its 15-bit bucket, looked up the first time a bucket is asked
// for (a board's images use a few thousand of the 32,768 buckets; filling
// them all took some 20 ms a board).
func (p *palette) index(r, g, b uint8) uint8 {
	k := key15(r, g, b)
	if v := p.lut[k].Load(); v != 0 {
		return uint8(v - 1)
	}
	return p.nearest(k)
}

// nearest finds and records the entry of bucket k: the palette colour
// nearest its centre by a weighted distance, the first of equals.
func (p *palette) nearest(k int) uint8 {
	r, g, b := k>>10<<3|4, k>>5&31<<3|4, k&31<<3|4
	best, bestD := 0, 1<<30
	for i, pc := range p.colors {
		c := pc.(color.RGBA)
		dr, dg, db := int(c.R)-r, int(c.G)-g, int(c.B)-b
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	p.lut[k].Store(uint32(best) + 1) // another goroutine may store the same
	return uint8(best)
}

// quantize maps an opaque RGBA image onto the palette.
func (p *palette) quantize(img *image.RGBA) *image.Paletted {
	out := image.NewPaletted(img.Bounds(), p.colors)
	pix := img.Pix
	for i, j := 0, 0; i+3 < len(pix); i, j = i+4, j+1 {
		out.Pix[j] = p.index(pix[i], pix[i+1], pix[i+2])
	}
	return out
}
