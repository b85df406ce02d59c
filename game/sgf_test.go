package game

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

var updateSGF = flag.Bool("update-sgf", false, "rewrite the generated records in testdata/")

func mustParseSGF(t testing.TB, s string) []*SGFNode {
	t.Helper()
	roots, err := ParseSGF([]byte(s))
	if err != nil {
		t.Fatalf("ParseSGF: %v", err)
	}
	return roots
}

func mustReadSGF(t testing.TB, s string) *SGFRecord {
	t.Helper()
	recs, err := ReadSGF([]byte(s))
	if err != nil {
		t.Fatalf("ReadSGF: %v", err)
	}
	if len(recs) != 1 {
		t.Fatalf("ReadSGF: %d records, want 1", len(recs))
	}
	return recs[0]
}

func TestParseSGFExample(t *testing.T) {
	data, err := os.ReadFile("testdata/ff4_ex.sgf")
	if err != nil {
		t.Fatal(err)
	}
	roots, err := ParseSGF(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(roots) != 2 {
		t.Fatalf("%d game trees, want 2", len(roots))
	}
	root := roots[0]
	if gn, _ := root.Get("GN"); gn != "Gametree 1: properties" {
		t.Errorf("GN = %q", gn)
	}
	// The root has five variations: moves, setup, markup, style, time.
	if len(root.Children) != 5 {
		t.Fatalf("root has %d variations, want 5", len(root.Children))
	}
	main := root.MainLine()
	if len(main) != 14 {
		t.Errorf("main line has %d nodes, want 14", len(main))
	}
	if v, _ := main[len(main)-1].Get("B"); v != "tt" {
		t.Errorf("last main-line move B[%s], want B[tt]", v)
	}
	setup := root.Children[1]
	if got := setup.Values("AB"); !reflect.DeepEqual(got, []string{"dd", "de", "df", "dg", "do:gq"}) {
		t.Errorf("AB = %q", got)
	}
	c, _ := setup.Children[0].Get("C")
	if !strings.Contains(c, "erased in FF[3] way") {
		t.Errorf("escaped ] not read: %q", c)
	}
	style := root.Children[3]
	c, _ = style.Get("C")
	if !strings.Contains(c, "like this one >ok<.") || !strings.Contains(c, "linebreak 1 \"\\n\": >ok<") {
		t.Errorf("soft line breaks not removed or \\\\ not unescaped:\n%s", c)
	}
	if n := len(style.Children); n != 6 {
		t.Errorf("style node has %d variations, want 6", n)
	}
	if n := len(style.Children[0].Children); n != 4 {
		t.Errorf("W[dd] has %d variations, want 4", n)
	}
	// Tree 2: game-info in a variation, a soft line break in the root comment.
	c, _ = roots[1].Get("C")
	if !strings.Contains(c, "stored in the node where the game first") {
		t.Errorf("soft line break in tree 2 not removed: %q", c)
	}
	r, err := DecodeSGF(roots[1])
	if err != nil {
		t.Fatal(err)
	}
	if r.Info.White != "W. Hite" || r.Info.Result != "W+3.5" || r.Info.Event != "Go Congress" || len(r.Info.Moves[1].Extra) != 0 {
		t.Errorf("game-info of the main line's second node not read: %+v", r.Info)
	}
}

func TestParseSGFSyntax(t *testing.T) {
	roots := mustParseSGF(t, "junk before (;FF[4] C [a\\]b\\\\c\\\nd]\n AB[aa] [bb]\t;  B[cc]W[]) trailing")
	if len(roots) != 1 {
		t.Fatalf("%d roots", len(roots))
	}
	r := roots[0]
	if c, _ := r.Get("C"); c != "a]b\\cd" {
		t.Errorf("C = %q, want %q", c, "a]b\\cd")
	}
	if got := r.Values("AB"); !reflect.DeepEqual(got, []string{"aa", "bb"}) {
		t.Errorf("AB = %q", got)
	}
	n := r.Children[0]
	if b, _ := n.Get("B"); b != "cc" {
		t.Errorf("B = %q", b)
	}
	if w, ok := n.Get("W"); !ok || w != "" {
		t.Errorf("W = %q, %v; want an empty value", w, ok)
	}
	// FF[3] long names keep their capitals; repeated properties merge.
	r = mustParseSGF(t, "(;AddBlack[aa]AB[bb];CoPyright[x])")[0]
	if got := r.Values("AB"); !reflect.DeepEqual(got, []string{"aa", "bb"}) {
		t.Errorf("AddBlack + AB = %q", got)
	}
	if v, _ := r.Children[0].Get("CP"); v != "x" {
		t.Errorf("CoPyright = %q", v)
	}
	// Soft line breaks in every line-end convention.
	for _, nl := range []string{"\n", "\r\n", "\n\r", "\r"} {
		r = mustParseSGF(t, "(;C[o\\"+nl+"k"+nl+"x])")[0]
		if c, _ := r.Get("C"); c != "ok"+nl+"x" {
			t.Errorf("soft break %q: C = %q", nl, c)
		}
	}
	// Several game trees, variations at the top.
	roots = mustParseSGF(t, "(;GM[1](;B[aa];W[bb])(;B[cc]))\n(;GM[1])")
	if len(roots) != 2 || len(roots[0].Children) != 2 || len(roots[0].Children[0].Children) != 1 {
		t.Fatalf("tree shape wrong")
	}
}

func TestParseSGFErrors(t *testing.T) {
	tests := []struct {
		in        string
		line, col int
		msg       string
	}{
		{"", 1, 1, "no game tree"},
		{"hello", 1, 1, "no game tree"},
		{"(;B[aa]", 1, 1, "never closed with \")\""},
		{"(;B[aa]\n;W[bb", 2, 3, "never closed with \"]\""},
		{"()", 1, 2, "empty game tree"},
		{"(B[aa])", 1, 2, "starts with a node"},
		{"(;B)", 1, 4, "property B has no value"},
		{"(;B[aa](;W[bb]);B[cc])", 1, 16, "cannot follow variations"},
		{"(;B[aa]\n  1[x])", 2, 3, "unexpected '1'"},
		{"(;GM[1]C[x\\", 1, 9, "never closed"},
		{"(;GM[1]\n(;B[aa]", 2, 1, "never closed with \")\""},
	}
	for _, tt := range tests {
		_, err := ParseSGF([]byte(tt.in))
		var se *SGFError
		if !errors.As(err, &se) || !errors.Is(err, ErrSGF) {
			t.Errorf("ParseSGF(%q) = %v, want an *SGFError", tt.in, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || !strings.Contains(se.Msg, tt.msg) {
			t.Errorf("ParseSGF(%q) = %v; want line %d, column %d, %q", tt.in, err, tt.line, tt.col, tt.msg)
		}
	}
}

// TestParseSGFNotSGF: input that is no SGF record at all (a PNG, a text
// with no game tree) is ErrNotSGF with a message that says so, not a
// line and column deep in the file; a record that starts with "(", or
// has text such as mail headers before its first "(;", keeps its precise
// error. Before, a PNG gave "SGF line 5, column 65 (byte 500): a game
// tree starts with a node…".
func TestParseSGFNotSGF(t *testing.T) {
	var png bytes.Buffer
	png.WriteString("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01")
	png.WriteString("\x00\x00\x00\x01\x00\x08\x02\x00(\x93\x1b]\x00\x00\x00\x01sRGB")
	for _, in := range []string{
		"",
		"hello",
		png.String(),
		"hello (world)",
		"\xef\xbb\xbf  see (below)",
		"\x00\x01\x02(;B[aa]", // binary before a tree that is never closed
	} {
		_, err := ParseSGF([]byte(in))
		var se *SGFError
		if !errors.Is(err, ErrNotSGF) || !errors.Is(err, ErrSGF) || !errors.As(err, &se) {
			t.Errorf("ParseSGF(%q) = %v, want ErrNotSGF", in, err)
			continue
		}
		if want := `not an SGF file (no game tree: an SGF record starts with "(;")`; err.Error() != want {
			t.Errorf("ParseSGF(%q) = %q, want %q", in, err, want)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"(B[aa])", "SGF line 1, column 2 (byte 1): a game tree starts with a node"},
		{" \n(hello", "SGF line 2, column 2 (byte 3): a game tree starts with a node"},
		{"\xef\xbb\xbf(;B[aa]", "never closed"},
		{"From: ann\nSubject: game\n\n(;B[aa]\n;W[bb", "SGF line 5, column 3 (byte 35): property value \"[\" opened here is never closed"},
		{"From: a (Alice)\n\n(;GM[1]SZ[9];B[dd]C[oops", "never closed"},
	} {
		_, err := ParseSGF([]byte(tc.in))
		if err == nil || errors.Is(err, ErrNotSGF) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseSGF(%q) = %v, want a real SGF's error %q", tc.in, err, tc.want)
		}
	}
	// Reading past junk still works, binary junk included.
	for _, in := range []string{"junk before (;B[aa])", "\x00\x01(;B[aa])"} {
		if _, err := ParseSGF([]byte(in)); err != nil {
			t.Errorf("ParseSGF(%q) = %v, want the record", in, err)
		}
	}
}

func TestWriteSGFTreeRoundTrip(t *testing.T) {
	for _, name := range sgfTestdata(t) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		roots := mustParseSGF(t, string(data))
		var buf bytes.Buffer
		if err := WriteSGFTree(&buf, roots...); err != nil {
			t.Fatal(err)
		}
		again := mustParseSGF(t, buf.String())
		if !reflect.DeepEqual(roots, again) {
			t.Errorf("%s: write → parse changed the tree:\n%s", name, buf.String())
		}
	}
}

func sgfTestdata(t testing.TB) []string {
	names, err := filepath.Glob("testdata/*.sgf")
	if err != nil || len(names) == 0 {
		t.Fatalf("no testdata/*.sgf: %v", err)
	}
	return names
}

func TestDecodeSGF(t *testing.T) {
	r := mustReadSGF(t, `(;GM[1]FF[4]SZ[13:9]KM[-3.5]HA[2]RU[Japanese]PB[Black \] Name]PW[W]BR[3d]WR[5k]DT[2024-01-02]
		RE[W+R]EV[Cup]RO[1]PC[Here]GN[Game]C[root comment]TM[600]OT[5x30 byo-yomi]XX[kept][too]
		AB[ab:bc][mi]AW[ca]AE[ab]
		;B[dd]C[first]BL[590.5]OB[3]ZZ[z];W[]WL[100];B[tt];W[ia]PL[B])`)
	if r.Width != 13 || r.Height != 9 || r.Komi != -3.5 || !r.HasKomi || r.Handicap != 2 || r.Rules != "Japanese" {
		t.Fatalf("record = %dx%d komi %v %v handicap %d rules %q", r.Width, r.Height, r.Komi, r.HasKomi, r.Handicap, r.Rules)
	}
	want := GameInfo{
		Black: "Black ] Name", White: "W", BlackRank: "3d", WhiteRank: "5k", Date: "2024-01-02", Result: "W+R",
		Event: "Cup", Round: "1", Place: "Here", Name: "Game", Comment: "root comment", TimeLimit: "600",
		Overtime: "5x30 byo-yomi",
		Moves: []MoveInfo{
			{Comment: "first", BlackTime: "590.5", BlackPeriods: "3", Extra: []SGFProperty{{ID: "ZZ", Values: []string{"z"}}}},
			{WhiteTime: "100"}, {}, {},
		},
		Extra: []SGFProperty{{ID: "XX", Values: []string{"kept", "too"}}},
	}
	if !reflect.DeepEqual(r.Info, want) {
		t.Errorf("info =\n%+v\nwant\n%+v", r.Info, want)
	}
	root := r.Nodes[0]
	if got, want := root.Setup[Black], []Point{Pt(0, 1), Pt(1, 1), Pt(0, 2), Pt(1, 2), Pt(12, 8)}; !reflect.DeepEqual(got, want) {
		t.Errorf("AB = %v, want %v", got, want)
	}
	if len(root.Setup[White]) != 1 || len(root.Setup[Empty]) != 1 {
		t.Errorf("AW, AE = %v, %v", root.Setup[White], root.Setup[Empty])
	}
	var moves []Move
	for _, st := range r.Nodes {
		if st.Move.Color != Empty {
			moves = append(moves, st.Move)
		}
	}
	wantMoves := []Move{{Black, Pt(3, 3)}, {White, Pass}, {Black, Pass}, {White, Pt(8, 0)}}
	if !reflect.DeepEqual(moves, wantMoves) || r.MoveCount() != 4 {
		t.Errorf("moves = %v, want %v", moves, wantMoves)
	}
	if r.Nodes[4].ToPlay != Black {
		t.Errorf("PL = %v", r.Nodes[4].ToPlay)
	}
}

// Some records write Chinese komi in stones (KM[2.75]): gobot plays and
// scores them as written.
func TestQuarterKomi(t *testing.T) {
	recs, err := ReadSGF([]byte("(;GM[1]FF[4]SZ[9]KM[2.75]RU[Chinese];B[ee];W[];B[])"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := recs[0].Replay(mustPreset(t, "chinese"), false)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Game.Score().Result.String(); got != "B+78.25" {
		t.Fatalf("result %s, want B+78.25", got)
	}
}

func mustPreset(t *testing.T, name string) Rules {
	t.Helper()
	r, err := Preset(name)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDecodeSGFErrors(t *testing.T) {
	for _, tt := range []struct{ in, msg string }{
		{"(;GM[2])", "not a game of Go"},
		{"(;SZ[26])", "larger than 25"},
		{"(;SZ[abc])", "bad board size"},
		{"(;KM[six])", "komi is not a number"},
		{"(;KM[5000])", "between -1000 and 1000"},
		{"(;HA[x])", "handicap"},
		{"(;SZ[9]AB[jj])", "off the board"},
		{"(;SZ[9]AB[aa:zz])", "off the board"},
		{"(;AB[tt])", "off the board"},
		{"(;PL[X])", "player to move"},
		{"(;GM[1];B[aa])(;SZ[1])", "game 2"},
	} {
		_, err := ReadSGF([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("ReadSGF(%q) = %v, want an error with %q", tt.in, err, tt.msg)
		}
	}
}

func TestSGFRules(t *testing.T) {
	for _, tt := range []struct {
		ru    string
		name  string
		known bool
	}{
		{"Japanese", "japanese", true},
		{"jp", "japanese", true},
		{"Chinese", "chinese", true},
		{"AGA", "aga", true},
		{"NZ", "new-zealand", true},
		{"New Zealand", "new-zealand", true},
		{"Korean", "korean", true},
		{"Tromp-Taylor", "tromp-taylor", true},
		{"GOE", "new-zealand", true},
		{"Ing", "new-zealand", true},
		{"bga", "bga", true},
		{"japanese komi=0", "japanese", true},
		{"ko=simple scoring=territory suicide=allowed", "custom", true},
		// Spellings found in records (issue 19).
		{"JP", "japanese", true},
		{"japanese", "japanese", true},
		{"CN", "chinese", true},
		{"chinese", "chinese", true},
		{"KR", "korean", true},
		{"korean", "korean", true},
		{"aga", "aga", true},
		{"AGA rules", "aga", true},
		{"new zealand", "new-zealand", true},
		{"New_Zealand", "new-zealand", true},
		{"Tromp/Taylor", "tromp-taylor", true},
		{"Tromp Taylor", "tromp-taylor", true},
		{"TrompTaylor", "tromp-taylor", true},
		{"Tromp", "tromp-taylor", true},
		{"Taylor", "tromp-taylor", true},
		{"TT", "tromp-taylor", true},
		{"tt", "tromp-taylor", true},
		{"TT--", "tromp-taylor", true},
		{"ing", "new-zealand", true},
		{"Goe", "new-zealand", true},
		{"BGA", "bga", true},
		{"British", "bga", true},
		{"Simple", "simple", true},
		{"Chinese (KGS)", "chinese", true},
		{"Japanese 1989 rules", "japanese", true},
		{"territory", "japanese", true},
		{"", "chinese", false},
		{"   ", "chinese", false},
		{"kgs rules?", "chinese", false},
		{"Ingenious", "chinese", false},
		{"??", "chinese", false},
	} {
		r, known := SGFRules(tt.ru)
		if r.Name != tt.name || known != tt.known {
			t.Errorf("SGFRules(%q) = %s, %v; want %s, %v", tt.ru, r.Name, known, tt.name, tt.known)
		}
	}
}

func TestParseResult(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Result
	}{
		{"B+3.5", Result{Black, 3.5, ByScore}},
		{"W+0.5", Result{White, 0.5, ByScore}},
		{"W+R", Result{White, 0, ByResign}},
		{"B+Resign", Result{Black, 0, ByResign}},
		{"w+t", Result{White, 0, ByTime}},
		{"B+Time", Result{Black, 0, ByTime}},
		{"B+", Result{Black, 0, ByScore}},
		{"0", Result{Empty, 0, ByScore}},
		{"Draw", Result{Empty, 0, ByScore}},
		{"Void", Result{Empty, 0, NoResult}},
	} {
		got, err := ParseResult(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseResult(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "?", "X+1", "B+many", "B-3", "B+-1"} {
		if _, err := ParseResult(bad); !errors.Is(err, ErrBadResult) {
			t.Errorf("ParseResult(%q) error = %v, want ErrBadResult", bad, err)
		}
	}
}

func replayOrFatal(t *testing.T, r *SGFRecord, rules string, tolerant bool) *SGFReplay {
	t.Helper()
	ru, err := ParseRules(rules)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.Replay(ru, tolerant)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestReplaySetupAndPasses(t *testing.T) {
	// Setup in the root and in a later node, pass as [] and as tt.
	r := mustReadSGF(t, `(;SZ[5]AB[aa:ab]AW[ba][bb]PL[W];W[ca];B[];W[tt];AE[ba]AB[ee];B[ac];W[ad])`)
	rep := replayOrFatal(t, r, "japanese", false)
	if len(rep.Illegal) != 0 {
		t.Fatalf("illegal moves: %v", rep.Illegal)
	}
	want := mustBoard(t, `
		X . O . .
		X O . . .
		X . . . .
		O . . . .
		. . . . X`)
	if !rep.Game.board.Equal(want) {
		t.Fatalf("board:\n%s\nwant\n%s", rep.Game.board, want)
	}
	if rep.Moves != 5 || rep.Game.ToMove() != Black {
		t.Errorf("moves %d, to move %v", rep.Moves, rep.Game.ToMove())
	}
}

func TestReplayIllegal(t *testing.T) {
	// Move 4 takes a ko that move 5 retakes at once; move 6 is Black out
	// of turn; move 7 plays on a stone; move 8 is off the board.
	r := mustReadSGF(t, `(;SZ[5]RU[Japanese]
		AB[bc][cb][cd]AW[db][dd][ec]
		;B[dc];W[ae];B[ad];W[cc];B[dc];B[ee];W[ee];W[zz])`)
	strict := replayOrFatal(t, r, "japanese", false)
	if !strict.Stopped || len(strict.Illegal) != 1 {
		t.Fatalf("strict replay: stopped %v, illegal %v", strict.Stopped, strict.Illegal)
	}
	if ill := strict.Illegal[0]; ill.Number != 5 || ill.Point != "D3" || !errors.Is(ill.Err, ErrKo) {
		t.Fatalf("strict: %v, want move 5 D3 ko", ill)
	}
	if strict.Game.MoveCount() != 4 {
		t.Errorf("strict replay stopped after %d moves, want 4", strict.Game.MoveCount())
	}

	tol := replayOrFatal(t, r, "japanese", true)
	var got []string
	for _, ill := range tol.Illegal {
		got = append(got, fmt.Sprintf("%d %s %s", ill.Number, ill.Move.Color, ill.Point))
	}
	want := []string{"5 B D3", "6 B E1", "7 W E1", "8 W zz"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tolerant illegal moves = %q, want %q", got, want)
	}
	reasons := []error{ErrKo, ErrNotYourTurn, ErrOccupied, ErrOffBoard}
	for i, ill := range tol.Illegal {
		if !errors.Is(ill.Err, reasons[i]) || ill.Reason() == "" {
			t.Errorf("illegal %d: %v, want %v", i, ill.Err, reasons[i])
		}
	}
	// The ko was forced (D3 captured C3 again), E1 played out of turn.
	wantBoard := mustBoard(t, `
		. . . . .
		. . X O .
		. X . X O
		X . X O .
		O . . . X`)
	if !tol.Game.board.Equal(wantBoard) {
		t.Fatalf("tolerant board:\n%s\nwant\n%s", tol.Game.board, wantBoard)
	}
	if tol.Moves != 8 || tol.Game.Captures(Black) != 1 || tol.Game.Captures(White) != 1 {
		t.Errorf("moves %d, captures B %d W %d; want 8, 1, 1", tol.Moves, tol.Game.Captures(Black), tol.Game.Captures(White))
	}
	// After the skipped W[zz], Black is to move.
	if tol.Game.ToMove() != Black {
		t.Errorf("to move: %v", tol.Game.ToMove())
	}
}

func TestWalk(t *testing.T) {
	r := mustReadSGF(t, `(;SZ[3]AB[aa];W[bb];B[bb];W[];B[cc])`)
	ru, _ := Preset("japanese")
	var got []string
	rep, err := r.Walk(ru, true, func(n int, g *Game) {
		got = append(got, fmt.Sprintf("%d:%s", n, strings.ReplaceAll(g.board.String(), "\n", "/")))
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"0:X../.../.../", "1:X../.O./.../", "2:X../.O./.../", "3:X../.O./.../", "4:X../.O./..X/"}
	if !reflect.DeepEqual(got, want) || len(rep.Illegal) != 1 {
		t.Errorf("positions %q, want %q; illegal %v", got, want, rep.Illegal)
	}
}

func TestReplayHandicap(t *testing.T) {
	// Fixed handicap as AB: a normal game from New.
	r := mustReadSGF(t, `(;SZ[9]HA[2]KM[0.5]RU[Japanese]AB[cg][gc];W[ee];B[cc])`)
	rep := replayOrFatal(t, r, "japanese", false)
	if len(rep.Illegal) != 0 || rep.Game.Record().Setup != nil || rep.Game.Config().Handicap != 2 {
		t.Fatalf("fixed handicap: illegal %v, setup %v", rep.Illegal, rep.Game.Record().Setup)
	}
	// HA without AB, Black places: free placement even under japanese.
	r = mustReadSGF(t, `(;SZ[9]HA[3]KM[0.5];B[cc];B[gg];B[cg];W[ee])`)
	rep = replayOrFatal(t, r, "japanese", false)
	if len(rep.Illegal) != 0 || rep.Game.board.At(Pt(6, 6)) != Black || rep.Game.board.At(Pt(4, 4)) != White {
		t.Fatalf("free handicap: illegal %v\n%s", rep.Illegal, rep.Game.board)
	}
	// HA without AB and White first: the fixed points.
	r = mustReadSGF(t, `(;SZ[9]HA[2];W[ee])`)
	rep = replayOrFatal(t, r, "chinese", false)
	if len(rep.Illegal) != 0 || rep.Game.board.At(Pt(2, 6)) != Black || rep.Game.board.At(Pt(6, 2)) != Black {
		t.Fatalf("implied fixed handicap: illegal %v\n%s", rep.Illegal, rep.Game.board)
	}
	// New Zealand placement written with White's passes, read under chinese.
	r = mustReadSGF(t, `(;SZ[9]HA[2];B[cc];W[];B[gg];W[ee])`)
	for _, rules := range []string{"new-zealand", "chinese"} {
		rep = replayOrFatal(t, r, rules, false)
		if len(rep.Illegal) != 0 || rep.Game.board.At(Pt(4, 4)) != White {
			t.Fatalf("%s: illegal %v\n%s", rules, rep.Illegal, rep.Game.board)
		}
	}
}

func TestReplayResults(t *testing.T) {
	r := mustReadSGF(t, `(;SZ[9]RE[W+R];B[ee])`)
	rep := replayOrFatal(t, r, "japanese", false)
	if res, ok := rep.Game.Result(); !ok || res.String() != "W+R" {
		t.Errorf("resigned game: %v, %v", res, ok)
	}
	// Counted: the TB/TW of the last node mark the dead stone at A9.
	const counted = `(;SZ[5]KM[0.5]RU[Japanese]RE[B+0.5]
		AB[ba][bb][bc][bd][be]AW[aa][da][db][dc][dd][de]PL[B];B[];W[]TB[ab:ae][aa]TW[ea:ee])`
	// Without RE, the marks are read and the game stays in scoring.
	r = mustReadSGF(t, strings.Replace(counted, "RE[B+0.5]", "", 1))
	rep = replayOrFatal(t, r, "japanese", false)
	if _, over := rep.Game.Result(); over || rep.Game.Phase() != Scoring || !rep.Game.IsDead(Pt(0, 0)) {
		t.Fatalf("marks without RE: phase %v, A5 dead %v", rep.Game.Phase(), rep.Game.IsDead(Pt(0, 0)))
	}
	r = mustReadSGF(t, counted)
	rep = replayOrFatal(t, r, "japanese", false)
	res, ok := rep.Game.Result()
	if !ok || res.Reason != ByScore || !rep.Game.IsDead(Pt(0, 0)) {
		t.Fatalf("counted game: %v %v, A5 dead %v", res, ok, rep.Game.IsDead(Pt(0, 0)))
	}
	// Black: 5 territory + 1 dead; White: 5 territory + 0.5.
	if res.String() != "B+0.5" {
		t.Errorf("result %s, want B+0.5", res)
	}
}

// randomPlayout plays random legal moves that do not fill the mover's
// own eyes until n moves are made or no such move is left, passing now
// and then with probability passProb.
func randomPlayout(rng *rand.Rand, g *Game, n int, passProb float64) {
	b := g.board
	cand := make([]int, 0, len(b.cells))
	for i := 0; i < n && g.phase == Playing; i++ {
		c := g.toMove
		if rng.Float64() < passProb && g.handicapIn == 0 {
			g.PlayMove(Move{c, Pass})
			continue
		}
		cand = cand[:0]
		for j, x := range b.cells {
			if x == Empty && !ownEye(b, j, c) {
				cand = append(cand, j)
			}
		}
		played := false
		for len(cand) > 0 {
			k := rng.IntN(len(cand))
			if g.PlayMove(Move{c, b.point(cand[k])}) == nil {
				played = true
				break
			}
			cand[k] = cand[len(cand)-1]
			cand = cand[:len(cand)-1]
		}
		if !played {
			if err := g.PlayMove(Move{c, Pass}); err != nil {
				return // free handicap left but no point to place on
			}
		}
	}
}

func ownEye(b *Board, i int, c Color) bool {
	for _, n := range b.nb[4*i : 4*i+4] {
		if n >= 0 && b.cells[n] != c {
			return false
		}
	}
	return true
}

// randomGame makes a random game for the SGF round trip: any size,
// ruleset, komi and handicap, sometimes from a setup position, ended in
// any way gobot ends games (or still going), with game-info and comments
// full of characters SGF must escape.
func randomGame(t *testing.T, rng *rand.Rand) (*Game, GameInfo) {
	sizes := [][2]int{{9, 9}, {13, 13}, {19, 19}, {7, 11}, {5, 3}, {2, 2}, {25, 25}, {19, 9}, {4, 4}}
	sz := sizes[rng.IntN(len(sizes))]
	names := append(PresetNames(), "ko=situational scoring=territory suicide=allowed passstones=on bonus=n-1 handicap=white-passes cycle=draw")
	rules, err := ParseRules(names[rng.IntN(len(names))])
	if err != nil {
		t.Fatal(err)
	}
	rules.Komi = float64(rng.IntN(41)-20) / 2
	cfg := Config{Width: sz[0], Height: sz[1], Rules: rules}
	if rng.IntN(3) == 0 {
		cfg.Handicap = 2 + rng.IntN(8)
		if cfg.Rules.Placement == PlacementFixed {
			if _, err := FixedHandicap(cfg.Handicap, cfg.Width, cfg.Height); err != nil {
				cfg.Handicap = 0
			}
		} else if cfg.Handicap > cfg.Width*cfg.Height/2 {
			cfg.Handicap = 0
		}
	}
	var g *Game
	if rng.IntN(6) == 0 {
		b, _ := NewBoard(cfg.Width, cfg.Height)
		for i := 0; i < len(b.cells)/3; i++ {
			if j := rng.IntN(len(b.cells)); b.cells[j] == Empty {
				b.play(Color(1+rng.IntN(2)), j)
			}
		}
		cfg.Handicap = 0
		g, err = NewFromPosition(cfg, b, Color(1+rng.IntN(2)))
	} else {
		g, err = New(cfg)
	}
	if err != nil {
		t.Fatalf("%+v: %v", cfg, err)
	}
	area := cfg.Width * cfg.Height
	randomPlayout(rng, g, rng.IntN(2*area+2), 0.05)
	switch rng.IntN(6) {
	case 0:
		g.Resign(Color(1 + rng.IntN(2)))
	case 1:
		g.Timeout(Color(1 + rng.IntN(2)))
	case 2:
		g.Abort()
	case 3, 4:
		for i := 0; i < 4 && g.phase == Playing; i++ {
			g.PlayMove(Move{g.toMove, Pass})
		}
		if g.phase == Scoring && rng.IntN(3) == 0 {
			g.Resume()
			randomPlayout(rng, g, 10, 0.3)
			for i := 0; i < 4 && g.phase == Playing; i++ {
				g.PlayMove(Move{g.toMove, Pass})
			}
		}
		if g.phase == Scoring && !g.cfg.Rules.NoAgreement {
			if stones := g.board.Stones(Color(1 + rng.IntN(2))); len(stones) > 0 {
				g.ToggleDead(stones[rng.IntN(len(stones))], rng.IntN(2) == 0)
			}
		}
		if g.phase == Scoring && rng.IntN(4) > 0 {
			g.Accept(Black)
			g.Accept(White)
		}
	}
	info := GameInfo{
		Black: "Bl]ack \\ " + fmt.Sprint(rng.IntN(100)), White: "Wh[ite]", BlackRank: "3d", WhiteRank: "1p",
		Date: "2026-11-22", Event: "Test\nCup", Round: "2", Place: "Room ]", Name: "round trip",
		Comment: "multi\nline\\\ncomment", TimeLimit: "600", Overtime: "5x30 byo-yomi",
		Extra: []SGFProperty{{ID: "SO", Values: []string{"gobot tests"}}},
	}
	for i := range g.moves {
		mi := MoveInfo{}
		switch rng.IntN(4) {
		case 0:
			mi.Comment = fmt.Sprintf("move %d: ]\\", i+1)
		case 1:
			mi.BlackTime, mi.WhiteTime, mi.BlackPeriods, mi.WhitePeriods = "12.5", "300", "3", "1"
		case 2:
			mi.Extra = []SGFProperty{{ID: "MN", Values: []string{fmt.Sprint(i + 1)}}}
		}
		info.Moves = append(info.Moves, mi)
	}
	return g, info
}

// TestSGFRoundTrip is the property test: for random games, write → read
// → replay gives the same moves, board, configuration, result and game
// record, and the game-info comes back as written.
func TestSGFRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(2026, 11))
	n := 400
	if testing.Short() || raceEnabled {
		n = 120
	}
	seen := map[string]int{} // kinds of games covered
	for i := 0; i < n; i++ {
		g, info := randomGame(t, rng)
		if res, ok := g.Result(); ok {
			seen["result "+[...]string{ByScore: "score", ByResign: "resign", ByTime: "time", ByCycle: "cycle", NoResult: "void"}[res.Reason]]++
		}
		if g.phase == Scoring {
			seen["scoring phase"]++
		}
		if len(g.resumes) > 0 {
			seen["resumed"]++
		}
		if g.cfg.Handicap >= 2 {
			seen["handicap "+g.cfg.Rules.Placement.String()]++
		}
		if g.setupToMove != Empty {
			seen["setup"]++
		}
		if g.cfg.Width != g.cfg.Height {
			seen["rectangular"]++
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, info); err != nil {
			t.Fatal(err)
		}
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("game %d (%s, %s, handicap %d): %s\n%s", i, SizeString(g.cfg.Width, g.cfg.Height), g.cfg.Rules, g.cfg.Handicap, fmt.Sprintf(format, args...), buf.String())
		}
		r := mustReadSGF(t, buf.String())
		rules, known := SGFRules(r.Rules)
		if !known {
			fail("RU[%s] not known", r.Rules)
		}
		rep, err := r.Replay(rules, false)
		if err != nil {
			fail("replay: %v", err)
		}
		h := rep.Game
		if len(rep.Illegal) != 0 {
			fail("illegal moves %v", rep.Illegal)
		}
		if !reflect.DeepEqual(h.Moves(), g.Moves()) {
			fail("moves differ:\n%v\n%v", h.Moves(), g.Moves())
		}
		if !h.board.Equal(g.board) {
			fail("board:\n%s\nwant\n%s", h.board, g.board)
		}
		if h.Config() != g.Config() {
			fail("config %+v, want %+v", h.Config(), g.Config())
		}
		r1, ok1 := h.Result()
		r2, ok2 := g.Result()
		if r1 != r2 || ok1 != ok2 {
			fail("result %v %v, want %v %v", r1, ok1, r2, ok2)
		}
		if !reflect.DeepEqual(h.Record(), g.Record()) {
			fail("record %+v\nwant %+v", h.Record(), g.Record())
		}
		if h.Captures(Black) != g.Captures(Black) || h.Captures(White) != g.Captures(White) {
			fail("captures differ")
		}
		wantInfo := info
		if wantInfo.Result == "" && ok2 {
			wantInfo.Result = r2.String()
		}
		if !reflect.DeepEqual(r.Info, wantInfo) {
			fail("info\n%+v\nwant\n%+v", r.Info, wantInfo)
		}
	}
	for _, k := range []string{"result score", "result resign", "result time", "result void", "scoring phase",
		"resumed", "handicap fixed", "handicap free", "handicap white-passes", "setup", "rectangular"} {
		if seen[k] == 0 {
			t.Errorf("no random game of kind %q; covered: %v", k, seen)
		}
	}
}

func FuzzParseSGF(f *testing.F) {
	for _, name := range sgfTestdata(f) {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("(;SZ[3]AB[aa:cc]AE[bb];W[bb];B[bb])"))
	f.Add([]byte("(;C[a\\\r\nb\\]](;B[aa])(;W[]))"))
	// Two-byte characters whose second byte is "\\" or "]" (issue 19).
	f.Add([]byte("(;CA[SJIS]PB[\x95\x5c]PW[\x83\x5c\x5d\x83\x93]C[\x8f\x5c\x5c]x];B[aa]C[\x95\x5c\x5c])"))
	f.Add([]byte("(;PB[\x81\x5c]CA[GB2312]HA[7.5]RU[TT--];W[aa]PL[W];B[bb])"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roots, err := ParseSGF(data)
		if err != nil {
			var se *SGFError
			if !errors.As(err, &se) || !errors.Is(err, ErrSGF) || se.Offset < 0 || se.Offset > len(data) || se.Line < 1 || se.Column < 1 {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := WriteSGFTree(&buf, roots...); err != nil {
			t.Fatal(err)
		}
		again, err := ParseSGF(buf.Bytes())
		if err != nil {
			t.Fatalf("written tree does not parse: %v\n%s", err, buf.Bytes())
		}
		if !reflect.DeepEqual(roots, again) {
			t.Fatalf("write → parse changed the tree\n%q", buf.Bytes())
		}
		for _, root := range roots {
			r, err := DecodeSGFTolerant(root)
			if err != nil {
				continue
			}
			r.eachText(func(s string) string {
				if !utf8.ValidString(s) {
					t.Fatalf("decoded text %q is not UTF-8", s)
				}
				return s
			})
			rules, _ := SGFRules(r.Rules)
			for _, tolerant := range []bool{false, true} {
				rep, err := r.Replay(rules, tolerant)
				if err != nil {
					continue
				}
				if tolerant && rep.Moves != r.MoveCount() {
					t.Fatalf("tolerant replay made %d moves of %d", rep.Moves, r.MoveCount())
				}
				rep.Game.Score()
				var out bytes.Buffer
				if err := WriteSGF(&out, rep.Game, r.Info); err != nil {
					t.Fatal(err)
				}
				if _, err := ReadSGF(out.Bytes()); err != nil {
					t.Fatalf("WriteSGF output does not read back: %v\n%s", err, out.Bytes())
				}
			}
		}
	})
}

// TestGeneratedRecords writes (with -update-sgf) and checks the records in
// testdata made by random playouts: a 19×19 game of about 200 moves, a
// 9×9 handicap game, a rectangular board and a record with illegal moves.
func TestGeneratedRecords(t *testing.T) {
	type gen struct {
		file    string
		illegal []string // number, colour, point, reason
		moves   int
		make    func() []byte
	}
	write := func(g *Game, info GameInfo) []byte {
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, info); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	gens := []gen{
		{"random19.sgf", nil, 222, func() []byte {
			rng := rand.New(rand.NewPCG(19, 19))
			r, _ := Preset("japanese")
			g, _ := New(Config{Width: 19, Height: 19, Rules: r})
			randomPlayout(rng, g, 220, 0)
			g.PlayMove(Move{g.toMove, Pass})
			g.PlayMove(Move{g.toMove, Pass})
			return write(g, GameInfo{Black: "Random Black", White: "Random White", BlackRank: "9p", WhiteRank: "9p",
				Date: "2026-11-22", Event: "gobot random playouts", Comment: "A random playout: 220 moves, then two passes."})
		}},
		{"handicap9.sgf", nil, 0, func() []byte {
			rng := rand.New(rand.NewPCG(9, 4))
			r, _ := Preset("aga")
			r.Placement = PlacementFixed
			r.Komi = 0.5
			g, _ := New(Config{Width: 9, Height: 9, Rules: r, Handicap: 4})
			randomPlayout(rng, g, 60, 0)
			g.Resign(White)
			return write(g, GameInfo{Black: "Kyu", White: "Dan", BlackRank: "10k", WhiteRank: "2d", Comment: "Four stones on 9x9."})
		}},
		{"rect13x7.sgf", nil, 0, func() []byte {
			rng := rand.New(rand.NewPCG(13, 7))
			r, _ := Preset("tromp-taylor")
			g, _ := New(Config{Width: 13, Height: 7, Rules: r})
			randomPlayout(rng, g, 70, 0.02)
			return write(g, GameInfo{Comment: "A rectangular board, 13 wide and 7 high."})
		}},
		// GNU Go 3.8 playing itself, converted from its GTP answers once.
		{"gnugo19.sgf", nil, 200, nil},
		{"illegal.sgf", []string{
			"9 B D4 " + ErrKo.Error(),
			"10 W E5 " + ErrOccupied.Error(),
			"14 W A1 " + ErrSuicide.Error(),
			"15 W G7 " + ErrNotYourTurn.Error() + ": it is Black's move",
		}, 17, nil},
	}
	for _, gn := range gens {
		path := filepath.Join("testdata", gn.file)
		if *updateSGF && gn.make != nil {
			if err := os.WriteFile(path, gn.make(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -run TestGeneratedRecords -update-sgf)", err)
		}
		recs, err := ReadSGF(data)
		if err != nil {
			t.Fatalf("%s: %v", gn.file, err)
		}
		rules, _ := SGFRules(recs[0].Rules)
		rep, err := recs[0].Replay(rules, true)
		if err != nil {
			t.Fatalf("%s: %v", gn.file, err)
		}
		var got []string
		for _, ill := range rep.Illegal {
			got = append(got, fmt.Sprintf("%d %s %s %s", ill.Number, ill.Move.Color, ill.Point, ill.Reason()))
		}
		if !reflect.DeepEqual(got, gn.illegal) {
			t.Errorf("%s: illegal moves %q, want %q", gn.file, got, gn.illegal)
		}
		if gn.moves != 0 && rep.Moves != gn.moves {
			t.Errorf("%s: %d moves, want %d", gn.file, rep.Moves, gn.moves)
		}
	}
}

// benchRecords returns a collection of n real-game-like 19×19 records:
// random playouts of 150 to 300 moves that do not fill their own eyes,
// half of them with the time left on every move as servers write it, some
// with comments, all ending with two passes.
func benchRecords(tb testing.TB, n int) []byte {
	rng := rand.New(rand.NewPCG(42, 7))
	r, _ := Preset("chinese")
	var buf bytes.Buffer
	for i := 0; i < n; i++ {
		g, err := New(Config{Width: 19, Height: 19, Rules: r})
		if err != nil {
			tb.Fatal(err)
		}
		randomPlayout(rng, g, 150+rng.IntN(151), 0)
		g.PlayMove(Move{g.toMove, Pass})
		g.PlayMove(Move{g.toMove, Pass})
		info := GameInfo{Black: "Black player", White: "White player", BlackRank: "5d", WhiteRank: "6d",
			Date: "2026-11-22", Event: "Benchmark cup", TimeLimit: "1800", Overtime: "5x30 byo-yomi"}
		for j := range g.moves {
			mi := MoveInfo{}
			if i%2 == 0 {
				left := fmt.Sprintf("%.1f", 1800-float64(j)*3.5)
				if g.moves[j].Color == Black {
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
		if err := WriteSGF(&buf, g, info); err != nil {
			tb.Fatal(err)
		}
	}
	return buf.Bytes()
}

func BenchmarkParseSGF(b *testing.B) {
	data := benchRecords(b, 100)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseSGF(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadSGF(b *testing.B) {
	data := benchRecords(b, 100)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ReadSGF(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplaySGF replays decoded records under chinese rules
// (positional superko) and reports moves per second.
func BenchmarkReplaySGF(b *testing.B) {
	recs, err := ReadSGF(benchRecords(b, 100))
	if err != nil {
		b.Fatal(err)
	}
	rules, _ := Preset("chinese")
	moves := 0
	for _, r := range recs {
		moves += r.MoveCount()
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			rep, err := r.Replay(rules, false)
			if err != nil || len(rep.Illegal) > 0 {
				b.Fatal(err, rep.Illegal)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkReplayGnuGo replays a real game (GNU Go against itself, 200
// moves) under chinese rules and reports moves per second.
func BenchmarkReplayGnuGo(b *testing.B) {
	data, err := os.ReadFile("testdata/gnugo19.sgf")
	if err != nil {
		b.Fatal(err)
	}
	r := mustReadSGF(b, string(data))
	rules, _ := Preset("chinese")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Replay(rules, false); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(r.MoveCount())*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// RU carries the names FF[4] gives (AGA, NZ, Japanese), and they read
// back as the presets.
func TestSGFRuleNames(t *testing.T) {
	for name, ru := range map[string]string{"japanese": "Japanese", "aga": "AGA", "new-zealand": "NZ", "chinese": "Chinese", "bga": "bga"} {
		g, err := New(Config{Width: 9, Height: 9, Rules: mustPreset(t, name)})
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteSGF(&buf, g, GameInfo{}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), "RU["+ru+"]") {
			t.Errorf("%s: %s", name, buf.String())
		}
		rec := mustReadSGF(t, buf.String())
		if r, from := rec.RecordRules(); r.Name != name || from != RulesFromFile {
			t.Errorf("%s: read back as %s (%s)", name, r.Name, from)
		}
	}
}

// TestPointListOnce: a compressed point list is expanded into each of
// its points once, in the order they first appear, whatever the list
// repeats; a node's setup lists hold each point once in the tree, in
// the list that decides it (AW over AB over AE, their order of play).
func TestPointListOnce(t *testing.T) {
	r := mustReadSGF(t, "(;SZ[5]AB[aa:bb][ba][cc][bb:aa][cc][ab:cb]TB[ee][ee:ee])")
	want := []Point{Pt(0, 0), Pt(1, 0), Pt(0, 1), Pt(1, 1), Pt(2, 2), Pt(2, 1)}
	if got := r.Nodes[0].Setup[Black]; !reflect.DeepEqual(got, want) {
		t.Errorf("AB = %v, want %v", got, want)
	}
	if got := r.Nodes[0].TB; len(got) != 1 {
		t.Errorf("TB = %v, want one point", got)
	}
	// A 25×25 board's points listed a thousand times are its points once.
	r = mustReadSGF(t, "(;SZ[25]AW"+strings.Repeat("[aa:yy]", 1000)+")")
	if got := r.Nodes[0].Setup[White]; len(got) != 625 || got[0] != Pt(0, 0) || got[624] != Pt(24, 24) {
		t.Errorf("AW of %d points, from %v to %v", len(got), got[0], got[len(got)-1])
	}
	if _, err := ReadSGF([]byte("(;SZ[5]AB[aa:zz])")); err == nil || !strings.Contains(err.Error(), "AB[aa:zz]") {
		t.Errorf("a rectangle off the board: %v", err)
	}

	tr := treeFromText(t, "(;SZ[5]AE[aa:bb]AB[aa][cc:cc][cc]AW[aa:ab]TR[aa:bb]SQ[aa]LB[aa:x][dd:y][dd:z])")
	root := tr.Nodes[0]
	if !reflect.DeepEqual(root.Setup, [3][]Point{{Pt(1, 0), Pt(1, 1)}, {Pt(2, 2)}, {Pt(0, 0), Pt(0, 1)}}) {
		t.Errorf("setup AE, AB, AW = %v", root.Setup)
	}
	b, _, err := tr.Position(0)
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range map[Point]Color{Pt(0, 0): White, Pt(0, 1): White, Pt(1, 0): Empty, Pt(1, 1): Empty, Pt(2, 2): Black} {
		if b.At(p) != c {
			t.Errorf("%v holds %v, want %v (as AE, AB, AW played in turn)", p, b.At(p), c)
		}
	}
	wantMarks := []Mark{{Pt(0, 0), Triangle, ""}, {Pt(1, 0), Triangle, ""}, {Pt(0, 1), Triangle, ""}, {Pt(1, 1), Triangle, ""}, {Pt(3, 3), Label, "y"}}
	if !reflect.DeepEqual(root.Marks, wantMarks) {
		t.Errorf("marks %v, want one a point, the first: %v", root.Marks, wantMarks)
	}
}

// TestReadTreeSGFStops: the review's reading stops after the first game
// tree, and at node MaxTreeNodes+1, so that a file of many nodes costs
// no more than the nodes a tree holds; a node of many properties is
// read with an index, merging a repeated one into the first.
func TestReadTreeSGFStops(t *testing.T) {
	tr, err := ReadTreeSGF([]byte("(;SZ[9];B[ee])(;SZ[9];B[ee];W[ee])(;C[never closed"))
	if err != nil || len(tr.Nodes) != 2 {
		t.Fatalf("first tree of three: %v, %+v", err, tr)
	}
	if _, err := ParseSGF([]byte("(;SZ[9];B[ee])(;C[never closed")); !errors.Is(err, ErrSGF) {
		t.Errorf("ParseSGF reads every tree: %v", err)
	}
	for _, data := range []string{
		"(;SZ[9]" + strings.Repeat(";", 200000) + ")",
		"(;SZ[9]" + strings.Repeat("(;", 100000) + strings.Repeat(")", 100001),
		"(;SZ[9]" + strings.Repeat(";B[]", MaxTreeNodes) + ";C[",
	} {
		if _, err := ReadTreeSGF([]byte(data)); !errors.Is(err, ErrTreeFull) || errors.Is(err, ErrSGF) {
			t.Errorf("%.30q…: %v, want ErrTreeFull", data, err)
		}
	}
	var b strings.Builder
	b.WriteString("(;SZ[9]")
	for i := range 40 {
		fmt.Fprintf(&b, "P%c%c[%d]", 'A'+i/26, 'A'+i%26, i)
	}
	b.WriteString("PAB[again]PAN[more][still])")
	roots := mustParseSGF(t, b.String())
	props := roots[0].Props
	if len(props) != 41 || props[1].ID != "PAA" || props[40].ID != "PBN" {
		t.Fatalf("%d props: %v", len(props), props)
	}
	if got := roots[0].Values("PAB"); !reflect.DeepEqual(got, []string{"1", "again"}) {
		t.Errorf("PAB = %q", got)
	}
	if got := roots[0].Values("PAN"); !reflect.DeepEqual(got, []string{"13", "more", "still"}) {
		t.Errorf("PAN = %q", got)
	}
}
