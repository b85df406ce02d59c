package chat

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// maxEcho is how much of a user's input an error message repeats.
const maxEcho = 40

// ClipRunes returns s cut to at most n runes, ending in "…" when cut.
// Invalid UTF-8 is replaced, so a clipped string is always valid.
func ClipRunes(s string, n int) string {
	if !utf8.ValidString(s) {
		s = toValidUTF8(s)
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	i, k := 0, 0
	for k < n-1 {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	return s[:i] + "…"
}

// ClipBytes returns s cut to at most n bytes (on a rune boundary),
// ending in "…" when cut.
func ClipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const ell = "…"
	if n < len(ell) {
		return ""
	}
	i := n - len(ell)
	for i > 0 && !utf8.RuneStart(s[i]) {
		i--
	}
	return s[:i] + ell
}

func toValidUTF8(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		out = append(out, r)
	}
	return string(out)
}

// echo quotes user input for an error message, clipped: "D4", "xxxx…".
func echo(s string) string { return fmt.Sprintf("%q", ClipRunes(s, maxEcho)) }

// clipArg clips user input shown unquoted ("komi=abc…").
func clipArg(s string) string { return ClipRunes(s, maxEcho) }

// clipEchoes shortens, in msg (an error from another package that quotes
// the input), every long piece of input, then bounds msg as a whole.
func clipEchoes(msg, input string) string {
	for _, piece := range strings.FieldsFunc(input, func(r rune) bool { return r == ' ' || r == '=' || r == ',' || r == '"' }) {
		if len(piece) > maxEcho {
			msg = strings.ReplaceAll(msg, piece, clipArg(piece))
		}
	}
	return ClipRunes(msg, 300)
}

// maxListed is how many choices a "which one?" message names.
const maxListed = 5

// listSome joins items with commas, naming at most maxListed of them and
// counting the rest: "#1, #2, #3, #4, #5 and 7 more".
func listSome(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:maxListed], ", "), len(items)-maxListed)
}
