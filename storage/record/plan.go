package record

import (
	"errors"

	"github.com/gobotgo/gobot"
)

// planRec is a game's plan (conditional moves): whose it is and its tree,
// points as SGF letters ("" for a pass).
type planRec struct {
	By       string          `json:"by"`
	Branches []planBranchRec `json:"branches"`
}

type planBranchRec struct {
	Their string          `json:"their"`
	Reply string          `json:"reply"`
	Next  []planBranchRec `json:"next,omitempty"`
}

func encodePlan(e *errs, p *gobot.Plan) *planRec {
	if p == nil {
		return nil
	}
	return &planRec{By: string(p.By), Branches: encodeBranches(e, p.Branches)}
}

func encodeBranches(e *errs, tree []gobot.PlanBranch) []planBranchRec {
	var out []planBranchRec
	for _, br := range tree {
		their, err := sgfCoord(br.Their)
		e.add(err)
		reply, err := sgfCoord(br.Reply)
		e.add(err)
		out = append(out, planBranchRec{Their: their, Reply: reply, Next: encodeBranches(e, br.Next)})
	}
	return out
}

func decodePlan(e *errs, rec *planRec) *gobot.Plan {
	if rec == nil {
		return nil
	}
	if rec.By == "" || len(rec.Branches) == 0 {
		e.add(errors.New("a plan without its player or its moves"))
	}
	return &gobot.Plan{By: gobot.UserID(rec.By), Branches: decodeBranches(e, rec.Branches)}
}

func decodeBranches(e *errs, recs []planBranchRec) []gobot.PlanBranch {
	var out []gobot.PlanBranch
	for _, r := range recs {
		their, err := parseSGFCoord(r.Their)
		e.add(err)
		reply, err := parseSGFCoord(r.Reply)
		e.add(err)
		out = append(out, gobot.PlanBranch{Their: their, Reply: reply, Next: decodeBranches(e, r.Next)})
	}
	return out
}
