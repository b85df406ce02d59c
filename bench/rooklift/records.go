// Package rooklift compares gobot's SGF replay with github.com/rooklift/sgf
// on the same records, in one process (go test -bench .) and as whole
// processes (cmd/rookreplay against `gobot sgf replay`); see
// docs/sgf.md, "Speed". It is a module of its own so that gobot itself
// does not depend on rooklift/sgf.
package rooklift

import (
	"bytes"
	"fmt"
	"math/rand/v2"

	"github.com/gobotgo/gobot/game"
)

// Records returns n random 19×19 games under chinese rules, 150 to 300
// moves each then two passes, as one SGF collection: the records of
// game's BenchmarkReplaySGF (benchRecords there), made with the same seed
// and the same draws through game's exported API, so byte for byte the
// same.
func Records(n int) ([]byte, error) {
	rng := rand.New(rand.NewPCG(42, 7))
	r, _ := game.Preset("chinese")
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		g, err := game.New(game.Config{Width: 19, Height: 19, Rules: r})
		if err != nil {
			return nil, err
		}
		randomPlayout(rng, g, 150+rng.IntN(151))
		g.Play(g.ToMove(), game.Pass)
		g.Play(g.ToMove(), game.Pass)
		info := game.GameInfo{Black: "Black player", White: "White player", BlackRank: "5d", WhiteRank: "6d",
			Date: "2026-11-22", Event: "Benchmark cup", TimeLimit: "1800", Overtime: "5x30 byo-yomi"}
		for j, m := range g.Moves() {
			mi := game.MoveInfo{}
			if i%2 == 0 {
				left := fmt.Sprintf("%.1f", 1800-float64(j)*3.5)
				if m.Color == game.Black {
					mi.BlackTime = left
				} else {
					mi.WhiteTime = left
				}
			}
			if rng.IntN(40) == 0 {
				mi.Comment = "An interesting move; the alternative [at the 3-3 point] was worth considering."
			}
			info.Moves = append(info.Moves, mi)
		}
		if err := game.WriteSGF(&buf, g, info); err != nil {
			return nil, err
		}
	}
	return buf.Bytes(), nil
}

// randomPlayout plays n random moves, none into the mover's own eye (a
// point whose neighbours are all the mover's), passing when no point is
// left: game's randomPlayout with no random passes.
func randomPlayout(rng *rand.Rand, g *game.Game, n int) {
	b := g.Board() // only its size and neighbours are used
	w, h := b.Width(), b.Height()
	cand := make([]game.Point, 0, w*h)
	for i := 0; i < n && g.Phase() == game.Playing; i++ {
		c := g.ToMove()
		_ = rng.Float64() // game's random pass, with probability 0
		cand = cand[:0]
		for j := 0; j < w*h; j++ {
			p := game.Pt(j%w, j/w)
			if g.At(p) == game.Empty && !ownEye(g, b, p, c) {
				cand = append(cand, p)
			}
		}
		played := false
		for len(cand) > 0 {
			k := rng.IntN(len(cand))
			if g.Play(c, cand[k]) == nil {
				played = true
				break
			}
			cand[k] = cand[len(cand)-1]
			cand = cand[:len(cand)-1]
		}
		if !played {
			if g.Play(c, game.Pass) != nil {
				return
			}
		}
	}
}

func ownEye(g *game.Game, b *game.Board, p game.Point, c game.Color) bool {
	for _, n := range b.Neighbors(p) {
		if g.At(n) != c {
			return false
		}
	}
	return true
}
