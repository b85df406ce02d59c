package flow

import (
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// BoardGames are the games a board opened inside room (not for one
// game: the Discord Activity, chat/web) shows user: user's games being
// played there or in a thread of it; if there are none, every game
// being played in room itself, to watch.
func BoardGames(tx gobot.Tx, room gobot.RoomID, user gobot.UserID) (games []*gobot.Match, watch bool, err error) {
	mine, err := tx.ActiveGames(user)
	if err != nil {
		return nil, false, err
	}
	for _, m := range mine {
		if m.Room == room || m.Parent == room {
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

// FreePoints are the points of game l where a stone may go now, named
// as GTP names them, those starting with prefix, at most n: the empty
// points but a simple ko's. There are none once the game is not being
// played.
func FreePoints(l *Loaded, prefix string, n int) []string {
	if l.G.Phase() != game.Playing {
		return nil
	}
	cfg := l.G.Config()
	var out []string
	for y := 0; y < cfg.Height && len(out) < n; y++ {
		for x := 0; x < cfg.Width && len(out) < n; x++ {
			p := game.Pt(x, y)
			name := p.GTP(cfg.Height)
			if !strings.HasPrefix(name, prefix) || l.G.At(p) != game.Empty {
				continue
			}
			if k, ok := l.G.KoPoint(); ok && k == p && cfg.Rules.Ko == game.KoSimple {
				continue
			}
			out = append(out, name)
		}
	}
	return out
}
