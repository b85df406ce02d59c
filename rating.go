package gobot

import (
	"slices"
	"time"

	"github.com/gobotgo/gobot/rating"
)

// CommunityID is where ratings are kept: a Discord guild
// ("discord:guild:1234", a DM channel for DMs), a Matrix room
// ("matrix:!abc:example.org"), the terminal's single community
// ("console"). A player has one rating per community.
type CommunityID string

// MaxLastResults is how many recent rated results a PlayerRating keeps.
const MaxLastResults = 5

// PlayerRating is a player's Glicko-2 rating in one community.
type PlayerRating struct {
	Community  CommunityID
	User       UserID
	Rating     float64
	RD         float64
	Volatility float64
	Games      int // rated games, draws included
	Wins       int
	Losses     int
	// Stated is set when the player stated a starting rank (settings
	// rank=5k) before their first rated game.
	Stated bool `json:",omitempty"`
	// Last holds the latest rated results, newest first, at most
	// MaxLastResults.
	Last    []RatedResult `json:",omitempty"`
	Updated time.Time
	// Joins are the records joined into this one (two linked accounts'
	// records, or a room's joined into a community), oldest first, at
	// most MaxJoins: the player is told which was kept.
	Joins []RatingJoin `json:",omitempty"`
}

// MaxJoins is how many joins a PlayerRating remembers.
const MaxJoins = 5

// RatingJoin is two records of one player joined into one at At: Kept
// is the record kept, Dropped the other.
type RatingJoin struct {
	At      time.Time
	Kept    RatingSource
	Dropped RatingSource
}

// RatingSource is a rating record as it was when it was joined.
type RatingSource struct {
	Community CommunityID
	User      UserID
	Games     int
	Rank      string // its rank label ("5k")
}

// Source is p as a RatingSource.
func (p *PlayerRating) Source() RatingSource {
	return RatingSource{Community: p.Community, User: p.User, Games: p.Games, Rank: p.Player().RankLabel()}
}

// JoinRatings joins a and b, two records of one player, into the one
// kept (KeepRating), stored as community c's record of player u: the
// join is remembered in it. The records are not changed; the result is
// a new record.
func JoinRatings(a, b *PlayerRating, c CommunityID, u UserID, at time.Time) *PlayerRating {
	kept, dropped := a, b
	if !KeepRating(a, b) {
		kept, dropped = b, a
	}
	out := *kept
	out.Community, out.User = c, u
	out.Last = append([]RatedResult(nil), kept.Last...)
	out.Joins = append(append(append([]RatingJoin(nil), a.Joins...), b.Joins...), RatingJoin{At: at, Kept: kept.Source(), Dropped: dropped.Source()})
	slices.SortStableFunc(out.Joins, func(x, y RatingJoin) int { return x.At.Compare(y.At) })
	out.Joins = out.Joins[max(0, len(out.Joins)-MaxJoins):]
	return &out
}

// RatedResult is one rated game as a player saw it.
type RatedResult struct {
	Game     GameID
	Opponent UserID
	Score    float64 // 1 win, 0.5 draw, 0 loss
	Change   float64 // the player's rating change
	At       time.Time
}

// NewPlayerRating is the record of a player with no rated game in c.
func NewPlayerRating(c CommunityID, u UserID) *PlayerRating {
	p := rating.New()
	return &PlayerRating{Community: c, User: u, Rating: p.Rating, RD: p.RD, Volatility: p.Volatility}
}

// Player returns the Glicko-2 state.
func (p *PlayerRating) Player() rating.Player {
	return rating.Player{Rating: p.Rating, RD: p.RD, Volatility: p.Volatility}
}

// GameRating is what a game knows of ratings: where it is rated, whether,
// the players' ranks when it began and, once rated, the changes.
type GameRating struct {
	Community CommunityID
	Rated     bool   `json:",omitempty"`
	BlackRank string `json:",omitempty"` // rank labels when the game began ("5k?")
	WhiteRank string `json:",omitempty"`
	// Done is set when the players' ratings were updated at the end;
	// Grades is the handicap the update used, BlackChange and
	// WhiteChange the rating changes, BlackAfter and WhiteAfter the rank
	// labels after the game.
	Done        bool    `json:",omitempty"`
	Grades      float64 `json:",omitempty"`
	BlackChange float64 `json:",omitempty"`
	WhiteChange float64 `json:",omitempty"`
	BlackAfter  string  `json:",omitempty"`
	WhiteAfter  string  `json:",omitempty"`
}

// ChallengeRating is what a challenge knows of ratings.
type ChallengeRating struct {
	Community CommunityID
	Rated     bool `json:",omitempty"`
	// Auto is set when handicap=auto chose the handicap and colours;
	// Suggested says what it chose ("4 stones").
	Auto      bool   `json:",omitempty"`
	Suggested string `json:",omitempty"`
	FromRank  string `json:",omitempty"` // rank labels when challenged
	ToRank    string `json:",omitempty"`
}
