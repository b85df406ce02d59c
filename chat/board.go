package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// The one read of a game for every surface (issue 37): Bot.Board
// answers, in one read transaction, what a board shows of a game and
// what its viewer may do there. The web board, the Matrix widget and the
// Discord Activity (package chat/web) read games only through the
// queries in this file; chat/web opens no transaction of its own.

// ErrNoGame is Bot.Board's error for a game that does not exist.
var ErrNoGame = errors.New("chat: no such game")

// BoardView is a game as a board shows it, read at one Version. Its
// texts are chat's words: the names are plain (no mentions), the vote
// line (Vote) may hold command tokens (protocol.Cmd) for the surface to
// show in its platform's terms.
type BoardView struct {
	ID        gobot.GameID
	Version   uint64
	Room      gobot.RoomID
	Community gobot.CommunityID
	// Game is the replayed game (the stones, the last move, the
	// scoring's marks); a surface reads it and never changes it.
	Game *game.Game
	// Phase is "playing", "scoring" or "over" (a game that ended, by any
	// means).
	Phase string
	// Turn is the colour to move while playing; game.Empty otherwise.
	Turn game.Color
	// Status is whose turn it is, the scoring's step or the result:
	// "Black to play (alice)", "Black wins by 3.5 points (B+3.5)".
	Status string
	// Sides are Black's and White's labels, Black's first.
	Sides [2]BoardSide
	// Clock is what the clock says while playing ("alice must move by
	// 2 Jan 15:04 UTC.", or stopped for a vacation); "" without one.
	Clock string
	// UndoBy is the colour asking to take back a move (game.Empty:
	// none), UndoText the request in words.
	UndoBy   game.Color
	UndoText string
	// PauseBy is the colour asking to pause a live game's clocks
	// (pause.go; game.Empty: none).
	PauseBy game.Color
	// Score is the count while scoring: "Black 40, White 41.5: White
	// wins by 1.5 points if this count stands."
	Score string
	// Vote is a vote game's line while the room moves: how to vote, or
	// the tally and the open window, in chat's words (say.VoteLine).
	Vote string
	// Votes are the open window's votes per point (nil: none).
	Votes map[game.Point]int
	// Moves are the last moves: "12. Black D4", "13. White pass".
	Moves []string
	// Names are the players' names by user (a stored name, or the ID's
	// local part; VoteSeat is "the room").
	Names map[gobot.UserID]string
	// Viewer is what the viewer Board was asked for may do.
	Viewer Viewer
	// Live is a live game's clocks (gobot.TimeControl.Live), which a
	// board counts down; nil for a correspondence clock or none.
	Live *LiveClocks

	stored *gobot.Match // the seats, the vote and the undo, to answer For
}

// LiveClocks are a live game's clocks as stored: each colour's at the
// start of its turn (indexed by game.Color), the mover's running since
// Since (zero when none runs), and the colour that lost on time.
type LiveClocks struct {
	Control gobot.TimeControl
	Clocks  [3]gobot.ClockState
	Running game.Color
	Since   time.Time
	Out     game.Color
	// Paused is the player to move while a pause (pause.go) stops both
	// clocks, their clock as it stopped; Empty otherwise.
	Paused game.Color
}

// liveClocks returns match's clocks when it is played on a live clock.
func liveClocks(match *gobot.Match, g *game.Game) *LiveClocks {
	tc := match.Clock
	if !tc.Live() {
		return nil
	}
	lc := &LiveClocks{Control: tc}
	for _, c := range []game.Color{game.Black, game.White} {
		lc.Clocks[c] = match.ClockOf(c)
	}
	if match.Active() && g.Phase() == game.Playing && match.LivePaused() {
		c := g.ToMove()
		s := match.ClockOf(c)
		lc.Clocks[c], _ = tc.Elapse(s, tc.Budget(s)-match.Pause.Left)
		if tc.Kind == gobot.Simple {
			lc.Clocks[c] = gobot.ClockState{Main: match.Pause.Left}
		}
		lc.Paused = c
	} else if match.Active() && g.Phase() == game.Playing && !match.Deadline.IsZero() {
		lc.Running = g.ToMove()
		lc.Since = match.Deadline.Add(-tc.Budget(match.ClockOf(lc.Running)))
	}
	if r, err := game.ParseResult(match.Result); err == nil && !match.Active() && r.Reason == game.ByTime && r.Winner != game.Empty {
		lc.Out = r.Winner.Opponent()
	}
	return lc
}

// BoardSide is one colour's label on a board.
type BoardSide struct {
	Color    game.Color
	Name     string // its player, or a team's members ("alice, bob")
	Rank     string // in a rated game
	Captures int    // stones it captured, pass stones included
	ToMove   bool   // it moves now
}

// Role is how a viewer takes part in a game on a board.
type Role string

const (
	Player  Role = "player"  // plays a side (a person, a team's member)
	Voter   Role = "voter"   // a member of a vote game's room: votes for the room
	Watcher Role = "watcher" // only looks
)

// Viewer is what one user may do on a game's board. The router has the
// last word on every action; this says which to offer.
type Viewer struct {
	User  gobot.UserID
	Role  Role
	Color game.Color // the colour played, or voted for (Voter)
	// Move: the viewer's side moves now and the viewer moves for it (a
	// team's member whose turn it is); a voter's move is a vote (Vote).
	Move bool
	// Vote: a voter, and the room moves now.
	Vote bool
	// Score: the game is being scored and the viewer acts for a side in
	// it (a player, or a voter who has voted: Side.ActsFor).
	Score bool
	// Undo: the viewer may ask to take back a move, or answer a request.
	Undo bool
	// Resign: the viewer may resign the game (a voter: vote to resign).
	Resign bool
	// ResignQuestion is what a board asks before resigning: "Resign game
	// #1 against bob?", "Vote to resign game #1 against bob?".
	ResignQuestion string
}

// Watch reports whether the viewer only looks.
func (v Viewer) Watch() bool { return v.Role == Watcher }

// For returns what u may do on this board: as Board(ctx, id, u) would
// answer at the view's Version, without another read.
func (bv *BoardView) For(u gobot.UserID) Viewer {
	m := bv.stored
	v := Viewer{User: u, Role: Watcher}
	if m == nil || u == "" {
		return v
	}
	active := bv.Phase != "over"
	switch c := m.ColorOf(u); {
	case c != game.Empty:
		v.Role, v.Color = Player, c
		v.Move = active && bv.Turn == c && m.Side(c).ToMove() == u
		v.Undo = active && bv.Phase == "playing" && m.Undoable()
		v.Resign = active
	case m.Has(gobot.SideRoom):
		// Everyone in the room but the opponent votes (vote.go): a
		// board that is not a player's is a room member's (a watch link
		// is asked for in the game's room; the widget and the Activity
		// check the room).
		room := m.Find(gobot.SideRoom)
		v.Role, v.Color = Voter, room.Color
		v.Vote = active && bv.Turn == room.Color
		v.Resign = v.Vote
	default:
		return v
	}
	v.Score = bv.Phase == "scoring" && m.SeatOf(u) != game.Empty
	v.ResignQuestion = bv.resignQuestion(v)
	return v
}

// resignQuestion is what the board asks v before a resignation, in the
// words chat asks it (askResign): "Resign game #1 against bob?" (a team
// game: for the team, against the other team's players; a voter: a
// vote to resign).
func (bv *BoardView) resignQuestion(v Viewer) string {
	opp := bv.stored.Side(v.Color.Opponent())
	ns := opp.Name(bv.name)
	switch {
	case v.Role == Voter:
		return fmt.Sprintf("Vote to resign game #%d against %s?", bv.ID, ns)
	case opp.Rotates():
		return fmt.Sprintf("Resign game #%d for your team against %s?", bv.ID, ns)
	}
	return fmt.Sprintf("Resign game #%d against %s?", bv.ID, ns)
}

// name is u's name on the board.
func (bv *BoardView) name(u gobot.UserID) string { return cmp.Or(bv.Names[u], u.Local()) }

// Label names the game in a list: "#7: alice (Black) against bob
// (White)"; a team game's sides are its members.
func (bv *BoardView) Label() string {
	return fmt.Sprintf("#%d: %s (Black) against %s (White)", bv.ID, bv.Sides[0].Name, bv.Sides[1].Name)
}

// Board reads game id as a board shows it to viewer ("" for nobody in
// particular: then Viewer is a watcher's), in one read transaction.
// ErrNoGame: there is no such game.
func (b *Bot) Board(ctx context.Context, id gobot.GameID, viewer gobot.UserID) (*BoardView, error) {
	var bv *BoardView
	err := b.query(ctx, func(tx gobot.Tx) error {
		match, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return ErrNoGame
		}
		if err != nil {
			return err
		}
		bv, err = b.boardView(tx, match)
		return err
	})
	if err != nil {
		return nil, err
	}
	bv.Viewer = bv.For(viewer)
	return bv, nil
}

// boardView builds match's view (its viewer left for the caller).
func (b *core) boardView(tx gobot.Tx, match *gobot.Match) (*BoardView, error) {
	l, err := load(match)
	if err != nil {
		return nil, err
	}
	g := l.G
	now := b.timeSource.Now()
	bv := &BoardView{ID: match.ID, Version: match.Version, Room: match.Room, Game: g, Phase: g.Phase().String(), Names: map[gobot.UserID]string{},
		stored: &gobot.Match{ID: match.ID, Black: match.Black, White: match.White, Engine: match.Engine, Vote: match.Vote, Teams: match.Teams.Clone(), Record: match.Record, Finished: match.Finished}}
	if match.Rating != nil {
		bv.Community = match.Rating.Community
	}
	for _, u := range match.Players() {
		bv.Names[u] = displayName(tx, u)
	}
	for i, c := range []game.Color{game.Black, game.White} {
		s := BoardSide{Color: c, Name: match.Side(c).Name(bv.name), Captures: g.Captures(c) + g.PassStones(c),
			ToMove: g.Phase() == game.Playing && g.ToMove() == c && match.Active()}
		if match.Rating != nil {
			s.Rank = match.Rating.BlackRank
			if c == game.White {
				s.Rank = match.Rating.WhiteRank
			}
		}
		bv.Sides[i] = s
	}
	switch {
	case !match.Active():
		bv.Phase = "over"
		bv.Status = resultText(match.Result)
	case g.Phase() == game.Scoring:
		sc := g.Score()
		bv.Status = "Scoring: click the dead stones, then Done."
		bv.Score = fmt.Sprintf("Black %s, White %s: %s if this count stands.", game.FormatKomi(sc.Black.Total), game.FormatKomi(sc.White.Total), sc.Result.Describe())
	default:
		c := g.ToMove()
		bv.Turn = c
		next := bv.name(match.Side(c).ToMove())
		bv.Status = fmt.Sprintf("%s to play (%s)", c.Name(), next)
		if !match.Deadline.IsZero() && !match.Clock.Live() { // a live clock ticks on the board (Live)
			bv.Clock = fmt.Sprintf("%s must move by %s.", next, match.Deadline.UTC().Format("2 Jan 15:04 MST"))
		}
		if match.Paused() && match.Clock.Kind != gobot.NoClock { // vacation: the clock is stopped
			bv.Clock = fmt.Sprintf("The clock is stopped for a vacation; %s has %s left.", next, protocol.FormatDuration(match.PausedLeft))
		}
		if match.Vote.WindowOpen() && match.Find(gobot.SideRoom).Moves(g) {
			bv.Clock = "" // a window's end is no clock (gameReply)
		}
		if match.LivePaused() { // pause.go
			bv.Clock = fmt.Sprintf("Paused: both clocks stand still until a player resumes (%s of pause left).", protocol.FormatDuration(match.PauseLeft(now)))
		} else if p := match.Pause; p != nil && p.Asked != "" && match.Active() {
			bv.PauseBy = match.ColorOf(p.Asked)
			bv.Clock = fmt.Sprintf("%s asks to pause the clocks.", bv.name(p.Asked))
		}
		bv.Vote = say.VoteLine(l.Loaded, now)
		bv.Votes = flow.VoteMarks(l.Loaded)
	}
	bv.Live = liveClocks(match, g)
	if match.UndoBy != "" && match.Active() {
		bv.UndoBy = match.ColorOf(match.UndoBy)
		bv.UndoText = fmt.Sprintf("%s asks to take back the last move.", bv.name(match.UndoBy))
	}
	moves := g.Moves()
	for i := max(0, len(moves)-6); i < len(moves); i++ {
		m := moves[i]
		where := "pass"
		if !m.Point.IsPass() {
			where = m.Point.GTP(g.Config().Height)
		}
		bv.Moves = append(bv.Moves, fmt.Sprintf("%d. %s %s", i+1, m.Color.Name(), where))
	}
	return bv, nil
}

// resultText is a finished game's status: the result in words with its
// SGF form, "Black wins by 3.5 points (B+3.5)", or "Draw".
func resultText(sgf string) string {
	r, err := game.ParseResult(sgf)
	if err != nil {
		if len(sgf) > 80 {
			sgf = sgf[:80] + "…"
		}
		return "Game over (" + sgf + ")"
	}
	if r.Winner == game.Empty && (r.Reason == game.ByScore || r.Reason == game.ByCycle) {
		return "Draw"
	}
	d := r.Describe()
	return strings.ToUpper(d[:1]) + d[1:] + " (" + r.String() + ")"
}

// RoomBoards are the games a board opened inside a room (not for one
// game: the Discord Activity) offers a user, each with its label.
type RoomBoards struct {
	Games []*BoardView
	// Watch: the user plays none of them here; they are the room's
	// games, to watch (or, in a vote game, to vote in).
	Watch bool
}

// RoomBoards reads, in one transaction, the games a board opened inside
// room shows user (boardGames), at most limit of them (0: all).
func (b *Bot) RoomBoards(ctx context.Context, room gobot.RoomID, user gobot.UserID, limit int) (RoomBoards, error) {
	var rb RoomBoards
	err := b.query(ctx, func(tx gobot.Tx) error {
		games, watch, err := boardGames(tx, room, user)
		if err != nil {
			return err
		}
		rb = RoomBoards{Watch: watch}
		if limit > 0 && len(games) > limit {
			games = games[:limit]
		}
		for _, m := range games {
			bv, err := b.boardView(tx, m)
			if err != nil {
				return err
			}
			bv.Viewer = bv.For(user)
			rb.Games = append(rb.Games, bv)
		}
		return nil
	})
	return rb, err
}

// ChannelBoard reads game id for user if it is played in room or a
// thread of it (ended or not); ErrNoGame if there is no such game, nil
// if it is played elsewhere.
func (b *Bot) ChannelBoard(ctx context.Context, room gobot.RoomID, id gobot.GameID, user gobot.UserID) (*BoardView, error) {
	var bv *BoardView
	err := b.query(ctx, func(tx gobot.Tx) error {
		m, err := tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return ErrNoGame
		}
		if err != nil || m.Room != room && m.Parent != room {
			return err
		}
		if bv, err = b.boardView(tx, m); err == nil {
			bv.Viewer = bv.For(user)
		}
		return err
	})
	return bv, err
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
		if p, err := tx.Player(u); err == nil {
			c = p.Confirm
		}
		return nil
	})
	return c
}
