package tournament

import (
	"fmt"
	"slices"
	"strings"
)

// Pair pairs the next round (index len(t.Played)) and returns it; the
// tournament is not changed. absent are registered players who sit the
// round out (McMahon and Swiss only: a round robin's and a bracket's
// schedule is fixed).
func (t *Tournament) Pair(absent ...PlayerID) (Round, error) {
	if err := t.check(); err != nil {
		return Round{}, err
	}
	switch t.System {
	case McMahon, Swiss:
		return t.pairOpenGotha(absent)
	case RoundRobin, DoubleRoundRobin:
		if len(absent) > 0 {
			return Round{}, ErrFixedSchedule
		}
		return t.pairRoundRobin()
	case Elimination:
		if len(absent) > 0 {
			return Round{}, ErrFixedSchedule
		}
		return t.pairElimination()
	}
	return Round{}, fmt.Errorf("%w: unknown system", ErrBadTournament)
}

// The weights of OpenGotha's pairing criteria (PairingParameterSet) as
// its McMahon and Swiss defaults set them. The criteria whose default
// weight is zero in both systems (random, mixing categories, minimising
// the handicap) are left out.
const (
	wAvoidDuplicate = 500_000_000_000_000 // never played each other
	wBalanceWB      = 1_000_000           // White/Black balance
	wScoreDiff      = 100_000_000_000     // minimise the score difference (concave)
	wDUDD           = wScoreDiff / 1000   // draw-ups and draw-downs
	wSeeding        = wScoreDiff / 20000  // seeding within a group
	wGeo            = wScoreDiff          // McMahon only: avoid same club, same country
	concavity       = 0.5                 // OpenGotha's "standard NX1 factor"
	countryFactor   = 1                   // prefer a score gap of 1 to the same country
	clubFactor      = 3                   // prefer a score gap of 3 to the same club

	// Groups are paired at most this many at a time (Pairing.PAIRING_GROUP_…).
	groupMinSize = 200
	groupMaxSize = 3 * groupMinSize
)

// Seeding systems within a score group.
const (
	splitAndRandom = iota + 1
	splitAndSlip
)

// pairee is a player's pairing information for the round being paired,
// as OpenGotha's fillPairingInfo leaves it.
type pairee struct {
	*record
	name       fullName
	main       int // main score before the round, whole points
	group      int // score group, 0 for the highest
	groupSize  int
	inner      int // place within the group, from 0
	du, dd     int // draw-ups and draw-downs so far
	wb         int // games with White minus games with Black, without handicap
	mms        int // McMahon score before the round, whole points
	club       string
	country    string
	opponents  map[PlayerID]bool
	scoreOrder int // place in the score order the pairing window lists
}

// pairing is the state of one McMahon or Swiss round being paired.
type pairing struct {
	t       *Tournament
	round   int
	s       *scores
	groups  int // number of score groups, empty ones included
	seedSys int
	byID    map[PlayerID]*pairee
}

// pairOpenGotha pairs a McMahon or Swiss round as OpenGotha 3.51 does when
// its Games..Pair window pairs every player: the pairable players in score
// order, a bye chosen by chooseAByePlayer when their number is odd, then
// makeAutomaticPairing: a cost for every pair of players, a maximum-weight
// matching, and each game's colours and handicap from gameBetween.
func (t *Tournament) pairOpenGotha(absentIDs []PlayerID) (Round, error) {
	pr, toPair, err := t.newPairing(absentIDs)
	if err != nil {
		return Round{}, err
	}
	rd := Round{Absent: slices.Clone(absentIDs)}
	if len(toPair)%2 == 1 {
		b := pr.chooseBye(toPair)
		rd.Byes = []PlayerID{toPair[b].p.ID}
		toPair = slices.Delete(toPair, b, b+1)
	}
	rd.Games = pr.pairAll(toPair)
	pr.numberTables(rd.Games)
	return rd, nil
}

// newPairing prepares the next round's pairing: every registered player's
// pairing information, and the players to pair in score order.
func (t *Tournament) newPairing(absentIDs []PlayerID) (*pairing, []*pairee, error) {
	R := len(t.Played)
	if R >= MaxRounds {
		return nil, nil, fmt.Errorf("%w: %d rounds is OpenGotha's limit", ErrFinished, MaxRounds)
	}
	s := t.score(R, R-1)
	absent := make(map[PlayerID]bool, len(absentIDs))
	for _, id := range absentIDs {
		if s.byID[id] == nil {
			return nil, nil, fmt.Errorf("%w: absent player %s is not registered", ErrBadTournament, id)
		}
		absent[id] = true
	}
	pr := &pairing{t: t, round: R, s: s}
	// The pairable players as the pairing window lists them: by score.
	order := slices.Clone(pr.prepare())
	slices.SortFunc(order, func(a, b *pairee) int {
		if s.better(a.record, b.record, R-1, false) {
			return -1
		}
		return 1
	})
	var toPair []*pairee
	for i, p := range order {
		p.scoreOrder = i
		if !absent[p.p.ID] {
			toPair = append(toPair, p)
		}
	}
	if len(toPair) < 2 {
		return nil, nil, ErrTooFewPlayers
	}
	return pr, toPair, nil
}

// prepare computes every registered player's group, place in the group,
// draw-ups and draw-downs and colour balance, over all registered players
// (absent ones and the bye too), as fillPairingInfo does.
func (pr *pairing) prepare() []*pairee {
	s, R := pr.s, pr.round
	var lo, hi int // main scores of the lowest and highest groups
	if s.mcmahon {
		lo = ogRank(pr.t.Floor) - 1 - ogMinRank
		hi = ogRank(pr.t.Bar) + 2 + R - ogMinRank
	} else {
		lo, hi = 0, R
	}
	pr.groups = hi - lo + 1
	pr.seedSys = splitAndSlip
	if s.mcmahon && R <= 1 {
		pr.seedSys = splitAndRandom
	}
	// The rating orders a group in Swiss, and in McMahon's first two rounds.
	byRating := !s.mcmahon || R <= 1

	all := make([]*pairee, len(s.recs))
	byID := make(map[PlayerID]*pairee, len(all))
	for i, r := range s.recs {
		p := &pairee{record: r, name: newFullName(r.p), club: lower(r.p.Club), country: lower(r.p.Country),
			opponents: make(map[PlayerID]bool)}
		p.main = s.main(r, R-1) / 2
		p.mms = r.mmsX2(R-1) / 2
		for k := 0; k < R; k++ {
			g := r.game[k]
			if g == nil {
				continue
			}
			p.opponents[opponent(g, r.p.ID)] = true
			if g.Handicap != 0 {
				continue
			}
			if g.White == r.p.ID {
				p.wb++
			} else {
				p.wb--
			}
		}
		all[i] = p
		byID[r.p.ID] = p
	}
	pr.byID = byID
	groups := make(map[int][]*pairee)
	for _, p := range all {
		groups[p.main] = append(groups[p.main], p)
	}
	for score, members := range groups {
		slices.SortFunc(members, func(a, b *pairee) int {
			if s.better(a.record, b.record, R-1, byRating) {
				return -1
			}
			return 1
		})
		for i, p := range members {
			p.group = hi - score
			p.groupSize = len(members)
			p.inner = i
		}
	}
	// Draw-ups and draw-downs: games against a higher or lower main score.
	for _, p := range all {
		for k := 0; k < R; k++ {
			g := p.game[k]
			if g == nil {
				continue
			}
			o := byID[opponent(g, p.p.ID)]
			mine, theirs := s.main(p.record, k-1)/2, s.main(o.record, k-1)/2
			switch {
			case mine < theirs:
				p.du++
			case mine > theirs:
				p.dd++
			}
		}
	}
	return all
}

// chooseBye returns the index of the player who gets the bye: the least
// rank plus doubled McMahon score plus 1000 for each bye already had, the
// last of equals in score order (Tournament.chooseAByePlayer).
func (pr *pairing) chooseBye(players []*pairee) int {
	best, bestW := -1, 0
	for i, p := range players {
		w := p.rank + p.mmsX2(pr.round-1)
		for k := 0; k < pr.round; k++ {
			if p.status[k] == bye {
				w += 1000
			}
		}
		if best < 0 || w <= bestW {
			best, bestW = i, w
		}
	}
	return best
}

// pairAll splits the players into groups of at most groupMaxSize as
// makeAutomaticPairing does, from the top score down, and pairs each.
func (pr *pairing) pairAll(players []*pairee) []Game {
	var games []Game
	remaining := slices.Clone(players)
	for len(remaining) > groupMaxSize {
		var group []*pairee
		ready := false
		for score := pr.groups - 1; score >= 0 && !ready; score-- {
			// score counts main scores from the lowest group (0) up.
			for i := 0; i < len(remaining); {
				p := remaining[i]
				if pr.groups-1-p.group < score {
					i++
					continue
				}
				group = append(group, p)
				remaining = slices.Delete(remaining, i, i+1)
				if len(group) >= groupMaxSize || len(remaining) <= groupMinSize {
					ready = true
					break
				}
			}
			if len(group) >= groupMinSize && len(group)%2 == 0 {
				ready = true
			}
		}
		games = append(games, pr.pairGroup(group)...)
	}
	return append(games, pr.pairGroup(remaining)...)
}

// pairGroup pairs players by a maximum-weight matching of their costs.
func (pr *pairing) pairGroup(players []*pairee) []Game {
	n := len(players)
	w := make([]int64, n*n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			c := pr.cost(players[i], players[j])
			w[i*n+j], w[j*n+i] = c, c
		}
	}
	mate := maxWeightMatching(n, w)
	var games []Game
	for i, j := range mate {
		if i < j {
			games = append(games, pr.gameBetween(players[i], players[j]))
		}
	}
	return games
}

// cost is OpenGotha's evaluation of pairing a with b (Tournament.costValue):
// the higher, the better.
func (pr *pairing) cost(a, b *pairee) int64 {
	cost := int64(1)
	if !a.opponents[b.p.ID] {
		cost += wAvoidDuplicate
	}
	// White/Black balance, for an even game.
	if g := pr.gameBetween(a, b); g.Handicap == 0 {
		switch {
		case a.wb*b.wb < 0:
			cost += wBalanceWB
		case a.wb == 0 && abs(b.wb) >= 2, b.wb == 0 && abs(a.wb) >= 2:
			cost += wBalanceWB / 2
		}
	}
	// Minimise the score difference, concavely.
	x := float64(abs(a.group-b.group)) / float64(pr.groups)
	cost += int64(float64(wScoreDiff) * (1.0 - x) * (1.0 + float64(concavity*x)))
	// Draw-ups and draw-downs between near groups.
	if a.group != b.group && abs(a.group-b.group) < 4 {
		cost += pr.duddCost(a, b)
	}
	// Seeding within a group.
	if a.group == b.group {
		cost += pr.seedCost(a, b)
	}
	if pr.s.mcmahon {
		cost += pr.geoCost(a, b)
	}
	return cost
}

func (pr *pairing) duddCost(a, b *pairee) int64 {
	// a draws b up (b is in a lower group) or down; see costValue's five
	// scenarios: 0 makes a previous draw in the same sense worse for both,
	// 4 corrects a previous draw in the other sense for both.
	scenario := 2
	if a.du > 0 && a.group > b.group {
		scenario--
	}
	if a.dd > 0 && a.group < b.group {
		scenario--
	}
	if b.du > 0 && b.group > a.group {
		scenario--
	}
	if b.dd > 0 && b.group < a.group {
		scenario--
	}
	if scenario != 0 && a.du > 0 && a.dd < a.du && a.group < b.group {
		scenario++
	}
	if scenario != 0 && a.dd > 0 && a.du < a.dd && a.group > b.group {
		scenario++
	}
	if scenario != 0 && b.du > 0 && b.dd < b.du && b.group < a.group {
		scenario++
	}
	if scenario != 0 && b.dd > 0 && b.du < b.dd && b.group > a.group {
		scenario++
	}
	weight := int64(wDUDD / 5)
	upper, lower := a, b
	if b.group < a.group {
		upper, lower = b, a
	}
	// Both the drawn-up and the drawn-down player are preferred from the
	// middle of their groups.
	middle := func(p *pairee) int64 {
		return weight / 2 * int64(p.groupSize-1-abs(2*p.inner-p.groupSize+1)) / int64(p.groupSize)
	}
	cost := middle(upper) + middle(lower)
	if scenario > 0 {
		cost += int64(scenario) * weight
	}
	return cost
}

func (pr *pairing) seedCost(a, b *pairee) int64 {
	size := a.groupSize
	switch pr.seedSys {
	case splitAndRandom:
		if (2*a.inner < size) != (2*b.inner < size) {
			seeding := float64(wSeeding)
			return wSeeding - detRandom(int64(seeding*0.2), &a.name, &b.name)
		}
		return 0
	default: // split and slip: the best is |a-b| = half the group
		x := int64(2*abs(a.inner-b.inner) - size)
		return wSeeding - wSeeding*x/int64(size)*x/int64(size)
	}
}

// geoCost rewards pairing players of different clubs and countries, worth
// as much as a score gap of clubFactor and countryFactor groups.
func (pr *pairing) geoCost(a, b *pairee) int64 {
	groups := float64(pr.groups)
	// As in Java, at run time: 3 × 1.2 is not the constant 3.6.
	country, club := float64(countryFactor), float64(clubFactor)
	countryRatio := 0.0
	if a.country != b.country {
		countryRatio = min(country/groups, 1.0)
	}
	clubRatio := 0.0
	if a.club != b.club {
		clubRatio = min(club*1.2/groups, 1.0)
	}
	ratio := max(countryRatio, clubRatio) + min(countryRatio, clubRatio)/2.0
	if ratio > 0.0 {
		ratio += 0.5 / groups
	}
	geo := float64(float64(wGeo)*(1.0-ratio)) * (1.0 + float64(concavity*ratio))
	return min(wScoreDiff-int64(geo), wGeo)
}

// gameBetween makes the game between a and b (Tournament.gameBetween):
// in McMahon the handicap is the difference of McMahon scores, less one,
// counting scores above 1d's as 1d's, at most 9; Swiss games are even.
// An even game gives White to the one who has had Black more often, and
// between equals to one drawn from their names.
func (pr *pairing) gameBetween(a, b *pairee) Game {
	hd := 0
	if pr.s.mcmahon {
		ra := min(a.mms+ogMinRank, 0)
		rb := min(b.mms+ogMinRank, 0)
		hd = ra - rb
		switch {
		case hd > 0:
			hd = max(hd-1, 0)
		case hd < 0:
			hd = min(hd+1, 0)
		}
		hd = min(max(hd, -9), 9)
	}
	switch {
	case hd > 0:
		return Game{White: a.p.ID, Black: b.p.ID, Handicap: hd}
	case hd < 0:
		return Game{White: b.p.ID, Black: a.p.ID, Handicap: -hd}
	case a.wb > b.wb:
		return Game{White: b.p.ID, Black: a.p.ID}
	case a.wb < b.wb:
		return Game{White: a.p.ID, Black: b.p.ID}
	case detRandom(1, &a.name, &b.name) == 0:
		return Game{White: a.p.ID, Black: b.p.ID}
	}
	return Game{White: b.p.ID, Black: a.p.ID}
}

// numberTables numbers the boards: the game of the player listed first
// in the score order gets board 1.
func (pr *pairing) numberTables(games []Game) {
	first := func(g Game) int {
		return min(pr.byID[g.White].scoreOrder, pr.byID[g.Black].scoreOrder)
	}
	slices.SortStableFunc(games, func(x, y Game) int { return first(x) - first(y) })
	for i := range games {
		games[i].Table = i + 1
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func lower(s string) string { return strings.ToLower(s) }
