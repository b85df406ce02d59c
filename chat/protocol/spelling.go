package protocol

import "strings"

// maxSpelled is the longest word checked for a misspelling; a longer one
// is no near miss of any name gobot knows.
const maxSpelled = 40

// Nearest returns the name a word is a near miss of ("chalenge":
// challenge, "japanes": japanese), if one is close enough to be what
// was meant: one slip (a letter wrong, missing, extra or two swapped) in
// a name of 3 to 5 letters, two in a longer one, none in a shorter one.
// "foo" is near no name: "elo" is two slips away.
func Nearest(word string, names []string) (string, bool) {
	w := strings.ToLower(strings.TrimSpace(word))
	if w == "" || len(w) > maxSpelled {
		return "", false
	}
	best, bestD := "", 0
	for _, n := range names {
		d := EditDistance(w, n)
		if d > slips(n) {
			continue
		}
		if best == "" || d < bestD {
			best, bestD = n, d
		}
	}
	return best, best != ""
}

// slips is how many slips a name of n's length may carry and still be
// recognised.
func slips(n string) int {
	switch {
	case len(n) < 3:
		return 0
	case len(n) < 6:
		return 1
	}
	return 2
}

// EditDistance counts the slips between a and b: letters inserted,
// deleted, replaced, or two neighbours swapped (optimal string alignment
// distance), byte by byte.
func EditDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
