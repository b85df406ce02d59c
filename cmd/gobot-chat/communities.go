package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
)

// CommunityConfig is one joined community (config.example.yaml's
// communities, docs/identity.md): Discord servers and Matrix rooms whose
// ratings, leaderboard, tournaments and ladders are one.
type CommunityConfig struct {
	Name string `yaml:"name" want:"the community's name, like \"Go Club\""`
	// Discord are its Discord servers; the first channel given is where
	// games with players of other platforms are posted on Discord.
	Discord []DiscordMember `yaml:"discord" want:"a list of servers like [{guild: \"1234\", channel: \"5678\"}]"`
	// Matrix are its Matrix rooms; the first is where games with players
	// of other platforms are posted on Matrix.
	Matrix []string `yaml:"matrix" want:"a list of room IDs like [\"!abc:example.org\"]"`
}

// DiscordMember is a Discord server of a joined community.
type DiscordMember struct {
	Guild   string `yaml:"guild" want:"a server ID like \"123456789012345678\""`
	Channel string `yaml:"channel" want:"a channel ID like \"123456789012345678\""`
}

// snowflake reports whether s is a Discord ID: digits only.
func snowflake(s string) bool { return s != "" && len(s) <= 20 && strings.Trim(s, "0123456789") == "" }

// matrixRoomID reports whether s is a Matrix room ID: !opaque:server.
func matrixRoomID(s string) bool {
	local, server, ok := strings.Cut(strings.TrimPrefix(s, "!"), ":")
	return strings.HasPrefix(s, "!") && ok && local != "" && server != "" && !strings.ContainsAny(s, " /")
}

// communities checks the communities section and makes the bot's
// joined communities, each error naming the key at fault and the fix.
func (c *Config) communities() (gobot.Communities, error) {
	var cs []gobot.Community
	keys := [][]string{} // keys[i][j]: the key of community i's member j
	for i, cc := range c.Communities {
		key := fmt.Sprintf("communities[%d]", i)
		if strings.TrimSpace(cc.Name) == "" {
			return gobot.Communities{}, fmt.Errorf("%s.name: give the community a name, like \"Go Club\"", key)
		}
		if len(cc.Discord)+len(cc.Matrix) == 0 {
			return gobot.Communities{}, fmt.Errorf("%s: %q joins nothing: list its Discord servers (discord: [{guild: \"1234\", channel: \"5678\"}]) and Matrix rooms (matrix: [\"!abc:example.org\"])", key, cc.Name)
		}
		com := gobot.Community{Name: cc.Name, Rooms: map[string]gobot.RoomID{}}
		var mk []string
		for j, d := range cc.Discord {
			dk := fmt.Sprintf("%s.discord[%d]", key, j)
			if !snowflake(d.Guild) {
				return gobot.Communities{}, fmt.Errorf("%s.guild: %q is not a server ID: give the server's ID, digits like \"123456789012345678\" (Discord's developer mode: right-click the server, Copy Server ID)", dk, d.Guild)
			}
			if d.Channel != "" && !snowflake(d.Channel) {
				return gobot.Communities{}, fmt.Errorf("%s.channel: %q is not a channel ID: give the channel's ID, digits like \"123456789012345678\" (right-click the channel, Copy Channel ID)", dk, d.Channel)
			}
			if _, ok := com.Rooms["discord"]; !ok && d.Channel != "" {
				com.Rooms["discord"] = gobot.NewRoomID("discord", d.Channel)
			}
			com.Members = append(com.Members, gobot.CommunityID("discord:guild:"+d.Guild))
			mk = append(mk, dk+".guild")
		}
		for j, m := range cc.Matrix {
			mkey := fmt.Sprintf("%s.matrix[%d]", key, j)
			if !matrixRoomID(m) {
				hint := ""
				if strings.HasPrefix(m, "#") {
					hint = " (that is an alias: give the room's ID, in the room's settings under Advanced)"
				}
				return gobot.Communities{}, fmt.Errorf("%s: %q is not a Matrix room ID like \"!abc:example.org\"%s", mkey, m, hint)
			}
			if j == 0 {
				com.Rooms["matrix"] = gobot.NewRoomID("matrix", m)
			}
			com.Members = append(com.Members, gobot.CommunityID("matrix:"+m))
			mk = append(mk, mkey)
		}
		if len(cc.Discord) > 0 && len(cc.Matrix) > 0 && com.Rooms["discord"] == "" {
			return gobot.Communities{}, fmt.Errorf("%s.discord[0].channel: give the channel where games between Discord and Matrix players are posted, like channel: \"123456789012345678\"", key)
		}
		cs = append(cs, com)
		keys = append(keys, mk)
	}
	out, err := gobot.NewCommunities(cs)
	var ce *gobot.CommunityError
	if !errors.As(err, &ce) {
		return out, err
	}
	key := fmt.Sprintf("communities[%d]", ce.Index)
	other := func() string { return fmt.Sprintf("communities[%d] (%q)", ce.Other, c.Communities[ce.Other].Name) }
	switch {
	case errors.Is(err, gobot.ErrCommunityName):
		return out, fmt.Errorf("%s.name: %q has no letter or digit: give the community a name like \"Go Club\"", key, cs[ce.Index].Name)
	case errors.Is(err, gobot.ErrCommunityDuplicate):
		return out, fmt.Errorf("%s.name: %q is the name of %s too: give each community its own name (or list the members under one)", key, cs[ce.Index].Name, other())
	case errors.Is(err, gobot.ErrMemberTwice):
		return out, fmt.Errorf("%s: listed twice in %q: remove one", keys[ce.Index][ce.Member], cs[ce.Index].Name)
	case errors.Is(err, gobot.ErrMemberElsewhere):
		return out, fmt.Errorf("%s: already in %s: a server or room is in one community at most; remove it from one of them", keys[ce.Index][ce.Member], other())
	case ce.Member >= 0:
		return out, fmt.Errorf("%s: %v", keys[ce.Index][ce.Member], ce.Err)
	}
	return out, fmt.Errorf("%s: %v", key, ce.Err)
}
