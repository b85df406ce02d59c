package chat

import (
	"cmp"
	"errors"
	"slices"
	"sort"
	"strings"

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
			{ID: b.actionID("undo", l, "yes"), Label: "Allow undo", Style: protocol.Primary},
			{ID: b.actionID("undo", l, "no"), Label: "Refuse", Style: protocol.Secondary},
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

// findGame resolves a game reference for r: "#7", or (empty) the
// caller's single active game in this room (in a DM: anywhere); for
// lookers (asPlayer false) also the room's single active game.
func findGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID, asPlayer bool) (*gobot.Match, error) {
	if id != 0 {
		match, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			if c, cerr := tx.Challenge(gobot.ChallengeID(id)); cerr == nil && c.Status == gobot.Pending {
				return nil, say.PendingNotAGame(c, r.User.ID)
			}
			return nil, say.NoGame(id)
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
		if here, err = flow.VotedHere(tx, r.Room, r.User.ID); err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Someone who has not voted is a member of the room all the
			// same: the room's vote game is the one they mean, and its
			// handler says what they may do there.
			if here, err = flow.RoomVoteGames(tx, r.Room); err != nil {
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
			if len(all) > 0 { // the caller's games first, then the latest
				return slices.MaxFunc(all, func(a, b *gobot.Match) int {
					if pa, pb := a.ColorOf(r.User.ID) != game.Empty, b.ColorOf(r.User.ID) != game.Empty; pa != pb {
						if pa {
							return 1
						}
						return -1
					}
					return cmp.Compare(a.ID, b.ID)
				}), nil
			}
		}
	}
	switch len(here) {
	case 1:
		return here[0], nil
	case 0:
		return nil, say.NoGameHere(mine)
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
	return nil, say.WhichGame(namer(tx), here, strings.TrimSpace(r.Command+" "+strings.Join(r.Args, " ")))
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
		return nil, say.IsOver(match)
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
		return nil, say.PlayRefusal(namer(tx), l.Loaded, err)
	}
	if !l.Match.Active() { // it ended now: rate it in this transaction
		if err := b.rateGame(tx, l.Match, l.G); err != nil {
			return nil, err
		}
	}
	l.Match.Record = l.G.Record()
	l.note = say.TurnsPassed(namer(tx), l.Match, flow.PassAwayTurns(tx, l.Loaded))
	l.Match.Updated = r.Time
	b.engineDue(l, r.Time)
	if err := tx.PutMatch(l.Match); err != nil {
		return nil, err
	}
	b.wakeEngine(fx, l)
	return l, nil
}
