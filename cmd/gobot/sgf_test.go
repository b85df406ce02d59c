package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// writeSGF writes an SGF file into a temporary directory.
func writeSGF(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func runGobot(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

// jsonLines decodes JSON Lines output into generic maps.
func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("not a JSON line: %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

const (
	// A 5×5 game with a capture: Black takes the white stone at B4 with C4.
	capture5 = `(;GM[1]FF[4]SZ[5]KM[2.5]RU[Chinese]PB[ann]PW[bob]
;B[ab];W[bb];B[bc];W[cc];B[ba];W[dd];B[cb];W[])`
	// Move 4 is on an occupied point, move 5 out of turn.
	illegal5 = `(;SZ[5]RU[Japanese];B[aa];W[bb];B[cc];W[cc];W[dd];B[ee])`
	// Black's wall on B, White's on D, a white stone at A5 inside Black's
	// side, two passes.
	score5 = `(;SZ[5]KM[0.5]RU[Japanese]
AB[ba][bb][bc][bd][be]AW[aa][da][db][dc][dd][de]PL[B];B[];W[])`
)

func TestSGFReplayText(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "capture.sgf", capture5)
	code, out, errOut := runGobot("sgf", "replay", f)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	want := `== ` + f + `
5x5, chinese rules, komi 2.5, 8 moves
    A B C D E
 5  . X . . . 5
 4  X . X . . 4
 3  . X O . . 3
 2  . . . O . 2
 1  . . . . . 1
    A B C D E
Captures: Black 1, White 0
Illegal moves: none

`
	if out != want {
		t.Errorf("output:\n%s\nwant:\n%s", out, want)
	}
}

func TestSGFReplayIllegal(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "illegal.sgf", illegal5)
	code, out, _ := runGobot("sgf", "replay", f)
	if code != 1 {
		t.Errorf("exit %d, want 1 for an illegal move", code)
	}
	if !strings.Contains(out, "Illegal moves: 1 (replay stopped at the first") ||
		!strings.Contains(out, "move 4, White C3: point is occupied") {
		t.Errorf("output lacks the illegal move:\n%s", out)
	}
	// --tolerant: every illegal move, exit 0, flag after the file.
	code, out, _ = runGobot("sgf", "replay", f, "--tolerant")
	if code != 0 {
		t.Errorf("--tolerant: exit %d, want 0", code)
	}
	for _, s := range []string{"Illegal moves: 2\n", "move 4, White C3: point is occupied", "move 5, White D2: not your turn"} {
		if !strings.Contains(out, s) {
			t.Errorf("--tolerant output lacks %q:\n%s", s, out)
		}
	}
	// The out-of-turn move was played: D2 is white, then Black E1.
	if !strings.Contains(out, " 2  . . . O . 2") || !strings.Contains(out, " 1  . . . . X 1") {
		t.Errorf("--tolerant board wrong:\n%s", out)
	}
}

func TestSGFReplayJSON(t *testing.T) {
	dir := t.TempDir()
	a := writeSGF(t, dir, "a.sgf", capture5)
	b := writeSGF(t, dir, "b.sgf", illegal5+"\n(;SZ[9:7]KM[0];B[aa])")
	code, out, errOut := runGobot("sgf", "replay", "--json", a, "--tolerant", b)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := jsonLines(t, out)
	if len(lines) != 3 {
		t.Fatalf("%d JSON lines, want 3:\n%s", len(lines), out)
	}
	first := lines[0]
	for k, want := range map[string]any{
		"file":     a,
		"game":     1.0,
		"size":     []any{5.0, 5.0},
		"rules":    "chinese",
		"komi":     2.5,
		"moves":    8.0,
		"captures": map[string]any{"B": 1.0, "W": 0.0},
		"board":    []any{".X...", "X.X..", ".XO..", "...O.", "....."},
		"illegal":  []any{},
	} {
		if !reflect.DeepEqual(first[k], want) {
			t.Errorf("%s = %#v, want %#v", k, first[k], want)
		}
	}
	second := lines[1]
	ill, _ := second["illegal"].([]any)
	if second["file"] != b || second["rules"] != "japanese" || len(ill) != 2 {
		t.Fatalf("second line: %v", second)
	}
	if m := ill[0].(map[string]any); m["move"] != 4.0 || m["point"] != "C3" || m["reason"] != "point is occupied" || m["color"] != "W" {
		t.Errorf("illegal[0] = %v", m)
	}
	third := lines[2]
	if third["game"] != 2.0 || !reflect.DeepEqual(third["size"], []any{9.0, 7.0}) || third["rules"] != "chinese" {
		t.Errorf("third line (second game of b.sgf): %v", third)
	}
	if rows := third["board"].([]any); len(rows) != 7 || rows[0] != "X........" {
		t.Errorf("9x7 board rows: %v", rows)
	}
}

func TestSGFRulesChoice(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		ru, flag, want string
		komi           float64
	}{
		{"RU[Japanese]KM[6.5]", "", "japanese", 6.5},
		{"RU[NZ]KM[7]", "", "new-zealand", 7},
		{"RU[GOE]KM[8]", "", "new-zealand", 8},
		{"RU[Japanese 1989 territory]KM[6.5]", "", "japanese", 6.5},
		{"RU[Weird]KM[7.5]", "", "chinese", 7.5},
		{"", "", "chinese", 0},
		{"RU[Japanese]KM[0.5]", "aga", "aga", 0.5},
		{"RU[Japanese]KM[0.5]", "ko=situational,scoring=area", "custom", 0.5},
	} {
		f := writeSGF(t, dir, "r.sgf", "(;SZ[9]"+tt.ru+";B[ee])")
		args := []string{"sgf", "replay", f, "--json"}
		if tt.flag != "" {
			args = append(args, "--rules", tt.flag)
		}
		code, out, errOut := runGobot(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %s", tt.ru, code, errOut)
		}
		m := jsonLines(t, out)[0]
		if m["rules"] != tt.want || m["komi"] != tt.komi {
			t.Errorf("%s --rules %q: rules %v komi %v; want %s %v", tt.ru, tt.flag, m["rules"], m["komi"], tt.want, tt.komi)
		}
	}
}

func TestSGFScore(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "score.sgf", score5)
	code, out, errOut := runGobot("sgf", "score", "--dead", "A5", f)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	// Black: 5 points of territory (A5 included) + 1 prisoner = 6;
	// White: 5 + komi 0.5 = 5.5.
	for _, s := range []string{
		" 5  o X . O . 5",
		"Dead stones: the strings at A5",
		"Territory         5        5",
		"Prisoners         1        0",
		"Komi              0      0.5",
		"Total             6      5.5",
		"Result: B+0.5\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
	code, out, _ = runGobot("sgf", "score", f, "--json", "--dead", "a5")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := jsonLines(t, out)[0]
	if !reflect.DeepEqual(m["score"], map[string]any{"B": 6.0, "W": 5.5}) || m["result"] != "B+0.5" ||
		!reflect.DeepEqual(m["dead"], []any{"A5"}) {
		t.Errorf("score JSON: %v", m)
	}
	parts := m["parts"].(map[string]any)["W"].(map[string]any)
	if parts["territory"] != 5.0 || parts["komi"] != 0.5 || parts["total"] != 5.5 {
		t.Errorf("White's parts: %v", parts)
	}
	// Area scoring through --rules: stones count, prisoners do not.
	_, out, _ = runGobot("sgf", "score", f, "--json", "--dead", "A5", "--rules", "chinese")
	m = jsonLines(t, out)[0]
	if !reflect.DeepEqual(m["score"], map[string]any{"B": 10.0, "W": 10.5}) || m["result"] != "W+0.5" {
		t.Errorf("area score JSON: %v", m)
	}
}

func TestSGFScoreDefaultDead(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "score.sgf", score5)
	code, out, _ := runGobot("sgf", "score", f, "--json")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := jsonLines(t, out)[0]
	// With no --dead the marks are game.ProposeDead's: one point (the
	// first in reading order) per dead string.
	var rows []string
	for _, r := range m["board"].([]any) {
		rows = append(rows, r.(string))
	}
	b, err := game.ParseBoard(strings.Join(rows, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	r, _ := game.Preset("japanese")
	dead := map[game.Point]bool{}
	for _, p := range game.ProposeDead(b, r) {
		stones, _ := b.StringAt(p)
		for _, q := range stones {
			dead[q] = true
		}
	}
	want := []any{}
	for y := 0; y < 5; y++ {
		for x := 0; x < 5; x++ {
			p := game.Pt(x, y)
			if !dead[p] {
				continue
			}
			want = append(want, p.GTP(5))
			stones, _ := b.StringAt(p)
			for _, q := range stones {
				delete(dead, q)
			}
		}
	}
	if !reflect.DeepEqual(m["dead"], want) {
		t.Errorf("dead = %v, want the proposal %v", m["dead"], want)
	}
}

func TestSGFScoreResigned(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "r.sgf", "(;SZ[5]KM[0.5]RE[B+R]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de])")
	// simple: no dead stones by agreement, so the count does not depend
	// on the automatic proposal.
	code, out, _ := runGobot("sgf", "score", f, "--json", "--rules", "simple")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	m := jsonLines(t, out)[0]
	if m["result"] != "B+R" || m["count"] != "W+0.5" {
		t.Errorf("result %v, count %v; want B+R, W+0.5", m["result"], m["count"])
	}
	_, out, _ = runGobot("sgf", "score", f, "--rules", "simple")
	if !strings.Contains(out, "Result: B+R (the count says W+0.5)") {
		t.Errorf("text output:\n%s", out)
	}
}

func TestSGFErrors(t *testing.T) {
	dir := t.TempDir()
	good := writeSGF(t, dir, "good.sgf", capture5)
	broken := writeSGF(t, dir, "broken.sgf", "(;SZ[9];B[aa]")
	score := writeSGF(t, dir, "score.sgf", score5)
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"sgf"}, 2, "replay or score"},
		{[]string{"sgf", "frobnicate"}, 2, "unknown subcommand"},
		{[]string{"sgf", "replay"}, 2, "name at least one SGF file"},
		{[]string{"sgf", "replay", good, "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"sgf", "replay", good, "--rules"}, 2, "flag needs an argument"},
		{[]string{"sgf", "replay", good, "--rules", "martian"}, 2, "unknown ruleset"},
		{[]string{"sgf", "replay", good, "--dead", "A1"}, 2, "--dead only goes with gobot sgf score"},
		{[]string{"sgf", "replay", filepath.Join(dir, "missing.sgf"), good}, 1, "missing.sgf"},
		{[]string{"sgf", "replay", broken}, 1, "line 1, column 1 (byte 0): game tree \"(\" opened here is never closed"},
		{[]string{"sgf", "score", score, "--dead", "C3"}, 1, "C3: there is no stone there"},
		{[]string{"sgf", "score", score, "--dead", "I3"}, 1, "no column I"},
	} {
		code, _, errOut := runGobot(tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("gobot %s: exit %d, stderr %q; want %d and %q", strings.Join(tt.args, " "), code, errOut, tt.code, tt.stderr)
		}
	}
	// --json reports unreadable files as JSON lines and still does the rest.
	code, out, _ := runGobot("sgf", "replay", "--json", broken, good)
	lines := jsonLines(t, out)
	if code != 1 || len(lines) != 2 || lines[0]["file"] != broken || lines[0]["error"] == nil || lines[1]["file"] != good {
		t.Errorf("--json with a broken file: exit %d\n%s", code, out)
	}
	// Help is not an error.
	if code, out, _ := runGobot("sgf", "replay", "-h"); code != 0 || !strings.Contains(out, "gobot sgf replay FILE...") {
		t.Errorf("help: exit %d\n%s", code, out)
	}
}

// TestSGFScoreDraw: a drawn count reads "Result: draw (0)" in the text
// output; --json keeps the SGF form "0" (RE[0], FF[4]'s draw) as
// docs/sgf.md documents. Before, the text said "Result: 0".
func TestSGFScoreDraw(t *testing.T) {
	dir := t.TempDir()
	// Five points of territory each, the C column neutral, no komi.
	draw := "(;SZ[5]KM[0]RU[Japanese]AB[ba][bb][bc][bd][be]AW[da][db][dc][dd][de]PL[B];B[];W[])"
	f := writeSGF(t, dir, "draw.sgf", draw)
	for _, rules := range []string{"japanese", "chinese"} {
		code, out, errOut := runGobot("sgf", "score", "--no-dead", "--rules", rules, f)
		if code != 0 || errOut != "" || !strings.Contains(out, "\nResult: draw (0)\n") || strings.Contains(out, "Result: 0") {
			t.Errorf("%s: exit %d, stderr %q:\n%s", rules, code, errOut, out)
		}
		_, out, _ = runGobot("sgf", "score", "--no-dead", "--rules", rules, "--json", f)
		if m := jsonLines(t, out)[0]; m["result"] != "0" || m["count"] != "0" {
			t.Errorf("%s: JSON result %v, count %v; want \"0\" for both", rules, m["result"], m["count"])
		}
	}
	// A resignation the count would call a draw.
	f = writeSGF(t, dir, "resigned.sgf", strings.Replace(draw, "PL[B]", "RE[B+R]", 1))
	if _, out, _ := runGobot("sgf", "score", "--no-dead", f); !strings.Contains(out, "\nResult: B+R (the count says a draw)\n") {
		t.Errorf("resigned, the count a draw:\n%s", out)
	}
}

// TestSGFScoreDeadOffBoard: a --dead point off the record's board says
// which column or row this board lacks and what it has. Before, Z99 on a
// 19x19 record said "rows only go up to 25 on the largest board".
func TestSGFScoreDeadOffBoard(t *testing.T) {
	dir := t.TempDir()
	f19 := writeSGF(t, dir, "g19.sgf", "(;SZ[19]KM[6.5]RU[Japanese];B[dd];W[pp];B[];W[])")
	f5 := writeSGF(t, dir, "score.sgf", score5)
	for _, tc := range []struct{ file, dead, want string }{
		{f19, "Z99", "--dead Z99: there is no column Z and no row 99 on a 19x19 board (columns A to T, no I; rows 1 to 19)"},
		{f19, "z5", "--dead Z5: there is no column Z on a 19x19 board (columns A to T, no I)"},
		{f19, "U1", "--dead U1: there is no column U on a 19x19 board (columns A to T, no I)"},
		{f19, "D20", "--dead D20: there is no row 20 on a 19x19 board (rows 1 to 19)"},
		{f19, "D0", "--dead D0: there is no row 0 on a 19x19 board (rows 1 to 19)"},
		{f5, "F1", "--dead F1: there is no column F on a 5x5 board (columns A to E)"},
	} {
		code, out, errOut := runGobot("sgf", "score", "--dead", tc.dead, tc.file)
		if want := tc.file + ": game 1: " + tc.want + "\n"; code != 1 || out != "" || errOut != want {
			t.Errorf("--dead %s: exit %d\nstdout: %q\nstderr: %q\nwant exit 1 and %q", tc.dead, code, out, errOut, want)
		}
	}
}

// TestSGFNotAnSGFFile: replay, score and render of a PNG or a text file
// say plainly that it is not an SGF file, naming it. Before, the board
// PNG gave "SGF line 5, column 65 (byte 500): a game tree starts with a
// node…".
func TestSGFNotAnSGFFile(t *testing.T) {
	dir := t.TempDir()
	board, err := os.ReadFile(filepath.Join("..", "..", "docs", "board.png"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{
		writeSGF(t, dir, "board.png", string(board)), // holds a "(" at line 5, column 65
		writeSGF(t, dir, "small.png", string(pngOf(t))),
		writeSGF(t, dir, "notes.txt", "my game (the one against bob)\n"),
	}
	for _, f := range files {
		want := f + ` is not an SGF file (no game tree: an SGF record starts with "(;")` + "\n"
		for _, args := range [][]string{{"sgf", "replay", f}, {"sgf", "score", f}} {
			code, out, errOut := runGobot(args...)
			if code != 1 || out != "" || errOut != want {
				t.Errorf("gobot %q: exit %d\nstdout: %q\nstderr: %q\nwant exit 1 and %q", args, code, out, errOut, want)
			}
		}
		code, _, errOut := runGobot("render", f, "-o", filepath.Join(dir, "out.png"))
		if code != 1 || errOut != "gobot: "+want {
			t.Errorf("gobot render %s: exit %d, stderr %q; want %q", f, code, errOut, "gobot: "+want)
		}
	}
	// A real SGF with a mistake keeps its line and column, after text too.
	f := writeSGF(t, dir, "mail.sgf", "From: ann\n\n(;SZ[9]\n;B[aa]C[never closed")
	if _, _, errOut := runGobot("sgf", "replay", f); !strings.Contains(errOut, f+": SGF line 4, column 8 (byte 26): ") {
		t.Errorf("a real SGF's error: %q", errOut)
	}
}

// Hundreds of records in one call, as batch checks use it.
func TestSGFReplayMany(t *testing.T) {
	dir := t.TempDir()
	args := []string{"sgf", "replay", "--json"}
	for i := 0; i < 300; i++ {
		content := capture5
		if i%100 == 7 {
			content = illegal5
		}
		args = append(args, writeSGF(t, dir, fmt.Sprintf("r%03d.sgf", i), content))
	}
	code, out, _ := runGobot(args...)
	lines := jsonLines(t, out)
	if code != 1 || len(lines) != 300 {
		t.Fatalf("exit %d, %d lines; want 1 and 300", code, len(lines))
	}
	n := 0
	for _, l := range lines {
		if len(l["illegal"].([]any)) > 0 {
			n++
		}
	}
	if n != 3 {
		t.Errorf("%d records with illegal moves, want 3", n)
	}
}

// Records as other programs write them (issue 19), from game/testdata.
func TestSGFReplayGameInfo(t *testing.T) {
	fixture := func(name string) string { return filepath.Join("..", "..", "game", "testdata", name) }
	code, out, errOut := runGobot("sgf", "replay", "--json", fixture("ca_gbk.sgf"), fixture("ru_spellings.sgf"))
	if code != 1 || errOut != "" { // the last game of ru_spellings has a suicide, illegal under the default rules
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	lines := jsonLines(t, out)
	if len(lines) != 12 {
		t.Fatalf("%d lines, want 12:\n%s", len(lines), out)
	}
	for k, want := range map[string]any{
		"players":       map[string]any{"B": "柯洁", "W": "古力"},
		"ranks":         map[string]any{"B": "9p", "W": "9p"},
		"record_result": "W+R",
		"result":        "W+R",
		"date":          "2026-11-23",
		"event":         "围棋乗",
		"ru":            "Chinese",
		"rules":         "chinese",
		"rules_from":    "file",
		"komi":          7.5,
		"handicap":      0.0,
		"out_of_turn":   0.0,
		"warnings":      []any{},
	} {
		if !reflect.DeepEqual(lines[0][k], want) {
			t.Errorf("ca_gbk.sgf: %s = %#v, want %#v", k, lines[0][k], want)
		}
	}
	if l := lines[1]; l["ru"] != "Tromp/Taylor" || l["rules"] != "tromp-taylor" || l["rules_from"] != "file" || len(l["illegal"].([]any)) != 0 {
		t.Errorf("RU[Tromp/Taylor]: %v", l)
	}
	last := lines[11]
	warnings, _ := last["warnings"].([]any)
	if last["rules"] != "chinese" || last["rules_from"] != "default" || len(warnings) != 1 ||
		!strings.Contains(warnings[0].(string), "RU[kgs-special] is not a ruleset gobot knows") {
		t.Errorf("unknown RU: %v", last)
	}
	// --rules: from the flag.
	_, out, _ = runGobot("sgf", "replay", "--json", "--rules", "japanese", fixture("ca_sjis.sgf"))
	if l := jsonLines(t, out)[0]; l["rules_from"] != "flag" || l["rules"] != "japanese" || !reflect.DeepEqual(l["players"], map[string]any{"B": "表", "W": "ソフト"}) {
		t.Errorf("--rules: %v", l)
	}

	// HA[7.5]: an error, or with --tolerant a warning and the AB stones.
	code, out, _ = runGobot("sgf", "replay", "--json", fixture("ha_bad.sgf"))
	if l := jsonLines(t, out)[0]; code != 1 || !strings.Contains(fmt.Sprint(l["error"]), "HA[7.5]") {
		t.Errorf("strict HA[7.5]: exit %d, %v", code, l)
	}
	code, out, _ = runGobot("sgf", "replay", "--json", "--tolerant", fixture("ha_bad.sgf"))
	l := jsonLines(t, out)[0]
	if warnings, _ := l["warnings"].([]any); code != 0 || l["handicap"] != 3.0 || len(warnings) != 1 || !strings.Contains(warnings[0].(string), "HA[7.5]") {
		t.Errorf("tolerant HA[7.5]: exit %d, %v", code, l)
	}

	// Moves out of turn: strict stops, tolerant counts them.
	code, out, _ = runGobot("sgf", "replay", fixture("same_colour.sgf"))
	if code != 1 || !strings.Contains(out, "move 4, Black G3: not your turn: it is White's move") {
		t.Errorf("strict same_colour: exit %d\n%s", code, out)
	}
	code, out, _ = runGobot("sgf", "replay", "--tolerant", fixture("same_colour.sgf"))
	if code != 0 || !strings.Contains(out, "Moves out of turn, played as written: 2\n") {
		t.Errorf("tolerant same_colour: exit %d\n%s", code, out)
	}
	_, out, _ = runGobot("sgf", "replay", "--tolerant", "--json", fixture("same_colour.sgf"))
	if l := jsonLines(t, out)[0]; l["out_of_turn"] != 2.0 {
		t.Errorf("tolerant same_colour --json: %v", l)
	}

	// PL beside a move (KGS): a clean strict replay.
	code, out, _ = runGobot("sgf", "replay", fixture("pl_after_move.sgf"))
	if code != 0 || !strings.Contains(out, "Illegal moves: none") {
		t.Errorf("pl_after_move: exit %d\n%s", code, out)
	}
	// The text report says when the rules are the default, and warns.
	_, out, _ = runGobot("sgf", "replay", fixture("ca_latin1.sgf"), fixture("ru_spellings.sgf"))
	for _, s := range []string{"Warning: no CA and the text is not UTF-8: read as ISO-8859-1",
		"5x5, chinese rules (the default), komi 0.5, 5 moves\nWarning: RU[kgs-special] is not a ruleset gobot knows"} {
		if !strings.Contains(out, s) {
			t.Errorf("text output lacks %q:\n%s", s, out)
		}
	}
}

// TestSGFScoreNoDead checks that an explicit empty list (--dead "" or
// --no-dead) counts no stone as dead, where leaving --dead out takes the
// proposal (which finds White's A5 dead).
func TestSGFScoreNoDead(t *testing.T) {
	dir := t.TempDir()
	f := writeSGF(t, dir, "score.sgf", score5)
	results := map[string]string{}
	for name, args := range map[string][]string{
		"proposal":    {"sgf", "score", f, "--json"},
		"--dead \"\"": {"sgf", "score", f, "--json", "--dead", ""},
		"--dead=":     {"sgf", "score", f, "--json", "--dead="},
		"--no-dead":   {"sgf", "score", "--no-dead", f, "--json"},
	} {
		code, out, errOut := runGobot(args...)
		if code != 0 {
			t.Fatalf("%s: exit %d, stderr %q", name, code, errOut)
		}
		m := jsonLines(t, out)[0]
		results[name] = fmt.Sprint(m["result"], " ", m["dead"])
	}
	// A5 alive: A1–A4 touch both colours and count for nobody, so Black
	// has nothing and White its 5 points and komi.
	for _, name := range []string{"--dead \"\"", "--dead=", "--no-dead"} {
		if results[name] != "W+5.5 []" {
			t.Errorf("%s: result and dead %q, want W+5.5 []", name, results[name])
		}
	}
	if results["proposal"] != "B+0.5 [A5]" {
		t.Errorf("proposal: result and dead %q, want B+0.5 [A5]", results["proposal"])
	}
	for _, tt := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"sgf", "replay", f, "--no-dead"}, "--no-dead only goes with gobot sgf score"},
		{[]string{"sgf", "score", f, "--no-dead", "--dead", "A5"}, "give one of them"},
	} {
		code, _, errOut := runGobot(tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("gobot %s: exit %d, stderr %q; want 2 and %q", strings.Join(tt.args, " "), code, errOut, tt.stderr)
		}
	}
}

// score counts the dead stones the record's final territory marks show
// (what the players agreed: here the black stone at E3 lives), and
// falls back to gobot's proposal only for a record without them.
func TestSGFScoreUsesTerritoryMarks(t *testing.T) {
	dir := t.TempDir()
	rec := "(;GM[1]FF[4]SZ[5]KM[0.5]RU[Japanese]\n;B[ba];W[da];B[bb];W[db];B[bc];W[dc];B[bd];W[dd];B[be];W[de];B[ec];W[];B[]%s)"
	marked := filepath.Join(dir, "marked.sgf")
	bare := filepath.Join(dir, "bare.sgf")
	os.WriteFile(marked, []byte(fmt.Sprintf(rec, "TB[aa][ab][ac][ad][ae]TW[ea][eb][ed][ee]")), 0o644)
	os.WriteFile(bare, []byte(fmt.Sprintf(rec, "")), 0o644)
	code, out, stderr := runGobot("sgf", "score", marked)
	if code != 0 || !strings.Contains(out, "Dead stones: none") || !strings.Contains(out, "Result: B+4.5") {
		t.Fatalf("with territory marks: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runGobot("sgf", "score", bare)
	if code != 0 || !strings.Contains(out, "Dead stones: the strings at E3") {
		t.Fatalf("without marks: exit %d\n%s%s", code, out, stderr)
	}
	// --dead still decides when given.
	if _, out, _ := runGobot("sgf", "score", marked, "--dead", "E3"); !strings.Contains(out, "Dead stones: the strings at E3") {
		t.Fatalf("--dead E3 with marks:\n%s", out)
	}
}

// pngOf returns a small real PNG.
func pngOf(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 8, 8))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
