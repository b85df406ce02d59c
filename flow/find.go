package flow

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"sort"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// NoChallenge refuses a challenge reference: there is no challenge ID;
// with ID 0, none pending that the caller may answer (or withdraw).
type NoChallenge struct{ ID gobot.ChallengeID }

func (e NoChallenge) Error() string { return fmt.Sprintf("flow: no challenge #%d", e.ID) }

// OwnChallengeWaits refuses answering one's own challenge C, which
// waits for the other player.
type OwnChallengeWaits struct{ C *gobot.Challenge }

func (e OwnChallengeWaits) Error() string {
	return fmt.Sprintf("flow: challenge #%d is the caller's", e.C.ID)
}

// WhichChallenge refuses a reference without a number that fits
// several pending challenges, Cands.
type WhichChallenge struct{ Cands []*gobot.Challenge }

func (e WhichChallenge) Error() string { return fmt.Sprintf("flow: %d challenges fit", len(e.Cands)) }

// FindChallenge resolves challenge id, or without one the single
// pending challenge that u, in room, may answer (to them, or open in the
// room) or withdraw (mine).
func FindChallenge(tx gobot.Tx, id gobot.ChallengeID, u gobot.UserID, room gobot.RoomID, mine bool) (*gobot.Challenge, error) {
	if id != 0 {
		c, err := tx.Challenge(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return nil, NoChallenge{id}
		}
		return c, err
	}
	var cands []*gobot.Challenge
	pending, err := tx.PendingChallenges(u)
	if err != nil {
		return nil, err
	}
	for _, c := range pending {
		if mine == (c.From == u) {
			cands = append(cands, c)
		}
	}
	if !mine {
		open, err := tx.RoomChallenges(room)
		if err != nil {
			return nil, err
		}
		for _, c := range open {
			if c.Open() && c.From != u { // a team challenge names its players
				cands = append(cands, c)
			}
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		for _, c := range pending {
			if !mine && c.From == u && c.Room == room {
				// Your own challenge waits for the other player.
				return nil, OwnChallengeWaits{c}
			}
		}
		return nil, NoChallenge{}
	}
	return nil, WhichChallenge{cands}
}

// RoomVoteGames are the active vote games of room (a thread's, in a
// thread); damaged records are left out.
func RoomVoteGames(tx gobot.Tx, room gobot.RoomID) ([]*gobot.Match, error) {
	games, err := tx.RoomGames(room, true)
	if gobot.Damaged(err) != nil {
		err = nil // the readable ones
	}
	if err != nil {
		return nil, err
	}
	var out []*gobot.Match
	for _, g := range games {
		if g.Has(gobot.SideRoom) {
			out = append(out, g)
		}
	}
	return out, nil
}

// VotedHere are the active vote games in room in which u has voted:
// their scoring commands act for the room.
func VotedHere(tx gobot.Tx, room gobot.RoomID, u gobot.UserID) ([]*gobot.Match, error) {
	games, err := RoomVoteGames(tx, room)
	if err != nil {
		return nil, err
	}
	var out []*gobot.Match
	for _, g := range games {
		if g.Vote.Voted(u) {
			out = append(out, g)
		}
	}
	return out, nil
}

// RoomMoves refuses a move, pass, resignation or undo in a vote game:
// the room moves there by vote (Match), and undo is refused to everyone
// (Undo). With several vote games in the room and no number, Games
// lists them.
type RoomMoves struct {
	Match *gobot.Match
	Games []*gobot.Match
	Undo  bool
}

func (e RoomMoves) Error() string { return "flow: the room moves by vote" }

// VoteTurn refuses (RoomMoves) a move, pass or resignation, or an undo,
// by u in room (dm: a direct conversation) in game id, or without a
// number in the vote game it would mean there, unless u plays that game
// (the opponent moves as usual). nil: not a vote game, or u's own game
// comes first; a game id that does not resolve is the caller's to say.
func VoteTurn(tx gobot.Tx, id gobot.GameID, u gobot.UserID, room gobot.RoomID, dm, undo bool) error {
	var match *gobot.Match
	if id != 0 {
		m, err := tx.Match(id)
		if err != nil {
			return nil
		}
		match = m
	} else {
		mine, err := tx.ActiveGames(u)
		if err != nil {
			return err
		}
		here := gamesIn(mine, room, dm)
		switch {
		case len(here) == 1 && here[0].Has(gobot.SideRoom) && undo:
			match = here[0] // the room's opponent has no undo either
		case len(here) > 0:
			return nil // the caller's own game here comes first
		default:
			games, err := RoomVoteGames(tx, room)
			if err != nil || len(games) == 0 {
				return err
			}
			match = games[0]
			if len(games) > 1 && !undo {
				return RoomMoves{Match: match, Games: games}
			}
		}
	}
	if !match.Has(gobot.SideRoom) || !match.Active() {
		return nil
	}
	if undo {
		return RoomMoves{Match: match, Undo: true}
	}
	if match.ColorOf(u) != game.Empty {
		return nil
	}
	return RoomMoves{Match: match}
}

// A Reference is a command's reference to a game (Find): "#7", or none
// (the caller's single active game where the command is given).
type Reference struct {
	ID   gobot.GameID // 0: none given
	User gobot.UserID // the caller
	// Accounts are the caller's other accounts (linked): their games
	// are the caller's too.
	Accounts []gobot.UserID
	Room     gobot.RoomID // where the command is given (a thread's games' parent too)
	DM       bool         // a direct message: the caller's games anywhere
	Command  string       // the command's name ("play", "done")
	Player   bool         // the caller acts as a player (else looks)
}

// NoSuchGame refuses a reference to a game number no game has; Pending
// is the pending challenge of that number, if one is.
type NoSuchGame struct {
	ID      gobot.GameID
	Pending *gobot.Challenge
}

func (e NoSuchGame) Error() string { return fmt.Sprintf("no game #%d", e.ID) }

// NoGameHere refuses a reference to no game where the caller has none;
// Mine are their active games elsewhere.
type NoGameHere struct{ Mine []*gobot.Match }

func (NoGameHere) Error() string { return "no game here" }

// WhichGame refuses a reference to no game where the caller has
// several: Games, those the command can act on now first.
type WhichGame struct{ Games []*gobot.Match }

func (e WhichGame) Error() string { return fmt.Sprintf("%d games here", len(e.Games)) }

// Find resolves ref: "#7", or the caller's single active game in this
// room (in a DM: anywhere) — of several, the one the command acts on
// now, for a move (TurnCommand) or a scoring command; for lookers also
// the room's single active game, else its latest finished one (the
// caller's first).
func Find(tx gobot.Tx, ref Reference) (*gobot.Match, error) {
	if ref.ID != 0 {
		match, err := tx.Match(ref.ID)
		if errors.Is(err, gobot.ErrNotFound) {
			e := NoSuchGame{ID: ref.ID}
			if c, cerr := tx.Challenge(gobot.ChallengeID(ref.ID)); cerr == nil && c.Status == gobot.Pending {
				e.Pending = c
			}
			return nil, e
		}
		return match, err
	}
	mine, err := PlayerGames(tx, ref.User, ref.Accounts)
	if err != nil {
		return nil, err
	}
	here := gamesIn(mine, ref.Room, ref.DM)
	if len(here) == 0 && ref.Player { // a voter acts for the room
		if here, err = VotedHere(tx, ref.Room, ref.User); err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Someone who has not voted is a member of the room all the
			// same: the room's vote game is the one they mean, and its
			// handler says what they may do there.
			if here, err = RoomVoteGames(tx, ref.Room); err != nil {
				return nil, err
			}
		}
	}
	if len(here) == 0 && !ref.Player {
		here, err = tx.RoomGames(ref.Room, true)
		if err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Looking at a finished game: the caller's latest here, else
			// the room's latest.
			all, err := tx.RoomGames(ref.Room, false)
			if err != nil {
				return nil, err
			}
			if len(all) > 0 { // the caller's games first, then the latest
				return slices.MaxFunc(all, func(a, b *gobot.Match) int {
					if pa, pb := a.ColorOf(ref.User) != game.Empty, b.ColorOf(ref.User) != game.Empty; pa != pb {
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
		return nil, NoGameHere{Mine: mine}
	}
	// The games the command can act on now come first; a scoring command
	// takes the one game being scored, a move the one game at the
	// caller's turn.
	fit := map[gobot.GameID]bool{}
	var fitting []*gobot.Match
	for _, g := range here {
		if fits(ref.Command, g, SeatedAccount(g, ref.User, ref.Accounts)) {
			fit[g.ID] = true
			fitting = append(fitting, g)
		}
	}
	if len(fitting) == 1 && (ScoringCommand(ref.Command) || TurnCommand(ref.Command)) {
		return fitting[0], nil
	}
	sort.SliceStable(here, func(i, j int) bool { return fit[here[i].ID] && !fit[here[j].ID] })
	return nil, WhichGame{Games: here}
}

// PlayerGames are the active games of u and of the player's other
// accounts, by ID; damaged records of the others are left out (u's are
// reported as ActiveGames reports them).
func PlayerGames(tx gobot.Tx, u gobot.UserID, others []gobot.UserID) ([]*gobot.Match, error) {
	mine, err := tx.ActiveGames(u)
	if len(others) == 0 || err != nil && gobot.Damaged(err) == nil {
		return mine, err
	}
	seen := map[gobot.GameID]bool{}
	for _, g := range mine {
		seen[g.ID] = true
	}
	for _, a := range others {
		more, aerr := tx.ActiveGames(a)
		if aerr != nil && gobot.Damaged(aerr) == nil {
			return nil, aerr
		}
		for _, g := range more {
			if !seen[g.ID] {
				seen[g.ID] = true
				mine = append(mine, g)
			}
		}
	}
	slices.SortFunc(mine, func(a, b *gobot.Match) int { return cmp.Compare(a.ID, b.ID) })
	return mine, err
}

// ScoringCommand reports whether command acts only on a game being scored.
func ScoringCommand(command string) bool {
	return command == "done" || command == "dead" || command == "resume"
}

// TurnCommand reports whether command acts only on one's turn: a move
// (play, pass) or a vote for the room's. Resigning and undo are not
// bound to a turn, and a plan is made on the opponent's.
func TurnCommand(command string) bool {
	return command == "play" || command == "pass" || command == "vote"
}

// RoomToMove are those of games where the room is to move, for a vote
// without a game's number (TurnCommand): the one game of the room's
// turn is the one meant.
func RoomToMove(games []*gobot.Match) []*gobot.Match {
	var out []*gobot.Match
	for _, g := range games {
		if fitsVote(g) {
			out = append(out, g)
		}
	}
	return out
}

// fitsVote reports whether the room votes in match now: it is playing
// and the room is to move.
func fitsVote(match *gobot.Match) bool {
	l, err := Load(match)
	return err == nil && match.Active() && l.G.Phase() == game.Playing && match.Find(gobot.SideRoom).Moves(l.G)
}

// fits reports whether command cmd can act on match for user u now: a
// scoring command on a game being scored, another on a game where it is
// u's turn.
func fits(cmd string, match *gobot.Match, u gobot.UserID) bool {
	l, err := Load(match)
	if err != nil {
		return false
	}
	if cmd == "resume" && match.LivePaused() {
		return l.G.Phase() == game.Playing
	}
	if cmd == "pause" {
		return l.G.Phase() == game.Playing && match.Clock.Live()
	}
	if ScoringCommand(cmd) {
		return l.G.Phase() == game.Scoring
	}
	if cmd == "vote" {
		return fitsVote(match)
	}
	if cmd == "plan" { // plans are made on the opponent's turn
		return l.G.Phase() == game.Playing && l.G.ToMove() == match.ColorOf(u).Opponent()
	}
	return l.G.Phase() == game.Playing && match.Side(l.G.ToMove()).ToMove() == u
}

// gamesIn are those of games room sees (Match.In; dm: all of them).
func gamesIn(games []*gobot.Match, room gobot.RoomID, dm bool) []*gobot.Match {
	var in []*gobot.Match
	for _, g := range games {
		if dm || g.In(room) {
			in = append(in, g)
		}
	}
	return in
}

// Code names the refusal (Refusal).
func (NoChallenge) Code() string { return "no-challenge" }

// Code names the refusal (Refusal).
func (OwnChallengeWaits) Code() string { return "own-challenge-waits" }

// Code names the refusal (Refusal).
func (WhichChallenge) Code() string { return "which-challenge" }

// Code names the refusal (Refusal).
func (RoomMoves) Code() string { return "room-moves" }

// Code names the refusal (Refusal).
func (NoSuchGame) Code() string { return "no-such-game" }

// Code names the refusal (Refusal).
func (NoGameHere) Code() string { return "no-game-here" }

// Code names the refusal (Refusal).
func (WhichGame) Code() string { return "which-game" }
