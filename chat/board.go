package chat

import (
	"context"
	"errors"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow/board"
)

// The one read of a game for every surface (issue 37): Bot.Board
// answers, in one read transaction, what a board shows of a game and
// what its viewer may do there (board.Read, its texts in say.Board). The
// web board, the Matrix widget and the Discord Activity (package
// chat/web) read games only through the queries in this file; chat/web
// opens no transaction of its own.

// ErrNoGame is Bot.Board's error for a game that does not exist.
var ErrNoGame = errors.New("chat: no such game")

// Board reads game id as a board shows it to viewer ("" for nobody in
// particular: then Viewer is a watcher's), in one read transaction.
// ErrNoGame: there is no such game.
func (b *Bot) Board(ctx context.Context, id gobot.GameID, viewer gobot.UserID) (*board.View, error) {
	return b.board(ctx, id, viewer, func(*gobot.Match) bool { return true })
}

// ChannelBoard reads game id for user if it is played in room or a
// thread of it (ended or not); ErrNoGame if there is no such game, nil
// if it is played elsewhere.
func (b *Bot) ChannelBoard(ctx context.Context, room gobot.RoomID, id gobot.GameID, user gobot.UserID) (*board.View, error) {
	return b.board(ctx, id, user, func(m *gobot.Match) bool { return m.Room == room || m.Parent == room })
}

// board reads game id for user in one read transaction, if in takes it
// (nil otherwise); ErrNoGame if there is no such game.
func (b *Bot) board(ctx context.Context, id gobot.GameID, user gobot.UserID, in func(*gobot.Match) bool) (*board.View, error) {
	var bv *board.View
	err := b.query(ctx, func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return ErrNoGame
		}
		if err != nil || !in(m) {
			return err
		}
		bv, err = b.boardView(tx, m, user)
		return err
	})
	if err != nil {
		return nil, err
	}
	return bv, nil
}

// BoardIn builds match's view as Board does, with the transaction the
// caller holds: the web board builds a changed game's page inside the
// transaction that changed it, to carry it to other processes with the
// change (chat/web's Carrying).
func (b *Bot) BoardIn(tx gobot.Tx, match *gobot.Match) (*board.View, error) {
	return b.boardView(tx, match, "")
}

// boardView builds match's view for user.
func (b *core) boardView(tx gobot.Tx, match *gobot.Match, user gobot.UserID) (*board.View, error) {
	l, err := load(match)
	if err != nil {
		return nil, err
	}
	bv := board.Read(l.Loaded, namer(tx).Name)
	say.Board(bv, l.Loaded, b.timeSource.Now())
	bv.Viewer = bv.For(user)
	return bv, nil
}

// RoomBoards reads, in one transaction, the games a board opened inside
// room shows user (board.Games), at most limit of them (0: all).
func (b *Bot) RoomBoards(ctx context.Context, room gobot.RoomID, user gobot.UserID, limit int) (board.List, error) {
	var rb board.List
	err := b.query(ctx, func(tx gobot.Tx) error {
		games, watch, err := board.Games(tx, room, user)
		if err != nil {
			return err
		}
		rb = board.List{Watch: watch}
		if limit > 0 && len(games) > limit {
			games = games[:limit]
		}
		for _, m := range games {
			bv, err := b.boardView(tx, m, user)
			if err != nil {
				return err
			}
			rb.Games = append(rb.Games, bv)
		}
		return nil
	})
	return rb, err
}

// LinkGeneration is user's current link generation in game id
// (gobot.Tx.LinkGeneration): a link or session of an earlier one was
// revoked by `web reset`.
func (b *Bot) LinkGeneration(ctx context.Context, id gobot.GameID, user gobot.UserID) (uint64, error) {
	var gen uint64
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		gen, err = tx.LinkGeneration(id, user)
		return err
	})
	return gen, err
}

// ConfirmSetting is u's setting for confirming a tap on the board
// (gobot.Player.Confirm: touch, always, never); "" (the default) when it
// cannot be read.
func (b *Bot) ConfirmSetting(ctx context.Context, u gobot.UserID) string {
	var c string
	b.query(ctx, func(tx gobot.Tx) error {
		c = playerIn(tx, u).Confirm // a linked account's is its player's
		return nil
	})
	return c
}
