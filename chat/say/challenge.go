package say

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Challenge announces challenge c to a person or open to the room;
// vacation is its vacation header (chat's vacationHeader).
func Challenge(c *gobot.Challenge, vacation string) string {
	colour := map[string]string{"black": " (taking Black)", "white": " (taking White)", "random": " (colours by lot)"}[c.Color]
	if c.To == "" {
		return fmt.Sprintf("%s opens challenge #%d%s: %s.%s Anyone here can take it with %s.", protocol.Mention(c.From), c.ID, colour, Config(c.Config, c.Clock)+vacation, ClockNote(c.Clock), Cmd(fmt.Sprintf("accept #%d", c.ID)))
	}
	return fmt.Sprintf("%s challenges %s to a game%s: %s.%s %s, answer with %s or %s.", protocol.Mention(c.From), protocol.Mention(c.To), colour, Config(c.Config, c.Clock)+vacation, ClockNote(c.Clock), protocol.Mention(c.To), Cmd(fmt.Sprintf("accept #%d", c.ID)), Cmd(fmt.Sprintf("decline #%d", c.ID)))
}

// VacationChoice says what vacation= (v: "on", "off" or "") did in
// challenge c, when it did nothing: said, not silently dropped.
func VacationChoice(c *gobot.Challenge, v string) string {
	switch {
	case v != "" && c.Clock.Live():
		return "\nA live game's clock never stops for a vacation: vacation= changes nothing here."
	case v == "on" && c.Clock.Kind == gobot.NoClock:
		return "\nvacation=on is the default; this game has no clock for a vacation to stop."
	case v == "on":
		return "\nvacation=on is the default: a player's vacation stops this game's clock."
	}
	return ""
}

// Begins announces the game of an accepted challenge: its players,
// settings, vacation header (chat's vacationHeader) and voteNote (how
// the room plays, chat's voteStartNote).
func Begins(match *gobot.Match, cfg game.Config, vacation, voteNote string) string {
	return fmt.Sprintf("Game #%d begins: %s against %s, %s%s%s.%s", match.ID, seated(match, game.Black), seated(match, game.White), Config(cfg, match.Clock), vacation, ratedNote(match), voteNote)
}

// EngineBegins announces a game against an engine, which begins at once.
func EngineBegins(match *gobot.Match, cfg game.Config, voteNote string) string {
	lv := ""
	if match.EngineLevel > 0 {
		lv = fmt.Sprintf(" at level %d", match.EngineLevel)
	}
	return fmt.Sprintf("Game #%d begins: %s against %s, %s; %s plays%s (%s).%s%s", match.ID, seated(match, game.Black), seated(match, game.White), Config(cfg, match.Clock), match.Engine, lv, ratedWord(match), ClockNote(match.Clock), voteNote)
}

// Withdrawn says challenge c was withdrawn, to whom it was for (to).
func Withdrawn(c *gobot.Challenge, to []gobot.UserID) string {
	if len(to) > 0 {
		return fmt.Sprintf("%s withdrew challenge #%d to %s.", protocol.Mention(c.From), c.ID, Mentions(to))
	}
	return fmt.Sprintf("%s withdrew challenge #%d.", protocol.Mention(c.From), c.ID)
}

// Declined says by declined challenge c.
func Declined(c *gobot.Challenge, by gobot.UserID) string {
	return fmt.Sprintf("%s declined challenge #%d from %s.", protocol.Mention(by), c.ID, protocol.Mention(c.From))
}

// AcceptRefusal words flow.Acceptable's refusals of accepting c.
func AcceptRefusal(err error, c *gobot.Challenge) error {
	switch {
	case errors.Is(err, flow.ErrAnswered):
		return Refusef("Challenge #%d is already %s.", c.ID, c.Status)
	case errors.Is(err, flow.ErrOwnChallenge):
		return Refusef("That is your own challenge; wait for someone to accept it, or %s.", Cmd(fmt.Sprintf("cancel #%d", c.ID)))
	case errors.Is(err, flow.ErrNotForYou):
		return Refusef("Challenge #%d is for %s, not for you.", c.ID, protocol.Mention(c.To))
	}
	return err
}

// AnswerRefusal words flow.Answer's refusals of by's answer to c.
func AnswerRefusal(err error, c *gobot.Challenge, by gobot.UserID) error {
	switch {
	case errors.Is(err, flow.ErrAnswered):
		return Refusef("Challenge #%d is already %s.", c.ID, c.Status)
	case errors.Is(err, flow.ErrNotYours) && c.Names(by):
		decline := Cmd(fmt.Sprintf("decline #%d", c.ID))
		return Shortest(fmt.Sprintf("Only %s can cancel challenge #%d; you may %s it.", protocol.Mention(c.From), c.ID, decline),
			fmt.Sprintf("Only the challenger can cancel challenge #%d; you may %s it.", c.ID, decline))
	case errors.Is(err, flow.ErrNotYours):
		return Shortest(fmt.Sprintf("Only %s, who made challenge #%d, can cancel it.", protocol.Mention(c.From), c.ID),
			fmt.Sprintf("Only the challenger can cancel challenge #%d.", c.ID))
	case errors.Is(err, flow.ErrOwnChallenge):
		return Refusef("That is your own challenge; use %s to withdraw it.", Cmd(fmt.Sprintf("cancel #%d", c.ID)))
	case errors.Is(err, flow.ErrNotForYou):
		return Refusef("Challenge #%d isn't addressed to you, so you can't decline it.", c.ID)
	}
	return err
}

// NoChallenge refuses a challenge reference: there is no challenge id;
// with id 0, none waits for the caller (mine: none of theirs to cancel).
func NoChallenge(id gobot.ChallengeID, mine bool) error {
	switch {
	case id != 0:
		return Refusef("There is no challenge #%d.", id)
	case mine:
		return Refusef("You have no pending challenge to cancel.")
	}
	return Refusef("There is no challenge waiting for you here. Start one with %s.", Cmd("challenge @player"))
}

// OwnChallengeWaits refuses answering one's own challenge c, which
// waits for its opponent, anyone here, or the players of a team
// challenge who have not accepted.
func OwnChallengeWaits(c *gobot.Challenge) error {
	who := "anyone here"
	if c.To != "" {
		who = protocol.Mention(c.To)
	}
	if c.ForTeams() {
		who = Mentions(flow.TeamWaiting(c))
	}
	return Refusef("Your challenge #%d is waiting for %s to accept it; you can't answer your own (%s withdraws it).", c.ID, who, Cmd(fmt.Sprintf("cancel #%d", c.ID)))
}

// WhichChallenge asks which of cands the command means (mine: the
// caller's own, to withdraw).
func WhichChallenge(cands []*gobot.Challenge, mine bool, command string) error {
	var names []string
	for _, c := range cands {
		switch {
		case !mine:
			names = append(names, fmt.Sprintf("#%d from %s", c.ID, protocol.Mention(c.From)))
		case c.To == "":
			names = append(names, fmt.Sprintf("#%d (open to anyone)", c.ID))
		default:
			names = append(names, fmt.Sprintf("#%d to %s", c.ID, protocol.Mention(c.To)))
		}
	}
	return Refusef("Which challenge? %s. Add it, like %s.", protocol.ListSome(names), Cmd(fmt.Sprintf("%s #%d", command, cands[0].ID)))
}
