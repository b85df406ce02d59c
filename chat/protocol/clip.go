package protocol

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// MaxEcho is how much of a user's input an error message repeats: at
// most MaxEcho runes, and at most maxEchoBytes bytes as shown (quoted,
// with escapes), so that a refusal stays under maxRefusal bytes.
const (
	MaxEcho      = 40
	maxEchoBytes = 64
)

// MaxRefusal bounds a refusal's text in bytes.
const MaxRefusal = 300

// ClipRunes returns s cut to at most n runes, ending in "…" when cut.
// Invalid UTF-8 is replaced, so a clipped string is always valid.
func ClipRunes(s string, n int) string {
	if !utf8.ValidString(s) {
		s = toValidUTF8(s)
	}
	// Walk at most n runes: a long s is not counted whole.
	i, k := 0, 0
	for i < len(s) && k < n {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		k++
	}
	if i == len(s) {
		return s
	}
	if n <= 1 {
		return "…"
	}
	_, size := utf8.DecodeLastRuneInString(s[:i])
	return s[:i-size] + "…"
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

// Echo quotes user input for an error message, clipped: "D4", "xxxx…".
// Escapes count: 40 control characters quoted would take 240 bytes, so
// fewer of them are shown.
func Echo(s string) string {
	s = ClipRunes(s, MaxEcho+1) // keeps the cut visible below
	for n := MaxEcho; ; n-- {
		q := fmt.Sprintf("%q", ClipRunes(s, n))
		if len(q) <= maxEchoBytes || n <= 1 {
			return q
		}
	}
}

// ClipArg clips user input shown unquoted ("komi=abc…").
func ClipArg(s string) string { return ClipBytes(ClipRunes(s, MaxEcho), maxEchoBytes) }

// clipEchoes shortens, in msg (an error from another package that quotes
// the input), every long piece of input, then bounds msg as a whole.
func clipEchoes(msg, input string) string {
	for _, piece := range strings.FieldsFunc(input, func(r rune) bool { return r == ' ' || r == '=' || r == ',' || r == '"' }) {
		if len(piece) > MaxEcho {
			msg = strings.ReplaceAll(msg, piece, ClipArg(piece))
		}
	}
	return ClipBytes(ClipRunes(msg, MaxRefusal), MaxRefusal)
}

// maxListed is how many choices a "which one?" message names.
const maxListed = 5

// ListSome joins items with commas, naming at most maxListed of them and
// counting the rest: "#1, #2, #3, #4, #5 and 7 more".
func ListSome(items []string) string {
	if len(items) <= maxListed {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(items[:maxListed], ", "), len(items)-maxListed)
}
