package chat

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

func cmdGames(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	// Each record is read on its own: a damaged one (not even valid
	// JSON, or moves that do not replay) is named, the others listed.
	var damaged []gobot.GameID
	games, err := tx.ActiveGames(r.User.ID)
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
		lines = append(lines, fmt.Sprintf("#%d: I can't read this game's record (it is damaged); an admin has been told in the logs", id))
	}
	for _, match := range games {
		l, err := load(match)
		if err != nil {
			b.log.Error("corrupt record", "err", err)
			lines = append(lines, fmt.Sprintf("#%d: I can't read this game's record (it is damaged); an admin has been told in the logs", match.ID))
			continue
		}
		me := match.ColorOf(r.User.ID)
		opp := match.Side(me.Opponent()).ToMove()
		s := fmt.Sprintf("#%d vs %s (%s, you are %s, move %d): ", match.ID, protocol.Mention(opp), game.SizeString(l.G.Config().Width, l.G.Config().Height), me.Name(), l.G.MoveNumber())
		if match.Side(me).Rotates() { // rengo.go
			s = say.TeamGamesLine(namer(tx), l.Loaded, me)
		}
		switch {
		case l.G.Phase() == game.Scoring:
			s += scoringStep(b, tx, l, me)
		case match.Side(me).Rotates() && l.G.ToMove() == me && match.Side(me).ToMove() != r.User.ID:
			s += fmt.Sprintf("%s's move (your team)", protocol.Mention(match.Side(me).ToMove()))
		case l.G.ToMove() == me:
			s += "your move"
		default:
			s += "their move"
		}
		if left := timeLeft(match, r.Time); left != "" {
			s += ", " + left
		}
		if match.Room != r.Room {
			s += " (in another room)"
		}
		lines = append(lines, s)
	}
	lines = append(lines, b.roomVoteLines(tx, r, games)...)
	for _, c := range chals {
		if c.ForTeams() { // rengo.go
			lines = append(lines, say.TeamChallengeLine(c, r.User.ID))
			continue
		}
		if c.From == r.User.ID {
			to := "anyone"
			if c.To != "" {
				to = protocol.Mention(c.To)
			}
			lines = append(lines, fmt.Sprintf("challenge #%d to %s: waiting", c.ID, to))
		} else {
			lines = append(lines, fmt.Sprintf("challenge #%d from %s: %s or %s", c.ID, protocol.Mention(c.From), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID))))
		}
	}
	if len(lines) == 0 {
		return Result{Reply: protocol.Reply{Text: fmt.Sprintf("You have no active games or challenges. Start one with %s.", b.cmd("challenge @player")), Private: true}}, nil
	}
	if chalErr != nil {
		lines = append(lines, "Some of your challenges have damaged records and are not shown; an admin has been told in the logs.")
	}
	return Result{Reply: protocol.Reply{Title: "Your games", Text: strings.Join(lines, "\n"), Private: true}}, nil
}

// scoringStep says who must act in a game being scored, for player me:
// their opponent named, or in a team game the teams ("your team
// accepted; waiting for White (@carol or @dave)").
func scoringStep(b *core, tx gobot.Tx, l *loaded, me game.Color) string {
	g := l.G
	check := "mark dead stones, then " + b.cmd("done") + " to accept"
	if g.Config().Rules.NoAgreement {
		check = b.cmd("done") + " to accept the count"
	}
	you, opp, neither := "you", protocol.Mention(l.Match.Side(me.Opponent()).ToMove()), "neither has"
	if l.Match.Side(me).Rotates() { // rengo.go
		you, opp, neither = "your team", me.Opponent().Name(), "neither team has"
	}
	switch {
	case g.Accepted(me):
		return fmt.Sprintf("scoring: %s accepted; waiting for %s to accept", you, say.Answerer(l.Match, me.Opponent()))
	case g.Accepted(me.Opponent()):
		if g.Config().Rules.NoAgreement {
			return fmt.Sprintf("scoring: %s accepted; %s", opp, check)
		}
		return fmt.Sprintf("scoring: %s accepted; check the dead stones, then %s to accept", opp, b.cmd("done"))
	}
	return "scoring: " + check + " (" + neither + " accepted yet)"
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
	if err := game.WriteSGF(&buf, l.G, sgfInfo(tx, l.Match)); err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Text: fmt.Sprintf("The record of game #%d.", l.Match.ID), Game: l.Match.ID,
		File: &protocol.File{Name: fmt.Sprintf("gobot-%d.sgf", l.Match.ID), MIME: "application/x-go-sgf", Data: buf.Bytes()}}}, nil
}

// sgfInfo is what a game's SGF says of it besides the moves: the
// players (a team game's members), their ranks, the date, the clock.
func sgfInfo(tx gobot.Tx, match *gobot.Match) game.GameInfo {
	info := game.GameInfo{Black: displayName(tx, match.Black), White: displayName(tx, match.White),
		Date: match.Created.UTC().Format("2006-01-02"), Name: fmt.Sprintf("gobot game #%d", match.ID)}
	info.BlackRank, info.WhiteRank = sgfRanks(match)
	if t := match.Teams; t != nil { // rengo.go: PB/PW list the members
		info.Black, info.White = say.Names(namer(tx), t.Black), say.Names(namer(tx), t.White)
	}
	info.TimeLimit, info.Overtime = match.Clock.SGF() // TM, OT
	return info
}

func cmdReplay(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	l, err := viewGame(tx, b, r, a.Game)
	if err != nil {
		return Result{}, err
	}
	if b.render == nil {
		return Result{}, errorf("This bot has no renderer configured.")
	}
	return Result{Reply: protocol.Reply{Text: fmt.Sprintf("Replay of game #%d (%d moves).", l.Match.ID, l.G.MoveCount()), Game: l.Match.ID,
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

// playerIn returns u's settings (defaults if unknown).
func playerIn(tx gobot.Tx, u gobot.UserID) gobot.Player {
	if p, err := tx.Player(u); err == nil {
		return *p
	}
	return gobot.Player{ID: u}
}
