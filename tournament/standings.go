package tournament

import (
	"fmt"
	"slices"
	"strconv"
)

// Points counts scores in quarter points, so that a jigo's half point and
// SODOS's quarters are whole numbers.
type Points int

// String writes the points as "3", "2½", "¼", "-1½".
func (p Points) String() string {
	sign := ""
	if p < 0 {
		sign, p = "-", -p
	}
	whole, frac := int(p)/4, int(p)%4
	s := strconv.Itoa(whole)
	if whole == 0 && frac != 0 {
		s = ""
	}
	return sign + s + [4]string{"", "¼", "½", "¾"}[frac]
}

// Standing is a player's line in the standings.
type Standing struct {
	Player PlayerID
	Place  int // from 1; players equal on every placement criterion share a place
	// Score is the McMahon score in a McMahon tournament, else the number
	// of wins (a jigo half a win, a bye a whole one).
	Score Points
	Wins  Points // the number of wins, in every system
	// SOS, SOSOS and SODOS are computed from Score as OpenGotha does: the
	// sum of the opponents' scores (in McMahon, adjusted by the handicap
	// they received, and counting one's own starting score for a round
	// without a game), the sum of the opponents' SOS, and the sum of the
	// scores of the opponents one beat (half for a jigo).
	SOS, SOSOS, SODOS Points
}

// Standings returns the standings after the given round (from 0) of the
// players registered then, ordered as OpenGotha orders them: by Score, SOS
// and SOSOS (its default criteria for McMahon and Swiss; SODOS is shown,
// not used), players equal on all three by name.
func (t *Tournament) Standings(after int) ([]Standing, error) {
	if err := t.check(); err != nil {
		return nil, err
	}
	if after < 0 || after >= len(t.Played) {
		return nil, fmt.Errorf("%w: round %d is not paired", ErrBadTournament, after+1)
	}
	s := t.score(after, after)
	recs := slices.Clone(s.recs)
	slices.SortFunc(recs, func(a, b *record) int {
		if s.better(a, b, after, false) {
			return -1
		}
		return 1
	})
	out := make([]Standing, len(recs))
	for i, r := range recs {
		place := i + 1
		if i > 0 && s.compare(r, recs[i-1], after) == 0 {
			place = out[i-1].Place
		}
		out[i] = Standing{Player: r.p.ID, Place: place,
			Score: Points(2 * s.main(r, after)), Wins: Points(2 * r.nbw[after]),
			SOS: Points(2 * r.sos[after]), SOSOS: Points(2 * r.sosos[after]), SODOS: Points(r.sodos[after])}
	}
	return out, nil
}
