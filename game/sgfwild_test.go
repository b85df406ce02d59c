package game

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// Records as other programs write them (issue 19): PL beside a move, HA
// holding a komi, RU spellings, CA charsets, moves out of turn. Each has a
// hand-written fixture in testdata/.

func readFixture(t *testing.T, name string, tolerant bool) []*SGFRecord {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	read := ReadSGF
	if tolerant {
		read = ReadSGFTolerant
	}
	recs, err := read(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return recs
}

func replayRecord(t *testing.T, r *SGFRecord, tolerant bool) *SGFReplay {
	t.Helper()
	rules, _ := r.RecordRules()
	rep, err := r.Replay(rules, tolerant)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestPLBesideMove(t *testing.T) {
	// KGS: ;W[cc]PL[B] — Black plays after White's move. Move 5 has PL[B]
	// and Black plays move 6 too.
	r := readFixture(t, "pl_after_move.sgf", false)[0]
	rep := replayRecord(t, r, false)
	if len(rep.Illegal) > 0 || rep.Moves != 7 || rep.OutOfTurn != 0 {
		t.Fatalf("strict replay: %d moves, illegal %v, out of turn %d; want 7 legal moves", rep.Moves, rep.Illegal, rep.OutOfTurn)
	}
	if got := rep.Game.Board().At(Pt(2, 4)); got != White {
		t.Errorf("C5 (move 7) = %v, want White", got)
	}
	if rep.Game.ToMove() != Black {
		t.Errorf("to move after the record: %v, want Black", rep.Game.ToMove())
	}

	// A PL that the next move contradicts: strict names it.
	r = readFixture(t, "pl_contradict.sgf", false)[0]
	rep = replayRecord(t, r, false)
	if !rep.Stopped || len(rep.Illegal) != 1 {
		t.Fatalf("strict replay of pl_contradict: stopped %v, illegal %v", rep.Stopped, rep.Illegal)
	}
	ill := rep.Illegal[0]
	if ill.Number != 3 || !errors.Is(ill.Err, ErrNotYourTurn) || !strings.Contains(ill.Reason(), "PL[W] after move 2") {
		t.Errorf("illegal move = %v, want move 3 out of turn naming PL[W] after move 2", ill)
	}
	// Tolerant follows the record.
	rep = replayRecord(t, r, true)
	if rep.Stopped || rep.Moves != 4 || rep.OutOfTurn != 1 {
		t.Errorf("tolerant: stopped %v, %d moves, out of turn %d; want 4 moves, 1 out of turn", rep.Stopped, rep.Moves, rep.OutOfTurn)
	}
	if rep.Game.Board().At(Pt(6, 2)) != Black || rep.Game.Board().At(Pt(2, 6)) != White {
		t.Errorf("tolerant board:\n%s", strings.Join(rep.Game.Board().Rows(), "\n"))
	}

	for _, tt := range []struct{ name, sgf string }{
		{"PL in a root without setup", "(;SZ[9]PL[W];W[aa];B[bb])"},
		{"PL in a node of its own", "(;SZ[9];B[aa];PL[B];B[bb];W[cc])"},
		{"B and W in one node, then PL", "(;SZ[9];B[aa]W[bb]PL[W];W[cc];B[dd])"},
		{"setup, move and PL in one node", "(;SZ[9];AB[ee]W[aa]PL[W];W[bb];B[cc])"},
		{"PL in a root with a move", "(;SZ[9]B[aa]PL[B];B[bb];W[cc])"},
	} {
		rep := replayRecord(t, mustReadSGF(t, tt.sgf), false)
		if len(rep.Illegal) > 0 {
			t.Errorf("%s: %s: illegal %v", tt.name, tt.sgf, rep.Illegal)
		}
	}
}

func TestBadHandicap(t *testing.T) {
	data, err := os.ReadFile("testdata/ha_bad.sgf")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadSGF(data)
	if !errors.Is(err, ErrHandicap) || !strings.Contains(err.Error(), "HA[7.5]") || !strings.Contains(err.Error(), "tolerant reading ignores it") {
		t.Fatalf("strict: %v, want ErrHandicap naming HA[7.5]", err)
	}
	r := readFixture(t, "ha_bad.sgf", true)[0]
	if r.Handicap != 3 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "HA[7.5]") || !strings.Contains(r.Warnings[0], "handicap 3") {
		t.Fatalf("tolerant: handicap %d, warnings %q; want 3 and a warning", r.Handicap, r.Warnings)
	}
	rep := replayRecord(t, r, false)
	if len(rep.Illegal) > 0 || rep.Game.Config().Handicap != 3 || rep.Game.Captures(Black) != 0 {
		t.Errorf("replay: illegal %v, handicap %d", rep.Illegal, rep.Game.Config().Handicap)
	}
	// Komi in HA and no AB: no handicap.
	recs, err := ReadSGFTolerant([]byte("(;SZ[19]HA[7.5]KM[7.5];B[pd];W[dp])"))
	if err != nil || recs[0].Handicap != 0 || recs[0].Komi != 7.5 || len(recs[0].Warnings) != 1 {
		t.Fatalf("HA[7.5] without AB: %v %+v", err, recs)
	}
	for _, bad := range []string{"HA[-2]", "HA[two]", "HA[400]"} {
		if _, err := ReadSGF([]byte("(;SZ[19]" + bad + ")")); !errors.Is(err, ErrHandicap) {
			t.Errorf("%s strict: %v", bad, err)
		}
		if recs, err := ReadSGFTolerant([]byte("(;SZ[19]" + bad + ")")); err != nil || recs[0].Handicap != 0 {
			t.Errorf("%s tolerant: %v", bad, err)
		}
	}
}

func TestRUSpellingsFixture(t *testing.T) {
	// Each game ends with a suicide, legal under every ruleset the RU
	// names; the last RU is unknown, so chinese refuses it.
	recs := readFixture(t, "ru_spellings.sgf", false)
	want := []string{"tromp-taylor", "tromp-taylor", "tromp-taylor", "tromp-taylor", "tromp-taylor", "tromp-taylor",
		"new-zealand", "new-zealand", "new-zealand", "new-zealand", "chinese"}
	if len(recs) != len(want) {
		t.Fatalf("%d games, want %d", len(recs), len(want))
	}
	for i, r := range recs {
		rules, from := r.RecordRules()
		rep := replayRecord(t, r, false)
		last := i == len(recs)-1
		if rules.Name != want[i] || (from == RulesFromDefault) != last {
			t.Errorf("RU[%s]: %s from %s, want %s", r.Rules, rules.Name, from, want[i])
		}
		if last {
			if len(rep.Illegal) != 1 || !errors.Is(rep.Illegal[0].Err, ErrSuicide) {
				t.Errorf("RU[%s]: illegal %v, want the suicide", r.Rules, rep.Illegal)
			}
			if len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "RU[kgs-special] is not a ruleset gobot knows (the default is chinese)") {
				t.Errorf("RU[%s]: warnings %q", r.Rules, r.Warnings)
			}
			continue
		}
		if len(rep.Illegal) > 0 || len(r.Warnings) > 0 {
			t.Errorf("RU[%s]: illegal %v, warnings %q", r.Rules, rep.Illegal, r.Warnings)
		}
	}
}

func TestSGFCharsets(t *testing.T) {
	type want struct {
		black, white, rank, event string
		comment                   string // a part of the root comment
		moves                     []string
		warning                   string // a part of the only warning, or "" for none
	}
	for _, tt := range []struct {
		file string
		want want
	}{
		{"ca_gbk.sgf", want{"柯洁", "古力", "9p", "围棋乗", "with GBK characters: 乗 (0x81 0x5C) ends this value 乗", []string{"乗", "白]"}, ""}},
		{"ca_sjis.sgf", want{"表", "ソフト", "初段", "", "ゾンビの ゾ (0x83 0x5D) も 十 (0x8F 0x5C) もそのまま", []string{"能", "十]"}, ""}},
		{"ca_sjis_bytes.sgf", want{"表", "ソフト", "初段", "", "ゾンビの ゾ (0x83 0x5D) も 十 (0x8F 0x5C) も", []string{"能", "十]"}, ""}},
		{"ca_latin1.sgf", want{"Müller", "Søren", "", "Coupe de Noël", "ISO-8859-1", nil, "no CA and the text is not UTF-8"}},
		{"ca_unknown.sgf", want{"Zoë", "Łukasz", "", "", "unknown CA", nil, "CA[x-klingon] is not a charset gobot knows: text read as UTF-8"}},
	} {
		r := readFixture(t, tt.file, false)[0]
		info := r.Info
		w := tt.want
		if info.Black != w.black || info.White != w.white || info.BlackRank != w.rank || info.Event != w.event || !strings.Contains(info.Comment, w.comment) {
			t.Errorf("%s: PB %q PW %q BR %q EV %q C %q", tt.file, info.Black, info.White, info.BlackRank, info.Event, info.Comment)
		}
		for i, c := range w.moves {
			if i >= len(info.Moves) || info.Moves[i].Comment != c {
				t.Errorf("%s: move %d comment %q, want %q", tt.file, i+1, info.Moves[i].Comment, c)
			}
		}
		if (w.warning == "") != (len(r.Warnings) == 0) || (w.warning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], w.warning))) {
			t.Errorf("%s: warnings %q, want %q", tt.file, r.Warnings, w.warning)
		}
		checkUTF8(t, tt.file, r)

		// Written back: UTF-8 under CA[UTF-8], and read back the same.
		rep := replayRecord(t, r, false)
		var buf bytes.Buffer
		if err := WriteSGF(&buf, rep.Game, info); err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(buf.Bytes()) || !bytes.Contains(buf.Bytes(), []byte("CA[UTF-8]")) {
			t.Errorf("%s: written record is not UTF-8 under CA[UTF-8]:\n%s", tt.file, buf.Bytes())
		}
		back := mustReadSGF(t, buf.String())
		if !reflect.DeepEqual(back.Info, info) || len(back.Warnings) != 0 {
			t.Errorf("%s: info after write → read\n%+v\nwant\n%+v\nwarnings %q", tt.file, back.Info, info, back.Warnings)
		}
	}

	for _, tt := range []struct {
		name, sgf, black, comment, warning string
	}{
		{"Big5, 0x5C second bytes", "(;CA[Big5]PB[\xb3\x5c\xa5\x5c]C[\xbb\x5c])", "許功", "蓋", ""},
		{"EUC-KR", "(;CA[EUC-KR]PB[\xc0\xcc\xbc\xbc\xb5\xb9])", "이세돌", "", ""},
		{"GB18030 after PB in the root", "(;PB[\x81\x5c]CA[gb18030])", "乗", "", ""},
		{"windows-1251", "(;CA[windows-1251]PB[\xc8\xe2\xe0\xed])", "Иван", "", ""},
		{"ISO-8859-1 named", "(;CA[iso-8859-1]PB[Jos\xe9])", "José", "", ""},
		{"no CA, UTF-8", "(;PB[José]C[碁])", "José", "碁", ""},
		{"no CA, ASCII", "(;PB[Jose])", "Jose", "", ""},
		{"CA[UTF-8] with bad bytes", "(;CA[UTF-8]PB[Jos\xe9])", "Jos\uFFFD", "", "not valid UTF-8"},
		{"unknown CA, not UTF-8", "(;CA[foo]PB[Jos\xe9])", "José", "", "text read as ISO-8859-1"},
		{"UTF-16 named in an ASCII file", "(;CA[UTF-16]PB[Jos\xe9])", "José", "", "CA[UTF-16] is not a charset gobot knows"},
		{"Shift_JIS invalid bytes", "(;CA[Shift_JIS]PB[a\x81 b])", "a\uFFFD b", "", ""},
	} {
		r := mustReadSGF(t, tt.sgf)
		if r.Info.Black != tt.black || r.Info.Comment != tt.comment {
			t.Errorf("%s: PB %q C %q, want %q %q", tt.name, r.Info.Black, r.Info.Comment, tt.black, tt.comment)
		}
		if (tt.warning == "") != (len(r.Warnings) == 0) || (tt.warning != "" && !strings.Contains(strings.Join(r.Warnings, "\n"), tt.warning)) {
			t.Errorf("%s: warnings %q, want %q", tt.name, r.Warnings, tt.warning)
		}
		checkUTF8(t, tt.name, r)
	}
}

// checkUTF8 fails unless every text of r is valid UTF-8.
func checkUTF8(t *testing.T, name string, r *SGFRecord) {
	t.Helper()
	r.eachText(func(s string) string {
		if !utf8.ValidString(s) {
			t.Errorf("%s: %q is not UTF-8", name, s)
		}
		return s
	})
	for _, w := range r.Warnings {
		if !utf8.ValidString(w) {
			t.Errorf("%s: warning %q is not UTF-8", name, w)
		}
	}
}

// The escapes in Shift_JIS, GBK and Big5 work on characters: a second
// byte "\" or "]" belongs to its character. A tree written with
// WriteSGFTree in such a charset reads back the same, and both
// character- and byte-escaping writers' files read as they meant.
func TestSGFMultibyteEscapes(t *testing.T) {
	for _, tt := range []struct {
		name, sgf string
		values    []string // the PB and PW values, undecoded
	}{
		{"character ending in \\ before ]", "(;CA[SJIS]PB[\x95\x5c]PW[a])", []string{"\x95\x5c", "a"}},
		{"character ending in ]", "(;CA[SJIS]PB[\x83\x5d\x83\x93]PW[a])", []string{"\x83\x5d\x83\x93", "a"}},
		{"byte-escaped \\ at the end", "(;CA[SJIS]PB[\x95\x5c\x5c]PW[a])", []string{"\x95\x5c", "a"}},
		{"byte-escaped \\ in the middle", "(;CA[SJIS]PB[\x95\x5c\x5cx]PW[a])", []string{"\x95\x5cx", "a"}},
		{"byte-escaped ]", "(;CA[SJIS]PB[\x83\x5c\x5d\x83\x93]PW[a])", []string{"\x83\x5d\x83\x93", "a"}},
		{"character then escaped ]", "(;CA[SJIS]PB[\x8f\x5c\x5c]x]PW[a])", []string{"\x8f\x5c]x", "a"}},
		{"character then escaped ] at the end", "(;CA[SJIS]PB[\x8f\x5c\x5c\x5c\x5d]PW[a])", []string{"\x8f\x5c]", "a"}},
		{"escaped character", "(;CA[GBK]PB[\\\x81\x5c]PW[a])", []string{"\x81\x5c", "a"}},
		{"lone lead byte", "(;CA[GBK]PB[\x81\n]PW[a])", []string{"\x81\n", "a"}},
		{"GB2312 is read as GBK", "(;CA[GB2312]PB[\x81\x5c]PW[\x81\x5d])", []string{"\x81\x5c", "\x81\x5d"}},
		{"Big5", "(;CA[big5]PB[\xb3\x5c]PW[\xa5\x5c\\]])", []string{"\xb3\x5c", "\xa5\x5c]"}},
		{"UTF-8 keeps byte escapes", "(;CA[UTF-8]PB[\x95\\]]PW[a])", []string{"\x95]", "a"}},
	} {
		roots := mustParseSGF(t, tt.sgf)
		got := []string{first(roots[0].Values("PB")), first(roots[0].Values("PW"))}
		if !reflect.DeepEqual(got, tt.values) {
			t.Errorf("%s: %q: PB, PW = %q, want %q", tt.name, tt.sgf, got, tt.values)
		}
		var buf bytes.Buffer
		if err := WriteSGFTree(&buf, roots...); err != nil {
			t.Fatal(err)
		}
		if again := mustParseSGF(t, buf.String()); !reflect.DeepEqual(again, roots) {
			t.Errorf("%s: write → parse changed the tree: %q", tt.name, buf.String())
		}
	}
}

func TestMovesOutOfTurn(t *testing.T) {
	r := readFixture(t, "same_colour.sgf", false)[0]
	rep := replayRecord(t, r, false)
	if !rep.Stopped || len(rep.Illegal) != 1 || rep.Illegal[0].String() != "move 4 (Black G3): not your turn: it is White's move" {
		t.Fatalf("strict: stopped %v, illegal %v", rep.Stopped, rep.Illegal)
	}
	rep = replayRecord(t, r, true)
	if rep.Stopped || rep.Moves != 7 || rep.OutOfTurn != 2 || len(rep.Illegal) != 2 {
		t.Fatalf("tolerant: stopped %v, %d moves, out of turn %d, illegal %v; want 7 moves, 2 out of turn", rep.Stopped, rep.Moves, rep.OutOfTurn, rep.Illegal)
	}
	b := rep.Game.Board()
	for _, p := range []struct {
		sgf string
		c   Color
	}{{"ee", Black}, {"cc", White}, {"gc", Black}, {"gg", Black}, {"cg", White}, {"ce", White}, {"eg", Black}} {
		pt, _ := ParseSGFPoint(p.sgf, 9, 9)
		if b.At(pt) != p.c {
			t.Errorf("%s = %v, want %v", p.sgf, b.At(pt), p.c)
		}
	}
}

// Random values made of the bytes that matter to the two-byte escapes:
// whatever parses writes back and parses the same.
func TestSGFMultibyteRoundTripRandom(t *testing.T) {
	alphabet := []string{"\x95", "\x83", "\x81", "\xe0", "\\", "]", "[", "(", ")", ";", "A", "x", " ", "\n", "\r", "@",
		" CA[", "SJIS]", "UTF-8]", "GBK"}
	rng := rand.New(rand.NewPCG(5, 92))
	parsed := 0
	for i := 0; i < 10000; i++ {
		var v []byte
		for n := rng.IntN(12); n > 0; n-- {
			v = append(v, alphabet[rng.IntN(len(alphabet))]...)
		}
		ca := []string{"SJIS", "GBK", "Big5", "UTF-8"}[i%4]
		src := "(;CA[" + ca + "]PB[" + string(v) + "]PW[w];B[aa]C[" + string(v) + "])"
		if i%5 == 0 { // CA after a value, or "CA[" in a comment before it
			other := []string{"UTF-8", "SJIS"}[i%2]
			src = "(;PB[" + string(v) + "]C[CA[" + other + "\\]]CA[" + ca + "];B[aa]C[" + string(v) + "])"
		}
		roots, err := ParseSGF([]byte(src))
		if err != nil {
			continue
		}
		parsed++
		if ca != "UTF-8" && !bytes.Contains(v, []byte("CA[")) && !bytes.ContainsAny(v, "[]\\") {
			if got := first(roots[0].Values("CA")); got != ca {
				t.Fatalf("%q: CA = %q", src, got)
			}
		}
		var buf bytes.Buffer
		if err := WriteSGFTree(&buf, roots...); err != nil {
			t.Fatal(err)
		}
		again, err := ParseSGF(buf.Bytes())
		if err != nil || !reflect.DeepEqual(again, roots) {
			t.Fatalf("%q: write → parse: %v\n%q", src, err, buf.Bytes())
		}
	}
	if parsed < 1000 {
		t.Errorf("only %d of 10000 random records parsed", parsed)
	}
}

// Values quoted in errors and warnings are clipped.
func TestSGFMessagesClipped(t *testing.T) {
	long := strings.Repeat("x", 5000)
	for _, prop := range []string{"GM", "SZ", "KM", "HA", "PL", "AB"} {
		_, err := ReadSGF([]byte("(;" + prop + "[" + long + "])"))
		if err == nil || len(err.Error()) > 200 || !strings.Contains(err.Error(), prop+"[xxx") {
			t.Errorf("%s: error %.300v", prop, err)
		}
	}
	r := mustReadSGF(t, "(;SZ[9];B["+long+"])")
	if rep := replayRecord(t, r, true); len(rep.Illegal) != 1 || len(rep.Illegal[0].String()) > 200 {
		t.Errorf("move: illegal %.300v", rep.Illegal)
	}
	for _, prop := range []string{"HA", "RU", "CA"} {
		recs, err := ReadSGFTolerant([]byte("(;" + prop + "[" + long + "\xff])"))
		if err != nil || len(recs[0].Warnings) == 0 {
			t.Fatalf("%s: %v", prop, err)
		}
		for _, w := range recs[0].Warnings {
			if len(w) > 200 || !utf8.ValidString(w) {
				t.Errorf("%s: warning %.300q", prop, w)
			}
		}
	}
}
