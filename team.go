package gobot

import (
	"slices"

	"github.com/gobotgo/gobot/game"
)

// MaxTeam is how many players a team of a team game (rengo) may have.
const MaxTeam = 4

// Teams are the sides of a team game (rengo): each colour's players in
// their turn order. A Match or Challenge with nil Teams is a game
// between two players. In a team game Match.Black and Match.White hold
// each team's first player; the stores index every member (Players).
//
// The turn rotates within each team (KGS's order: B1 W1 B2 W2 …): the
// player of colour c to move is the one after as many turns as the
// team has had (its moves in the record, plus the turns that passed on
// a timeout), so an undone move gives the turn back to whoever made it.
type Teams struct {
	Black []UserID
	White []UserID
	// Accepted (a challenge only): the named players who accepted so
	// far; the game begins when every player but the challenger has.
	Accepted []UserID
	// Skipped (a game only), indexed by game.Color: the turns that passed
	// to the next teammate because the player to move ran out of time
	// or was on vacation.
	Skipped [3]int
	// Late (a game only), indexed by game.Color: the team's timeouts in a
	// row since its last move; when it reaches the team's size the team
	// loses on time.
	Late [3]int
}

// Team returns the players of colour c.
func (t *Teams) Team(c game.Color) []UserID {
	if c == game.White {
		return t.White
	}
	return t.Black
}

// ColorOf returns u's colour, or game.Empty if u is in neither team.
func (t *Teams) ColorOf(u UserID) game.Color {
	switch {
	case slices.Contains(t.Black, u):
		return game.Black
	case slices.Contains(t.White, u):
		return game.White
	}
	return game.Empty
}

// Members returns every player, Black's team first.
func (t *Teams) Members() []UserID {
	return append(slices.Clone(t.Black), t.White...)
}

// Turn returns the player of colour c whose turn it is, given rec (the
// team's moves so far). Placing handicap stones one by one (free
// placement, or White passing between them) is Black's first player's
// one turn, however many stones; White's automatic passes meanwhile are
// no one's.
func (t *Teams) Turn(c game.Color, rec *game.Record) UserID {
	team := t.Team(c)
	if len(team) == 0 {
		return ""
	}
	n := t.Skipped[c]
	cfg := rec.Config
	placing := 0 // handicap stones still to place as moves
	if p := cfg.Rules.Placement; cfg.Handicap >= 2 && (p == game.PlacementFree || p == game.PlacementWhitePasses) {
		placing = cfg.Handicap
	}
	for _, m := range rec.Moves {
		switch {
		case placing > 0 && m.Color == game.Black:
			if placing--; placing == 0 && c == game.Black {
				n++ // the placement was one turn
			}
		case placing > 0 && m.Color == game.White && m.IsPass():
			// White's automatic pass between two stones
		case m.Color == c:
			n++
		}
	}
	return team[n%len(team)]
}

// Clone returns a deep copy (nil for nil).
func (t *Teams) Clone() *Teams {
	if t == nil {
		return nil
	}
	c := *t
	c.Black, c.White, c.Accepted = slices.Clone(t.Black), slices.Clone(t.White), slices.Clone(t.Accepted)
	return &c
}

// Players returns everyone who plays g: Black and White, and in a team
// game every member of both teams, each once. The stores index a game
// under each of them while it is active.
func (g *Match) Players() []UserID {
	out := []UserID{g.Black}
	if g.White != g.Black {
		out = append(out, g.White)
	}
	if g.Teams != nil {
		for _, u := range g.Teams.Members() {
			if !slices.Contains(out, u) {
				out = append(out, u)
			}
		}
	}
	return out
}
