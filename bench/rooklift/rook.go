package rooklift

import (
	"fmt"

	"github.com/rooklift/sgf"
)

// RookReplay plays the main line of a record loaded by rooklift/sgf on
// one board, each move with rooklift's legality checks (an occupied
// point, simple ko, suicide), and returns the final board: the fastest
// replay with checks its API offers (Node.Board would copy the board at
// every node for its cache).
func RookReplay(root *sgf.Node) (*sgf.Board, int, error) {
	b := sgf.NewBoard(root.RootBoardSize())
	moves := 0
	for n := root; n != nil; n = n.MainChild() {
		for _, st := range []struct {
			key string
			c   sgf.Colour
		}{{"AB", sgf.BLACK}, {"AW", sgf.WHITE}, {"AE", sgf.EMPTY}} {
			for _, p := range n.AllValues(st.key) {
				if len(p) == 5 && p[2] == ':' {
					b.AddList(p, st.c)
				} else {
					b.AddStone(p, st.c)
				}
			}
		}
		for _, mv := range []struct {
			key string
			c   sgf.Colour
		}{{"B", sgf.BLACK}, {"W", sgf.WHITE}} {
			for _, p := range n.AllValues(mv.key) {
				moves++
				if !sgf.ValidPoint(p, b.Size) { // a pass
					b.ForceStone(p, mv.c)
					continue
				}
				if err := b.PlayColour(p, mv.c); err != nil {
					return b, moves, fmt.Errorf("move %d (%s %s): %w", moves, mv.key, p, err)
				}
			}
		}
	}
	return b, moves, nil
}
