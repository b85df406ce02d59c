package flow

import (
	"errors"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Propose stores challenge c under a number no game has had.
func Propose(tx gobot.Tx, c *gobot.Challenge) error {
	if err := tx.SkipGameNumbers(); err != nil {
		return err
	}
	return tx.PutChallenge(c) // numbers it
}

// RememberName stores u's display name the first time, or when it
// changed. A damaged player record is left as it is (it holds the
// player's settings) and its error returned, an ErrCorrupt for the caller
// to log.
func RememberName(tx gobot.Tx, u gobot.UserID, name string, t time.Time) error {
	if u == "" || name == "" {
		return nil
	}
	p, err := tx.Player(u)
	switch {
	case err == nil && p.Name == name:
		return nameIndexed(tx, u, name) // a name stored before the index
	case errors.Is(err, gobot.ErrNotFound):
		p = &gobot.Player{ID: u}
	case err != nil:
		return err
	}
	p.Name, p.Updated = name, t
	if err := tx.PutPlayer(p); err != nil {
		return err
	}
	return nameIndexed(tx, u, name)
}

// maxNamed is how many players the names index keeps under one name, the
// latest to take it: enough to see that a name is shared.
const maxNamed = 8

// nameIndexed puts u among the players known by name (namesNS).
func nameIndexed(tx gobot.Tx, u gobot.UserID, name string) error {
	key := nameKey(u.Platform(), name)
	ids, err := namedIDs(tx, key)
	if err != nil || slices.Contains(ids, u) {
		return err
	}
	ids = append(ids, u)
	if len(ids) > maxNamed {
		ids = ids[len(ids)-maxNamed:]
	}
	var b strings.Builder
	for _, id := range ids {
		b.WriteString(string(id) + "\n")
	}
	return tx.PutState(namesNS, key, []byte(b.String()))
}

// namedIDs are the players the names index keeps under key.
func namedIDs(tx gobot.Tx, key string) ([]gobot.UserID, error) {
	v, err := tx.State(namesNS, key)
	if errors.Is(err, gobot.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []gobot.UserID
	for _, s := range strings.Fields(string(v)) {
		ids = append(ids, gobot.UserID(s))
	}
	return ids, nil
}

// namesNS is the state namespace of the names players are known by, for
// naming a player of another platform ("discord:@carol": Named).
const namesNS = "names"

func nameKey(platform, name string) string { return platform + ":" + strings.ToLower(name) }

// UnknownName refuses a name that no player of Platform the bot knows
// goes by (Named).
type UnknownName struct{ Platform, Name string }

func (e UnknownName) Error() string { return "flow: no player named " + e.Name + " on " + e.Platform }

// Code names the refusal (Refusal).
func (UnknownName) Code() string { return "unknown-name" }

// SharedName refuses a name that several players of Platform go by.
type SharedName struct {
	Platform, Name string
	Players        []gobot.UserID
}

func (e SharedName) Error() string {
	return "flow: several players named " + e.Name + " on " + e.Platform
}

// Code names the refusal (Refusal).
func (SharedName) Code() string { return "shared-name" }

// Named is the player of platform known by name (their display name as
// the bot last saw it, any case): the one who goes by it now; else
// UnknownName, or SharedName when several do.
func Named(tx gobot.Tx, platform, name string) (gobot.UserID, error) {
	ids, err := namedIDs(tx, nameKey(platform, name))
	if err != nil {
		return "", err
	}
	var now []gobot.UserID
	for _, u := range ids {
		if p, err := tx.Player(u); err == nil && strings.EqualFold(p.Name, name) { // not renamed since
			now = append(now, u)
		}
	}
	switch len(now) {
	case 0:
		return "", UnknownName{platform, name}
	case 1:
		return now[0], nil
	}
	return "", SharedName{platform, name, now}
}

// Opening is how challenge c's game begins: By accepts it (a player, or
// an engine's seat), at At; Engine and Level name the engine playing;
// Rating is the game's rating data (GameRating; nil: unrated), its ranks
// for the caller to fill. A vote game is unrated.
type Opening struct {
	By     gobot.UserID
	At     time.Time
	Engine string
	Level  int
	Rating *gobot.GameRating
}

// Begin starts the game of challenge c: it seats the players (the
// colours by lot when c asks for it; the room, by vote, in the
// challenger's seat when c is a vote challenge), and starts the clocks.
// The game keeps the challenge's number where it is free. The caller
// stores the match, then marks the challenge accepted (Accepted).
func Begin(c *gobot.Challenge, o Opening) (*Loaded, error) {
	g, err := game.New(c.Config)
	if err != nil {
		return nil, err
	}
	match := &gobot.Match{ID: gobot.GameID(c.ID), Room: c.Room, Mirror: c.Mirror, Record: g.Record(), Clock: c.Clock, Challenge: c.ID, Created: o.At, Updated: o.At,
		Engine: o.Engine, EngineLevel: o.Level}
	black, white := c.From, o.By
	if c.VoteWindow > 0 {
		black = gobot.VoteSeat // the challenger's side is the room's (vote.go)
	}
	switch c.Color {
	case "white":
		black, white = white, black
	case "random":
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%s|%s", c.ID, c.From, o.By)
		if h.Sum32()%2 == 1 {
			black, white = white, black
		}
	}
	match.Black, match.White = black, white
	if gr := o.Rating; gr != nil {
		gr.Rated = gr.Rated && black != white
		match.Rating = gr
	}
	if c.VoteWindow > 0 {
		match.Rating, match.Vote = nil, &gobot.Vote{Window: c.VoteWindow} // unrated
	}
	match.StartClocks()
	match.NoVacation = c.NoVacation
	StartClock(match, g, o.At)
	match.Due = dueOf(match, false) // an engine's first work is marked by Engines.Due
	return &Loaded{Match: match, G: g}, nil
}

// ChallengeAccepted marks challenge c accepted by by at t, its game match begun.
func ChallengeAccepted(c *gobot.Challenge, match *gobot.Match, by gobot.UserID, t time.Time) {
	c.Status, c.Game, c.Answered = gobot.Accepted, match.ID, t
	if c.To == "" {
		c.To = by
	}
}

// Refusals of Acceptable and Answer, about the challenge they name.
const (
	ErrAnswered     ChallengeRefusal = "the challenge is answered" // no longer pending
	ErrNotYours     ChallengeRefusal = "only the challenger cancels"
	ErrOwnChallenge ChallengeRefusal = "a challenger declines their own challenge"
	ErrNotForYou    ChallengeRefusal = "the challenge is for another player"
)

// ChallengeRefusal is a refusal of an answer to a challenge (ErrAnswered…).
type ChallengeRefusal string

func (e ChallengeRefusal) Error() string { return "flow: " + string(e) }

// Code names the refusal (Refusal).
func (ChallengeRefusal) Code() string { return "challenge-refusal" }

// Acceptable refuses by's accepting challenge c when it is not theirs
// to accept: answered already, their own, or for another player.
func Acceptable(c *gobot.Challenge, by gobot.UserID) error {
	switch {
	case c.Status != gobot.Pending:
		return ErrAnswered
	case c.From == by:
		return ErrOwnChallenge
	case c.To != "" && c.To != by:
		return ErrNotForYou
	}
	return nil
}

// Answer answers challenge c for by at t: withdraws it (Cancelled, by
// its challenger) or declines it (Declined, by whom it is for).
func Answer(c *gobot.Challenge, by gobot.UserID, status gobot.ChallengeStatus, t time.Time) error {
	mine := status == gobot.Cancelled
	switch {
	case c.Status != gobot.Pending:
		return ErrAnswered
	case mine && c.From != by:
		return ErrNotYours
	case !mine && c.To != by && c.From == by:
		return ErrOwnChallenge
	case !mine && c.To != by:
		return ErrNotForYou
	}
	c.Status, c.Answered = status, t
	return nil
}
