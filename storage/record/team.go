package record

import (
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// teamsRec is a team game's or challenge's sides (gobot.Teams); absent
// in a game between two players.
type teamsRec struct {
	Black     []string `json:"black"`
	White     []string `json:"white"`
	Accepted  []string `json:"accepted,omitempty"`
	SkipBlack int      `json:"skip_black,omitempty"`
	SkipWhite int      `json:"skip_white,omitempty"`
	LateBlack int      `json:"late_black,omitempty"`
	LateWhite int      `json:"late_white,omitempty"`
}

func encodeTeams(e *errs, t *gobot.Teams) *teamsRec {
	if t == nil {
		return nil
	}
	if len(t.Black) == 0 || len(t.White) == 0 {
		e.add(fmt.Errorf("a team game needs players of both colours (%d black, %d white)", len(t.Black), len(t.White)))
	}
	if t.Skipped[game.Empty] != 0 || t.Late[game.Empty] != 0 {
		e.add(fmt.Errorf("team turns counted for no colour"))
	}
	return &teamsRec{Black: userStrings(t.Black), White: userStrings(t.White), Accepted: userStrings(t.Accepted),
		SkipBlack: t.Skipped[game.Black], SkipWhite: t.Skipped[game.White], LateBlack: t.Late[game.Black], LateWhite: t.Late[game.White]}
}

func decodeTeams(e *errs, r *teamsRec) *gobot.Teams {
	if r == nil {
		return nil
	}
	if len(r.Black) == 0 || len(r.White) == 0 {
		e.add(fmt.Errorf("a team game needs players of both colours (%d black, %d white)", len(r.Black), len(r.White)))
	}
	t := &gobot.Teams{Black: userIDs(r.Black), White: userIDs(r.White), Accepted: userIDs(r.Accepted)}
	t.Skipped[game.Black], t.Skipped[game.White] = r.SkipBlack, r.SkipWhite
	t.Late[game.Black], t.Late[game.White] = r.LateBlack, r.LateWhite
	return t
}

func userStrings(us []gobot.UserID) []string {
	var out []string
	for _, u := range us {
		out = append(out, string(u))
	}
	return out
}

func userIDs(ss []string) []gobot.UserID {
	var out []gobot.UserID
	for _, s := range ss {
		out = append(out, gobot.UserID(s))
	}
	return out
}
