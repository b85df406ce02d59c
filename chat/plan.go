package chat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Conditional moves: on the opponent's turn a player plans replies
// (`plan C3 C4 D3 D4`: if they play C3, I play C4; then if they play D3,
// I play D4). Lines merge into a tree (gobot.MergePlan). When the
// opponent plays a move the plan covers, the reply is played in the same
// transaction (followPlan, from cmdPlay and cmdPass); a move it does not
// cover, or a reply that is no longer legal, drops it and tells its owner
// privately. Plans are private: their replies are Private, and the
// commands are refused where a reply cannot be (router.go).

// planPrivate is the refusal of a plan command typed where everyone sees
// the answer (a shared Matrix room); it repeats none of the moves.
func (b *core) planPrivate(name string) error {
	return errorf("Plans are private: send %s to me in a direct message instead (add the game, like #7, if you have several). I haven't kept what you wrote.", b.cmd(name))
}

// planGame finds the game a plan command names, one the caller plays
// in; planning, it also checks that the caller may plan there now.
func (b *core) planGame(call *Call, planning bool) (*loaded, game.Color, error) {
	tx, r, a := call.Tx, call.Req, call.Args
	match, err := findGame(tx, b, r, a.Game, true)
	if err != nil {
		return nil, 0, err
	}
	me := match.ColorOf(r.User.ID)
	if me == game.Empty {
		return nil, 0, errorf("You don't play in game #%d, so you have no plan there.", match.ID)
	}
	if !match.Active() {
		return nil, 0, errorf("Game #%d is over: %s.", match.ID, say.ResultWords(match.Result))
	}
	if match.Engine != "" {
		return nil, 0, errorf("Plans are for games between people: %s answers at once, so there is nothing to plan in game #%d.", protocol.Mention(EngineUser(match.Engine)), match.ID)
	}
	if match.Has(gobot.SideRoom) {
		return nil, 0, errorf("Plans are for two-player games: in game #%d the room's moves are decided by vote, so there is nothing to plan.", match.ID)
	}
	if match.Has(gobot.SideTeam) { // rengo.go: each turn is one player's
		return nil, 0, errorf("Plans are for two-player games: in team game #%d each turn is one player's, so there is nothing to plan.", match.ID)
	}
	l, err := load(match)
	if err != nil {
		return nil, 0, err
	}
	if !planning {
		return l, me, nil
	}
	switch {
	case l.G.Phase() == game.Scoring:
		return nil, 0, errorf("Game #%d is being scored; plans are for moves while playing.", match.ID)
	case l.G.HandicapLeft() > 0:
		return nil, 0, errorf("The handicap stones of game #%d are still being placed; plan once they are.", match.ID)
	case l.G.ToMove() == me:
		return nil, 0, errorf("It's your turn in game #%d: play your move now. Plans are for your opponent's turn.", match.ID)
	}
	return l, me, nil
}

func cmdPlan(call *Call) (Result, error) {
	a := call.Args
	clear := a.Choice["clear"] != ""
	switch {
	case clear && len(a.Points) > 0:
		return Result{}, errorf("%s drops the whole plan and takes no moves.", call.bot.cmd("plan clear"))
	case clear:
		return planClear(call)
	case len(a.Points) == 0:
		return Result{}, errorf("Which moves? Give their move and then your reply, like %s (if they play C3, you play C4).", call.bot.cmd("plan C3 C4"))
	}
	return planLine(call)
}

// planLine checks the line against the current position and merges it
// into the caller's plan.
func planLine(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if n := len(a.Points); n > 2*gobot.MaxPlanPairs {
		return Result{}, errorf("A line holds at most %d pairs (their move, your reply); this one has %d moves. Plan the first %d pairs now and the rest once they are played.", gobot.MaxPlanPairs, n, gobot.MaxPlanPairs)
	} else if n%2 == 1 {
		return Result{}, errorf("A plan goes in pairs: their move, then your reply. You gave %d move%s; add your reply to the last one.", n, say.Plural(n))
	}
	l, me, err := b.planGame(call, true)
	if err != nil {
		return Result{}, err
	}
	cfg := l.G.Config()
	line, err := checkLine(l.G, me, a.Points)
	if err != nil {
		return Result{}, err
	}
	var tree []gobot.PlanBranch
	if l.Match.Plan != nil && l.Match.Plan.By == r.User.ID {
		tree = l.Match.Plan.Branches
	}
	merged, replaced := gobot.MergePlan(tree, line)
	if n := gobot.PlanSize(merged); n > gobot.MaxPlanBranches {
		return Result{}, errorf("A plan holds at most %d planned replies; with this line it would hold %d. Drop some with %s.", gobot.MaxPlanBranches, n, b.cmd(fmt.Sprintf("plan clear #%d", l.Match.ID)))
	}
	l.Match.Plan = &gobot.Plan{By: r.User.ID, Branches: merged}
	l.Match.Updated = r.Time
	if err := tx.PutMatch(l.Match); err != nil {
		return Result{}, err
	}
	them := protocol.Mention(l.Match.Side(me.Opponent()).ToMove())
	what := fmt.Sprintf("Planned in game #%d: if %s %s, I %s for you.", l.Match.ID, them, theirWords(line[0].Their, cfg.Height), replyWords(line[0].Reply, cfg.Height))
	if len(line) > 1 {
		what = fmt.Sprintf("Planned in game #%d, a line of %d replies: if %s %s, I %s for you, and so on.", l.Match.ID, len(line), them, theirWords(line[0].Their, cfg.Height), replyWords(line[0].Reply, cfg.Height))
	}
	if replaced {
		what += " It replaces the branch that answered the same move differently."
	}
	return reply(planReply(l, what), Effects{})
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

// checkLine reads a line's moves and replays them on g's position, the
// opponent's first: each must be legal when its turn comes.
func checkLine(g *game.Game, me game.Color, words []string) ([]gobot.PlanPair, error) {
	cfg := g.Config()
	try, err := game.Replay(g.Record())
	if err != nil {
		return nil, err
	}
	var line []gobot.PlanPair
	var pair gobot.PlanPair
	for i, w := range words {
		who, whose := me.Opponent(), "their"
		if i%2 == 1 {
			who, whose = me, "your"
		}
		p, err := game.ParsePoint(w, cfg.Width, cfg.Height)
		if err != nil {
			if errors.Is(err, game.ErrOffBoard) {
				return nil, errorf("Move %d of the line (%s) is off the board: this board goes from A1 to %s. Nothing was planned.", i+1, protocol.ClipArg(w), game.Pt(cfg.Width-1, 0).GTP(cfg.Height))
			}
			return nil, errorf("Move %d of the line, %s, isn't a point: write them like D4 (or pass). Nothing was planned.", i+1, protocol.Echo(w))
		}
		if err := try.Play(who, p); err != nil {
			// "by then" only of what the line itself brings about: the
			// first move meets the position as it is, and a point taken
			// now is occupied now.
			ahead := i > 0 && !(errors.Is(err, game.ErrOccupied) && g.At(p) != game.Empty)
			return nil, errorf("Move %d of the line (%s %s): %s Nothing was planned.", i+1, whose, p.GTP(cfg.Height), planMoveError(err, p, cfg.Height, ahead))
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

// planMoveError says why a move of a line (ahead: when planned) or a
// planned reply (now) cannot be played, in the words `play` uses.
func planMoveError(err error, p game.Point, h int, ahead bool) string {
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

func planClear(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	l, _, err := b.planGame(call, false)
	if err != nil {
		return Result{}, err
	}
	if l.Match.Plan == nil || l.Match.Plan.By != r.User.ID {
		return reply(planReply(l, fmt.Sprintf("You had no plan in game #%d; nothing to clear.", l.Match.ID)), Effects{})
	}
	l.Match.Plan = nil
	l.Match.Updated = r.Time
	if err := tx.PutMatch(l.Match); err != nil {
		return Result{}, err
	}
	return reply(planReply(l, fmt.Sprintf("Your plan in game #%d is cleared.", l.Match.ID)), Effects{})
}

func cmdPlans(call *Call) (Result, error) {
	b, r := call.bot, call.Req
	l, _, err := b.planGame(call, false)
	if err != nil {
		return Result{}, err
	}
	if l.Match.Plan == nil || l.Match.Plan.By != r.User.ID {
		return reply(planReply(l, fmt.Sprintf("You have no plan in game #%d. On your opponent's turn, %s plans a reply (if they play C3, you play C4).", l.Match.ID, b.cmd(fmt.Sprintf("plan C3 C4 #%d", l.Match.ID)))), Effects{})
	}
	return reply(planReply(l, fmt.Sprintf("Your plan in game #%d:\n%s", l.Match.ID, PlanText(l.Match.Plan.Branches, l.G.Config().Height))), Effects{})
}

// planReply is a private reply about l's plan.
func planReply(l *loaded, text string) protocol.Reply {
	return protocol.Reply{Title: fmt.Sprintf("Your plan · game #%d", l.Match.ID), Text: text, Private: true, Game: l.Match.ID}
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

// followPlan runs after mover's move their in l (not yet saved): if the
// other player's plan answers it, the reply is played at the same instant
// and announced (the text returned); a move the plan does not cover, or
// a reply no longer legal, drops the plan and tells its owner privately.
func (b *core) followPlan(fx *Effects, l *loaded, mover game.Color, their game.Point, r *protocol.Request) string {
	plan := l.Match.Plan
	if plan == nil {
		return ""
	}
	owner := plan.By
	me := l.Match.ColorOf(owner)
	if me != mover.Opponent() || l.G.Phase() == game.Over {
		l.Match.Plan = nil
		return ""
	}
	h := l.G.Config().Height
	did := protocol.Mention(l.Match.Side(mover).ToMove()) + " played " + their.GTP(h)
	if their.IsPass() {
		did = protocol.Mention(l.Match.Side(mover).ToMove()) + " passed"
	}
	if l.G.Phase() == game.Scoring { // their pass answered the owner's: no reply is played now
		b.dropPlan(fx, l, did+" after your pass, so the game is being scored; nothing of your plan was played.")
		return ""
	}
	br, ok := gobot.PlanFollow(plan.Branches, their)
	if !ok {
		b.dropPlan(fx, l, did+", which your plan did not cover. It's your move.")
		return ""
	}
	before := l.G.Captures(me)
	if err := l.G.Play(me, br.Reply); err != nil {
		b.dropPlan(fx, l, fmt.Sprintf("%s, but your planned reply %s can't be played now: %s It's your move.", did, br.Reply.GTP(h), planMoveError(err, br.Reply, h, false)))
		return ""
	}
	flow.Moved(l.Match, l.G, me, r.Time)
	b.afterMove(l, r)
	l.Match.Plan = &gobot.Plan{By: owner, Branches: br.Next}
	if len(br.Next) == 0 || l.G.Phase() != game.Playing {
		l.Match.Plan = nil
	}
	if br.Reply.IsPass() {
		s := fmt.Sprintf(" %s passed — planned.", protocol.Mention(owner))
		if l.G.Phase() == game.Scoring {
			s += " Both players passed: the game is being scored."
		}
		return s
	}
	s := fmt.Sprintf(" %s played %s — planned", protocol.Mention(owner), br.Reply.GTP(h))
	if n := l.G.Captures(me) - before; n > 0 {
		s += fmt.Sprintf(", capturing %d stone%s", n, say.Plural(n))
	}
	return s + "."
}

// dropPlan clears l's plan and tells its owner why, privately.
func (b *core) dropPlan(fx *Effects, l *loaded, why string) {
	plan := l.Match.Plan
	if plan == nil {
		return
	}
	l.Match.Plan = nil
	fx.notify(protocol.Message{To: plan.By, Room: l.Match.Room, Reply: protocol.Reply{
		Title: fmt.Sprintf("Your plan · game #%d", l.Match.ID), Game: l.Match.ID, Private: true,
		Text: fmt.Sprintf("Your plan in game #%d is cleared: %s", l.Match.ID, why)}})
}
