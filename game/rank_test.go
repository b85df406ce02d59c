package game

import (
	"errors"
	"testing"
)

func TestParseRank(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string
	}{
		{"5k", "5k"}, {"5 kyu", "5k"}, {"1K", "1k"}, {"1d", "1d"}, {"3 Dan", "3d"}, {"35k", "35k"}, {"9d", "9d"},
	} {
		r, err := ParseRank(tc.in)
		if err != nil {
			t.Fatalf("ParseRank(%q): %v", tc.in, err)
		}
		if r.String() != tc.want {
			t.Errorf("ParseRank(%q) = %s, want %s", tc.in, r, tc.want)
		}
	}
	for _, bad := range []string{"", "k", "0k", "36k", "10d", "0d", "5p", "five kyu", "-3k"} {
		if _, err := ParseRank(bad); !errors.Is(err, ErrBadRank) {
			t.Errorf("ParseRank(%q) error = %v, want ErrBadRank", bad, err)
		}
	}
}

func TestHandicapFor(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"5k", "1k", 4},
		{"1k", "1d", 1}, // 1 kyu to 1 dan is one grade
		{"3k", "2d", 4},
		{"2d", "3k", 4},
		{"20k", "1d", 9}, // capped
		{"4k", "4k", 0},
	} {
		a, _ := ParseRank(tc.a)
		b, _ := ParseRank(tc.b)
		if got := HandicapFor(a, b); got != tc.want {
			t.Errorf("HandicapFor(%s, %s) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
