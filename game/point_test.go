package game

import (
	"errors"
	"testing"
)

func TestParseGTP(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		want Point
		err  error
	}{
		{"A1", 19, 19, Pt(0, 18), nil},
		{"a1", 19, 19, Pt(0, 18), nil},
		{"D4", 19, 19, Pt(3, 15), nil},
		{"d16", 19, 19, Pt(3, 3), nil},
		{"T19", 19, 19, Pt(18, 0), nil},
		{"J10", 19, 19, Pt(8, 9), nil}, // J is the 9th column: I is skipped
		{"H1", 9, 9, Pt(7, 8), nil},
		{" K10 ", 19, 19, Pt(9, 9), nil},
		{"pass", 19, 19, Pass, nil},
		{"PASS", 9, 9, Pass, nil},
		{"Z25", 25, 25, Pt(24, 0), nil},
		{"M3", 13, 3, Pt(11, 0), nil}, // rectangular: 13 wide, 3 high
		{"A1", 2, 2, Pt(0, 1), nil},
		{"I5", 19, 19, Point{}, ErrBadCoord},
		{"i5", 19, 19, Point{}, ErrBadCoord},
		{"", 19, 19, Point{}, ErrBadCoord},
		{"D", 19, 19, Point{}, ErrBadCoord},
		{"DD", 19, 19, Point{}, ErrBadCoord},
		{"D+4", 19, 19, Point{}, ErrBadCoord},
		{"D-4", 19, 19, Point{}, ErrBadCoord},
		{"4D", 19, 19, Point{}, ErrBadCoord},
		{"D1000", 19, 19, Point{}, ErrBadCoord},
		{"é4", 19, 19, Point{}, ErrBadCoord},
		{"D0", 19, 19, Point{}, ErrOffBoard},
		{"D20", 19, 19, Point{}, ErrOffBoard},
		{"K5", 9, 9, Point{}, ErrOffBoard},
		{"A26", 25, 25, Point{}, ErrOffBoard},
		{"A99", 19, 19, Point{}, ErrOffBoard},
		{"O3", 13, 3, Point{}, ErrOffBoard},
		{"A4", 13, 3, Point{}, ErrOffBoard},
	}
	for _, tt := range tests {
		got, err := ParseGTP(tt.in, tt.w, tt.h)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ParseGTP(%q, %d, %d) error = %v, want %v", tt.in, tt.w, tt.h, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseGTP(%q, %d, %d) = %v, %v; want %v", tt.in, tt.w, tt.h, got, err, tt.want)
		}
	}
}

func TestParseSGFPoint(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		want Point
		err  error
	}{
		{"aa", 19, 19, Pt(0, 0), nil},
		{"dd", 19, 19, Pt(3, 3), nil},
		{"pd", 19, 19, Pt(15, 3), nil},
		{"ss", 19, 19, Pt(18, 18), nil},
		{"", 19, 19, Pass, nil},
		{"tt", 19, 19, Pass, nil},
		{"tt", 9, 9, Pass, nil},
		{"tt", 21, 21, Pt(19, 19), nil}, // a real point above 19×19
		{"yy", 25, 25, Pt(24, 24), nil},
		{"ma", 13, 3, Pt(12, 0), nil},
		{"ac", 13, 3, Pt(0, 2), nil},
		{"ad", 13, 3, Point{}, ErrOffBoard},
		{"ja", 9, 9, Point{}, ErrOffBoard},
		{"zz", 19, 19, Point{}, ErrOffBoard},
		{"tu", 19, 19, Point{}, ErrOffBoard},
		{"a", 19, 19, Point{}, ErrBadCoord},
		{"abc", 19, 19, Point{}, ErrBadCoord},
		{"a1", 19, 19, Point{}, ErrBadCoord},
		{"d-", 19, 19, Point{}, ErrBadCoord},
	}
	for _, tt := range tests {
		got, err := ParseSGFPoint(tt.in, tt.w, tt.h)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ParseSGFPoint(%q, %d, %d) error = %v, want %v", tt.in, tt.w, tt.h, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("ParseSGFPoint(%q, %d, %d) = %v, %v; want %v", tt.in, tt.w, tt.h, got, err, tt.want)
		}
	}
}

func TestParseSize(t *testing.T) {
	tests := []struct {
		in   string
		w, h int
		err  error
	}{
		{"19", 19, 19, nil},
		{" 9 ", 9, 9, nil},
		{"13x9", 13, 9, nil},
		{"13X9", 13, 9, nil},
		{"13:9", 13, 9, nil},
		{"13×9", 13, 9, nil},
		{"2", 2, 2, nil},
		{"25:2", 25, 2, nil},
		{"26", 0, 0, ErrSizeTooBig},
		{"19x26", 0, 0, ErrSizeTooBig},
		{"1", 0, 0, ErrSizeTooTiny},
		{"0", 0, 0, ErrSizeTooTiny},
		{"-5", 0, 0, ErrSizeTooTiny},
		{"9x1", 0, 0, ErrSizeTooTiny},
		{"", 0, 0, ErrBadSize},
		{"nineteen", 0, 0, ErrBadSize},
		{"9x", 0, 0, ErrBadSize},
		{"x9", 0, 0, ErrBadSize},
		{"9x9x9", 0, 0, ErrBadSize},
	}
	for _, tt := range tests {
		w, h, err := ParseSize(tt.in)
		if tt.err != nil {
			if !errors.Is(err, tt.err) {
				t.Errorf("ParseSize(%q) error = %v, want %v", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || w != tt.w || h != tt.h {
			t.Errorf("ParseSize(%q) = %d, %d, %v; want %d, %d", tt.in, w, h, err, tt.w, tt.h)
		}
	}
}

func TestPointFormat(t *testing.T) {
	tests := []struct {
		p        Point
		h        int
		gtp, sgf string
	}{
		{Pt(0, 18), 19, "A1", "as"},
		{Pt(3, 15), 19, "D4", "dp"},
		{Pt(8, 0), 19, "J19", "ia"},
		{Pt(18, 0), 19, "T19", "sa"},
		{Pt(24, 24), 25, "Z1", "yy"},
		{Pt(12, 0), 3, "N3", "ma"},
		{Pass, 19, "pass", ""},
	}
	for _, tt := range tests {
		if got := tt.p.GTP(tt.h); got != tt.gtp {
			t.Errorf("%v.GTP(%d) = %q, want %q", tt.p, tt.h, got, tt.gtp)
		}
		if got := tt.p.SGF(); got != tt.sgf {
			t.Errorf("%v.SGF() = %q, want %q", tt.p, got, tt.sgf)
		}
	}
}

// TestPointRoundTrip formats every point of several boards and parses it
// back in both notations.
func TestPointRoundTrip(t *testing.T) {
	for _, sz := range [][2]int{{2, 2}, {9, 9}, {19, 19}, {25, 25}, {13, 3}, {3, 25}} {
		w, h := sz[0], sz[1]
		for y := 0; y < h; y++ {
			for x := 0; x < w; x++ {
				p := Pt(x, y)
				if q, err := ParseGTP(p.GTP(h), w, h); err != nil || q != p {
					t.Fatalf("%dx%d: ParseGTP(%q) = %v, %v; want %v", w, h, p.GTP(h), q, err, p)
				}
				if q, err := ParseSGFPoint(p.SGF(), w, h); err != nil || q != p {
					t.Fatalf("%dx%d: ParseSGFPoint(%q) = %v, %v; want %v", w, h, p.SGF(), q, err, p)
				}
			}
		}
	}
}

func FuzzParsePoint(f *testing.F) {
	for _, s := range []string{"D4", "d4", "pass", "I5", "T19", "Z25", "A0", "dd", "tt", "", "zz", "13x9", "19:19", "26", "A-1", "K+1", "é"} {
		f.Add(s, uint8(19), uint8(19))
	}
	f.Add("M3", uint8(13), uint8(3))
	f.Add("yy", uint8(25), uint8(25))
	f.Fuzz(func(t *testing.T, s string, w8, h8 uint8) {
		w, h := int(w8%24)+2, int(h8%24)+2 // every playable size
		check := func(name string, p Point, err error) {
			if err != nil {
				if !errors.Is(err, ErrBadCoord) && !errors.Is(err, ErrOffBoard) {
					t.Fatalf("%s(%q, %d, %d): error %v wraps neither ErrBadCoord nor ErrOffBoard", name, s, w, h, err)
				}
				return
			}
			if p.IsPass() {
				return
			}
			if !p.In(w, h) {
				t.Fatalf("%s(%q, %d, %d) = %v, off a %dx%d board", name, s, w, h, p, w, h)
			}
			if q, err := ParseGTP(p.GTP(h), w, h); err != nil || q != p {
				t.Fatalf("%s(%q): GTP %q reads back as %v, %v", name, s, p.GTP(h), q, err)
			}
			if q, err := ParseSGFPoint(p.SGF(), w, h); err != nil || q != p {
				t.Fatalf("%s(%q): SGF %q reads back as %v, %v", name, s, p.SGF(), q, err)
			}
		}
		p, err := ParseGTP(s, w, h)
		check("ParseGTP", p, err)
		p, err = ParseSGFPoint(s, w, h)
		check("ParseSGFPoint", p, err)
		p, err = ParsePoint(s, w, h)
		check("ParsePoint", p, err)
		if sw, sh, err := ParseSize(s); err == nil {
			if CheckSize(sw, sh) != nil {
				t.Fatalf("ParseSize(%q) = %d, %d: not a playable size", s, sw, sh)
			}
		} else if !errors.Is(err, ErrBadSize) && !errors.Is(err, ErrSizeTooBig) && !errors.Is(err, ErrSizeTooTiny) {
			t.Fatalf("ParseSize(%q): unexpected error %v", s, err)
		}
	})
}
