package tournament

import "fmt"

// bracketSeeds returns the seeds (from 1) in bracket order for a bracket of
// size players (a power of two): 1, size, size/2, size/2+1, … so that the
// first round pairs seed s with seed size+1-s and the top two seeds can
// meet only in the final.
func bracketSeeds(size int) []int {
	seeds := []int{1}
	for len(seeds) < size {
		next := make([]int, 0, 2*len(seeds))
		for _, s := range seeds {
			next = append(next, s, 2*len(seeds)+1-s)
		}
		seeds = next
	}
	return seeds
}

// pairElimination pairs the next round of a single elimination. The first
// round fills a bracket of the next power of two seeded by rank (then
// rating, then registration); the top seeds meet the empty places and have
// byes. A later round pairs the winners of neighbouring matches. Each
// game's Table is its match number in the round, counting byes, so the
// bracket can be read back from the rounds alone. The better seed takes
// White; games are even.
func (t *Tournament) pairElimination() (Round, error) {
	if err := t.fixedField(); err != nil {
		return Round{}, err
	}
	seeds := t.seeded()
	seedOf := make(map[PlayerID]int, len(seeds))
	for s, i := range seeds {
		seedOf[t.Players[i].ID] = s
	}
	var field []PlayerID // players in bracket order; "" for an empty place
	if len(t.Played) == 0 {
		size := 1
		for size < len(seeds) {
			size *= 2
		}
		for _, s := range bracketSeeds(size) {
			if s <= len(seeds) {
				field = append(field, t.Players[seeds[s-1]].ID)
			} else {
				field = append(field, "")
			}
		}
	} else {
		var err error
		if field, err = advancers(t.Played[len(t.Played)-1], len(t.Played)); err != nil {
			return Round{}, err
		}
		if len(field) < 2 {
			return Round{}, ErrFinished
		}
	}
	var rd Round
	for i := 0; i+1 < len(field); i += 2 {
		a, b := field[i], field[i+1]
		switch {
		case b == "":
			rd.Byes = append(rd.Byes, a)
		case a == "":
			rd.Byes = append(rd.Byes, b)
		default:
			if seedOf[b] < seedOf[a] {
				a, b = b, a
			}
			rd.Games = append(rd.Games, Game{Table: i/2 + 1, White: a, Black: b})
		}
	}
	return rd, nil
}

// advancers reads who goes through from an elimination round, in bracket
// order: match k is the game at table k, or else the next bye.
func advancers(rd Round, number int) ([]PlayerID, error) {
	byTable := make(map[int]*Game, len(rd.Games))
	for i := range rd.Games {
		g := &rd.Games[i]
		byTable[g.Table] = g
	}
	matches := len(rd.Games) + len(rd.Byes)
	var out []PlayerID
	byes := rd.Byes
	for k := 1; k <= matches; k++ {
		g := byTable[k]
		if g == nil {
			if len(byes) == 0 {
				return nil, fmt.Errorf("%w: round %d has no match %d", ErrBadTournament, number, k)
			}
			out = append(out, byes[0])
			byes = byes[1:]
			continue
		}
		switch g.Result {
		case WhiteWins:
			out = append(out, g.White)
		case BlackWins:
			out = append(out, g.Black)
		default:
			return nil, fmt.Errorf("%w: round %d, board %d (%s) has no winner yet", ErrNoWinner, number, k, g.Result)
		}
	}
	return out, nil
}
