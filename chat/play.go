package chat

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

func cmdPlay(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	var fx Effects
	rest := a.Points
	var what string
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		cfg := l.G.Config()
		p, err := game.ParsePoint(rest[0], cfg.Width, cfg.Height)
		if err != nil {
			if errors.Is(err, game.ErrOffBoard) {
				return errorf("%s is off the board: this %s board goes from A1 to %s.", protocol.ClipArg(rest[0]), game.SizeString(cfg.Width, cfg.Height), game.Pt(cfg.Width-1, 0).GTP(cfg.Height))
			}
			if strings.Contains(strings.ToUpper(rest[0]), "I") && !strings.EqualFold(rest[0], "pass") {
				return errorf("%s: there is no column I on a go board (the letters skip from H to J).", protocol.Echo(rest[0]))
			}
			return errorf("%s isn't a point: write a column letter and a row number, like D4.", protocol.Echo(rest[0]))
		}
		if err := b.checkTurn(tx, l, me, r.User.ID, r.Time); err != nil {
			return err
		}
		if p.IsPass() {
			if err := b.pass(l, me, r); err != nil {
				return err
			}
			what = b.passText(l, r.User.ID) + b.followPlan(&fx, l, me, p, r)
			return nil
		}
		if l.G.At(p) != game.Empty {
			return errorf("%s is occupied — choose an empty point.", p.GTP(cfg.Height))
		}
		before, count := l.G.Captures(me), l.G.MoveCount()
		if err := l.G.Play(me, p); err != nil {
			if errors.Is(err, game.ErrKo) {
				return errorf("%s would retake the ko — play elsewhere first (a ko threat), then you may take it back.", p.GTP(cfg.Height))
			}
			return err
		}
		what = fmt.Sprintf("%s played %s", protocol.Mention(r.User.ID), p.GTP(cfg.Height))
		if n := l.G.Captures(me) - before; n > 0 {
			what += fmt.Sprintf(", capturing %d stone%s", n, say.Plural(n))
		}
		what += "." + autoPassText(l, count)
		flow.Moved(l.Match, l.G, me, r.Time)
		b.afterMove(l, r)
		what += b.followPlan(&fx, l, me, p, r)
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, what), fx)
}

// autoPassText announces the pass the game made for White after Black's
// move (white-passes placement), given the move count before that move.
func autoPassText(l *loaded, before int) string {
	if n := l.G.MoveCount(); n > before+1 && l.G.Automatic(n-1) {
		return fmt.Sprintf(" %s (White) passes: under these rules White passes while Black places the handicap stones.", protocol.Mention(l.Match.Side(game.White).ToMove()))
	}
	return ""
}

// checkTurn reports whether u, playing colour me, may move now.
func (b *core) checkTurn(tx gobot.Tx, l *loaded, me game.Color, u gobot.UserID, now time.Time) error {
	switch l.G.Phase() {
	case game.Scoring:
		return game.ErrScoring
	case game.Over:
		return game.ErrGameOver
	}
	if l.Match.Side(me).Rotates() { // rengo.go: one player of the team
		if err := teamTurn(tx, l, u); err != nil {
			return err
		}
	} else if l.G.ToMove() != me {
		return errorf("It's not your turn: %s is to play in game #%d.", protocol.Mention(l.Match.Side(l.G.ToMove()).ToMove()), l.Match.ID)
	}
	return b.inTime(l.Match, now)
}

// inTime refuses a move in a live game that reached the server after the
// mover's deadline: the clock job ends the game on time (runClock) a
// moment later. Correspondence clocks take the move until then, as
// before.
func (b *core) inTime(match *gobot.Match, now time.Time) error {
	if match.LivePaused() { // pause.go
		return errorf("Game #%d is paused: both clocks stand still until %s.", match.ID, b.cmd("resume"))
	}
	if !match.Clock.Live() || match.Deadline.IsZero() || now.Before(match.Deadline) {
		return nil
	}
	return errorf("Too late: your time in game #%d ran out %s ago — the game is lost on time.", match.ID, protocol.FormatDuration(max(now.Sub(match.Deadline), time.Second)))
}

// afterMove ends the game record when the game is over.
func (b *core) afterMove(l *loaded, r *protocol.Request) {
	if l.G.Phase() == game.Over {
		flow.Finish(l.Match, l.G, r.Time)
	}
}

func (b *core) pass(l *loaded, me game.Color, r *protocol.Request) error {
	if err := l.G.Play(me, game.Pass); err != nil {
		return err
	}
	flow.Moved(l.Match, l.G, me, r.Time)
	b.afterMove(l, r)
	return nil
}

func (b *core) passText(l *loaded, u gobot.UserID) string {
	s := fmt.Sprintf("%s passed.", protocol.Mention(u))
	if l.G.Phase() == game.Scoring {
		s += fmt.Sprintf(" Both %s passed: the game is being scored.", say.Sides(l.Match))
	}
	return s
}

func cmdPass(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	var fx Effects
	var what string
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if err := b.checkTurn(tx, l, me, r.User.ID, r.Time); err != nil {
			return err
		}
		if err := b.pass(l, me, r); err != nil {
			return err
		}
		what = b.passText(l, r.User.ID) + b.followPlan(&fx, l, me, game.Pass, r)
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, what), fx)
}

func cmdResign(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	return b.end(tx, r, a.Game, true, "resigned", func(l *loaded, me game.Color) error { return l.G.Resign(me) })
}

// askResign asks the presser of a Resign button first, privately:
// "Resign game #1 against bob? [Yes, resign]"; only that button resigns
// (a typed resign is deliberate and resigns at once). It refuses as
// resign would whoever may not resign the game.
func askResign(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	match, err := findGame(tx, b, r, a.Game, true)
	if err != nil {
		return Result{}, err
	}
	me := match.ColorOf(r.User.ID)
	switch {
	case me == game.Empty:
		return Result{}, say.NotAPlayer(namer(tx), match)
	case !match.Active():
		return Result{}, game.ErrGameOver
	}
	opp := match.Side(me.Opponent())
	q := fmt.Sprintf("Resign game #%d against %s?", match.ID, say.Names(namer(tx), []gobot.UserID{opp.ToMove()}))
	if match.Side(me).Rotates() { // rengo.go: for the whole team
		q = fmt.Sprintf("Resign game #%d for %s against %s?", match.ID, say.SideName(namer(tx), match, me), say.Names(namer(tx), opp.Players))
	}
	return reply(protocol.Reply{Text: q, Private: true, Actions: []protocol.Action{
		{ID: r.Action, Label: "Yes, resign", Style: protocol.Danger}}}, Effects{})
}

func cmdAbort(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	return b.end(tx, r, a.Game, false, "aborted the game", func(l *loaded, me game.Color) error {
		if l.Match.Room != r.Room && !r.DM {
			return errorf("Game #%d belongs to another room; abort it there.", l.Match.ID)
		}
		return l.G.Abort()
	})
}

// end ends the game r refers to with stop (a resignation, an abort) and
// says who did what.
func (b *core) end(tx gobot.Tx, r *protocol.Request, id gobot.GameID, asPlayer bool, did string, stop func(l *loaded, me game.Color) error) (Result, error) {
	var fx Effects
	var who string
	l, err := b.change(&fx, tx, r, id, asPlayer, func(l *loaded, me game.Color) error {
		if err := stop(l, me); err != nil {
			return err
		}
		flow.Finish(l.Match, l.G, r.Time)
		if asPlayer { // a resignation: a team member resigns for the team (rengo.go)
			who = say.ActsFor(namer(tx), l.Match, me)
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, fmt.Sprintf("%s %s%s.", protocol.Mention(r.User.ID), did, who)), fx)
}

func cmdUndo(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // no undo in vote games (vote.go)
		return Result{}, err
	}
	var fx Effects
	refuse := a.Choice["no"] == "no"
	var text string
	var notifyUser gobot.UserID
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.G.Phase() == game.Over {
			return game.ErrGameOver
		}
		if l.Match.Engine != "" {
			return errorf("%s does not take back moves; play on, or %s.", protocol.Mention(EngineUser(l.Match.Engine)), b.cmd("resign"))
		}
		opp := l.Match.Side(me.Opponent()).ToMove()
		switch {
		case refuse && l.Match.UndoBy != "" && l.Match.ColorOf(l.Match.UndoBy) == me.Opponent():
			notifyUser = l.Match.UndoBy
			l.Match.UndoBy = ""
			text = fmt.Sprintf("%s refused to undo; the game goes on.", protocol.Mention(r.User.ID))
		case refuse:
			return errorf("There is no undo request from your opponent to refuse.")
		case l.Match.UndoBy != "" && l.Match.ColorOf(l.Match.UndoBy) == me:
			who := "You already asked"
			if l.Match.UndoBy != r.User.ID { // a teammate asked (rengo.go)
				who = protocol.Mention(l.Match.UndoBy) + " already asked for your team"
			}
			return errorf("%s; waiting for %s to answer %s or %s.", who, say.Answerer(l.Match, me.Opponent()), b.cmd("undo"), b.cmd("undo no"))
		case l.Match.UndoBy != "" && l.Match.ColorOf(l.Match.UndoBy) == me.Opponent():
			last, ok := l.G.LastMove()
			if !ok {
				return game.ErrNothingUndo
			}
			n, number := l.G.MoveCount(), l.G.MoveNumber()
			if err := l.G.Undo(); err != nil {
				return err
			}
			l.Match.Undos = append(l.Match.Undos, gobot.Undo{By: l.Match.UndoBy, Move: n, Was: last, At: r.Time})
			if k := l.G.MoveCount(); k < len(l.Match.MoveTimes) {
				l.Match.MoveTimes = l.Match.MoveTimes[:k]
			}
			l.Match.UndoBy = ""
			// An undo by agreement clears the plan (plan.go); its owner
			// is told, as when a move leaves it.
			b.dropPlan(&fx, l, fmt.Sprintf("move %d was taken back, so the position it was planned for is gone.", number))
			flow.StartClock(l.Match, l.G, r.Time)
			text = fmt.Sprintf("%s agreed: move %d (%s %s) was taken back.", protocol.Mention(r.User.ID), number, last.Color.Name(), last.Point.GTP(l.G.Config().Height))
		default:
			last, ok := l.G.LastMove()
			if !ok {
				return game.ErrNothingUndo
			}
			if last.Color != me && l.Match.Side(me).Rotates() { // rengo.go: the team asks
				return errorf("You can only ask to take back your team's last move; the last move was %s's (%s).", last.Color.Name(), say.Names(namer(tx), l.Match.Side(last.Color).Players))
			}
			if last.Color != me {
				return errorf("You can only ask to take back your own last move; the last move was %s's.", last.Color.Name())
			}
			l.Match.UndoBy = r.User.ID
			text = fmt.Sprintf("%s asks to take back the last move. %s, answer %s or %s.", protocol.Mention(r.User.ID), say.Answerer(l.Match, me.Opponent()), b.cmd(fmt.Sprintf("undo #%d", l.Match.ID)), b.cmd(fmt.Sprintf("undo no #%d", l.Match.ID)))
			notifyUser = opp
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	rep := b.gameReply(&fx, tx, l, r, text)
	if notifyUser != "" {
		rep.Mentions = l.Match.Side(l.Match.ColorOf(notifyUser)).Answerers() // any member of a team answers
	}
	if l.Match.UndoBy != "" {
		rep.Actions = []protocol.Action{
			{ID: b.actionID("undo", l, "yes"), Label: "Allow undo", Style: protocol.Primary},
			{ID: b.actionID("undo", l, "no"), Label: "Refuse", Style: protocol.Secondary},
		}
	}
	return reply(rep, fx)
}

func cmdDead(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	var fx Effects
	var toggled []string
	var withdrawn string
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.G.Phase() != game.Scoring {
			return game.ErrNotScoring
		}
		before := [...]bool{l.G.Accepted(game.Black), l.G.Accepted(game.White)}
		defer func() { withdrawn = b.withdrawnText(tx, l, me, r.User.ID, before) }()
		cfg := l.G.Config()
		for _, s := range a.Points {
			p, err := game.ParsePoint(s, cfg.Width, cfg.Height)
			if err != nil || p.IsPass() {
				return errorf("%s isn't a point on this board: give stones like D4.", protocol.Echo(s))
			}
			if l.G.At(p) == game.Empty {
				return errorf("There is no stone at %s to mark.", p.GTP(cfg.Height))
			}
			if err := l.G.ToggleDead(p, false); err != nil {
				return err
			}
			state := "alive"
			if l.G.IsDead(p) {
				state = "dead"
			}
			toggled = append(toggled, p.GTP(cfg.Height)+" "+state)
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	text := fmt.Sprintf("%s marked %s.", protocol.Mention(r.User.ID), strings.Join(toggled, ", "))
	if withdrawn != "" {
		text += "\n" + withdrawn
	}
	return reply(b.gameReply(&fx, tx, l, r, text), fx)
}

// withdrawnText says whose acceptance of the count a new marking by u
// (playing me) withdrew, given who had accepted before it (Black, White):
// "@bob changed the dead stones, so @alice's acceptance is withdrawn;
// @alice, check and `done` again." It is "" when none was.
func (b *core) withdrawnText(tx gobot.Tx, l *loaded, me game.Color, u gobot.UserID, before [2]bool) string {
	var lines []string
	for i, c := range []game.Color{game.Black, game.White} {
		if !before[i] || l.G.Accepted(c) {
			continue
		}
		side := l.Match.Side(c)
		if c == me && side.Kind == gobot.SidePerson {
			lines = append(lines, fmt.Sprintf("%s changed the dead stones after accepting, so that acceptance is withdrawn; %s again to accept this count.", protocol.Mention(u), b.cmd("done")))
			continue
		}
		// A team's or the room's acceptance may be another member's:
		// it is the side's that is withdrawn.
		if side.Kind == gobot.SideRoom {
			lines = append(lines, fmt.Sprintf("%s changed the dead stones, so the room's acceptance is withdrawn; a voter checks and sends %s again.", protocol.Mention(u), b.cmd("done")))
			continue
		}
		whose := protocol.Mention(side.ToMove()) + "'s"
		if side.Rotates() {
			whose = c.Name() + "'s"
		}
		lines = append(lines, fmt.Sprintf("%s changed the dead stones, so %s acceptance is withdrawn; %s, check and %s again.", protocol.Mention(u), whose, say.Answerer(l.Match, c), b.cmd("done")))
	}
	return strings.Join(lines, "\n")
}

func cmdDone(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	var fx Effects
	var text string
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.G.Phase() != game.Scoring {
			return game.ErrNotScoring
		}
		if l.G.Accepted(me) {
			return errorf("You already accepted this count; waiting for %s.", say.Answerer(l.Match, me.Opponent()))
		}
		_, over, err := l.G.Accept(me)
		if err != nil {
			return err
		}
		l.acceptSaid = me
		if over {
			flow.Finish(l.Match, l.G, r.Time)
			text = fmt.Sprintf("Both %s accepted the count.", say.Sides(l.Match))
		} else {
			text = fmt.Sprintf("%s accepts the count%s. %s, %s to agree, or mark stones with %s.", protocol.Mention(r.User.ID), say.ActsFor(namer(tx), l.Match, me), say.Answerer(l.Match, me.Opponent()), b.cmd("done"), b.cmd("dead <point>"))
		}
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, text), fx)
}

func cmdResume(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	var fx Effects
	text := fmt.Sprintf("%s resumed play to settle the position.", protocol.Mention(r.User.ID))
	l, err := b.change(&fx, tx, r, a.Game, true, func(l *loaded, me game.Color) error {
		if l.G.Phase() == game.Playing { // a live game's pause (pause.go)
			t, err := resumeLive(b, l, r)
			text = t
			return err
		}
		if err := l.G.Resume(); err != nil {
			return err
		}
		flow.StartClock(l.Match, l.G, r.Time)
		return nil
	})
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, text), fx)
}

// actionID encodes a button for game l.
func (b *core) actionID(cmd string, l *loaded, arg string) string {
	return protocol.Button{Command: cmd, Game: l.Match.ID, Version: l.Match.Version, Arg: arg}.ID()
}

// pendingNotAGame says that pending challenge c is not a game yet, and
// what u can do about it: accept it only where it is u's to accept.
func pendingNotAGame(b *core, c *gobot.Challenge, u gobot.UserID) error {
	switch {
	case c.From == u:
		return errorf("#%d is your challenge, not a game yet: it begins when it is accepted.", c.ID)
	case c.To == "" || c.Names(u):
		return errorf("#%d is a challenge that nobody has accepted yet, not a game: %s takes it.", c.ID, b.cmd(fmt.Sprintf("accept #%d", c.ID)))
	}
	return errorf("#%d is a challenge to %s, not a game yet.", c.ID, protocol.Mention(c.To))
}

// findGame resolves a game reference for r: "#7", or (empty) the
// caller's single active game in this room (in a DM: anywhere); for
// lookers (asPlayer false) also the room's single active game.
func findGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID, asPlayer bool) (*gobot.Match, error) {
	if id != 0 {
		match, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			if c, cerr := tx.Challenge(gobot.ChallengeID(id)); cerr == nil && c.Status == gobot.Pending {
				return nil, pendingNotAGame(b, c, r.User.ID)
			}
			return nil, errorf("There is no game #%d. %s lists yours.", id, b.cmd("games"))
		}
		return match, err
	}
	mine, err := tx.ActiveGames(r.User.ID)
	if err != nil {
		return nil, err
	}
	var here []*gobot.Match
	for _, g := range mine {
		if r.DM || g.Room == r.Room || (g.Thread && g.Parent == r.Room) {
			here = append(here, g)
		}
	}
	if len(here) == 0 && asPlayer { // a voter acts for the room (vote.go)
		if here, err = votedHere(tx, r); err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Someone who has not voted is a member of the room all the
			// same: the room's vote game is the one they mean, and its
			// handler says what they may do there.
			if here, err = roomVoteGames(tx, r); err != nil {
				return nil, err
			}
		}
	}
	if len(here) == 0 && !asPlayer {
		here, err = tx.RoomGames(r.Room, true)
		if err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Looking at a finished game: the caller's latest here, else
			// the room's latest.
			all, err := tx.RoomGames(r.Room, false)
			if err != nil {
				return nil, err
			}
			var pick *gobot.Match
			better := func(a, b *gobot.Match) bool { // a before b: the caller's games first, then the latest
				mineA, mineB := a.ColorOf(r.User.ID) != game.Empty, b.ColorOf(r.User.ID) != game.Empty
				if mineA != mineB {
					return mineA
				}
				return a.ID > b.ID
			}
			for _, g := range all {
				if pick == nil || better(g, pick) {
					pick = g
				}
			}
			if pick != nil {
				return pick, nil
			}
		}
	}
	switch len(here) {
	case 1:
		return here[0], nil
	case 0:
		if len(mine) > 0 {
			return nil, errorf("You have no active game in this room; name one like #%d (%s lists them).", mine[0].ID, b.cmd("games"))
		}
		return nil, errorf("You have no active game here. Start one with %s.", b.cmd("challenge @player"))
	}
	// The games the command can act on now come first; a scoring command
	// takes the one game being scored.
	fit := map[gobot.GameID]bool{}
	var fitting []*gobot.Match
	for _, g := range here {
		if fits(r.Command, g, r.User.ID) {
			fit[g.ID] = true
			fitting = append(fitting, g)
		}
	}
	if len(fitting) == 1 && scoringCommands[r.Command] {
		return fitting[0], nil
	}
	sort.SliceStable(here, func(i, j int) bool { return fit[here[i].ID] && !fit[here[j].ID] })
	var c, ids []string
	for _, g := range here {
		vs := fmt.Sprintf("%s vs %s", say.Called(namer(tx), g.Side(game.Black)), say.Called(namer(tx), g.Side(game.White)))
		c = append(c, fmt.Sprintf("#%d (%s)", g.ID, vs))
		ids = append(ids, fmt.Sprintf("#%d", g.ID))
	}
	example := b.cmd(protocol.ClipRunes(strings.TrimSpace(r.Command+" "+strings.Join(r.Args, " ")), protocol.MaxEcho) + " #" + fmt.Sprint(here[0].ID))
	return nil, say.Shortest(fmt.Sprintf("Which game? There are several: %s. Add the game, like %s.", protocol.ListSome(c), example),
		fmt.Sprintf("Which game? There are several: %s. Add the game, like %s.", protocol.ListSome(ids), example))
}

// scoringCommands act only on a game being scored.
var scoringCommands = map[string]bool{"done": true, "dead": true, "resume": true}

// fits reports whether command cmd can act on match for user u now: a
// scoring command on a game being scored, another on a game where it is
// u's turn.
func fits(cmd string, match *gobot.Match, u gobot.UserID) bool {
	l, err := load(match)
	if err != nil {
		return false
	}
	if cmd == "resume" && match.LivePaused() { // pause.go
		return l.G.Phase() == game.Playing
	}
	if cmd == "pause" {
		return l.G.Phase() == game.Playing && match.Clock.Live()
	}
	if scoringCommands[cmd] {
		return l.G.Phase() == game.Scoring
	}
	if cmd == "plan" { // plans are made on the opponent's turn (plan.go)
		return l.G.Phase() == game.Playing && l.G.ToMove() == match.ColorOf(u).Opponent()
	}
	return l.G.Phase() == game.Playing && match.Side(l.G.ToMove()).ToMove() == u
}

// loaded is a stored game with its rules engine state.
type loaded struct {
	*flow.Loaded
	// note is said after what a command did with the game (a team
	// game's turn passed on from a player on vacation: rengo.go).
	note string
	// acceptSaid is the side whose acceptance of the count the command's
	// own words announce ("@alice accepts the count."), so the scoring
	// lines do not say it again; Empty otherwise.
	acceptSaid game.Color
}

func load(match *gobot.Match) (*loaded, error) {
	l, err := flow.Load(match)
	if err != nil {
		return nil, err
	}
	return &loaded{Loaded: l}, nil
}

// change applies fn to the game r refers to, in the command's write
// transaction: the game is replayed, fn applied, the game rated if it
// ended, the record saved. Nothing is written if fn fails (the router
// rolls the whole transaction back).
func (b *core) change(fx *Effects, tx gobot.Tx, r *protocol.Request, id gobot.GameID, asPlayer bool, fn func(l *loaded, me game.Color) error) (*loaded, error) {
	match, err := findGame(tx, b, r, id, asPlayer)
	if err != nil {
		return nil, err
	}
	me := match.SeatOf(r.User.ID) // a player's colour, or a voter's room's (vote.go)
	if asPlayer && me == game.Empty {
		return nil, say.NotAPlayer(namer(tx), match)
	}
	if match.Clock.Live() && !r.Arrived.IsZero() {
		// A live game counts from the server's receipt: the adapter's
		// arrival, not the platform's timestamp (protocol.Request.Arrived).
		r.Time = r.Arrived
	}
	if !match.Active() {
		return nil, errorf("Game #%d is over: %s.", match.ID, say.ResultWords(match.Result))
	}
	if asPlayer && !scoringCommands[r.Command] && !match.Side(me).Plays(r.User.ID) {
		// A voter acts for the room only in the scoring; its moves,
		// passes and resignation are voted.
		return nil, say.VotesInstead(match, r.Command)
	}
	l, err := load(match)
	if err != nil {
		return nil, err
	}
	if err := fn(l, me); err != nil {
		return nil, err
	}
	if !l.Match.Active() { // it ended now: rate it in this transaction
		if err := b.rateGame(tx, l.Match, l.G); err != nil {
			return nil, err
		}
	}
	l.Match.Record = l.G.Record()
	l.note = b.passAwayTurns(tx, l) // rengo.go
	l.Match.Updated = r.Time
	b.engineDue(l, r.Time)
	if err := tx.PutMatch(l.Match); err != nil {
		return nil, err
	}
	b.wakeEngine(fx, l)
	return l, nil
}
