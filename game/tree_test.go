package game

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

func sgfText(t testing.TB, tr *Tree) string {
	t.Helper()
	var buf bytes.Buffer
	if err := tr.WriteSGF(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func treeFromText(t testing.TB, s string) *Tree {
	t.Helper()
	roots, err := ParseSGF([]byte(s))
	if err != nil {
		t.Fatalf("ParseSGF: %v\n%s", err, s)
	}
	tr, err := TreeFromSGF(roots[0])
	if err != nil {
		t.Fatalf("TreeFromSGF: %v\n%s", err, s)
	}
	return tr
}

func treePt(t testing.TB, tr *Tree, s string) Point {
	t.Helper()
	p, err := ParseGTP(s, tr.Width, tr.Height)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTreeReview walks what a review does: a finished game's main line,
// a variation played off it, marks and comments, the SGF written with
// all of them and read back by the SGF reader.
func TestTreeReview(t *testing.T) {
	g, err := New(Config{Width: 9, Height: 9, Rules: mustPreset(t, "japanese")})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"E5", "C3", "G7", "D7"} {
		p, _ := ParseGTP(m, 9, 9)
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatal(err)
		}
	}
	if err := g.Resign(Black); err != nil {
		t.Fatal(err)
	}
	tr, err := TreeFromRecord(g.Record(), GameInfo{Black: "ann", White: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	main := tr.MainLine()
	if len(main) != 5 || tr.MoveNumber(main[4]) != 4 || !tr.OnMainLine(main[4]) {
		t.Fatalf("main line %v", main)
	}
	// A variation at move 2: White plays G3 instead of C3.
	v, err := tr.Play(main[1], treePt(t, tr, "G3"))
	if err != nil {
		t.Fatal(err)
	}
	if tr.OnMainLine(v) || tr.MoveNumber(v) != 2 || tr.ToPlay(v) != Black {
		t.Fatalf("variation node %d: main %v, number %d, to play %v", v, tr.OnMainLine(v), tr.MoveNumber(v), tr.ToPlay(v))
	}
	// Playing the same move again finds the same node.
	if again, err := tr.Play(main[1], treePt(t, tr, "G3")); err != nil || again != v {
		t.Fatalf("replayed variation: %d, %v; want %d", again, err, v)
	}
	if again, _ := tr.Play(main[1], treePt(t, tr, "C3")); again != main[2] {
		t.Fatalf("the main line's move made node %d, want %d", again, main[2])
	}
	if _, err := tr.Play(v, treePt(t, tr, "E5")); !errors.Is(err, ErrOccupied) {
		t.Fatalf("move onto a stone: %v", err)
	}
	b, placed, err := tr.Position(v)
	if err != nil {
		t.Fatal(err)
	}
	g3 := treePt(t, tr, "G3")
	if b.At(g3) != White || placed[b.index(g3)] != v || b.At(treePt(t, tr, "C3")) != Empty {
		t.Fatalf("position at the variation:\n%s", b)
	}
	if err := tr.SetComment(v, "White should tenuki ] \\ here"); err != nil {
		t.Fatal(err)
	}
	for _, m := range []Mark{
		{Point: g3, Shape: Triangle}, {Point: treePt(t, tr, "E5"), Shape: Square},
		{Point: treePt(t, tr, "C7"), Shape: Circle}, {Point: treePt(t, tr, "C3"), Shape: Label, Text: "A"},
		{Point: treePt(t, tr, "D3"), Shape: Circle}, {Point: treePt(t, tr, "D3"), Shape: Circle}, // on and off again
	} {
		if err := tr.ToggleMark(v, m); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.ToggleMark(v, Mark{Point: g3, Shape: Label, Text: "long label"}); !errors.Is(err, ErrBadMark) {
		t.Fatalf("long label: %v", err)
	}
	if err := tr.SetComment(main[0], strings.Repeat("x", MaxCommentLen+1)); !errors.Is(err, ErrLongComment) {
		t.Fatalf("long comment: %v", err)
	}
	text := sgfText(t, tr)
	for _, want := range []string{"C[White should tenuki \\] \\\\ here]", "TR[gg]", "SQ[ee]", "CR[cc]", "LB[cg:A]", "(;W[gg]", "PB[ann]", "RE[W+R]"} {
		if !strings.Contains(text, want) {
			t.Errorf("SGF lacks %s:\n%s", want, text)
		}
	}
	if strings.Contains(text, "CR[dg]") {
		t.Errorf("a mark toggled off is written:\n%s", text)
	}
	// The reader sees the main line as the game and the variation in the tree.
	rec := mustReadSGF(t, text)
	if rec.MoveCount() != 4 || rec.Info.Black != "ann" || len(rec.Root.Children[0].Children) != 2 {
		t.Fatalf("read back: %d moves, PB %q, %d children of move 1\n%s", rec.MoveCount(), rec.Info.Black, len(rec.Root.Children[0].Children), text)
	}
	back := treeFromText(t, text)
	if got := sgfText(t, back); got != text {
		t.Fatalf("round trip differs:\n%s\nwant\n%s", got, text)
	}
	var found bool
	for i := range back.Nodes {
		if back.Nodes[i].Comment == "White should tenuki ] \\ here" && !back.OnMainLine(i) && len(back.Nodes[i].Marks) == 4 {
			found = true
		}
	}
	if !found {
		t.Fatalf("the variation's comment and marks did not come back: %+v", back.Nodes)
	}
}

func TestTreeEmptyAndKo(t *testing.T) {
	tr, err := NewTree(5, 5)
	if err != nil {
		t.Fatal(err)
	}
	// A ko: Black takes at C3, White may not take back at once.
	at := 0
	for _, m := range []string{"B2", "C2", "A3", "D3", "B4", "C4", "pass", "B3", "C3"} {
		if at, err = tr.Play(at, treePt(t, tr, m)); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if _, err := tr.Play(at, treePt(t, tr, "B3")); !errors.Is(err, ErrKo) {
		t.Fatalf("ko retaken: %v", err)
	}
	if _, err := NewTree(30, 30); err == nil {
		t.Fatal("a 30×30 tree was made")
	}
	if _, _, err := tr.Position(len(tr.Nodes)); !errors.Is(err, ErrNoNode) {
		t.Fatalf("position of no node: %v", err)
	}
}

func TestTreeFromSGFErrors(t *testing.T) {
	for _, c := range []struct{ sgf, want string }{
		{"(;SZ[5];B[cc];W[cc])", "occupied"},
		{"(;SZ[5];B[cc](;W[zz])(;W[aa]))", "off the board"},
		{"(;SZ[5];B[cc]W[dd])", "one move"},
		{"(;SZ[5]LB[cc])", "point:text"},
		{"(;SZ[5](;B[cc])(;B[dd];W[dd];B[ee]W[aa]))", "one move"},
	} {
		roots, err := ParseSGF([]byte(c.sgf))
		if err != nil {
			t.Fatal(err)
		}
		_, err = TreeFromSGF(roots[0])
		if err == nil || !strings.Contains(err.Error(), c.want) || len(err.Error()) > 200 {
			t.Errorf("%s: error %v, want %q", c.sgf, err, c.want)
		}
	}
	var b strings.Builder
	b.WriteString("(;SZ[9]")
	for i := 0; i < MaxTreeNodes; i++ {
		b.WriteString(";B[]")
	}
	b.WriteString(")")
	roots, _ := ParseSGF([]byte(b.String()))
	if _, err := TreeFromSGF(roots[0]); !errors.Is(err, ErrTreeFull) {
		t.Fatalf("a tree over the limit: %v", err)
	}
}

// TestTreeRandom grows random trees with random marks and comments and
// checks that the SGF written reads back to the same SGF.
func TestTreeRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 1))
	for i := 0; i < 40; i++ {
		tr, _ := NewTree(7+rng.IntN(3)*2, 9)
		for k := 0; k < 120; k++ {
			n := rng.IntN(len(tr.Nodes))
			p := Pt(rng.IntN(tr.Width), rng.IntN(tr.Height))
			switch rng.IntN(6) {
			case 0:
				_ = tr.ToggleMark(n, Mark{Point: p, Shape: MarkShape(1 + rng.IntN(4)), Text: "ab"})
			case 1:
				_ = tr.SetComment(n, "c ] \\ ü")
			default:
				_, _ = tr.Play(n, p)
			}
		}
		text := sgfText(t, tr)
		if got := sgfText(t, treeFromText(t, text)); got != text {
			t.Fatalf("tree %d round trip differs:\n%s\nwant\n%s", i, got, text)
		}
	}
}

func FuzzTreeSGF(f *testing.F) {
	for _, name := range sgfTestdata(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("(;SZ[5]TR[aa][bb]LB[cc:x];B[cc]C[a]SQ[dd](;W[dd]CR[aa])(;W[]))"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roots, err := ParseSGF(data)
		if err != nil {
			return
		}
		tr, err := TreeFromSGF(roots[0])
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			return
		}
		text := sgfText(t, tr)
		if got := sgfText(t, treeFromText(t, text)); got != text {
			t.Fatalf("round trip differs:\n%s\nwant\n%s", got, text)
		}
	})
}
