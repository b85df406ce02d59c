// Package board is the one read of a game for every surface (issue 37):
// a View is what a board shows of a game and what its viewer may do
// there. chat's queries (Bot.Board, Bot.RoomBoards, Bot.ChannelBoard)
// read the game in one read transaction, build its view here (Read) and
// fill in its texts (chat/say); the web board, the Matrix widget and the
// Discord Activity (package chat/web) read games only through them.
package board

import (
	"cmp"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// View is a game as a board shows it, read at one Version. Its texts
// are chat's words (filled in by chat after Read): the names are plain
// (no mentions), the vote line (Vote) may hold command tokens
// (protocol.Cmd) for the surface to show in its platform's terms.
type View struct {
	ID      gobot.GameID
	Version uint64
	Room    gobot.RoomID
	// Mirror is the room of another platform that sees the game too (a
	// game between platforms: gobot.Match.Mirror); "" for most.
	Mirror    gobot.RoomID
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
	Sides [2]Side
	// Clock is what the clock says while playing ("alice must move by
	// 2 Jan 15:04 UTC.", or stopped for a vacation); "" without one.
	Clock string
	// UndoBy is the colour asking to take back a move (game.Empty:
	// none), UndoText the request in words.
	UndoBy   game.Color
	UndoText string
	// UndoRefused is the colour whose undo request was refused, while no
	// move has been played since (gobot.Match.RefusedNow; game.Empty:
	// none), RefusedText the refusal as its asker is told it ("alice
	// refused your undo; the game goes on.").
	UndoRefused game.Color
	RefusedText string
	// PauseBy is the colour asking to pause a live game's clocks
	// (flow/pause.go; game.Empty: none).
	PauseBy game.Color
	// Accepted are the colours that accepted the count while scoring
	// (indexed by game.Color); Waiting what a board shows a colour that
	// accepted instead of its Done ("Waiting for alice"). Withdrawn are
	// the colours whose acceptance the last change of the dead stones
	// withdrew, and who have not accepted again (gobot.Match.Withdrawn).
	Accepted  [3]bool
	Waiting   [3]string
	Withdrawn []game.Color
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
	Live *Clocks
	// ResignQuestions are what the board asks before a resignation
	// (Viewer.ResignQuestion): a player's of each colour, indexed by
	// game.Color, and a voter's (VoteResignQuestion).
	ResignQuestions    [3]string
	VoteResignQuestion string

	stored *gobot.Match // the seats, the vote and the undo, to answer For
}

// Clocks are a live game's clocks as stored: each colour's at the
// start of its turn (indexed by game.Color), the mover's running since
// Since (zero when none runs), and the colour that lost on time.
type Clocks struct {
	Control gobot.TimeControl
	Clocks  [3]gobot.ClockState
	Running game.Color
	Since   time.Time
	Out     game.Color
	// Paused is the player to move while a pause (flow/pause.go) stops both
	// clocks, their clock as it stopped; Empty otherwise. PauseEnds is
	// when the pause ends by itself, its allowance spent.
	Paused    game.Color
	PauseEnds time.Time
}

// At is colour c's clock at now, as a live board counts it down: the
// running clock less the time since its turn began
// (gobot.TimeControl.Elapse), the others as they stand; a simple
// clock's reading is the turn's time left (a bank of its time per
// move, Counted). ok is false once c's time is up (lost on time, or
// counted down to nothing).
func (lc *Clocks) At(c game.Color, now time.Time) (s gobot.ClockState, ok bool) {
	tc := lc.Counted()
	s = lc.Clocks[c]
	if lc.Control.Kind == gobot.Simple && c != lc.Paused {
		s = gobot.ClockState{Main: lc.Control.PerMove}
	}
	if c == lc.Out {
		return s, false
	}
	if c == lc.Running {
		return tc.Elapse(s, now.Sub(lc.Since))
	}
	return s, true
}

// Counted is the control the clocks are counted in: the game's, a
// simple clock's as an absolute clock of its time per move (a turn's
// reading is the time left in it).
func (lc *Clocks) Counted() gobot.TimeControl {
	if lc.Control.Kind == gobot.Simple {
		return gobot.TimeControl{Kind: gobot.Absolute, Main: lc.Control.PerMove}
	}
	return lc.Control
}

// LiveClocks returns match's clocks when it is played on a live clock
// (View.Live; nil otherwise), for a surface that shows them without a
// View.
func LiveClocks(l *flow.Loaded) *Clocks { return liveClocks(l.Match, l.G) }

// liveClocks returns match's clocks when it is played on a live clock.
func liveClocks(match *gobot.Match, g *game.Game) *Clocks {
	tc := match.Clock
	if !tc.Live() {
		return nil
	}
	lc := &Clocks{Control: tc}
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
		lc.PauseEnds = match.Pause.Since.Add(gobot.PauseAllowance - match.Pause.Used)
	} else if match.Active() && g.Phase() == game.Playing && !match.Deadline.IsZero() {
		lc.Running = g.ToMove()
		lc.Since = match.Deadline.Add(-tc.Budget(match.ClockOf(lc.Running)))
	}
	if r, err := game.ParseResult(match.Result); err == nil && !match.Active() && r.Reason == game.ByTime && r.Winner != game.Empty {
		lc.Out = r.Winner.Opponent()
	}
	return lc
}

// Side is one colour's label on a board.
type Side struct {
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

// Read builds l's view as a board shows it, its viewer and its texts
// left for the caller; name gives a player's name (Names).
func Read(l *flow.Loaded, name func(gobot.UserID) string) *View {
	match, g := l.Match, l.G
	bv := &View{ID: match.ID, Version: match.Version, Room: match.Room, Mirror: match.Mirror, Game: g, Phase: g.Phase().String(), Names: map[gobot.UserID]string{},
		stored: &gobot.Match{ID: match.ID, Black: match.Black, White: match.White, Engine: match.Engine, Vote: match.Vote, Teams: match.Teams.Clone(), Record: match.Record, Finished: match.Finished}}
	if match.Rating != nil {
		bv.Community = match.Rating.Community
	}
	for _, u := range match.Players() {
		bv.Names[u] = name(u)
	}
	for i, c := range []game.Color{game.Black, game.White} {
		s := Side{Color: c, Name: match.Side(c).Name(bv.Name), Captures: g.Captures(c) + g.PassStones(c),
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
	case g.Phase() == game.Scoring:
		for _, c := range []game.Color{game.Black, game.White} {
			bv.Accepted[c] = g.Accepted(c)
		}
		if w := match.WithdrawnNow(g.MoveCount()); w != nil { // this scoring phase's
			for _, c := range w.Colors {
				if !g.Accepted(c) {
					bv.Withdrawn = append(bv.Withdrawn, c)
				}
			}
		}
	default:
		bv.Turn = g.ToMove()
		if p := match.Pause; !match.LivePaused() && p != nil && p.Asked != "" { // flow/pause.go
			bv.PauseBy = match.ColorOf(p.Asked)
		}
		bv.Votes = flow.VoteMarks(l)
	}
	bv.Live = liveClocks(match, g)
	if match.UndoBy != "" && match.Active() {
		bv.UndoBy = match.ColorOf(match.UndoBy)
	}
	if r := match.RefusedNow(); r != nil && g.Phase() == game.Playing {
		bv.UndoRefused = match.ColorOf(r.Asked)
	}
	return bv
}

// For returns what u may do on this board: as Board(ctx, id, u) would
// answer at the view's Version, without another read.
func (bv *View) For(u gobot.UserID) Viewer {
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
		v.ResignQuestion = bv.ResignQuestions[c]
	case m.Has(gobot.SideRoom):
		// Everyone in the room but the opponent votes (flow/vote.go): a
		// board that is not a player's is a room member's (a watch link
		// is asked for in the game's room; the widget and the Activity
		// check the room).
		room := m.Find(gobot.SideRoom)
		v.Role, v.Color = Voter, room.Color
		v.Vote = active && bv.Turn == room.Color
		v.Resign = v.Vote
		v.ResignQuestion = bv.VoteResignQuestion
	default:
		return v
	}
	v.Score = bv.Phase == "scoring" && m.SeatOf(u) != game.Empty
	return v
}

// Name is u's name on the board.
func (bv *View) Name(u gobot.UserID) string { return cmp.Or(bv.Names[u], u.Local()) }

// Label names the game in a list: "#7: alice (Black) against bob
// (White)"; a team game's sides are its members.
func (bv *View) Label() string {
	return fmt.Sprintf("#%d: %s (Black) against %s (White)", bv.ID, bv.Sides[0].Name, bv.Sides[1].Name)
}

// List are the games a board opened inside a room (not for one
// game: the Discord Activity) offers a user, each with its label.
type List struct {
	Games []*View
	// Watch: the user plays none of them here; they are the room's
	// games, to watch (or, in a vote game, to vote in).
	Watch bool
}

// Games are the games a board opened inside room (not for one
// game: the Discord Activity, chat/web) shows user: user's games being
// played there or in a thread of it; if there are none, every game
// being played in room itself, to watch.
func Games(tx gobot.Tx, room gobot.RoomID, user gobot.UserID) (games []*gobot.Match, watch bool, err error) {
	mine, err := tx.ActiveGames(user)
	if err != nil {
		return nil, false, err
	}
	for _, m := range mine {
		if m.In(room) { // its room, the room its thread hangs off, or its mirror
			games = append(games, m)
		}
	}
	if len(games) > 0 {
		return games, false, nil
	}
	games, err = tx.RoomGames(room, true)
	return games, true, err
}

// LinkGeneration is user's link generation in game id (the web board's
// links, gobot.Tx.LinkGeneration), moved on first when reset: that ends
// their earlier links and the sessions opened with them.
func LinkGeneration(tx gobot.Tx, id gobot.GameID, user gobot.UserID, reset bool) (uint64, error) {
	gen, err := tx.LinkGeneration(id, user)
	if err != nil || !reset {
		return gen, err
	}
	gen++
	return gen, tx.PutLinkGeneration(id, user, gen)
}
