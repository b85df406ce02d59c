package say

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// PlanPrivate is the refusal of plan command name typed where everyone
// sees the answer (a shared Matrix room); it repeats none of the moves.
func PlanPrivate(name string) error {
	return Refusef("Plans are private: send %s to me in a direct message instead (add the game, like #7, if you have several). I haven't kept what you wrote.", Cmd(name))
}

// PlanRefusal words the refusals of a plan (package flow's typed
// errors) in match, played on a board of cfg (the zero Config before the
// game is loaded); any other error is returned as it is.
func PlanRefusal(match *gobot.Match, cfg game.Config, err error) error {
	var (
		no   flow.Unplannable
		word flow.LineWord
		move flow.LineMove
		big  flow.PlanTooBig
	)
	switch {
	case errors.As(err, &no):
		return Refusef("%s", planReasons[no.Reason](match))
	case errors.As(err, &word):
		return Refusef("Move %d of the line: %s Nothing was planned.", word.Move, protocol.PointError(word.Word, cfg.Width, cfg.Height, word.Err))
	case errors.As(err, &move):
		whose := "their"
		if move.Mine {
			whose = "your"
		}
		h := cfg.Height
		return Refusef("Move %d of the line (%s %s): %s Nothing was planned.", move.Move, whose, move.Point.GTP(h), MoveError(move.Err, move.Point, h, move.Ahead))
	case errors.As(err, &big):
		return Refusef("A plan holds at most %d planned replies; with this line it would hold %d. Drop some with %s.", gobot.MaxPlanBranches, big.Size, Cmd(fmt.Sprintf("plan clear #%d", match.ID)))
	}
	return err
}

var planReasons = map[flow.PlanReason]func(m *gobot.Match) string{
	flow.PlanNotPlayer: func(m *gobot.Match) string {
		return fmt.Sprintf("You don't play in game #%d, so you have no plan there.", m.ID)
	},
	flow.PlanOver: func(m *gobot.Match) string { return IsOver(m).Error() },
	flow.PlanEngine: func(m *gobot.Match) string {
		return fmt.Sprintf("Plans are for games between people: %s answers at once, so there is nothing to plan in game #%d.", protocol.Mention(gobot.EngineUser(m.Engine)), m.ID)
	},
	flow.PlanRoom: func(m *gobot.Match) string {
		return fmt.Sprintf("Plans are for two-player games: in game #%d the room's moves are decided by vote, so there is nothing to plan.", m.ID)
	},
	flow.PlanTeam: func(m *gobot.Match) string {
		return fmt.Sprintf("Plans are for two-player games: in team game #%d each turn is one player's, so there is nothing to plan.", m.ID)
	},
	flow.PlanScoring: func(m *gobot.Match) string {
		return fmt.Sprintf("Game #%d is being scored; plans are for moves while playing.", m.ID)
	},
	flow.PlanHandicap: func(m *gobot.Match) string {
		return fmt.Sprintf("The handicap stones of game #%d are still being placed; plan once they are.", m.ID)
	},
	flow.PlanYourTurn: func(m *gobot.Match) string {
		return fmt.Sprintf("It's your turn in game #%d: play your move now. Plans are for your opponent's turn.", m.ID)
	},
}

// PlanArgs refuses a plan command's moves before the game is looked at:
// both clear and moves (clear), no moves, too many, or an odd number.
func PlanArgs(clear bool, n int) error {
	switch {
	case clear && n > 0:
		return Refusef("%s drops the whole plan and takes no moves.", Cmd("plan clear"))
	case clear:
		return nil
	case n == 0:
		return Refusef("Which moves? Give their move and then your reply, like %s (if they play C3, you play C4).", Cmd("plan C3 C4"))
	case n > 2*gobot.MaxPlanPairs:
		return Refusef("A line holds at most %d pairs (their move, your reply); this one has %d moves. Plan the first %d pairs now and the rest once they are played.", gobot.MaxPlanPairs, n, gobot.MaxPlanPairs)
	case n%2 == 1:
		return Refusef("A plan goes in pairs: their move, then your reply. You gave %d move%s; add your reply to the last one.", n, Plural(n))
	}
	return nil
}

// Planned says the line planned in game l against the player of colour
// them.
func Planned(l *flow.Loaded, them game.Color, o flow.Planned) string {
	match, h, line := l.Match, l.G.Config().Height, o.Line
	opp := protocol.Mention(match.Side(them).ToMove())
	what := fmt.Sprintf("Planned in game #%d: if %s %s, I %s for you.", match.ID, opp, theirWords(line[0].Their, h), replyWords(line[0].Reply, h))
	if len(line) > 1 {
		what = fmt.Sprintf("Planned in game #%d, a line of %d replies: if %s %s, I %s for you, and so on.", match.ID, len(line), opp, theirWords(line[0].Their, h), replyWords(line[0].Reply, h))
	}
	if o.Replaced {
		what += " It replaces the branch that answered the same move differently."
	}
	return what
}

// theirWords is the opponent's move in a sentence: "plays C3", "passes".
func theirWords(p game.Point, h int) string {
	if p.IsPass() {
		return "passes"
	}
	return "plays " + p.GTP(h)
}

// replyWords is the planned reply in a sentence: "play C4", "pass".
func replyWords(p game.Point, h int) string {
	if p.IsPass() {
		return "pass"
	}
	return "play " + p.GTP(h)
}

// MoveError says why a move of a line (ahead: when planned) or a
// planned reply (now) cannot be played, in the words `play` uses.
func MoveError(err error, p game.Point, h int, ahead bool) string {
	then := ""
	if ahead {
		then = " by then"
	}
	switch {
	case errors.Is(err, game.ErrOccupied):
		return fmt.Sprintf("%s is occupied%s.", p.GTP(h), then)
	case errors.Is(err, game.ErrKo):
		return fmt.Sprintf("%s would retake the ko at once.", p.GTP(h))
	case errors.Is(err, game.ErrSuperko):
		return fmt.Sprintf("%s would repeat an earlier whole-board position (superko).", p.GTP(h))
	case errors.Is(err, game.ErrSuicide):
		return fmt.Sprintf("%s would have no liberties and capture nothing: suicide is not allowed under these rules.", p.GTP(h))
	case errors.Is(err, game.ErrScoring) && ahead:
		return "both players have passed by then, so the game is being scored and the line can't go on."
	case errors.Is(err, game.ErrScoring):
		return "the game is being scored."
	case errors.Is(err, game.ErrGameOver):
		return "the game is over" + then + "."
	case errors.Is(err, game.ErrHandicapPass):
		return "handicap stones are placed before anyone passes."
	}
	return "it can't be played there."
}

// PlanCleared says whether u's plan in game id was cleared.
func PlanCleared(id gobot.GameID, had bool) string {
	if !had {
		return fmt.Sprintf("You had no plan in game #%d; nothing to clear.", id)
	}
	return fmt.Sprintf("Your plan in game #%d is cleared.", id)
}

// Plans shows the caller's plan in game id (nil: none).
func Plans(id gobot.GameID, plan *gobot.Plan, h int) string {
	if plan == nil {
		return fmt.Sprintf("You have no plan in game #%d. On your opponent's turn, %s plans a reply (if they play C3, you play C4).", id, Cmd(fmt.Sprintf("plan C3 C4 #%d", id)))
	}
	return fmt.Sprintf("Your plan in game #%d:\n%s", id, PlanText(plan.Branches, h))
}

// PlanText writes a plan tree as lines, one per path from its root to a
// leaf: "C3 → C4, then D3 → D4". Shared beginnings are written again on
// each line, so every line reads as the `plan` that makes it.
func PlanText(tree []gobot.PlanBranch, h int) string {
	var lines []string
	var walk func(t []gobot.PlanBranch, prefix string)
	walk = func(t []gobot.PlanBranch, prefix string) {
		for _, br := range t {
			s := fmt.Sprintf("%s → %s", br.Their.GTP(h), br.Reply.GTP(h))
			if prefix != "" {
				s = prefix + ", then " + s
			}
			if len(br.Next) == 0 {
				lines = append(lines, "• "+s)
				continue
			}
			walk(br.Next, s)
		}
	}
	walk(tree, "")
	return strings.Join(lines, "\n")
}

// PlanTitle is the title of a private reply about the caller's plan in
// game id.
func PlanTitle(id gobot.GameID) string { return fmt.Sprintf("Your plan · game #%d", id) }

// Followed says what a plan did after the opponent's move, in game l:
// the reply played (" @bob played C4 — planned."), or nothing; and,
// when the plan was dropped, why, for its owner ("" if nothing to tell).
func Followed(l *flow.Loaded, f flow.Followed) (said, why string) {
	match, h := l.Match, l.G.Config().Height
	if !f.Played && f.Dropped == flow.PlanKept {
		return "", ""
	}
	if f.Played {
		if f.Reply.IsPass() {
			s := fmt.Sprintf(" %s passed — planned.", protocol.Mention(f.Owner))
			if f.Scoring {
				s += " Both players passed: the game is being scored."
			}
			return s, ""
		}
		s := fmt.Sprintf(" %s played %s — planned", protocol.Mention(f.Owner), f.Reply.GTP(h))
		if f.Captured > 0 {
			s += fmt.Sprintf(", capturing %d stone%s", f.Captured, Plural(f.Captured))
		}
		return s + ".", ""
	}
	did := protocol.Mention(match.Side(f.Mover).ToMove()) + " played " + f.Their.GTP(h)
	if f.Their.IsPass() {
		did = protocol.Mention(match.Side(f.Mover).ToMove()) + " passed"
	}
	switch f.Dropped {
	case flow.PlanAfterPass:
		return "", did + " after your pass, so the game is being scored; nothing of your plan was played."
	case flow.PlanUncovered:
		return "", did + ", which your plan did not cover. It's your move."
	}
	return "", fmt.Sprintf("%s, but your planned reply %s can't be played now: %s It's your move.", did, f.Reply.GTP(h), MoveError(f.Err, f.Reply, h, false))
}

// PlanDropped tells a plan's owner that their plan in game id is
// cleared, and why.
func PlanDropped(id gobot.GameID, why string) string {
	return fmt.Sprintf("Your plan in game #%d is cleared: %s", id, why)
}
