package matrix

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// Matrix users are Matrix IDs (at most 255 bytes, a server name with an
// optional port); the descriptor refuses anything else in words, and
// writes commands with the configured prefix.
func TestMatrixDescriptor(t *testing.T) {
	p := Descriptor("")
	for _, u := range []gobot.UserID{"matrix:@ann:example.org", "matrix:@ann.b_c=d/e+f:example.org:8448", "matrix:@ann:[::1]:8448", "matrix:@ann:127.0.0.1"} {
		if err := p.ValidateUser(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []gobot.UserID{"matrix:ann:example.org", "matrix:@ann:", "matrix:@:example.org", "matrix:@ann:exa mple.org", "matrix:@ann:example.org:port",
		"matrix:@bob", "matrix:@bob:" + gobot.UserID(strings.Repeat("a", 300)) + ".org", "matrix:@b\x01ob:example.org"} {
		if err := p.ValidateUser(u); err == nil || !strings.Contains(err.Error(), "is not a Matrix user ID") {
			t.Errorf("%q: %v", u, err)
		}
	}
	if got := p.Command("play D4"); got != "!go play D4" {
		t.Errorf("command: %q", got)
	}
	if got := Descriptor("!baduk").Command("games"); got != "!baduk games" {
		t.Errorf("prefix: %q", got)
	}
	if !p.ShowsWidgets() || p.PrivateReplies {
		t.Errorf("Matrix rooms show widgets, and no reply is private in a shared room: %+v", p)
	}
}
