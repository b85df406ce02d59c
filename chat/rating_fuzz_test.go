package chat

import (
	"errors"
	"strings"
	"testing"
)

// FuzzRatingOptions feeds challenge arguments to the rating options'
// parser: refusals are player-facing and clipped, and what it leaves for
// parseOptions is the arguments it did not take, in order.
func FuzzRatingOptions(f *testing.F) {
	for _, s := range []string{"rated", "unrated 9 black", "rated=off", "handicap=auto", "HA=Auto 19", "h=2 rated=yes", "rated=maybe", "rated= unrated"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		rest, ro, err := ratingOptions(args)
		if err != nil {
			var ue userError
			if !errors.As(err, &ue) || len(ue.msg) > 200 {
				t.Fatalf("ratingOptions(%q): %v is not a short player-facing error", line, err)
			}
			return
		}
		taken := 0
		for _, a := range args {
			if len(rest) > 0 && a == rest[0] {
				rest = rest[1:]
				continue
			}
			taken++
			switch k, _, _ := strings.Cut(strings.ToLower(a), "="); k {
			case "rated", "unrated", "handicap", "ha", "h":
			default:
				t.Fatalf("ratingOptions(%q) took %q", line, a)
			}
		}
		if len(rest) > 0 {
			t.Fatalf("ratingOptions(%q) left %q out of order", line, rest)
		}
		if taken > 0 && ro.Rated == nil && !ro.Auto {
			t.Fatalf("ratingOptions(%q) took arguments but set nothing", line)
		}
	})
}
