package discord

import (
	"fmt"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A team game's players (a protocol.ArgTeams argument: `rengo @alice
// @bob vs @carol @dave` where typed) are user options on Discord: the
// caller's partners and the opponents. The caller's team is the first
// named, so the colour option is the caller's team's.
const (
	partnerOption  = "partner"  // partner, partner2, partner3
	opponentOption = "opponent" // opponent, opponent2 … opponent4
)

// teamOptions are an ArgTeams argument's user options: one opponent
// required (as the argument is), partners and more opponents optional.
func teamOptions(a protocol.Arg) (required, optional []*discordgo.ApplicationCommandOption) {
	user := func(name, desc string, req bool) *discordgo.ApplicationCommandOption {
		return &discordgo.ApplicationCommandOption{Type: discordgo.ApplicationCommandOptionUser, Name: name, Description: desc, Required: req}
	}
	required = append(required, user(opponentOption, "a player of the other team", a.Required))
	for i := 1; i < gobot.MaxTeam; i++ {
		optional = append(optional, user(teamOptionName(partnerOption, i), fmt.Sprintf("your partner %d (your team plays the colour given)", i), false))
	}
	for i := 2; i <= gobot.MaxTeam; i++ {
		optional = append(optional, user(teamOptionName(opponentOption, i), fmt.Sprintf("another player of the other team (%d)", i), false))
	}
	return required, optional
}

// teamOptionName is "partner" for the first, then "partner2" and so on.
func teamOptionName(base string, i int) string {
	if i == 1 {
		return base
	}
	return fmt.Sprintf("%s%d", base, i)
}

// teamSlot reports whether option name is one of teamOptions', and its
// team (0 the caller's, 1 the other) and place.
func teamSlot(name string) (team, place int, ok bool) {
	for i := 1; i <= gobot.MaxTeam; i++ {
		if i < gobot.MaxTeam && name == teamOptionName(partnerOption, i) {
			return 0, i, true
		}
		if name == teamOptionName(opponentOption, i) {
			return 1, i, true
		}
	}
	return 0, 0, false
}

// teamWords turns the team options given into the words chat's parser
// reads for an ArgTeams: the caller and partners, "vs", the opponents,
// each by qualified ID, in the options' order.
func teamWords(caller gobot.UserID, slots [2][gobot.MaxTeam + 1]string) string {
	words := []string{string(caller)}
	for side := range 2 {
		if side == 1 {
			words = append(words, "vs")
		}
		for _, id := range slots[side] {
			if id != "" {
				words = append(words, string(gobot.NewUserID(Platform, id)))
			}
		}
	}
	return strings.Join(words, " ")
}

// resolvedUser is the user an interaction's data resolved for id.
func resolvedUser(data discordgo.ApplicationCommandInteractionData, id string) (*discordgo.User, bool) {
	if data.Resolved == nil {
		return nil, false
	}
	u, ok := data.Resolved.Users[id]
	return u, ok
}
