package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Rank is an amateur grade on one scale: kyu grades count down to 1 kyu,
// then dan grades count up from 1 dan (text 002 rule 21). Internally 30k
// is -29, 1k is 0, 1d is 1, 9d is 9, so the difference of two ranks is
// the number of grades between them.
type Rank int

// ErrBadRank is returned for a rank that cannot be read.
var ErrBadRank = errors.New("not a rank")

// ParseRank reads "5k", "5 kyu", "1d", "3 dan" (case-insensitive). Kyu
// grades go from 35 to 1, amateur dan grades from 1 to 9.
func ParseRank(s string) (Rank, error) {
	t := strings.ToLower(strings.Join(strings.Fields(s), ""))
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(t[:i])
	if err != nil || i == 0 {
		return 0, fmt.Errorf("%q is %w: write a grade like 5k or 2d", s, ErrBadRank)
	}
	switch t[i:] {
	case "k", "kyu":
		if n < 1 || n > 35 {
			return 0, fmt.Errorf("%q is %w: kyu grades go from 35k to 1k", s, ErrBadRank)
		}
		return Rank(1 - n), nil
	case "d", "dan":
		if n < 1 || n > 9 {
			return 0, fmt.Errorf("%q is %w: amateur dan grades go from 1d to 9d", s, ErrBadRank)
		}
		return Rank(n), nil
	}
	return 0, fmt.Errorf("%q is %w: write a grade like 5k or 2d", s, ErrBadRank)
}

// String writes the rank as "5k" or "2d".
func (r Rank) String() string {
	if r >= 1 {
		return strconv.Itoa(int(r)) + "d"
	}
	return strconv.Itoa(1-int(r)) + "k"
}

// HandicapFor returns the handicap stones for a game between two ranks:
// the difference in grade (texts 003 and 004), at most MaxHandicap; 0 or
// 1 means an even game (1: the weaker player takes Black without komi).
func HandicapFor(a, b Rank) int {
	d := int(a - b)
	if d < 0 {
		d = -d
	}
	return min(d, MaxHandicap)
}
