package say

import (
	"errors"
	"fmt"
	"strings"

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

// ChallengeRefusal words flow.FindChallenge's refusals of a reference
// by command (mine: to the caller's own challenge); other errors are
// returned as they are.
func ChallengeRefusal(err error, mine bool, command string) error {
	var no flow.NoChallenge
	var own flow.OwnChallengeWaits
	var which flow.WhichChallenge
	switch {
	case errors.As(err, &no):
		return noChallenge(no.ID, mine)
	case errors.As(err, &own):
		return ownChallengeWaits(own.C)
	case errors.As(err, &which):
		return whichChallenge(which.Cands, mine, command)
	}
	return err
}

// noChallenge refuses a challenge reference: there is no challenge id;
// with id 0, none waits for the caller (mine: none of theirs to cancel).
func noChallenge(id gobot.ChallengeID, mine bool) error {
	switch {
	case id != 0:
		return Refusef("There is no challenge #%d.", id)
	case mine:
		return Refusef("You have no pending challenge to cancel.")
	}
	return Refusef("There is no challenge waiting for you here. Start one with %s.", Cmd("challenge @player"))
}

// ownChallengeWaits refuses answering one's own challenge c, which
// waits for its opponent, anyone here, or the players of a team
// challenge who have not accepted.
func ownChallengeWaits(c *gobot.Challenge) error {
	who := "anyone here"
	if c.To != "" {
		who = protocol.Mention(c.To)
	}
	if c.ForTeams() {
		who = Mentions(flow.TeamWaiting(c))
	}
	return Refusef("Your challenge #%d is waiting for %s to accept it; you can't answer your own (%s withdraws it).", c.ID, who, Cmd(fmt.Sprintf("cancel #%d", c.ID)))
}

// whichChallenge asks which of cands the command means (mine: the
// caller's own, to withdraw).
func whichChallenge(cands []*gobot.Challenge, mine bool, command string) error {
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

// GameName is game id's name as a message's title: "Game #7".
func GameName(id gobot.GameID) string { return fmt.Sprintf("Game #%d", id) }

// ChallengeSelf refuses a challenge to oneself.
func ChallengeSelf() error {
	return Refusef("You can't challenge yourself — name another player, or leave the player out for an open challenge anyone here can take.")
}

// NotJoined refuses a challenge to u, a player of a platform this room's
// community does not post games in (docs/identity.md).
func NotJoined(u gobot.UserID) error {
	return Refusef("%s plays on %s, which this room's community does not join: challenge someone on this platform, or ask the operator to join the rooms (communities: in the config).", protocol.Echo(string(u)), u.Platform())
}

// UnknownName refuses a challenge to name, which no player of platform
// the bot knows goes by.
func UnknownName(platform, name string) error {
	return Refusef("I know no one on %s called %s: they need to have played or challenged here first, or name them by their ID (%s:@ followed by the digits).", platform, protocol.Echo(name), platform)
}

// SharedName refuses a challenge to name, which several players of
// platform go by: each is named by their ID.
func SharedName(platform, name string, players []gobot.UserID) error {
	var ids []string
	for _, u := range players[:min(len(players), 3)] {
		ids = append(ids, platform+":@"+protocol.ClipArg(u.Local()))
	}
	return Refusef("Several players on %s go by %s: name the one you mean by their ID, like %s.", platform, protocol.Echo(name), strings.Join(ids, " or "))
}

// VoteAcross refuses a vote game with a player of another platform.
func VoteAcross() error {
	return Refusef("A room's vote game is played in one room: leave out vote= to challenge a player of another platform.")
}

// OpenChallengeInDM refuses an open challenge in a direct conversation.
func OpenChallengeInDM() error {
	return Refusef("Nobody else is in this direct conversation to take an open challenge: name your opponent, like %s, or open the challenge in a room.", Cmd("challenge @player"))
}

// VoteNeedsClock refuses clock=none in a vote game against a person;
// roomClock is the room's default clock as typed ("": none).
func VoteNeedsClock(roomClock string) error {
	def := "3 days a move"
	if roomClock != "" && roomClock != "none" {
		def = "this room's default, " + protocol.ClipArg(roomClock)
	}
	return Refusef("A vote game against a person needs a clock (nobody can ask a room to resign): leave clock= out for %s, or give one like clock=1d.", def)
}

// NoClockVacationOff refuses vacation=off in a game without a clock.
func NoClockVacationOff() error {
	return Refusef("vacation=off is for a game with a clock, and this one has none: add one, like clock=3d, or leave vacation=off out.")
}

// LevelWithoutEngine refuses level= in a challenge to a person.
func LevelWithoutEngine() error {
	return Refusef("level= is for games against the computer: add engine=NAME (%s lists them).", Cmd("engines"))
}

// EngineVacation refuses vacation=v in a challenge to an engine.
func EngineVacation(v string) error {
	return Refusef("vacation=%s changes nothing against the computer: vacations never stop an engine game's clock.", v)
}

// EngineAndPerson refuses a challenge to both a person and an engine.
func EngineAndPerson(opponent gobot.UserID) error {
	return Refusef("Play either a person or the computer: leave out %s, or leave out engine=.", protocol.Mention(opponent))
}

// NoEngine refuses a challenge to engine name, which is not among names.
func NoEngine(name string, names []string) error {
	if len(names) > 0 {
		return Refusef("There is no engine %s here; the engines are %s (%s describes them).", protocol.Echo(name), strings.Join(names, ", "), Cmd("engines"))
	}
	return Refusef("This bot has no computer opponent configured. %s says more.", Cmd("engines"))
}

// EngineLevel refuses level, which engine name does not have.
func EngineLevel(name string, levels []int, level int) error {
	return Refusef("%s has levels %s, not %d.", name, IntList(levels), level)
}

// EngineUnrated refuses a rated challenge to engine name, or (auto) one
// with handicap=auto.
func EngineUnrated(name string, auto bool) error {
	if auto {
		return Refusef("handicap=auto needs two ratings; against %s give a number, like handicap=2.", name)
	}
	return Refusef("Games against %s are never rated here; leave out rated.", name)
}

// EnginesOff refuses a challenge to an engine in a room without them;
// hint adds how to turn them on.
func EnginesOff(hint bool) error {
	if hint {
		return Refusef("Games against the computer are turned off in this room (a room admin can turn them on with %s).", Cmd("settings engines=on"))
	}
	return Refusef("Games against the computer are turned off in this room.")
}

// EngineCannot refuses a game engine name can't play (err: why).
func EngineCannot(name string, err error) error {
	return Refusef("%s can't play that game: %s", name, protocol.ClipRunes(err.Error(), 300))
}

// ChallengeReply is challenge c as posted: its text (a vote game's
// window: vote.go), the challenged player mentioned (nobody for an open
// challenge) and its buttons.
func ChallengeReply(c *gobot.Challenge) protocol.Reply {
	text, mentions := Challenge(c, VacationHeader(c.NoVacation)), []gobot.UserID{c.To}
	switch {
	case c.VoteWindow > 0:
		text = VoteChallenge(c, VacationHeader(c.NoVacation))
	case c.To == "":
		mentions = nil
	}
	return protocol.Reply{Title: fmt.Sprintf("Challenge #%d", c.ID), Text: text, Mentions: mentions, Actions: ChallengeActions(c.ID)}
}

// ChallengeActions are a challenge's buttons: accept and decline.
func ChallengeActions(id gobot.ChallengeID) []protocol.Action {
	return []protocol.Action{
		{ID: protocol.Button{Command: "accept", Challenge: id}.ID(), Label: "Accept", Style: protocol.Success},
		{ID: protocol.Button{Command: "decline", Challenge: id}.ID(), Label: "Decline", Style: protocol.Danger},
	}
}
