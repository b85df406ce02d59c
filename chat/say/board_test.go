package say

import "testing"

// A finished game's status on a board (board.View.Status).
func TestResultText(t *testing.T) {
	for sgf, want := range map[string]string{
		"B+3.5": "Black wins by 3.5 points (B+3.5)",
		"W+1":   "White wins by 1 point (W+1)",
		"W+R":   "White wins by resignation (W+R)",
		"B+T":   "Black wins on time (B+T)",
		"0":     "Draw",
		"Void":  "No result (Void)",
	} {
		if got := ResultText(sgf); got != want {
			t.Errorf("ResultText(%q) = %q, want %q", sgf, got, want)
		}
	}
}
