package protocol

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
)

// ValidateUser checks u against its platform's grammar before it is stored
// or looked up: a Matrix user ID (@local:server, at most 255 bytes), a
// Discord snowflake (digits, at most 20), on other platforms (the
// terminal) a short word. The error quotes u only clipped.
func ValidateUser(u gobot.UserID) error {
	p, local, ok := strings.Cut(string(u), ":")
	if !ok || !isWord(p, 16) || !utf8.ValidString(string(u)) {
		return Refusef("%s is not a user I know: write a player like @bob.", Echo(string(u)))
	}
	switch p {
	case "discord":
		if len(local) == 0 || len(local) > 20 || !AllDigits(local) {
			return Refusef("%s is not a Discord user: mention them (@name) so Discord fills in their ID.", Echo(local))
		}
		if _, err := strconv.ParseUint(local, 10, 64); err != nil {
			return Refusef("%s is not a Discord user: mention them (@name) so Discord fills in their ID.", Echo(local))
		}
	case "matrix":
		if !validMatrixUser(local) {
			return Refusef("%s is not a Matrix user ID: write it like @bob:example.org (at most 255 bytes).", Echo(local))
		}
	default:
		if !isWord(local, maxNameRunes) {
			return Refusef("%s is not a player name: names are one word of at most %d letters, digits, -, _ or .", Echo(local), maxNameRunes)
		}
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

// validMatrixUser checks the Matrix user ID grammar: "@" localpart ":"
// server name, at most 255 bytes; the localpart in printable ASCII
// without ':' (historical IDs included), the server a host name, IPv4
// or [IPv6] literal with an optional port.
func validMatrixUser(s string) bool {
	if len(s) > 255 || len(s) < 4 || s[0] != '@' {
		return false
	}
	local, server, ok := strings.Cut(s[1:], ":")
	if !ok || local == "" || server == "" {
		return false
	}
	for i := 0; i < len(local); i++ {
		if c := local[i]; c < 0x21 || c > 0x7e {
			return false
		}
	}
	host, port := server, ""
	if strings.HasPrefix(server, "[") {
		end := strings.IndexByte(server, ']')
		if end < 0 {
			return false
		}
		for _, c := range server[1:end] {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == ':' || c == '.') {
				return false
			}
		}
		host, port = server[:end+1], server[end+1:]
		if port != "" && port[0] != ':' {
			return false
		}
		port = strings.TrimPrefix(port, ":")
	} else {
		host, port, _ = strings.Cut(server, ":")
		if host == "" {
			return false
		}
		for _, c := range host {
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '.') {
				return false
			}
		}
	}
	if port != "" || strings.HasSuffix(server, ":") {
		if !AllDigits(port) || len(port) > 5 {
			return false
		}
	}
	return true
}
