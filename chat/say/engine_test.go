package say

import (
	"errors"
	"testing"

	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Each engine turn flow reports has its words.
func TestEngineTurn(t *testing.T) {
	me := "<@engine:gnugo>"
	for _, tc := range []struct {
		name     string
		turn     flow.EngineTurn
		autoPass string
		want     string
	}{
		{"played", flow.EngineTurn{Job: flow.JobMove, Color: game.White, Played: []game.Point{game.Pt(2, 6)}}, " (auto)", me + " played C3. (auto)"},
		{"placed", flow.EngineTurn{Job: flow.JobMove, Color: game.Black, Played: []game.Point{game.Pt(2, 6), game.Pt(6, 2)}}, "", me + " placed C3, G7."},
		{"passed", flow.EngineTurn{Job: flow.JobMove, Color: game.White, Passed: true, Illegal: "Z99"}, " (auto)", me + " passed. (It proposed Z99, which the rules refuse, so it passed.)"},
		{"scored", flow.EngineTurn{Job: flow.JobMove, Color: game.White, Passed: true, Scored: true}, "", me + " passed. Both players passed: the game is being scored."},
		{"resigned", flow.EngineTurn{Job: flow.JobMove, Color: game.White, Resigned: true, Illegal: "Z99"}, "", me + " resigned."},
		{"proposed", flow.EngineTurn{Job: flow.JobPropose, Dead: []game.Point{game.Pt(0, 0)}}, "", me + " proposes the dead stones (dead: A9)."},
		{"proposed none, accepts", flow.EngineTurn{Job: flow.JobPropose, Color: game.White}, "", me + " proposes no dead stones and accepts that count. Accept with " + Cmd("done") + ", mark stones with " + Cmd("dead <point>") + " (" + me + " re-checks them), or " + Cmd("resume") + "."},
		{"agrees", flow.EngineTurn{Job: flow.JobReview, Color: game.White, Agrees: true}, "", me + " accepts this marking."},
		{"disputes", flow.EngineTurn{Job: flow.JobReview, Color: game.White}, "", me + " does not agree with that marking, so play resumes to settle it: play where you think it is wrong, or pass."},
		{"accepts", flow.EngineTurn{Job: flow.JobAccept, Color: game.White}, "", me + " accepts the count."},
	} {
		if got := EngineTurn(tc.turn, "gnugo", 9, tc.autoPass); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, got, tc.want)
		}
	}
	if got := EngineFallback("gnugo", errors.New("timeout")); got != me+" could not judge the dead stones (timeout), so it accepts the marking as it stands." {
		t.Errorf("fallback: %q", got)
	}
}

func TestIntList(t *testing.T) {
	for want, v := range map[string][]int{"1, 2, 5": {1, 2, 5}, "1 to 10": {1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, "1, 2, 3": {1, 2, 3}, "1, 2, 4, 5": {1, 2, 4, 5}} {
		if got := IntList(v); got != want {
			t.Errorf("%v: %q, want %q", v, got, want)
		}
	}
}
