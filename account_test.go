package gobot_test

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// A link code is LinkCodeLen symbols of its alphabet, random: a
// thousand of them are all different, and each reads back through
// NormalLinkCode however it is typed.
func TestNewLinkCode(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		c, err := gobot.NewLinkCode()
		if err != nil {
			t.Fatal(err)
		}
		if seen[c] {
			t.Fatalf("code %s given twice", c)
		}
		seen[c] = true
		for _, typed := range []string{c, strings.ToLower(c), c[:5] + "-" + c[5:], " " + c[:3] + " " + c[3:]} {
			if n, ok := gobot.NormalLinkCode(typed); !ok || n != c {
				t.Fatalf("NormalLinkCode(%q) = %q, %v; want %q", typed, n, ok, c)
			}
		}
	}
	for _, bad := range []string{"", "ABC", "ABCDEFGHJK2", "ABCDEFGHJ0", "ABCDEFGHJI", "ABCDEFGHJ!", "ÄBCDEFGHJK"} {
		if n, ok := gobot.NormalLinkCode(bad); ok {
			t.Errorf("NormalLinkCode(%q) = %q, a code", bad, n)
		}
	}
	if a, b := gobot.HashLinkCode("ABCDEFGHJK"), gobot.HashLinkCode("ABCDEFGHJL"); a == b || len(a) != 64 || strings.Contains(a, "ABCDEFGHJK") {
		t.Errorf("hashes %q and %q", a, b)
	}
}
