package protocol

import (
	"errors"
	"testing"
)

func TestButtonCodec(t *testing.T) {
	for _, x := range []Button{
		{Command: "pass", Game: 7, Version: 12},
		{Command: "undo", Game: 7, Version: 3, Arg: "no"},
		{Command: "accept", Challenge: 3},
		{Command: "reviews", Review: 4},
	} {
		got, err := ParseButton(x.ID())
		if err != nil || got != x {
			t.Errorf("%q: %+v, %v; want %+v", x.ID(), got, err, x)
		}
	}
	if got := (Button{Command: "undo", Game: 7, Version: 3, Arg: "no"}).Line(); got != "undo no #7" {
		t.Errorf("Line = %q", got)
	}
	if got := (Button{Command: "reviews", Review: 4}).Line(); got != "reviews" {
		t.Errorf("review's Line = %q", got)
	}
	for _, id := range []string{"", "pass", "pass|g7", "pass|x7|1", "pass|g0|1", "pass|g7|-1", "pass|g7|1|a|b", "|g7|1", "pass|g99999999999999999999|1", "undo|g7|1|a b", "reviews|r4|1", "reviews|r0|0"} {
		if _, err := ParseButton(id); !errors.Is(err, ErrButton) {
			t.Errorf("%q: %v, want ErrButton", id, err)
		}
	}
}

// FuzzParseButton: an ID that decodes encodes back to itself.
func FuzzParseButton(f *testing.F) {
	for _, s := range []string{"pass|g7|12", "undo|g7|3|no", "accept|c3|0", "x|g|1", "a|c1|0|b|c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		x, err := ParseButton(id)
		if err != nil {
			return
		}
		if again, err := ParseButton(x.ID()); err != nil || again != x {
			t.Fatalf("%q decodes to %+v, whose ID %q decodes to %+v, %v", id, x, x.ID(), again, err)
		}
	})
}
