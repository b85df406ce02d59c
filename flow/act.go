package flow

import (
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// The one door into a game: an Actor does an Action to a game, and Act
// finds the game, asks the actor's side whether they may act, replays
// the game once, applies the action (a move also follows the other
// side's plan and passes absent teammates' turns), saves it through the
// one save path (save.go) and returns the Outcome as data. Chat words
// the outcome; the web board's click is an action as a typed command
// is; a tournament or a linked account acts through the same door.
//
//	actor + action → Act → find → side may act → replay → apply → save → Outcome

// Surface is where an actor acts from: what their act means can depend
// on it (a room member's click on a vote game's board is their vote; a
// typed "play" is refused with the vote to type instead).
type Surface int

const (
	Chat  Surface = iota // a typed command or a button in a chat room
	Board                // the web board (also in the Activity and the widget)
)

// Actor is who acts: the player (whichever of their accounts), where,
// on which surface, and when.
type Actor struct {
	User gobot.UserID
	// Accounts are the player's other accounts (linked accounts,
	// docs/identity.md): in a game one of them sits in, the actor acts
	// as that one (Seated).
	Accounts []gobot.UserID
	// Room is where the act is made: a reference without a game number
	// means the actor's game here (DM: anywhere).
	Room gobot.RoomID
	DM   bool
	// Surface is what the act was made on.
	Surface Surface
	// Time is when the act was made (the platform's time); Arrived, when
	// this server received it: a live game counts from Arrived when set.
	Time, Arrived time.Time
}

// Seated is who as the account of theirs that plays match: User when it
// does (or when none does), else the first of Accounts that does — a
// game begun from another account of the player's.
func (who Actor) Seated(match *gobot.Match) Actor {
	who.User = SeatedAccount(match, who.User, who.Accounts)
	return who
}

// SeatedAccount is the account among u and others that plays match: u
// when it does or none does.
func SeatedAccount(match *gobot.Match, u gobot.UserID, others []gobot.UserID) gobot.UserID {
	if match == nil || match.ColorOf(u) != game.Empty {
		return u
	}
	for _, a := range others {
		if match.ColorOf(a) != game.Empty {
			return a
		}
	}
	return u
}

// An Action is what an actor does to a game: one of the types below.
type Action interface {
	// Name names the action as the chat command that does it ("play",
	// "pass", "undo"…): Find picks by it the game it can act on now
	// among the actor's games here, and chat words its refusals with it.
	Name() string
}

// The actions.
type (
	// Move plays a point ("E5") or passes ("pass").
	Move struct{ Point string }
	// Resign resigns the actor's side.
	Resign struct{}
	// Abort ends the game without a result.
	Abort struct{}
	// Undo asks to take back the actor's side's last move, or answers the
	// other side's ask (Refuse: no).
	Undo struct{ Refuse bool }
	// MarkDead toggles the stones at Points dead or alive in the scoring.
	MarkDead struct{ Points []string }
	// Accept accepts the count (the done command).
	Accept struct{}
	// Resume resumes play from the scoring, or a live game's pause.
	Resume struct{}
	// Pause asks the other side to pause a live game, or accepts their
	// ask.
	Pause struct{}
	// CastVote is a room member's vote for the room's move.
	CastVote struct{ For VoteFor }
	// Plan merges a line of conditional moves into the actor's plan.
	Plan struct{ Points []string }
	// DropPlan clears the actor's plan.
	DropPlan struct{}
)

func (m Move) Name() string {
	if m.Point == "pass" {
		return "pass"
	}
	return "play"
}
func (Resign) Name() string   { return "resign" }
func (Abort) Name() string    { return "abort" }
func (Undo) Name() string     { return "undo" }
func (MarkDead) Name() string { return "dead" }
func (Accept) Name() string   { return "done" }
func (Resume) Name() string   { return "resume" }
func (Pause) Name() string    { return "pause" }
func (CastVote) Name() string { return "vote" }
func (Plan) Name() string     { return "plan" }
func (DropPlan) Name() string { return "plan" }

// moves reports whether a is a move of the game (play, pass, resign):
// what a room moves by vote.
func moves(a Action) bool {
	switch a.(type) {
	case Move, Resign:
		return true
	}
	return false
}

// scoring reports whether a acts on the scoring, which a voter does for
// the room as a player does.
func scoring(a Action) bool {
	switch a.(type) {
	case MarkDead, Accept, Resume:
		return true
	}
	return false
}

// Outcome is what an act did, as data: the game after it, the actor's
// seat, what happened (Did: Played, Passed, Ended, Undone, Marked,
// Accepted, Resumed, Paused, VoteCast, Planned or PlanCleared), what the
// other side's plan did after a move, the rating and the turns passed on
// (Committed), and whether an engine has work now (Wake).
type Outcome struct {
	Game *Loaded
	Seat game.Color
	Did  any
	// Followed is a move's: the plan that answered it, or was dropped.
	Followed Followed
	Committed
	Wake bool
	// At is the time the act counts at (a live game's arrival).
	At time.Time
}

// PlanCleared is a DropPlan's outcome: Had, whether the actor had a plan.
type PlanCleared struct{ Had bool }

// NotAPlayer refuses an act on Match by someone who neither plays it nor
// votes in it.
type NotAPlayer struct{ Match *gobot.Match }

func (e NotAPlayer) Error() string { return "not a player of the game" }

// GameOver refuses an act on Match, which is over.
type GameOver struct{ Match *gobot.Match }

func (e GameOver) Error() string { return "the game is over" }

// VotesInstead refuses a move by a room member of vote game Match typed
// in chat: the room moves by vote (on the board a click is the vote).
type VotesInstead struct{ Match *gobot.Match }

func (e VotesInstead) Error() string { return "the room moves by vote" }

// BadPoint refuses a move whose Word is no point of the board (Err:
// game.ParsePoint's reason).
type BadPoint struct {
	Word string
	Err  error
}

func (e BadPoint) Error() string { return "not a point: " + e.Word }
func (e BadPoint) Unwrap() error { return e.Err }

// NotVoteGame refuses a vote in Match, which the room does not play.
type NotVoteGame struct{ Match *gobot.Match }

func (e NotVoteGame) Error() string { return "not a vote game" }

// NoVoteGame refuses a vote in a room that plays no game by vote.
type NoVoteGame struct{}

func (NoVoteGame) Error() string { return "no vote game here" }

// WhichVoteGame refuses a vote without a game's number in a room that
// plays several by vote (those at the room's turn first).
type WhichVoteGame struct{ Games []*gobot.Match }

func (WhichVoteGame) Error() string { return "several vote games here" }

// VoteElsewhere refuses a vote for Match from another room than its own.
type VoteElsewhere struct{ Match *gobot.Match }

func (VoteElsewhere) Error() string { return "the vote is the game's room's" }

// AbortElsewhere refuses to abort game Game from another room.
type AbortElsewhere struct{ Game gobot.GameID }

func (AbortElsewhere) Error() string { return "abort from the game's room" }

// Act is the one door: who does a to game id (0: the actor's game where
// they act), in tx. It returns the outcome, or a refusal (a Refusal;
// or a store's error). A refusal after the game was read comes with an
// Outcome holding the game, for its words; nothing is written then (the
// caller rolls the transaction back).
func Act(tx gobot.Tx, e Engines, who Actor, id gobot.GameID, a Action) (*Outcome, error) {
	switch a := a.(type) {
	case CastVote:
		return castVote(tx, who, id, a.For)
	case Plan, DropPlan:
		return plan(tx, who, id, a)
	}
	match, err := findFor(tx, who, id, a)
	if err != nil {
		return nil, err
	}
	who = who.Seated(match)
	if who.Surface == Board && moves(a) && match.Has(gobot.SideRoom) && match.ColorOf(who.User) == game.Empty {
		// The room moves by vote: on the board a member's click is
		// their vote.
		return castVote(tx, who, match.ID, voteFor(a))
	}
	seat := match.SeatOf(who.User) // a player's colour, or a voter's room's
	_, anyone := a.(Abort)         // abort is the game's room's, not only its players'
	if seat == game.Empty && !anyone {
		return nil, NotAPlayer{match}
	}
	out := &Outcome{Seat: seat, At: who.Time}
	if match.Clock.Live() && !who.Arrived.IsZero() {
		out.At = who.Arrived // a live game counts from the server's receipt
	}
	if !match.Active() {
		return nil, GameOver{match}
	}
	if !anyone && !scoring(a) && !match.Side(seat).Plays(who.User) {
		// A voter acts for the room only in the scoring; its moves,
		// passes and resignation are voted.
		return nil, VotesInstead{match}
	}
	if out.Game, err = Load(match); err != nil {
		return nil, err
	}
	if out.Did, err = apply(out, who, a); err != nil {
		if _, ok := err.(Refusal); !ok { // the rules' own reasons (package game)
			err = RuleRefusal{err}
		}
		return out, err
	}
	if out.Committed, err = Commit(tx, out.Game, e, out.At); err != nil {
		return out, err
	}
	out.Wake = e.Job(match, out.Game.G) != JobNone
	return out, nil
}

// voteFor is the vote a room member's move stands for.
func voteFor(a Action) VoteFor {
	if m, ok := a.(Move); ok {
		return VoteFor{Point: m.Point}
	}
	return VoteFor{Resign: true}
}

// findFor finds the game an act refers to: in a vote game a room
// member's typed move is refused with the vote to type (RoomMoves), and
// undo is refused to everyone.
func findFor(tx gobot.Tx, who Actor, id gobot.GameID, a Action) (*gobot.Match, error) {
	_, undo := a.(Undo)
	if (who.Surface == Chat && moves(a)) || undo {
		if err := VoteTurn(tx, id, who.User, who.Room, who.DM, undo); err != nil {
			return nil, err
		}
	}
	_, anyone := a.(Abort)
	return Find(tx, Reference{ID: id, User: who.User, Accounts: who.Accounts, Room: who.Room, DM: who.DM, Command: a.Name(), Player: !anyone})
}

// toMoveFirst orders games with those of now (at the room's turn) first.
func toMoveFirst(games, now []*gobot.Match) []*gobot.Match {
	out := slices.Clone(games)
	sort.SliceStable(out, func(i, j int) bool { return slices.Contains(now, out[i]) && !slices.Contains(now, out[j]) })
	return out
}

// apply applies a to the loaded game in out.
func apply(out *Outcome, who Actor, a Action) (any, error) {
	l, me, t := out.Game, out.Seat, out.At
	switch a := a.(type) {
	case Move:
		cfg := l.G.Config()
		p, err := game.ParsePoint(a.Point, cfg.Width, cfg.Height)
		if err != nil {
			return nil, BadPoint{a.Point, err}
		}
		if err := Turn(l, me, who.User, t); err != nil {
			return nil, err
		}
		var did any
		if p.IsPass() {
			did, err = pass(l, me, t)
		} else {
			did, err = play(l, me, p, t)
		}
		if err != nil {
			return nil, err
		}
		out.Followed = FollowPlan(l, me, p, t)
		return did, nil
	case Resign:
		return resign(l, me, t)
	case Abort:
		if l.Match.Room != who.Room && l.Match.Mirror != who.Room && !who.DM {
			return nil, AbortElsewhere{l.Match.ID}
		}
		return abort(l, t)
	case Undo:
		return undo(l, me, who.User, a.Refuse, t)
	case MarkDead:
		return markStones(l, a.Points)
	case Accept:
		return accept(l, me, t)
	case Resume:
		return resume(l, t)
	case Pause:
		return pause(l, me, who.User, t)
	}
	return nil, fmt.Errorf("flow: %T is no action", a)
}

// castVote is a room member's vote in game id (0: the room's one vote
// game, or the one at the room's turn).
func castVote(tx gobot.Tx, who Actor, id gobot.GameID, vote VoteFor) (*Outcome, error) {
	match, err := findVote(tx, who, id)
	if err != nil {
		return nil, err
	}
	if !match.Active() {
		return nil, GameOver{match}
	}
	if match.Room != who.Room && !(match.Thread && match.Parent == who.Room) {
		return nil, VoteElsewhere{match}
	}
	out := &Outcome{Seat: match.SeatOf(who.User), At: who.Time}
	if match.ColorOf(who.User) != game.Empty { // before the replay, as a refusal needs none
		out.Game = &Loaded{Match: match}
		return out, &VoteRefused{Why: VoterPlays}
	}
	if out.Game, err = Load(match); err != nil {
		return nil, err
	}
	if out.Did, err = castBallot(out.Game, who.User, vote, who.Time); err != nil {
		return out, err
	}
	return out, save(tx, match)
}

// findVote resolves the game a vote is for: "#7", or the room's one
// active vote game (of several, the one at the room's turn).
func findVote(tx gobot.Tx, who Actor, id gobot.GameID) (*gobot.Match, error) {
	if id != 0 {
		match, err := Find(tx, Reference{ID: id, User: who.User, Room: who.Room, DM: who.DM, Command: "vote"})
		if err != nil {
			return nil, err
		}
		if !match.Has(gobot.SideRoom) {
			return nil, NotVoteGame{match}
		}
		return match, nil
	}
	games, err := RoomVoteGames(tx, who.Room)
	if err != nil {
		return nil, err
	}
	switch len(games) {
	case 0:
		return nil, NoVoteGame{}
	case 1:
		return games[0], nil
	}
	now := RoomToMove(games)
	if len(now) == 1 { // the one game at the room's turn
		return now[0], nil
	}
	return nil, WhichVoteGame{Games: toMoveFirst(games, now)}
}

// plan is a plan command's act: a line merged into the actor's plan,
// or the plan dropped.
func plan(tx gobot.Tx, who Actor, id gobot.GameID, a Action) (*Outcome, error) {
	match, err := Find(tx, Reference{ID: id, User: who.User, Accounts: who.Accounts, Room: who.Room, DM: who.DM, Command: "plan", Player: true})
	if err != nil {
		return nil, err
	}
	who = who.Seated(match)
	me := match.ColorOf(who.User)
	out := &Outcome{Seat: me, At: who.Time, Game: &Loaded{Match: match}}
	if err := Plannable(match, me); err != nil {
		return out, err
	}
	if out.Game, err = Load(match); err != nil {
		return nil, err
	}
	switch a := a.(type) {
	case Plan:
		if err := PlanNow(out.Game, me); err != nil {
			return out, err
		}
		line, err := CheckLine(out.Game.G, me, a.Points)
		if err != nil {
			return out, err
		}
		if out.Did, err = AddLine(out.Game, who.User, line, who.Time); err != nil {
			return out, err
		}
	case DropPlan:
		had := ClearPlan(out.Game, who.User, who.Time)
		out.Did = PlanCleared{Had: had}
		if !had {
			return out, nil
		}
	}
	return out, save(tx, match)
}

// Code names the refusal (Refusal).
func (NotAPlayer) Code() string { return "not-a-player" }

// Code names the refusal (Refusal).
func (GameOver) Code() string { return "game-over" }

// Code names the refusal (Refusal).
func (VotesInstead) Code() string { return "votes-instead" }

// Code names the refusal (Refusal).
func (BadPoint) Code() string { return "bad-point" }

// Code names the refusal (Refusal).
func (NotVoteGame) Code() string { return "not-vote-game" }

// Code names the refusal (Refusal).
func (NoVoteGame) Code() string { return "no-vote-game" }

// Code names the refusal (Refusal).
func (WhichVoteGame) Code() string { return "which-vote-game" }

// Code names the refusal (Refusal).
func (VoteElsewhere) Code() string { return "vote-elsewhere" }

// Code names the refusal (Refusal).
func (AbortElsewhere) Code() string { return "abort-elsewhere" }

// Refusal is what the door refuses: every refusal of flow implements it,
// a code that names it (stable: "not-your-turn") and its data in its
// fields, which chat words (chat/say) and a page or a test reads.
// TestRefusals lists them all.
type Refusal interface {
	error
	Code() string
}

// RuleRefusal is an act the rules refuse with one of package game's
// reasons (Err: game.ErrScoring, game.ErrGameOver, game.ErrNothingUndo…).
type RuleRefusal struct{ Err error }

func (e RuleRefusal) Error() string { return e.Err.Error() }
func (e RuleRefusal) Unwrap() error { return e.Err }

// Code names the refusal (Refusal).
func (RuleRefusal) Code() string { return "rules" }
