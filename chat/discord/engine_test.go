package discord

import (
	"testing"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat"
)

// The challenge's engine option autocompletes, level is an integer from
// 1 to 10, and both reach chat as engine= and level=.
func TestEngineOptions(t *testing.T) {
	bot := chat.New(chat.Config{}, nil, nil, nil, nil)
	subs := subcommands(ApplicationCommands(bot.Commands()))
	var eng, lvl *discordgo.ApplicationCommandOption
	for _, sub := range subs {
		if sub.Name != "challenge" {
			continue
		}
		for _, o := range sub.Options {
			switch o.Name {
			case "engine":
				eng = o
			case "level":
				lvl = o
			}
		}
	}
	if eng == nil || !eng.Autocomplete || eng.Type != discordgo.ApplicationCommandOptionString {
		t.Fatalf("engine option: %+v", eng)
	}
	if lvl == nil || lvl.Type != discordgo.ApplicationCommandOptionInteger || lvl.MaxLength != 0 || *lvl.MinValue != 1 || lvl.MaxValue != 10 {
		t.Fatalf("level option: %+v", lvl)
	}
	a := &Adapter{cmds: map[string]chat.Command{}}
	for _, c := range bot.Commands() {
		a.cmds[c.Name] = c
	}
	in := &discordgo.Interaction{ID: "1", Type: discordgo.InteractionApplicationCommand, GuildID: "g", ChannelID: "c",
		Member: &discordgo.Member{User: &discordgo.User{ID: "u"}},
		Data: discordgo.ApplicationCommandInteractionData{Name: "go", Options: []*discordgo.ApplicationCommandInteractionDataOption{{
			Name: "challenge", Type: discordgo.ApplicationCommandOptionSubCommand,
			Options: []*discordgo.ApplicationCommandInteractionDataOption{
				{Name: "engine", Type: discordgo.ApplicationCommandOptionString, Value: "gnugo"},
				{Name: "level", Type: discordgo.ApplicationCommandOptionInteger, Value: float64(3)},
				{Name: "size", Type: discordgo.ApplicationCommandOptionString, Value: "9"},
			}}}}}
	r := a.Request(in)
	if r.Command != "challenge" || r.Named["engine"] != "gnugo" || r.Named["level"] != "3" || r.Named["size"] != "9" {
		t.Fatalf("request: %q %q", r.Command, r.Named)
	}
}
