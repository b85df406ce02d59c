package say

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// The words of team games (rengo): their proposal, its answers, the
// turn order, the turns passed on, and the refusals.

// rengoExample is how a team game is proposed.
const rengoExample = "rengo @alice @bob vs @carol @dave"

// TeamsRefused words a flow.TeamsRefusal (other errors are returned as
// they are).
func TeamsRefused(err error) error {
	var e flow.TeamsRefusal
	if !errors.As(err, &e) {
		return err
	}
	switch e.Problem {
	case flow.NoSecondTeam:
		return Refusef("Name both teams with vs between them, like %s.", Cmd(rengoExample))
	case flow.NoFirstTeam:
		return Refusef("Name the first team before vs, like %s.", Cmd(rengoExample))
	case flow.TeamTooLarge:
		return Refusef("A team has at most %d players.", gobot.MaxTeam)
	case flow.NamedTwice:
		return Shortest(fmt.Sprintf("%s is named twice: each player plays in one team, once.", protocol.Mention(e.User)),
			"A player is named twice: each player plays in one team, once.")
	case flow.EngineInTeam:
		return Refusef("Team games are between people; %s can't join one.", protocol.Mention(e.User))
	case flow.ProposerNotIn:
		// Not the caller's raw ID in the example (a Discord number, a Matrix "@@name:server").
		return Refusef("You play in the game you propose: name yourself in one team, like %s when you are alice.", Cmd(rengoExample))
	}
	return Refusef("That is a game between two players: %s.", Cmd("challenge @player"))
}

// TeamsUnrated refuses a team game asked for rated, or (auto) with
// handicap=auto.
func TeamsUnrated(auto bool) error {
	if auto {
		return Refusef("Team games are unrated, so handicap=auto has no ratings to go by; give a number, like handicap=2.")
	}
	return Refusef("Team games are unrated: ratings are for one player against another. Leave out %s.", "`rated`")
}

// TeamChallenge is the proposal of team challenge c (stored: numbered,
// its colours drawn): its title and text.
func TeamChallenge(c *gobot.Challenge) (title, text string) {
	drawn := map[string]string{"black": "", "white": "", "random": " (colours by lot)"}[c.Color]
	return fmt.Sprintf("Team challenge #%d", c.ID), fmt.Sprintf("%s proposes team game #%d: Black %s against White %s%s; %s.%s %s: each of you, answer %s or %s; the game begins when all have accepted.",
		protocol.Mention(c.From), c.ID, Mentions(c.Teams.Black), Mentions(c.Teams.White), drawn, Config(c.Config, c.Clock), ClockNote(c.Clock),
		Mentions(flow.TeamWaiting(c)), Cmd(fmt.Sprintf("accept #%d", c.ID)), Cmd(fmt.Sprintf("decline #%d", c.ID)))
}

// TeamAnswerRefused words a flow.AnswerRefusal of an acceptance
// (accept) or a decline of a team challenge (other errors are returned
// as they are).
func TeamAnswerRefused(err error, accept bool) error {
	var e flow.AnswerRefusal
	if !errors.As(err, &e) {
		return err
	}
	c := e.Challenge
	cancel := Cmd(fmt.Sprintf("cancel #%d", c.ID))
	switch {
	case e.Problem == flow.Answered:
		return Refusef("Challenge #%d is already %s.", c.ID, c.Status)
	case e.Problem == flow.OwnChallenge && !accept:
		return Refusef("That is your own challenge; use %s to withdraw it.", cancel)
	case e.Problem == flow.OwnChallenge:
		return Shortest(fmt.Sprintf("You proposed team game #%d, so you have agreed; waiting for %s (or %s).", c.ID, Mentions(flow.TeamWaiting(c)), cancel),
			fmt.Sprintf("You proposed team game #%d, so you have agreed; waiting for the others (or %s).", c.ID, cancel))
	case e.Problem == flow.AlreadyAccepted:
		return Shortest(fmt.Sprintf("You already accepted team game #%d; waiting for %s.", c.ID, Mentions(flow.TeamWaiting(c))),
			fmt.Sprintf("You already accepted team game #%d; waiting for the others.", c.ID))
	}
	return Shortest(fmt.Sprintf("Team game #%d is for %s; you are not in it.", c.ID, Mentions(c.Teams.Members())),
		fmt.Sprintf("You are not one of the players named in team game #%d, so you can't answer it.", c.ID))
}

// TeamAccepts says that u accepted team challenge c, and who is left to
// (waiting): its title and text.
func TeamAccepts(c *gobot.Challenge, u gobot.UserID, waiting []gobot.UserID) (title, text string) {
	return fmt.Sprintf("Team challenge #%d", c.ID), fmt.Sprintf("%s accepts team game #%d; waiting for %s (%s).", protocol.Mention(u), c.ID, Mentions(waiting), Cmd(fmt.Sprintf("accept #%d", c.ID)))
}

// TeamBegins announces team game l, begun from challenge c, with its
// turn order.
func TeamBegins(n Namer, c *gobot.Challenge, l *flow.Loaded) string {
	teams := l.Match.Teams
	return fmt.Sprintf("Team game #%d begins: Black %s against White %s, %s, unrated. %s",
		l.Match.ID, Names(n, teams.Black), Names(n, teams.White), Config(c.Config, c.Clock), TurnOrder(teams, l.G.ToMove()))
}

// TeamDeclined says that u declined team challenge c.
func TeamDeclined(c *gobot.Challenge, u gobot.UserID) string {
	return fmt.Sprintf("%s declined team game #%d, so it is cancelled.", protocol.Mention(u), c.ID)
}

// TurnOrder says how a team game's turns go, from the team that moves
// first (White, after fixed handicap stones). The teams alternate and
// each rotates through its own players (gobot.Teams.Turn), so the order
// repeats after flow.TurnCycle turns: when that cycle is short (2
// against 2: B1 W1 B2 W2) it is spelled out whole; a longer one (2
// against 3 takes 12 turns) is said per team.
func TurnOrder(t *gobot.Teams, first game.Color) string {
	a, b := t.Team(first), t.Team(first.Opponent())
	cycle := flow.TurnCycle(len(a), len(b))
	if cycle <= maxSpelledCycle {
		var order []string
		for i := range cycle / 2 {
			order = append(order, protocol.Mention(a[i%len(a)]), protocol.Mention(b[i%len(b)]))
		}
		return fmt.Sprintf("Turn order: %s, then round again.", strings.Join(order, ", "))
	}
	team := func(c game.Color) string {
		var s []string
		for _, u := range t.Team(c) {
			s = append(s, protocol.Mention(u))
		}
		return fmt.Sprintf("%s: %s in turn", c.Name(), strings.Join(s, ", "))
	}
	return fmt.Sprintf("Turn order: the teams alternate, %s first, and each takes its own players in turn (the order repeats after %d turns). %s; %s.",
		first.Name(), cycle, team(first), team(first.Opponent()))
}

// maxSpelledCycle is the longest turn cycle TurnOrder spells out whole.
const maxSpelledCycle = 8

// NotTeamTurn words a flow.NotTeamTurn in match.
func NotTeamTurn(n Namer, match *gobot.Match, e flow.NotTeamTurn) error {
	return Shortest(fmt.Sprintf("It is %s's turn (%s) in game #%d.", protocol.Mention(e.Next), TeamLabel(n, match, e.Color), e.Game),
		fmt.Sprintf("It is %s's turn in game #%d.", protocol.Mention(e.Next), e.Game))
}

// NotAPlayer refuses someone who does not play match.
func NotAPlayer(n Namer, match *gobot.Match) error {
	watch := Cmd(fmt.Sprintf("board #%d", match.ID))
	if room := match.Find(gobot.SideRoom); room.Kind == gobot.SideRoom {
		return Shortest(fmt.Sprintf("In game #%d the room plays against %s by vote; only those who voted in it act for the room (you can watch with %s).", match.ID, protocol.Mention(room.Opponent().ToMove()), watch),
			fmt.Sprintf("In game #%d the room plays by vote; only those who voted in it act for the room (you can watch with %s).", match.ID, watch))
	}
	if !match.Has(gobot.SideTeam) {
		return Refusef("Only %s and %s play game #%d; you can watch with %s.", protocol.Mention(match.Black), protocol.Mention(match.White), match.ID, watch)
	}
	return Shortest(fmt.Sprintf("You are not in team game #%d (%s; %s); you can watch with %s.", match.ID, TeamLabel(n, match, game.Black), TeamLabel(n, match, game.White), watch),
		fmt.Sprintf("You are not in team game #%d; you can watch with %s.", match.ID, watch))
}

// TeamTimedOut says that a team game's player ran out of time and the
// turn passed to a teammate.
func TeamTimedOut(n Namer, match *gobot.Match, t flow.TeamTimedOut) string {
	return fmt.Sprintf("%s ran out of time: the turn passes to %s (%s).", protocol.Mention(t.Late), protocol.Mention(t.Next), TeamLabel(n, match, t.Color))
}

// TurnsPassed says that a team game's turn passed on from players on
// vacation, or stays with a team all away; "" for the zero TurnsPassed.
func TurnsPassed(n Namer, match *gobot.Match, t flow.TurnsPassed) string {
	c := t.Color
	switch {
	case len(t.Away) == 0:
		return ""
	case t.AllAway:
		return fmt.Sprintf("Every %s player (%s) is on vacation: the turn stays with %s and %s's clock runs on; the first of them back plays.", c.Name(), Names(n, match.Side(c).Players), protocol.Mention(t.To), c.Name())
	}
	verb := "is"
	if len(t.Away) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s on vacation: the turn passes to %s (%s).", Mentions(t.Away), verb, protocol.Mention(t.To), TeamLabel(n, match, c))
}

// TeamLost says, when a team game is lost on time by colour c, that the
// whole team (its players present, when some are away) timed out in a
// row; "" when c is no team.
func TeamLost(n Namer, match *gobot.Match, c game.Color, p flow.Presence) string {
	if !match.Side(c).Rotates() {
		return ""
	}
	if len(p.Away) > 0 && len(p.Present) > 0 {
		return fmt.Sprintf(" Every %s player not on vacation (%s) has run out of time in a row: %s loses on time.", c.Name(), Names(n, p.Present), c.Name())
	}
	return fmt.Sprintf(" Every %s player (%s) has run out of time in a row: %s loses on time.", c.Name(), Names(n, match.Side(c).Players), c.Name())
}

// Seat is who plays colour c, for the board's header: the player with
// their rank (RankSuffix), or in a team game the team, with whose turn
// it is.
func Seat(n Namer, match *gobot.Match, g *game.Game, c game.Color) string {
	if !match.Side(c).Rotates() {
		return protocol.Mention(match.Side(c).ToMove()) + RankSuffix(match, c)
	}
	s := Names(n, match.Side(c).Players)
	if g.Phase() == game.Playing && g.ToMove() == c {
		s += fmt.Sprintf(" · %s to play", n.Name(match.Side(c).ToMove()))
	}
	return s
}

// TeamGamesLine begins `games`' line for team game l, played as me.
func TeamGamesLine(n Namer, l *flow.Loaded, me game.Color) string {
	cfg := l.G.Config()
	return fmt.Sprintf("#%d team game, %s vs %s (%s, you are %s, move %d): ", l.Match.ID, Names(n, l.Match.Side(me).Players), Names(n, l.Match.Side(me.Opponent()).Players),
		game.SizeString(cfg.Width, cfg.Height), me.Name(), l.G.MoveNumber())
}

// TeamChallengeLine is `games`' line for pending team challenge c, as u
// sees it.
func TeamChallengeLine(c *gobot.Challenge, u gobot.UserID) string {
	if c.From == u || slices.Contains(c.Teams.Accepted, u) {
		return fmt.Sprintf("team challenge #%d: waiting for %s", c.ID, Mentions(flow.TeamWaiting(c)))
	}
	return fmt.Sprintf("team challenge #%d from %s: %s or %s", c.ID, protocol.Mention(c.From), Cmd(fmt.Sprintf("accept #%d", c.ID)), Cmd(fmt.Sprintf("decline #%d", c.ID)))
}
