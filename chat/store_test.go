package chat

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gobotgo/gobot"
)

func TestDamagedError(t *testing.T) {
	d := &gobot.DamagedError{Games: []gobot.GameID{2, 5}, Challenges: []gobot.ChallengeID{3},
		Err: errors.Join(errors.New("game #2: bad"), errors.New("game #5: bad"))}
	err := fmt.Errorf("listing ann's games: %w", d)
	if !errors.Is(err, gobot.ErrCorrupt) {
		t.Error("a DamagedError is not ErrCorrupt")
	}
	if got := gobot.Damaged(err); got != d {
		t.Errorf("Damaged found %v", got)
	}
	if gobot.Damaged(gobot.ErrCorrupt) != nil || gobot.Damaged(nil) != nil {
		t.Error("Damaged found a DamagedError in an error without one")
	}
	want := "listing ann's games: damaged records: game #2, game #5, challenge #3 (game #2: bad; game #5: bad)"
	if err.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", err, want)
	}
}
