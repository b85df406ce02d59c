package gobot

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// The turn rotates within each team (B1 W1 B2 W2 …), each team on its
// own; a turn that passed on a timeout counts; White's automatic passes
// while Black places handicap stones are nobody's turn.
func TestTeamsTurn(t *testing.T) {
	r, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	if err != nil {
		t.Fatal(err)
	}
	teams := &Teams{Black: []UserID{"t:b1", "t:b2"}, White: []UserID{"t:w1", "t:w2", "t:w3"}}
	var order []string
	for i := range 10 {
		c := g.ToMove()
		order = append(order, string(teams.Turn(c, ptr(g.Record()))))
		if err := g.Play(c, game.Pt(i%9, i/9*2)); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := strings.Join(order, " "), "t:b1 t:w1 t:b2 t:w2 t:b1 t:w3 t:b2 t:w1 t:b1 t:w2"; got != want {
		t.Errorf("turn order %s, want %s", got, want)
	}
	rec := g.Record()
	if got := teams.Turn(game.White, &rec); got != "t:w3" {
		t.Errorf("White's next: %s, want t:w3", got)
	}
	teams.Skipped[game.White] = 1 // t:w3 ran out of time
	if got := teams.Turn(game.White, &rec); got != "t:w1" {
		t.Errorf("White's next after a timeout: %s, want t:w1", got)
	}

	r.Placement = game.PlacementWhitePasses
	hg, err := game.New(game.Config{Width: 9, Height: 9, Rules: r, Handicap: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []game.Point{game.Pt(2, 2), game.Pt(6, 6), game.Pt(2, 6)} {
		if err := hg.Play(game.Black, p); err != nil {
			t.Fatal(err)
		}
	}
	hrec := hg.Record()
	if hg.ToMove() != game.White || len(hrec.Moves) != 5 {
		t.Fatalf("after the handicap: %d moves, %s to move", len(hrec.Moves), hg.ToMove().Name())
	}
	if got := teams.Turn(game.White, &hrec); got != "t:w2" { // skipped 1, no moves of White's own
		t.Errorf("White's first real turn after a handicap: %s, want t:w2", got)
	}
	if got := teams.Turn(game.Black, &hrec); got != "t:b2" { // b1 placed the three stones: one turn
		t.Errorf("Black's turn after three handicap stones: %s, want t:b2", got)
	}
	// Free placement: Black's first player places every stone, then the
	// order runs W1 B2 W2 …, as the game's start announces it.
	r.Placement = game.PlacementFree
	fg, err := game.New(game.Config{Width: 9, Height: 9, Rules: r, Handicap: 3})
	if err != nil {
		t.Fatal(err)
	}
	teams.Skipped = [3]int{}
	var placed []string
	for _, p := range []game.Point{game.Pt(2, 2), game.Pt(6, 6), game.Pt(2, 6), game.Pt(4, 4), game.Pt(6, 2), game.Pt(4, 6)} {
		c := fg.ToMove()
		placed = append(placed, string(teams.Turn(c, ptr(fg.Record()))))
		if err := fg.Play(c, p); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := strings.Join(placed, " "), "t:b1 t:b1 t:b1 t:w1 t:b2 t:w2"; got != want {
		t.Errorf("free placement then play: %s, want %s", got, want)
	}
	m := &Match{Black: "t:b1", White: "t:w1", Teams: teams}
	if got := len(m.Players()); got != 5 {
		t.Errorf("a 2+3 game has %d players", got)
	}
}

func ptr[T any](v T) *T { return &v }
