package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// randomGame plays n random legal moves (no passes) on a w×h board.
func randomGame(t testing.TB, w, h, n int, seed uint64) *game.Game {
	t.Helper()
	r, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: w, Height: h, Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	for g.MoveCount() < n {
		played := false
		for try := 0; try < 50 && !played; try++ {
			p := game.Pt(rng.IntN(w), rng.IntN(h))
			played = g.Play(g.ToMove(), p) == nil
		}
		if !played {
			g.Play(g.ToMove(), game.Pass)
		}
	}
	return g
}

func scoringGame(t testing.TB) *game.Game {
	t.Helper()
	r, _ := game.Preset("japanese")
	g, _ := game.New(game.Config{Width: 13, Height: 13, Rules: r})
	// Black walls off the left, White the right; a few invaders on each side.
	for y := 0; y < 13; y++ {
		g.Play(game.Black, game.Pt(5, y))
		g.Play(game.White, game.Pt(7, y))
	}
	for _, p := range []game.Point{game.Pt(2, 2), game.Pt(10, 9)} {
		if g.ToMove() == game.Black {
			g.Play(game.Black, game.Pt(10, 3))
		}
		g.Play(g.ToMove(), p)
	}
	for g.Phase() == game.Playing {
		g.Play(g.ToMove(), game.Pass)
	}
	// Invaders on the wrong side of the walls are dead.
	b := g.Board()
	for _, p := range append(b.Stones(game.White), b.Stones(game.Black)...) {
		if (b.At(p) == game.White && p.X < 5) || (b.At(p) == game.Black && p.X > 7) {
			if !g.IsDead(p) {
				g.ToggleDead(p, false)
			}
		}
	}
	return g
}

// koGame is a 9×9 game whose last move took a ko: White may not retake
// at once (the ko mark on B7).
func koGame(t testing.TB) *game.Game {
	t.Helper()
	r, _ := game.Preset("japanese")
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	for _, p := range []game.Point{game.Pt(1, 1), game.Pt(2, 1), game.Pt(0, 2), game.Pt(3, 2), game.Pt(1, 3), game.Pt(2, 3), game.Pt(5, 5), game.Pt(1, 2), game.Pt(2, 2)} {
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := g.KoPoint(); !ok {
		t.Fatal("no ko")
	}
	return g
}

func TestGoldens(t *testing.T) {
	rect, _ := game.New(game.Config{Width: 7, Height: 11, Rules: game.Rules{Name: "custom", Komi: 7.5}})
	for _, m := range []string{"C3", "E9", "D6", "C9"} {
		p, _ := game.ParseGTP(m, 7, 11)
		rect.Play(rect.ToMove(), p)
	}
	empty, _ := game.New(game.Config{Width: 9, Height: 9, Rules: game.Rules{Name: "custom", Komi: 7}})
	cases := []struct {
		name string
		g    *game.Game
		o    Options
	}{
		{"empty-9x9", empty, Options{}},
		{"midgame-19x19", randomGame(t, 19, 19, 120, 7), Options{Numbers: 5}},
		{"scoring-13x13", scoringGame(t), Options{}},
		{"rect-7x11", rect, Options{Width: 500}},
		{"dark-19x19", randomGame(t, 19, 19, 80, 3), Options{Theme: "dark", Numbers: 3}},
		// The benchmark's position (BenchmarkPNG19), a ko with votes at
		// the replay width, and a scoring view on the dark theme: drawn
		// before the paletted drawing came in, which must look the same.
		{"full-19x19", randomGame(t, 19, 19, 250, 11), Options{}},
		{"ko-votes-9x9", koGame(t), Options{Width: 480, Votes: map[game.Point]int{game.Pt(4, 4): 3, game.Pt(6, 6): 12, game.Pt(2, 1): 1}}},
		{"scoring-dark-13x13", scoringGame(t), Options{Theme: "dark", Width: 600, Numbers: 120}},
		{"numbers-13x13", randomGame(t, 13, 13, 140, 5), Options{Numbers: 140}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if _, _, err := PNG(&buf, tc.g, tc.o); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", tc.name+".png")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got, err := png.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if msg := compare(got, want); msg != "" {
				out := filepath.Join(t.TempDir(), tc.name+"-got.png")
				os.WriteFile(out, buf.Bytes(), 0o644)
				t.Fatalf("%s: %s; got image written to %s", golden, msg, out)
			}
		})
	}
}

// compare reports how got differs from want beyond a small tolerance: a
// pixel may differ by up to 16 in each channel (anti-aliasing, a stone's
// edge where two stones meet), and at most 0.1% of pixels by more.
func compare(got, want image.Image) string {
	if got.Bounds() != want.Bounds() {
		return fmt.Sprintf("size %v, want %v", got.Bounds(), want.Bounds())
	}
	b := got.Bounds()
	bad := 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := got.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if diff(r1, r2) > 16<<8 || diff(g1, g2) > 16<<8 || diff(b1, b2) > 16<<8 {
				bad++
			}
		}
	}
	if bad*1000 > b.Dx()*b.Dy() {
		return fmt.Sprintf("%d of %d pixels differ", bad, b.Dx()*b.Dy())
	}
	return ""
}

func diff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func TestBadInput(t *testing.T) {
	if _, err := Draw(View{}, Options{}); err == nil {
		t.Error("no board: want an error")
	}
	b, _ := game.NewBoard(19, 19)
	if _, err := Draw(View{Board: b}, Options{Width: 100}); !errors.Is(err, ErrTooSmall) {
		t.Errorf("100 px for 19x19: %v", err)
	}
	if _, err := Draw(View{Board: b}, Options{Theme: "neon"}); err == nil {
		t.Error("unknown theme: want an error")
	}
	if _, err := Draw(View{Board: b, Numbers: map[game.Point]int{game.Pt(30, 2): 1}}, Options{}); !errors.Is(err, ErrOffBoard) {
		t.Errorf("number off the board: %v", err)
	}
}

func TestSizeAndPixels(t *testing.T) {
	for _, sz := range [][2]int{{2, 2}, {9, 9}, {25, 25}, {7, 11}, {19, 5}} {
		g := randomGame(t, sz[0], sz[1], sz[0]*sz[1]/3, 1)
		var buf bytes.Buffer
		w, h, err := PNG(&buf, g, Options{})
		if err != nil {
			t.Fatalf("%v: %v", sz, err)
		}
		img, err := png.Decode(&buf)
		if err != nil {
			t.Fatal(err)
		}
		if img.Bounds().Dx() != w || img.Bounds().Dy() != h {
			t.Fatalf("%v: reported %dx%d, image %v", sz, w, h, img.Bounds())
		}
	}
}

func TestGIF(t *testing.T) {
	g := randomGame(t, 9, 9, 40, 5)
	var buf bytes.Buffer
	if _, _, err := GIF(&buf, g, Options{Width: 300}); err != nil {
		t.Fatal(err)
	}
	anim, err := gif.DecodeAll(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(anim.Image) != 41 || anim.Delay[len(anim.Delay)-1] <= anim.Delay[1] {
		t.Fatalf("%d frames, delays %v", len(anim.Image), anim.Delay)
	}
	// Composing the frames gives the final position as a full PNG shows it.
	// Frames after the first leave unchanged pixels transparent.
	canvas := image.NewRGBA(anim.Image[0].Bounds())
	for _, f := range anim.Image {
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
	}
	final, err := Draw(ViewOf(g, 0), Options{Width: 300})
	if err != nil {
		t.Fatal(err)
	}
	if msg := compare(canvas, final); msg != "" {
		t.Fatalf("last composed frame differs from the position: %s", msg)
	}
}

func BenchmarkPNG19(b *testing.B) {
	g := randomGame(b, 19, 19, 250, 11)
	var buf bytes.Buffer
	PNG(&buf, g, Options{})
	b.ResetTimer()
	cpu := cpuTime()
	for b.Loop() {
		buf.Reset()
		if _, _, err := PNG(&buf, g, Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(buf.Len()), "bytes")
	b.ReportMetric(float64(len(g.Board().Stones(game.Black))+len(g.Board().Stones(game.White))), "stones")
}

// reportCPU reports the CPU time per iteration since start (cpuTime):
// on a machine shared with other jobs it says more than the wall time.
// With -cpu 1 it is the drawing's and the garbage collector's.
func reportCPU(b *testing.B, start time.Duration) {
	if start > 0 {
		b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkPNGSizes draws the other common sizes, half full, and a
// 19×19 board with its last 10 moves numbered (markup drawn in colour).
func BenchmarkPNGSizes(b *testing.B) {
	for _, bc := range []struct {
		name string
		g    *game.Game
		o    Options
	}{
		{"9x9", randomGame(b, 9, 9, 40, 11), Options{}},
		{"13x13", randomGame(b, 13, 13, 85, 11), Options{}},
		{"19x19-numbers", randomGame(b, 19, 19, 250, 11), Options{Numbers: 10}},
		{"9x9-480px", randomGame(b, 9, 9, 40, 11), Options{Width: 480}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var buf bytes.Buffer
			PNG(&buf, bc.g, bc.o)
			cpu := cpuTime()
			for b.Loop() {
				buf.Reset()
				if _, _, err := PNG(&buf, bc.g, bc.o); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

func BenchmarkGIF250(b *testing.B) {
	g := randomGame(b, 19, 19, 250, 13)
	b.ReportMetric(float64(g.MoveCount()), "moves")
	var buf bytes.Buffer
	cpu := cpuTime()
	for b.Loop() {
		buf.Reset()
		if _, _, err := GIF(&buf, g, Options{Width: 480}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
	b.ReportMetric(float64(buf.Len()), "bytes")
}

// TestConcurrent draws from many goroutines at once (run with -race): the
// caches and fonts are shared, faces are not.
func TestConcurrent(t *testing.T) {
	g := randomGame(t, 19, 19, 100, 2)
	done := make(chan error)
	for i := range 8 {
		go func() {
			var buf bytes.Buffer
			_, _, err := PNG(&buf, g, Options{Numbers: 10, Width: 600 + 40*(i%3), Theme: ThemeNames()[i%2]})
			done <- err
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// TestStoneBlit checks the run-based sprite drawing against draw.Over.
func TestStoneBlit(t *testing.T) {
	for _, name := range ThemeNames() {
		th, _ := theme(name)
		for _, c := range []game.Color{game.Black, game.White} {
			for _, r := range []float64{5.3, 19.2, 40} {
				s := shared.sprite(th, c, r)
				bg := image.NewRGBA(image.Rect(0, 0, 100, 100))
				draw.Draw(bg, bg.Bounds(), image.NewUniform(th.Board), image.Point{}, draw.Src)
				want := image.NewRGBA(bg.Bounds())
				copy(want.Pix, bg.Pix)
				at := image.Pt(3, 7)
				draw.Draw(want, image.Rectangle{Min: at, Max: at.Add(s.Bounds().Size())}, s.RGBA, image.Point{}, draw.Over)
				s.drawOn(bg, at)
				for i := range bg.Pix {
					if d := int(bg.Pix[i]) - int(want.Pix[i]); d < -1 || d > 1 {
						t.Fatalf("%s %v r=%v: byte %d is %d, draw.Over gives %d", name, c, r, i, bg.Pix[i], want.Pix[i])
					}
				}
			}
		}
	}
}

// Under white-passes placement the stones are numbered as players count
// them (White's automatic passes are nobody's move), and the last-move
// marker is on Black's stone, not on a pass.
func TestViewNumbersSkipAutomaticPasses(t *testing.T) {
	rules, err := game.Preset("new-zealand")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules, Handicap: 2})
	if err != nil {
		t.Fatal(err)
	}
	pt := func(s string) game.Point { p, _ := game.ParsePoint(s, 9, 9); return p }
	for _, m := range []game.Move{{Color: game.Black, Point: pt("D4")}, {Color: game.Black, Point: pt("F6")}, {Color: game.White, Point: pt("E5")}} {
		if err := g.PlayMove(m); err != nil {
			t.Fatal(err)
		}
	}
	v := ViewOf(g, 10)
	if v.Numbers[pt("D4")] != 1 || v.Numbers[pt("F6")] != 2 || v.Numbers[pt("E5")] != 3 || v.Last != pt("E5") {
		t.Fatalf("numbers %v, last %v", v.Numbers, v.Last)
	}
	g2, _ := game.New(game.Config{Width: 9, Height: 9, Rules: rules, Handicap: 2})
	if err := g2.Play(game.Black, pt("D4")); err != nil {
		t.Fatal(err)
	}
	if v := ViewOf(g2, 10); v.Last != pt("D4") || v.Numbers[pt("D4")] != 1 {
		t.Fatalf("after the first stone: last %v, numbers %v", v.Last, v.Numbers)
	}
}

// TestDrawingReusesItsBuffers: once a board's size and theme have been
// drawn, drawing a position again reuses the image buffers and the PNG
// compressor (it used to allocate some 4.5 MB each time: the colour
// image, the paletted one, the compressor).
func TestDrawingReusesItsBuffers(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector empties pools at random")
	}
	g := randomGame(t, 19, 19, 250, 11)
	var buf bytes.Buffer
	draw := func() {
		buf.Reset()
		if _, _, err := PNG(&buf, g, Options{Numbers: 3}); err != nil {
			t.Fatal(err)
		}
	}
	// A collection empties the pools, and each P has pools of its own.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	draw()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const n = 10
	for range n {
		draw()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / n; per > 512<<10 {
		t.Errorf("a 19×19 PNG allocates %d KB each time, want at most 512 KB", per>>10)
	}
}

// TestPaletteLookup: every bucket of a board's palette maps to the
// nearest colour to its centre, the first of equals.
func TestPaletteLookup(t *testing.T) {
	for _, name := range ThemeNames() {
		th, _ := theme(name)
		l, err := newLayout(13, 13, 600)
		if err != nil {
			t.Fatal(err)
		}
		b, err := shared.board(l, th)
		if err != nil {
			t.Fatal(err)
		}
		for k := range b.pal.lut {
			r, g, bl := int(k>>10)<<3|4, int(k>>5&31)<<3|4, int(k&31)<<3|4
			best, bestD := 0, 1<<30
			for i, pc := range b.pal.colors {
				c := pc.(color.RGBA)
				dr, dg, db := int(c.R)-r, int(c.G)-g, int(c.B)-bl
				if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
					best, bestD = i, d
				}
			}
			if got := b.pal.index(uint8(r), uint8(g), uint8(bl)); int(got) != best {
				t.Fatalf("%s: bucket %#x maps to %d, nearest is %d", name, k, got, best)
			}
		}
	}
}
