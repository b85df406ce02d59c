package flow

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Team games (rengo): two teams of 1 to gobot.MaxTeam players. The
// challenger names both teams; every other named player accepts; the
// game begins with the last acceptance. Turns alternate between the
// teams and rotate within each (gobot.Teams.Turn); only the player whose
// turn it is plays or passes, any member resigns, asks or answers an
// undo, marks dead stones or accepts the count for the team. A player who
// runs out of time hands the turn to the next teammate; the team loses
// on time when all of them in a row have. Team games are unrated.

// TeamsProblem is what is wrong with the teams a team game is proposed
// with (TeamsRefusal).
type TeamsProblem int

const (
	NoSecondTeam  TeamsProblem = iota + 1 // nothing after vs (or no vs)
	NoFirstTeam                           // nothing before vs
	TeamTooLarge                          // more than gobot.MaxTeam players in a team
	NamedTwice                            // User is named twice
	EngineInTeam                          // User is an engine
	ProposerNotIn                         // the proposer plays in neither team
	TwoPlayers                            // one player a side: a game between two players
)

// TeamsRefusal refuses the teams a team game is proposed with
// (CheckTeams).
type TeamsRefusal struct {
	Problem TeamsProblem
	User    gobot.UserID // NamedTwice, EngineInTeam: the player
}

func (e TeamsRefusal) Error() string {
	return fmt.Sprintf("flow: teams refused (problem %d, %s)", e.Problem, e.User)
}

// CheckTeams refuses a team game between first and second proposed by
// proposer unless each team has 1 to gobot.MaxTeam people, each named
// once, the proposer among them, and more than two players in all.
func CheckTeams(first, second []gobot.UserID, proposer gobot.UserID) error {
	switch {
	case len(second) == 0:
		return TeamsRefusal{Problem: NoSecondTeam}
	case len(first) == 0:
		return TeamsRefusal{Problem: NoFirstTeam}
	case len(first) > gobot.MaxTeam || len(second) > gobot.MaxTeam:
		return TeamsRefusal{Problem: TeamTooLarge}
	}
	seen := map[gobot.UserID]bool{}
	for _, u := range append(slices.Clone(first), second...) {
		if seen[u] {
			return TeamsRefusal{Problem: NamedTwice, User: u}
		}
		if u.Platform() == gobot.EnginePlatform {
			return TeamsRefusal{Problem: EngineInTeam, User: u}
		}
		seen[u] = true
	}
	if !seen[proposer] {
		return TeamsRefusal{Problem: ProposerNotIn}
	}
	if len(seen) == 2 {
		return TeamsRefusal{Problem: TwoPlayers}
	}
	return nil
}

// ProposeTeams stores team challenge c (its teams checked: CheckTeams)
// under a number no game has had. The first team named (c.Teams.Black)
// takes the colour given (c.Color); "random" is drawn now from the
// challenge's number, so the challenge says who plays what.
func ProposeTeams(tx gobot.Tx, c *gobot.Challenge) error {
	if err := Propose(tx, c); err != nil {
		return err
	}
	first, second := c.Teams.Black, c.Teams.White
	swap := c.Color == "white"
	if c.Color == "random" {
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%s|%s", c.ID, first[0], second[0])
		swap = h.Sum32()%2 == 1
	}
	if swap {
		c.Teams.Black, c.Teams.White = second, first
	}
	return tx.PutChallenge(c)
}

// TeamWaiting are the players of team challenge c who have not accepted
// yet (the challenger agreed by proposing it).
func TeamWaiting(c *gobot.Challenge) []gobot.UserID {
	return slices.DeleteFunc(c.Teams.Members(), func(u gobot.UserID) bool {
		return u == c.From || slices.Contains(c.Teams.Accepted, u)
	})
}

// AnswerProblem is why an answer to a team challenge is refused
// (AnswerRefusal).
type AnswerProblem int

const (
	Answered        AnswerProblem = iota + 1 // the challenge is no longer pending
	OwnChallenge                             // the one answering proposed it
	NotNamed                                 // the one answering is in neither team
	AlreadyAccepted                          // the one accepting did already
)

// AnswerRefusal refuses an answer to team challenge Challenge.
type AnswerRefusal struct {
	Problem   AnswerProblem
	Challenge *gobot.Challenge
}

func (e AnswerRefusal) Error() string {
	return fmt.Sprintf("flow: answer to team challenge #%d refused (problem %d)", e.Challenge.ID, e.Problem)
}

// answerable refuses u's answer to team challenge c.
func answerable(c *gobot.Challenge, u gobot.UserID, accept bool) error {
	switch {
	case c.Status != gobot.Pending:
		return AnswerRefusal{Answered, c}
	case c.From == u:
		return AnswerRefusal{OwnChallenge, c}
	case c.Teams.ColorOf(u) == game.Empty:
		return AnswerRefusal{NotNamed, c}
	case accept && slices.Contains(c.Teams.Accepted, u):
		return AnswerRefusal{AlreadyAccepted, c}
	}
	return nil
}

// TeamAccepted is the outcome of AcceptTeam.
type TeamAccepted struct {
	Waiting []gobot.UserID // who has yet to accept; none: the game began
	Began   *Loaded        // the game begun with the last acceptance, stored
	Turns   TurnsPassed    // turns passed at once from players away (PassAwayTurns)
	Corrupt []error        // player records GameBegins left out
}

// AcceptTeam is u's acceptance of team challenge c at now. The last one
// begins the game, under the challenge's number: the teams cloned
// (a team shares its colour's clock), the clock started, the players'
// week count begun (GameBegins), a turn of a player away passed on, the
// game stored and the challenge marked accepted.
func AcceptTeam(tx gobot.Tx, cfg VacationConfig, c *gobot.Challenge, u gobot.UserID, now time.Time) (TeamAccepted, error) {
	if err := answerable(c, u, true); err != nil {
		return TeamAccepted{}, err
	}
	c.Teams.Accepted = append(c.Teams.Accepted, u)
	if left := TeamWaiting(c); len(left) > 0 {
		return TeamAccepted{Waiting: left}, tx.PutChallenge(c)
	}
	g, err := game.New(c.Config)
	if err != nil {
		return TeamAccepted{}, err
	}
	teams := c.Teams.Clone()
	teams.Accepted = nil
	match := &gobot.Match{ID: gobot.GameID(c.ID), Room: c.Room, Black: teams.Black[0], White: teams.White[0], Record: g.Record(),
		Clock: c.Clock, Challenge: c.ID, Created: now, Updated: now, Teams: teams}
	match.StartClocks() // a team shares its colour's clock
	StartClock(match, g, now)
	out := TeamAccepted{Began: &Loaded{Match: match, G: g}}
	if out.Corrupt, err = GameBegins(tx, cfg, out.Began, now); err != nil { // vacation.go: the week count
		return TeamAccepted{}, err
	}
	out.Turns = PassAwayTurns(tx, out.Began)
	if err := tx.InsertMatch(match); err != nil {
		return TeamAccepted{}, err
	}
	c.Status, c.Game, c.Answered = gobot.Accepted, match.ID, now
	return out, tx.PutChallenge(c)
}

// DeclineTeam is u's decline of team challenge c at now: any named
// player's decline cancels it.
func DeclineTeam(tx gobot.Tx, c *gobot.Challenge, u gobot.UserID, now time.Time) error {
	if err := answerable(c, u, false); err != nil {
		return err
	}
	c.Status, c.Answered = gobot.Declined, now
	return tx.PutChallenge(c)
}

// TurnCycle is how many turns a team game between teams of a and b
// players takes before its order repeats: the teams alternate and each
// rotates through its own players (gobot.Teams.Turn), so twice the least
// common multiple of the sizes (2 against 3 takes 12 turns).
func TurnCycle(a, b int) int {
	x, y := a, b
	for y != 0 {
		x, y = y, x%y
	}
	return 2 * a * b / x
}

// NotTeamTurn refuses a move by a team member whose turn it is not:
// Next of colour Color is to play in Game.
type NotTeamTurn struct {
	Game  gobot.GameID
	Next  gobot.UserID
	Color game.Color
}

func (e NotTeamTurn) Error() string {
	return fmt.Sprintf("flow: game #%d: %s's turn", e.Game, e.Next)
}

// TeamTurn refuses a move by u in team game l unless it is u's turn.
func TeamTurn(l *Loaded, u gobot.UserID) error {
	next := l.Match.Side(l.G.ToMove()).ToMove()
	if next == u {
		return nil
	}
	return NotTeamTurn{Game: l.Match.ID, Next: next, Color: l.G.ToMove()}
}

// TurnsPassed is the outcome of PassAwayTurns: the turn of team Color
// passed on from Away, on vacation, to To. With AllAway every player of
// the team is away and the turn stays with To. The zero TurnsPassed:
// the player to move is present.
type TurnsPassed struct {
	Color   game.Color
	Away    []gobot.UserID
	To      gobot.UserID
	AllAway bool
}

// PassAwayTurns passes a team game's turn on from players on vacation
// (vacation.go) to the next teammate who is not, at once: team games'
// clocks do not stop for a vacation, so the team plays on without its
// absent members. Unlike a timeout it is no step towards losing on
// time, and the clock runs on as it stands. A team whose players are
// all away keeps its turn. Call it on the stored state: after a move is
// recorded in l.Match.
func PassAwayTurns(tx gobot.Tx, l *Loaded) TurnsPassed {
	m := l.Match
	if !m.Side(l.G.ToMove()).Rotates() || !m.Active() || l.G.Phase() != game.Playing {
		return TurnsPassed{}
	}
	c := l.G.ToMove()
	team := m.Side(c).Players
	var away []gobot.UserID
	for range team {
		u := m.Side(c).ToMove()
		if !OnVacation(tx, u) {
			break
		}
		away = append(away, u)
		m.Teams.Skipped[c]++
	}
	if len(away) == 0 {
		return TurnsPassed{}
	}
	t := TurnsPassed{Color: c, Away: away, AllAway: len(away) == len(team)}
	if t.AllAway { // the turn stays where it was
		m.Teams.Skipped[c] -= len(team)
	} else {
		m.Reminded = 0 // the reminders are the new player's to get
	}
	t.To = m.Side(c).ToMove()
	return t
}

// PassTurnNow passes team game l's turn on from players on vacation
// (PassAwayTurns) when u's vacation starts or ends, and stores the game
// when that is to be said. That the team to move is all away is said
// only when u is one of them (u's vacation made it so), not on every
// teammate's or opponent's vacation after: then, as when the player to
// move is present, the zero TurnsPassed.
func PassTurnNow(tx gobot.Tx, l *Loaded, u gobot.UserID, now time.Time) (TurnsPassed, error) {
	before := l.Match.Side(l.G.ToMove()).ToMove()
	t := PassAwayTurns(tx, l)
	if len(t.Away) == 0 || (t.To == before && l.Match.ColorOf(u) != l.G.ToMove()) {
		return TurnsPassed{}, nil
	}
	l.Match.Updated = now
	return t, save(tx, l.Match)
}

// TeamTimedOut is the outcome of TeamTimeout: Late of team Color ran
// out of time and the turn passed to Next (and on from Next, if away:
// Turns).
type TeamTimedOut struct {
	Color      game.Color
	Late, Next gobot.UserID
	Turns      TurnsPassed
}

// TeamTimeout handles a team game's deadline passing at now: the turn
// goes to the next player of the team to move, whose turn starts afresh,
// and the game is stored, unless every one of them has now timed out in
// a row; then handled is false and the team loses on time as a player
// would.
func TeamTimeout(tx gobot.Tx, l *Loaded, now time.Time) (out TeamTimedOut, handled bool, err error) {
	match, c := l.Match, l.G.ToMove()
	if !match.Side(c).Rotates() || match.Clock.Live() {
		// A live game's team shares one clock: when it runs out, the
		// team loses on time, as one player would.
		return TeamTimedOut{}, false, nil
	}
	t := match.Teams
	// The run that loses is every player present: members on vacation
	// have no turns (PassAwayTurns); with all away, every member.
	present := TeamPresence(tx, match, c).Present
	if need := cmp.Or(len(present), len(t.Team(c))); t.Late[c]+1 >= need {
		return TeamTimedOut{}, false, nil
	}
	out = TeamTimedOut{Color: c, Late: match.Side(c).ToMove()}
	t.Late[c]++
	t.Skipped[c]++
	out.Next = match.Side(c).ToMove()
	out.Turns = PassAwayTurns(tx, l)       // the next one may be away
	match.SetClock(c, match.Clock.Start()) // the next player's turn starts afresh
	StartClock(match, l.G, now)
	match.Updated = now
	return out, true, save(tx, match)
}

// Presence splits a team into its players who are not on vacation and
// those who are.
type Presence struct{ Present, Away []gobot.UserID }

// TeamPresence is the presence of colour c's team in match (the zero
// Presence when c is no team).
func TeamPresence(tx gobot.Tx, match *gobot.Match, c game.Color) (p Presence) {
	if !match.Side(c).Rotates() {
		return p
	}
	for _, u := range match.Side(c).Players {
		if OnVacation(tx, u) {
			p.Away = append(p.Away, u)
		} else {
			p.Present = append(p.Present, u)
		}
	}
	return p
}

// Code names the refusal (Refusal).
func (TeamsRefusal) Code() string { return "teams-refusal" }

// Code names the refusal (Refusal).
func (AnswerRefusal) Code() string { return "answer-refusal" }

// Code names the refusal (Refusal).
func (NotTeamTurn) Code() string { return "not-team-turn" }
