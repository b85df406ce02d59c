package tournament

import (
	"fmt"
	"slices"
)

// seeded returns the players' indexes in seeding order: the strongest rank
// first, then the higher rating, then the earlier registration.
func (t *Tournament) seeded() []int {
	order := make([]int, len(t.Players))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		pa, pb := &t.Players[a], &t.Players[b]
		if pa.Rank != pb.Rank {
			return int(pb.Rank - pa.Rank)
		}
		return pb.Rating - pa.Rating
	})
	return order
}

// fixedField checks that a round robin's or a bracket's players were all
// there from the start.
func (t *Tournament) fixedField() error {
	for _, p := range t.Players {
		if p.Joined > 0 {
			return fmt.Errorf("%w: %s joined after the start, but a %s's players are fixed when it starts", ErrBadTournament, p.ID, t.System)
		}
	}
	if len(t.Players) < 2 {
		return ErrTooFewPlayers
	}
	return nil
}

// RoundRobinRounds is the number of rounds a round robin of n players
// takes: n-1 for an even number, n for an odd one (each player sits out
// once), twice that for a double round robin.
func RoundRobinRounds(n int, double bool) int {
	r := n - 1
	if n%2 == 1 {
		r = n
	}
	if double {
		r *= 2
	}
	return r
}

// pairRoundRobin pairs the next round of a round robin by Berger tables,
// the players numbered in seeding order; with an odd number of players the
// one who would meet the missing last number has the bye. A double round
// robin plays the tables twice, colours reversed the second time.
func (t *Tournament) pairRoundRobin() (Round, error) {
	if err := t.fixedField(); err != nil {
		return Round{}, err
	}
	seeds := t.seeded()
	n := len(seeds)
	m := n + n%2
	R := len(t.Played)
	if R >= RoundRobinRounds(n, t.System == DoubleRoundRobin) {
		return Round{}, ErrFinished
	}
	var rd Round
	for _, pr := range bergerRound(m, R%(m-1)) {
		white, black := pr[0], pr[1]
		if R >= m-1 {
			white, black = black, white
		}
		switch {
		case white == n:
			rd.Byes = append(rd.Byes, t.Players[seeds[black]].ID)
		case black == n:
			rd.Byes = append(rd.Byes, t.Players[seeds[white]].ID)
		default:
			rd.Games = append(rd.Games, Game{Table: len(rd.Games) + 1,
				White: t.Players[seeds[white]].ID, Black: t.Players[seeds[black]].ID})
		}
	}
	return rd, nil
}

// bergerRound returns round k (from 0) of the Berger tables for m players
// (m even), numbered from 0, as (White, Black) pairs in table order. The
// first round is 1–m, 2–(m-1), …; each next round adds m/2 to every number
// but the last (modulo m-1), and the last number changes colour every
// round, as in FIDE's tables.
func bergerRound(m, k int) [][2]int {
	last := m - 1
	shift := func(x int) int {
		if x == last {
			return x
		}
		return (x + k*m/2) % last
	}
	pairs := make([][2]int, 0, m/2)
	for i := 0; i < m/2; i++ {
		a, b := shift(i), shift(last-i)
		if b == last && k%2 == 1 {
			a, b = b, a
		}
		pairs = append(pairs, [2]int{a, b})
	}
	return pairs
}
