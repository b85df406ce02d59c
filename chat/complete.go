package chat

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
	var out []Choice
	switch arg {
	case "engine":
		for _, n := range b.engineNames() { // suggests engine names
			if strings.HasPrefix(strings.ToUpper(n), typed) {
				out = append(out, Choice{Name: n, Value: n})
			}
		}
		return out
	case "rules", "preset":
		return completeRules(strings.ToLower(typed))
	}
	var games []*gobot.Match
	b.query(ctx, func(tx gobot.Tx) error {
		games, _ = tx.ActiveGames(r.User.ID)
		if cmd == "vote" { // the room's vote games (vote.go)
			games, _ = flow.RoomVoteGames(tx, r.Room)
		}
		slices.SortFunc(games, func(a, b *gobot.Match) int { return cmp.Compare(a.ID, b.ID) })
		for _, match := range games {
			v := fmt.Sprintf("#%d", match.ID)
			if strings.Contains(arg, "game") && (typed == "" || strings.HasPrefix(v, "#"+strings.TrimPrefix(typed, "#"))) {
				opp := match.Side(match.ColorOf(r.User.ID).Opponent()).ToMove()
				out = append(out, Choice{Name: say.GameChoice(match.ID, displayName(tx, opp)), Value: v})
			}
		}
		return nil
	})
	if arg == "point" { // the game named, or the one game here
		ref, named := r.Named["#game"]
		id, _ := protocol.ParseRef(ref, "game")
		var here []*gobot.Match
		for _, g := range games {
			if named && uint64(g.ID) == id || !named && (r.DM || g.Room == r.Room || g.Thread && g.Parent == r.Room) {
				here = append(here, g)
			}
		}
		if len(here) != 1 {
			return nil
		}
		l, err := flow.Load(here[0])
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
