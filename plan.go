package gobot

import "github.com/gobotgo/gobot/game"

// Bounds of a plan (conditional moves): a line of at most MaxPlanPairs
// pairs (their move, my reply), a tree of at most MaxPlanBranches
// branches in all.
const (
	MaxPlanPairs    = 20
	MaxPlanBranches = 100
)

// Plan is a player's conditional moves in a game (`plan`): for each move
// the opponent may play next, the reply to play at once and the plan from
// there. Only the player not to move holds one: the opponent's next move
// either follows a branch (the reply is played, the plan descends to the
// branch's Next) or leaves the plan, which is then dropped.
type Plan struct {
	By       UserID // whose plan
	Branches []PlanBranch
}

// PlanBranch says: if the opponent plays Their, play Reply, then follow
// Next. The branches of one level have distinct Their.
type PlanBranch struct {
	Their game.Point
	Reply game.Point
	Next  []PlanBranch
}

// PlanPair is one step of a line: their move and my reply.
type PlanPair struct {
	Their, Reply game.Point
}

// MergePlan adds line to tree the way OGS merges conditional moves: where
// the line follows the tree (the same move of theirs answered the same
// way) it goes down it; where it answers a move of theirs differently, it
// replaces that branch and everything under it; the rest it adds. It
// returns the new tree (tree itself is not changed) and whether a branch
// was replaced.
func MergePlan(tree []PlanBranch, line []PlanPair) ([]PlanBranch, bool) {
	if len(line) == 0 {
		return tree, false
	}
	out := make([]PlanBranch, len(tree))
	copy(out, tree)
	first := line[0]
	for i, br := range out {
		if br.Their != first.Their {
			continue
		}
		if br.Reply != first.Reply {
			out[i] = PlanBranch{Their: first.Their, Reply: first.Reply, Next: lineTree(line[1:])}
			return out, true
		}
		next, replaced := MergePlan(br.Next, line[1:])
		out[i].Next = next
		return out, replaced
	}
	return append(out, PlanBranch{Their: first.Their, Reply: first.Reply, Next: lineTree(line[1:])}), false
}

// lineTree is a line as a tree of one branch per level.
func lineTree(line []PlanPair) []PlanBranch {
	if len(line) == 0 {
		return nil
	}
	return []PlanBranch{{Their: line[0].Their, Reply: line[0].Reply, Next: lineTree(line[1:])}}
}

// PlanSize counts the branches of tree, at every level.
func PlanSize(tree []PlanBranch) int {
	n := 0
	for _, br := range tree {
		n += 1 + PlanSize(br.Next)
	}
	return n
}

// PlanFollow finds the branch of tree that answers their move; false
// when the tree does not cover it.
func PlanFollow(tree []PlanBranch, their game.Point) (PlanBranch, bool) {
	for _, br := range tree {
		if br.Their == their {
			return br, true
		}
	}
	return PlanBranch{}, false
}
