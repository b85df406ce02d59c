package game

import (
	"errors"
	"testing"
)

// The tests in this file state the rules of the five texts as positions
// drawn the way the texts draw them: X black, O white, . empty, the top
// row first. Points are named in GTP form (A1 is the bottom-left corner).

func preset(t *testing.T, name string) Rules {
	t.Helper()
	r, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// position starts a game under rules from a drawn board with toMove to
// play.
func position(t *testing.T, rules Rules, board string, toMove Color) *Game {
	t.Helper()
	b, err := ParseBoard(board)
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewFromPosition(Config{Width: b.Width(), Height: b.Height(), Rules: rules}, b, toMove)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func pt(t *testing.T, g *Game, s string) Point {
	t.Helper()
	cfg := g.Config()
	p, err := ParseGTP(s, cfg.Width, cfg.Height)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// play makes the moves (alternating from the player to move) and fails
// on any error.
func play(t *testing.T, g *Game, moves ...string) {
	t.Helper()
	for _, m := range moves {
		if err := g.Play(g.ToMove(), pt(t, g, m)); err != nil {
			t.Fatalf("%s %s: %v\n%s", g.ToMove().Name(), m, err, g.Board())
		}
	}
}

func wantBoard(t *testing.T, g *Game, want string) {
	t.Helper()
	w, err := ParseBoard(want)
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Board(); !got.Equal(w) {
		t.Fatalf("board:\n%s\nwant:\n%s", got, w)
	}
}

func TestCaptures(t *testing.T) {
	for _, tc := range []struct {
		name, before, move, after string
		captured                  int
	}{
		{"single stone in the centre", `
			. . . . .
			. . X . .
			. X O X .
			. . . . .
			. . . . .`, "C2", `
			. . . . .
			. . X . .
			. X . X .
			. . X . .
			. . . . .`, 1},
		{"corner stone, two liberties", `
			O X . . .
			. . . . .
			. . . . .
			. . . . .
			. . . . .`, "A4", `
			. X . . .
			X . . . .
			. . . . .
			. . . . .
			. . . . .`, 1},
		{"a string is captured as a unit", `
			. X X X .
			X O O O X
			. X X . .
			. . . . .
			. . . . .`, "D3", `
			. X X X .
			X . . . X
			. X X X .
			. . . . .
			. . . . .`, 3},
		{"two strings at once", `
			O X . . .
			X . . . .
			. . . . .
			. . . X .
			. . . X O`, "E2", `
			O X . . .
			X . . . .
			. . . . .
			. . . X X
			. . . X .`, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := position(t, preset(t, "japanese"), tc.before, Black)
			play(t, g, tc.move)
			wantBoard(t, g, tc.after)
			if g.Captures(Black) != tc.captured {
				t.Fatalf("captures = %d, want %d", g.Captures(Black), tc.captured)
			}
		})
	}
}

// Diagonal stones are not connected (001 figure 3, 003 diagram 5): the
// white stone at B2 is captured alone; its diagonal partner stays.
func TestDiagonalsDoNotConnect(t *testing.T) {
	// B4 and C3 touch only diagonally: filling B4's last liberty captures
	// B4 alone; C3 keeps its liberty at D3.
	g := position(t, preset(t, "japanese"), `
		. X . . .
		X O X . .
		. . O . .
		. . X . .
		. . . . .`, Black)
	play(t, g, "B3")
	wantBoard(t, g, `
		. X . . .
		X . X . .
		. X O . .
		. . X . .
		. . . . .`)
}

// The opponent's strings without liberties are removed before the
// mover's own (001 figures 7-8; 000 "capture ... then remove suicide"):
// this play at A1 has no liberty until the white string is removed, so it
// is legal even where suicide is forbidden.
func TestCaptureBeforeSuicide(t *testing.T) {
	for _, name := range []string{"japanese", "tromp-taylor", "simple", "new-zealand", "bga", "complete", "chinese", "aga", "korean"} {
		g := position(t, preset(t, name), `
			. O X . .
			O O X . .
			X X . . .
			. . . . .
			. . . . .`, Black)
		play(t, g, "A5")
		wantBoard(t, g, `
			X . X . .
			. . X . .
			X X . . .
			. . . . .
			. . . . .`)
	}
}

func TestSuicide(t *testing.T) {
	single := `
		. X . . .
		X . . . .
		. . . . .
		. . . . .
		. . . . .`
	multi := `
		O X X . O
		O X X O .
		. O O . .
		. . . . .
		. . . . .`
	// Forbidden: the move is refused and nothing changes.
	for _, name := range []string{"japanese", "korean", "complete", "bga", "chinese", "aga"} {
		g := position(t, preset(t, name), single, White)
		if err := g.Play(White, pt(t, g, "A5")); !errors.Is(err, ErrSuicide) {
			t.Fatalf("%s: single-stone suicide: %v", name, err)
		}
		wantBoard(t, g, single)
		if g.ToMove() != White {
			t.Fatalf("%s: a refused move must not pass the turn", name)
		}
	}
	// Allowed (000, 001, 004): the stone is removed after the captures,
	// and the turn passes.
	for _, name := range []string{"tromp-taylor", "simple", "new-zealand"} {
		g := position(t, preset(t, name), single, White)
		play(t, g, "A5")
		wantBoard(t, g, single)
		if g.ToMove() != Black || g.Captures(Black) != 1 {
			t.Fatalf("%s: to move %v, Black's captures %d", name, g.ToMove(), g.Captures(Black))
		}
	}
	// Multi-stone suicide: Black's four stones B4, C4, B5, C5 have one
	// liberty, D5; playing there captures nothing (E5 and D4 keep
	// liberties), so all five black stones come off.
	for _, name := range []string{"tromp-taylor", "new-zealand", "simple"} {
		g := position(t, preset(t, name), multi, Black)
		play(t, g, "D5")
		wantBoard(t, g, `
			O . . . O
			O . . O .
			. O O . .
			. . . . .
			. . . . .`)
		if g.Captures(White) != 5 {
			t.Fatalf("%s: White should be credited with 5 stones, got %d", name, g.Captures(White))
		}
	}
	// The same multi-stone suicide is refused where suicide is forbidden.
	g := position(t, preset(t, "japanese"), multi, Black)
	if err := g.Play(Black, pt(t, g, "D5")); !errors.Is(err, ErrSuicide) {
		t.Fatalf("japanese multi-stone suicide: %v", err)
	}
	wantBoard(t, g, multi)
}

// The simple ko rule (003 diagrams 12-13): no immediate recapture; after
// a play elsewhere, the ko may be retaken.
func TestSimpleKo(t *testing.T) {
	ko := `
		. X O . .
		X O . O .
		. X O . .
		. . . . .
		. . . . .`
	for _, name := range []string{"japanese", "bga", "korean"} {
		g := position(t, preset(t, name), ko, Black)
		play(t, g, "C4")
		if p, ok := g.KoPoint(); !ok || p != pt(t, g, "B4") {
			t.Fatalf("%s: ko point %v %v", name, p, ok)
		}
		if err := g.Play(White, pt(t, g, "B4")); !errors.Is(err, ErrKo) {
			t.Fatalf("%s: immediate retake: %v", name, err)
		}
		play(t, g, "E1", "E2") // a threat and its answer
		play(t, g, "B4")       // now White may retake
		wantBoard(t, g, `
			. X O . .
			X O . O .
			. X O . .
			. . . . X
			. . . . O`)
	}
	// With no ko rule (001) the immediate retake is legal.
	g := position(t, preset(t, "simple"), ko, Black)
	play(t, g, "C4", "B4")
	wantBoard(t, g, ko)
}

// A position legal under situational superko but not under positional:
// Black has just created the position; White's single-stone suicide
// recreates it. White never created that position, so text 000's and
// 004's rule (a player may not recreate a position *that player* created)
// allows it, while positional superko (any earlier position) forbids it.
func TestPositionalVersusSituationalSuperko(t *testing.T) {
	board := `
		. X . . .
		X . . . .
		. . . . .
		. . . . .
		. . . . .`
	situational := preset(t, "tromp-taylor")
	positional := situational
	positional.Ko, positional.Name = KoPositional, "custom"
	for _, tc := range []struct {
		rules Rules
		want  error
	}{{situational, nil}, {positional, ErrSuperko}} {
		g := position(t, tc.rules, board, Black)
		play(t, g, "E1") // Black creates the position P
		play(t, g, "E2") // White
		play(t, g, "D1") // Black: P' (Black created it)
		// White suicides at A5: the board returns to P', which Black made.
		err := g.Play(White, pt(t, g, "A5"))
		if !errors.Is(err, tc.want) && !(err == nil && tc.want == nil) {
			t.Fatalf("%s: White's suicide recreating Black's position: %v, want %v", tc.rules.Ko, err, tc.want)
		}
	}
}

// Under 000 a pass creates the position for the passer: after White
// passes, a White suicide that returns to that position is a repetition.
func TestSituationalPass(t *testing.T) {
	g := position(t, preset(t, "tromp-taylor"), `
		. X . . .
		X . . . .
		. . . . .
		. . . . .
		. . . . .`, White)
	play(t, g, "E1")
	play(t, g, "D1")
	if err := g.Play(White, Pass); err != nil { // White "creates" this position
		t.Fatal(err)
	}
	play(t, g, "C1")                            // Black
	play(t, g, "A5")                            // White suicide: the position Black made: legal
	if err := g.Play(Black, Pass); err != nil { // Black passes: same position again, created by Black too
		t.Fatal(err)
	}
	// White suicides again: the board stays the position White created by
	// its suicide move: a repetition of White's own position.
	if err := g.Play(White, pt(t, g, "A5")); !errors.Is(err, ErrSuperko) {
		t.Fatalf("White repeating its own position: %v", err)
	}
}

// tripleKo is a 4×11 board with three kos: in the top and bottom ones
// Black can capture, in the middle one White can.
const tripleKo = `
	. X O .
	X O . O
	. X O .
	. . . .
	. X O .
	X . X O
	. X O .
	. . . .
	. X O .
	X O . O
	. X O .`

// The cycle: B C10, W B6, B C2, W B10, B C6, W B2 — the starting position
// again with Black to move. Every capture is legal under simple ko.
var tripleKoCycle = []string{"C10", "B6", "C2", "B10", "C6", "B2"}

func TestTripleKo(t *testing.T) {
	// Japanese: simple ko allows the cycle; the third time the same
	// position comes with the same player to move, the game has no result.
	for _, tc := range []struct {
		preset string
		want   string
	}{{"japanese", "Void"}, {"korean", "Void"}, {"bga", "Void"}, {"simple", "0"}} {
		g := position(t, preset(t, tc.preset), tripleKo, Black)
		play(t, g, tripleKoCycle...) // position repeats (2nd time)
		play(t, g, tripleKoCycle[:5]...)
		if g.Phase() != Playing {
			t.Fatalf("%s: ended early after %d moves", tc.preset, g.MoveCount())
		}
		play(t, g, tripleKoCycle[5]) // 3rd time
		res, over := g.Result()
		if !over || res.String() != tc.want {
			t.Fatalf("%s: result %v (%v), want %s", tc.preset, res, over, tc.want)
		}
	}
	// Positional superko (002, chinese): the sixth move would recreate
	// the starting position, so it is refused.
	for _, name := range []string{"complete", "chinese"} {
		g := position(t, preset(t, name), tripleKo, Black)
		play(t, g, tripleKoCycle[:5]...)
		if err := g.Play(White, pt(t, g, "B2")); !errors.Is(err, ErrSuperko) {
			t.Fatalf("%s: recreating the start: %v", name, err)
		}
	}
	// Situational superko (000, 004): nobody created the starting
	// position, so the sixth move is legal; the seventh would recreate the
	// position Black created with the first, and is refused.
	for _, name := range []string{"new-zealand", "tromp-taylor", "aga"} {
		g := position(t, preset(t, name), tripleKo, Black)
		play(t, g, tripleKoCycle...)
		if err := g.Play(Black, pt(t, g, "C10")); !errors.Is(err, ErrSuperko) {
			t.Fatalf("%s: repeating the cycle: %v", name, err)
		}
	}
}

// Seki (002 rules 16 and 18; 003 diagram 14): the black and white
// strings at the top share the liberty C5; whoever fills it puts their
// own string in atari. Each has one eye (A5 black, E5 white). Under
// territory counting those eyes and C5 count for nobody (but with pass
// stones, bga); under area counting each eye counts for its owner.
func TestSekiUnderTerritoryAndArea(t *testing.T) {
	b, err := ParseBoard(`
		. X . O .
		X X X O O
		O O O X X
		. . . . .
		. . . . .`)
	if err != nil {
		t.Fatal(err)
	}
	owner := func(s Score, p string) Color {
		q, _ := ParseGTP(p, 5, 5)
		return s.Owner[int(q.Y)*5+int(q.X)]
	}
	terr := Count(b, nil, Config{Width: 5, Height: 5, Rules: preset(t, "japanese")}, [3]int{})
	for _, p := range []string{"A5", "C5", "E5"} {
		if o := owner(terr, p); o != Empty {
			t.Errorf("territory: %s counted for %v, want nobody (seki)", p, o)
		}
	}
	if terr.Black.Territory != 0 || terr.White.Territory != 0 {
		t.Errorf("territory: B %d, W %d, want 0 and 0", terr.Black.Territory, terr.White.Territory)
	}
	area := Count(b, nil, Config{Width: 5, Height: 5, Rules: preset(t, "chinese")}, [3]int{})
	if owner(area, "A5") != Black || owner(area, "E5") != White || owner(area, "C5") != Empty {
		t.Errorf("area: A5 %v, E5 %v, C5 %v", owner(area, "A5"), owner(area, "E5"), owner(area, "C5"))
	}
	// 6 black stones + A5 against 6 white stones + E5 (+7.5 komi).
	if area.Black.Total != 7 || area.White.Total != 14.5 {
		t.Errorf("area totals: B %v, W %v", area.Black.Total, area.White.Total)
	}
	// bga (text 003) counts "each vacant point inside their own
	// territory", with no seki exception: with its pass stones the
	// count is area counting's, and each eye is its owner's.
	bga := Count(b, nil, Config{Width: 5, Height: 5, Rules: preset(t, "bga")}, [3]int{})
	if owner(bga, "A5") != Black || owner(bga, "E5") != White || owner(bga, "C5") != Empty ||
		bga.Black.Territory != 1 || bga.White.Territory != 1 {
		t.Errorf("bga: A5 %v, E5 %v, C5 %v; territory B %d, W %d", owner(bga, "A5"), owner(bga, "E5"), owner(bga, "C5"), bga.Black.Territory, bga.White.Territory)
	}
	// Both sides really are stuck: filling C5 is self-atari for each.
	for _, c := range []Color{Black, White} {
		g := position(t, preset(t, "japanese"), b.String(), c)
		play(t, g, "C5")
		if g.Phase() != Playing {
			t.Fatal("game ended")
		}
		// The opponent now captures the atari'd string.
		eye := map[Color]string{Black: "A5", White: "E5"}[c]
		play(t, g, eye)
		if g.Captures(c.Opponent()) < 4 {
			t.Errorf("%v filling C5 should lose its string; opponent captured %d", c, g.Captures(c.Opponent()))
		}
	}
}
