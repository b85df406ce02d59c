package matrix

import (
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Descriptor is Matrix as a platform, with prefix starting commands
// ("!go"): rooms show a game's board as a widget, a reply cannot be
// shown to one member of a shared room, users are Matrix IDs.
func Descriptor(prefix string) *protocol.Platform {
	if prefix == "" {
		prefix = DefaultPrefix
	}
	return &protocol.Platform{Name: Platform, Widgets: true, User: validUser, Typed: typedUser,
		CommandLine: func(line string) string { return prefix + " " + line }}
}

// typedUser recognises a Matrix user typed on another platform: their
// Matrix ID, "@bob:example.org" (or "matrix:@bob:example.org"), the
// punctuation after it dropped ("@bob:example.org,").
func typedUser(word string) (gobot.UserID, bool) {
	word = strings.TrimPrefix(strings.TrimRight(word, ",;"), Platform+":")
	if !validMatrixUser(word) {
		return "", false
	}
	return gobot.NewUserID(Platform, word), true
}

// validUser checks a Matrix user ID ("@bob:example.org").
func validUser(local string) error {
	if !validMatrixUser(local) {
		return protocol.Refusef("%s is not a Matrix user ID: write it like @bob:example.org (at most 255 bytes).", protocol.Echo(local))
	}
	return nil
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
		if !protocol.AllDigits(port) || len(port) > 5 {
			return false
		}
	}
	return true
}
