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

// The words of vacations: the account, its start and end, and what
// they did to each game's clock.

const day = 24 * time.Hour

// PausedNote says why a paused game's clock is stopped: "clock stopped:
// @alice is on vacation".
func PausedNote(match *gobot.Match) string {
	var who []string
	for _, u := range match.PausedBy {
		who = append(who, protocol.Mention(u))
	}
	verb := "is"
	if len(who) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("clock stopped: %s %s on vacation", strings.Join(who, " and "), verb)
}

// VacationHeader is what the game's header adds about vacation.
func VacationHeader(noVacation bool) string {
	if noVacation {
		return ", vacation=off (vacations do not stop its clock)"
	}
	return ""
}

func formatWhen(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }

// formatDays is a vacation balance in words: "14 days", "2d 3h".
func formatDays(d time.Duration) string {
	d = d.Truncate(time.Second)
	if d > 0 && d%day == 0 {
		n := int(d / day)
		if n == 1 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", n)
	}
	return protocol.FormatDuration(d)
}

// vacationsOff is said when the bot's vacations are turned off.
const vacationsOff = "Vacations are turned off on this bot: your games' clocks run as usual."

// VacationShown is `vacation`: account v under cfg at now, and when it
// is on the games whose clocks it stopped.
func VacationShown(cfg flow.VacationConfig, v gobot.Vacation, stopped []gobot.GameID, now time.Time) string {
	earn := fmt.Sprintf("You earn %s a week from your first game, up to %s.", formatDays(cfg.PerWeek), formatDays(cfg.Max))
	if cfg.PerWeek <= 0 {
		earn = "No days are earned here."
	}
	if cfg.Off && !v.On() {
		return vacationsOff
	}
	if v.On() {
		text := fmt.Sprintf("You are on vacation until %s: %s left. %s ends it.", formatWhen(v.End), formatDays(v.End.Sub(now)), Cmd("vacation off"))
		if len(stopped) > 0 {
			text += " Stopped clocks: " + protocol.ListSome(gameList(stopped)) + "."
		}
		return text + " " + earn
	}
	return fmt.Sprintf("You have %s of vacation left. %s %s stops the clocks of your games against people until you are back (%s), or until the days run out.",
		formatDays(v.Left), earn, Cmd("vacation on"), Cmd("vacation off"))
}

func gameList(ids []gobot.GameID) []string {
	var s []string
	for _, id := range ids {
		s = append(s, fmt.Sprintf("#%d", id))
	}
	return s
}

// VacationRefused words a flow.VacationRefusal under cfg (other errors
// are returned as they are).
func VacationRefused(cfg flow.VacationConfig, err error) error {
	var e flow.VacationRefusal
	if !errors.As(err, &e) {
		return err
	}
	switch e.Problem {
	case flow.VacationsOff:
		return Refusef("%s", vacationsOff)
	case flow.AlreadyAway:
		return Refusef("You are already on vacation, until %s; %s ends it.", formatWhen(e.Vacation.End), Cmd("vacation off"))
	case flow.NoDaysLeft:
		if cfg.PerWeek <= 0 {
			return Refusef("You have no vacation days left, and none are earned here.")
		}
		return Refusef("You have no vacation days left: you earn %s a week from your first game.", formatDays(cfg.PerWeek))
	}
	return Refusef("You are not on vacation; %s starts it.", Cmd("vacation on"))
}

// VacationStarted is `vacation on`'s reply: vacation v began, and did
// what did says in each of games (flow.StopClocks).
func VacationStarted(v gobot.Vacation, games []*flow.Loaded, did []flow.VacationGame) string {
	why := map[flow.VacationClock]string{flow.ClockTeam: "a team game: your turns pass to a teammate", flow.ClockTeamAway: "a team game: its clock runs on",
		flow.ClockNotStopped: "vacation=off", flow.ClockLive: "a live game", flow.ClockOutOfTime: "out of time already"}
	var stopped, running []string
	for i, l := range games {
		switch c := did[i].Clock; {
		case c == flow.ClockStopped:
			stopped = append(stopped, fmt.Sprintf("#%d", l.Match.ID))
		case why[c] != "":
			running = append(running, fmt.Sprintf("#%d (%s)", l.Match.ID, why[c]))
		}
	}
	text := fmt.Sprintf("You are on vacation until %s (%s).", formatWhen(v.End), formatDays(v.Left))
	if len(stopped) > 0 {
		text += " Clocks stopped: " + protocol.ListSome(stopped) + "; your opponents are told."
	} else {
		text += " None of your games has a clock to stop."
	}
	if len(running) > 0 {
		text += " Still running: " + protocol.ListSome(running) + "."
	}
	return text + fmt.Sprintf(" %s ends it.", Cmd("vacation off"))
}

// ClockStopped tells u's opponent in game l that u's vacation v stopped
// its clock.
func ClockStopped(u gobot.UserID, v gobot.Vacation, l *flow.Loaded) string {
	m := l.Match
	text := fmt.Sprintf("%s is on vacation until %s: the clock of game #%d is stopped", protocol.Mention(u), formatWhen(v.End), m.ID)
	if l.G.Phase() == game.Playing && !flow.VoteWindowRuns(l) {
		text += fmt.Sprintf(", with %s left for %s", protocol.FormatDuration(m.PausedLeft), protocol.Mention(m.Side(l.G.ToMove()).ToMove()))
	}
	return text + ". Moves can still be played."
}

// ClockRestarted tells u's opponent in game l that u is back from
// vacation, and what became of its clock at now (flow.RestartClocks:
// ClockRestarted or ClockHeld).
func ClockRestarted(u gobot.UserID, l *flow.Loaded, c flow.VacationClock, now time.Time) string {
	m := l.Match
	if c == flow.ClockHeld {
		return fmt.Sprintf("%s is back from vacation; game #%d stays stopped (%s).", protocol.Mention(u), m.ID, PausedNote(m))
	}
	text := fmt.Sprintf("%s is back from vacation: the clock of game #%d runs again", protocol.Mention(u), m.ID)
	if l.G.Phase() == game.Playing && !flow.VoteWindowRuns(l) {
		text += fmt.Sprintf(", %s (%s) to play with %s left", protocol.Mention(m.Side(l.G.ToMove()).ToMove()), l.G.ToMove().Name(), protocol.FormatDuration(max(m.Deadline.Sub(now), 0)))
	}
	return text + "."
}

// ClocksRestarted says, for the player back, what their vacation's end
// did in games (flow.RestartClocks); "" when it restarted or held none.
func ClocksRestarted(games []*flow.Loaded, did []flow.VacationGame) string {
	var running, held []string
	for i, l := range games {
		switch did[i].Clock {
		case flow.ClockRestarted:
			running = append(running, fmt.Sprintf("#%d", l.Match.ID))
		case flow.ClockHeld:
			held = append(held, fmt.Sprintf("#%d", l.Match.ID))
		}
	}
	var s []string
	if len(running) > 0 {
		s = append(s, "Clocks running again: "+protocol.ListSome(running)+".")
	}
	if len(held) > 0 {
		s = append(s, map[bool]string{true: "Still stopped, as your opponent is on vacation too: ", false: "Still stopped, as your opponents there are on vacation too: "}[len(held) == 1]+protocol.ListSome(held)+".")
	}
	return strings.Join(s, " ")
}

// WelcomeBack is `vacation off`'s reply: left is the account's balance,
// restarted what ClocksRestarted said.
func WelcomeBack(left time.Duration, restarted string) string {
	text := fmt.Sprintf("Welcome back: your vacation is over, with %s left.", formatDays(left))
	if restarted != "" {
		text += " " + restarted
	}
	return text
}

// VacationRanOut tells a player their vacation ended as its days ran
// out; restarted is what ClocksRestarted said.
func VacationRanOut(restarted string) string {
	return strings.TrimSpace("Your vacation days ran out, so your vacation is over. " + restarted)
}

// VacationEnding reminds a player at now that vacation v ends soon.
func VacationEnding(v *gobot.Vacation, now time.Time) string {
	return fmt.Sprintf("Your vacation ends on %s, in %s: then the clocks of your games run again. %s ends it sooner.", formatWhen(v.End), protocol.FormatDuration(v.End.Sub(now)), Cmd("vacation off"))
}

// VacationDoc is docs/commands.md's paragraph on clocks and vacation
// (written by chat's TestCommandsDoc).
const VacationDoc = `
Clocks and vacation: ` + "`vacation on`" + ` stops the clock of every game you play against a person that has one,
except team games (your turns pass at once to a teammate who is not away) and games challenged with ` + "`vacation=off`" + ` (tournaments); your opponents are told (in a vote game, the room: its turns' clock stops too, but a running voting window goes on). A stopped clock keeps
the time the player to move had left: no reminder and no loss on time while it is stopped, and moves may
still be played (per move: the next player's full time is kept; Fischer: the mover's bank plus the
increment, up to the maximum, and the next player's bank). When the vacation ends (` + "`vacation off`" + `, or
when the days run out: a reminder comes a day before) each clock runs again from the time kept, to the
second, whoever's turn it is. A game whose two players are away waits for both. A game that begins
while one of its players is away starts with its clock stopped. Days are spent in real time, by the
second: everyone starts with 14, earns one more each week counted from their first game, and holds at
most 30 (the operator's ` + "`vacation:`" + ` settings may change the three numbers); days earned during a
vacation are credited when it ends. (Players who played before vacations existed count their weeks
from their next game.)
`
