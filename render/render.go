// Package render draws go boards: a position as a PNG, a game as an
// animated GIF. It draws with github.com/fogleman/gg and the embedded Go
// fonts, and writes only to the io.Writer it is given.
//
// Drawing is fast because what never changes is cached per (size, theme,
// pixels): the empty board with its grid, star points and coordinates,
// its palette, the board already mapped onto the palette, and per point
// and colour the stone as it looks there. A frame is the paletted board
// with the stones' tiles copied on; the few points with markup (the last
// move, numbers, ko, votes, territory, dead stones) are drawn in colour
// as before and mapped onto the palette; the PNG encoder and the buffers
// are reused.
package render

import (
	"errors"
	"fmt"
	"github.com/gobotgo/gobot/tournament"
	"image"
	"image/color"
	"image/draw"
	"io"
	"math"
	"sync"
	"sync/atomic"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"

	"github.com/gobotgo/gobot/game"
)

// Errors for input that cannot be drawn.
var (
	ErrSize     = errors.New("render: board size out of range")
	ErrTooSmall = errors.New("render: image too small for this board")
	ErrOffBoard = errors.New("render: stone off the board")
)

// Options choose how a board looks.
type Options struct {
	Theme   string // "wood" (default) or "dark"
	Width   int    // image width in pixels (default 800)
	Numbers int    // number the last N moves
	// Votes marks points with their vote counts (a room-vote game's
	// open window); nil draws none.
	Votes map[game.Point]int
}

// Theme is a colour scheme.
type Theme struct {
	Name                     string
	Board, Line, Coord       color.RGBA
	BlackHi, BlackLo         color.RGBA // stone gradient, highlight to edge
	WhiteHi, WhiteLo         color.RGBA
	BlackRim, WhiteRim       color.RGBA
	MarkOnBlack, MarkOnWhite color.RGBA
	Ko                       color.RGBA
}

var themes = map[string]*Theme{
	"wood": {Name: "wood",
		Board: rgb(0xdc, 0xb3, 0x5c), Line: rgb(0x3a, 0x2a, 0x12), Coord: rgb(0x3a, 0x2a, 0x12),
		BlackHi: rgb(0x6e, 0x6e, 0x6e), BlackLo: rgb(0x08, 0x08, 0x08), WhiteHi: rgb(0xff, 0xff, 0xff), WhiteLo: rgb(0xc4, 0xc0, 0xb8),
		BlackRim: rgb(0x00, 0x00, 0x00), WhiteRim: rgb(0x6b, 0x5a, 0x3a),
		MarkOnBlack: rgb(0xff, 0xff, 0xff), MarkOnWhite: rgb(0x10, 0x10, 0x10), Ko: rgb(0xb0, 0x20, 0x20)},
	"dark": {Name: "dark",
		Board: rgb(0x23, 0x27, 0x2e), Line: rgb(0x8b, 0x95, 0xa3), Coord: rgb(0xd0, 0xd7, 0xde),
		BlackHi: rgb(0x3d, 0x44, 0x4d), BlackLo: rgb(0x05, 0x06, 0x08), WhiteHi: rgb(0xff, 0xff, 0xff), WhiteLo: rgb(0xb8, 0xc0, 0xca),
		BlackRim: rgb(0xa8, 0xb3, 0xc0), WhiteRim: rgb(0x40, 0x48, 0x52),
		MarkOnBlack: rgb(0xff, 0xd3, 0x4d), MarkOnWhite: rgb(0xc0, 0x30, 0x30), Ko: rgb(0xff, 0x6b, 0x6b)},
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

// ThemeNames lists the themes.
func ThemeNames() []string { return []string{"wood", "dark"} }

func theme(name string) (*Theme, error) {
	if name == "" {
		name = "wood"
	}
	t, ok := themes[name]
	if !ok {
		return nil, fmt.Errorf("render: unknown theme %q (choose wood or dark)", name)
	}
	return t, nil
}

// layout is the geometry of a board image.
type layout struct {
	w, h       int     // board points
	px, py     int     // image size
	cell       float64 // distance between lines
	x0, y0     float64 // centre of the top-left point
	stoneR     float64
	fontPoints float64
}

func newLayout(w, h, width int) (layout, error) {
	if w < game.MinSize || h < game.MinSize || w > game.MaxSize || h > game.MaxSize {
		return layout{}, fmt.Errorf("%w: %dx%d", ErrSize, w, h)
	}
	if width == 0 {
		width = 800
	}
	cell := math.Floor(float64(width) / float64(w+1))
	if cell < 10 {
		return layout{}, fmt.Errorf("%w: %d px leaves %.0f px per point; use at least %d px", ErrTooSmall, width, cell, 10*(w+1))
	}
	l := layout{w: w, h: h, cell: cell}
	l.px = int(cell * float64(w+1))
	l.py = int(cell * float64(h+1))
	l.x0, l.y0 = cell, cell
	l.stoneR = cell * 0.48
	l.fontPoints = math.Max(math.Round(cell*0.34), 8)
	return l, nil
}

func (l layout) center(p game.Point) (float64, float64) {
	return l.x0 + float64(p.X)*l.cell, l.y0 + float64(p.Y)*l.cell
}

// StarPoints returns the star points (hoshi) of a w×h board, as the
// board images and the web board draw them: the usual ones on 9, 13 and
// 19 lines; on other sizes the 4-4 points (3-3 below 13 lines), the side
// points on boards of 15 lines or more, and the centre of boards with
// odd sides.
func StarPoints(w, h int) []game.Point {
	edge := func(n int) int {
		switch {
		case n >= 13:
			return 3
		case n >= 7:
			return 2
		}
		return -1
	}
	odd := w%2 == 1 && h%2 == 1
	ex, ey := edge(w), edge(h)
	if ex < 0 || ey < 0 {
		if odd && w >= 5 && h >= 5 {
			return []game.Point{game.Pt(w/2, h/2)}
		}
		return nil
	}
	xs := []int{ex, w - 1 - ex}
	ys := []int{ey, h - 1 - ey}
	if w%2 == 1 && w >= 15 && h >= 15 {
		xs = append(xs, w/2)
	}
	if h%2 == 1 && w >= 15 && h >= 15 {
		ys = append(ys, h/2)
	}
	var pts []game.Point
	centre := false
	for _, x := range xs {
		for _, y := range ys {
			pts = append(pts, game.Pt(x, y))
			centre = centre || (x == w/2 && y == h/2)
		}
	}
	if odd && !centre {
		pts = append(pts, game.Pt(w/2, h/2))
	}
	return pts
}

// The font is parsed once and shared: an opentype.Font is safe for
// concurrent use. A font.Face is not (it owns a glyph buffer), so every
// drawing makes its own faces through a faceSet.
var (
	fontOnce sync.Once
	fontErr  error
	boldFont *opentype.Font
)

// faceSet hands out faces by size for one drawing; it must not be shared
// between goroutines.
type faceSet map[float64]font.Face

func (fs faceSet) face(points float64) (font.Face, error) {
	if f, ok := fs[points]; ok {
		return f, nil
	}
	fontOnce.Do(func() { boldFont, fontErr = opentype.Parse(gobold.TTF) })
	if fontErr != nil {
		return nil, fontErr
	}
	f, err := opentype.NewFace(boldFont, &opentype.FaceOptions{Size: points, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	fs[points] = f
	return f, nil
}

// background draws the empty board: wood, grid, star points, coordinates
// on all four sides.
func background(l layout, t *Theme) (*image.RGBA, error) {
	dc := gg.NewContext(l.px, l.py)
	dc.SetColor(t.Board)
	dc.Clear()
	lw := math.Max(1, l.cell/28)
	dc.SetColor(t.Line)
	dc.SetLineWidth(lw)
	dc.SetLineCapSquare()
	right, bottom := l.x0+float64(l.w-1)*l.cell, l.y0+float64(l.h-1)*l.cell
	for x := 0; x < l.w; x++ {
		fx := math.Round(l.x0+float64(x)*l.cell) + 0.5
		dc.DrawLine(fx, l.y0, fx, bottom)
	}
	for y := 0; y < l.h; y++ {
		fy := math.Round(l.y0+float64(y)*l.cell) + 0.5
		dc.DrawLine(l.x0, fy, right, fy)
	}
	dc.Stroke()
	dc.SetLineWidth(lw * 2)
	dc.DrawRectangle(math.Round(l.x0)+0.5, math.Round(l.y0)+0.5, right-l.x0, bottom-l.y0)
	dc.Stroke()
	for _, p := range StarPoints(l.w, l.h) {
		cx, cy := l.center(p)
		dc.DrawCircle(math.Round(cx)+0.5, math.Round(cy)+0.5, math.Max(2, l.cell*0.1))
		dc.Fill()
	}
	f, err := faceSet{}.face(l.fontPoints)
	if err != nil {
		return nil, err
	}
	dc.SetFontFace(f)
	dc.SetColor(t.Coord)
	const letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
	off := l.cell * 0.76
	for x := 0; x < l.w; x++ {
		cx := l.x0 + float64(x)*l.cell
		s := string(letters[x])
		dc.DrawStringAnchored(s, cx, l.y0-off, 0.5, 0.35)
		dc.DrawStringAnchored(s, cx, bottom+off, 0.5, 0.35)
	}
	for y := 0; y < l.h; y++ {
		cy := l.y0 + float64(y)*l.cell
		s := fmt.Sprint(l.h - y)
		dc.DrawStringAnchored(s, l.x0-off, cy, 0.5, 0.35)
		dc.DrawStringAnchored(s, right+off, cy, 0.5, 0.35)
	}
	return dc.Image().(*image.RGBA), nil
}

// sprite draws one stone with a soft highlight, on a transparent square.
func sprite(t *Theme, c game.Color, r float64) *image.RGBA {
	size := int(math.Ceil(2*r)) + 2
	dc := gg.NewContext(size, size)
	cx, cy := float64(size)/2, float64(size)/2
	hi, lo, rim := t.BlackHi, t.BlackLo, t.BlackRim
	if c == game.White {
		hi, lo, rim = t.WhiteHi, t.WhiteLo, t.WhiteRim
	}
	grad := gg.NewRadialGradient(cx-r*0.35, cy-r*0.4, r*0.05, cx, cy, r)
	grad.AddColorStop(0, hi)
	grad.AddColorStop(1, lo)
	dc.DrawCircle(cx, cy, r-0.5)
	dc.SetFillStyle(grad)
	dc.Fill()
	dc.DrawCircle(cx, cy, r-0.5)
	dc.SetColor(rim)
	dc.SetLineWidth(math.Max(1, r/14))
	dc.Stroke()
	return dc.Image().(*image.RGBA)
}

// stoneImage is a sprite with, per row, the run of fully opaque pixels:
// a stone is convex, so each row is transparent, anti-aliased edge, opaque
// run, edge, transparent. Drawing copies the run and blends only the edges,
// several times faster than draw.Over on the whole square.
type stoneImage struct {
	*image.RGBA
	runs [][2]int // per row, [lo, hi) of opaque pixels (lo == hi: none)
}

func newStoneImage(img *image.RGBA) *stoneImage {
	s := &stoneImage{RGBA: img, runs: make([][2]int, img.Bounds().Dy())}
	w := img.Bounds().Dx()
	for y := range s.runs {
		row := img.Pix[y*img.Stride : y*img.Stride+4*w]
		lo, hi := 0, 0
		for x := 0; x < w; x++ {
			if row[4*x+3] == 0xff {
				if hi == 0 {
					lo = x
				}
				hi = x + 1
			}
		}
		for x := lo; x < hi; x++ { // a hole would break the fast path
			if row[4*x+3] != 0xff {
				lo, hi = 0, 0
				break
			}
		}
		s.runs[y] = [2]int{lo, hi}
	}
	return s
}

// drawOn composes s over dst with its top-left corner at at; it is
// draw.Draw(dst, ..., s, ..., draw.Over) for an opaque dst.
func (s *stoneImage) drawOn(dst *image.RGBA, at image.Point) {
	r := image.Rectangle{Min: at, Max: at.Add(s.Bounds().Size())}
	if !r.In(dst.Bounds()) {
		draw.Draw(dst, r, s.RGBA, image.Point{}, draw.Over)
		return
	}
	w := s.Bounds().Dx()
	for y, run := range s.runs {
		src := s.Pix[y*s.Stride : y*s.Stride+4*w]
		off := dst.PixOffset(at.X, at.Y+y)
		out := dst.Pix[off : off+4*w]
		copy(out[4*run[0]:4*run[1]], src[4*run[0]:4*run[1]])
		for x := 0; x < w; x++ {
			if x == run[0] && run[1] > run[0] {
				x = run[1] - 1
				continue
			}
			a := uint32(src[4*x+3])
			if a == 0 {
				continue
			}
			k := 255 - a
			for c := 0; c < 3; c++ {
				out[4*x+c] = uint8(uint32(src[4*x+c]) + (uint32(out[4*x+c])*k+127)/255)
			}
			out[4*x+3] = 0xff
		}
	}
}

type bgKey struct {
	w, h, width int
	theme       string
}

type spriteKey struct {
	theme string
	c     game.Color
	r     float64
}

// memo is a small concurrency-safe cache that forgets everything when it
// grows past limit entries (sizes and themes in use are few).
type memo[K comparable, V any] struct {
	mu    sync.Mutex
	m     map[K]V
	limit int
}

func (c *memo[K, V]) get(k K, build func() (V, error)) (V, error) {
	c.mu.Lock()
	v, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= c.limit {
		c.m = map[K]V{}
	}
	c.m[k] = v
	c.mu.Unlock()
	return v, nil
}

// cache holds what never changes, shared by all goroutines.
type cache struct {
	boards  memo[bgKey, *board]
	sprites memo[spriteKey, *stoneImage]
}

// A board at 800 px keeps some 3.2 MB (the background twice, the palette)
// plus up to 1.2 MB of stone tiles; sizes, themes and widths in use are few.
var shared = &cache{boards: memo[bgKey, *board]{limit: 24}, sprites: memo[spriteKey, *stoneImage]{limit: 256}}

func (c *cache) board(l layout, t *Theme) (*board, error) {
	return c.boards.get(bgKey{l.w, l.h, l.px, t.Name}, func() (*board, error) { return newBoard(l, t) })
}

func (c *cache) sprite(t *Theme, col game.Color, r float64) *stoneImage {
	s, _ := c.sprites.get(spriteKey{t.Name, col, r}, func() (*stoneImage, error) { return newStoneImage(sprite(t, col, r)), nil })
	return s
}

// board is what never changes for one (size, theme, pixels): the empty
// board in colour and mapped onto its palette, and per point and colour
// a tile, the stone as it looks on that point, mapped onto the palette,
// made the first time a stone is drawn there.
type board struct {
	l      layout
	t      *Theme
	bg     *image.RGBA
	pal    *palette
	pbg    []uint8                   // bg's palette indexes, stride l.px
	sprite [2]*stoneImage            // Black, White
	tiles  [2][]atomic.Pointer[tile] // per colour, per point (reading order)
}

func newBoard(l layout, t *Theme) (*board, error) {
	bg, err := background(l, t)
	if err != nil {
		return nil, err
	}
	b := &board{l: l, t: t, bg: bg}
	b.sprite = [2]*stoneImage{shared.sprite(t, game.Black, l.stoneR), shared.sprite(t, game.White, l.stoneR)}
	b.pal = buildPalette(l, t, bg)
	b.pbg = b.pal.quantize(bg).Pix
	for i := range b.tiles {
		b.tiles[i] = make([]atomic.Pointer[tile], l.w*l.h)
	}
	return b, nil
}

// spriteAt is where the sprite of a stone on p goes: the rectangle it
// covers in the image.
func (b *board) spriteAt(p game.Point) image.Rectangle {
	size := b.sprite[0].Bounds().Size()
	cx, cy := b.l.center(p)
	min := image.Pt(int(math.Round(cx))-size.X/2, int(math.Round(cy))-size.Y/2)
	return image.Rectangle{Min: min, Max: min.Add(size)}
}

// tile is a stone drawn over the background at one point, as palette
// indexes: per row, the run of pixels the stone covers (it is round, so
// one run a row); the pixels outside the runs are the background's.
type tile struct {
	r    image.Rectangle // in the image
	pix  []uint8         // r.Dx() × r.Dy()
	runs [][2]int        // per row of r, [lo, hi) in r's columns
}

// tile returns the tile of a c stone on p, making it the first time.
// Two goroutines may make the same tile at once; both make the same.
func (b *board) tile(c game.Color, p game.Point) *tile {
	slot := &b.tiles[c-1][int(p.Y)*b.l.w+int(p.X)]
	if t := slot.Load(); t != nil {
		return t
	}
	s := b.sprite[c-1]
	at := b.spriteAt(p)
	r := at.Intersect(b.bg.Bounds())
	img := image.NewRGBA(r)
	draw.Draw(img, r, b.bg, r.Min, draw.Src)
	s.drawOn(img, at.Min)
	t := &tile{r: r, pix: b.pal.quantize(img).Pix, runs: make([][2]int, r.Dy())}
	sw := s.Bounds().Dx()
	for y := range t.runs {
		row := s.Pix[(r.Min.Y-at.Min.Y+y)*s.Stride:]
		lo, hi := r.Dx(), 0
		for x := 0; x < r.Dx(); x++ {
			if sx := r.Min.X - at.Min.X + x; sx < sw && row[4*sx+3] != 0 {
				lo, hi = min(lo, x), x+1
			}
		}
		if hi <= lo {
			lo, hi = 0, 0
		}
		t.runs[y] = [2]int{lo, hi}
	}
	slot.Store(t)
	return t
}

// drawTile copies t into pix, an image of the board's size.
func (b *board) drawTile(pix []uint8, t *tile) {
	w := t.r.Dx()
	for y, run := range t.runs {
		off := (t.r.Min.Y+y)*b.l.px + t.r.Min.X
		copy(pix[off+run[0]:off+run[1]], t.pix[y*w+run[0]:y*w+run[1]])
	}
}

// Renderer draws boards for the chat layer.
type Renderer struct {
	// Width is the image width in pixels (default 800).
	Width int
	// GIFWidth is the width of replay frames (default 480).
	GIFWidth int
}

// Board writes g's current position as a PNG.
func (r *Renderer) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	return PNG(w, g, Options{Theme: theme, Width: r.Width, Numbers: numbers})
}

// Ladder writes a ladder's first rows rungs (0: DefaultTableRows) as a
// PNG table (LadderPNG), titled title.
func (r *Renderer) Ladder(w io.Writer, l *tournament.Ladder, name func(tournament.PlayerID) string, rows int, title, theme string) (int, int, error) {
	return LadderPNG(w, l, name, TableOptions{Theme: theme, Title: title, Rows: rows})
}

// Standings writes a tournament's standings after round after (from 0)
// as a PNG table (StandingsPNG), titled title.
func (r *Renderer) Standings(w io.Writer, t *tournament.Tournament, after int, title, theme string) (int, int, error) {
	return StandingsPNG(w, t, after, TableOptions{Theme: theme, Title: title})
}

// BoardVotes writes g's current position as a PNG with each voted point
// marked by its number of votes.
func (r *Renderer) BoardVotes(w io.Writer, g *game.Game, theme string, votes map[game.Point]int) (int, int, error) {
	return PNG(w, g, Options{Theme: theme, Width: r.Width, Votes: votes})
}

// Replay writes g as an animated GIF.
func (r *Renderer) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	width := r.GIFWidth
	if width == 0 {
		width = 480
	}
	return GIF(w, g, Options{Theme: theme, Width: width})
}
