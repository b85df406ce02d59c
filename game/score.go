package game

import (
	"fmt"
	"math"
	"strconv"
)

// Reason is how a game ended.
type Reason uint8

const (
	ByScore  Reason = iota // counted after both accepted the marking
	ByResign               // a player resigned
	ByTime                 // a player ran out of time
	ByCycle                // a repeating cycle: a tie (text 001)
	NoResult               // void: aborted, or a cycle under Japanese-style rules
)

// Result is the outcome of a game.
type Result struct {
	Winner Color   // Empty for a draw or no result
	Margin float64 // points, for ByScore
	Reason Reason
}

// String returns the result in SGF RE form: "B+3.5", "W+R", "W+T", "0"
// for a draw, "Void" for no result.
func (r Result) String() string {
	switch r.Reason {
	case NoResult:
		return "Void"
	case ByCycle:
		return "0"
	case ByResign:
		return r.Winner.String() + "+R"
	case ByTime:
		return r.Winner.String() + "+T"
	}
	if r.Winner == Empty {
		return "0"
	}
	return r.Winner.String() + "+" + strconv.FormatFloat(r.Margin, 'f', -1, 64)
}

// Describe returns the result in words: "Black wins by 3.5 points".
func (r Result) Describe() string {
	switch r.Reason {
	case NoResult:
		return "no result"
	case ByCycle:
		return "a draw by a repeating cycle"
	case ByResign:
		return r.Winner.Name() + " wins by resignation"
	case ByTime:
		return r.Winner.Name() + " wins on time"
	}
	if r.Winner == Empty {
		return "a draw (jigo)"
	}
	unit := "points"
	if r.Margin == 1 {
		unit = "point"
	}
	return fmt.Sprintf("%s wins by %s %s", r.Winner.Name(), strconv.FormatFloat(r.Margin, 'f', -1, 64), unit)
}

// SideScore is one player's score with its parts.
type SideScore struct {
	Stones    int     // stones on the board, dead ones excluded (area scoring)
	Territory int     // empty points counted for this player
	Prisoners int     // captures + opponent's dead stones + pass stones (territory scoring)
	Komi      float64 // White only
	Bonus     float64 // White's handicap compensation
	Total     float64
}

// Score is the count of a position.
type Score struct {
	Black, White SideScore
	// Owner gives, per point in reading order, whose area or territory it
	// is (Empty for dame and seki); dead stones belong to the side that
	// surrounds them.
	Owner  []Color
	Result Result
}

// Side returns c's part of the score.
func (s Score) Side(c Color) SideScore {
	if c == White {
		return s.White
	}
	return s.Black
}

// Count scores board b with dead marks (per point, reading order; nil for
// none) under cfg. prisoners holds, per colour, the stones it captured in
// play plus the pass stones it received; dead stones are added here.
//
// Area: stones + empty points reaching only that colour. Territory: empty
// points reaching only that colour, except the eyes of strings in seki
// (which do count with pass stones, text 003),
// plus prisoners. A string is in seki when it touches a shared liberty —
// an empty point next to living stones of both colours where a stone of
// either colour would stand in atari — and its eyes then count for nobody
// (text 002 rule 18).
func Count(b *Board, dead []bool, cfg Config, prisoners [3]int) Score {
	n := len(b.cells)
	// The position with dead stones removed.
	live := b.Clone()
	deadOf := [3]int{}
	for i := 0; i < n; i++ {
		if dead != nil && dead[i] && live.cells[i] != Empty {
			deadOf[live.cells[i]]++
			live.set(i, Empty)
		}
	}
	owner := make([]Color, n)
	region := make([]int, n)
	for i := range region {
		region[i] = -1
	}
	var regionReach []uint8 // bit per colour reached
	var regions [][]int
	for i := 0; i < n; i++ {
		if live.cells[i] != Empty {
			owner[i] = live.cells[i]
			continue
		}
		if region[i] >= 0 {
			continue
		}
		id := len(regions)
		var pts []int
		var reach uint8
		st := []int{i}
		region[i] = id
		for len(st) > 0 {
			j := st[len(st)-1]
			st = st[:len(st)-1]
			pts = append(pts, j)
			for _, k := range live.nb[4*j : 4*j+4] {
				if k < 0 {
					continue
				}
				if c := live.cells[k]; c != Empty {
					reach |= 1 << c
				} else if region[k] < 0 {
					region[k] = id
					st = append(st, int(k))
				}
			}
		}
		regions = append(regions, pts)
		regionReach = append(regionReach, reach)
	}
	for id, pts := range regions {
		var c Color
		switch regionReach[id] {
		case 1 << Black:
			c = Black
		case 1 << White:
			c = White
		}
		for _, j := range pts {
			owner[j] = c
		}
	}
	var s Score
	sides := [3]*SideScore{nil, &s.Black, &s.White}
	if cfg.Rules.Scoring == Territory {
		// Eyes in seki count for nobody (text 002: "Empty points inside
		// groups in seki are not counted"), except with pass stones:
		// text 003 counts "each vacant point inside their own territory"
		// and its pass stones make the count equal area counting, where
		// such eyes count.
		seki := sekiRegions(live, region, regionReach)
		for id, pts := range regions {
			if seki[id] && !cfg.Rules.PassStones {
				for _, j := range pts {
					owner[j] = Empty
				}
			}
		}
		for _, c := range []Color{Black, White} {
			sides[c].Prisoners = prisoners[c] + deadOf[c.Opponent()]
		}
	}
	for i := 0; i < n; i++ {
		c := owner[i]
		if c == Empty {
			continue
		}
		if live.cells[i] == c {
			sides[c].Stones++
		} else {
			sides[c].Territory++
		}
	}
	s.White.Komi = cfg.Rules.Komi
	s.White.Bonus = cfg.Rules.HandicapBonus(cfg.Handicap)
	for _, c := range []Color{Black, White} {
		sd := sides[c]
		if cfg.Rules.Scoring == Area {
			sd.Total = float64(sd.Stones + sd.Territory)
		} else {
			sd.Total = float64(sd.Territory + sd.Prisoners)
		}
		sd.Total += sd.Komi + sd.Bonus
	}
	s.Owner = owner
	s.Result = Result{Reason: ByScore}
	switch d := s.Black.Total - s.White.Total; {
	case d > 0:
		s.Result.Winner, s.Result.Margin = Black, d
	case d < 0:
		s.Result.Winner, s.Result.Margin = White, math.Abs(d)
	}
	return s
}

// sekiRegions marks the one-colour regions that are eyes of strings in
// seki. live is the board without dead stones; region and reach describe
// its empty regions.
func sekiRegions(live *Board, region []int, reach []uint8) []bool {
	n := len(live.cells)
	inSeki := make([]bool, n) // per stone: its string is in seki
	for i := 0; i < n; i++ {
		if live.cells[i] != Empty || reach[region[i]] != 1<<Black|1<<White {
			continue
		}
		// A shared point: would a stone of either colour here be in atari?
		if !selfAtari(live, i, Black) || !selfAtari(live, i, White) {
			continue
		}
		for _, k := range live.nb[4*i : 4*i+4] {
			if k >= 0 && live.cells[k] != Empty && !inSeki[k] {
				stones, _ := live.StringAt(live.point(int(k)))
				for _, p := range stones {
					inSeki[live.index(p)] = true
				}
			}
		}
	}
	seki := make([]bool, len(reach))
	for i := 0; i < n; i++ {
		if live.cells[i] != Empty || (reach[region[i]] != 1<<Black && reach[region[i]] != 1<<White) {
			continue
		}
		for _, k := range live.nb[4*i : 4*i+4] {
			if k >= 0 && inSeki[k] {
				seki[region[i]] = true
			}
		}
	}
	return seki
}

// selfAtari reports whether a stone of colour c at empty index i would
// leave its string with at most one liberty (or be captured outright)
// without capturing anything.
func selfAtari(b *Board, i int, c Color) bool {
	t := b.Clone()
	captured, suicided := t.play(c, i)
	if suicided > 0 {
		return true
	}
	if captured > 0 {
		return false
	}
	_, libs := t.StringAt(t.point(i))
	return len(libs) <= 1
}

// groupAt returns one stone of each string of p's colour that belongs to
// the same group: strings joined through empty points or opponent's dead
// candidates are not followed; strings of that colour reachable from p
// through points that are empty or of p's colour within the same
// one-coloured region are. In practice: the strings of p's colour that
// border the same empty regions as p's string, repeatedly, not crossing
// stones of the other colour.
func (b *Board) groupAt(p Point) []Point {
	c := b.At(p)
	if c == Empty {
		return nil
	}
	seen := make([]bool, len(b.cells))
	var out []Point
	st := []int{b.index(p)}
	seen[st[0]] = true
	for len(st) > 0 {
		j := st[len(st)-1]
		st = st[:len(st)-1]
		if b.cells[j] == c {
			out = append(out, b.point(j))
		}
		for _, k := range b.nb[4*j : 4*j+4] {
			if k >= 0 && !seen[k] && b.cells[k] != c.Opponent() {
				seen[k] = true
				st = append(st, int(k))
			}
		}
	}
	return out
}
