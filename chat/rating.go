package chat

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/rating"
)

// Ratings in the bot (docs/rating.md): every rated game updates both
// players' Glicko-2 ratings in the community where it was played, in the
// transaction that ends it.

// communityOf returns where r's ratings are kept: the adapter's
// Community, else the room.
func communityOf(r *protocol.Request) gobot.CommunityID {
	if r.Community != "" {
		return r.Community
	}
	return gobot.CommunityID(r.Room)
}

// ratedSize reports whether a board size is rated: 9x9, 13x13, 19x19.
func ratedSize(w, h int) bool { return w == h && (w == 9 || w == 13 || w == 19) }

// record returns u's rating in c, a newcomer's when there is none.
func record(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, error) {
	rec, err := tx.Rating(c, u)
	if errors.Is(err, gobot.ErrNotFound) {
		return gobot.NewPlayerRating(c, u), nil
	}
	return rec, err
}

// rankLabel is u's rank in c for display ("5k?"); "" if unreadable.
func (b *core) rankLabel(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) string {
	rec, err := record(tx, c, u)
	if err != nil {
		b.log.Warn("reading a rating", "community", c, "user", u, "err", err)
		return ""
	}
	return rec.Player().RankLabel()
}

// rateChallenge decides whether a challenge is rated and applies
// handicap=auto to cfg and color (opponent is "" for an open challenge).
func (b *core) rateChallenge(tx gobot.Tx, r *protocol.Request, opponent gobot.UserID, ro protocol.RatingOpts, o protocol.GameOptions, cfg *game.Config, color *string) (*gobot.ChallengeRating, error) {
	c := communityOf(r)
	cr := &gobot.ChallengeRating{Community: c, Auto: ro.Auto}
	from, err := record(tx, c, r.User.ID)
	if err != nil {
		return nil, err
	}
	cr.FromRank = from.Player().RankLabel()
	if opponent != "" {
		to, err := record(tx, c, opponent)
		if err != nil {
			return nil, err
		}
		cr.ToRank = to.Player().RankLabel()
		if ro.Auto {
			if err := autoHandicap(from, to, o, cfg, color, cr); err != nil {
				return nil, err
			}
		}
	} else if ro.Auto {
		return nil, errorf("handicap=auto needs to know both players: name the player you challenge, like %s.", "`challenge @bob handicap=auto`")
	}
	std := ratedSize(cfg.Width, cfg.Height)
	even := rating.HandicapGrades(cfg.Handicap, cfg.Rules.Komi) == 0
	cr.Rated = std && (even || ro.Auto)
	if ro.Rated != nil {
		if *ro.Rated && !std {
			return nil, errorf("Only 9x9, 13x13 and 19x19 games are rated; this one is %s. Leave out rated, or choose a standard size.", game.SizeString(cfg.Width, cfg.Height))
		}
		cr.Rated = *ro.Rated
	}
	return cr, nil
}

// autoHandicap sets the handicap, komi and colours rating.Suggest gives
// for the challenger (from) and the opponent (to).
func autoHandicap(from, to *gobot.PlayerRating, o protocol.GameOptions, cfg *game.Config, color *string, cr *gobot.ChallengeRating) error {
	if o.Handicap != nil || o.Komi != nil {
		return errorf("handicap=auto chooses the handicap and the komi itself: leave out handicap=%s and komi=.", "N")
	}
	h := rating.SuggestFor(from.Rating, to.Rating, cfg.Rules, cfg.Width, cfg.Height)
	cr.Suggested = handicapChoice(h, math.Abs(rating.Grade(from.Rating)-rating.Grade(to.Rating)), cfg)
	if h.Black == rating.Either {
		return nil
	}
	want := "white"
	if h.Black == rating.PlayerA {
		want = "black"
	}
	if o.Color != "" && o.Color != "random" && o.Color != want {
		return errorf("handicap=auto gives Black to the weaker player, so you would play %s; leave out %s.", strings.ToUpper(want[:1])+want[1:], o.Color)
	}
	*color = want
	cfg.Handicap = h.Stones
	cfg.Rules.Komi = h.Komi(cfg.Rules, cfg.Width, cfg.Height)
	if _, err := game.New(*cfg); err != nil {
		if errors.Is(err, game.ErrHandicap) {
			return errorf("handicap=auto suggests %s, which have no fixed points on a %s board: add placement=free so Black places them anywhere, or choose a larger board.", h, game.SizeString(cfg.Width, cfg.Height))
		}
		return errorf("handicap=auto suggests %s, which doesn't make a game here: %v", h, err)
	}
	return nil
}

// handicapChoice says in plain words how handicap=auto chose h for
// players d grades apart (their ratings' grades, unrounded) on cfg's
// board: "1 grade apart (the ratings differ by 1.20 grades, rounded): no
// stones, White's komi 0.5". The ranks shown are rounded down, so the
// difference of the ratings is given too.
func handicapChoice(h rating.Handicap, d float64, cfg *game.Config) string {
	komi := func(k float64) string {
		if k == 0 {
			return "no komi"
		}
		return "White's komi " + game.FormatKomi(k)
	}
	k := h.Komi(cfg.Rules, cfg.Width, cfg.Height)
	if h.Grades == 0 {
		return fmt.Sprintf("under half a grade apart (the ratings differ by %.2f grades): an even game, %s", d, komi(k))
	}
	grades := "grades"
	if h.Grades == 1 {
		grades = "grade"
	}
	s := fmt.Sprintf("%d %s apart (the ratings differ by %.2f grades, rounded)", h.Grades, grades, d)
	if f := rating.GradesPerStone(cfg.Width, cfg.Height); f > 1 {
		s += fmt.Sprintf(", and a stone is worth %g grades on %s", f, game.SizeString(cfg.Width, cfg.Height))
	}
	switch {
	case h.Stones == 0:
		return s + ": no stones, " + komi(k)
	case h.Stones == game.MaxHandicap && h.Grades > game.MaxHandicap:
		return s + fmt.Sprintf(": %d stones (the most), %s", h.Stones, komi(k))
	}
	return s + fmt.Sprintf(": %d stones, %s", h.Stones, komi(k))
}

// challengeRatingNote is the line a challenge message gets about ratings.
func challengeRatingNote(c *gobot.Challenge) string {
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

// gameRatingFor is a new game's rating data: the challenge's community
// and decision, the players' ranks now.
func (b *core) gameRatingFor(tx gobot.Tx, c *gobot.Challenge, r *protocol.Request, black, white gobot.UserID) *gobot.GameRating {
	gr := &gobot.GameRating{Community: communityOf(r)}
	if c.Rating != nil {
		gr.Community, gr.Rated = c.Rating.Community, c.Rating.Rated
	}
	gr.Rated = gr.Rated && black != white
	gr.BlackRank = b.rankLabel(tx, gr.Community, black)
	gr.WhiteRank = b.rankLabel(tx, gr.Community, white)
	return gr
}

// seat writes a player of match with colour and rank: "<@alice> (Black, 5k?)".
func seat(match *gobot.Match, c game.Color) string {
	s := protocol.Mention(match.Side(c).ToMove()) + " (" + c.Name()
	if r := rankAt(match, c); r != "" {
		s += ", " + r
	}
	return s + ")"
}

// rankAt is the rank of match's player c when the game began, or "".
func rankAt(match *gobot.Match, c game.Color) string {
	if match.Rating == nil {
		return ""
	}
	if c == game.White {
		return match.Rating.WhiteRank
	}
	return match.Rating.BlackRank
}

// rankSuffix is " (5k?)" for match's player c, or "".
func rankSuffix(match *gobot.Match, c game.Color) string {
	r := rankAt(match, c)
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

// rateGame updates both players' ratings when a rated game has ended by
// score, resignation or time; called in the transaction that ends it.
// A game that is not rated, was aborted or ended in a cycle changes
// nothing.
func (b *core) rateGame(tx gobot.Tx, match *gobot.Match, g *game.Game) error {
	gr := match.Rating
	if gr == nil || !gr.Rated || gr.Done || match.Black == match.White {
		return nil
	}
	res, over := g.Result()
	cfg := g.Config()
	if !over || !ratedSize(cfg.Width, cfg.Height) {
		return nil
	}
	switch res.Reason {
	case game.ByScore, game.ByResign:
	case game.ByTime:
		if !bothMoved(g) {
			return nil // lost on time before both played: not a game to rate
		}
	default:
		return nil
	}
	score := 0.5
	switch res.Winner {
	case game.Black:
		score = 1
	case game.White:
		score = 0
	}
	br, err := record(tx, gr.Community, match.Black)
	if err == nil {
		var wr *gobot.PlayerRating
		if wr, err = record(tx, gr.Community, match.White); err == nil {
			return b.applyRated(tx, match, br, wr, rating.HandicapWorth(cfg.Rules, cfg.Width, cfg.Height, cfg.Handicap, cfg.Rules.Komi), score)
		}
	}
	if errors.Is(err, gobot.ErrCorrupt) {
		// A damaged rating must not keep the game from ending.
		b.log.Error("game ends unrated: a rating is damaged", "game", match.ID, "err", err)
		return nil
	}
	return err
}

func (b *core) applyRated(tx gobot.Tx, match *gobot.Match, br, wr *gobot.PlayerRating, grades float64, blackScore float64) error {
	var b1, w1 rating.Player
	var err error
	if grades == 0 {
		b1, w1, err = rating.Game(br.Player(), wr.Player(), blackScore)
	} else {
		b1, w1, err = rating.HandicapGame(br.Player(), wr.Player(), grades, blackScore)
	}
	if err != nil {
		return err
	}
	gr := match.Rating
	gr.Done, gr.Grades = true, grades
	gr.BlackChange = addResult(br, b1, match, match.White, blackScore)
	gr.WhiteChange = addResult(wr, w1, match, match.Black, 1-blackScore)
	gr.BlackAfter, gr.WhiteAfter = b1.RankLabel(), w1.RankLabel()
	if err := tx.PutRating(br); err != nil {
		return err
	}
	return tx.PutRating(wr)
}

// addResult stores a rated result in rec and returns the rating change.
func addResult(rec *gobot.PlayerRating, p rating.Player, match *gobot.Match, opp gobot.UserID, score float64) float64 {
	change := p.Rating - rec.Rating
	rec.Rating, rec.RD, rec.Volatility = p.Rating, p.RD, p.Volatility
	rec.Games++
	switch score {
	case 1:
		rec.Wins++
	case 0:
		rec.Losses++
	}
	rec.Last = append([]gobot.RatedResult{{Game: match.ID, Opponent: opp, Score: score, Change: change, At: match.Finished}}, rec.Last...)
	rec.Last = rec.Last[:min(len(rec.Last), gobot.MaxLastResults)]
	rec.Updated = match.Finished
	return change
}

// ratingLine is the game-over line about rating changes, or "".
func ratingLine(match *gobot.Match, g *game.Game) string {
	gr := match.Rating
	if gr != nil && gr.Rated && !gr.Done {
		if res, over := g.Result(); over && res.Reason == game.ByTime && !bothMoved(g) {
			return "Not rated: the time ran out before both players had moved."
		}
	}
	if gr == nil || !gr.Done {
		return ""
	}
	return fmt.Sprintf("Ratings: %s %s (now %s), %s %s (now %s).", protocol.Mention(match.Black), signed(gr.BlackChange), gr.BlackAfter, protocol.Mention(match.White), signed(gr.WhiteChange), gr.WhiteAfter)
}

// bothMoved reports whether each player made a move of their own (a
// pass or a handicap stone counts).
func bothMoved(g *game.Game) bool {
	moves := g.Record().Moves
	if cfg := g.Config(); cfg.Rules.Placement == game.PlacementWhitePasses && cfg.Handicap >= 2 {
		// White's passes while Black places the stones are not White's
		// moves: the first 2n-1 moves are the placement.
		// Black placed every stone and White has moved since.
		return len(moves) > 2*cfg.Handicap-1
	}
	var moved [3]bool
	for _, m := range moves {
		moved[m.Color] = true
	}
	return moved[game.Black] && moved[game.White]
}

// signed writes a rating change with its sign: "+45.3", "−12.0".
func signed(x float64) string {
	if x < 0 {
		return fmt.Sprintf("−%.1f", -x)
	}
	return fmt.Sprintf("+%.1f", x)
}

// sgfRanks are the SGF BR and WR of match: the ranks when it began.
func sgfRanks(match *gobot.Match) (br, wr string) {
	return rankAt(match, game.Black), rankAt(match, game.White)
}

// stateRank is `settings rank=5k`: a starting rank before the first
// rated game in this community.
func (b *core) stateRank(tx gobot.Tx, r *protocol.Request, v string) error {
	c := communityOf(r)
	rec, err := record(tx, c, r.User.ID)
	if err != nil {
		return err
	}
	if rec.Games > 0 {
		return errorf("You have played %d rated game%s here, so your rank follows your results now (%s); it can't be set any more.", rec.Games, say.Plural(rec.Games), rec.Player().RankLabel())
	}
	rank, err := game.ParseRank(v)
	if err != nil {
		return errorf("rank=%s: write a grade like 5k, 10 kyu, 2d or 3 dan (ranks go from 30k to 9d).", protocol.ClipRunes(v, 20))
	}
	p, err := rating.Start(rank)
	if err != nil {
		return errorf("rank=%s: ratings go from 30k to 9d.", rank)
	}
	rec.Rating, rec.RD, rec.Volatility, rec.Stated, rec.Updated = p.Rating, p.RD, p.Volatility, true, r.Time
	return tx.PutRating(rec)
}

// cmdRating shows a player's rating in this community.
func cmdRating(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	who := r.User.ID
	if a.User != "" {
		who = a.User
	}
	c := communityOf(r)
	rec, err := tx.Rating(c, who)
	found := err == nil
	if errors.Is(err, gobot.ErrNotFound) {
		rec, err = gobot.NewPlayerRating(c, who), nil
	}
	if err != nil {
		return Result{}, err
	}
	p := rec.Player()
	head := fmt.Sprintf("%s: %.0f ± %.0f (%s)", protocol.Mention(who), p.Rating, 2*p.RD, p.RankLabel())
	if !found || rec.Games == 0 {
		var s string
		switch {
		case rec.Stated:
			s = head + ", from a stated rank; no rated games here yet."
		default:
			s = head + fmt.Sprintf(": no rated games here yet. Before the first, %s states a starting rank.", b.cmd("settings rank=5k"))
		}
		return Result{Reply: protocol.Reply{Title: "Rating", Text: s}}, nil
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
			lines = append(lines, fmt.Sprintf("  %s against %s in #%d (%s), %s", what, protocol.Mention(x.Opponent), x.Game, signed(x.Change), x.At.UTC().Format("2006-01-02")))
		}
	}
	return Result{Reply: protocol.Reply{Title: "Rating", Text: strings.Join(lines, "\n")}}, nil
}

// topRows is how many players `top` lists.
const topRows = 20

// SortLeaderboard orders ratings for a leaderboard by a conservative
// rating, r − 2·RD (rating.Player.Low: what the player has reached with
// 95% confidence), highest first, then by rating, then by user: a
// newcomer with one lucky win (1662 ± 581) stays below a regular whose
// rating is known (1533 ± 261) until more games confirm it.
func SortLeaderboard(rs []*gobot.PlayerRating) {
	sort.SliceStable(rs, func(i, j int) bool {
		li, lj := rs[i].Player().Low(), rs[j].Player().Low()
		if li != lj {
			return li > lj
		}
		if rs[i].Rating != rs[j].Rating {
			return rs[i].Rating > rs[j].Rating
		}
		return rs[i].User < rs[j].User
	})
}

// cmdTop shows the community's leaderboard.
func cmdTop(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	c := communityOf(r)
	var rs []*gobot.PlayerRating
	names := map[gobot.UserID]string{}
	all, err := tx.Ratings(c)
	if err != nil && len(all) == 0 {
		return Result{}, err
	}
	if err != nil {
		b.log.Error("leaderboard", "community", c, "err", err)
	}
	for _, x := range all {
		if x.Games == 0 {
			continue
		}
		rs = append(rs, x)
		names[x.User] = displayName(tx, x.User)
	}
	if len(rs) == 0 {
		return Result{Reply: protocol.Reply{Text: fmt.Sprintf("Nobody has played a rated game here yet. %s starts one (even games on 9x9, 13x13 and 19x19 are rated).", b.cmd("challenge @player"))}}, nil
	}
	SortLeaderboard(rs)
	var sb strings.Builder
	sb.WriteString("```\n")
	fmt.Fprintf(&sb, "%3s  %-16s %6s %5s %4s %5s %7s\n", "#", "player", "rating", "±", "rank", "games", "W-L")
	for i, x := range rs[:min(len(rs), topRows)] {
		p := x.Player()
		fmt.Fprintf(&sb, "%3d  %-16s %6.0f %5.0f %4s %5d %7s\n", i+1, protocol.ClipRunes(names[x.User], 16), p.Rating, 2*p.RD, p.RankLabel(), x.Games, fmt.Sprintf("%d-%d", x.Wins, x.Losses))
	}
	sb.WriteString("```")
	if n := len(rs) - topRows; n > 0 {
		fmt.Fprintf(&sb, "\nand %d more.", n)
	}
	sb.WriteString("\nListed by rating − ± (the rating reached with 95% confidence): a player with few games ranks lower until the rating settles.")
	for _, x := range rs {
		if x.Player().Provisional() {
			fmt.Fprintf(&sb, " Ranks with ? are still uncertain (RD above %.0f).", rating.ProvisionalRD)
			break
		}
	}
	return Result{Reply: protocol.Reply{Title: "Leaderboard", Text: sb.String()}}, nil
}

// handicapRule is what `rules` says about handicaps from ratings (text
// 004, docs/rating.md).
const handicapRule = "Handicap from ratings (handicap=auto): the difference of the two ratings rounded to whole grades; the weaker player takes Black, with no stones and komi 0.5 for 1 grade, that many stones for 2 to 9 on 19x19 (a stone for each 3 grades on 13x13, each 6 on 9x9, and what remains as komi)."
