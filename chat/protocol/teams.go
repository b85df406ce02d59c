package protocol

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
)

// isVersus reports whether w separates the two teams of a team game.
func isVersus(w string) bool {
	switch strings.ToLower(w) {
	case "vs", "vs.", "versus":
		return true
	}
	return false
}

// maxTeamWords bounds the players an ArgTeams takes: two full teams.
const maxTeamWords = 2 * gobot.MaxTeam

// addTeamWord adds one word of an ArgTeams: a player (to the team being
// named) or "vs" (the second team starts). Adapters give players as
// qualified IDs ("discord:123"), people as @names.
func addTeamWord(c *Decl, r *Request, a *Args, v string) error {
	if isVersus(v) {
		if a.typed["teams vs"] != "" {
			return c.UsageError("Name two teams with one vs between them, like @alice @bob vs @carol @dave.")
		}
		a.typed["teams vs"] = v
		return nil
	}
	side := 0
	if a.typed["teams vs"] != "" {
		side = 1
	}
	if len(a.Teams[0])+len(a.Teams[1]) >= maxTeamWords {
		return c.UsageError(fmt.Sprintf("Too many players: a team has at most %d.", gobot.MaxTeam))
	}
	u := userArg(r, "@"+strings.TrimPrefix(v, "@"))
	if err := playerHere(r, u); err != nil {
		return err
	}
	a.Teams[side] = append(a.Teams[side], u)
	return nil
}
