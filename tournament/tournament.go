// Package tournament pairs and scores tournaments: McMahon and Swiss rounds
// paired as OpenGotha 3.51 pairs them with its default parameters, round
// robins by Berger tables, single elimination brackets seeded by rank, and
// standings with OpenGotha's scores and tie-breaks. It does no I/O: a
// tournament is a value, and pairing a round returns the round.
package tournament

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot/game"
)

// System is how a tournament's rounds are paired.
type System int

// The pairing systems.
const (
	McMahon          System = iota + 1 // OpenGotha's McMahon: groups by McMahon score, handicap from the score difference
	Swiss                              // OpenGotha's Swiss: groups by number of wins, even games
	RoundRobin                         // everyone plays everyone once, by Berger tables
	DoubleRoundRobin                   // everyone plays everyone twice, colours reversed in the second cycle
	Elimination                        // single elimination, a bracket seeded by rank
)

// String names the system as a command would.
func (s System) String() string {
	switch s {
	case McMahon:
		return "mcmahon"
	case Swiss:
		return "swiss"
	case RoundRobin:
		return "roundrobin"
	case DoubleRoundRobin:
		return "double-roundrobin"
	case Elimination:
		return "elimination"
	}
	return fmt.Sprintf("System(%d)", int(s))
}

// PlayerID identifies a player within a tournament (the bot keeps its
// user's ID here).
type PlayerID string

// Player is a registered player.
type Player struct {
	ID PlayerID
	// Name is the family name, or the whole name when there is no first
	// name. OpenGotha breaks ties and draws its deterministic "random"
	// numbers from Name then FirstName, so they take part in pairing.
	Name      string
	FirstName string
	Rank      game.Rank
	// Rating is an EGF-style rating (100 points a grade, 2100 at 1d);
	// RatingForRank gives the one OpenGotha assumes for a rank. It orders
	// players of equal score within a group.
	Rating  int
	Club    string // optional; McMahon pairing avoids pairing a club with itself
	Country string // optional; likewise
	// Joined is the number of rounds already paired when the player
	// registered: a late joiner counts as absent in the rounds before.
	Joined int
}

// RatingForRank is the rating OpenGotha gives a player who has only a
// rank: 2100 at 1d, 100 a grade.
func RatingForRank(r game.Rank) int {
	return (ogRank(r)+30)*100 - 900
}

// Result is a game's outcome.
type Result int

// The results OpenGotha records. BothLose and BothWin are an organiser's
// decisions (a game annulled with a loss for both, or a win for both).
const (
	Unknown Result = iota
	WhiteWins
	BlackWins
	Jigo
	BothLose
	BothWin
)

// String writes the result as in a results table ("W+", "B+", "jigo", …).
func (r Result) String() string {
	switch r {
	case Unknown:
		return "?"
	case WhiteWins:
		return "W+"
	case BlackWins:
		return "B+"
	case Jigo:
		return "jigo"
	case BothLose:
		return "both-lose"
	case BothWin:
		return "both-win"
	}
	return fmt.Sprintf("Result(%d)", int(r))
}

// Game is one pairing of a round and its result.
type Game struct {
	Table        int // board number in the round, from 1
	White, Black PlayerID
	Handicap     int // stones Black places; 0 is an even game
	Result       Result
	// Forfeit is set when the result was given without the game being
	// played (OpenGotha's "by default"): it scores the same, and a
	// forfeit still counts as a game against that opponent.
	Forfeit bool
}

// Round is a paired round.
type Round struct {
	Games []Game
	// Byes are the players left without an opponent: at most one in a
	// McMahon, Swiss or round-robin round (scored as OpenGotha scores a
	// bye), the top seeds in an elimination bracket's first round.
	Byes []PlayerID
	// Absent are registered players who sit the round out.
	Absent []PlayerID
}

// Tournament is an event's settings, players and rounds so far.
type Tournament struct {
	System System
	Rounds int // rounds planned (an elimination or round robin has as many as it needs)
	// Bar and Floor bound McMahon's starting scores: a player ranked at or
	// above the bar starts at the bar's score, one at or below the floor at
	// the floor's. NewMcMahon sets OpenGotha's defaults (4d, 20k); NoFloor
	// is the lowest rank OpenGotha knows.
	Bar, Floor game.Rank
	Players    []Player
	Played     []Round
}

// OpenGotha's McMahon defaults, and the floor that floors no one.
const (
	DefaultBar   = game.Rank(4)   // 4d
	DefaultFloor = game.Rank(-19) // 20k
	NoFloor      = game.Rank(-29) // 30k
)

// MaxRounds is the most rounds a McMahon or Swiss tournament can have, as
// in OpenGotha.
const MaxRounds = 20

// NewMcMahon returns a McMahon tournament of the given rounds with
// OpenGotha's default bar and floor.
func NewMcMahon(rounds int) *Tournament {
	return &Tournament{System: McMahon, Rounds: rounds, Bar: DefaultBar, Floor: DefaultFloor}
}

// Errors a tournament's data or a pairing request can hit.
var (
	ErrTooFewPlayers  = errors.New("there are not enough players to pair a round")
	ErrFinished       = errors.New("the tournament has played all its rounds")
	ErrBadTournament  = errors.New("the tournament's data do not hold together")
	ErrNoWinner       = errors.New("an elimination game needs a winner")
	ErrFixedSchedule  = errors.New("this system's schedule is fixed: record an absent player's games as forfeits")
	ErrTooManyPlayers = fmt.Errorf("a tournament holds at most %d players", MaxPlayers)
)

// MaxPlayers bounds a tournament: a McMahon or Swiss round weighs every
// pair of players (n² weights), so its cost grows with the square.
const MaxPlayers = 2000

// player returns the index of the player with the given ID, or -1.
func (t *Tournament) index() map[PlayerID]int {
	m := make(map[PlayerID]int, len(t.Players))
	for i, p := range t.Players {
		m[p.ID] = i
	}
	return m
}

// check reports the first way the tournament's data do not hold together:
// duplicate players, unknown players in rounds, a player twice in a round,
// a player in a round before registering.
func (t *Tournament) check() error {
	switch t.System {
	case McMahon, Swiss, RoundRobin, DoubleRoundRobin, Elimination:
	default:
		return fmt.Errorf("%w: unknown system %d", ErrBadTournament, int(t.System))
	}
	if len(t.Players) > MaxPlayers {
		return fmt.Errorf("%w (this one has %d)", ErrTooManyPlayers, len(t.Players))
	}
	idx := make(map[PlayerID]int, len(t.Players))
	for i, p := range t.Players {
		if p.ID == "" {
			return fmt.Errorf("%w: player %d has no ID", ErrBadTournament, i+1)
		}
		if _, dup := idx[p.ID]; dup {
			return fmt.Errorf("%w: player %s is registered twice", ErrBadTournament, p.ID)
		}
		if p.Joined < 0 || p.Joined > len(t.Played) {
			return fmt.Errorf("%w: player %s joined before round %d, which is not paired", ErrBadTournament, p.ID, p.Joined+1)
		}
		idx[p.ID] = i
	}
	for r, rd := range t.Played {
		seen := make(map[PlayerID]bool)
		take := func(id PlayerID) error {
			i, ok := idx[id]
			if !ok {
				return fmt.Errorf("%w: round %d names unknown player %s", ErrBadTournament, r+1, id)
			}
			if t.Players[i].Joined > r {
				return fmt.Errorf("%w: player %s is in round %d before joining", ErrBadTournament, id, r+1)
			}
			if seen[id] {
				return fmt.Errorf("%w: player %s is twice in round %d", ErrBadTournament, id, r+1)
			}
			seen[id] = true
			return nil
		}
		for _, g := range rd.Games {
			if g.White == g.Black {
				return fmt.Errorf("%w: player %s plays themself in round %d", ErrBadTournament, g.White, r+1)
			}
			if err := take(g.White); err != nil {
				return err
			}
			if err := take(g.Black); err != nil {
				return err
			}
			if g.Handicap < 0 || g.Handicap > 9 {
				return fmt.Errorf("%w: handicap %d in round %d", ErrBadTournament, g.Handicap, r+1)
			}
			if g.Result < Unknown || g.Result > BothWin {
				return fmt.Errorf("%w: unknown result in round %d", ErrBadTournament, r+1)
			}
		}
		for _, id := range rd.Byes {
			if err := take(id); err != nil {
				return err
			}
		}
		for _, id := range rd.Absent {
			if err := take(id); err != nil {
				return err
			}
		}
	}
	return nil
}
