package chat

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

// A live game's pause (OGS's manners, issue 38): one player asks with
// pause, the other accepts with pause (or its button), and both clocks
// stop until either player resumes, or until the game's
// gobot.PauseAllowance is spent: then the pause job (runner.go) restarts
// them and says so in the room. While a pause runs, Match.Deadline is
// its end, as a vote window's close is (vote.go), and Pause.Left the
// time the player to move had; moves wait for resume.

func cmdPause(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	var fx Effects
	var text string
	asked := false
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		m := l.Match
		if err := pausable(b, l); err != nil {
			return err
		}
		if m.LivePaused() {
			return errorf("Game #%d's clocks are already paused (%s of pause left); %s restarts them.", m.ID, protocol.FormatDuration(m.PauseLeft(r.Time)), b.cmd("resume"))
		}
		left := m.PauseLeft(r.Time)
		if left <= 0 {
			return errorf("Game #%d has used its %s of pause; play on.", m.ID, protocol.FormatDuration(gobot.PauseAllowance))
		}
		if !r.Time.Before(m.Deadline) {
			return b.inTime(m, r.Time) // the clock job ends it on time
		}
		if m.Pause == nil {
			m.Pause = &gobot.LivePause{}
		}
		p := m.Pause
		if p.Asked == "" || m.ColorOf(p.Asked) == me {
			if p.Asked != "" {
				return errorf("You already asked for a pause; waiting for %s to accept with %s.", say.Answerer(m, me.Opponent()), b.cmd("pause"))
			}
			p.Asked, asked = r.User.ID, true
			text = fmt.Sprintf("%s asks to pause game #%d. %s, %s to accept (both clocks stop; %s of pause left).", protocol.Mention(r.User.ID), m.ID, say.Answerer(m, me.Opponent()), b.cmd(fmt.Sprintf("pause #%d", m.ID)), protocol.FormatDuration(left))
			return nil
		}
		p.Asked, p.Since, p.Left = "", r.Time, m.Deadline.Sub(r.Time)
		m.Deadline, m.Reminded = r.Time.Add(left), 0
		text = fmt.Sprintf("%s accepted: both clocks of game #%d are paused, for at most %s. %s restarts them.", protocol.Mention(r.User.ID), m.ID, protocol.FormatDuration(left), b.cmd("resume"))
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	rep := b.gameReply(&fx, tx, l, r, text)
	if asked {
		rep.Mentions = l.Match.Side(l.Match.ColorOf(r.User.ID).Opponent()).Answerers()
		rep.Actions = []protocol.Action{{ID: b.actionID("pause", l, ""), Label: "Accept pause", Style: protocol.Primary}}
	}
	return reply(rep, fx)
}

// pausable refuses a pause where none can be: a game not being played,
// a clock that is not live, a game against an engine.
func pausable(b *core, l *loaded) error {
	m := l.Match
	switch {
	case l.G.Phase() == game.Scoring:
		return errorf("Game #%d is being scored: no clock runs.", m.ID)
	case l.G.Phase() != game.Playing:
		return game.ErrGameOver
	case !m.Clock.Live():
		what := "its clock is correspondence"
		if m.Clock.Kind == gobot.NoClock {
			what = "it has no clock"
		}
		return errorf("Game #%d is not a live game: %s. Only a live game's clocks pause (for time away: %s).", m.ID, what, b.cmd("vacation on"))
	case m.Engine != "":
		return errorf("%s does not pause; play on, or %s.", protocol.Mention(EngineUser(m.Engine)), b.cmd("resign"))
	case m.Has(gobot.SideRoom):
		return errorf("Game #%d is played by a room's vote, which cannot answer a pause; play on, or %s.", m.ID, b.cmd("resign"))
	}
	return nil
}

// resumePause restarts the paused clocks of live game l at now: the
// player to move gets back the time they had.
func resumePause(m *gobot.Match, now time.Time) {
	p := m.Pause
	p.Used += now.Sub(p.Since)
	m.Deadline = now.Add(p.Left)
	p.Since, p.Left, p.Asked = time.Time{}, 0, ""
	m.Reminded = 0
}

// resumeLive is resume in a game being played: it restarts a live
// game's paused clocks, or says why there is nothing to resume.
func resumeLive(b *core, l *loaded, r *protocol.Request) (string, error) {
	m := l.Match
	if l.G.Phase() != game.Playing {
		return "", game.ErrNotScoring
	}
	if !m.LivePaused() {
		if err := pausable(b, l); err != nil {
			return "", err
		}
		return "", errorf("Nothing is paused in game #%d: its clocks run. %s asks the other player to stop them.", m.ID, b.cmd("pause"))
	}
	resumePause(m, r.Time)
	return fmt.Sprintf("%s resumed game #%d: the clocks run again (%s of pause left).", protocol.Mention(r.User.ID), m.ID, protocol.FormatDuration(m.PauseLeft(r.Time))), nil
}

// pauseDue takes a game whose clocks stand paused: it is due when the
// game's pause time is spent (its Deadline while paused).
func pauseDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	if !item.Match.LivePaused() {
		return false, false
	}
	return true, !now.Before(item.At)
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
	end := m.Deadline // the clocks run again from the pause's end, not the tick's
	resumePause(m, end)
	m.Updated = now
	if err := tx.PutMatch(m); err != nil {
		return Done{}, err
	}
	var fx Effects
	what := fmt.Sprintf("Game #%d's %s of pause are used up: the clocks run again.", m.ID, protocol.FormatDuration(gobot.PauseAllowance))
	rep := b.gameReplyAt(&fx, tx, l, occasion{Room: m.Room, At: now}, what)
	rep.Mentions = m.Side(l.G.ToMove()).Pinged()
	fx.notify(protocol.Message{Room: m.Room, Reply: rep})
	return done("pause ended", step, fx)
}
