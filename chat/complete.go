package chat

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// Complete suggests values for argument arg of command cmd, given what the
// user has typed so far (Discord autocomplete): the caller's active games
// for a game reference, legal points for play.
func (b *Bot) Complete(ctx context.Context, r protocol.Request, cmd, arg, typed string) []Choice {
	typed = strings.ToUpper(strings.TrimSpace(typed))
	var games []*gobot.Match
	names := map[gobot.UserID]string{}
	b.query(ctx, func(tx gobot.Tx) error {
		games, _ = tx.ActiveGames(r.User.ID)
		if cmd == "vote" { // the room's vote games (vote.go)
			games, _ = flow.RoomVoteGames(tx, r.Room)
		}
		if strings.Contains(arg, "game") {
			for _, match := range games {
				opp := match.Side(match.ColorOf(r.User.ID).Opponent()).ToMove()
				names[opp] = displayName(tx, opp)
			}
		}
		return nil
	})
	sort.Slice(games, func(i, j int) bool { return games[i].ID < games[j].ID })
	var out []Choice
	switch {
	case strings.Contains(arg, "game"):
		for _, match := range games {
			v := fmt.Sprintf("#%d", match.ID)
			if typed != "" && !strings.HasPrefix(v, "#"+strings.TrimPrefix(typed, "#")) {
				continue
			}
			opp := match.Side(match.ColorOf(r.User.ID).Opponent()).ToMove()
			out = append(out, Choice{Name: say.GameChoice(match.ID, names[opp]), Value: v})
		}
	case arg == "engine":
		for _, n := range b.engineNames() { // suggests engine names
			if strings.HasPrefix(strings.ToUpper(n), typed) {
				out = append(out, Choice{Name: n, Value: n})
			}
		}
		return out
	case arg == "rules" || arg == "preset":
		return completeRules(strings.ToLower(typed))
	case arg == "point":
		var match *gobot.Match
		if ref, ok := r.Named["#game"]; ok {
			id, _ := protocol.ParseRef(ref, "game")
			for _, g := range games {
				if uint64(g.ID) == id {
					match = g
				}
			}
		} else {
			var here []*gobot.Match
			for _, g := range games {
				if r.DM || g.Room == r.Room || (g.Thread && g.Parent == r.Room) {
					here = append(here, g)
				}
			}
			if len(here) == 1 {
				match = here[0]
			}
		}
		if match == nil {
			return nil
		}
		l, err := flow.Load(match)
		if err != nil {
			return nil
		}
		for _, name := range flow.FreePoints(l, typed, 25) {
			out = append(out, Choice{Name: name, Value: name})
		}
	}
	if len(out) > 25 {
		out = out[:25]
	}
	return out
}

// completeRules suggests presets for a ruleset being typed; once options
// follow (japanese ko=simple), what is typed is offered as it stands.
func completeRules(typed string) []Choice {
	if strings.ContainsAny(typed, " =,") {
		return []Choice{{Name: protocol.ClipRunes(typed, 100), Value: protocol.ClipRunes(typed, 100)}}
	}
	var out []Choice
	for _, n := range game.PresetNames() {
		if strings.HasPrefix(n, typed) {
			out = append(out, Choice{Name: n, Value: n})
		}
	}
	return out
}
