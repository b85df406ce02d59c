package render

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Tables: a tournament's standings and a ladder as PNG images, in the
// board images' colours and Go fonts: a wood title band, rows on light
// wood, and each round of the standings as a small stone of the colour
// played carrying the opponent's line number, the result beside it on a
// green (won), red (lost) or plain ground, and the handicap.

// TableOptions choose what a table image shows and how.
type TableOptions struct {
	Theme string // "wood" (default) or "dark"
	Title string // the heading, such as the tournament's name
	// First and Rows choose the lines drawn: from First (0 is the top),
	// at most Rows of them (0: DefaultTableRows, at most MaxTableRows).
	// A note under the table says how many more there are.
	First, Rows int
}

// Rows a table image draws by default and at most.
const (
	DefaultTableRows = 40
	MaxTableRows     = 200
)

// ErrTableRows is returned when the lines asked for are not in the table.
var ErrTableRows = errors.New("render: no such lines in the table")

// tableColors are a theme's colours for tables.
type tableColors struct {
	band, bandText     color.RGBA // the title band
	head, headText     color.RGBA // the column heads
	rowA, rowB, text   color.RGBA // alternate rows and their text
	dim                color.RGBA // notes, dashes
	win, loss, draw    color.RGBA // a round's ground
	winMark, lossMark  color.RGBA // a round's + and -
	challenge, defends color.RGBA // a ladder's → and ←
	rule               color.RGBA // lines between rows
}

var tableThemes = map[string]tableColors{
	"wood": {
		band: rgb(0xdc, 0xb3, 0x5c), bandText: rgb(0x3a, 0x2a, 0x12),
		head: rgb(0xc9, 0x9e, 0x4a), headText: rgb(0x2a, 0x1d, 0x0a),
		rowA: rgb(0xfa, 0xf1, 0xdc), rowB: rgb(0xf1, 0xe2, 0xbd), text: rgb(0x2a, 0x1d, 0x0a),
		dim: rgb(0x7a, 0x66, 0x45),
		win: rgb(0xcf, 0xe6, 0xb0), loss: rgb(0xf2, 0xc4, 0xb4), draw: rgb(0xe4, 0xde, 0xcc),
		winMark: rgb(0x2e, 0x6b, 0x1e), lossMark: rgb(0xb0, 0x20, 0x20),
		challenge: rgb(0xb0, 0x20, 0x20), defends: rgb(0x2a, 0x55, 0x8c),
		rule: rgb(0xd9, 0xc4, 0x94),
	},
	"dark": {
		band: rgb(0x23, 0x27, 0x2e), bandText: rgb(0xff, 0xd3, 0x4d),
		head: rgb(0x2f, 0x35, 0x3f), headText: rgb(0xd0, 0xd7, 0xde),
		rowA: rgb(0x1b, 0x1f, 0x25), rowB: rgb(0x22, 0x27, 0x2e), text: rgb(0xe6, 0xea, 0xee),
		dim: rgb(0x8b, 0x95, 0xa3),
		win: rgb(0x24, 0x4a, 0x2c), loss: rgb(0x5a, 0x28, 0x2a), draw: rgb(0x3a, 0x40, 0x4a),
		winMark: rgb(0x7e, 0xe0, 0x8a), lossMark: rgb(0xff, 0x8a, 0x8a),
		challenge: rgb(0xff, 0x6b, 0x6b), defends: rgb(0x7a, 0xb8, 0xff),
		rule: rgb(0x33, 0x39, 0x44),
	},
}

// The table's geometry, in pixels.
const (
	tabRowH     = 30.0
	tabPad      = 10.0 // inside a cell, left and right
	tabMargin   = 14.0
	tabTitleH   = 44.0
	tabHeadH    = 28.0
	tabNoteH    = 30.0
	tabNoteLine = 18.0 // each further line of a note
	tabText     = 15.0 // points
	tabTitle    = 20.0
	tabSmall    = 11.0
	tabStoneR   = 11.0
	tabMaxName  = 22 // characters of a name drawn
)

var (
	regularOnce sync.Once
	regularErr  error
	regularFont *opentype.Font
)

// tableFaces hands out the faces of one drawing: bold (the board
// images' font) for headings and names, regular for figures.
type tableFaces struct {
	bold    faceSet
	regular map[float64]font.Face
}

func (f *tableFaces) face(bold bool, points float64) (font.Face, error) {
	if bold {
		return f.bold.face(points)
	}
	if x, ok := f.regular[points]; ok {
		return x, nil
	}
	regularOnce.Do(func() { regularFont, regularErr = opentype.Parse(goregular.TTF) })
	if regularErr != nil {
		return nil, regularErr
	}
	x, err := opentype.NewFace(regularFont, &opentype.FaceOptions{Size: points, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, err
	}
	f.regular[points] = x
	return x, nil
}

// draw writes s on img with its left edge, centre or right edge (ax 0,
// ½, 1) at x and its middle at y, as gg's DrawStringAnchored(s, x, y, ax,
// 0.35) places it. It draws each glyph's mask straight onto img, where gg
// resamples every glyph through an affine transform, several times
// slower.
func (f *tableFaces) draw(img *image.RGBA, s string, bold bool, points float64, col color.Color, x, y, ax float64) error {
	face, err := f.face(bold, points)
	if err != nil {
		return err
	}
	d := font.Drawer{Dst: img, Src: image.NewUniform(col), Face: face}
	w := float64(d.MeasureString(s) >> 6)
	h := float64(face.Metrics().Height) / 64
	d.Dot = fixed.P(int(math.Round(x-ax*w)), int(math.Round(y+0.35*h)))
	d.DrawString(s)
	return nil
}

// tcell is one cell of a table image: text, or a round.
type tcell struct {
	text  string
	bold  bool
	color *color.RGBA // nil: the row's text colour
	round *tournament.RoundResult
}

// tcol is a column: its head, whether it aligns right, its width.
type tcol struct {
	head          string
	right, center bool
	x, w          float64 // set by draw
}

// tableImage is a table to draw.
type tableImage struct {
	title, note string
	cols        []tcol
	rows        [][]tcell
}

// StandingsPNG writes the standings after round after (from 0) as a
// PNG: place, name, rank, score (McMahon score or wins), every round
// (the opponent's line number on a stone of the colour played, the
// result and the handicap), SOS, SOSOS and SODOS. It returns the image's
// size.
func StandingsPNG(w io.Writer, t *tournament.Tournament, after int, o TableOptions) (int, int, error) {
	ti, err := standingsTable(t, after, o)
	if err != nil {
		return 0, 0, err
	}
	return ti.png(w, o.Theme)
}

func standingsTable(t *tournament.Tournament, after int, o TableOptions) (*tableImage, error) {
	lines, err := t.Table(after)
	if err != nil {
		return nil, err
	}
	lo, hi, err := tableRows(len(lines), o)
	if err != nil {
		return nil, err
	}
	score := "Wins"
	if t.System == tournament.McMahon {
		score = "MMS"
	}
	ti := &tableImage{title: o.Title, cols: []tcol{{head: "#", right: true}, {head: "Name"}, {head: "Rank", right: true}, {head: score, right: true}}}
	if ti.title == "" {
		ti.title = "Standings"
	}
	ti.title += fmt.Sprintf(" · after round %d", after+1)
	for r := 0; r <= after; r++ {
		ti.cols = append(ti.cols, tcol{head: "R" + strconv.Itoa(r+1), center: true})
	}
	ti.cols = append(ti.cols, tcol{head: "SOS", right: true}, tcol{head: "SOSOS", right: true}, tcol{head: "SODOS", right: true})
	for i := lo; i < hi; i++ {
		l := lines[i]
		place := strconv.Itoa(l.Place)
		if i > lo && lines[i-1].Place == l.Place {
			place = ""
		}
		row := []tcell{{text: place}, {text: clip(l.Name), bold: true}, {text: l.Rank.String()}, {text: l.Score.String(), bold: true}}
		for r := range l.Rounds {
			row = append(row, tcell{round: &l.Rounds[r]})
		}
		row = append(row, tcell{text: l.SOS.String()}, tcell{text: l.SOSOS.String()}, tcell{text: l.SODOS.String()})
		ti.rows = append(ti.rows, row)
	}
	ti.note = "Each round: a stone of the colour played with the opponent's line number; + won, − lost, = jigo, ? no result yet, ! by default; h2 a handicap of 2."
	if more := moreNote(lo, hi, len(lines)); more != "" {
		ti.note = more + ". " + ti.note
	}
	return ti, nil
}

// LadderPNG writes the ladder as a PNG: rung, name (name gives it) and
// open challenges (→ the rung challenged, ← the rung challenging). It
// returns the image's size.
func LadderPNG(w io.Writer, l *tournament.Ladder, name func(tournament.PlayerID) string, o TableOptions) (int, int, error) {
	ti, err := ladderTable(l, name, o)
	if err != nil {
		return 0, 0, err
	}
	return ti.png(w, o.Theme)
}

func ladderTable(l *tournament.Ladder, name func(tournament.PlayerID) string, o TableOptions) (*tableImage, error) {
	lo, hi, err := tableRows(len(l.Rungs), o)
	if err != nil {
		return nil, err
	}
	rung := make(map[tournament.PlayerID]int, 2*len(l.Open))
	for _, c := range l.Open {
		rung[c.Challenger], rung[c.Defender] = 0, 0
	}
	for i, p := range l.Rungs {
		if _, ok := rung[p]; ok {
			rung[p] = i + 1
		}
	}
	type marks struct{ gives, gets string }
	open := make(map[tournament.PlayerID]*marks, len(rung))
	for _, c := range l.Open {
		if open[c.Challenger] == nil {
			open[c.Challenger] = &marks{}
		}
		if open[c.Defender] == nil {
			open[c.Defender] = &marks{}
		}
		open[c.Challenger].gives = "→ " + strconv.Itoa(rung[c.Defender])
		open[c.Defender].gets = "← " + strconv.Itoa(rung[c.Challenger])
	}
	ti := &tableImage{title: o.Title, cols: []tcol{{head: "Rung", right: true}, {head: "Name"}, {head: "Challenges"}, {head: "Challenged by"}}}
	if ti.title == "" {
		ti.title = "Ladder"
	}
	ti.title += fmt.Sprintf(" · %d player%s, challenges up to %d above", len(l.Rungs), plural(len(l.Rungs)), l.Range)
	tc := tableThemes[themeName(o.Theme)]
	for i := lo; i < hi; i++ {
		p := l.Rungs[i]
		row := []tcell{{text: strconv.Itoa(i + 1), bold: true}, {text: clip(name(p)), bold: true}, {}, {}}
		if m := open[p]; m != nil {
			row[2] = tcell{text: m.gives, bold: true, color: &tc.challenge}
			row[3] = tcell{text: m.gets, bold: true, color: &tc.defends}
		}
		ti.rows = append(ti.rows, row)
	}
	ti.note = moreNote(lo, hi, len(l.Rungs))
	return ti, nil
}

// tableRows is the range of lines o asks for in a table of n.
func tableRows(n int, o TableOptions) (int, int, error) {
	rows := o.Rows
	if rows == 0 {
		rows = DefaultTableRows
	}
	if o.First < 0 || rows < 0 || (o.First >= n && n > 0) {
		return 0, 0, fmt.Errorf("%w: lines %d to %d of %d", ErrTableRows, o.First+1, o.First+rows, n)
	}
	return o.First, min(n, o.First+min(rows, MaxTableRows)), nil
}

// moreNote says which lines a table image shows when it does not show all.
func moreNote(lo, hi, n int) string {
	if lo == 0 && hi == n {
		return ""
	}
	return fmt.Sprintf("Lines %d–%d of %d", lo+1, hi, n)
}

func clip(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > tabMaxName {
		return string(r[:tabMaxName-1]) + "…"
	}
	return s
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func themeName(name string) string {
	if _, ok := tableThemes[name]; ok {
		return name
	}
	return "wood"
}

// roundWidth is the width of a round's cell: the stone, the mark, the
// handicap.
const roundWidth = 2*tabStoneR + 44

// png draws the table and encodes it.
func (ti *tableImage) png(w io.Writer, themeName string) (int, int, error) {
	img, err := ti.draw(themeName)
	if err != nil {
		return 0, 0, err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	b := img.Bounds()
	return b.Dx(), b.Dy(), enc.Encode(w, img)
}

// draw lays the table out (each column's x and width) and draws it.
func (ti *tableImage) draw(themeName string) (*image.RGBA, error) {
	th, err := theme(themeName)
	if err != nil {
		return nil, err
	}
	tc := tableThemes[th.Name]
	faces := &tableFaces{bold: faceSet{}, regular: map[float64]font.Face{}}
	measure := func(s string, bold bool, points float64) (float64, error) {
		f, err := faces.face(bold, points)
		if err != nil {
			return 0, err
		}
		return float64(font.MeasureString(f, s)) / 64, nil
	}
	for j := range ti.cols {
		c := &ti.cols[j]
		hw, err := measure(c.head, true, tabText-2)
		if err != nil {
			return nil, err
		}
		c.w = hw
		for _, r := range ti.rows {
			x := r[j]
			if x.round != nil {
				c.w = max(c.w, roundWidth)
				continue
			}
			tw, err := measure(x.text, x.bold, tabText)
			if err != nil {
				return nil, err
			}
			c.w = max(c.w, tw)
		}
		c.w = math.Ceil(c.w + 2*tabPad)
	}
	width := 2 * tabMargin
	for _, c := range ti.cols {
		width += c.w
	}
	tw, err := measure(ti.title, true, tabTitle)
	if err != nil {
		return nil, err
	}
	width = math.Max(width, tw+2*tabMargin+2*tabPad)
	// The note wraps to the table's width.
	var note []string
	for _, word := range strings.Fields(ti.note) {
		if n := len(note); n > 0 {
			nw, err := measure(note[n-1]+" "+word, false, tabText-2)
			if err != nil {
				return nil, err
			}
			if nw <= width-2*(tabMargin+tabPad) {
				note[n-1] += " " + word
				continue
			}
		}
		note = append(note, word)
	}
	height := tabTitleH + tabHeadH + float64(len(ti.rows))*tabRowH + tabMargin
	if len(note) > 0 {
		height += tabNoteH + float64(len(note)-1)*tabNoteLine
	}
	W, H := int(math.Ceil(width)), int(math.Ceil(height))
	dc := gg.NewContext(W, H)
	dc.SetColor(tc.rowA)
	dc.Clear()
	img := dc.Image().(*image.RGBA)
	text := func(s string, bold bool, points float64, col color.Color, x, y, ax float64) error {
		return faces.draw(img, s, bold, points, col, x, y, ax)
	}
	// Title band.
	dc.SetColor(tc.band)
	dc.DrawRectangle(0, 0, width, tabTitleH)
	dc.Fill()
	if err := text(ti.title, true, tabTitle, tc.bandText, tabMargin+tabPad, tabTitleH/2, 0); err != nil {
		return nil, err
	}
	// Column heads.
	y := tabTitleH
	dc.SetColor(tc.head)
	dc.DrawRectangle(0, y, width, tabHeadH)
	dc.Fill()
	x := tabMargin
	for j := range ti.cols {
		ti.cols[j].x = x
		c := ti.cols[j]
		ax, tx := 0.0, x+tabPad
		switch {
		case c.right:
			ax, tx = 1, x+c.w-tabPad
		case c.center:
			ax, tx = 0.5, x+c.w/2
		}
		if err := text(c.head, true, tabText-2, tc.headText, tx, y+tabHeadH/2, ax); err != nil {
			return nil, err
		}
		x += c.w
	}
	y += tabHeadH
	for i, r := range ti.rows {
		ground := tc.rowA
		if i%2 == 1 {
			ground = tc.rowB
		}
		dc.SetColor(ground)
		dc.DrawRectangle(0, y, width, tabRowH)
		dc.Fill()
		x := tabMargin
		for j, c := range ti.cols {
			cell := r[j]
			mid := y + tabRowH/2
			if cell.round != nil {
				if err := drawRound(dc, img, faces, th, tc, *cell.round, x, y, c.w); err != nil {
					return nil, err
				}
			} else if cell.text != "" {
				col := tc.text
				if cell.color != nil {
					col = *cell.color
				}
				ax, tx := 0.0, x+tabPad
				if c.right {
					ax, tx = 1, x+c.w-tabPad
				}
				if err := text(cell.text, cell.bold, tabText, col, tx, mid, ax); err != nil {
					return nil, err
				}
			}
			x += c.w
		}
		dc.SetColor(tc.rule)
		dc.SetLineWidth(1)
		dc.DrawLine(tabMargin, math.Round(y+tabRowH)-0.5, width-tabMargin, math.Round(y+tabRowH)-0.5)
		dc.Stroke()
		y += tabRowH
	}
	for i, l := range note {
		if err := text(l, false, tabText-2, tc.dim, tabMargin+tabPad, y+tabNoteH/2+float64(i)*tabNoteLine, 0); err != nil {
			return nil, err
		}
	}
	return img, nil
}

// drawRound draws a round in its cell at x, y of width cw: on a ground of
// its outcome, a stone of the colour played with the opponent's line
// number, the result's mark (! for a result by default) and the handicap;
// a bye or a round without a game in words.
func drawRound(dc *gg.Context, img *image.RGBA, faces *tableFaces, th *Theme, tc tableColors, r tournament.RoundResult, x, y, cw float64) error {
	ground, mark := tc.draw, tc.text
	switch r.Outcome {
	case tournament.Win:
		ground, mark = tc.win, tc.winMark
	case tournament.Loss:
		ground, mark = tc.loss, tc.lossMark
	case tournament.Pending:
		ground = color.RGBA{}
	}
	mid := y + tabRowH/2
	if ground.A != 0 {
		dc.SetColor(ground)
		dc.DrawRoundedRectangle(x+3, y+3, cw-6, tabRowH-6, 5)
		dc.Fill()
	}
	put := func(s string, bold bool, points float64, col color.Color, px, ax float64) error {
		return faces.draw(img, s, bold, points, col, px, mid, ax)
	}
	if r.Kind != tournament.RoundPlayed {
		word := map[tournament.RoundKind]string{tournament.RoundBye: "bye", tournament.RoundAbsent: "absent", tournament.RoundUnpaired: "—"}[r.Kind]
		return put(word, false, tabSmall+1, tc.dim, x+cw/2, 0.5)
	}
	left := x + (cw-roundWidth)/2
	c := game.Black
	if r.White {
		c = game.White
	}
	s := shared.sprite(th, c, tabStoneR)
	cx := left + tabStoneR + 1
	s.drawOn(img, image.Pt(int(math.Round(cx))-s.Bounds().Dx()/2, int(math.Round(mid))-s.Bounds().Dy()/2))
	num := color.RGBA{0xff, 0xff, 0xff, 0xff} // plain on the stone: the board's marks are coloured
	if r.White {
		num = color.RGBA{0x10, 0x10, 0x10, 0xff}
	}
	pts := tabSmall
	if r.OpponentLine >= 100 {
		pts = tabSmall - 3
	}
	if err := put(strconv.Itoa(r.OpponentLine), true, pts, num, cx, 0.5); err != nil {
		return err
	}
	m := r.Outcome.String()
	if r.Outcome == tournament.Loss {
		m = "−"
	}
	if r.Forfeit {
		m += "!"
	}
	mx := left + 2*tabStoneR + 5
	if err := put(m, true, tabText+1, mark, mx, 0); err != nil {
		return err
	}
	if r.Handicap > 0 {
		return put("h"+strconv.Itoa(r.Handicap), false, tabSmall, tc.dim, left+roundWidth, 1)
	}
	return nil
}
