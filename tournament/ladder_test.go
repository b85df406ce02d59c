package tournament

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// ladderOf returns a ladder of the given players, top first.
func ladderOf(rng int, players string) *Ladder {
	l := &Ladder{Range: rng}
	for _, p := range strings.Fields(players) {
		l.Rungs = append(l.Rungs, PlayerID(p))
	}
	return l
}

func rungs(l *Ladder) string {
	var s []string
	for _, p := range l.Rungs {
		s = append(s, string(p))
	}
	return strings.Join(s, " ")
}

var t0 = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)

// A challenger who wins takes the defender's rung, those between move down
// one; a defender who wins, a challenger's forfeit and a void change
// nothing; a defender's forfeit counts as the challenger's win. Each
// result closes the challenge.
func TestLadderResults(t *testing.T) {
	for _, tc := range []struct {
		result        ChallengeResult
		want          string
		from, to      int
		movedExpected bool
	}{
		{ChallengerWon, "a e b c d f", 5, 2, true},
		{DefenderForfeited, "a e b c d f", 5, 2, true},
		{DefenderWon, "a b c d e f", 5, 5, false},
		{ChallengerForfeited, "a b c d e f", 5, 5, false},
		{ChallengeVoid, "a b c d e f", 5, 5, false},
	} {
		t.Run(tc.result.String(), func(t *testing.T) {
			l := ladderOf(3, "a b c d e f")
			if _, err := l.Challenge("e", "b", t0); err != nil {
				t.Fatal(err)
			}
			s, err := l.Result("e", "b", tc.result)
			if err != nil {
				t.Fatal(err)
			}
			if got := rungs(l); got != tc.want {
				t.Errorf("rungs %q, want %q", got, tc.want)
			}
			if s.From != tc.from || s.To != tc.to || s.Moved() != tc.movedExpected || s.Result != tc.result || s.Challenge.Challenger != "e" {
				t.Errorf("settled %+v", s)
			}
			if len(l.Open) != 0 {
				t.Errorf("open after the result: %v", l.Open)
			}
			if _, err := l.Result("e", "b", tc.result); !isProblem(err, NoOpenChallenge) {
				t.Errorf("a second result: %v", err)
			}
		})
	}
}

func isProblem(err error, p LadderProblem) bool {
	var r LadderRefusal
	return errors.As(err, &r) && r.Problem == p
}

// Every refusal, each from a ladder it leaves as it was, with a short
// sentence.
func TestLadderRefusals(t *testing.T) {
	// a b c d e f g, range 2; f has challenged d; b has challenged a.
	setup := func() *Ladder {
		l := ladderOf(2, "a b c d e f g")
		for _, c := range [][2]PlayerID{{"f", "d"}, {"b", "a"}} {
			if _, err := l.Challenge(c[0], c[1], t0); err != nil {
				t.Fatal(err)
			}
		}
		return l
	}
	full := &Ladder{Range: 1}
	for i := range MaxLadderPlayers {
		full.Rungs = append(full.Rungs, PlayerID(fmt.Sprint("p", i)))
	}
	for _, tc := range []struct {
		name string
		l    *Ladder
		do   func(l *Ladder) error
		want LadderRefusal
		text string
	}{
		{"join twice", setup(), func(l *Ladder) error { return l.Join("c") },
			LadderRefusal{Problem: AlreadyOnLadder, Player: "c", Rung: 3}, "c is on the ladder already, at rung 3"},
		{"join a full ladder", full, func(l *Ladder) error { return l.Join("x") },
			LadderRefusal{Problem: LadderFull}, "the ladder is full: it holds at most 2000 players"},
		{"leave when not on it", setup(), func(l *Ladder) error { _, err := l.Leave("x"); return err },
			LadderRefusal{Problem: NotOnLadder, Player: "x"}, "x is not on the ladder"},
		{"challenger not on it", setup(), func(l *Ladder) error { _, err := l.Challenge("x", "c", t0); return err },
			LadderRefusal{Problem: NotOnLadder, Player: "x"}, "x is not on the ladder"},
		{"defender not on it", setup(), func(l *Ladder) error { _, err := l.Challenge("e", "x", t0); return err },
			LadderRefusal{Problem: DefenderNotOnLadder, Player: "x"}, "x is not on the ladder"},
		{"self", setup(), func(l *Ladder) error { _, err := l.Challenge("e", "e", t0); return err },
			LadderRefusal{Problem: ChallengeSelf, Player: "e"}, "a player cannot challenge themself"},
		{"defender below", setup(), func(l *Ladder) error { _, err := l.Challenge("c", "e", t0); return err },
			LadderRefusal{Problem: DefenderNotAbove, Player: "e", Places: 2}, "e is 2 places below: challenge someone above"},
		{"defender too far", setup(), func(l *Ladder) error { _, err := l.Challenge("e", "b", t0); return err },
			LadderRefusal{Problem: DefenderTooFar, Player: "b", Places: 3, Range: 2}, "b is 3 places above; a challenge reaches at most 2"},
		{"challenge given", setup(), func(l *Ladder) error { _, err := l.Challenge("f", "e", t0); return err },
			LadderRefusal{Problem: ChallengeGiven, Player: "d"}, "the challenge to d is still open: one challenge at a time"},
		{"challenge received", setup(), func(l *Ladder) error { _, err := l.Challenge("e", "d", t0); return err },
			LadderRefusal{Problem: ChallengeReceived, Player: "d", Other: "f"}, "d has an open challenge from f already"},
		{"no open challenge", setup(), func(l *Ladder) error { _, err := l.Result("e", "d", ChallengerWon); return err },
			LadderRefusal{Problem: NoOpenChallenge, Player: "e", Other: "d"}, "e has no open challenge to d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := clone(tc.l)
			err := tc.do(tc.l)
			var got LadderRefusal
			if !errors.As(err, &got) || got != tc.want {
				t.Fatalf("got %#v, want %#v", err, tc.want)
			}
			if err.Error() != tc.text {
				t.Errorf("text %q, want %q", err.Error(), tc.text)
			}
			if !reflect.DeepEqual(before, tc.l) {
				t.Error("the refusal changed the ladder")
			}
		})
	}
	// A challenger may give one and receive one at the same time.
	l := setup()
	if _, err := l.Challenge("d", "c", t0); err != nil {
		t.Errorf("d, challenged by f, challenging c: %v", err)
	}
	if _, err := l.Result("b", "a", ChallengeResult(9)); !errors.Is(err, ErrBadLadder) {
		t.Errorf("an unknown result: %v", err)
	}
}

// Data that do not hold together are refused before anything changes.
func TestLadderBadData(t *testing.T) {
	for name, l := range map[string]*Ladder{
		"range 0":          ladderOf(0, "a b"),
		"twice":            ladderOf(1, "a b a"),
		"empty ID":         {Range: 1, Rungs: []PlayerID{"a", ""}},
		"off the ladder":   {Range: 1, Rungs: []PlayerID{"a", "b"}, Open: []LadderChallenge{{Challenger: "c", Defender: "a"}}},
		"upwards":          {Range: 1, Rungs: []PlayerID{"a", "b"}, Open: []LadderChallenge{{Challenger: "a", Defender: "b"}}},
		"two given":        {Range: 2, Rungs: []PlayerID{"a", "b", "c"}, Open: []LadderChallenge{{Challenger: "c", Defender: "a"}, {Challenger: "c", Defender: "b"}}},
		"two received":     {Range: 2, Rungs: []PlayerID{"a", "b", "c"}, Open: []LadderChallenge{{Challenger: "c", Defender: "a"}, {Challenger: "b", Defender: "a"}}},
		"too many players": {Range: 1, Rungs: make([]PlayerID, MaxLadderPlayers+1)},
	} {
		before := clone(l)
		if err := l.Join("z"); !errors.Is(err, ErrBadLadder) {
			t.Errorf("%s: join: %v", name, err)
		}
		if _, err := l.Leave("a"); !errors.Is(err, ErrBadLadder) {
			t.Errorf("%s: leave: %v", name, err)
		}
		if _, err := l.Challenge("b", "a", t0); !errors.Is(err, ErrBadLadder) {
			t.Errorf("%s: challenge: %v", name, err)
		}
		if !reflect.DeepEqual(before, l) {
			t.Errorf("%s: changed", name)
		}
	}
}

// Joining enters at the bottom; leaving moves those below up one and
// closes the leaver's challenges, given and received.
func TestLadderJoinLeave(t *testing.T) {
	l := &Ladder{Range: 2}
	for _, p := range []PlayerID{"a", "b", "c", "d", "e"} {
		if err := l.Join(p); err != nil {
			t.Fatal(err)
		}
	}
	if got := rungs(l); got != "a b c d e" {
		t.Fatalf("rungs %q", got)
	}
	must := func(_ LadderChallenge, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.Challenge("c", "a", t0))
	must(l.Challenge("d", "c", t0))
	must(l.Challenge("e", "d", t0))
	closed, err := l.Leave("c")
	if err != nil {
		t.Fatal(err)
	}
	if len(closed) != 2 || closed[0].Challenger != "c" || closed[1].Challenger != "d" {
		t.Errorf("closed %v", closed)
	}
	if got := rungs(l); got != "a b d e" {
		t.Errorf("rungs %q", got)
	}
	if len(l.Open) != 1 || l.Open[0].Challenger != "e" {
		t.Errorf("open %v", l.Open)
	}
	if r := l.Rung("e"); r != 4 {
		t.Errorf("e's rung %d", r)
	}
	if r := l.Rung("c"); r != 0 {
		t.Errorf("c's rung %d", r)
	}
}

// A challenge carries the ladder's deadline; Overdue lists those past it,
// and the runner's forfeit moves the challenger up.
func TestLadderForfeitAfterDeadline(t *testing.T) {
	l := ladderOf(3, "a b c d")
	l.Answer = 72 * time.Hour
	c, err := l.Challenge("d", "b", t0)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Deadline.Equal(t0.Add(72*time.Hour)) || !c.At.Equal(t0) {
		t.Errorf("challenge %+v", c)
	}
	if got := l.Overdue(t0.Add(71 * time.Hour)); len(got) != 0 {
		t.Errorf("overdue early: %v", got)
	}
	got := l.Overdue(t0.Add(72 * time.Hour))
	if len(got) != 1 || got[0] != c {
		t.Fatalf("overdue %v", got)
	}
	if _, err := l.Result("d", "b", DefenderForfeited); err != nil {
		t.Fatal(err)
	}
	if r := rungs(l); r != "a d b c" {
		t.Errorf("rungs %q", r)
	}
	// A ladder without Answer sets no deadline.
	l2 := ladderOf(1, "a b")
	c2, _ := l2.Challenge("b", "a", t0)
	if !c2.Deadline.IsZero() || len(l2.Overdue(t0.Add(1e6*time.Hour))) != 0 {
		t.Errorf("no deadline expected: %+v", c2)
	}
}

// Challengeable lists the players within range above who have no
// challenge received, nearest first; nothing while p's own is open.
func TestLadderChallengeable(t *testing.T) {
	l := ladderOf(3, "a b c d e")
	if _, err := l.Challenge("c", "b", t0); err != nil {
		t.Fatal(err)
	}
	if got := l.Challengeable("e"); !slices.Equal(got, []PlayerID{"d", "c"}) {
		t.Errorf("e may challenge %v", got)
	}
	if got := l.Challengeable("c"); got != nil {
		t.Errorf("c, with a challenge open, may challenge %v", got)
	}
	if got := l.Challengeable("a"); got != nil {
		t.Errorf("the top may challenge %v", got)
	}
	for _, p := range l.Challengeable("e") {
		if err := l.CanChallenge("e", p); err != nil {
			t.Errorf("listed %s but: %v", p, err)
		}
	}
}

func clone(l *Ladder) *Ladder {
	c := *l
	c.Rungs = slices.Clone(l.Rungs)
	c.Open = slices.Clone(l.Open)
	return &c
}

// Random sequences of joins, leaves, challenges and results keep the
// ladder's invariants: the rungs are a permutation of the players who
// joined and did not leave; a join enters at the bottom; a leave keeps the
// others' order; a challenger's win moves exactly the players from the
// defender's rung to the challenger's old one down one; any other result
// moves no one; each player has at most one open challenge given and one
// received, always to someone above; a refusal changes nothing.
func TestLadderRandomSequences(t *testing.T) {
	for seed := uint64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 45))
		l := &Ladder{Range: 1 + rng.IntN(4), Answer: time.Duration(rng.IntN(3)) * time.Hour}
		on := map[PlayerID]bool{}
		pool := 4 + rng.IntN(20)
		player := func() PlayerID { return PlayerID(fmt.Sprint("p", rng.IntN(pool))) }
		for step := 0; step < 300; step++ {
			before := clone(l)
			var err error
			var what string
			switch op := rng.IntN(10); {
			case op < 2:
				p := player()
				what = "join " + string(p)
				err = l.Join(p)
				if err == nil {
					if on[p] || l.Rungs[len(l.Rungs)-1] != p || !slices.Equal(l.Rungs[:len(l.Rungs)-1], before.Rungs) {
						t.Fatalf("seed %d step %d: %s gave %v from %v", seed, step, what, l.Rungs, before.Rungs)
					}
					on[p] = true
				}
			case op < 3:
				p := player()
				what = "leave " + string(p)
				var closed []LadderChallenge
				closed, err = l.Leave(p)
				if err == nil {
					want := slices.DeleteFunc(slices.Clone(before.Rungs), func(q PlayerID) bool { return q == p })
					if !on[p] || !slices.Equal(l.Rungs, want) {
						t.Fatalf("seed %d step %d: %s gave %v from %v", seed, step, what, l.Rungs, before.Rungs)
					}
					for _, c := range closed {
						if c.Challenger != p && c.Defender != p {
							t.Fatalf("seed %d step %d: %s closed %v", seed, step, what, c)
						}
					}
					if len(closed)+len(l.Open) != len(before.Open) {
						t.Fatalf("seed %d step %d: %s lost challenges", seed, step, what)
					}
					delete(on, p)
				}
			case op < 7:
				c, d := player(), player()
				if rng.IntN(2) == 0 && len(l.Rungs) > 1 { // mostly challenges that can be taken
					ci := 1 + rng.IntN(len(l.Rungs)-1)
					c, d = l.Rungs[ci], l.Rungs[max(0, ci-1-rng.IntN(l.Range+1))]
				}
				what = fmt.Sprintf("challenge %s→%s", c, d)
				_, err = l.Challenge(c, d, t0)
				if err == nil {
					ci, di := before.Rung(c), before.Rung(d)
					if ci == 0 || di == 0 || di >= ci || ci-di > l.Range || !slices.Equal(l.Rungs, before.Rungs) {
						t.Fatalf("seed %d step %d: %s taken on %v", seed, step, what, before.Rungs)
					}
				}
			default:
				if len(l.Open) == 0 {
					continue
				}
				c := l.Open[rng.IntN(len(l.Open))]
				r := ChallengeResult(1 + rng.IntN(5))
				what = fmt.Sprintf("%s %s→%s", r, c.Challenger, c.Defender)
				var s Settled
				s, err = l.Result(c.Challenger, c.Defender, r)
				if err != nil {
					t.Fatalf("seed %d step %d: %s: %v", seed, step, what, err)
				}
				want := slices.Clone(before.Rungs)
				ci, di := before.Rung(c.Challenger)-1, before.Rung(c.Defender)-1
				if r.ChallengerWins() {
					want = slices.Concat(before.Rungs[:di], []PlayerID{c.Challenger}, before.Rungs[di:ci], before.Rungs[ci+1:])
				}
				if !slices.Equal(l.Rungs, want) || s.From != ci+1 || s.To != map[bool]int{true: di + 1, false: ci + 1}[r.ChallengerWins()] {
					t.Fatalf("seed %d step %d: %s gave %v (%+v) from %v, want %v", seed, step, what, l.Rungs, s, before.Rungs, want)
				}
				if _, still := l.Given(c.Challenger); still || len(l.Open) != len(before.Open)-1 {
					t.Fatalf("seed %d step %d: %s left the challenge open", seed, step, what)
				}
			}
			if err != nil {
				var refusal LadderRefusal
				if !errors.As(err, &refusal) || len(err.Error()) > 200 {
					t.Fatalf("seed %d step %d: %s: %v", seed, step, what, err)
				}
				if !reflect.DeepEqual(before, l) {
					t.Fatalf("seed %d step %d: refused %s changed the ladder", seed, step, what)
				}
			}
			// The invariants, checked apart from check().
			if len(l.Rungs) != len(on) {
				t.Fatalf("seed %d step %d: %d rungs for %d players", seed, step, len(l.Rungs), len(on))
			}
			seen := map[PlayerID]bool{}
			for _, p := range l.Rungs {
				if !on[p] || seen[p] {
					t.Fatalf("seed %d step %d: rungs %v are not a permutation of the players", seed, step, l.Rungs)
				}
				seen[p] = true
			}
			given, received := map[PlayerID]int{}, map[PlayerID]int{}
			for _, c := range l.Open {
				given[c.Challenger]++
				received[c.Defender]++
				if given[c.Challenger] > 1 || received[c.Defender] > 1 || l.Rung(c.Defender) >= l.Rung(c.Challenger) || l.Rung(c.Defender) == 0 {
					t.Fatalf("seed %d step %d: open challenges %v on %v", seed, step, l.Open, l.Rungs)
				}
			}
		}
	}
}
