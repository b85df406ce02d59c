package tournament

import (
	"fmt"
	"strconv"

	"github.com/gobotgo/gobot/game"
)

// RoundKind is how a player spent a round.
type RoundKind int8

// The ways a round is spent.
const (
	RoundPlayed   RoundKind = iota + 1 // paired with an opponent
	RoundBye                           // the bye (worth a win)
	RoundAbsent                        // sat out, or not registered yet (McMahon: half a point)
	RoundUnpaired                      // present but neither paired nor given the bye
)

// Outcome is a round's result for one player.
type Outcome int8

// A player's outcomes.
const (
	Pending Outcome = iota // no result yet
	Win
	Loss
	Draw // a jigo
)

// String is the outcome's mark in a results table: + - = ?.
func (o Outcome) String() string {
	switch o {
	case Win:
		return "+"
	case Loss:
		return "-"
	case Draw:
		return "="
	}
	return "?"
}

// RoundResult is a player's round as a results table shows it.
type RoundResult struct {
	Kind     RoundKind
	Opponent PlayerID // RoundPlayed only
	// OpponentLine is the opponent's line in the table, from 1; 0
	// without an opponent.
	OpponentLine int
	White        bool // the player had White
	Handicap     int
	Outcome      Outcome
	Forfeit      bool // the result was given without the game (OpenGotha's "by default")
}

// String writes the round as OpenGotha's results tables do: the
// opponent's line number, the result (+ - = ?), "/" or "!" for a result
// by default, the colour (w b) and the handicap: "3+/w2", "12-!b0".
// Without an opponent the number is 0 and the result is what the round
// scored: "0+" for a bye, "0=" for a McMahon round sat out, "0-"
// otherwise.
func (r RoundResult) String() string {
	mark := r.Outcome.String()
	if r.Kind != RoundPlayed {
		return "0" + mark
	}
	sep, colour := "/", "b"
	if r.Forfeit {
		sep = "!"
	}
	if r.White {
		colour = "w"
	}
	return strconv.Itoa(r.OpponentLine) + mark + sep + colour + strconv.Itoa(r.Handicap)
}

// FullName is the player's name as OpenGotha lists it: "Name FirstName",
// or Name alone.
func (p *Player) FullName() string {
	if p.FirstName == "" {
		return p.Name
	}
	return p.Name + " " + p.FirstName
}

// Line is a player's line in a results table: their standing, their
// name and rank as registered, and each round through the table's.
type Line struct {
	Standing
	Name   string // "Name FirstName", OpenGotha's order
	Rank   game.Rank
	Rounds []RoundResult
}

// Table returns the standings after round `after` (from 0) with each
// player's rounds: OpenGotha's standings table, from which a crosstable
// is read too.
func (t *Tournament) Table(after int) ([]Line, error) {
	st, err := t.Standings(after)
	if err != nil {
		return nil, err
	}
	players := t.index()
	line := make(map[PlayerID]int, len(st))
	for i, s := range st {
		line[s.Player] = i
	}
	out := make([]Line, len(st))
	for i, s := range st {
		p := &t.Players[players[s.Player]]
		out[i] = Line{Standing: s, Name: p.FullName(), Rank: p.Rank, Rounds: make([]RoundResult, after+1)}
		for r := range out[i].Rounds {
			absent := RoundResult{Kind: RoundAbsent, Outcome: Loss}
			if t.System == McMahon {
				absent.Outcome = Draw
			}
			if r < p.Joined {
				out[i].Rounds[r] = absent
			} else {
				out[i].Rounds[r] = RoundResult{Kind: RoundUnpaired, Outcome: Loss}
			}
		}
	}
	for r := 0; r <= after; r++ {
		rd := &t.Played[r]
		for _, id := range rd.Absent {
			if i, ok := line[id]; ok {
				out[i].Rounds[r].Kind = RoundAbsent
				if t.System == McMahon {
					out[i].Rounds[r].Outcome = Draw
				}
			}
		}
		for _, id := range rd.Byes {
			if i, ok := line[id]; ok {
				out[i].Rounds[r] = RoundResult{Kind: RoundBye, Outcome: Win}
			}
		}
		for _, g := range rd.Games {
			for _, white := range []bool{true, false} {
				me, opp := g.Black, g.White
				if white {
					me, opp = g.White, g.Black
				}
				i, ok := line[me]
				if !ok {
					return nil, fmt.Errorf("%w: round %d names unknown player %s", ErrBadTournament, r+1, me)
				}
				out[i].Rounds[r] = RoundResult{Kind: RoundPlayed, Opponent: opp, OpponentLine: line[opp] + 1,
					White: white, Handicap: g.Handicap, Outcome: outcome(g.Result, white), Forfeit: g.Forfeit}
			}
		}
	}
	return out, nil
}

// outcome is result r for the player with White (white) or Black.
func outcome(r Result, white bool) Outcome {
	switch r {
	case WhiteWins:
		if white {
			return Win
		}
		return Loss
	case BlackWins:
		if white {
			return Loss
		}
		return Win
	case Jigo:
		return Draw
	case BothWin:
		return Win
	case BothLose:
		return Loss
	}
	return Pending
}
