package game

import (
	"errors"
	"reflect"
	"testing"
)

func mustBoard(t *testing.T, s string) *Board {
	t.Helper()
	b, err := ParseBoard(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustPt(t *testing.T, s string, h int) Point {
	t.Helper()
	p, err := ParseGTP(s, 19, h)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestNewFromPosition(t *testing.T) {
	r, _ := Preset("chinese")
	setup := mustBoard(t, `
		. . . . .
		. X O . .
		X O . O .
		. X O . .
		. . . . .`)
	g, err := NewFromPosition(Config{Width: 5, Height: 5, Rules: r}, setup, White)
	if err != nil {
		t.Fatal(err)
	}
	setup.Set(Pt(0, 0), Black) // the game keeps its own copy
	if g.At(Pt(0, 0)) != Empty || g.ToMove() != White {
		t.Fatalf("game shares the setup board or ignores toMove: at A5 %v, to move %v", g.At(Pt(0, 0)), g.ToMove())
	}
	// Black to play would capture at C3; White moves first here.
	if err := g.Play(Black, mustPt(t, "C3", 5)); !errors.Is(err, ErrNotYourTurn) {
		t.Fatalf("Black first: %v, want ErrNotYourTurn", err)
	}
	mustPlay := func(c Color, s string) {
		t.Helper()
		if err := g.Play(c, mustPt(t, s, 5)); err != nil {
			t.Fatalf("%v %s: %v", c, s, err)
		}
	}
	mustPlay(White, "E5")
	mustPlay(Black, "C3") // captures B3
	if g.Captures(Black) != 1 {
		t.Fatalf("Black captured %d, want 1", g.Captures(Black))
	}
	// White retaking at B3 would repeat the setup position: positional superko.
	if err := g.Play(White, mustPt(t, "B3", 5)); !errors.Is(err, ErrKo) && !errors.Is(err, ErrSuperko) {
		t.Fatalf("retake: %v, want a ko error", err)
	}
	// Record and Replay (and so Undo) start from the setup, not an empty board.
	rec := g.Record()
	if len(rec.Setup) != 5 || rec.SetupToMove != White {
		t.Fatalf("Record setup = %q, %v", rec.Setup, rec.SetupToMove)
	}
	g2, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !g2.board.Equal(g.board) || g2.ToMove() != g.ToMove() {
		t.Fatalf("replayed game differs:\n%s\nwant\n%s", g2.board, g.board)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if want := mustBoard(t, `
		. . . . O
		. X O . .
		X O . O .
		. X O . .
		. . . . .`); !g.board.Equal(want) {
		t.Fatalf("after undo:\n%s\nwant\n%s", g.board, want)
	}
}

func TestNewFromPositionErrors(t *testing.T) {
	r, _ := Preset("japanese")
	b, _ := NewBoard(9, 9)
	for _, tt := range []struct {
		name   string
		cfg    Config
		b      *Board
		toMove Color
	}{
		{"size mismatch", Config{Width: 19, Height: 19, Rules: r}, b, Black},
		{"no board", Config{Width: 9, Height: 9, Rules: r}, nil, Black},
		{"nobody to move", Config{Width: 9, Height: 9, Rules: r}, b, Empty},
		{"bad komi", Config{Width: 9, Height: 9, Rules: Rules{Komi: 1e9}}, b, Black},
		{"bad handicap", Config{Width: 9, Height: 9, Rules: r, Handicap: -1}, b, Black},
	} {
		if _, err := NewFromPosition(tt.cfg, tt.b, tt.toMove); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}

// A game made by New records no setup, so its Record is unchanged.
func TestRecordWithoutSetup(t *testing.T) {
	r, _ := Preset("japanese")
	g, err := New(Config{Width: 9, Height: 9, Rules: r, Handicap: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec := g.Record()
	if rec.Setup != nil || rec.SetupToMove != Empty {
		t.Fatalf("Record of a New game has setup %q, %v", rec.Setup, rec.SetupToMove)
	}
	g2, err := Replay(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g2.Record(), rec) {
		t.Fatalf("replayed record differs")
	}
}

// Under white-passes placement (text 004) the game makes White's passes
// itself; Replay and Undo must not play them a second time.
func TestReplayWhitePassesHandicap(t *testing.T) {
	r, _ := Preset("new-zealand")
	g, err := New(Config{Width: 9, Height: 9, Rules: r, Handicap: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"C3", "G7", "C7"} {
		if err := g.Play(Black, mustPt(t, s, 9)); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Play(White, mustPt(t, "E5", 9)); err != nil {
		t.Fatal(err)
	}
	g2, err := Replay(g.Record())
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if !reflect.DeepEqual(g2.Moves(), g.Moves()) || !g2.board.Equal(g.board) {
		t.Fatalf("replayed moves %v, want %v", g2.Moves(), g.Moves())
	}
	if err := g.Undo(); err != nil {
		t.Fatalf("Undo: %v", err)
	}
	if g.ToMove() != White || g.MoveCount() != 5 {
		t.Fatalf("after undo: %v to move, %d moves", g.ToMove(), g.MoveCount())
	}
}
