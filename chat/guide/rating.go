package guide

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/rating"
)

// RatingCard is what `rating` shows of who's rating rec in this
// community; found is false for a newcomer without a record.
func RatingCard(who gobot.UserID, rec *gobot.PlayerRating, found bool) string {
	p := rec.Player()
	head := fmt.Sprintf("%s: %.0f ± %.0f (%s)", protocol.Mention(who), p.Rating, 2*p.RD, p.RankLabel())
	joins := say.RatingJoins(rec.Joins)
	if !found || rec.Games == 0 {
		if rec.Stated {
			return strings.Join(append([]string{head + ", from a stated rank; no rated games here yet."}, joins...), "\n")
		}
		return strings.Join(append([]string{head + fmt.Sprintf(": no rated games here yet. Before the first, %s states a starting rank.", say.Cmd("settings rank=5k"))}, joins...), "\n")
	}
	lines := []string{head,
		fmt.Sprintf("%d rated game%s: %d win%s, %d loss%s.", rec.Games, say.Plural(rec.Games), rec.Wins, say.Plural(rec.Wins), rec.Losses, map[bool]string{true: "", false: "es"}[rec.Losses == 1])}
	if p.Provisional() {
		lines = append(lines, fmt.Sprintf("The rank shows a ? while the uncertainty (RD %.0f) is above %.0f.", p.RD, rating.ProvisionalRD))
	}
	if len(rec.Last) > 0 {
		lines = append(lines, "Last results:")
		for _, x := range rec.Last {
			what := map[float64]string{1: "won", 0.5: "drew", 0: "lost"}[x.Score]
			lines = append(lines, fmt.Sprintf("  %s against %s in #%d (%s), %s", what, protocol.Mention(x.Opponent), x.Game, say.Signed(x.Change), x.At.UTC().Format("2006-01-02")))
		}
	}
	return strings.Join(append(lines, joins...), "\n")
}

// TopRows is how many players `top` lists.
const TopRows = 20

// NoLeaderboard is `top` before anyone played a rated game.
func NoLeaderboard() string {
	return fmt.Sprintf("Nobody has played a rated game here yet. %s starts one (even games on 9x9, 13x13 and 19x19 are rated).", say.Cmd("challenge @player"))
}

// Leaderboard is `top`: the players rs, in the leaderboard's order.
func Leaderboard(n say.Namer, rs []*gobot.PlayerRating) string {
	var sb strings.Builder
	sb.WriteString("```\n")
	fmt.Fprintf(&sb, "%3s  %-16s %6s %5s %4s %5s %7s\n", "#", "player", "rating", "±", "rank", "games", "W-L")
	for i, x := range rs[:min(len(rs), TopRows)] {
		p := x.Player()
		fmt.Fprintf(&sb, "%3d  %-16s %6.0f %5.0f %4s %5d %7s\n", i+1, protocol.ClipRunes(n.Name(x.User), 16), p.Rating, 2*p.RD, p.RankLabel(), x.Games, fmt.Sprintf("%d-%d", x.Wins, x.Losses))
	}
	sb.WriteString("```")
	if n := len(rs) - TopRows; n > 0 {
		fmt.Fprintf(&sb, "\nand %d more.", n)
	}
	sb.WriteString("\nListed by rating − ± (the rating reached with 95% confidence): a player with few games ranks lower until the rating settles.")
	for _, x := range rs {
		if x.Player().Provisional() {
			fmt.Fprintf(&sb, " Ranks with ? are still uncertain (RD above %.0f).", rating.ProvisionalRD)
			break
		}
	}
	return sb.String()
}

// HandicapRule is what `rules` says about handicaps from ratings (text
// 004, docs/rating.md).
const HandicapRule = "Handicap from ratings (handicap=auto): the difference of the two ratings rounded to whole ranks; the weaker player takes Black, with no stones and komi 0.5 for 1 rank, that many stones for 2 to 9 on 19x19 (a handicap stone is worth about 3 ranks on 13x13 and 6 on 9x9; what remains is komi)."
