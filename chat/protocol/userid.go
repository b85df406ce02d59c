package protocol

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
)

// validUserShape checks that u is "platform:local", in UTF-8.
func validUserShape(u gobot.UserID) error {
	p, _, ok := strings.Cut(string(u), ":")
	if !ok || !isWord(p, 16) || !utf8.ValidString(string(u)) {
		return Refusef("%s is not a user I know: write a player like @bob.", Echo(string(u)))
	}
	return nil
}

// ValidName checks a player name of a platform whose users are named by
// a word (the terminal): 1 to 32 letters, digits, '-', '_' or '.'.
func ValidName(name string) error {
	if !isWord(name, maxNameRunes) {
		return Refusef("%s is not a player name: names are one word of at most %d letters, digits, -, _ or .", Echo(name), maxNameRunes)
	}
	return nil
}

// maxNameRunes bounds a terminal user's name.
const maxNameRunes = 32

// isWord: 1 to n runes, each a letter, a digit, '-', '_' or '.'.
func isWord(s string, n int) bool {
	if s == "" || utf8.RuneCountInString(s) > n {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' && r != '.' {
			return false
		}
	}
	return true
}
