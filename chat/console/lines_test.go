package console

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestLineReader(t *testing.T) {
	type line struct {
		text string
		long int64 // > 0: skipped as too long
	}
	for _, tc := range []struct {
		name, in string
		want     []line
	}{
		{"empty", "", nil},
		{"lines", "a\nbc\n", []line{{"a", 0}, {"bc", 0}}},
		{"crlf", "a\r\nbc\r\n", []line{{"a", 0}, {"bc", 0}}},
		{"last line without end", "a\nbc", []line{{"a", 0}, {"bc", 0}}},
		{"last line ends in cr", "a\r", []line{{"a", 0}}},
		{"blank lines", "\n\r\n\n", []line{{"", 0}, {"", 0}, {"", 0}}},
		{"cr inside a line", "a\rb\n", []line{{"a\rb", 0}}},
		{"exactly max", "12345678\n", []line{{"12345678", 0}}},
		{"exactly max with crlf", "12345678\r\nx", []line{{"12345678", 0}, {"x", 0}}},
		{"one over max", "123456789\nok\n", []line{{"", 9}, {"ok", 0}}},
		{"one over max with crlf", "123456789\r\nok", []line{{"", 9}, {"ok", 0}}},
		{"long, then lines", strings.Repeat("x", 100) + "\r\nok\n\nfine", []line{{"", 100}, {"ok", 0}, {"", 0}, {"fine", 0}}},
		{"long last line", "ok\n" + strings.Repeat("x", 30), []line{{"ok", 0}, {"", 30}}},
		{"two long lines", strings.Repeat("x", 30) + "\n" + strings.Repeat("y", 40) + "\n", []line{{"", 30}, {"", 40}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// One byte per Read and the smallest buffer, so lines
			// cross reads and buffer fills.
			lr := &lineReader{r: bufio.NewReaderSize(iotest.OneByteReader(strings.NewReader(tc.in)), 16), max: 8}
			var got []line
			for {
				l, long, err := lr.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line{string(l), long})
				if len(got) > 10 {
					t.Fatal("no end")
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d: got %v, want %v", i+1, got[i], tc.want[i])
				}
			}
		})
	}
}

// TestLineReaderSmallBuffer splits a long line across many buffer fills
// of a 16-byte bufio.Reader (its minimum), the "\r" of its end included.
func TestLineReaderSmallBuffer(t *testing.T) {
	for _, n := range []int{15, 16, 17, 31, 32, 33, 100} {
		in := strings.Repeat("x", n) + "\r\n" + strings.Repeat("y", 5) + "\n"
		lr := &lineReader{r: bufio.NewReaderSize(strings.NewReader(in), 16), max: 20}
		l, long, err := lr.next()
		if err != nil {
			t.Fatal(err)
		}
		if n > 20 && (l != nil || long != int64(n)) {
			t.Errorf("%d bytes: got %q, long %d; want skipped, long %d", n, l, long, n)
		}
		if n <= 20 && string(l) != strings.Repeat("x", n) {
			t.Errorf("%d bytes: got %q, long %d", n, l, long)
		}
		if l, _, err := lr.next(); err != nil || string(l) != "yyyyy" {
			t.Errorf("%d bytes: next line %q, %v", n, l, err)
		}
	}
}

// TestLongLine: a line over MaxLine gets an error and the console goes
// on to run the next command (before, bufio.Scanner stopped the program
// with "token too long").
func TestLongLine(t *testing.T) {
	var script bytes.Buffer
	script.WriteString("challenge @bob " + strings.Repeat("9", 2<<20) + "\n")
	script.WriteString("challenge @bob 9\n")
	script.WriteString(strings.Repeat("x", MaxLine+1)) // the last line, no end
	out := run(t, script.Bytes())
	for _, want := range []string{
		"! That line is 2097167 bytes long; lines are at most 1048576 bytes (1 MiB), so it was skipped. Nothing changed.",
		"alice> challenge @bob 9\n",
		"Challenge #1",
		"! That line is 1048577 bytes long",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("transcript lacks %q:\n%.2000s", want, out)
		}
	}
	if len(out) > 10000 {
		t.Errorf("the transcript is %d bytes: a long line was echoed", len(out))
	}
}

// FuzzLineReader compares the line reader with a plain split of the
// input: lines end at "\n" (one "\r" before it, or at the end, is
// dropped), and a line over the limit is reported with its length.
// Seeded from the transcript scripts.
func FuzzLineReader(f *testing.F) {
	scripts, _ := filepath.Glob("../testdata/*.script")
	for _, s := range scripts {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b, 40)
		}
	}
	f.Add([]byte("a\r\n\r\rb\r"), 1)
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		max = 1 + abs(max)%64
		type line struct {
			text string
			long int64
		}
		var want []line
		rest := in
		for len(rest) > 0 {
			l, after, found := bytes.Cut(rest, []byte("\n"))
			if !found {
				after = nil
			}
			rest = after
			l = bytes.TrimSuffix(l, []byte("\r"))
			if len(l) > max {
				want = append(want, line{"", int64(len(l))})
			} else {
				want = append(want, line{string(l), 0})
			}
		}
		lr := &lineReader{r: bufio.NewReaderSize(iotest.HalfReader(bytes.NewReader(in)), 16), max: max}
		for i := 0; ; i++ {
			l, long, err := lr.next()
			if errors.Is(err, io.EOF) {
				if i != len(want) {
					t.Fatalf("%d lines, want %d", i, len(want))
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if i >= len(want) {
				t.Fatalf("more than %d lines", len(want))
			}
			if got := (line{string(l), long}); got != want[i] {
				t.Fatalf("line %d: got %+v, want %+v", i+1, got, want[i])
			}
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
