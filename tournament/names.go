package tournament

import "unicode/utf16"

// javaCompare orders strings as Java's String.compareTo does, by UTF-16
// code units, which OpenGotha uses to break ties between players.
func javaCompare(a, b string) int {
	if isASCII(a) && isASCII(b) {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	ua, ub := utf16.Encode([]rune(a)), utf16.Encode([]rune(b))
	for i := 0; i < len(ua) && i < len(ub); i++ {
		if ua[i] != ub[i] {
			return int(ua[i]) - int(ub[i])
		}
	}
	return len(ua) - len(ub)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// fullName is the string OpenGotha draws its deterministic random numbers
// from: the name followed by the first name, in UTF-16 code units.
type fullName struct {
	text  string
	units []uint16
}

func newFullName(p *Player) fullName {
	s := p.Name + p.FirstName
	return fullName{text: s, units: utf16.Encode([]rune(s))}
}

// detRandom is OpenGotha's deterministic "random" number between 0 and
// max for a pair of players (Pairing.detRandom): a weighted sum of the two
// names' characters, the names taken in order, scrambled. Swapping the
// players turns n into max-n.
func detRandom(max int64, a, b *fullName) int64 {
	inverse := false
	if javaCompare(a.text, b.text) > 0 {
		a, b = b, a
		inverse = true
	}
	var n int64
	i := int64(1)
	for _, s := range [2][]uint16{a.units, b.units} {
		for _, c := range s {
			n += int64(c) * i
			i++
		}
	}
	n = n * 1234567 % (max + 1)
	if inverse {
		n = max - n
	}
	return n
}
