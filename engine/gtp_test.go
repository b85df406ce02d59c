package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// read collects what readResponses delivers for input.
func read(input string) []respOrErr {
	var out []respOrErr
	readResponses(strings.NewReader(input), "test", func(r respOrErr) bool {
		out = append(out, r)
		return true
	})
	return out
}

func TestReadResponses(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string // "=id text" / "?id text" per response; "!" + error text
	}{
		{"simple", "= 2\n\n", []string{"=-1 2"}},
		{"ids", "=1 GNU Go\n\n?2 unacceptable size\n\n", []string{"=1 GNU Go", "?2 unacceptable size"}},
		{"empty result", "=5\n\n=6 \n\n", []string{"=5 ", "=6 "}},
		{"multi-line", "=9 A1 B2\nC3 D4\n\n", []string{"=9 A1 B2\nC3 D4"}},
		{"leading blank lines", "\n\n=1 x\n\n", []string{"=1 x"}},
		{"CR LF and tabs", "=1 Fake\tEngine\r\n\r\n", []string{"=1 Fake Engine"}},
		{"control characters", "=1 a\x00b\x07c\n\n", []string{"=1 abc"}},
		{"unterminated then EOF", "=1 A1\n", []string{"!engine output ended"}},
		{"not GTP", "hello\n\n", []string{"!engine test said \"hello\" where a response (= or ?) should start"}},
		{"id glued to text", "=12abc\n\n", []string{"!must be followed by a space"}},
		{"nothing", "", []string{"!engine output ended"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, r := range read(tc.in) {
				switch {
				case r.err != nil:
					got = append(got, "!"+r.err.Error())
				case r.ok:
					got = append(got, "="+strconv.Itoa(r.id)+" "+r.text)
				default:
					got = append(got, "?"+strconv.Itoa(r.id)+" "+r.text)
				}
			}
			// Every input ends with the end of output, unless an error
			// ended the reading first.
			if n := len(got); n > 0 && got[n-1] == "!engine output ended" && !strings.HasPrefix(tc.want[len(tc.want)-1], "!") {
				got = got[:n-1]
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
			for i := range got {
				if strings.HasPrefix(tc.want[i], "!") {
					if !strings.Contains(got[i], tc.want[i][1:]) {
						t.Errorf("response %d: got %q, want an error with %q", i, got[i], tc.want[i][1:])
					}
				} else if got[i] != tc.want[i] {
					t.Errorf("response %d: got %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

func TestReadResponsesLimits(t *testing.T) {
	long := "=1 " + strings.Repeat("x", maxLine+1) + "\n\n"
	r := read(long)
	if len(r) != 1 || !errors.Is(r[0].err, ErrProtocol) || !strings.Contains(r[0].err.Error(), "line over") {
		t.Errorf("a too long line: %+v", r)
	}
	big := "=1 " + strings.Repeat(strings.Repeat("x", 1000)+"\n", maxResponse/1000+1) + "\n"
	r = read(big)
	if len(r) != 1 || !errors.Is(r[0].err, ErrProtocol) || !strings.Contains(r[0].err.Error(), "response over") {
		t.Errorf("a too long response: %+v", r)
	}
}

func TestReadGnuGoSession(t *testing.T) {
	data, err := os.ReadFile("testdata/gnugo-session.txt")
	if err != nil {
		t.Fatal(err)
	}
	r := read(string(data))
	if len(r) != 11 || r[10].err == nil {
		t.Fatalf("%d responses, want 10 and the end", len(r))
	}
	if r[2].ok || r[2].text != "unacceptable size" || r[2].id != 3 {
		t.Errorf("response 3: %+v", r[2])
	}
	if !strings.HasPrefix(r[8].text, "A B C D E F G H J\n 9 . . .") {
		t.Errorf("showboard: %q", r[8].text)
	}
}

// FuzzReadResponses feeds arbitrary engine output to the response reader:
// it must never panic, deliver nothing after an error, and hand on only
// text free of control characters other than newlines.
func FuzzReadResponses(f *testing.F) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ended := false
		readResponses(strings.NewReader(string(data)), "fuzz", func(r respOrErr) bool {
			if ended {
				t.Fatalf("a response after the end: %+v", r)
			}
			if r.err != nil {
				ended = true
				if !errors.Is(r.err, ErrProtocol) && !errors.Is(r.err, errEOF) {
					t.Fatalf("error %v is neither ErrProtocol nor the end of output", r.err)
				}
				return true
			}
			if strings.ContainsFunc(r.text, func(c rune) bool { return c < 32 && c != '\n' }) {
				t.Fatalf("control characters in %q", r.text)
			}
			if strings.Contains(r.text, "\n\n") {
				t.Fatalf("an empty line inside a response: %q", r.text)
			}
			return true
		})
		if !ended {
			t.Fatal("the reader returned without saying why")
		}
	})
}
