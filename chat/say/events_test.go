package say

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// A new tournament's announcement counts its rounds in words that agree.
func TestTournamentMadeRounds(t *testing.T) {
	for rounds, want := range map[int]string{1: "a Swiss of 1 round on 9x9", 5: "a Swiss of 5 rounds on 9x9"} {
		tt := &gobot.Tournament{ID: 1, Name: "Cup", System: tournament.Swiss, Rounds: rounds, Size: 9, Rules: game.Rules{Komi: 6.5}}
		if got := TournamentMade(tt); !strings.Contains(got, want) {
			t.Errorf("%d rounds: %q, want %q", rounds, got, want)
		}
	}
}
