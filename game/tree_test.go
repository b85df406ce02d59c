package game

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
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
	// Point lists that repeat the board, marks and setup on one point.
	f.Add([]byte("(;SZ[5]AB[aa:ee][aa:ee][cc]AE[bb:aa]AW[ee]TR[aa:cc]SQ[aa]LB[aa:x][bb:y];AB[aa:ee];AE[aa:ee]CR[ee:aa](;B[cc])(;W[cc]))"))
	f.Add([]byte("(;SZ[3]" + strings.Repeat(";AB[aa:cc]TR[aa:cc]", 20) + ")(;C[second"))
	f.Fuzz(func(t *testing.T, data []byte) {
		read, readErr := ReadTreeSGF(data)
		if readErr == nil {
			checkTreeLimits(t, read)
		}
		roots, err := ParseSGF(data)
		if err != nil {
			return
		}
		tr, err := TreeFromSGF(roots[0])
		if err != nil {
			if len(err.Error()) > 300 {
				t.Fatalf("error of %d bytes", len(err.Error()))
			}
			if readErr == nil {
				t.Fatalf("ReadTreeSGF read a tree TreeFromSGF refuses: %v", err)
			}
			return
		}
		if readErr != nil {
			t.Fatalf("ReadTreeSGF refuses a tree TreeFromSGF reads: %v", readErr)
		}
		text := sgfText(t, tr)
		if got := sgfText(t, read); got != text {
			t.Fatalf("ReadTreeSGF read\n%s\nTreeFromSGF\n%s", got, text)
		}
		if got := sgfText(t, treeFromText(t, text)); got != text {
			t.Fatalf("round trip differs:\n%s\nwant\n%s", got, text)
		}
	})
}

// checkTreeLimits fails t when tr is beyond a tree's limits, or a node
// holds a point twice in its setup or its marks.
func checkTreeLimits(t testing.TB, tr *Tree) {
	t.Helper()
	points, text := tr.size()
	if len(tr.Nodes) > MaxTreeNodes || points > MaxTreePoints || text > MaxTreeText {
		t.Fatalf("a tree of %d nodes, %d points, %d bytes of text", len(tr.Nodes), points, text)
	}
	for _, f := range tr.Info.texts() {
		if len(*f) > MaxInfoLen {
			t.Fatalf("game-info of %d bytes", len(*f))
		}
	}
	for i, n := range tr.Nodes {
		var setup, marks pointSet
		for _, pts := range n.Setup {
			for _, p := range pts {
				if !setup.add(p) {
					t.Fatalf("node %d sets %v twice", i, p)
				}
			}
		}
		for _, m := range n.Marks {
			if !marks.add(m.Point) {
				t.Fatalf("node %d marks %v twice", i, m.Point)
			}
		}
	}
}

// uploadLimit is the review command's bound on an attached file
// (chat/protocol.MaxRequestFile).
const uploadLimit = 256 << 10

// readCost bounds the bytes reading n bytes of SGF into a tree may
// allocate: a small multiple of n, and the few MB of a tree's nodes.
func readCost(n int) uint64 { return 64*uint64(n) + 4<<20 }

// allocated returns the bytes fn allocates.
func allocated(fn func()) uint64 {
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	fn()
	runtime.ReadMemStats(&m1)
	return m1.TotalAlloc - m0.TotalAlloc
}

// fill repeats unit between head and tail up to n bytes.
func fill(n int, head, unit, tail string) []byte {
	return []byte(head + strings.Repeat(unit, (n-len(head)-len(tail))/len(unit)) + tail)
}

// TestTreeLimits (issue 43): an SGF within the upload limit whose
// compressed point lists repeat the board tens of thousands of times is
// read into a node holding each point once, at a cost of a small
// multiple of its size; trees beyond MaxTreeNodes, MaxTreePoints or
// MaxTreeText are refused, found before they are built whole.
func TestTreeLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		data []byte
		err  error // nil: read, with a root of 625 or 361 points
	}{
		// 37,000 rectangles of the whole board: 23 million points once.
		{"25x25 board ×37k", fill(uploadLimit, "(;SZ[25]AB", "[aa:yy]", ")"), nil},
		{"19x19 board ×29k", fill(uploadLimit, "(;SZ[19]", "AB[aa:ss]", ")"), nil},
		{"marks ×29k", fill(uploadLimit, "(;SZ[25]", "TR[aa:yy]", ")"), nil},
		// Each node within the board, the tree beyond MaxTreePoints.
		{"4,000 full nodes", []byte("(;SZ[25]" + strings.Repeat(";AB[aa:yy]AE[aa:yy]AW[aa:yy]TR[aa:yy]", 4000) + ")"), ErrTreePoints},
		{"5,000 variations of full nodes", []byte("(;SZ[25]" + strings.Repeat("(;AW[aa:yy]SQ[aa:yy])", 4999) + ")"), ErrTreePoints},
		// Latin-1 comments, twice their bytes in UTF-8.
		{"Latin-1 comments", fill(uploadLimit, "(;SZ[9]", ";C["+strings.Repeat("\xe9", 1000)+"]", ")"), ErrTreeText},
		{"nodes", fill(uploadLimit, "(;SZ[9]", ";", ")"), ErrTreeFull},
		{"variations", fill(uploadLimit, "(;SZ[9]", "(;B[])", ")"), ErrTreeFull},
	} {
		var (
			tr  *Tree
			err error
		)
		cost := allocated(func() { tr, err = ReadTreeSGF(c.data) })
		if len(c.data) > uploadLimit {
			t.Fatalf("%s: %d bytes", c.name, len(c.data))
		}
		if cost > readCost(len(c.data)) {
			t.Errorf("%s: %d bytes of SGF allocated %d bytes, over %d", c.name, len(c.data), cost, readCost(len(c.data)))
		}
		if c.err != nil {
			if !errors.Is(err, c.err) || len(err.Error()) > 200 {
				t.Errorf("%s: %v, want %v", c.name, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		root := tr.Nodes[0]
		if n := len(root.Setup[Black]) + len(root.Marks); n != tr.Width*tr.Height {
			t.Errorf("%s: %d points in the root, want the board's %d once", c.name, n, tr.Width*tr.Height)
		}
	}
}

// TestTreeEditLimits: the board's edits do not grow a tree beyond
// MaxTreePoints or MaxTreeText either, while taking a mark off or
// changing one stays possible; game-info is clipped to MaxInfoLen.
func TestTreeEditLimits(t *testing.T) {
	// 16 nodes of 625 setup points and 625 marks: MaxTreePoints.
	full := "(;SZ[25]AB[aa:yy]TR[aa:yy]" + strings.Repeat(";AE[aa:yy]TR[aa:yy];AB[aa:yy]TR[aa:yy]", 7) + ";AE[aa:yy]TR[aa:yy];B[])"
	tr := treeFromText(t, full)
	last := len(tr.Nodes) - 1
	if points, _ := tr.size(); points != MaxTreePoints || last != 16 {
		t.Fatalf("%d points in %d nodes", points, last+1)
	}
	if err := tr.ToggleMark(last, Mark{Point: Pt(0, 0), Shape: Circle}); !errors.Is(err, ErrTreePoints) {
		t.Fatalf("a mark beyond the limit: %v", err)
	}
	if err := tr.ToggleMark(0, Mark{Point: Pt(0, 0), Shape: Square}); err != nil {
		t.Fatalf("a mark changed at the limit: %v", err)
	}
	if err := tr.ToggleMark(0, Mark{Point: Pt(0, 0), Shape: Square}); err != nil {
		t.Fatalf("a mark taken off at the limit: %v", err)
	}
	if err := tr.ToggleMark(last, Mark{Point: Pt(0, 0), Shape: Circle}); err != nil {
		t.Fatalf("a mark after one was taken off: %v", err)
	}
	if _, err := ReadTreeSGF([]byte(strings.Replace(full, ";B[]", ";B[]CR[aa]", 1))); !errors.Is(err, ErrTreePoints) {
		t.Fatalf("the SGF of one mark more: %v", err)
	}

	tr, _ = NewTree(9, 9)
	comment := strings.Repeat("é", MaxCommentLen/2)
	at := 0
	for i := 0; i < MaxTreeText/MaxCommentLen; i++ {
		if err := tr.SetComment(at, comment); err != nil {
			t.Fatalf("comment %d: %v", i, err)
		}
		at, _ = tr.Play(at, Pass)
	}
	if err := tr.SetComment(at, comment); !errors.Is(err, ErrTreeText) {
		t.Fatalf("a comment beyond the limit: %v", err)
	}
	if err := tr.SetComment(0, "shorter"); err != nil {
		t.Fatalf("a comment shortened at the limit: %v", err)
	}
	if err := tr.ToggleMark(at, Mark{Point: Pt(0, 0), Shape: Label, Text: "abcd"}); err != nil {
		t.Fatalf("a label after a comment was shortened: %v", err)
	}

	tr = treeFromText(t, "(;SZ[9]PB["+strings.Repeat("Honinbo ", 1000)+"]EV[Meijin])")
	if len(tr.Info.Black) > MaxInfoLen || !strings.HasPrefix(tr.Info.Black, "Honinbo Honinbo") || tr.Info.Event != "Meijin" {
		t.Errorf("game-info %q (%d bytes), event %q", tr.Info.Black[:20], len(tr.Info.Black), tr.Info.Event)
	}
}

// BenchmarkReadTreeSGF reads files at the upload limit shaped to cost
// the most (issue 43); "alloc/byte" is the bytes allocated a byte read.
func BenchmarkReadTreeSGF(b *testing.B) {
	var distinct strings.Builder // 43,000 properties of different names in one node
	distinct.WriteString("(;SZ[25]")
	for i := 0; distinct.Len() < uploadLimit-10; i++ {
		distinct.Write([]byte{'A' + byte(i%26), 'A' + byte(i/26%26), 'A' + byte(i/676%26), 'A' + byte(i/17576%26), '[', ']'})
	}
	distinct.WriteString(")")
	for _, c := range []struct {
		name string
		data []byte
	}{
		{"rectangles", fill(uploadLimit, "(;SZ[25]AB", "[aa:yy]", ")")},
		{"properties", []byte(distinct.String())},
		{"values", fill(uploadLimit, "(;SZ[25]XX", "[]", ")")},
		{"variations", []byte("(;SZ[25]" + strings.Repeat("(;B[aa])", MaxTreeNodes-1) + ")")},
		{"nodes", fill(uploadLimit, "(;SZ[25]", ";", ")")},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			b.ReportAllocs()
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			for b.Loop() {
				if _, err := ReadTreeSGF(c.data); err != nil && !errors.Is(err, ErrTreeFull) {
					b.Fatal(err)
				}
			}
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/float64(len(c.data)), "alloc/byte")
		})
	}
}
