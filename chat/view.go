package chat

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

func cmdGames(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	// Each record is read on its own: a damaged one (not even valid
	// JSON, or moves that do not replay) is named, the others listed.
	var damaged []gobot.GameID
	accounts, err := gobot.AccountsOf(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	games, err := flow.PlayerGames(tx, r.User.ID, accounts[1:]) // a linked player's, from each account
	if d := gobot.Damaged(err); d != nil {
		b.log.Error("corrupt record", "err", err)
		damaged, err = d.Games, nil
	}
	if err != nil {
		return Result{}, err
	}
	chals, chalErr := tx.PendingChallenges(r.User.ID)
	if chalErr != nil {
		b.log.Error("corrupt record", "err", chalErr)
	}
	var lines []string
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	for _, id := range damaged {
		lines = append(lines, say.GamesDamaged(id))
	}
	for _, match := range games {
		l, err := load(match)
		if err != nil {
			b.log.Error("corrupt record", "err", err)
			lines = append(lines, say.GamesDamaged(match.ID))
			continue
		}
		u := flow.SeatedAccount(match, r.User.ID, accounts[1:])
		me := match.ColorOf(u)
		s := say.GamesHead(match, l.G, me)
		if match.Side(me).Rotates() { // rengo.go
			s = say.TeamGamesLine(namer(tx), l.Loaded, me)
		}
		left := timeLeft(l.Loaded, r.Time)
		if lc := board.LiveClocks(l.Loaded); lc != nil && l.G.Phase() == game.Playing { // both clocks
			left = say.GamesClocks(match, me, say.LiveClocks(match, lc, r.Time))
		}
		s += say.GamesState(match, l.G, me, u, left, match.Room != r.Room && u == r.User.ID)
		if u != r.User.ID {
			s += say.PlayedOn(match, u)
		}
		lines = append(lines, s)
	}
	lines = append(lines, b.roomVoteLines(tx, r, games)...)
	for _, c := range chals {
		if c.ForTeams() { // rengo.go
			lines = append(lines, say.TeamChallengeLine(c, r.User.ID))
			continue
		}
		lines = append(lines, say.GamesChallenge(c, r.User.ID))
	}
	if len(lines) == 0 {
		return Result{Reply: protocol.Reply{Text: say.NoGames(), Private: true}}, nil
	}
	if chalErr != nil {
		lines = append(lines, say.GamesHid)
	}
	return Result{Reply: protocol.Reply{Title: say.GamesTitle, Text: strings.Join(lines, "\n"), Private: true}}, nil
}

// viewGame loads a game for looking at (anyone may).
func viewGame(tx gobot.Tx, b *core, r *protocol.Request, id gobot.GameID) (*loaded, error) {
	match, err := findGame(tx, b, r, id, false)
	if err != nil {
		return nil, err
	}
	return load(match)
}

func cmdBoard(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	var fx Effects
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Result{}, err
	}
	return reply(b.gameReply(&fx, tx, l, r, ""), fx)
}

func cmdSGF(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Result{}, err
	}
	var buf bytes.Buffer
	if err := game.WriteSGF(&buf, l.G, say.SGFInfo(namer(tx), l.Match)); err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Text: say.Record(l.Match.ID), Game: l.Match.ID,
		File: &protocol.File{Name: fmt.Sprintf("gobot-%d.sgf", l.Match.ID), MIME: "application/x-go-sgf", Data: buf.Bytes()}}}, nil
}

func cmdReplay(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Result{}, err
	}
	if b.render == nil {
		return Result{}, say.NoRenderer()
	}
	return Result{Reply: protocol.Reply{Text: say.Replay(l.Match.ID, l.G.MoveCount()), Game: l.Match.ID,
		Draw: &protocol.Drawing{Game: l.G, ID: l.Match.ID, Theme: playerIn(tx, r.User.ID).Theme, Replay: true}}}, nil
}

// namer names users by their stored names, in tx (say.Namer).
func namer(tx gobot.Tx) say.Namer { return txNamer{tx} }

type txNamer struct{ tx gobot.Tx }

func (n txNamer) Name(u gobot.UserID) string { return displayName(n.tx, u) }

// displayName returns a user's stored name, or the local part of the ID.
func displayName(tx gobot.Tx, u gobot.UserID) string {
	if p, err := tx.Player(u); err == nil && p.Name != "" {
		return p.Name
	}
	return u.Local()
}

// playerIn returns u's settings (defaults if unknown). A linked
// account's settings (notify, theme, confirm) are its player's; its
// name and vacation are its own (docs/identity.md).
func playerIn(tx gobot.Tx, u gobot.UserID) gobot.Player {
	p := gobot.Player{ID: u}
	if q, err := tx.Player(u); err == nil {
		p = *q
	}
	if id, err := gobot.PlayerOf(tx, u); err == nil && id != u {
		var q gobot.Player
		if x, err := tx.Player(id); err == nil {
			q = *x
		}
		p.Notify, p.NotifyOn, p.Theme, p.Confirm = q.Notify, q.NotifyOn, q.Theme, q.Confirm
	}
	return p
}
