package say

import (
	"errors"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/review"
)

// reviewNamer is a Namer of user ids' local parts.
type reviewNamer struct{}

func (reviewNamer) Name(u gobot.UserID) string { return u.Local() }

// Each refusal of managing a review has its words; other errors pass.
func TestManageRefusal(t *testing.T) {
	rev := &gobot.Review{ID: 3, Owner: "t:ann"}
	for _, tc := range []struct {
		err  error
		verb string
		want string
	}{
		{gobot.ErrReviewClosed, "ends", "Review r3 is closed already."},
		{review.ErrKept, "keeps", "Review r3 is kept already."},
		{review.ErrNotManager, "keeps", "Only ann (who started review r3), whoever controls it or a room admin keeps it."},
	} {
		if got := ManageRefusal(reviewNamer{}, rev, tc.verb, tc.err); got.Error() != tc.want {
			t.Errorf("%v: %q, want %q", tc.err, got, tc.want)
		}
	}
	other := errors.New("disk on fire")
	if got := ManageRefusal(reviewNamer{}, rev, "ends", other); got != other {
		t.Errorf("another error: %v", got)
	}
}

// A long error is clipped on a rune's boundary.
func TestClipRefusal(t *testing.T) {
	if got := ClipRefusal("short"); got != "short" {
		t.Errorf("short: %q", got)
	}
	long := strings.Repeat("a", 159) + "×" + strings.Repeat("b", 50)
	if got := ClipRefusal(long); got != strings.Repeat("a", 159)+"…" {
		t.Errorf("long: %q", got)
	}
}
