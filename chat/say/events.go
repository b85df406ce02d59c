package say

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/tournament"
)

// The words of tournaments (chat/tournament.go): their refusals, their
// announcements and their lines.

// TournamentName is "Winter Cup (t3)".
func TournamentName(t *gobot.Tournament) string {
	return fmt.Sprintf("%s (t%d)", clean(t.Name), t.ID)
}

// systemWords name each pairing system with its article.
var systemWords = map[tournament.System]string{tournament.McMahon: "a McMahon", tournament.Swiss: "a Swiss", tournament.RoundRobin: "a round robin",
	tournament.DoubleRoundRobin: "a double round robin", tournament.Elimination: "an elimination"}

// clean drops what would break a line or a code span from a name.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == '`' || r == 0x7f {
			return -1
		}
		return r
	}, s)
}

// TournamentRefused words a tournament refusal (flow.TournamentRefusal);
// other errors pass.
func TournamentRefused(err error) error {
	var e flow.TournamentRefusal
	if !errors.As(err, &e) {
		return err
	}
	name := "The tournament"
	if e.Tournament != nil {
		name = TournamentName(e.Tournament)
	}
	switch e.Problem {
	case flow.NoTournamentHere:
		return Refusef("There is no tournament going on here; an organiser starts one with %s.", Cmd(`tournament new "Winter Cup" mcmahon rounds=5`))
	case flow.WhichTournament:
		var names []string
		for _, t := range e.Choices {
			names = append(names, fmt.Sprintf("t%d", t.ID))
		}
		return Shortest(fmt.Sprintf("Several tournaments go on here (%s): name one, like %s.", protocol.ListSome(names), Cmd(fmt.Sprintf("tournament standings t%d", e.Choices[0].ID))),
			fmt.Sprintf("Several tournaments go on here: name one, like %s.", Cmd(fmt.Sprintf("tournament standings t%d", e.Choices[0].ID))))
	case flow.NoSuchTournament:
		return Refusef("There is no such tournament in this room; %s lists them.", Cmd("tournaments"))
	case flow.NotOrganiser:
		return Refusef("Only %s's organiser and the room's admins can do that.", name)
	case flow.NotRegistering:
		return Refusef("%s has begun, and %s pairs the players it began with: it takes no one new.", name, systemWords[e.Tournament.System])
	case flow.AlreadyJoined:
		return Refusef("You are registered in %s already.", name)
	case flow.NotJoined:
		return Refusef("%s is not registered in %s.", protocol.Mention(e.User), name)
	case flow.TournamentFull:
		return Refusef("%s is full: it takes at most %d players.", name, e.Tournament.MaxPlayers)
	case flow.RegistrationClosed:
		return Refusef("Registration for %s has closed.", name)
	case flow.TooFewPlayers:
		return Refusef("%s needs at least two players to pair a round; %s registers.", name, Cmd("tournament join"))
	case flow.RoundGoesOn:
		return Refusef("Round %d of %s is still being played (%d %s to go); the next round is paired when it ends.", len(e.Tournament.Played), name, e.Left, plural(e.Left, "game"))
	case flow.AllRoundsPlayed:
		return Refusef("%s has played all its rounds; %s ends it.", name, Cmd("tournament end"))
	case flow.NotStarted:
		return Refusef("%s has not begun; %s pairs its first round.", name, Cmd("tournament start"))
	case flow.TournamentOver:
		return Refusef("%s is over.", name)
	case flow.AlreadyStarted:
		return Refusef("%s has begun already; %s shows its rounds.", name, Cmd("tournament pairings"))
	case flow.NotTournamentGame:
		return Refusef("Game #%d is not a game of %s.", e.Game, name)
	case flow.ByeNotNeeded:
		return Refusef("The next round of %s has an even number of players: nobody needs a bye.", name)
	case flow.Unclaimed:
		return Shortest(fmt.Sprintf("The next round of %s pairs players nobody here is yet: %s. Each joins as themselves, like %s.", name, protocol.ListSome(e.Names), Cmd(fmt.Sprintf("tournament join \"%s\"", clean(e.Names[0])))),
			fmt.Sprintf("The next round of %s pairs %d players nobody here is yet; each joins as themselves with %s.", name, len(e.Names), Cmd(`tournament join "Name"`)))
	case flow.NoSuchName:
		return Refusef("%s has no player named %s.", name, protocol.Echo(e.Names[0]))
	case flow.NameClaimed:
		return Refusef("%s is %s in %s already.", protocol.Mention(e.User), protocol.Echo(e.Names[0]), name)
	case flow.FixedSchedule:
		return Refusef("%s is %s: its schedule is fixed, so nobody leaves it; the organiser records the games not played with %s.", name, systemWords[e.Tournament.System], Cmd("tournament result #12 B+forfeit"))
	case flow.RoundPaired:
		return Refusef("Round %d of %s is paired already; a start time is for a round to come.", e.Round, name)
	case flow.StartPassed:
		return Refusef("That time has passed: round %d of %s needs a start time still to come.", e.Round, name)
	case flow.NoSuchRound:
		return Refusef("%s has no round %d.", name, e.Round)
	case flow.NeedsWinner:
		return Refusef("Game #%d of %s has no winner, and an elimination needs one: record it with %s.", e.Game, name, Cmd(fmt.Sprintf("tournament result #%d B+", e.Game)))
	case flow.Withdrawn:
		return Refusef("%s has withdrawn from %s.", protocol.Mention(e.User), name)
	}
	return err
}

// TournamentMade announces a tournament made, and how to join.
func TournamentMade(t *gobot.Tournament) string {
	s := fmt.Sprintf("%s: %s", TournamentName(t), systemWords[t.System])
	if t.Rounds > 0 && (t.System == tournament.McMahon || t.System == tournament.Swiss) {
		s += fmt.Sprintf(" of %d %s", t.Rounds, plural(t.Rounds, "round"))
	}
	s += fmt.Sprintf(" on %dx%d, %s, clock %s", t.Size, t.Size, komiWords(t), protocol.FormatClock(t.Clock))
	if t.Rated {
		s += ", rated"
	}
	s += ". " + fmt.Sprintf("Join with %s", Cmd("tournament join"))
	if !t.RegistrationCloses.IsZero() {
		s += fmt.Sprintf("; registration closes %s and the first round follows", t.RegistrationCloses.UTC().Format("Jan 2 15:04 MST"))
	} else {
		s += fmt.Sprintf("; the organiser starts it with %s", Cmd("tournament start"))
	}
	return s + "."
}

func komiWords(t *gobot.Tournament) string {
	return fmt.Sprintf("komi %g", t.Rules.Komi)
}

// TournamentJoined says u joined t (n players now).
func TournamentJoined(t *gobot.Tournament, u gobot.UserID, late bool) string {
	s := fmt.Sprintf("%s joined %s: %d %s.", protocol.Mention(u), TournamentName(t), len(t.Players), plural(len(t.Players), "player"))
	if late {
		s += fmt.Sprintf(" They enter from round %d.", len(t.Played)+1)
	}
	return s
}

// TournamentLeft says u left t (withdrawn: from the next round on).
func TournamentLeft(t *gobot.Tournament, u gobot.UserID, by gobot.UserID) string {
	who := protocol.Mention(u)
	if t.State == gobot.Registering {
		return fmt.Sprintf("%s left %s: %d %s.", who, TournamentName(t), len(t.Players), plural(len(t.Players), "player"))
	}
	if by != u {
		return fmt.Sprintf("%s withdrew %s from %s: they are paired no more.", protocol.Mention(by), who, TournamentName(t))
	}
	return fmt.Sprintf("%s withdrew from %s: they are paired no more.", who, TournamentName(t))
}

// TournamentBye says u takes the next round's bye.
func TournamentBye(t *gobot.Tournament, u gobot.UserID) string {
	return fmt.Sprintf("%s takes the bye in round %d of %s.", protocol.Mention(u), len(t.Played)+1, TournamentName(t))
}

// TournamentEnded says t ended, with its standings (a table).
func TournamentEnded(t *gobot.Tournament, standings string) string {
	return fmt.Sprintf("%s is over. Final standings:\n%s", TournamentName(t), standings)
}

// RoundPaired announces round rd of t: each board's game and who plays
// it, the bye and who sits out.
func RoundPaired(t *gobot.Tournament, rd int, games []gobot.GameID) string {
	r := t.Played[rd-1]
	var b strings.Builder
	fmt.Fprintf(&b, "Round %d of %s is paired:", rd, TournamentName(t))
	for i, g := range r.Games {
		hc := "even"
		if g.Handicap > 0 {
			hc = fmt.Sprintf("h%d", g.Handicap)
		}
		id := gobot.GameID(0)
		if i < len(games) {
			id = games[i]
		}
		fmt.Fprintf(&b, "\nBoard %d: %s (B) vs %s (W), %s, game #%d", g.Table, who(t, g.Black), who(t, g.White), hc, id)
	}
	for _, p := range r.Byes {
		fmt.Fprintf(&b, "\nBye: %s", who(t, p))
	}
	return b.String()
}

// TournamentGame is a round's game's line, above its board.
func TournamentGame(t *gobot.Tournament, rd, table int) string {
	return fmt.Sprintf("%s, round %d, board %d: your game begins.", TournamentName(t), rd, table)
}

// TournamentResult says the organiser recorded game id's result in t.
func TournamentResult(t *gobot.Tournament, id gobot.GameID, res tournament.Result, forfeit bool) string {
	r := res.String()
	if forfeit {
		r += " by forfeit"
	}
	return fmt.Sprintf("Game #%d of %s: the result is %s.", id, TournamentName(t), r)
}

// TournamentLines are a room's tournaments, one line each.
func TournamentLines(ts []*gobot.Tournament) string {
	if len(ts) == 0 {
		return fmt.Sprintf("No tournaments here yet; %s makes one.", Cmd(`tournament new "Winter Cup" mcmahon rounds=5`))
	}
	var lines []string
	for _, t := range ts {
		state := t.State.String()
		if t.State == gobot.Running {
			state = fmt.Sprintf("round %d", len(t.Played))
			if t.Rounds > 0 && (t.System == tournament.McMahon || t.System == tournament.Swiss) {
				state += fmt.Sprintf(" of %d", t.Rounds)
			}
		}
		lines = append(lines, fmt.Sprintf("%s — %s, %d %s, %s", TournamentName(t), strings.TrimPrefix(strings.TrimPrefix(systemWords[t.System], "a "), "an "), len(t.Players), plural(len(t.Players), "player"), state))
	}
	return strings.Join(lines, "\n")
}

// TournamentFile says what the posted file of t is.
func TournamentFile(t *gobot.Tournament, h9 bool) string {
	if h9 {
		return fmt.Sprintf("%s as an EGF results file (.h9), for rating submission.", TournamentName(t))
	}
	return fmt.Sprintf("%s as an OpenGotha tournament file: OpenGotha 3.51 opens it with its players, rounds and results.", TournamentName(t))
}

// TournamentImported says a tournament was imported from a file, with
// what of the file gobot keeps but does not apply (notes).
func TournamentImported(t *gobot.Tournament, notes []string) string {
	s := fmt.Sprintf("Imported %s: %s, %d %s, %d %s played. Each of you joins as the player you are, like %s; the next round is paired as OpenGotha pairs it (%s).",
		TournamentName(t), systemWords[t.System], len(t.Players), plural(len(t.Players), "player"), len(t.Played), plural(len(t.Played), "round"),
		Cmd(fmt.Sprintf("tournament join \"%s\"", clean(t.Players[0].FullName()))), Cmd("tournament pair"))
	if len(notes) > 0 {
		s += " Kept but not applied: " + protocol.ClipBytes(strings.Join(notes, "; "), 600) + "."
	}
	return s
}

// who mentions t's player id: the user they are here, else their name.
func who(t *gobot.Tournament, id tournament.PlayerID) string {
	for _, p := range t.Players {
		if p.ID == id {
			if p.User != "" {
				return protocol.Mention(p.User)
			}
			return clean(p.FullName())
		}
	}
	return string(id)
}

// TournamentClaimed says u is an imported player of t.
func TournamentClaimed(t *gobot.Tournament, u gobot.UserID) string {
	for _, p := range t.Players {
		if p.User == u {
			return fmt.Sprintf("%s is %s in %s.", protocol.Mention(u), clean(p.FullName()), TournamentName(t))
		}
	}
	return TournamentJoined(t, u, false)
}
