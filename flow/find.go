package flow

import (
	"errors"
	"fmt"

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
		var here []*gobot.Match
		for _, g := range mine {
			if dm || g.Room == room || (g.Thread && g.Parent == room) {
				here = append(here, g)
			}
		}
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
