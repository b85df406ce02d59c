package say

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/rating"
)

// HandicapChoice says in plain words how handicap=auto chose its
// handicap for players its ranks (grades) apart on its board: "1 rank
// apart (the ratings differ by 1.20 ranks, rounded): no stones, White's
// komi 0.5"; on a smaller board, what a stone is worth there: "6 ranks
// apart (…); on 9x9 a handicap stone is worth about 6 ranks, so 2
// stones, White's komi 6.5". The ranks shown are rounded down, so the
// difference of the ratings is given too.
func HandicapChoice(a ratings.AutoHandicap) string {
	h, d, cfg := a.Handicap, a.Apart, a.Config
	komi := func(k float64) string {
		if k == 0 {
			return "no komi"
		}
		return "White's komi " + game.FormatKomi(k)
	}
	k := h.Komi(cfg.Rules, cfg.Width, cfg.Height)
	if h.Grades == 0 {
		return fmt.Sprintf("under half a rank apart (the ratings differ by %.2f ranks): an even game, %s", d, komi(k))
	}
	s := fmt.Sprintf("%d rank%s apart (the ratings differ by %.2f ranks, rounded)", h.Grades, Plural(h.Grades), d)
	if f := rating.GradesPerStone(cfg.Width, cfg.Height); f > 1 {
		s += fmt.Sprintf("; on %s a handicap stone is worth about %g ranks, so", game.SizeString(cfg.Width, cfg.Height), f)
	} else {
		s += ":"
	}
	switch {
	case h.Stones == 0:
		return s + " no stones, " + komi(k)
	case h.Stones == game.MaxHandicap && h.Grades > game.MaxHandicap:
		return s + fmt.Sprintf(" %d stones (the most), %s", h.Stones, komi(k))
	}
	return s + fmt.Sprintf(" %d stones, %s", h.Stones, komi(k))
}

// ChallengeRatingRefusal words ratings.RateChallenge's and
// ratings.EngineGameRating's refusals; other
// errors pass as they are.
func ChallengeRatingRefusal(err error) error {
	var size ratings.UnratedSize
	var colour ratings.AutoColor
	var bad ratings.AutoUnplayable
	switch {
	case errors.Is(err, ratings.ErrAutoOpen):
		return Refusef("handicap=auto needs to know both players: name the player you challenge, like %s.", "`challenge @bob handicap=auto`")
	case errors.Is(err, ratings.ErrEngineUnrated):
		return Refusef("Only even games on 9x9, 13x13 or 19x19 are rated.")
	case errors.Is(err, ratings.ErrAutoFixed):
		return Refusef("handicap=auto chooses the handicap and the komi itself: leave out handicap=%s and komi=.", "N")
	case errors.As(err, &size):
		return Refusef("Only 9x9, 13x13 and 19x19 games are rated; this one is %s. Leave out rated, or choose a standard size.", game.SizeString(size.Width, size.Height))
	case errors.As(err, &colour):
		return Refusef("handicap=auto gives Black to the weaker player, so you would play %s; leave out %s.", strings.ToUpper(colour.Want[:1])+colour.Want[1:], colour.Asked)
	case errors.As(err, &bad) && errors.Is(bad.Err, game.ErrHandicap):
		return Refusef("handicap=auto suggests %s, which have no fixed points on a %s board: add placement=free so Black places them anywhere, or choose a larger board.", bad.Handicap, game.SizeString(bad.Width, bad.Height))
	case errors.As(err, &bad):
		return Refusef("handicap=auto suggests %s, which doesn't make a game here: %v", bad.Handicap, bad.Err)
	}
	return err
}

// RankRefusal words ratings.StateRank's refusals; other errors pass as
// they are.
func RankRefusal(err error) error {
	var settled ratings.RankSettled
	var unread ratings.RankUnreadable
	var out ratings.RankOutOfRange
	switch {
	case errors.As(err, &settled):
		return Refusef("You have played %d rated game%s here, so your rank follows your results now (%s); it can't be set any more.", settled.Games, Plural(settled.Games), settled.Rank)
	case errors.As(err, &unread):
		return Refusef("rank=%s: write a grade like 5k, 10 kyu, 2d or 3 dan (ranks go from 30k to 9d).", protocol.ClipRunes(unread.Input, 20))
	case errors.As(err, &out):
		return Refusef("rank=%s: ratings go from 30k to 9d.", out.Rank)
	}
	return err
}

// ChallengeRatingNote is the line a challenge message gets about ratings.
func ChallengeRatingNote(c *gobot.Challenge) string {
	cr := c.Rating
	if cr == nil {
		return ""
	}
	s := "\nUnrated."
	if cr.Rated {
		s = "\nRated."
	}
	ranks := []string{protocol.Mention(c.From) + " " + cr.FromRank}
	if c.To != "" {
		ranks = append(ranks, protocol.Mention(c.To)+" "+cr.ToRank)
	}
	s += " Ranks: " + strings.Join(ranks, ", ") + "."
	if cr.Auto {
		s += " handicap=auto: " + cr.Suggested
		cfg := c.Config
		switch handicap := rating.HandicapWorth(cfg.Rules, cfg.Width, cfg.Height, cfg.Handicap, cfg.Rules.Komi) > 0; {
		case !handicap:
		case c.Color == "black":
			s += "; " + protocol.Mention(c.From) + " takes Black"
		case c.Color == "white":
			s += "; " + protocol.Mention(c.To) + " takes Black"
		}
		s += "."
	}
	return s
}

// seated writes a player of match with colour and rank: "<@alice> (Black, 5k?)".
func seated(match *gobot.Match, c game.Color) string {
	s := protocol.Mention(match.Side(c).ToMove()) + " (" + c.Name()
	if r := RankAt(match, c); r != "" {
		s += ", " + r
	}
	return s + ")"
}

// RankAt is the rank of match's player c when the game began, or "".
func RankAt(match *gobot.Match, c game.Color) string {
	if match.Rating == nil {
		return ""
	}
	if c == game.White {
		return match.Rating.WhiteRank
	}
	return match.Rating.BlackRank
}

// RankSuffix is " (5k?)" for match's player c, or "".
func RankSuffix(match *gobot.Match, c game.Color) string {
	r := RankAt(match, c)
	if r == "" {
		return ""
	}
	if gr := match.Rating; gr.Done {
		// Rated and over: the rank it began with and the rank now.
		after := gr.BlackAfter
		if c == game.White {
			after = gr.WhiteAfter
		}
		if after != "" && after != r {
			return " (" + r + " → " + after + ")"
		}
	}
	return " (" + r + ")"
}

// ratedNote is ", rated" for a rated game.
func ratedNote(match *gobot.Match) string {
	if match.Rating != nil && match.Rating.Rated {
		return ", rated"
	}
	return ""
}

// ratedWord is "rated" or "unrated" for a game's start message.
func ratedWord(match *gobot.Match) string {
	if match.Rating != nil && match.Rating.Rated {
		return "rated"
	}
	return "unrated"
}

// RatingLine is the game-over line about rating changes, or "".
func RatingLine(match *gobot.Match, g *game.Game) string {
	if ratings.EarlyTimeout(match, g) {
		return "Not rated: the time ran out before both players had moved."
	}
	gr := match.Rating
	if gr == nil || !gr.Done {
		return ""
	}
	return fmt.Sprintf("Ratings: %s %s (now %s), %s %s (now %s).", protocol.Mention(match.Black), Signed(gr.BlackChange), gr.BlackAfter, protocol.Mention(match.White), Signed(gr.WhiteChange), gr.WhiteAfter)
}

// Signed is a rating change with its sign: "+12.3", "−4.0".
func Signed(x float64) string {
	if x < 0 {
		return fmt.Sprintf("−%.1f", -x)
	}
	return fmt.Sprintf("+%.1f", x)
}

// CommunityName is how a community is named to players: "Discord server
// 1234", "Matrix room !abc:example.org", "the community go-club", "the
// terminal".
func CommunityName(c gobot.CommunityID) string {
	s := string(c)
	switch {
	case s == "console":
		return "the terminal"
	case strings.HasPrefix(s, gobot.JoinedPrefix):
		return "the community " + strings.TrimPrefix(s, gobot.JoinedPrefix)
	case strings.HasPrefix(s, "discord:guild:"):
		return "Discord server " + strings.TrimPrefix(s, "discord:guild:")
	case strings.HasPrefix(s, "matrix:"):
		return "Matrix room " + strings.TrimPrefix(s, "matrix:")
	}
	return s
}

// RatingJoins says which of a player's records were joined into this
// one and which was kept (docs/identity.md): one line a join.
func RatingJoins(js []gobot.RatingJoin) []string {
	var out []string
	source := func(s gobot.RatingSource) string {
		return fmt.Sprintf("%s's in %s (%d rated game%s, %s)", protocol.Mention(s.User), CommunityName(s.Community), s.Games, Plural(s.Games), s.Rank)
	}
	for _, j := range js {
		out = append(out, fmt.Sprintf("Records joined on %s: kept %s, set aside %s — the one with more rated games is kept.",
			j.At.UTC().Format("2006-01-02"), source(j.Kept), source(j.Dropped)))
	}
	return out
}

// RatingsJoined adds to the answer to a link how many ratings records
// were joined: where both accounts had one in a community, the one with
// more rated games is kept.
func RatingsJoined(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" Your ratings are one per community now: where both accounts had one (%d), you keep the one with more rated games; %s shows which.", n, Cmd("rating"))
}
