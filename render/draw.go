package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"

	"image/draw"
	"image/gif"
	"image/png"
	"io"
	"math"
	"sync"

	"github.com/fogleman/gg"

	"github.com/gobotgo/gobot/game"
)

// View is what one image shows.
type View struct {
	Board *game.Board
	Last  game.Point // the last move (not shown if off the board or a pass)
	// Numbers maps points to move numbers to print on their stones.
	Numbers map[game.Point]int
	Ko      *game.Point // a point that may not be played because of ko
	// Dead marks stones shown as dead; Owner (reading order, may be nil)
	// marks territory with small squares.
	Dead  map[game.Point]bool
	Owner []game.Color
	// Votes maps empty points to how many votes they have in a room-vote
	// game's open window: each gets a small red badge with the count.
	Votes map[game.Point]int
}

// ViewOf returns what to draw for g now: last move, the last n moves
// numbered, the ko point, and in the scoring phase (or after a counted
// end) the dead stones and territory.
func ViewOf(g *game.Game, n int) View {
	v := View{Board: g.Board(), Last: game.Pass}
	if m, ok := g.LastMove(); ok {
		v.Last = m.Point
	}
	if p, ok := g.KoPoint(); ok && g.Phase() == game.Playing {
		v.Ko = &p
	}
	if n > 0 {
		moves := g.Moves()
		v.Numbers = map[game.Point]int{}
		for i := max(0, len(moves)-n); i < len(moves); i++ {
			p := moves[i].Point
			if !p.IsPass() && v.Board.At(p) == moves[i].Color {
				v.Numbers[p] = g.Number(i)
			}
		}
	}
	res, over := g.Result()
	if g.Phase() == game.Scoring || (over && res.Reason == game.ByScore) {
		v.Dead = map[game.Point]bool{}
		for _, p := range g.DeadStones() {
			v.Dead[p] = true
		}
		v.Owner = g.Score().Owner
	}
	return v
}

// PNG writes g's current position as a PNG and returns the image size.
func PNG(w io.Writer, g *game.Game, o Options) (int, int, error) {
	v := ViewOf(g, o.Numbers)
	v.Votes = o.Votes
	return ViewPNG(w, v, o)
}

// ViewPNG writes v as a PNG.
func ViewPNG(w io.Writer, v View, o Options) (int, int, error) {
	b, err := boardFor(v, o)
	if err != nil {
		return 0, 0, err
	}
	r := b.bg.Bounds()
	pix := getBytes(&pixPool, len(b.pbg))
	defer pixPool.Put(pix)
	img := &image.Paletted{Pix: *pix, Stride: r.Dx(), Rect: r, Palette: b.pal.colors}
	if err := b.draw(img.Pix, v); err != nil {
		return 0, 0, err
	}
	return r.Dx(), r.Dy(), pngEncoder.Encode(w, img)
}

// Draw renders v into a paletted image.
func Draw(v View, o Options) (*image.Paletted, error) {
	b, err := boardFor(v, o)
	if err != nil {
		return nil, err
	}
	img := image.NewPaletted(b.bg.Bounds(), b.pal.colors)
	if err := b.draw(img.Pix, v); err != nil {
		return nil, err
	}
	return img, nil
}

// boardFor returns the cached board v is drawn on.
func boardFor(v View, o Options) (*board, error) {
	if v.Board == nil {
		return nil, fmt.Errorf("%w: no board", ErrSize)
	}
	t, err := theme(o.Theme)
	if err != nil {
		return nil, err
	}
	l, err := newLayout(v.Board.Width(), v.Board.Height(), o.Width)
	if err != nil {
		return nil, err
	}
	return shared.board(l, t)
}

// The encoder keeps its compressor between images, and the buffers an
// image is drawn in are reused: drawing allocates next to nothing.
var (
	pngEncoder = png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &encoderPool{}}
	pixPool    sync.Pool // *[]uint8: paletted images being drawn and encoded
	rgbaPool   sync.Pool // *[]uint8: colour scratch for points with markup
)

type encoderPool struct{ p sync.Pool }

func (p *encoderPool) Get() *png.EncoderBuffer {
	b, _ := p.p.Get().(*png.EncoderBuffer)
	return b
}
func (p *encoderPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }

// getBytes returns a buffer of n bytes from pool (not cleared).
func getBytes(pool *sync.Pool, n int) *[]uint8 {
	b, _ := pool.Get().(*[]uint8)
	if b == nil || cap(*b) < n {
		s := make([]uint8, n)
		return &s
	}
	*b = (*b)[:n]
	return b
}

// draw draws v into pix, palette indexes of the board's image. Stones
// are tiles copied onto the empty board; a point with markup (a number,
// the last-move ring, ko, a vote, territory, a dead stone) is drawn in
// colour as before, from the background and the stones that reach into
// it, with its markup on top, and then mapped onto the palette.
func (b *board) draw(pix []uint8, v View) error {
	bd := v.Board
	w, h := bd.Width(), bd.Height()
	for p := range v.Numbers {
		if !p.In(w, h) {
			return fmt.Errorf("%w: numbered point %v", ErrOffBoard, p)
		}
	}
	for p := range v.Votes {
		if !p.In(w, h) {
			return fmt.Errorf("%w: voted point %v", ErrOffBoard, p)
		}
	}
	copy(pix, b.pbg)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			p := game.Pt(x, y)
			if c := bd.At(p); c != game.Empty && !v.Dead[p] {
				b.drawTile(pix, b.tile(c, p))
			}
		}
	}
	marked := make([]bool, w*h)
	any := false
	mark := func(p game.Point) {
		if p.In(w, h) {
			marked[int(p.Y)*w+int(p.X)] = true
			any = true
		}
	}
	for p := range v.Dead {
		if bd.At(p) != game.Empty {
			mark(p)
		}
	}
	for i, c := range v.Owner {
		if i < w*h && c != game.Empty && bd.At(game.Pt(i%w, i/w)) != c {
			mark(game.Pt(i%w, i/w))
		}
	}
	if v.Ko != nil {
		mark(*v.Ko)
	}
	for p := range v.Numbers {
		mark(p)
	}
	for p, n := range v.Votes {
		if n > 0 {
			mark(p)
		}
	}
	if v.Last.In(w, h) && bd.At(v.Last) != game.Empty {
		mark(v.Last)
	}
	if !any {
		return nil
	}
	buf := getBytes(&rgbaPool, len(b.bg.Pix))
	defer rgbaPool.Put(buf)
	img := &image.RGBA{Pix: *buf, Stride: b.bg.Stride, Rect: b.bg.Rect}
	var rects []image.Rectangle
	fade := image.NewUniform(color.Alpha{0x70})
	for i, m := range marked {
		if !m {
			continue
		}
		p := game.Pt(i%w, i/w)
		cx, cy := b.l.center(p)
		half := int(math.Ceil(b.l.cell/2)) + 2
		r := image.Rect(int(cx)-half, int(cy)-half, int(cx)+half+1, int(cy)+half+1).Union(b.spriteAt(p)).Intersect(img.Rect)
		rects = append(rects, r)
		draw.Draw(img, r, b.bg, r.Min, draw.Src)
		sub := img.SubImage(r).(*image.RGBA)
		for y := int(p.Y) - 1; y <= int(p.Y)+1; y++ {
			for x := int(p.X) - 1; x <= int(p.X)+1; x++ {
				q := game.Pt(x, y)
				if !q.In(w, h) || bd.At(q) == game.Empty {
					continue
				}
				at := b.spriteAt(q)
				if !at.Overlaps(r) {
					continue
				}
				s := b.sprite[bd.At(q)-1]
				if v.Dead[q] {
					draw.DrawMask(sub, at, s, image.Point{}, fade, image.Point{}, draw.Over)
				} else {
					s.drawOn(sub, at.Min)
				}
			}
		}
	}
	if err := compose(img, b.l, b.t, v); err != nil {
		return err
	}
	for _, r := range rects {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			src := img.Pix[img.PixOffset(r.Min.X, y):img.PixOffset(r.Max.X, y)]
			dst := pix[y*b.l.px+r.Min.X:]
			for x := 0; x < r.Dx(); x++ {
				dst[x] = b.pal.index(src[4*x], src[4*x+1], src[4*x+2])
			}
		}
	}
	return nil
}

// compose draws the markup of v onto img, whose points with markup hold
// the background and the stones.
func compose(img *image.RGBA, l layout, t *Theme, v View) error {
	b := v.Board
	var dc *gg.Context // created only when markup needs vector drawing
	ctx := func() *gg.Context {
		if dc == nil {
			dc = gg.NewContextForRGBA(img)
		}
		return dc
	}
	if v.Owner != nil {
		dc := ctx()
		half := l.cell * 0.16
		for i, c := range v.Owner {
			if c == game.Empty || i >= b.Width()*b.Height() {
				continue
			}
			p := game.Pt(i%b.Width(), i/b.Width())
			if b.At(p) == c {
				continue
			}
			cx, cy := l.center(p)
			col, edge := t.BlackLo, t.BlackRim
			if c == game.White {
				col, edge = t.WhiteHi, t.WhiteRim
			}
			dc.DrawRectangle(cx-half, cy-half, 2*half, 2*half)
			dc.SetColor(col)
			dc.FillPreserve()
			dc.SetColor(edge)
			dc.SetLineWidth(1)
			dc.Stroke()
		}
		// A dead stone is faded and carries its point's territory square;
		// one whose point belongs to nobody (seki, dame) is crossed instead.
		for p := range v.Dead {
			c := b.At(p)
			if c == game.Empty {
				continue
			}
			if i := int(p.Y)*b.Width() + int(p.X); p.In(b.Width(), b.Height()) && i < len(v.Owner) && v.Owner[i] == c.Opponent() {
				continue
			}
			cx, cy := l.center(p)
			d := l.stoneR * 0.45
			dc.SetColor(t.Ko)
			dc.SetLineWidth(math.Max(2, l.cell/12))
			dc.DrawLine(cx-d, cy-d, cx+d, cy+d)
			dc.DrawLine(cx-d, cy+d, cx+d, cy-d)
			dc.Stroke()
		}
	}
	if v.Ko != nil && v.Ko.In(b.Width(), b.Height()) {
		dc := ctx()
		cx, cy := l.center(*v.Ko)
		half := l.cell * 0.22
		dc.SetColor(t.Ko)
		dc.SetLineWidth(math.Max(2, l.cell/14))
		dc.DrawRectangle(cx-half, cy-half, 2*half, 2*half)
		dc.Stroke()
	}
	markColor := func(p game.Point) color.RGBA {
		if b.At(p) == game.Black {
			return t.MarkOnBlack
		}
		return t.MarkOnWhite
	}
	if len(v.Numbers) > 0 {
		dc := ctx()
		faces := faceSet{}
		for p, n := range v.Numbers {
			if !p.In(b.Width(), b.Height()) {
				return fmt.Errorf("%w: numbered point %v", ErrOffBoard, p)
			}
			pts := l.cell * 0.42
			if n >= 100 {
				pts = l.cell * 0.34
			}
			f, err := faces.face(math.Round(pts))
			if err != nil {
				return err
			}
			dc.SetFontFace(f)
			cx, cy := l.center(p)
			dc.SetColor(markColor(p))
			dc.DrawStringAnchored(fmt.Sprint(n), cx, cy, 0.5, 0.35)
		}
	}
	if len(v.Votes) > 0 {
		if err := drawVotes(ctx(), l, t, v); err != nil {
			return err
		}
	}
	if v.Last.In(b.Width(), b.Height()) && b.At(v.Last) != game.Empty && v.Numbers[v.Last] == 0 {
		dc := ctx()
		cx, cy := l.center(v.Last)
		dc.SetColor(markColor(v.Last))
		dc.SetLineWidth(math.Max(2, l.cell/14))
		dc.DrawCircle(cx, cy, l.stoneR*0.45)
		dc.Stroke()
	}
	return nil
}

// drawVotes marks each voted point with a badge holding its count, in
// the ko mark's colour with white digits, smaller than a stone so the
// grid stays visible.
func drawVotes(dc *gg.Context, l layout, t *Theme, v View) error {
	b := v.Board
	faces := faceSet{}
	for p, n := range v.Votes {
		if !p.In(b.Width(), b.Height()) {
			return fmt.Errorf("%w: voted point %v", ErrOffBoard, p)
		}
		if n <= 0 {
			continue
		}
		cx, cy := l.center(p)
		dc.SetColor(t.Ko)
		dc.DrawCircle(cx, cy, l.stoneR*0.6)
		dc.Fill()
		pts := l.cell * 0.36
		if n >= 10 {
			pts = l.cell * 0.28
		}
		f, err := faces.face(math.Round(pts))
		if err != nil {
			return err
		}
		dc.SetFontFace(f)
		dc.SetColor(t.WhiteHi)
		dc.DrawStringAnchored(fmt.Sprint(n), cx, cy, 0.5, 0.35)
	}
	return nil
}

// GIF writes an animated replay of g: one frame per move from the start,
// the last held for three seconds. Long games skip frames so that at most
// 150 are drawn.
func GIF(w io.Writer, g *game.Game, o Options) (int, int, error) {
	moves := g.Moves()
	const maxFrames = 150
	step := (len(moves) + maxFrames - 1) / maxFrames
	if step < 1 {
		step = 1
	}
	rec := g.Record()
	resumes := rec.Resumes
	rec.Moves, rec.Resumes, rec.Dead, rec.Accepted, rec.Ended = nil, nil, nil, nil, nil
	replay, err := game.Replay(rec)
	if err != nil {
		return 0, 0, err
	}
	anim := &gif.GIF{}
	var prev, spare *image.Paletted // the last frame in full, a free one
	var pal color.Palette           // the board's palette plus a transparent entry
	// Each frame after the first carries only the rectangle that changed,
	// drawn over the previous frame, with the pixels that did not change
	// transparent: a move changes a few stones, and runs of the transparent
	// index compress to almost nothing. The first frame is kept whole;
	// after it, two full frames take turns.
	add := func(v View, delay int) error {
		b, err := boardFor(v, o)
		if err != nil {
			return err
		}
		if pal == nil {
			pal = append(append(color.Palette{}, b.pal.colors...), color.RGBA{})
		}
		img := spare
		if img == nil {
			img = image.NewPaletted(b.bg.Rect, pal)
		}
		if err := b.draw(img.Pix, v); err != nil {
			return err
		}
		frame := img
		if prev != nil {
			frame = delta(prev, img, uint8(len(pal)-1))
			if len(anim.Image) > 1 { // prev is not the first frame
				spare = prev
			}
		}
		prev = img
		anim.Image = append(anim.Image, frame)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
		return nil
	}
	if err := add(View{Board: replay.Board(), Last: game.Pass}, 60); err != nil {
		return 0, 0, err
	}
	for i, m := range moves {
		for len(resumes) > 0 && resumes[0] <= i {
			replay.Resume()
			resumes = resumes[1:]
		}
		if err := replay.PlayMove(m); err != nil {
			return 0, 0, fmt.Errorf("render: replaying move %d: %w", i+1, err)
		}
		if (i+1)%step != 0 && i != len(moves)-1 {
			continue
		}
		v := View{Board: replay.Board(), Last: m.Point}
		delay := 50
		if i == len(moves)-1 {
			v = ViewOf(g, 0)
			delay = 300
		}
		if err := add(v, delay); err != nil {
			return 0, 0, err
		}
	}
	b := anim.Image[0].Bounds()
	if len(moves) == 0 {
		anim.Delay[0] = 300
	}
	anim.Config = image.Config{ColorModel: pal, Width: b.Dx(), Height: b.Dy()}
	return b.Dx(), b.Dy(), gif.EncodeAll(w, anim)
}

// delta returns the part of b that differs from a (same bounds and
// palette): the smallest rectangle holding every changed pixel (at least
// one pixel), with unchanged pixels set to the transparent index.
func delta(a, b *image.Paletted, transparent uint8) *image.Paletted {
	r := b.Bounds()
	w, h := r.Dx(), r.Dy()
	minX, minY, maxX, maxY := w, h, -1, -1
	for y := 0; y < h; y++ {
		ra, rb := a.Pix[y*a.Stride:y*a.Stride+w], b.Pix[y*b.Stride:y*b.Stride+w]
		if bytes.Equal(ra, rb) {
			continue
		}
		minY, maxY = min(minY, y), y
		for x := 0; x < minX; x++ {
			if ra[x] != rb[x] {
				minX = x
				break
			}
		}
		for x := w - 1; x > maxX; x-- {
			if ra[x] != rb[x] {
				maxX = x
				break
			}
		}
	}
	if maxX < minX {
		minX, minY, maxX, maxY = 0, 0, 0, 0
	}
	out := image.NewPaletted(image.Rect(minX, minY, maxX+1, maxY+1).Add(r.Min), b.Palette)
	for y := minY; y <= maxY; y++ {
		ra, rb := a.Pix[y*a.Stride+minX:y*a.Stride+maxX+1], b.Pix[y*b.Stride+minX:y*b.Stride+maxX+1]
		ro := out.Pix[(y-minY)*out.Stride:]
		for x, c := range rb {
			if ra[x] == c {
				c = transparent
			}
			ro[x] = c
		}
	}
	return out
}
