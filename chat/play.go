package chat

import (
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

func cmdPlay(call *Call) (Result, error) { return play(call, call.Args.Points[0]) }

// cmdPass is a play of "pass".
func cmdPass(call *Call) (Result, error) { return play(call, "pass") }

// play plays word (a point, or pass) in the game call refers to.
func play(call *Call, word string) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	if err := b.voteRefusal(tx, r, call.Args.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	return b.acted(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		cfg := l.G.Config()
		p, err := game.ParsePoint(word, cfg.Width, cfg.Height)
		if err != nil {
			return "", say.BadPoint(word, cfg, err)
		}
		if err := flow.Turn(l.Loaded, me, r.User.ID, r.Time); err != nil {
			return "", err
		}
		var what string
		if p.IsPass() {
			o, err := flow.Pass(l.Loaded, me, r.Time)
			if err != nil {
				return "", err
			}
			what = say.Passed(l.Match, r.User.ID, o)
		} else {
			o, err := flow.Play(l.Loaded, me, p, r.Time)
			if err != nil {
				return "", err
			}
			what = say.Played(l.Loaded, r.User.ID, o)
		}
		return what + b.followPlan(fx, l, me, p, r), nil // plan.go
	})
}

// autoPassText announces the pass the game made for White after Black's
// move (white-passes placement), given the move count before that move.
func autoPassText(l *loaded, before int) string {
	return say.AutoPass(l.Match, flow.AutoPassed(l.G, before))
}

func cmdResign(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	if err := b.voteRefusal(tx, r, call.Args.Game); err != nil { // the room votes (vote.go)
		return Result{}, err
	}
	return b.acted(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		if _, err := flow.Resign(l.Loaded, me, r.Time); err != nil {
			return "", err
		}
		// A team member resigns for the team (rengo.go).
		return say.Ended(r.User.ID, true, say.ActsFor(namer(tx), l.Match, me)), nil
	})
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
	return reply(protocol.Reply{Text: say.AskResign(namer(tx), match, me), Private: true, Actions: []protocol.Action{
		{ID: r.Action, Label: "Yes, resign", Style: protocol.Danger}}}, Effects{})
}

func cmdAbort(call *Call) (Result, error) {
	r := call.Req
	return call.bot.acted(call, false, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		if l.Match.Room != r.Room && !r.DM {
			return "", say.AbortElsewhere(l.Match.ID)
		}
		_, err := flow.Abort(l.Loaded, r.Time)
		return say.Ended(r.User.ID, false, ""), err
	})
}

func cmdUndo(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if err := b.voteRefusal(tx, r, a.Game); err != nil { // no undo in vote games (vote.go)
		return Result{}, err
	}
	var o flow.Undone
	l, rep, fx, err := b.act(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		var err error
		if o, err = flow.Undo(l.Loaded, me, r.User.ID, a.Choice["no"] == "no", r.Time); err != nil {
			return "", err
		}
		if o.PlanOwner != "" { // plan.go: its owner is told
			b.planDropped(fx, l, o.PlanOwner, say.UndonePlan(o.Number))
		}
		return say.Undone(l.Loaded, me, r.User.ID, o), nil
	})
	if err != nil {
		return Result{}, err
	}
	switch asker := l.Match.ColorOf(o.Asked); o.Answer { // any member of a team answers
	case flow.UndoAsked:
		rep.Mentions = l.Match.Side(asker.Opponent()).Answerers()
	case flow.UndoRefused:
		rep.Mentions = l.Match.Side(asker).Answerers()
	}
	if l.Match.UndoBy != "" {
		rep.Actions = []protocol.Action{
			{ID: b.actionID("undo", l, "yes"), Label: say.AllowUndo, Style: protocol.Primary},
			{ID: b.actionID("undo", l, "no"), Label: say.RefuseUndo, Style: protocol.Secondary},
		}
	}
	return reply(rep, fx)
}

func cmdDead(call *Call) (Result, error) {
	return call.bot.acted(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		o, err := flow.MarkDead(l.Loaded, call.Args.Points)
		return say.Marked(l.Loaded, me, call.Req.User.ID, o), err
	})
}

func cmdDone(call *Call) (Result, error) {
	r := call.Req
	return call.bot.acted(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		o, err := flow.Accept(l.Loaded, me, r.Time)
		if err != nil {
			return "", err
		}
		l.acceptSaid = me
		return say.Accepted(namer(call.Tx), l.Match, me, r.User.ID, o), nil
	})
}

func cmdResume(call *Call) (Result, error) {
	r := call.Req
	return call.bot.acted(call, true, func(fx *Effects, l *loaded, me game.Color) (string, error) {
		o, err := flow.Resume(l.Loaded, r.Time) // a live game's pause, or the scoring
		return say.Resumed(l.Match, r.User.ID, o), err
	})
}

// act applies fn to the game call refers to (change), and gives the game
// reply that says what fn did in its words.
func (b *core) act(call *Call, asPlayer bool, fn func(fx *Effects, l *loaded, me game.Color) (string, error)) (*loaded, protocol.Reply, Effects, error) {
	var fx Effects
	var what string
	l, err := b.change(&fx, call.Tx, call.Req, call.Args.Game, asPlayer, func(l *loaded, me game.Color) (err error) {
		what, err = fn(&fx, l, me)
		return err
	})
	if err != nil {
		return nil, protocol.Reply{}, Effects{}, err
	}
	return l, b.gameReply(&fx, call.Tx, l, call.Req, what), fx, nil
}

// acted is act's reply as the command's result.
func (b *core) acted(call *Call, asPlayer bool, fn func(fx *Effects, l *loaded, me game.Color) (string, error)) (Result, error) {
	_, rep, fx, err := b.act(call, asPlayer, fn)
	if err != nil {
		return Result{}, err
	}
	return reply(rep, fx)
}

// actionID encodes a button for game l.
func (b *core) actionID(cmd string, l *loaded, arg string) string {
	return protocol.Button{Command: cmd, Game: l.Match.ID, Version: l.Match.Version, Arg: arg}.ID()
}

// findGame resolves a game reference for r (flow.Find): "#7", or
// (empty) the caller's single active game here; for lookers (asPlayer
// false) also the room's game.
func findGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID, asPlayer bool) (*gobot.Match, error) {
	match, err := flow.Find(tx, flow.Reference{ID: id, User: r.User.ID, Room: r.Room, DM: r.DM, Command: r.Command, Player: asPlayer})
	return match, say.GameRefusal(namer(tx), err, r.User.ID, strings.TrimSpace(r.Command+" "+strings.Join(r.Args, " ")))
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
		return nil, say.IsOver(match)
	}
	if asPlayer && !flow.ScoringCommand(r.Command) && !match.Side(me).Plays(r.User.ID) {
		// A voter acts for the room only in the scoring; its moves,
		// passes and resignation are voted.
		return nil, say.VotesInstead(match, r.Command)
	}
	l, err := load(match)
	if err != nil {
		return nil, err
	}
	if err := fn(l, me); err != nil {
		return nil, say.PlayRefusal(namer(tx), l.Loaded, err)
	}
	c, err := b.commit(tx, l, r.Time)
	if err != nil {
		return nil, err
	}
	l.note = say.TurnsPassed(namer(tx), l.Match, c.Turns) // rengo.go
	b.wakeEngine(fx, l)
	return l, nil
}

// commit stores l after an operation at t (flow.Commit), logging a
// damaged rating that left the game unrated.
func (b *core) commit(tx gobot.Tx, l *loaded, t time.Time) (flow.Committed, error) {
	c, err := flow.Commit(tx, l.Loaded, b.engines(), t)
	b.logUnrated(l.Match.ID, c.Rated)
	return c, err
}
