package say

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// The words of the commands that look at games: games, sgf, replay, and
// the room's live_images setting.

// GamesDamaged is games' line for a game whose record cannot be read.
func GamesDamaged(id gobot.GameID) string {
	return fmt.Sprintf("#%d: I can't read this game's record (it is damaged); an admin has been told in the logs", id)
}

// GamesHead begins games' line for a game u plays as me: "#7 vs @bob
// (19×19, you are Black, move 12): ".
func GamesHead(match *gobot.Match, g *game.Game, me game.Color) string {
	opp := match.Side(me.Opponent()).ToMove()
	return fmt.Sprintf("#%d vs %s (%s, you are %s, move %d): ", match.ID, protocol.Mention(opp), game.SizeString(g.Config().Width, g.Config().Height), me.Name(), g.MoveNumber())
}

// GamesState ends games' line for a game u plays as me: whose move (an
// engine's: that it is thinking), or the scoring's step, the clock's
// left ("": none; GamesClocks for a live game's), and elsewhere if it is
// played in another room.
func GamesState(match *gobot.Match, g *game.Game, me game.Color, u gobot.UserID, left string, elsewhere bool) string {
	var s string
	switch next := match.Side(g.ToMove()).ToMove(); {
	case g.Phase() == game.Scoring:
		s = ScoringStep(match, g, me)
	case match.Side(me).Rotates() && g.ToMove() == me && match.Side(me).ToMove() != u:
		s = fmt.Sprintf("%s's move (your team)", protocol.Mention(match.Side(me).ToMove()))
	case g.ToMove() == me:
		s = "your move"
	case next.Platform() == gobot.EnginePlatform: // its "deadline" is its work, due now (flow.Engines.Due)
		s = protocol.Mention(next) + " is thinking"
	default:
		s = "their move"
	}
	if left != "" {
		s += ", " + left
	}
	if elsewhere {
		s += " (in another room)"
	}
	return s
}

// PlayedOn notes where a game of a linked player's other account is
// played: " (on Matrix, as m:alice)".
func PlayedOn(match *gobot.Match, as gobot.UserID) string {
	return fmt.Sprintf(" (on %s, as %s)", platformName(match.Room.Platform()), as)
}

// GamesClocks is games' note on both clocks of a live game (clocks, by
// colour: LiveClocks) for its player me: "your clock 4:10 + 3×30s,
// @bob's 5:00 + 3×30s" (a team's: "your team's clock …, White's …");
// an engine's side shows none.
func GamesClocks(match *gobot.Match, me game.Color, clocks [3]string) string {
	var parts []string
	if clocks[me] != "" {
		mine := "your clock "
		if match.Side(me).Rotates() {
			mine = "your team's clock "
		}
		parts = append(parts, mine+clocks[me])
	}
	if c := me.Opponent(); clocks[c] != "" {
		theirs := protocol.Mention(match.Side(c).ToMove()) + "'s "
		if match.Side(c).Rotates() {
			theirs = c.Name() + "'s "
		}
		if len(parts) == 0 {
			theirs += "clock "
		}
		parts = append(parts, theirs+clocks[c])
	}
	return strings.Join(parts, ", ")
}

// ScoringStep says who must act in a game being scored, for player me:
// their opponent named, or in a team game the teams ("your team
// accepted; waiting for White (@carol or @dave)").
func ScoringStep(match *gobot.Match, g *game.Game, me game.Color) string {
	check := "mark dead stones, then " + Cmd("done") + " to accept"
	if g.Config().Rules.NoAgreement {
		check = Cmd("done") + " to accept the count"
	}
	you, opp, neither := "you", protocol.Mention(match.Side(me.Opponent()).ToMove()), "neither has"
	if match.Side(me).Rotates() { // flow/team.go
		you, opp, neither = "your team", me.Opponent().Name(), "neither team has"
	}
	switch {
	case g.Accepted(me):
		return fmt.Sprintf("scoring: %s accepted; waiting for %s to accept", you, Answerer(match, me.Opponent()))
	case g.Accepted(me.Opponent()):
		if g.Config().Rules.NoAgreement {
			return fmt.Sprintf("scoring: %s accepted; %s", opp, check)
		}
		return fmt.Sprintf("scoring: %s accepted; check the dead stones, then %s to accept", opp, Cmd("done"))
	}
	return "scoring: " + check + " (" + neither + " accepted yet)"
}

// GamesChallenge is games' line for challenge c (not a team's), seen by
// u: waiting for its answer, or how to answer it.
func GamesChallenge(c *gobot.Challenge, u gobot.UserID) string {
	if c.From == u {
		to := "anyone"
		if c.To != "" {
			to = protocol.Mention(c.To)
		}
		return fmt.Sprintf("challenge #%d to %s: waiting", c.ID, to)
	}
	return fmt.Sprintf("challenge #%d from %s: %s or %s", c.ID, protocol.Mention(c.From), Cmd(fmt.Sprintf("accept #%d", c.ID)), Cmd(fmt.Sprintf("decline #%d", c.ID)))
}

// GamesTitle is games' title, GamesHid its note on challenges it could
// not read.
const (
	GamesTitle = "Your games"
	GamesHid   = "Some of your challenges have damaged records and are not shown; an admin has been told in the logs."
)

// NoGames is games' answer to a user with no games or challenges.
func NoGames() string {
	return fmt.Sprintf("You have no active games or challenges. Start one with %s.", Cmd("challenge @player"))
}

// Record is sgf's text for game id's record.
func Record(id gobot.GameID) string { return fmt.Sprintf("The record of game #%d.", id) }

// Replay is replay's text for game id's replay of n moves.
func Replay(id gobot.GameID, n int) string {
	return fmt.Sprintf("Replay of game #%d (%d moves).", id, n)
}

// NoRenderer refuses an image when the bot draws none.
func NoRenderer() error { return Refusef("This bot has no renderer configured.") }

// BadLiveImages refuses live_images=v.
func BadLiveImages(v string) error {
	return Refusef("live_images=%s: choose every (a live game's board after each move), last (the final position and each 20th move) or off.", protocol.ClipArg(v))
}

// GameChoice is how autocomplete offers game id, against opponent.
func GameChoice(id gobot.GameID, opponent string) string {
	return fmt.Sprintf("#%d vs %s", id, opponent)
}

// SGFInfo is what a game's SGF says of it besides the moves: the
// players (a team game's members) as n names them, their ranks, the
// date, the clock.
func SGFInfo(n Namer, match *gobot.Match) game.GameInfo {
	info := game.GameInfo{Black: n.Name(match.Black), White: n.Name(match.White),
		Date: match.Created.UTC().Format("2006-01-02"), Name: fmt.Sprintf("gobot game #%d", match.ID)}
	info.BlackRank, info.WhiteRank = RankAt(match, game.Black), RankAt(match, game.White)
	if t := match.Teams; t != nil { // flow/team.go: PB/PW list the members
		info.Black, info.White = Names(n, t.Black), Names(n, t.White)
	}
	info.TimeLimit, info.Overtime = match.Clock.SGF() // TM, OT
	return info
}
