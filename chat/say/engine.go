package say

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// EngineTurn says what engine name did in its turn t, on a board height
// rows high; autoPass is the pass the game then made for White (chat's
// white-passes placement note), said after a stone the engine played.
func EngineTurn(t flow.EngineTurn, name string, height int, autoPass string) string {
	me := protocol.Mention(gobot.EngineUser(name))
	switch t.Job {
	case flow.JobMove:
		return engineMoved(t, me, height, autoPass)
	case flow.JobPropose:
		var names []string
		for _, p := range t.Dead {
			names = append(names, p.GTP(height))
		}
		list := "no dead stones"
		if len(names) > 0 {
			list = "dead: " + protocol.ClipRunes(strings.Join(names, " "), 200)
		}
		if t.Color == game.Empty {
			return fmt.Sprintf("%s proposes the dead stones (%s).", me, list)
		}
		return fmt.Sprintf("%s proposes %s and accepts that count. Accept with %s, mark stones with %s (%s re-checks them), or %s.",
			me, list, Cmd("done"), Cmd("dead <point>"), me, Cmd("resume"))
	case flow.JobReview:
		if t.Agrees {
			return fmt.Sprintf("%s accepts this marking.", me)
		}
		return fmt.Sprintf("%s does not agree with that marking, so play resumes to settle it: play where you think it is wrong, or pass.", me)
	case flow.JobAccept:
		return fmt.Sprintf("%s accepts the count.", me)
	}
	return ""
}

func engineMoved(t flow.EngineTurn, me string, height int, autoPass string) string {
	if t.Resigned {
		return fmt.Sprintf("%s resigned.", me)
	}
	var pts []string
	for _, p := range t.Played {
		pts = append(pts, p.GTP(height))
	}
	var what string
	switch {
	case len(pts) > 1:
		what = fmt.Sprintf("%s placed %s.", me, strings.Join(pts, ", "))
	case len(pts) == 1:
		what = fmt.Sprintf("%s played %s.", me, pts[0])
	case t.Passed:
		what = fmt.Sprintf("%s passed.", me)
		if t.Scored {
			what += " Both players passed: the game is being scored."
		}
	}
	if len(pts) > 0 {
		what += autoPass
	}
	if t.Illegal != "" {
		what += fmt.Sprintf(" (It proposed %s, which the rules refuse, so it passed.)", protocol.ClipRunes(t.Illegal, 80))
	}
	return what
}

// EngineFallback is what an engine game's room is told when engine name
// could not judge the dead stones (err).
func EngineFallback(name string, err error) string {
	return fmt.Sprintf("%s could not judge the dead stones (%s), so it accepts the marking as it stands.", protocol.Mention(gobot.EngineUser(name)), protocol.ClipRunes(err.Error(), 200))
}

// EngineUnanswered tells the room that engine name could not answer in
// game id (err); nothing changed.
func EngineUnanswered(name string, id gobot.GameID, err error) string {
	return fmt.Sprintf("%s could not answer in game #%d (%s). Nothing changed; I will ask it again shortly.", protocol.Mention(gobot.EngineUser(name)), id, protocol.ClipRunes(err.Error(), 200))
}

// IntList writes levels: "1, 2, 5", or "1 to 10" for a longer run.
func IntList(v []int) string {
	var s []string
	for _, n := range v {
		s = append(s, strconv.Itoa(n))
	}
	if len(s) > 3 && slices.Equal(v, makeRange(v[0], v[len(v)-1])) {
		return fmt.Sprintf("%d to %d", v[0], v[len(v)-1])
	}
	return strings.Join(s, ", ")
}

func makeRange(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

// EngineLine is an engine's line in `engines`: its name, what it is,
// its levels (none: its own) and board sizes (none: any square board).
func EngineLine(name, about string, levels, sizes []int) string {
	s := "• " + name
	if about != "" {
		s += " (" + about + ")"
	}
	if len(levels) > 0 {
		s += ": levels " + IntList(levels)
	} else {
		s += ": its own level"
	}
	if len(sizes) > 0 {
		var sz []string
		for _, n := range sizes {
			sz = append(sz, game.SizeString(n, n))
		}
		s += "; boards " + strings.Join(sz, ", ")
	} else {
		s += "; square boards it accepts"
	}
	return s
}

// NoEngines is `engines` without any: missing says why (how to install).
func NoEngines(missing string) string {
	msg := "No computer opponent is configured."
	if missing != "" {
		msg += " " + missing
	}
	return msg
}

// EngineList is `engines`: the engines' lines (EngineLine), the first
// engine's name for the example, whether engine games are rated, whether
// this room turned them off, and the engine proposing the dead stones of
// people's games ("" for none).
func EngineList(lines []string, first string, rated, off bool, scorer string) string {
	unrated := " and is unrated"
	if rated {
		unrated = ""
	}
	text := "Computer opponents:\n" + strings.Join(lines, "\n") +
		fmt.Sprintf("\nPlay one with %s; the game starts at once%s.", Cmd("challenge engine="+first+" level=1 9"), unrated)
	if off {
		text += "\nThey are turned off in this room."
	}
	if scorer != "" {
		text += fmt.Sprintf("\n%s proposes the dead stones of games between people.", scorer)
	}
	return text
}
