package gobot

import (
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
