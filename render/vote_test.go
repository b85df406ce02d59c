package render

import (
	"bytes"
	"errors"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// The votes of an open window are drawn as badges on their points: the
// badge's colour around the point, the count's white digits at its
// middle, nothing on points without votes.
func TestVoteBadges(t *testing.T) {
	cfg := game.Config{Width: 9, Height: 9, Rules: game.Rules{Komi: 6.5}}
	g, err := game.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Play(game.Black, game.Pt(2, 2)); err != nil {
		t.Fatal(err)
	}
	e5, c3 := game.Pt(4, 4), game.Pt(2, 6)
	var plain, voted bytes.Buffer
	if _, _, err := PNG(&plain, g, Options{}); err != nil {
		t.Fatal(err)
	}
	r := &Renderer{}
	if _, _, err := r.BoardVotes(&voted, g, "wood", map[game.Point]int{e5: 2, c3: 1}); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("GOBOT_RENDER_OUT"); dir != "" {
		os.WriteFile(filepath.Join(dir, "votes.png"), voted.Bytes(), 0o644)
	}
	pi, err := png.Decode(bytes.NewReader(plain.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	vi, err := png.Decode(bytes.NewReader(voted.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	l, err := newLayout(9, 9, 0)
	if err != nil {
		t.Fatal(err)
	}
	th := themes["wood"]
	near := func(c color.Color, want color.RGBA) bool {
		r, g, b, _ := c.RGBA()
		return diff(r>>8, uint32(want.R)) < 24 && diff(g>>8, uint32(want.G)) < 24 && diff(b>>8, uint32(want.B)) < 24
	}
	for _, p := range []game.Point{e5, c3} {
		cx, cy := l.center(p)
		// Halfway out along the diagonal: inside the badge, clear of the digit.
		off := l.stoneR * 0.35
		if c := vi.At(int(cx+off), int(cy+off)); !near(c, th.Ko) {
			t.Errorf("%s: badge pixel is %v, want near %v", p.GTP(9), c, th.Ko)
		}
		if c := pi.At(int(cx+off), int(cy+off)); near(c, th.Ko) {
			t.Errorf("%s: the plain board has the badge colour", p.GTP(9))
		}
		white := 0
		for dy := -int(l.stoneR / 3); dy <= int(l.stoneR/3); dy++ {
			for dx := -int(l.stoneR / 3); dx <= int(l.stoneR/3); dx++ {
				if near(vi.At(int(cx)+dx, int(cy)+dy), th.WhiteHi) {
					white++
				}
			}
		}
		if white < 5 {
			t.Errorf("%s: no digit drawn in the badge (%d white pixels)", p.GTP(9), white)
		}
	}
	// Elsewhere the two images agree.
	cx, cy := l.center(game.Pt(6, 2))
	if pi.At(int(cx)+3, int(cy)+3) != vi.At(int(cx)+3, int(cy)+3) {
		t.Error("a point without votes changed")
	}
	b, _ := game.NewBoard(9, 9)
	if _, err := Draw(View{Board: b, Votes: map[game.Point]int{game.Pt(12, 2): 1}}, Options{}); !errors.Is(err, ErrOffBoard) {
		t.Errorf("a vote off the board: %v", err)
	}
}
