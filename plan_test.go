package gobot

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/gobotgo/gobot/game"
)

func line(pts ...int) []PlanPair {
	var out []PlanPair
	for i := 0; i+1 < len(pts); i += 2 {
		out = append(out, PlanPair{Their: game.Pt(pts[i], 0), Reply: game.Pt(pts[i+1], 1)})
	}
	return out
}

func TestMergePlanExamples(t *testing.T) {
	tree, replaced := MergePlan(nil, line(1, 2, 3, 4))
	tree, _ = MergePlan(tree, line(5, 6))
	if replaced || PlanSize(tree) != 3 {
		t.Fatalf("two lines: %+v", tree)
	}
	// The same beginning, then a new move of theirs: a second branch below.
	tree, replaced = MergePlan(tree, line(1, 2, 7, 8))
	if replaced || PlanSize(tree) != 4 || len(tree[0].Next) != 2 {
		t.Fatalf("a branch below: %+v", tree)
	}
	// The same move of theirs answered differently: that branch, with all
	// it held, is replaced; the others stay.
	before := tree
	tree, replaced = MergePlan(tree, line(1, 9))
	want := []PlanBranch{{Their: game.Pt(1, 0), Reply: game.Pt(9, 1)}, {Their: game.Pt(5, 0), Reply: game.Pt(6, 1)}}
	if !replaced || !reflect.DeepEqual(tree, want) {
		t.Fatalf("replaced branch: %+v", tree)
	}
	if PlanSize(before) != 4 || before[0].Reply != game.Pt(2, 1) {
		t.Fatalf("MergePlan changed its input: %+v", before)
	}
	// A line that is a beginning of the tree changes nothing.
	tree, _ = MergePlan(tree, line(1, 9, 3, 4))
	again, replaced := MergePlan(tree, line(1, 9))
	if replaced || !reflect.DeepEqual(again, tree) {
		t.Fatalf("a known beginning: %+v", again)
	}
	if br, ok := PlanFollow(tree, game.Pt(1, 0)); !ok || br.Reply != game.Pt(9, 1) || len(br.Next) != 1 {
		t.Fatalf("follow: %+v %v", br, ok)
	}
	if _, ok := PlanFollow(tree, game.Pt(3, 0)); ok {
		t.Fatal("followed a move of a lower level")
	}
}

// follows reports whether following l's moves of theirs through tree
// gives l's replies.
func follows(tree []PlanBranch, l []PlanPair) bool {
	for _, p := range l {
		br, ok := PlanFollow(tree, p.Their)
		if !ok || br.Reply != p.Reply {
			return false
		}
		tree = br.Next
	}
	return true
}

// distinct reports whether each level of tree answers each move of
// theirs once.
func distinct(tree []PlanBranch) bool {
	seen := map[game.Point]bool{}
	for _, br := range tree {
		if seen[br.Their] || !distinct(br.Next) {
			return false
		}
		seen[br.Their] = true
	}
	return true
}

// Properties of merging random lines (few points, so lines share
// beginnings and conflict often): the last line merged is always in the
// tree; each level answers a move once; the tree grows by at most the
// line's length; merging a line twice changes nothing the second time;
// a line that neither shares the first move nor conflicts leaves the
// other branches as they were; and a line merged earlier is still there
// unless a later one answered one of its moves differently.
func TestMergePlanProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for run := 0; run < 2000; run++ {
		var tree []PlanBranch
		var lines [][]PlanPair
		for k := 0; k < 1+r.IntN(8); k++ {
			var pts []int
			for j := 0; j < 2*(1+r.IntN(4)); j++ {
				pts = append(pts, r.IntN(3))
			}
			l := line(pts...)
			before := PlanSize(tree)
			next, _ := MergePlan(tree, l)
			if !follows(next, l) {
				t.Fatalf("run %d: line %v not in %+v", run, l, next)
			}
			if !distinct(next) {
				t.Fatalf("run %d: a level answers a move twice: %+v", run, next)
			}
			if PlanSize(next) > before+len(l) {
				t.Fatalf("run %d: grew from %d to %d with a line of %d", run, before, PlanSize(next), len(l))
			}
			if again, replaced := MergePlan(next, l); replaced || !reflect.DeepEqual(again, next) {
				t.Fatalf("run %d: merging %v twice changed the tree", run, l)
			}
			for _, br := range tree {
				if br.Their == l[0].Their {
					continue
				}
				if kept, ok := PlanFollow(next, br.Their); !ok || !reflect.DeepEqual(kept, br) {
					t.Fatalf("run %d: branch %+v changed by %v", run, br, l)
				}
			}
			tree = next
			lines = append(lines, l)
		}
		for i, old := range lines {
			conflicts := false
			for _, later := range lines[i+1:] {
				for d := 0; d < min(len(old), len(later)); d++ {
					if old[d].Their != later[d].Their {
						break
					}
					if old[d].Reply != later[d].Reply {
						conflicts = true
						break
					}
				}
			}
			if !conflicts && !follows(tree, old) {
				t.Fatalf("run %d: line %v lost without a conflict: %+v", run, old, tree)
			}
		}
	}
}
