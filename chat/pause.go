package chat

import (
	"fmt"
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

// endPause restarts the clocks of a game whose pause time is spent, and
// says so in the room.
func endPause(c *JobCall) (Done, error) {
	b, tx, m, now := c.bot, c.Tx, c.Match, c.Now
	if !m.Active() || !m.LivePaused() || now.Before(m.Deadline) {
		return Done{}, nil
	}
	l, err := load(m)
	if err != nil {
		return Done{}, err
	}
	step := fmt.Sprintf("game %d pause %d ends", m.ID, m.Pause.Since.UnixNano())
	flow.EndPause(m, now)
	if err := flow.Save(tx, m); err != nil {
		return Done{}, err
	}
	var fx Effects
	rep := b.gameReplyAt(&fx, tx, l, occasion{Room: m.Room, At: now}, say.PauseOver(m))
	rep.Mentions = m.Side(l.G.ToMove()).Pinged()
	fx.notify(protocol.Message{Room: m.Room, Reply: rep})
	return done("pause ended", step, fx)
}
