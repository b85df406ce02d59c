package gobot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

// Each kind of side answers who moves, who may play (and so resign),
// undo and score for it, whether its clock runs and vacations stop it, and its name.
func TestSide(t *testing.T) {
	clock := TimeControl{Kind: PerMove, PerMove: 24 * time.Hour}
	person := &Match{Black: "t:ann", White: "t:bob", Clock: clock}
	team := &Match{Black: "t:b1", White: "t:w1", Clock: clock,
		Teams: &Teams{Black: []UserID{"t:b1", "t:b2"}, White: []UserID{"t:w1", "t:w2", "t:w3"}}}
	team.Record.Moves = []game.Move{{Color: game.Black, Point: game.Pt(2, 2)}, {Color: game.White, Point: game.Pt(6, 6)}, {Color: game.Black, Point: game.Pt(2, 6)}}
	engine := &Match{Black: EngineUser("gnugo"), White: "t:ann", Engine: "gnugo", Clock: clock}
	roomVsPerson := &Match{Black: VoteSeat, White: "t:bob", Clock: clock, Vote: &Vote{Voters: []UserID{"t:cat"}}}
	roomVsEngine := &Match{Black: EngineUser("gnugo"), White: VoteSeat, Engine: "gnugo", Clock: clock, Vote: &Vote{Voters: []UserID{"t:cat"}}}
	roomNoClock := &Match{Black: VoteSeat, White: "t:bob", Vote: &Vote{Voters: []UserID{"t:cat"}}}
	name := func(u UserID) string { return u.Local() }

	for _, tc := range []struct {
		what    string
		m       *Match
		c       game.Color
		kind    SideKind
		toMove  UserID
		plays   []UserID // play the side (and so act for it)
		acts    []UserID // act for it without playing it (score for the room)
		not     []UserID // neither
		undoes  bool
		clocked bool
		vacs    bool
		pinged  []UserID
		name    string
	}{
		{"a person", person, game.Black, SidePerson, "t:ann", []UserID{"t:ann"}, nil, []UserID{"t:bob", VoteSeat}, true, true, true, []UserID{"t:ann"}, "ann"},
		{"the other person", person, game.White, SidePerson, "t:bob", []UserID{"t:bob"}, nil, []UserID{"t:ann"}, true, true, true, []UserID{"t:bob"}, "bob"},
		{"a team after its first move", team, game.Black, SideTeam, "t:b1", []UserID{"t:b1", "t:b2"}, nil, []UserID{"t:w1"}, true, true, false, []UserID{"t:b1"}, "b1, b2"},
		{"a team in its second turn", team, game.White, SideTeam, "t:w2", []UserID{"t:w1", "t:w2", "t:w3"}, nil, []UserID{"t:b2"}, true, true, false, []UserID{"t:w2"}, "w1, w2, w3"},
		{"an engine", engine, game.Black, SideEngine, "engine:gnugo", []UserID{"engine:gnugo"}, nil, []UserID{"t:ann"}, false, true, false, []UserID{"engine:gnugo"}, "gnugo"},
		{"the engine's opponent", engine, game.White, SidePerson, "t:ann", []UserID{"t:ann"}, nil, []UserID{"engine:gnugo"}, true, true, true, []UserID{"t:ann"}, "ann"},
		{"the room against a person", roomVsPerson, game.Black, SideRoom, VoteSeat, []UserID{VoteSeat}, []UserID{"t:cat"}, []UserID{"t:bob", "t:dan"}, false, true, true, nil, "the room"},
		{"the room's opponent", roomVsPerson, game.White, SidePerson, "t:bob", []UserID{"t:bob"}, nil, []UserID{"t:cat"}, true, true, true, []UserID{"t:bob"}, "bob"},
		{"the room against an engine", roomVsEngine, game.White, SideRoom, VoteSeat, []UserID{VoteSeat}, []UserID{"t:cat"}, []UserID{"engine:gnugo"}, false, false, true, nil, "the room"},
		{"the room in a game without a clock", roomNoClock, game.Black, SideRoom, VoteSeat, []UserID{VoteSeat}, []UserID{"t:cat"}, nil, false, false, true, nil, "the room"},
	} {
		s := tc.m.Side(tc.c)
		if s.Kind != tc.kind || s.Color != tc.c {
			t.Errorf("%s: kind %d colour %s, want %d %s", tc.what, s.Kind, s.Color.Name(), tc.kind, tc.c.Name())
		}
		if got := s.ToMove(); got != tc.toMove {
			t.Errorf("%s: %s moves, want %s", tc.what, got, tc.toMove)
		}
		for _, u := range tc.plays {
			if !s.Plays(u) || !s.ActsFor(u) || tc.m.ColorOf(u) != tc.c || tc.m.SeatOf(u) != tc.c {
				t.Errorf("%s: %s plays %v, acts %v, colour %s, seat %s; want to play and act for %s",
					tc.what, u, s.Plays(u), s.ActsFor(u), tc.m.ColorOf(u).Name(), tc.m.SeatOf(u).Name(), tc.c.Name())
			}
		}
		for _, u := range tc.acts {
			if s.Plays(u) || !s.ActsFor(u) || tc.m.ColorOf(u) != game.Empty || tc.m.SeatOf(u) != tc.c {
				t.Errorf("%s: %s plays %v, acts %v, colour %s, seat %s; want to act for %s only (in the scoring)",
					tc.what, u, s.Plays(u), s.ActsFor(u), tc.m.ColorOf(u).Name(), tc.m.SeatOf(u).Name(), tc.c.Name())
			}
		}
		for _, u := range tc.not {
			if s.Plays(u) || s.ActsFor(u) {
				t.Errorf("%s: %s plays %v, acts %v; want neither", tc.what, u, s.Plays(u), s.ActsFor(u))
			}
		}
		if s.Undoes() != tc.undoes || s.Clocked() != tc.clocked || s.Vacations() != tc.vacs {
			t.Errorf("%s: undoes %v, clocked %v, vacations %v; want %v %v %v", tc.what, s.Undoes(), s.Clocked(), s.Vacations(), tc.undoes, tc.clocked, tc.vacs)
		}
		if got := s.Pinged(); !slices.Equal(got, tc.pinged) {
			t.Errorf("%s: pinged %v, want %v", tc.what, got, tc.pinged)
		}
		if got := s.Name(name); got != tc.name {
			t.Errorf("%s: called %q, want %q", tc.what, got, tc.name)
		}
		if s.Human() != (tc.kind == SidePerson || tc.kind == SideTeam) {
			t.Errorf("%s: human %v", tc.what, s.Human())
		}
		if s.Rotates() != (tc.kind == SideTeam) {
			t.Errorf("%s: rotates %v", tc.what, s.Rotates())
		}
		if got := s.Opponent(); got.Color != tc.c.Opponent() || got.Opponent().Kind != tc.kind {
			t.Errorf("%s: opponent %s, its opponent kind %d", tc.what, got.Color.Name(), got.Opponent().Kind)
		}
		if got := s.Answerers(); !slices.Equal(got, tc.plays) {
			t.Errorf("%s: answered by %v, want %v", tc.what, got, tc.plays)
		}
	}
}

// The game's questions, answered by its two sides.
func TestMatchSides(t *testing.T) {
	clock := TimeControl{Kind: PerMove, PerMove: 24 * time.Hour}
	for _, tc := range []struct {
		what     string
		m        *Match
		undo     bool
		vacation bool
		room     game.Color
		team     bool
	}{
		{"two people", &Match{Black: "t:ann", White: "t:bob", Clock: clock}, true, true, game.Empty, false},
		{"two people, vacation=off", &Match{Black: "t:ann", White: "t:bob", Clock: clock, NoVacation: true}, true, false, game.Empty, false},
		{"two people, no clock", &Match{Black: "t:ann", White: "t:bob"}, true, false, game.Empty, false},
		{"two people, finished", &Match{Black: "t:ann", White: "t:bob", Clock: clock, Finished: time.Unix(1, 0)}, true, false, game.Empty, false},
		{"teams", &Match{Black: "t:b1", White: "t:w1", Clock: clock, Teams: &Teams{Black: []UserID{"t:b1"}, White: []UserID{"t:w1"}}}, true, false, game.Empty, true},
		{"against an engine", &Match{Black: "t:ann", White: EngineUser("gnugo"), Engine: "gnugo", Clock: clock}, false, false, game.Empty, false},
		{"the room against a person", &Match{Black: "t:ann", White: VoteSeat, Clock: clock, Vote: &Vote{}}, false, true, game.White, false},
		{"the room against an engine", &Match{Black: VoteSeat, White: EngineUser("gnugo"), Engine: "gnugo", Clock: clock, Vote: &Vote{}}, false, false, game.Black, false},
	} {
		m := tc.m
		if m.Undoable() != tc.undo || m.VacationStops() != tc.vacation || m.Find(SideRoom).Color != tc.room || m.Has(SideRoom) != (tc.room != game.Empty) || m.Has(SideTeam) != tc.team {
			t.Errorf("%s: undoable %v, vacation stops %v, room %s, team %v; want %v %v %s %v",
				tc.what, m.Undoable(), m.VacationStops(), m.Find(SideRoom).Color.Name(), m.Has(SideTeam), tc.undo, tc.vacation, tc.room.Name(), tc.team)
		}
		if m.Has(NoSide) || m.Side(game.Empty).Kind != NoSide || m.ColorOf("t:nobody") != game.Empty || m.SeatOf("t:nobody") != game.Empty {
			t.Errorf("%s: a colour nobody plays, or a stranger, has a side", tc.what)
		}
	}
}

// A Moves only on its own turn while the game is being played.
func TestSideMoves(t *testing.T) {
	g, err := game.New(game.Config{Width: 9, Height: 9})
	if err != nil {
		t.Fatal(err)
	}
	m := &Match{Black: VoteSeat, White: "t:bob", Vote: &Vote{}}
	if !m.Side(game.Black).Moves(g) || m.Side(game.White).Moves(g) || m.Side(game.Empty).Moves(g) {
		t.Errorf("Black to move: the room %v, bob %v", m.Side(game.Black).Moves(g), m.Side(game.White).Moves(g))
	}
	for range 2 {
		if err := g.Play(g.ToMove(), game.Pass); err != nil {
			t.Fatal(err)
		}
	}
	if g.Phase() == game.Playing || m.Side(g.ToMove()).Moves(g) {
		t.Errorf("after two passes (%s) a side still moves", g.Phase())
	}
}

// A challenge names who answers it: the challenged player, or every
// member of a team challenge; an open challenge names nobody.
func TestChallengeNames(t *testing.T) {
	open := &Challenge{From: "t:ann"}
	direct := &Challenge{From: "t:ann", To: "t:bob"}
	teams := &Challenge{From: "t:ann", Teams: &Teams{Black: []UserID{"t:ann", "t:cat"}, White: []UserID{"t:bob", "t:dan"}}}
	for _, tc := range []struct {
		what    string
		c       *Challenge
		open    bool
		forTeam bool
		names   []UserID
		invited string
	}{
		{"open", open, true, false, nil, ""},
		{"to bob", direct, false, false, []UserID{"t:bob"}, "t:bob"},
		{"teams", teams, false, true, []UserID{"t:ann", "t:bob", "t:cat", "t:dan"}, "t:cat t:bob t:dan"},
	} {
		c := tc.c
		if c.Open() != tc.open || c.ForTeams() != tc.forTeam {
			t.Errorf("%s: open %v, for teams %v", tc.what, c.Open(), c.ForTeams())
		}
		for _, u := range []UserID{"t:ann", "t:bob", "t:cat", "t:dan", "t:eve"} {
			if got, want := c.Names(u), slices.Contains(tc.names, u); got != want {
				t.Errorf("%s: names %s %v, want %v", tc.what, u, got, want)
			}
		}
		var inv []string
		for _, u := range c.Invited() {
			inv = append(inv, string(u))
		}
		if got := strings.Join(inv, " "); got != tc.invited {
			t.Errorf("%s: invited %q, want %q", tc.what, got, tc.invited)
		}
	}
}
