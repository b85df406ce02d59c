package chat

import (
	"errors"
	"maps"
	"slices"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
)

// A game between players of two platforms (a joined community's:
// docs/identity.md) is seen by two rooms, its own and its mirror on the
// other platform (Match.Rooms). Whatever is posted about it in one is
// posted in the other too: mirrored adds the copies to a command's or a
// timed job's messages, in the transaction that claims them, so that
// each room sees every move once across a crash (deliver.Claim).

// mirrored is msgs with, after each message posted in a room that sees a
// game with a mirror, its copy for the game's other room.
func (b *core) mirrored(tx gobot.Tx, msgs []protocol.Message) ([]protocol.Message, error) {
	out := msgs
	games := map[gobot.GameID]*gobot.Match{}
	for _, m := range msgs {
		copies, err := b.mirrorCopies(tx, games, m)
		if err != nil {
			return nil, err
		}
		out = append(out, copies...)
	}
	return out, nil
}

// mirrorCopies are the copies of m, posted in a room that sees a game
// with a mirror, for the game's other rooms. games caches the games read.
// A deployment that joins no communities has no mirrors: nothing is read.
func (b *core) mirrorCopies(tx gobot.Tx, games map[gobot.GameID]*gobot.Match, m protocol.Message) ([]protocol.Message, error) {
	id := m.Reply.Game
	if id == 0 || m.To != "" || m.Room == "" || m.Reply.Private || m.Reply.Error || m.Reply.Duplicate || len(b.cfg.Communities.All()) == 0 {
		return nil, nil
	}
	g, ok := games[id]
	if !ok {
		var err error
		g, err = tx.Match(id)
		if errors.Is(err, gobot.ErrNotFound) {
			g, err = nil, nil
		}
		if err != nil {
			return nil, err
		}
		games[id] = g
	}
	if g == nil || g.Mirror == "" || !g.In(m.Room) {
		return nil, nil
	}
	var copies []protocol.Message
	for _, room := range g.Rooms() {
		if room == m.Room || room == g.Room && g.Thread && g.Parent == m.Room {
			continue
		}
		c := m
		c.Room = room
		// The copy is posted as it is, in the other room: the thread,
		// the widget and the Activity are the posting room's.
		c.Reply.Room, c.Reply.Thread, c.Reply.ThreadName, c.Reply.Widget, c.Reply.Launch = "", false, "", nil, false
		if m.Key != "" {
			c.Key = m.Key + "/mirror"
		}
		copies = append(copies, c)
	}
	return copies, nil
}

// elsewhere are the platforms, other than r's, that r's joined community
// posts games in (gobot.Community.Rooms): their players may be
// challenged from r's room (protocol.Request.Elsewhere).
func (b *core) elsewhere(r *protocol.Request) []*protocol.Platform {
	j := b.cfg.Communities.Joined(r.Community)
	if j == nil {
		return nil
	}
	var out []*protocol.Platform
	for _, name := range slices.Sorted(maps.Keys(j.Rooms)) {
		if p := b.Platform(name); p != nil && name != r.User.ID.Platform() {
			out = append(out, p)
		}
	}
	return out
}

// across settles a challenge from r to opponent, a player of another
// platform of r's joined community: their ID (a name typed,
// "discord:@carol", is looked up: flow.Named) and the room of their
// platform that sees the challenge and its game (Challenge.Mirror). A
// player of r's platform is returned as is, with no mirror.
func (b *core) across(tx gobot.Tx, r *protocol.Request, opponent gobot.UserID) (gobot.UserID, gobot.RoomID, error) {
	if opponent == "" || opponent.Platform() == r.User.ID.Platform() {
		return opponent, "", nil
	}
	j := b.cfg.Communities.Joined(r.Community)
	if j == nil || j.Rooms[opponent.Platform()] == "" {
		return "", "", say.NotJoined(opponent)
	}
	if p := b.Platform(opponent.Platform()); p == nil || p.ValidateUser(opponent) != nil {
		u, err := flow.Named(tx, opponent.Platform(), opponent.Local())
		if err != nil {
			var unknown flow.UnknownName
			var shared flow.SharedName
			switch {
			case errors.As(err, &unknown):
				return "", "", say.UnknownName(unknown.Platform, unknown.Name)
			case errors.As(err, &shared):
				return "", "", say.SharedName(shared.Platform, shared.Name, shared.Players)
			}
			return "", "", err
		}
		opponent = u
	}
	return opponent, j.Rooms[opponent.Platform()], nil
}

// mirrorChallenge posts challenge c in its mirror room too (a challenge
// to a player of another platform), pinging them there.
func mirrorChallenge(fx *Effects, c *gobot.Challenge, rep protocol.Reply) {
	if c.Mirror == "" {
		return
	}
	fx.notify(protocol.Message{Room: c.Mirror, Reply: rep})
}

// mirrorEventGame gives a tournament's or ladder's game with a player of
// another platform of its joined community than its room's a mirror, as
// a challenge across platforms has: the community's room on that
// player's platform, which then sees the game too.
func (b *core) mirrorEventGame(tx gobot.Tx, community gobot.CommunityID, m *gobot.Match) error {
	j := b.cfg.Communities.Joined(community)
	if j == nil || m.Mirror != "" {
		return nil
	}
	home := m.Room.Platform()
	for _, u := range m.Players() {
		if room := j.Rooms[u.Platform()]; u.Platform() != home && room != "" {
			m.Mirror = room
			return flow.Save(tx, m)
		}
	}
	return nil
}
