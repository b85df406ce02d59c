package gobot

import (
	"slices"
	"strings"

	"github.com/gobotgo/gobot/game"
)

// A Side is one colour of a game and what plays it: a person, a team
// (rengo, team.go), the room by vote (vote.go) or an engine. It is
// derived from the stored Match (Black, White, Teams, Vote, Engine), never
// stored itself, and it is the one place that answers who may act for a
// colour: who moves now, who scores, undoes and resigns, who is reminded,
// whether its clock runs and vacations stop it, what it is called. A new
// game form is a new SideKind here (docs/architecture.md).
type Side struct {
	Color game.Color
	Kind  SideKind
	// Seat is the colour's seat, Match.Black or Match.White: the person,
	// the team's first player, VoteSeat or the engine's user.
	Seat UserID
	// Players plays the side, in turn order: the person's or the
	// engine's seat, every member of a team, VoteSeat for the room.
	Players []UserID
	m       *Match
}

// SideKind is what plays a side.
type SideKind uint8

const (
	NoSide     SideKind = iota // not a side (a colour nobody plays)
	SidePerson                 // one person
	SideTeam                   // a team, its members in turn (Teams)
	SideRoom                   // the room, by vote (Vote)
	SideEngine                 // a computer player (Match.Engine)
)

// EnginePlatform is the platform of an engine's seat: an engine game's
// seat holds EngineUser(Match.Engine).
const EnginePlatform = "engine"

// EngineUser is the user ID of engine name's seat in a game.
func EngineUser(name string) UserID { return NewUserID(EnginePlatform, name) }

// Side returns colour c's side of g (NoSide for game.Empty).
func (g *Match) Side(c game.Color) Side {
	s := Side{Color: c, m: g}
	switch c {
	case game.Black:
		s.Seat = g.Black
	case game.White:
		s.Seat = g.White
	default:
		return Side{}
	}
	switch {
	case g.Teams != nil:
		s.Kind, s.Players = SideTeam, g.Teams.Team(c)
	case g.Vote != nil && s.Seat == VoteSeat:
		s.Kind, s.Players = SideRoom, []UserID{s.Seat}
	case s.Seat.Platform() == EnginePlatform:
		s.Kind, s.Players = SideEngine, []UserID{s.Seat}
	default:
		s.Kind, s.Players = SidePerson, []UserID{s.Seat}
	}
	return s
}

// Sides returns g's two sides, Black's first.
func (g *Match) Sides() [2]Side { return [2]Side{g.Side(game.Black), g.Side(game.White)} }

// Find returns g's first side (Black's first) of kind k, or a NoSide
// when g has none: Find(SideRoom) is the room's side of a vote game.
func (g *Match) Find(k SideKind) Side {
	for _, s := range g.Sides() {
		if s.Kind == k {
			return s
		}
	}
	return Side{}
}

// Has reports whether g has a side of kind k: Has(SideRoom) is a vote
// game, Has(SideTeam) a team game.
func (g *Match) Has(k SideKind) bool { return k != NoSide && g.Find(k).Kind == k }

// ColorOf returns the colour u plays in g (a person, a team's member, an
// engine's or the room's seat), or game.Empty.
func (g *Match) ColorOf(u UserID) game.Color {
	for _, s := range g.Sides() {
		if s.Plays(u) {
			return s.Color
		}
	}
	return game.Empty
}

// SeatOf returns the colour u acts for in g: the colour u plays, or in a
// vote game the room's for anyone who has voted (Side.ActsFor).
func (g *Match) SeatOf(u UserID) game.Color {
	if c := g.ColorOf(u); c != game.Empty {
		return c
	}
	for _, s := range g.Sides() {
		if s.ActsFor(u) {
			return s.Color
		}
	}
	return game.Empty
}

// Undoable reports whether moves of g may be taken back: only when both
// sides undo (Side.Undoes).
func (g *Match) Undoable() bool {
	s := g.Sides()
	return s[0].Undoes() && s[1].Undoes()
}

// VacationStops reports whether a player's vacation stops g's clock: an
// active game with a correspondence clock (not live: TimeControl.Live),
// not vacation=off, whose sides both stop for
// one (Side.Vacations).
func (g *Match) VacationStops() bool {
	s := g.Sides()
	return g.Active() && g.Engine == "" && !g.NoVacation && g.Clock.Kind != NoClock && !g.Clock.Live() && s[0].Vacations() && s[1].Vacations()
}

// IsRoom reports whether u is the room's seat in a vote game (VoteSeat):
// nobody to mention or to remind by name.
func (u UserID) IsRoom() bool { return u == VoteSeat }

// Opponent returns the other colour's side.
func (s Side) Opponent() Side {
	if s.Kind == NoSide {
		return Side{}
	}
	return s.m.Side(s.Color.Opponent())
}

// Moves reports whether it is the side's turn in g, the game of its
// match being played.
func (s Side) Moves(g *game.Game) bool {
	return s.Kind != NoSide && g.Phase() == game.Playing && g.ToMove() == s.Color
}

// ToMove returns who moves when it is the side's turn: the person, the
// engine, VoteSeat for the room, and in a team the member whose turn it
// is (Teams.Turn).
func (s Side) ToMove() UserID {
	if s.Kind == SideTeam {
		return s.m.Teams.Turn(s.Color, &s.m.Record)
	}
	return s.Seat
}

// Plays reports whether u plays the side: its person, any member of its
// team, its engine's or the room's seat. They move, pass and resign for
// it; the room's voters do so only by vote (chat's vote.go), and act for
// it in the scoring (ActsFor).
func (s Side) Plays(u UserID) bool {
	return s.Kind != NoSide && slices.Contains(s.Players, u)
}

// ActsFor reports whether u marks dead stones and accepts the count for
// the side: its players, and for the room everyone who has voted in the
// game.
func (s Side) ActsFor(u UserID) bool {
	return s.Plays(u) || s.Kind == SideRoom && s.m.Vote.Voted(u)
}

// Human reports whether the side's players are people, with a player's
// record (a vacation, ratings): a person or a team; not the room's seat
// nor an engine.
func (s Side) Human() bool { return s.Kind == SidePerson || s.Kind == SideTeam }

// Undoes reports whether the side asks to take back moves and answers
// such a request: a person or a team. An engine takes nothing back, and
// the room's votes are not taken back.
func (s Side) Undoes() bool { return s.Human() }

// Answerers are who may answer a request to the side (an undo): the
// person, or any member of a team.
func (s Side) Answerers() []UserID { return s.Players }

// Pinged are who a reminder of the side's turn mentions: whoever moves
// now; nobody for the room, which is reminded in its room.
func (s Side) Pinged() []UserID {
	if s.Kind == SideRoom || s.Kind == NoSide {
		return nil
	}
	return []UserID{s.ToMove()}
}

// Rotates reports whether the side's turns rotate among its players: a
// team's turn passes to the next member on a timeout or a vacation, and
// each member is reminded of their own turn.
func (s Side) Rotates() bool { return s.Kind == SideTeam }

// Clocked reports whether the side's turns run on the game's clock (the
// game may have none: Match.Clock). The room's do only against a person
// in a game with a clock; against an engine nobody waits on the room,
// and its first vote opens a voting window instead.
func (s Side) Clocked() bool {
	switch s.Kind {
	case NoSide:
		return false
	case SideRoom:
		return s.m.Engine == "" && s.m.Clock.Kind != NoClock
	}
	return true
}

// Vacations reports whether a vacation of a player of the game stops the
// game's clock as far as this side goes: a person's side, or the room
// against a person. A team plays on (the turn passes to a teammate), and
// an engine never goes on vacation, nor does a game against it stop.
func (s Side) Vacations() bool { return s.Kind == SidePerson || s.Kind == SideRoom }

// Name is what the side is called, given each user's name: its player's,
// or a team's members' joined with commas ("alice, bob").
func (s Side) Name(name func(UserID) string) string {
	ns := make([]string, len(s.Players))
	for i, u := range s.Players {
		ns[i] = name(u)
	}
	return strings.Join(ns, ", ")
}

// ForTeams reports whether c is a team challenge (rengo): it names
// every player, and each must accept.
func (c *Challenge) ForTeams() bool { return c.Teams != nil }

// Names reports whether c names u as the one to accept it: the
// challenged player, or any member of a team challenge.
func (c *Challenge) Names(u UserID) bool {
	return c.To == u || c.Teams != nil && c.Teams.ColorOf(u) != game.Empty
}

// Invited are the players c was addressed to besides its challenger:
// every other member of a team challenge, the challenged player, or
// nobody for an open challenge.
func (c *Challenge) Invited() []UserID {
	if c.Teams != nil {
		var to []UserID
		for _, u := range c.Teams.Members() {
			if u != c.From {
				to = append(to, u)
			}
		}
		return to
	}
	if c.To != "" {
		return []UserID{c.To}
	}
	return nil
}

// Open reports whether anyone in the room may take c: it names nobody.
func (c *Challenge) Open() bool { return c.To == "" && c.Teams == nil }
