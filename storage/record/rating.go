package record

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
)

// The rating parts of the record format (schema 3, added with ratings:
// every field optional, so records written before ratings read as
// unrated).

type gameRatingRec struct {
	Community   string  `json:"community"`
	Rated       bool    `json:"rated,omitempty"`
	BlackRank   string  `json:"black_rank,omitempty"`
	WhiteRank   string  `json:"white_rank,omitempty"`
	Done        bool    `json:"done,omitempty"`
	Grades      float64 `json:"grades,omitempty"`
	BlackChange float64 `json:"black_change,omitempty"`
	WhiteChange float64 `json:"white_change,omitempty"`
	BlackAfter  string  `json:"black_after,omitempty"`
	WhiteAfter  string  `json:"white_after,omitempty"`
}

type challengeRatingRec struct {
	Community string `json:"community"`
	Rated     bool   `json:"rated,omitempty"`
	Auto      bool   `json:"auto,omitempty"`
	Suggested string `json:"suggested,omitempty"`
	FromRank  string `json:"from_rank,omitempty"`
	ToRank    string `json:"to_rank,omitempty"`
}

type ratedResultRec struct {
	Game     uint64    `json:"game"`
	Opponent string    `json:"opponent"`
	Score    float64   `json:"score"`
	Change   float64   `json:"change"`
	At       time.Time `json:"at"`
}

type ratingRec struct {
	V          int              `json:"v"`
	Community  string           `json:"community"`
	User       string           `json:"user"`
	Rating     float64          `json:"rating"`
	RD         float64          `json:"rd"`
	Volatility float64          `json:"volatility"`
	Games      int              `json:"games"`
	Wins       int              `json:"wins"`
	Losses     int              `json:"losses"`
	Stated     bool             `json:"stated,omitempty"`
	Last       []ratedResultRec `json:"last,omitempty"`
	Updated    time.Time        `json:"updated"`
	Joins      []ratingJoinRec  `json:"joins,omitempty"`
}

// ratingJoinRec is a gobot.RatingJoin (added with joined communities:
// records without it have had no join).
type ratingJoinRec struct {
	At      time.Time       `json:"at"`
	Kept    ratingSourceRec `json:"kept"`
	Dropped ratingSourceRec `json:"dropped"`
}

type ratingSourceRec struct {
	Community string `json:"community"`
	User      string `json:"user"`
	Games     int    `json:"games"`
	Rank      string `json:"rank,omitempty"`
}

func encodeSource(s gobot.RatingSource) ratingSourceRec {
	return ratingSourceRec{Community: string(s.Community), User: string(s.User), Games: s.Games, Rank: s.Rank}
}

func decodeSource(s ratingSourceRec) gobot.RatingSource {
	return gobot.RatingSource{Community: gobot.CommunityID(s.Community), User: gobot.UserID(s.User), Games: s.Games, Rank: s.Rank}
}

func encodeGameRating(r *gobot.GameRating) *gameRatingRec {
	if r == nil {
		return nil
	}
	return &gameRatingRec{Community: string(r.Community), Rated: r.Rated, BlackRank: r.BlackRank, WhiteRank: r.WhiteRank,
		Done: r.Done, Grades: r.Grades, BlackChange: r.BlackChange, WhiteChange: r.WhiteChange, BlackAfter: r.BlackAfter, WhiteAfter: r.WhiteAfter}
}

func decodeGameRating(r *gameRatingRec) *gobot.GameRating {
	if r == nil {
		return nil
	}
	return &gobot.GameRating{Community: gobot.CommunityID(r.Community), Rated: r.Rated, BlackRank: r.BlackRank, WhiteRank: r.WhiteRank,
		Done: r.Done, Grades: r.Grades, BlackChange: r.BlackChange, WhiteChange: r.WhiteChange, BlackAfter: r.BlackAfter, WhiteAfter: r.WhiteAfter}
}

func encodeChallengeRating(r *gobot.ChallengeRating) *challengeRatingRec {
	if r == nil {
		return nil
	}
	return &challengeRatingRec{Community: string(r.Community), Rated: r.Rated, Auto: r.Auto, Suggested: r.Suggested, FromRank: r.FromRank, ToRank: r.ToRank}
}

func decodeChallengeRating(r *challengeRatingRec) *gobot.ChallengeRating {
	if r == nil {
		return nil
	}
	return &gobot.ChallengeRating{Community: gobot.CommunityID(r.Community), Rated: r.Rated, Auto: r.Auto, Suggested: r.Suggested, FromRank: r.FromRank, ToRank: r.ToRank}
}

// EncodeRating writes a rating record in the versioned format.
func EncodeRating(r *gobot.PlayerRating) ([]byte, error) {
	rec := ratingRec{V: Format, Community: string(r.Community), User: string(r.User), Rating: r.Rating, RD: r.RD,
		Volatility: r.Volatility, Games: r.Games, Wins: r.Wins, Losses: r.Losses, Stated: r.Stated, Updated: r.Updated}
	for _, l := range r.Last {
		rec.Last = append(rec.Last, ratedResultRec{Game: uint64(l.Game), Opponent: string(l.Opponent), Score: l.Score, Change: l.Change, At: l.At})
	}
	for _, j := range r.Joins {
		rec.Joins = append(rec.Joins, ratingJoinRec{At: j.At, Kept: encodeSource(j.Kept), Dropped: encodeSource(j.Dropped)})
	}
	return json.Marshal(rec)
}

func DecodeRating(raw []byte) (*gobot.PlayerRating, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec ratingRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	r := &gobot.PlayerRating{Community: gobot.CommunityID(rec.Community), User: gobot.UserID(rec.User), Rating: rec.Rating, RD: rec.RD,
		Volatility: rec.Volatility, Games: rec.Games, Wins: rec.Wins, Losses: rec.Losses, Stated: rec.Stated, Updated: rec.Updated}
	for _, l := range rec.Last {
		r.Last = append(r.Last, gobot.RatedResult{Game: gobot.GameID(l.Game), Opponent: gobot.UserID(l.Opponent), Score: l.Score, Change: l.Change, At: l.At})
	}
	for _, j := range rec.Joins {
		r.Joins = append(r.Joins, gobot.RatingJoin{At: j.At, Kept: decodeSource(j.Kept), Dropped: decodeSource(j.Dropped)})
	}
	if r.Player().Check() != nil {
		return nil, fmt.Errorf("rating values out of range: %v", r.Player().Check())
	}
	return r, nil
}

// DecodeRatingOf reads the rating record stored under community c and
// user u; a record that does not read, or says it is someone else's, is
// gobot.ErrCorrupt.
func DecodeRatingOf(c gobot.CommunityID, u gobot.UserID, raw []byte) (*gobot.PlayerRating, error) {
	r, err := DecodeRating(raw)
	if err != nil {
		return nil, fmt.Errorf("rating of %s in %s: %w: %v", u, c, gobot.ErrCorrupt, err)
	}
	if r.Community != c || r.User != u {
		return nil, fmt.Errorf("rating of %s in %s: %w: it says it is %s in %s", u, c, gobot.ErrCorrupt, r.User, r.Community)
	}
	return r, nil
}

// joinedRec is a gobot.JoinedCommunity.
type joinedRec struct {
	V       int       `json:"v"`
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Members []string  `json:"members"`
	Updated time.Time `json:"updated"`
}

// EncodeJoinedCommunity writes a joined community's record.
func EncodeJoinedCommunity(j *gobot.JoinedCommunity) ([]byte, error) {
	rec := joinedRec{V: Format, ID: string(j.ID), Name: j.Name, Members: []string{}, Updated: j.Updated}
	for _, m := range j.Members {
		rec.Members = append(rec.Members, string(m))
	}
	return json.Marshal(rec)
}

// DecodeJoinedCommunityOf reads the joined community stored under id;
// one that does not read, or says it is another, is gobot.ErrCorrupt.
func DecodeJoinedCommunityOf(id gobot.CommunityID, raw []byte) (*gobot.JoinedCommunity, error) {
	if err := checkFormat(raw); err != nil {
		return nil, fmt.Errorf("joined community %s: %w: %v", id, gobot.ErrCorrupt, err)
	}
	var rec joinedRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fmt.Errorf("joined community %s: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if gobot.CommunityID(rec.ID) != id {
		return nil, fmt.Errorf("joined community %s: %w: it says it is %s", id, gobot.ErrCorrupt, rec.ID)
	}
	j := &gobot.JoinedCommunity{ID: id, Name: rec.Name, Updated: rec.Updated}
	for _, m := range rec.Members {
		j.Members = append(j.Members, gobot.CommunityID(m))
	}
	return j, nil
}
