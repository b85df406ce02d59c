package discord

import (
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Ratings are per server: a request from a guild carries the guild as
// its community; a DM carries none (chat then uses the DM channel).
func TestRequestCommunity(t *testing.T) {
	a := &Adapter{}
	in := &discordgo.Interaction{ID: "1", Type: discordgo.InteractionMessageComponent, GuildID: "g1", ChannelID: "c1",
		Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}}, Data: discordgo.MessageComponentInteractionData{CustomID: "x"}}
	if r := a.Request(in); r.Community != "discord:guild:g1" || r.Room != "discord:c1" {
		t.Errorf("guild request: community %q room %q", r.Community, r.Room)
	}
	in = &discordgo.Interaction{ID: "2", Type: discordgo.InteractionMessageComponent, ChannelID: "dm1",
		User: &discordgo.User{ID: "u1"}, Data: discordgo.MessageComponentInteractionData{CustomID: "x"}}
	if r := a.Request(in); r.Community != "" || !r.DM {
		t.Errorf("DM request: community %q dm %v", r.Community, r.DM)
	}
	// A DM or group DM between users, where gobot is user-installed: a
	// room of its own (not a conversation with the bot), its own ratings
	// community, every member its admin.
	in.Context = discordgo.InteractionContextPrivateChannel
	in.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: "u1"}
	if r := a.Request(in); r.Community != "" || r.DM || !r.Admin || r.Room != "discord:dm1" {
		t.Errorf("private channel request: community %q dm %v admin %v room %q", r.Community, r.DM, r.Admin, r.Room)
	}
}

// clockBot is a handler with a clock of its own (chat.Clock).
type clockBot struct {
	Handler
	now time.Time
}

func (c clockBot) Now() time.Time { return c.now }

// A request is stamped with its arrival by the bot's clock (a live
// game's move counts from it); a handler without a clock leaves the
// adapter's.
func TestRequestArrival(t *testing.T) {
	in := &discordgo.Interaction{ID: "1", Type: discordgo.InteractionMessageComponent, GuildID: "g1", ChannelID: "c1",
		Member: &discordgo.Member{User: &discordgo.User{ID: "u1"}}, Data: discordgo.MessageComponentInteractionData{CustomID: "x"}}
	bot := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	if r := (&Adapter{bot: clockBot{now: bot}}).Request(in); !r.Arrived.Equal(bot) || !r.Time.IsZero() {
		t.Errorf("arrival %v, time %v; want the bot's %v and none", r.Arrived, r.Time, bot)
	}
	own := bot.Add(time.Hour)
	if r := (&Adapter{now: func() time.Time { return own }}).Request(in); !r.Arrived.Equal(own) {
		t.Errorf("arrival %v, want the adapter's %v", r.Arrived, own)
	}
}
