package protocol

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// Valid user IDs of every platform are taken.
func TestUserIDValidate(t *testing.T) {
	for _, u := range []gobot.UserID{"discord:80351110224678912", "discord:1", "matrix:@ann:example.org", "matrix:@ann.b_c=d/e+f:example.org:8448",
		"matrix:@ann:[::1]:8448", "matrix:@ann:127.0.0.1", "console:alice", "console:Élodie", "test:bob-2"} {
		if err := ValidateUser(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []gobot.UserID{"", "discord:", "discord:12a", "discord:99999999999999999999", "matrix:ann:example.org", "matrix:@ann:",
		"matrix:@:example.org", "matrix:@ann:exa mple.org", "matrix:@ann:example.org:port", "console:", "console:a b", "console:" + gobot.UserID(strings.Repeat("a", 33)),
		"console:\xff", "no-platform", "con sole:bob"} {
		if err := ValidateUser(u); err == nil {
			t.Errorf("%q is accepted", u)
		}
	}
}
