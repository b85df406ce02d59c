package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
)

// InRoom reports whether user may see room, a channel of a server (the
// web board's Members): a member of the channel's server whose
// permissions in it (a thread's: in its parent) include View Channel.
// Discord is asked each time, with the bot token (the channel, its
// server's roles, the member), so the web board refuses a vote from
// someone who left the server, was removed from it, or lost sight of the
// channel. A user who is no member is false; a channel the bot cannot
// read (a user's own install in a server without the bot) wraps
// gobot.ErrNotFound: no one can be checked there; Discord out of reach
// wraps gobot.ErrUnavailable.
func (a *Adapter) InRoom(ctx context.Context, room gobot.RoomID, user gobot.UserID) (bool, error) {
	if room.Platform() != Platform || user.Platform() != Platform || !snowflake(room.Local()) || !snowflake(user.Local()) {
		return false, nil
	}
	uid := user.Local()
	var ch discordgo.Channel
	if err := a.botGet(ctx, discordgo.EndpointChannel(room.Local()), &ch); errors.Is(err, ErrActivityRefused) {
		// Missing Access: a server that installed no bot (a user's own
		// install), or a channel hidden from it.
		return false, fmt.Errorf("discord: the bot cannot read the channel (%v): %w", err, gobot.ErrNotFound)
	} else if err != nil {
		return false, unavailable("the channel", err)
	}
	if ch.IsThread() {
		parent := ch.ParentID
		if !snowflake(parent) {
			return false, fmt.Errorf("discord: a thread without its channel: %w", gobot.ErrUnavailable)
		}
		ch = discordgo.Channel{}
		if err := a.botGet(ctx, discordgo.EndpointChannel(parent), &ch); err != nil {
			return false, unavailable("the thread's channel", err)
		}
	}
	if ch.GuildID == "" || !snowflake(ch.GuildID) {
		return false, nil // a DM: no room plays there
	}
	var g discordgo.Guild
	if err := a.botGet(ctx, discordgo.EndpointGuild(ch.GuildID), &g); err != nil {
		return false, unavailable("the server", err)
	}
	var m discordgo.Member
	if err := a.botGet(ctx, discordgo.EndpointGuildMember(ch.GuildID, uid), &m); errors.Is(err, errUnknown) {
		return false, nil // 404 Unknown Member: not in the server (any more)
	} else if err != nil { // a 401 or 403 is the bot's token, not the member: unknown
		return false, unavailable("the member", err)
	}
	if m.User == nil || m.User.ID != uid {
		return false, fmt.Errorf("discord: the member asked for is not the one answered: %w", gobot.ErrUnavailable)
	}
	// discordgo computes a member's permissions in a channel from a
	// State: one made for this question alone.
	g.ID, m.GuildID = ch.GuildID, ch.GuildID
	st := discordgo.NewState()
	if err := errors.Join(st.GuildAdd(&g), st.ChannelAdd(&ch), st.MemberAdd(&m)); err != nil {
		return false, fmt.Errorf("discord: %v: %w", err, gobot.ErrUnavailable)
	}
	perms, err := st.UserChannelPermissions(uid, ch.ID)
	if err != nil {
		return false, fmt.Errorf("discord: %v: %w", err, gobot.ErrUnavailable)
	}
	return perms&discordgo.PermissionViewChannel != 0, nil
}

// botGet GETs url with the bot token into out (restJSON), reading at
// most 1 MB: a server's object carries its roles, emojis and stickers,
// well over the 64 KB an Activity's answers are held to in a big server.
func (a *Adapter) botGet(ctx context.Context, url string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bot "+a.cfg.Token)
	return a.restJSONUpTo(req, out, 1<<20)
}

// unavailable: what could not be read to answer InRoom.
func unavailable(what string, err error) error {
	if errors.Is(err, gobot.ErrUnavailable) {
		return fmt.Errorf("discord: reading %s: %w", what, err)
	}
	return fmt.Errorf("discord: reading %s: %v: %w", what, err, gobot.ErrUnavailable)
}
