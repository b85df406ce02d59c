package chat

import (
	"github.com/gobotgo/gobot"
	"time"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
)

// A live game's pause (flow.Pause): one player asks with pause, the
// other accepts with pause (or its button), and both clocks stop until
// either player resumes (cmdResume), or until the game's
// gobot.PauseAllowance is spent: then the pause job (runner.go) restarts
// them and says so in the room.

func cmdPause(call *Call) (Result, error) {
	b, r := call.bot, call.Req
	l, o, rep, fx, err := b.act(call, actionOf(call, flow.Pause{}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		return say.Paused(l.Match, r.User.ID, o.Did.(flow.Paused))
	})
	if err != nil {
		return Result{}, err
	}
	if !o.Did.(flow.Paused).Accepted {
		rep.Mentions = l.Match.Side(o.Seat.Opponent()).Answerers()
		rep.Actions = []protocol.Action{{ID: b.actionID("pause", l, ""), Label: "Accept pause", Style: protocol.Primary}}
	}
	return reply(rep, fx)
}

// pauseDue takes a game whose deadline is its pause's end (Match.Due):
// it is due when the game's pause time is spent.
func pauseDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return item.Due == gobot.DuePause, !now.Before(item.At)
}
