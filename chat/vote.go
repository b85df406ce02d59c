package chat

import (
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
)

// Room-vote games (docs/vote.md). The room's seat is gobot.VoteSeat;
// match.Vote holds the turn's ballots and its window. The first vote of
// a turn opens a window of match.Vote.Window (flow.CastVote); the
// window's end is the game's Deadline, so the runner (runner.go: the
// voting-window job) of whichever process comes first closes it, in one
// transaction that replays the game, plays the winning move
// (flow.CloseVote) and claims its announcement (deliver.Claim):
// played once, announced once. Against a person the room's turn runs on
// the game's clock until its first vote (reminded in the room, lost on
// time by a room that casts no vote: runClock); against an engine it
// waits for the first vote. The opponent moves as in any game, under
// the game's clock.

// checkVoteChallenge refuses what a vote challenge cannot be
// (flow.CheckVoteChallenge).
func (b *core) checkVoteChallenge(r *protocol.Request, a *protocol.Args) error {
	if a.Vote == 0 {
		return nil
	}
	return say.VoteChallengeRefused(flow.CheckVoteChallenge(r.DM, a.User != "" || a.Engine != "", a.Choice["rated"] == "rated", a.Rating.Auto), b.engineNames())
}

// voteDefaultClock is a vote game's clock against a person when neither
// the challenge nor the room's settings give one: the room's side needs
// time like any side, and nobody can ask a room to resign.
var voteDefaultClock = gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * 24 * time.Hour}

// voteRefusal explains, to a caller who is not a player of the vote game
// a play, pass, resign or undo refers to, that the room moves by vote;
// undo is refused in vote games to everyone. nil: not a vote game, or
// the caller plays it (the opponent moves as usual).
func (b *core) voteRefusal(tx gobot.Tx, r *protocol.Request, id gobot.GameID) error {
	return say.RoomMoves(flow.VoteTurn(tx, id, r.User.ID, r.Room, r.DM, r.Command == "undo"), r.Command)
}

// roomVoteLines are games' lines for the room's vote games, for the
// room's members (the room plays them), beyond mine, the caller's own
// games already listed (the opponent's).
func (b *core) roomVoteLines(tx gobot.Tx, r *protocol.Request, mine []*gobot.Match) []string {
	if r.DM {
		return nil
	}
	games, err := flow.RoomVoteGames(tx, r.Room)
	if err != nil {
		b.log.Error("games: the room's vote games", "err", err)
		return nil
	}
	var lines []string
	for _, m := range games {
		if slices.ContainsFunc(mine, func(g *gobot.Match) bool { return g.ID == m.ID }) {
			continue
		}
		l, err := flow.Load(m)
		if err != nil {
			continue // listed as damaged where it is read as a game
		}
		lines = append(lines, say.RoomVoteLine(l, r.User.ID, timeLeft(l, r.Time)))
	}
	return lines
}

func cmdVote(call *Call) (Result, error) {
	a := call.Args
	vote := flow.VoteFor{Resign: a.Choice["resign"] == "resign"}
	switch {
	case vote.Resign && len(a.Points) > 0:
		return Result{}, say.VoteTwoMoves(a.Points[0])
	case !vote.Resign && len(a.Points) == 0:
		return Result{}, say.VoteNoMove()
	case !vote.Resign:
		vote.Point = a.Points[0]
	}
	o, err := call.bot.door(call, flow.CastVote{For: vote})
	if err != nil {
		return Result{}, err
	}
	return voted(call, o, o.Did.(flow.VoteCast))
}

// voted words a vote cast (o): typed, or a room member's click on the
// board.
func voted(call *Call, o *flow.Outcome, cast flow.VoteCast) (Result, error) {
	r := call.Req
	if err := call.bot.rememberUser(call.Tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	match := o.Game.Match
	title, text := say.VoteCast(match, cast, r.User.ID, r.Time)
	return reply(protocol.Reply{Game: match.ID, Title: title, Text: text}, Effects{})
}

// voteWindowDue takes a due vote game whose due item is the room's
// open window (its close, Match.Deadline while it runs), so the clock
// treats it as no timeout or reminder; it is due once the window's time
// has come. The room's clock before its first vote is the clock job's,
// as a player's.
func voteWindowDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return item.Due == gobot.DueVote, !now.Before(item.At)
}
