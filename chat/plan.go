package chat

import (
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Conditional moves (flow.AddLine, flow.FollowPlan): plans are private:
// their replies are Private, a dropped plan's owner is told privately,
// and the commands are refused where a reply cannot be (router.go).

// planGame finds the game a plan command names, one the caller plays
// in; planning, it also checks that the caller may plan there now.
func (b *core) planGame(call *Call, planning bool) (*loaded, game.Color, error) {
	tx, r, a := call.Tx, call.Req, call.Args
	match, err := findGame(tx, b, r, a.Game, true)
	if err != nil {
		return nil, 0, err
	}
	me := match.ColorOf(r.User.ID)
	if err := flow.Plannable(match, me); err != nil {
		return nil, 0, say.PlanRefusal(match, game.Config{}, err)
	}
	l, err := load(match)
	if err != nil {
		return nil, 0, err
	}
	if planning {
		if err := flow.PlanNow(l.Loaded, me); err != nil {
			return nil, 0, say.PlanRefusal(match, l.G.Config(), err)
		}
	}
	return l, me, nil
}

func cmdPlan(call *Call) (Result, error) {
	a := call.Args
	clear := a.Choice["clear"] != ""
	if err := say.PlanArgs(clear, len(a.Points)); err != nil {
		return Result{}, err
	}
	if clear {
		return planClear(call)
	}
	return planLine(call)
}

// planLine checks the line against the current position and merges it
// into the caller's plan.
func planLine(call *Call) (Result, error) {
	o, err := call.bot.door(call, flow.Plan{Points: call.Args.Points})
	if err != nil {
		return Result{}, err
	}
	l := &loaded{Loaded: o.Game}
	return reply(planReply(l, say.Planned(l.Loaded, o.Seat.Opponent(), o.Did.(flow.Planned))), Effects{})
}

func planClear(call *Call) (Result, error) {
	o, err := call.bot.door(call, flow.DropPlan{})
	if err != nil {
		return Result{}, err
	}
	l := &loaded{Loaded: o.Game}
	return reply(planReply(l, say.PlanCleared(l.Match.ID, o.Did.(flow.PlanCleared).Had)), Effects{})
}

func cmdPlans(call *Call) (Result, error) {
	b, r := call.bot, call.Req
	l, _, err := b.planGame(call, false)
	if err != nil {
		return Result{}, err
	}
	plan := l.Match.Plan
	if plan != nil && plan.By != r.User.ID {
		plan = nil
	}
	return reply(planReply(l, say.Plans(l.Match.ID, plan, l.G.Config().Height)), Effects{})
}

// planReply is a private reply about l's plan.
func planReply(l *loaded, text string) protocol.Reply {
	return protocol.Reply{Title: say.PlanTitle(l.Match.ID), Text: text, Private: true, Game: l.Match.ID}
}

// planDropped tells owner privately that their plan in l is cleared,
// and why.
func (b *core) planDropped(fx *Effects, l *loaded, owner gobot.UserID, why string) {
	fx.notify(protocol.Message{To: owner, Room: l.Match.Room, Reply: protocol.Reply{
		Title: say.PlanTitle(l.Match.ID), Game: l.Match.ID, Private: true,
		Text: say.PlanDropped(l.Match.ID, why)}})
}
