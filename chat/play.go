package chat

import (
	"errors"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// The game's acts: each handler reads its arguments, passes the act
// through the one door (flow.Act, in door) and words the outcome; the
// reply's board part is the game as every surface reads it (view.go).

func cmdPlay(call *Call) (Result, error) {
	if call.Req.Act != nil { // a click: its own point
		return played(call, call.Req.Act)
	}
	return played(call, flow.Move{Point: call.Args.Points[0]})
}

// cmdPass is a play of "pass".
func cmdPass(call *Call) (Result, error) {
	return played(call, actionOf(call, flow.Move{Point: "pass"}))
}

// actionOf is the action a request stands for: a web click's own
// (Request.Act), else the one the command's arguments make.
func actionOf(call *Call, typed flow.Action) flow.Action {
	if call.Req.Act != nil {
		return call.Req.Act
	}
	return typed
}

// played words a move, a pass, or (on the board) a room member's vote.
func played(call *Call, a flow.Action) (Result, error) {
	o, err := call.bot.door(call, a)
	if err != nil {
		return Result{}, err
	}
	if cast, ok := o.Did.(flow.VoteCast); ok { // vote.go
		return voted(call, o, cast)
	}
	_, rep, fx := call.bot.worded(call, o, func(fx *Effects, l *loaded, o *flow.Outcome) string {
		var what string
		switch did := o.Did.(type) {
		case flow.Passed:
			what = say.Passed(l.Match, call.Req.User.ID, did)
		case flow.Played:
			what = say.Played(l.Loaded, call.Req.User.ID, did)
		}
		said, why := say.Followed(l.Loaded, o.Followed) // the other side's plan (plan.go)
		if why != "" {
			call.bot.planDropped(fx, l, o.Followed.Owner, why)
		}
		return what + said
	})
	return reply(rep, fx)
}

// autoPassText announces the pass the game made for White after Black's
// move (white-passes placement), given the move count before that move.
func autoPassText(l *loaded, before int) string {
	return say.AutoPass(l.Match, flow.AutoPassed(l.G, before))
}

func cmdResign(call *Call) (Result, error) {
	return call.bot.acted(call, actionOf(call, flow.Resign{}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		// A team member resigns for the team (rengo.go).
		return say.Ended(call.Req.User.ID, true, say.ActsFor(namer(call.Tx), l.Match, o.Seat))
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
	return call.bot.acted(call, actionOf(call, flow.Abort{}), func(*Effects, *loaded, *flow.Outcome) string {
		return say.Ended(call.Req.User.ID, false, "")
	})
}

func cmdUndo(call *Call) (Result, error) {
	b, r := call.bot, call.Req
	l, o, rep, fx, err := b.act(call, actionOf(call, flow.Undo{Refuse: call.Args.Choice["no"] == "no"}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		did := o.Did.(flow.Undone)
		if did.PlanOwner != "" { // plan.go: its owner is told
			b.planDropped(fx, l, did.PlanOwner, say.UndonePlan(did.Number))
		}
		return say.Undone(l.Loaded, o.Seat, r.User.ID, did)
	})
	if err != nil {
		return Result{}, err
	}
	did := o.Did.(flow.Undone)
	switch asker := l.Match.ColorOf(did.Asked); did.Answer { // any member of a team answers
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
	return call.bot.acted(call, actionOf(call, flow.MarkDead{Points: call.Args.Points}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		return say.Marked(l.Loaded, o.Seat, call.Req.User.ID, o.Did.(flow.Marked))
	})
}

func cmdDone(call *Call) (Result, error) {
	return call.bot.acted(call, actionOf(call, flow.Accept{}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		l.acceptSaid = o.Seat
		return say.Accepted(namer(call.Tx), l.Match, o.Seat, call.Req.User.ID, o.Did.(flow.Accepted))
	})
}

func cmdResume(call *Call) (Result, error) {
	return call.bot.acted(call, actionOf(call, flow.Resume{}), func(fx *Effects, l *loaded, o *flow.Outcome) string {
		return say.Resumed(l.Match, call.Req.User.ID, o.Did.(flow.Resumed)) // a live game's pause, or the scoring
	})
}

// act takes action a through the door (flow.Act) for call, and gives the
// game reply that says what it did in words's words.
func (b *core) act(call *Call, a flow.Action, words func(fx *Effects, l *loaded, o *flow.Outcome) string) (*loaded, *flow.Outcome, protocol.Reply, Effects, error) {
	o, err := b.door(call, a)
	if err != nil {
		return nil, nil, protocol.Reply{}, Effects{}, err
	}
	l, rep, fx := b.worded(call, o, words)
	return l, o, rep, fx, nil
}

// worded is the game reply that says what an act did (o) in words's
// words, and its effects.
func (b *core) worded(call *Call, o *flow.Outcome, words func(fx *Effects, l *loaded, o *flow.Outcome) string) (*loaded, protocol.Reply, Effects) {
	var fx Effects
	l := &loaded{Loaded: o.Game, note: say.TurnsPassed(namer(call.Tx), o.Game.Match, o.Turns)} // rengo.go
	what := words(&fx, l, o)
	if o.Wake {
		fx.wake(l.Match.ID)
	}
	return l, b.gameReply(&fx, call.Tx, l, call.Req, what), fx
}

// acted is act's reply as the command's result.
func (b *core) acted(call *Call, a flow.Action, words func(fx *Effects, l *loaded, o *flow.Outcome) string) (Result, error) {
	_, _, rep, fx, err := b.act(call, a, words)
	if err != nil {
		return Result{}, err
	}
	return reply(rep, fx)
}

// door takes action a for call's request through flow.Act, the one door
// into a game, and words its refusal. The request's time becomes the
// one the act counted at (a live game's arrival).
func (b *core) door(call *Call, a flow.Action) (*flow.Outcome, error) {
	r := call.Req
	id := call.Args.Game
	if r.Act != nil {
		id = r.Game
	}
	who, err := actorOf(call.Tx, r)
	if err != nil {
		return nil, err
	}
	o, err := flow.Act(call.Tx, b.engines(), who, id, a)
	if err != nil {
		return nil, b.refusal(call, a, o, err)
	}
	if seated := who.Seated(o.Game.Match).User; seated != r.User.ID {
		// A linked player acting from another account acts as the
		// account that plays the game: the words name it as the game's
		// room knows it (docs/identity.md).
		r.User = protocol.User{ID: seated, Name: displayName(call.Tx, seated)}
	}
	r.Time = o.At
	b.logUnrated(o.Game.Match.ID, o.Rated)
	return o, nil
}

// actorOf is the actor a request is: the player, whichever of their
// linked accounts sent it (docs/identity.md).
func actorOf(tx gobot.Tx, r *protocol.Request) (flow.Actor, error) {
	s := flow.Chat
	if r.Act != nil {
		s = flow.Board
	}
	accounts, err := gobot.AccountsOf(tx, r.User.ID)
	if err != nil {
		return flow.Actor{}, err
	}
	return flow.Actor{User: r.User.ID, Accounts: accounts[1:], Room: r.Room, DM: r.DM, Surface: s, Time: r.Time, Arrived: r.Arrived}, nil
}

// refusal words what the door refused: o, when set, holds the game as
// read.
func (b *core) refusal(call *Call, a flow.Action, o *flow.Outcome, err error) error {
	tx, r := call.Tx, call.Req
	var (
		moves   flow.RoomMoves
		notA    flow.NotAPlayer
		over    flow.GameOver
		instead flow.VotesInstead
		bad     flow.BadPoint
		away    flow.AbortElsewhere
		notVote flow.NotVoteGame
		which   flow.WhichVoteGame
		there   flow.VoteElsewhere
		vote    *flow.VoteRefused
	)
	switch {
	case errors.As(err, &moves):
		return say.RoomMoves(err, r.Command)
	case errors.As(err, &notA):
		return say.NotAPlayer(namer(tx), notA.Match)
	case errors.As(err, &over):
		return say.IsOver(over.Match)
	case errors.As(err, &instead):
		return say.VotesInstead(instead.Match, r.Command)
	case errors.As(err, &bad):
		return say.BadPoint(bad.Word, o.Game.G.Config(), bad.Err)
	case errors.As(err, &away):
		return say.AbortElsewhere(away.Game)
	case errors.As(err, &notVote):
		return say.NotVoteGame(notVote.Match)
	case errors.Is(err, flow.NoVoteGame{}):
		eng := "gnugo"
		if names := b.engineNames(); len(names) > 0 {
			eng = names[0]
		}
		return say.NoVoteGame(eng)
	case errors.As(err, &which):
		return say.WhichVoteGame(which.Games, r.Args)
	case errors.As(err, &there):
		return say.VoteElsewhere(there.Match)
	case errors.As(err, &vote):
		return say.VoteRefused(o.Game, vote)
	case o == nil || o.Game == nil:
		return say.GameRefusal(namer(tx), err, r.User.ID, strings.TrimSpace(r.Command+" "+strings.Join(r.Args, " ")))
	}
	switch a.(type) {
	case flow.Plan, flow.DropPlan:
		var cfg game.Config
		if o.Game.G != nil {
			cfg = o.Game.G.Config()
		}
		return say.PlanRefusal(o.Game.Match, cfg, err)
	}
	if o.Game.G == nil {
		return err
	}
	return say.PlayRefusal(namer(tx), o.Game, err)
}

// actionID encodes a button for game l.
func (b *core) actionID(cmd string, l *loaded, arg string) string {
	return protocol.Button{Command: cmd, Game: l.Match.ID, Version: l.Match.Version, Arg: arg}.ID()
}

// findGame resolves a game reference for r (flow.Find): "#7", or
// (empty) the caller's single active game here; for lookers (asPlayer
// false) also the room's game.
func findGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID, asPlayer bool) (*gobot.Match, error) {
	accounts, err := gobot.AccountsOf(tx, r.User.ID)
	if err != nil {
		return nil, err
	}
	match, err := flow.Find(tx, flow.Reference{ID: id, User: r.User.ID, Accounts: accounts[1:], Room: r.Room, DM: r.DM, Command: r.Command, Player: asPlayer})
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

// commit stores l after an operation at t (flow.Commit), logging a
// damaged rating that left the game unrated.
func (b *core) commit(tx gobot.Tx, l *loaded, t time.Time) (flow.Committed, error) {
	c, err := flow.Commit(tx, l.Loaded, b.engines(), t)
	b.logUnrated(l.Match.ID, c.Rated)
	return c, err
}
