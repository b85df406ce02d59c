package ratings

import (
	"testing"

	"github.com/gobotgo/gobot/game"
)

// BothMoved: a pass or a handicap stone counts as a move, but White's
// passes while Black places the stones (white-passes, made by the
// game itself) do not.
func TestBothMoved(t *testing.T) {
	rules, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	wp := rules
	wp.Placement = game.PlacementWhitePasses
	for _, tc := range []struct {
		name  string
		cfg   game.Config
		moves []game.Move
		want  bool
	}{
		{"none", game.Config{Width: 9, Height: 9, Rules: rules}, nil, false},
		{"black only", game.Config{Width: 9, Height: 9, Rules: rules}, []game.Move{{Color: game.Black, Point: game.Pt(2, 2)}}, false},
		{"a pass counts", game.Config{Width: 9, Height: 9, Rules: rules}, []game.Move{{Color: game.Black, Point: game.Pt(2, 2)}, {Color: game.White, Point: game.Pass}}, true},
		{"placing", game.Config{Width: 9, Height: 9, Rules: wp, Handicap: 2}, []game.Move{{Color: game.Black, Point: game.Pt(2, 2)}, {Color: game.Black, Point: game.Pt(6, 6)}}, false},
		{"placed, then White", game.Config{Width: 9, Height: 9, Rules: wp, Handicap: 2}, []game.Move{{Color: game.Black, Point: game.Pt(2, 2)}, {Color: game.Black, Point: game.Pt(6, 6)}, {Color: game.White, Point: game.Pt(4, 4)}}, true},
	} {
		g, err := game.New(tc.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range tc.moves {
			if err := g.PlayMove(m); err != nil {
				t.Fatalf("%s: %v: %v", tc.name, m, err)
			}
		}
		if got := BothMoved(g); got != tc.want {
			t.Errorf("%s: BothMoved %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRatedSize(t *testing.T) {
	for _, tc := range []struct {
		w, h int
		want bool
	}{{9, 9, true}, {13, 13, true}, {19, 19, true}, {13, 9, false}, {7, 7, false}, {21, 21, false}} {
		if RatedSize(tc.w, tc.h) != tc.want {
			t.Errorf("%dx%d: want %v", tc.w, tc.h, tc.want)
		}
	}
}
