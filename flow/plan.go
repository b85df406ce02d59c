package flow

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Conditional moves: on the opponent's turn a player plans replies
// (`plan C3 C4 D3 D4`: if they play C3, I play C4; then if they play D3,
// I play D4). Lines merge into a tree (gobot.MergePlan). When the
// opponent plays a move the plan covers, the reply is played in the same
// transaction (FollowPlan, after Play and Pass); a move it does not
// cover, or a reply that is no longer legal, drops it, and its owner is
// told.

// Unplannable refuses a plan in a game, for its Reason.
type Unplannable struct {
	Game   gobot.GameID
	Reason PlanReason
}

// PlanReason is why a player cannot plan in a game (now).
type PlanReason int

const (
	PlanNotPlayer PlanReason = iota // the caller does not play in the game
	PlanOver                        // the game is over
	PlanEngine                      // the opponent is an engine: it answers at once
	PlanRoom                        // the room plays by vote
	PlanTeam                        // a team game: each turn is one player's
	PlanScoring                     // the game is being scored
	PlanHandicap                    // the handicap stones are still being placed
	PlanYourTurn                    // it is the caller's turn: they play now
)

func (e Unplannable) Error() string { return fmt.Sprintf("game #%d: no plan (%d)", e.Game, e.Reason) }

// Plannable refuses a plan command of the player of colour me (Empty: not
// a player) in match: plans are for two people's games still going on.
func Plannable(match *gobot.Match, me game.Color) error {
	refuse := func(r PlanReason) error { return Unplannable{match.ID, r} }
	switch {
	case me == game.Empty:
		return refuse(PlanNotPlayer)
	case !match.Active():
		return refuse(PlanOver)
	case match.Has(gobot.SideEngine):
		return refuse(PlanEngine)
	case match.Has(gobot.SideRoom):
		return refuse(PlanRoom)
	case match.Has(gobot.SideTeam):
		return refuse(PlanTeam)
	}
	return nil
}

// PlanNow refuses a new line by the player of colour me where it cannot
// be planned now: plans are for the opponent's turn while playing.
func PlanNow(l *Loaded, me game.Color) error {
	refuse := func(r PlanReason) error { return Unplannable{l.Match.ID, r} }
	switch {
	case l.G.Phase() == game.Scoring:
		return refuse(PlanScoring)
	case l.G.HandicapLeft() > 0:
		return refuse(PlanHandicap)
	case l.G.ToMove() == me:
		return refuse(PlanYourTurn)
	}
	return nil
}

// LineWord refuses a line whose Move-th word (from 1) is no point.
type LineWord struct {
	Move int
	Word string
	Err  error
}

func (e LineWord) Error() string {
	return fmt.Sprintf("move %d of the line, %q: %v", e.Move, e.Word, e.Err)
}
func (e LineWord) Unwrap() error { return e.Err }

// LineMove refuses a line whose Move-th move (from 1; Mine: the
// planner's reply, else the opponent's) cannot be played at Point when
// its turn comes, for the rules' reason Err. Ahead is whether the line
// itself brings that about (the first move meets the position as it is,
// and a point taken now is occupied now).
type LineMove struct {
	Move  int
	Mine  bool
	Point game.Point
	Err   error
	Ahead bool
}

func (e LineMove) Error() string { return fmt.Sprintf("move %d of the line: %v", e.Move, e.Err) }
func (e LineMove) Unwrap() error { return e.Err }

// CheckLine reads a line's moves and replays them on g's position, the
// opponent's first: each must be legal when its turn comes.
func CheckLine(g *game.Game, me game.Color, words []string) ([]gobot.PlanPair, error) {
	cfg := g.Config()
	try, err := game.Replay(g.Record())
	if err != nil {
		return nil, err
	}
	var line []gobot.PlanPair
	var pair gobot.PlanPair
	for i, w := range words {
		who := me.Opponent()
		if i%2 == 1 {
			who = me
		}
		p, err := game.ParsePoint(w, cfg.Width, cfg.Height)
		if err != nil {
			return nil, LineWord{i + 1, w, err}
		}
		if err := try.Play(who, p); err != nil {
			ahead := i > 0 && !(errors.Is(err, game.ErrOccupied) && g.At(p) != game.Empty)
			return nil, LineMove{i + 1, who == me, p, err, ahead}
		}
		if i%2 == 0 {
			pair.Their = p
		} else {
			pair.Reply = p
			line = append(line, pair)
		}
	}
	return line, nil
}

// PlanTooBig refuses a line that would make a plan of Size planned
// replies, more than gobot.MaxPlanBranches.
type PlanTooBig struct{ Size int }

func (e PlanTooBig) Error() string { return fmt.Sprintf("a plan of %d replies", e.Size) }

// Planned is a line merged into a plan; Replaced when it replaced the
// branch that answered the same move differently.
type Planned struct {
	Line     []gobot.PlanPair
	Replaced bool
}

// AddLine merges line into u's plan in l (a plan of the other player's is
// replaced) at t.
func AddLine(l *Loaded, u gobot.UserID, line []gobot.PlanPair, t time.Time) (Planned, error) {
	var tree []gobot.PlanBranch
	if l.Match.Plan != nil && l.Match.Plan.By == u {
		tree = l.Match.Plan.Branches
	}
	merged, replaced := gobot.MergePlan(tree, line)
	if n := gobot.PlanSize(merged); n > gobot.MaxPlanBranches {
		return Planned{}, PlanTooBig{n}
	}
	l.Match.Plan = &gobot.Plan{By: u, Branches: merged}
	l.Match.Updated = t
	return Planned{Line: line, Replaced: replaced}, nil
}

// ClearPlan drops u's plan in l at t; it reports whether u had one.
func ClearPlan(l *Loaded, u gobot.UserID, t time.Time) bool {
	if l.Match.Plan == nil || l.Match.Plan.By != u {
		return false
	}
	l.Match.Plan = nil
	l.Match.Updated = t
	return true
}

// PlanDrop is why a plan was dropped after the opponent's move.
type PlanDrop int

const (
	PlanKept       PlanDrop = iota // nothing dropped, or dropped with nothing to tell (the game ended, the mover's own)
	PlanAfterPass                  // their pass answered the owner's: the game is being scored
	PlanUncovered                  // the plan did not cover their move
	PlanReplyFails                 // the planned reply can't be played now (Err)
)

// Followed is what a plan did after the opponent's move Their by Mover:
// the owner's Reply Played (capturing Captured; Scoring when it was a
// pass that ended the play), or the plan Dropped, and why.
type Followed struct {
	Owner    gobot.UserID
	Mover    game.Color
	Their    game.Point
	Played   bool
	Reply    game.Point
	Captured int
	Scoring  bool
	Dropped  PlanDrop
	Err      error
}

// FollowPlan runs after mover's move their in l (not yet saved), at t: if
// the other player's plan answers it, the reply is played at the same
// instant; a move the plan does not cover, or a reply no longer legal,
// drops the plan.
func FollowPlan(l *Loaded, mover game.Color, their game.Point, t time.Time) Followed {
	plan := l.Match.Plan
	if plan == nil {
		return Followed{}
	}
	f := Followed{Owner: plan.By, Mover: mover, Their: their}
	me := l.Match.ColorOf(plan.By)
	if me != mover.Opponent() || l.G.Phase() == game.Over {
		l.Match.Plan = nil
		return Followed{}
	}
	drop := func(why PlanDrop) Followed { l.Match.Plan, f.Dropped = nil, why; return f }
	if l.G.Phase() == game.Scoring { // their pass answered the owner's: no reply is played now
		return drop(PlanAfterPass)
	}
	br, ok := gobot.PlanFollow(plan.Branches, their)
	if !ok {
		return drop(PlanUncovered)
	}
	f.Reply = br.Reply
	before := l.G.Captures(me)
	if err := l.G.Play(me, br.Reply); err != nil {
		f.Err = err
		return drop(PlanReplyFails)
	}
	Moved(l.Match, l.G, me, t)
	ended(l, t)
	l.Match.Plan = &gobot.Plan{By: plan.By, Branches: br.Next}
	if len(br.Next) == 0 || l.G.Phase() != game.Playing {
		l.Match.Plan = nil
	}
	f.Played, f.Captured, f.Scoring = true, l.G.Captures(me)-before, l.G.Phase() == game.Scoring
	return f
}

// Code names the refusal (Refusal).
func (Unplannable) Code() string { return "unplannable" }

// Code names the refusal (Refusal).
func (LineWord) Code() string { return "line-word" }

// Code names the refusal (Refusal).
func (LineMove) Code() string { return "line-move" }

// Code names the refusal (Refusal).
func (PlanTooBig) Code() string { return "plan-too-big" }
