// Package ratings is the community's stored ratings (docs/rating.md):
// every rated game updates both players' Glicko-2 ratings in the
// community where it was played, in the transaction that ends it. It
// rates a finished game, sets a challenge's rating terms (handicap=auto),
// records a stated rank and orders the leaderboard. Package rating does
// the Glicko-2 arithmetic; this package reads and writes the records in
// the caller's transaction, as package flow does a game's.
package ratings

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/rating"
)

// RatedSize reports whether a board size is rated: 9x9, 13x13, 19x19.
func RatedSize(w, h int) bool { return w == h && (w == 9 || w == 13 || w == 19) }

// PlayerRating returns the rating in c of the player account u is, a
// newcomer's when there is none: the record is the player's (stored
// under their ID, gobot.PlayerOf, whichever account asks), in the joined
// community c is a member of (gobot.StoredCommunityOf: a game or
// tournament that began before its room was joined is rated there).
func PlayerRating(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, error) {
	rec, _, err := FindRating(tx, c, u)
	return rec, err
}

// FindRating is PlayerRating, and whether the player has a record.
func FindRating(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) (*gobot.PlayerRating, bool, error) {
	c, err := gobot.StoredCommunityOf(tx, c)
	if err != nil {
		return nil, false, err
	}
	p, err := gobot.PlayerOf(tx, u)
	if err != nil {
		return nil, false, err
	}
	rec, err := tx.Rating(c, p)
	if errors.Is(err, gobot.ErrNotFound) {
		return gobot.NewPlayerRating(c, p), false, nil
	}
	return rec, err == nil, err
}

// RatingTerms is what a challenge asks about ratings.
type RatingTerms struct {
	Community gobot.CommunityID
	From, To  gobot.UserID // To is "" for an open challenge
	Auto      bool         // handicap=auto
	Rated     *bool        // rated or unrated, when given
	Fixed     bool         // handicap= or komi= given
}

// AutoHandicap is what handicap=auto chose: Handicap for players Apart
// grades apart (their ratings' grades, unrounded), on Config, the game
// as asked before the handicap was applied.
type AutoHandicap struct {
	Handicap rating.Handicap
	Apart    float64
	Config   game.Config
}

// Refusals of RateChallenge.
var (
	ErrAutoOpen  = errors.New("ratings: handicap=auto in an open challenge") // no opponent to compare with
	ErrAutoFixed = errors.New("ratings: handicap=auto with a handicap or komi")
)

// UnratedSize refuses a rated game on a board that is not rated.
type UnratedSize struct{ Width, Height int }

func (e UnratedSize) Error() string {
	return fmt.Sprintf("ratings: %dx%d is not rated", e.Width, e.Height)
}

// AutoColor refuses a colour contrary to handicap=auto's: Want is the
// colour it gives the challenger, Asked the one asked.
type AutoColor struct{ Want, Asked string }

func (e AutoColor) Error() string {
	return "ratings: handicap=auto gives " + e.Want + ", not " + e.Asked
}

// AutoUnplayable refuses a handicap=auto suggestion that does not make a
// game: Err is game.New's (game.ErrHandicap: no fixed points for it).
type AutoUnplayable struct {
	Handicap      rating.Handicap
	Width, Height int
	Err           error
}

func (e AutoUnplayable) Error() string {
	return fmt.Sprintf("ratings: handicap=auto's %s: %v", e.Handicap, e.Err)
}

func (e AutoUnplayable) Unwrap() error { return e.Err }

// RateChallenge decides whether a challenge is rated and applies
// handicap=auto to cfg and color (the colour asked: "", "random",
// "black" or "white"). The AutoHandicap is handicap=auto's choice
// between two players, else nil.
func RateChallenge(tx gobot.Tx, t RatingTerms, cfg *game.Config, color *string) (*gobot.ChallengeRating, *AutoHandicap, error) {
	cr := &gobot.ChallengeRating{Community: t.Community, Auto: t.Auto}
	from, err := PlayerRating(tx, t.Community, t.From)
	if err != nil {
		return nil, nil, err
	}
	cr.FromRank = from.Player().RankLabel()
	var auto *AutoHandicap
	if t.To != "" {
		to, err := PlayerRating(tx, t.Community, t.To)
		if err != nil {
			return nil, nil, err
		}
		cr.ToRank = to.Player().RankLabel()
		if t.Auto {
			if auto, err = autoHandicap(from, to, t.Fixed, cfg, color); err != nil {
				return nil, nil, err
			}
		}
	} else if t.Auto {
		return nil, nil, ErrAutoOpen
	}
	std := RatedSize(cfg.Width, cfg.Height)
	even := rating.HandicapGrades(cfg.Handicap, cfg.Rules.Komi) == 0
	cr.Rated = std && (even || t.Auto)
	if t.Rated != nil {
		if *t.Rated && !std {
			return nil, nil, UnratedSize{cfg.Width, cfg.Height}
		}
		cr.Rated = *t.Rated
	}
	return cr, auto, nil
}

// autoHandicap sets the handicap, komi and colours rating.Suggest gives
// for the challenger (from) and the opponent (to).
func autoHandicap(from, to *gobot.PlayerRating, fixed bool, cfg *game.Config, color *string) (*AutoHandicap, error) {
	if fixed {
		return nil, ErrAutoFixed
	}
	h := rating.SuggestFor(from.Rating, to.Rating, cfg.Rules, cfg.Width, cfg.Height)
	auto := &AutoHandicap{Handicap: h, Apart: math.Abs(rating.Grade(from.Rating) - rating.Grade(to.Rating)), Config: *cfg}
	if h.Black == rating.Either {
		return auto, nil
	}
	want := "white"
	if h.Black == rating.PlayerA {
		want = "black"
	}
	if *color != "" && *color != "random" && *color != want {
		return nil, AutoColor{Want: want, Asked: *color}
	}
	*color = want
	cfg.Handicap = h.Stones
	cfg.Rules.Komi = h.Komi(cfg.Rules, cfg.Width, cfg.Height)
	if _, err := game.New(*cfg); err != nil {
		return nil, AutoUnplayable{Handicap: h, Width: cfg.Width, Height: cfg.Height, Err: err}
	}
	return auto, nil
}

// GameRating is a new game's rating data from its challenge's: the
// community (community when the challenge has none) and the decision
// (Begin leaves unrated a game against oneself). The ranks are the
// caller's to fill.
func GameRating(c *gobot.Challenge, community gobot.CommunityID) *gobot.GameRating {
	gr := &gobot.GameRating{Community: community}
	if c.Rating != nil {
		gr.Community, gr.Rated = c.Rating.Community, c.Rating.Rated
	}
	return gr
}

// ErrEngineUnrated refuses a rated game against an engine that cannot
// be rated.
var ErrEngineUnrated = errors.New("ratings: only even games on a standard size are rated")

// EngineGameRating is the rating data of a game against an engine where
// such games are rated: rated as a game between people would be, an
// even game on a standard size, unless the challenger said unrated
// (asked: "rated", "unrated" or ""). The ranks are the caller's to fill.
func EngineGameRating(cfg game.Config, community gobot.CommunityID, asked string) (*gobot.GameRating, error) {
	rated := asked != "unrated" && RatedSize(cfg.Width, cfg.Height) && rating.HandicapGrades(cfg.Handicap, cfg.Rules.Komi) == 0
	if asked == "rated" && !rated {
		return nil, ErrEngineUnrated
	}
	return &gobot.GameRating{Community: community, Rated: rated}, nil
}

// Rated is the outcome of rating a finished game: Done when it was rated
// now (match.Rating holds the changes); Damaged is the damaged rating
// that left the game unrated.
type Rated struct {
	Done    bool
	Damaged error
}

// Rate updates both players' ratings when a rated game has ended by
// score, resignation or time; called in the transaction that ends it.
// A game that is not rated, was aborted or ended in a cycle changes
// nothing, and a damaged rating does not keep the game from ending.
func Rate(tx gobot.Tx, match *gobot.Match, g *game.Game) (Rated, error) {
	gr := match.Rating
	if gr == nil || !gr.Rated || gr.Done || match.Black == match.White {
		return Rated{}, nil
	}
	res, over := g.Result()
	cfg := g.Config()
	if !over || !RatedSize(cfg.Width, cfg.Height) {
		return Rated{}, nil
	}
	switch res.Reason {
	case game.ByScore, game.ByResign:
	case game.ByTime:
		if !BothMoved(g) {
			return Rated{}, nil // lost on time before both played: not a game to rate
		}
	default:
		return Rated{}, nil
	}
	score := 0.5
	switch res.Winner {
	case game.Black:
		score = 1
	case game.White:
		score = 0
	}
	br, err := PlayerRating(tx, gr.Community, match.Black)
	if err == nil {
		var wr *gobot.PlayerRating
		if wr, err = PlayerRating(tx, gr.Community, match.White); err == nil {
			if br.User == wr.User {
				return Rated{}, nil // two accounts of one player: a game against oneself
			}
			err = applyRated(tx, match, br, wr, rating.HandicapWorth(cfg.Rules, cfg.Width, cfg.Height, cfg.Handicap, cfg.Rules.Komi), score)
			return Rated{Done: err == nil}, err
		}
	}
	if errors.Is(err, gobot.ErrCorrupt) {
		return Rated{Damaged: err}, nil
	}
	return Rated{}, err
}

func applyRated(tx gobot.Tx, match *gobot.Match, br, wr *gobot.PlayerRating, grades float64, blackScore float64) error {
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

// EarlyTimeout reports whether match is a rated game lost on time
// before both players had moved, which stays unrated.
func EarlyTimeout(match *gobot.Match, g *game.Game) bool {
	gr := match.Rating
	if gr == nil || !gr.Rated || gr.Done {
		return false
	}
	res, over := g.Result()
	return over && res.Reason == game.ByTime && !BothMoved(g)
}

// BothMoved reports whether each player made a move of their own (a
// pass or a handicap stone counts).
func BothMoved(g *game.Game) bool {
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

// RankSettled refuses a starting rank to a player with rated games in
// the community: their rank (Rank) follows their results now.
type RankSettled struct {
	Games int
	Rank  string
}

func (e RankSettled) Error() string { return fmt.Sprintf("ratings: %d rated games played", e.Games) }

// RankUnreadable refuses a starting rank that is not a grade.
type RankUnreadable struct{ Input string }

func (e RankUnreadable) Error() string { return "ratings: not a rank: " + e.Input }

// RankOutOfRange refuses a starting rank outside the ratings' range.
type RankOutOfRange struct{ Rank game.Rank }

func (e RankOutOfRange) Error() string { return "ratings: rank out of range" }

// StateRank is `settings rank=5k`: u states a starting rank (written v)
// in community c at t, before their first rated game there.
func StateRank(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID, v string, t time.Time) error {
	rec, err := PlayerRating(tx, c, u)
	if err != nil {
		return err
	}
	if rec.Games > 0 {
		return RankSettled{Games: rec.Games, Rank: rec.Player().RankLabel()}
	}
	rank, err := game.ParseRank(v)
	if err != nil {
		return RankUnreadable{Input: v}
	}
	p, err := rating.Start(rank)
	if err != nil {
		return RankOutOfRange{Rank: rank}
	}
	rec.Rating, rec.RD, rec.Volatility, rec.Stated, rec.Updated = p.Rating, p.RD, p.Volatility, true, t
	return tx.PutRating(rec)
}

// Leaderboard are the ratings of a leaderboard: those with rated games,
// in its order (SortLeaderboard).
func Leaderboard(all []*gobot.PlayerRating) []*gobot.PlayerRating {
	var rs []*gobot.PlayerRating
	for _, x := range all {
		if x.Games > 0 {
			rs = append(rs, x)
		}
	}
	SortLeaderboard(rs)
	return rs
}

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
