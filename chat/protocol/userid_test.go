package protocol

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// A plain platform (nil) takes any platform's user whose name is a
// word, and refuses what is no user ID at all; a platform's own grammar
// applies to its own users only.
func TestUserIDValidate(t *testing.T) {
	var plain *Platform
	for _, u := range []gobot.UserID{"console:alice", "console:Élodie", "test:bob-2", "discord:123"} {
		if err := plain.ValidateUser(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []gobot.UserID{"", "console:", "console:a b", "console:" + gobot.UserID(strings.Repeat("a", 33)),
		"console:\xff", "no-platform", "con sole:bob", "matrix:@ann:example.org"} {
		if err := plain.ValidateUser(u); err == nil {
			t.Errorf("%q is accepted", u)
		}
	}
	digits := &Platform{Name: "digits", User: func(local string) error {
		if !AllDigits(local) {
			return Refusef("%s is not digits.", Echo(local))
		}
		return nil
	}}
	if err := digits.ValidateUser("digits:12"); err != nil {
		t.Errorf("own user: %v", err)
	}
	if err := digits.ValidateUser("digits:ab"); err == nil || !strings.Contains(err.Error(), "not digits") {
		t.Errorf("own grammar: %v", err)
	}
	if err := digits.ValidateUser("console:ab"); err != nil {
		t.Errorf("another platform's user is checked as a word: %v", err)
	}
}
