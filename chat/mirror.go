package chat

import (
	"errors"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A game between players of two platforms (a joined community's:
// docs/identity.md) is seen by two rooms, its own and its mirror on the
// other platform (Match.Rooms). Whatever is posted about it in one is
// posted in the other too: mirrored adds the copies to a command's or a
// timed job's messages, in the transaction that claims them, so that
// each room sees every move once across a crash (deliver.Claim).

// mirrored is msgs with, after each message posted in a room that sees a
// game with a mirror, its copy for the game's other room.
func mirrored(tx gobot.Tx, msgs []protocol.Message) ([]protocol.Message, error) {
	out := msgs
	games := map[gobot.GameID]*gobot.Match{}
	for _, m := range msgs {
		copies, err := mirrorCopies(tx, games, m)
		if err != nil {
			return nil, err
		}
		out = append(out, copies...)
	}
	return out, nil
}

// mirrorCopies are the copies of m, posted in a room that sees a game
// with a mirror, for the game's other rooms. games caches the games read.
func mirrorCopies(tx gobot.Tx, games map[gobot.GameID]*gobot.Match, m protocol.Message) ([]protocol.Message, error) {
	id := m.Reply.Game
	if id == 0 || m.To != "" || m.Room == "" || m.Reply.Private || m.Reply.Error || m.Reply.Duplicate {
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
