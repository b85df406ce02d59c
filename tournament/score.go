package tournament

import (
	"github.com/gobotgo/gobot/game"
)

// OpenGotha counts ranks from 30k = -30 to 9d = 8 (1d = 0); game.Rank
// has 1k = 0 and 1d = 1.
const (
	ogMinRank = -30
	ogMaxRank = 8
)

func ogRank(r game.Rank) int {
	return min(max(int(r)-1, ogMinRank), ogMaxRank)
}

// status is what a player did in a round.
type status int8

const (
	notAssigned status = iota // present, but neither paired nor given the bye
	absent                    // not registered yet, or sitting the round out
	bye
	paired
)

// record is a player's scores round by round, as OpenGotha's ScoredPlayer
// keeps them. Scores are doubled (a jigo is 1), SODOS quadrupled.
type record struct {
	i      int // index in Tournament.Players
	p      *Player
	rank   int // OpenGotha's rank
	rating int
	smms   int // McMahon score before round 1
	status []status
	game   []*Game
	nbw    []int // wins after each round, doubled
	mms    []int // McMahon score after each round, doubled
	sos    []int // sum of opponents' main scores, doubled
	sosos  []int // sum of opponents' SOS, doubled
	sodos  []int // sum of defeated opponents' main scores, quadrupled
}

// scores is the score table of a tournament's registered players through
// some round.
type scores struct {
	mcmahon bool // the main score is the McMahon score (else the number of wins)
	recs    []*record
	byID    map[PlayerID]*record
}

// score computes the scores through round `through` (0-based; -1 for
// none) of the players registered when round `registeredAt` was paired.
// It follows OpenGotha's fillBaseScoringInfo with the default general
// parameters of McMahon and Swiss: a bye is worth a win, an absence half a
// McMahon point and no win, and the points for byes and absences are
// rounded down to whole points, as they add up.
func (t *Tournament) score(registeredAt, through int) *scores {
	s := &scores{mcmahon: t.System == McMahon, byID: make(map[PlayerID]*record)}
	floor, bar := ogMinRank, ogMaxRank // OpenGotha's Swiss leaves the McMahon score unbounded
	if s.mcmahon {
		floor, bar = ogRank(t.Floor), ogRank(t.Bar)
	}
	n := through + 1
	for i := range t.Players {
		p := &t.Players[i]
		if p.Joined > registeredAt {
			continue
		}
		r := &record{i: i, p: p, rank: ogRank(p.Rank), rating: p.Rating,
			status: make([]status, n), game: make([]*Game, n),
			nbw: make([]int, n), mms: make([]int, n), sos: make([]int, n), sosos: make([]int, n), sodos: make([]int, n)}
		r.smms = min(max(r.rank, floor), bar) - ogMinRank
		for rd := 0; rd < n && rd < p.Joined; rd++ {
			r.status[rd] = absent
		}
		s.recs = append(s.recs, r)
		s.byID[p.ID] = r
	}
	for rd := 0; rd < n && rd < len(t.Played); rd++ {
		round := &t.Played[rd]
		for _, id := range round.Absent {
			if r := s.byID[id]; r != nil {
				r.status[rd] = absent
			}
		}
		for gi := range round.Games {
			g := &round.Games[gi]
			for _, id := range []PlayerID{g.White, g.Black} {
				if r := s.byID[id]; r != nil {
					r.status[rd] = paired
					r.game[rd] = g
				}
			}
		}
		for _, id := range round.Byes {
			if r := s.byID[id]; r != nil {
				r.status[rd] = bye
			}
		}
	}
	// Wins and McMahon scores.
	for _, r := range s.recs {
		nbw, mms := 0, 2*r.smms
		nbwExtra, mmsExtra := 0, 0
		for rd := 0; rd < n; rd++ {
			switch r.status[rd] {
			case absent:
				mmsExtra++ // half a point; no win
			case bye:
				nbwExtra += 2
				mmsExtra += 2
			case paired:
				w := wonX2(r.game[rd], r.p.ID)
				nbw += w
				mms += w
			}
			r.nbw[rd] = nbw + nbwExtra/2*2
			r.mms[rd] = mms + mmsExtra/2*2
		}
	}
	// Sums of opponents' scores and of defeated opponents' scores.
	for rd := 0; rd < n; rd++ {
		for _, r := range s.recs {
			sos, sodos := 0, 0
			for k := 0; k <= rd; k++ {
				if r.status[k] != paired {
					if s.mcmahon {
						sos += 2 * r.smms
					}
					continue
				}
				g := r.game[k]
				opp := s.byID[opponent(g, r.p.ID)]
				var o int
				if s.mcmahon {
					o = opp.mms[rd]
					if g.White == r.p.ID {
						o += 2 * g.Handicap
					} else {
						o -= 2 * g.Handicap
					}
				} else {
					o = opp.nbw[rd]
				}
				sos += o
				sodos += o * wonX2(g, r.p.ID)
			}
			r.sos[rd], r.sodos[rd] = sos, sodos
		}
		for _, r := range s.recs {
			sosos := 0
			for k := 0; k <= rd; k++ {
				if r.status[k] != paired {
					if s.mcmahon {
						sosos += 2 * r.smms * (rd + 1)
					}
					continue
				}
				sosos += s.byID[opponent(r.game[k], r.p.ID)].sos[rd]
			}
			r.sosos[rd] = sosos
		}
	}
	return s
}

// main, sos and sosos return the placement criteria after round rd, or
// before the first round when rd is -1.
func (s *scores) main(r *record, rd int) int {
	if rd < 0 {
		if s.mcmahon {
			return 2 * r.smms
		}
		return 0
	}
	if s.mcmahon {
		return r.mms[rd]
	}
	return r.nbw[rd]
}

func at(v []int, rd int) int {
	if rd < 0 {
		return 0
	}
	return v[rd]
}

// mmsX2 is the McMahon score after round rd (-1: before the first).
func (r *record) mmsX2(rd int) int {
	if rd < 0 {
		return 2 * r.smms
	}
	return r.mms[rd]
}

// better reports whether a is placed before b after round rd by the
// system's placement criteria (main score, SOS, SOSOS), then, when
// byRating, by rating, then by name as OpenGotha's ScoredPlayerComparator.
func (s *scores) better(a, b *record, rd int, byRating bool) bool {
	if c := s.compare(a, b, rd); c != 0 {
		return c > 0
	}
	if byRating && a.rating != b.rating {
		return a.rating > b.rating
	}
	if c := javaCompare(a.p.Name, b.p.Name); c != 0 {
		return c < 0
	}
	return javaCompare(a.p.FirstName, b.p.FirstName) < 0
}

// compare compares the placement criteria: positive when a is ahead.
func (s *scores) compare(a, b *record, rd int) int {
	if d := s.main(a, rd) - s.main(b, rd); d != 0 {
		return d
	}
	if d := at(a.sos, rd) - at(b.sos, rd); d != 0 {
		return d
	}
	return at(a.sosos, rd) - at(b.sosos, rd)
}

// wonX2 is what the game brought the player, doubled: 2 for a win, 1 for
// a jigo, 0 for a loss or a game without a result.
func wonX2(g *Game, id PlayerID) int {
	switch g.Result {
	case WhiteWins:
		if g.White == id {
			return 2
		}
	case BlackWins:
		if g.Black == id {
			return 2
		}
	case Jigo:
		return 1
	case BothWin:
		return 2
	}
	return 0
}

func opponent(g *Game, id PlayerID) PlayerID {
	if g.White == id {
		return g.Black
	}
	return g.White
}
