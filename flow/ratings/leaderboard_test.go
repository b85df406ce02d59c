package ratings

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// The leaderboard ranks by rating − 2·RD: a one-game newcomer (issue
// 24: carol, 1662 ± 581) comes after a regular (alice, 1533 ± 261);
// ties by rating, then by user.
func TestSortLeaderboard(t *testing.T) {
	rs := []*gobot.PlayerRating{
		{User: "carol", Rating: 1662, RD: 290.5, Volatility: 0.06},
		{User: "alice", Rating: 1533, RD: 130.5, Volatility: 0.06},
		{User: "b", Rating: 1500, RD: 60, Volatility: 0.06},  // 1380
		{User: "c", Rating: 1700, RD: 110, Volatility: 0.06}, // 1480
		{User: "d", Rating: 2100, RD: 111, Volatility: 0.06}, // 1878
		{User: "e", Rating: 1440, RD: 30, Volatility: 0.06},  // 1380, lower rating than b
		{User: "f", Rating: 1440, RD: 30, Volatility: 0.06},  // as e
	}
	SortLeaderboard(rs)
	var got []string
	for _, r := range rs {
		got = append(got, string(r.User))
	}
	if want := "d c b e f alice carol"; strings.Join(got, " ") != want {
		t.Fatalf("order %v, want %s", got, want)
	}
}
