package say

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
)

// PauseRefusal words the refusals of a live game's pause (package
// flow's typed errors) in match; any other error is returned as it is.
func PauseRefusal(m *gobot.Match, err error) error {
	var (
		no      flow.Unpausable
		already flow.AlreadyPaused
		waiting flow.PauseWaiting
	)
	switch {
	case errors.As(err, &no):
		switch no.Reason {
		case flow.PauseScoring:
			return Refusef("Game #%d is being scored: no clock runs.", m.ID)
		case flow.PauseNotLive:
			what := "its clock is correspondence"
			if m.Clock.Kind == gobot.NoClock {
				what = "it has no clock"
			}
			return Refusef("Game #%d is not a live game: %s. Only a live game's clocks pause (for time away: %s).", m.ID, what, Cmd("vacation on"))
		case flow.PauseEngine:
			return Refusef("%s does not pause; play on, or %s.", protocol.Mention(gobot.EngineUser(m.Engine)), Cmd("resign"))
		}
		return Refusef("Game #%d is played by a room's vote, which cannot answer a pause; play on, or %s.", m.ID, Cmd("resign"))
	case errors.As(err, &already):
		return Refusef("Game #%d's clocks are already paused (%s of pause left); %s restarts them.", m.ID, protocol.FormatDuration(already.Left), Cmd("resume"))
	case errors.Is(err, flow.PauseUsedUp{}):
		return Refusef("Game #%d has used its %s of pause; play on.", m.ID, protocol.FormatDuration(gobot.PauseAllowance))
	case errors.As(err, &waiting):
		return Refusef("You already asked for a pause; waiting for %s to accept with %s.", Answerer(m, waiting.Side.Opponent()), Cmd("pause"))
	case errors.Is(err, flow.NotPaused{}):
		return Refusef("Nothing is paused in game #%d: its clocks run. %s asks the other player to stop them.", m.ID, Cmd("pause"))
	}
	return err
}

// Paused says u's pause command in match: the ask, or the pause.
func Paused(m *gobot.Match, u gobot.UserID, o flow.Paused) string {
	if o.Accepted {
		return fmt.Sprintf("%s accepted: both clocks of game #%d are paused, for at most %s. %s restarts them.", protocol.Mention(u), m.ID, protocol.FormatDuration(o.Left), Cmd("resume"))
	}
	return fmt.Sprintf("%s asks to pause game #%d. %s, %s to accept (both clocks stop; %s of pause left).", protocol.Mention(u), m.ID, Answerer(m, m.ColorOf(u).Opponent()), Cmd(fmt.Sprintf("pause #%d", m.ID)), protocol.FormatDuration(o.Left))
}

// PauseOver says that match's pause time is used up.
func PauseOver(m *gobot.Match) string {
	return fmt.Sprintf("Game #%d's %s of pause are used up: the clocks run again.", m.ID, protocol.FormatDuration(gobot.PauseAllowance))
}
