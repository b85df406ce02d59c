package say

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// BadPoint refuses arg, which err (game.ParsePoint's) says is no point
// of a board of cfg, in the words every command that reads a point uses
// (protocol.PointError).
func BadPoint(arg string, cfg game.Config, err error) error {
	return Refusef("%s", protocol.PointError(arg, cfg.Width, cfg.Height, err))
}

// PlayRefusal words the refusals of the game's play (package flow's
// typed errors) in game l; any other error is returned as it is.
func PlayRefusal(n Namer, l *flow.Loaded, err error) error {
	m, h := l.Match, l.G.Config().Height
	var (
		turn    flow.NotYourTurn
		team    flow.NotTeamTurn
		paused  flow.WhilePaused
		late    flow.TooLate
		illegal flow.IllegalMove
		waiting flow.UndoWaiting
		notMine flow.NotYourMove
		noTake  flow.NoTakeBack
		notA    flow.NotAStone
		none    flow.NoStone
		again   flow.CountAccepted
	)
	switch {
	case errors.As(err, &turn):
		return Refusef("It's not your turn: %s is to play in game #%d.", protocol.Mention(turn.Next), turn.Game)
	case errors.As(err, &team):
		return NotTeamTurn(n, m, team)
	case errors.As(err, &paused):
		return Refusef("Game #%d is paused: both clocks stand still until %s.", paused.Game, Cmd("resume"))
	case errors.As(err, &late):
		return Refusef("Too late: your time in game #%d ran out %s ago — the game is lost on time.", late.Game, protocol.FormatDuration(max(late.By, time.Second)))
	case errors.As(err, &illegal) && errors.Is(err, game.ErrOccupied):
		return Refusef("%s is occupied — choose an empty point.", illegal.Point.GTP(h))
	case errors.As(err, &illegal) && errors.Is(err, game.ErrKo):
		return Refusef("%s would retake the ko — play elsewhere first (a ko threat), then you may take it back.", illegal.Point.GTP(h))
	case errors.As(err, &illegal):
		return illegal.Err
	case errors.As(err, &noTake):
		return Refusef("%s does not take back moves; play on, or %s.", protocol.Mention(gobot.EngineUser(noTake.Engine)), Cmd("resign"))
	case errors.Is(err, flow.NoUndoAsked{}):
		return Refusef("There is no undo request from your opponent to refuse.")
	case errors.As(err, &waiting):
		who := "You already asked"
		if !waiting.You { // a teammate asked
			who = protocol.Mention(waiting.By) + " already asked for your team"
		}
		return Refusef("%s; waiting for %s to answer %s or %s.", who, Answerer(m, waiting.Side.Opponent()), Cmd("undo"), Cmd("undo no"))
	case errors.As(err, &notMine) && notMine.Team:
		return Refusef("You can only ask to take back your team's last move; the last move was %s's (%s).", notMine.Last.Name(), Names(n, m.Side(notMine.Last).Players))
	case errors.As(err, &notMine):
		return Refusef("You can only ask to take back your own last move; the last move was %s's.", notMine.Last.Name())
	case errors.As(err, &notA):
		if notA.Err != nil {
			return BadPoint(notA.Word, l.G.Config(), notA.Err)
		}
		return Refusef("%s isn't a stone: give the stones to mark, like D4.", protocol.Echo(notA.Word))
	case errors.As(err, &none):
		return Refusef("There is no stone at %s to mark.", none.Point.GTP(h))
	case errors.As(err, &again):
		return Refusef("You already accepted this count; waiting for %s.", Answerer(m, again.Side.Opponent()))
	}
	return PauseRefusal(m, err)
}

// Played says u's move in game l: "@alice played D4, capturing 2
// stones.", and the pass the game then made for White.
func Played(l *flow.Loaded, u gobot.UserID, o flow.Played) string {
	s := fmt.Sprintf("%s played %s", protocol.Mention(u), o.Point.GTP(l.G.Config().Height))
	if o.Captured > 0 {
		s += fmt.Sprintf(", capturing %d stone%s", o.Captured, Plural(o.Captured))
	}
	return s + "." + AutoPass(l.Match, o.AutoPass)
}

// AutoPass announces the pass the game made for White after Black's
// move (white-passes placement), when it did.
func AutoPass(m *gobot.Match, did bool) string {
	if !did {
		return ""
	}
	return fmt.Sprintf(" %s (White) passes: under these rules White passes while Black places the handicap stones.", protocol.Mention(m.Side(game.White).ToMove()))
}

// Passed says u's pass, and that the scoring began.
func Passed(m *gobot.Match, u gobot.UserID, o flow.Passed) string {
	s := fmt.Sprintf("%s passed.", protocol.Mention(u))
	if o.Scoring {
		s += fmt.Sprintf(" Both %s passed: the game is being scored.", Sides(m))
	}
	return s
}

// AskResign asks the player of colour me whether to resign match.
func AskResign(n Namer, match *gobot.Match, me game.Color) string {
	opp := match.Side(me.Opponent())
	if match.Side(me).Rotates() { // for the whole team
		return fmt.Sprintf("Resign game #%d for %s against %s?", match.ID, SideName(n, match, me), Names(n, opp.Players))
	}
	return fmt.Sprintf("Resign game #%d against %s?", match.ID, Names(n, []gobot.UserID{opp.ToMove()}))
}

// AbortElsewhere refuses to abort, from another room, game id.
func AbortElsewhere(id gobot.GameID) error {
	return Refusef("Game #%d belongs to another room; abort it there.", id)
}

// Ended says that u resigned (for their side: who) or aborted the game.
func Ended(u gobot.UserID, resigned bool, who string) string {
	if resigned {
		return fmt.Sprintf("%s resigned%s.", protocol.Mention(u), who)
	}
	return fmt.Sprintf("%s aborted the game.", protocol.Mention(u))
}

// Undone says what u's undo command (playing colour me) did in game l.
func Undone(l *flow.Loaded, me game.Color, u gobot.UserID, o flow.Undone) string {
	m := l.Match
	switch o.Answer {
	case flow.UndoRefused:
		return fmt.Sprintf("%s refused to undo; the game goes on.", protocol.Mention(u))
	case flow.UndoAgreed:
		return fmt.Sprintf("%s agreed: move %d (%s %s) was taken back.", protocol.Mention(u), o.Number, o.Taken.Color.Name(), o.Taken.Point.GTP(l.G.Config().Height))
	}
	return fmt.Sprintf("%s asks to take back the last move. %s, answer %s or %s.", protocol.Mention(u), Answerer(m, me.Opponent()), Cmd(fmt.Sprintf("undo #%d", m.ID)), Cmd(fmt.Sprintf("undo no #%d", m.ID)))
}

// UndonePlan is why an undo by agreement cleared a plan.
func UndonePlan(number int) string {
	return fmt.Sprintf("move %d was taken back, so the position it was planned for is gone.", number)
}

// Marked says u's marking (playing colour me) in game l, and whose
// acceptance of the count it withdrew: "@bob changed the dead stones,
// so @alice's acceptance is withdrawn; @alice, check and `done` again."
func Marked(l *flow.Loaded, me game.Color, u gobot.UserID, o flow.Marked) string {
	match, h := l.Match, l.G.Config().Height
	var toggled []string
	for _, t := range o.Toggled {
		state := "alive"
		if t.Dead {
			state = "dead"
		}
		toggled = append(toggled, t.Point.GTP(h)+" "+state)
	}
	lines := []string{fmt.Sprintf("%s marked %s.", protocol.Mention(u), strings.Join(toggled, ", "))}
	for _, c := range o.Withdrew {
		side := match.Side(c)
		if c == me && side.Kind == gobot.SidePerson {
			lines = append(lines, fmt.Sprintf("%s changed the dead stones after accepting, so that acceptance is withdrawn; %s again to accept this count.", protocol.Mention(u), Cmd("done")))
			continue
		}
		// A team's or the room's acceptance may be another member's:
		// it is the side's that is withdrawn.
		if side.Kind == gobot.SideRoom {
			lines = append(lines, fmt.Sprintf("%s changed the dead stones, so the room's acceptance is withdrawn; a voter checks and sends %s again.", protocol.Mention(u), Cmd("done")))
			continue
		}
		whose := protocol.Mention(side.ToMove()) + "'s"
		if side.Rotates() {
			whose = c.Name() + "'s"
		}
		lines = append(lines, fmt.Sprintf("%s changed the dead stones, so %s acceptance is withdrawn; %s, check and %s again.", protocol.Mention(u), whose, Answerer(match, c), Cmd("done")))
	}
	return strings.Join(lines, "\n")
}

// Accepted says u's acceptance of the count for colour me.
func Accepted(n Namer, match *gobot.Match, me game.Color, u gobot.UserID, o flow.Accepted) string {
	if o.Over {
		return fmt.Sprintf("Both %s accepted the count.", Sides(match))
	}
	return fmt.Sprintf("%s accepts the count%s. %s, %s to agree, or mark stones with %s.", protocol.Mention(u), ActsFor(n, match, me), Answerer(match, me.Opponent()), Cmd("done"), Cmd("dead <point>"))
}

// Resumed says u's resume in match.
func Resumed(match *gobot.Match, u gobot.UserID, o flow.Resumed) string {
	if o.Live {
		return fmt.Sprintf("%s resumed game #%d: the clocks run again (%s of pause left).", protocol.Mention(u), match.ID, protocol.FormatDuration(o.PauseLeft))
	}
	return fmt.Sprintf("%s resumed play to settle the position.", protocol.Mention(u))
}

// RanOut says that late's time ran out and game match is lost.
func RanOut(late gobot.UserID) string {
	return fmt.Sprintf("%s ran out of time.", protocol.Mention(late))
}

// Remind reminds late that it is their move in game id, with left on
// the clock.
func Remind(late gobot.UserID, id gobot.GameID, left time.Duration) string {
	return fmt.Sprintf("%s, it's your move in game #%d — %s left.", protocol.Mention(late), id, protocol.FormatDuration(left))
}

// PendingNotAGame says that pending challenge c is not a game yet, and
// what u can do about it: accept it only where it is u's to accept.
func PendingNotAGame(c *gobot.Challenge, u gobot.UserID) error {
	switch {
	case c.From == u:
		return Refusef("#%d is your challenge, not a game yet: it begins when it is accepted.", c.ID)
	case c.To == "" || c.Names(u):
		return Refusef("#%d is a challenge that nobody has accepted yet, not a game: %s takes it.", c.ID, Cmd(fmt.Sprintf("accept #%d", c.ID)))
	}
	return Refusef("#%d is a challenge to %s, not a game yet.", c.ID, protocol.Mention(c.To))
}

// NoGame refuses a reference to game id, which does not exist.
func NoGame(id gobot.GameID) error {
	return Refusef("There is no game #%d. %s lists yours.", id, Cmd("games"))
}

// NoGameHere refuses a command that names no game where the caller has
// none active; mine are their active games elsewhere.
func NoGameHere(mine []*gobot.Match) error {
	if len(mine) > 0 {
		return Refusef("You have no active game in this room; name one like #%d (%s lists them).", mine[0].ID, Cmd("games"))
	}
	return Refusef("You have no active game here. Start one with %s.", Cmd("challenge @player"))
}

// WhichGame refuses a command that names no game where the caller has
// several, here (those it fits first), with the command to write again
// (cmd, as typed) naming the first.
func WhichGame(n Namer, here []*gobot.Match, cmd string) error {
	var c, ids []string
	for _, g := range here {
		vs := fmt.Sprintf("%s vs %s", Called(n, g.Side(game.Black)), Called(n, g.Side(game.White)))
		c = append(c, fmt.Sprintf("#%d (%s)", g.ID, vs))
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	example := Cmd(protocol.ClipRunes(cmd, protocol.MaxEcho) + " #" + fmt.Sprint(here[0].ID))
	return Shortest(fmt.Sprintf("Which game? There are several: %s. Add the game, like %s.", protocol.ListSome(c), example),
		fmt.Sprintf("Which game? There are several: %s. Add the game, like %s.", protocol.ListSome(ids), example))
}

// GameRefusal words flow.Find's refusal of a reference by user u with
// command (cmd, as typed); other errors pass unchanged.
func GameRefusal(n Namer, err error, u gobot.UserID, cmd string) error {
	var (
		none  flow.NoSuchGame
		here  flow.NoGameHere
		which flow.WhichGame
	)
	switch {
	case errors.As(err, &none) && none.Pending != nil:
		return PendingNotAGame(none.Pending, u)
	case errors.As(err, &none):
		return NoGame(none.ID)
	case errors.As(err, &here):
		return NoGameHere(here.Mine)
	case errors.As(err, &which):
		return WhichGame(n, which.Games, cmd)
	}
	return err
}

// IsOver refuses a command on match, which is over.
func IsOver(match *gobot.Match) error {
	return Refusef("Game #%d is over: %s.", match.ID, ResultWords(match.Result))
}
