package record

import (
	"flag"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

var update = flag.Bool("update", false, "rewrite testdata/ratings.golden and testdata/clocks.golden")

var t0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// newGame is a new 9x9 japanese game between black and white in room.
func newGame(t testing.TB, black, white gobot.UserID, room gobot.RoomID) *gobot.Match {
	t.Helper()
	r, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	return &gobot.Match{Room: room, Black: black, White: white, Record: g.Record(), Created: t0, Updated: t0}
}

// movesFor returns a fixed legal sequence of n moves (fewer if the game
// ends) for seed i.
func movesFor(i, n int) []game.Move {
	r, _ := game.Preset("japanese")
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	rng := rand.New(rand.NewPCG(uint64(i), 9))
	var out []game.Move
	for tries := 0; len(out) < n; tries++ {
		c := g.ToMove()
		p := game.Pt(rng.IntN(9), rng.IntN(9))
		if tries > 200 {
			p, tries = game.Pass, 0
		}
		if g.Play(c, p) == nil {
			out = append(out, game.Move{Color: c, Point: p})
		}
		if g.Phase() != game.Playing {
			break
		}
	}
	return out
}
