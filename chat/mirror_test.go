package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Stand-ins for the Discord and Matrix descriptors (chat cannot import
// its adapters): users typed as each adapter recognises them.
var (
	crossDiscord = &protocol.Platform{Name: "discord", PrivateReplies: true, Typed: func(w string) (gobot.UserID, bool) {
		name, ok := strings.CutPrefix(w, "discord:@")
		return gobot.UserID("discord:" + name), ok && name != ""
	}, User: func(local string) error {
		if !protocol.AllDigits(local) {
			return protocol.Refusef("%s is not a Discord user", local)
		}
		return nil
	}}
	crossMatrix = &protocol.Platform{Name: "matrix", Widgets: true, Typed: func(w string) (gobot.UserID, bool) {
		if !strings.HasPrefix(w, "@") || !strings.Contains(w, ":") {
			return "", false
		}
		return gobot.UserID("matrix:" + w), true
	}, User: func(local string) error {
		if !strings.HasPrefix(local, "@") || !strings.Contains(local, ":") {
			return protocol.Refusef("%s is not a Matrix user", local)
		}
		return nil
	}}
)

// cross sends line as user u in room: a Discord channel of the club's
// server, or a Matrix room.
func (h *harness) cross(u gobot.UserID, name string, room gobot.RoomID, line string) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: u, Name: name}, Room: room,
		EventID: gobot.EventID("test:cross" + time.Duration(h.seq).String()), Command: f[0], Args: f[1:], Platform: crossMatrix,
		DM: strings.Contains(string(room), "!dm")}
	if u.Platform() == "discord" {
		r.Platform = crossDiscord
		if room == clubChannel {
			r.Community = clubGuild
		}
	}
	return h.bot.Handle(context.Background(), r)
}

// saying is a check that a reply is an answer, not a refusal, and says
// want; it returns the reply.
func saying(t *testing.T) func(rep protocol.Reply, want string) protocol.Reply {
	return func(rep protocol.Reply, want string) protocol.Reply {
		t.Helper()
		if rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want %q", rep.Text, rep.Error, want)
		}
		return rep
	}
}

// The club's players: ann on Discord, bob on Matrix.
const ann, bob = gobot.UserID("discord:11"), gobot.UserID("matrix:@bob:example.org")

// newClub is a bot of the joined club (a Discord channel and a Matrix
// room) and what it sends to each platform.
func newClub(t *testing.T) (h *harness, d, m *recordingNotifier) {
	h = newHarness(t)
	h.bot.cfg.Communities = clubCommunities(t)
	d, m = &recordingNotifier{}, &recordingNotifier{}
	h.bot.Register(crossDiscord, d)
	h.bot.Register(crossMatrix, m)
	return h, d, m
}

// TestGameAcrossPlatforms: in a joined community, a Discord player
// challenges a Matrix player by their Matrix ID; the challenge, the game
// and every move are posted in both rooms, each once; each plays from
// their own room; a Discord player is named from Matrix by the name the
// bot knows them by; a platform the room's community does not join, or a
// name nobody goes by, is refused and changes nothing.
func TestGameAcrossPlatforms(t *testing.T) {
	h, d, m := newClub(t)
	ok := saying(t)
	refused := func(rep protocol.Reply, want string) {
		t.Helper()
		if !rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want the refusal %q", rep.Text, rep.Error, want)
		}
	}
	in := func(n *recordingNotifier, room gobot.RoomID, want string) int {
		c := 0
		for _, msg := range n.all() {
			if msg.Room == room && msg.To == "" && strings.Contains(msg.Reply.Text, want) {
				c++
			}
		}
		return c
	}

	// Refused: a room outside the community; a name nobody goes by; one's
	// own account on the other platform.
	before := h.dump()
	refused(h.cross(ann, "ann", "discord:999", "challenge @bob:example.org"), "is not a player here")
	refused(h.cross(bob, "bob", clubMatrix, "challenge discord:@nobody"), "I know no one on discord called")
	if h.dump() != before {
		t.Fatal("a refused challenge changed the store")
	}
	code := h.linkCode(ann)
	ok(h.cross("matrix:@ann:example.org", "ann", "matrix:!dm:example.org", "account link "+code), "Linked")
	before = h.dump()
	refused(h.cross(ann, "ann", clubChannel, "challenge @ann:example.org"), "can't challenge yourself")
	if h.dump() != before {
		t.Fatal("a refused challenge changed the store")
	}

	// The challenge from Discord is posted in the Matrix room too,
	// pinging bob there.
	ok(h.cross(ann, "ann", clubChannel, "challenge @bob:example.org black clock=1d"), "challenges")
	if c := in(m, clubMatrix, "challenge"); c != 1 {
		t.Fatalf("the Matrix room saw the challenge %d times, want 1: %+v", c, m.all())
	}
	if msgs := m.all(); len(msgs[0].Reply.Mentions) != 1 || msgs[0].Reply.Mentions[0] != bob {
		t.Fatalf("the Matrix room's copy pings %v", msgs[0].Reply.Mentions)
	}
	// Bob accepts in his room; the Discord channel sees the game begin.
	ok(h.cross(bob, "bob", clubMatrix, "accept"), "begins")
	if c := in(d, clubChannel, "begins"); c != 1 {
		t.Fatalf("the Discord channel saw the game begin %d times", c)
	}
	match, _ := h.game(1)
	if match.Room != clubChannel || match.Mirror != clubMatrix || match.Black != ann || match.White != bob || match.Rating == nil || match.Rating.Community != goClub {
		t.Fatalf("game #1: room %s mirror %s black %s white %s rating %+v", match.Room, match.Mirror, match.Black, match.White, match.Rating)
	}

	// Each plays from their own room; the other room sees each move once.
	moves := []struct {
		u    gobot.UserID
		room gobot.RoomID
		pt   string
	}{{ann, clubChannel, "E5"}, {bob, clubMatrix, "C3"}, {ann, clubChannel, "G7"}, {bob, clubMatrix, "D4"}}
	for _, mv := range moves {
		rep := ok(h.cross(mv.u, mv.u.Local(), mv.room, "play "+mv.pt), mv.pt)
		if rep.Room != "" {
			t.Fatalf("%s's move was answered in %s, not where it was played", mv.u, rep.Room)
		}
		other, otherRoom := m, clubMatrix
		if mv.room == clubMatrix {
			other, otherRoom = d, clubChannel
		}
		if c := in(other, otherRoom, "played "+mv.pt); c != 1 {
			t.Fatalf("%s in the other room: seen %d times, want 1", mv.pt, c)
		}
	}
	// A move from elsewhere on Matrix (bob's DM with the bot): posted in
	// the game's Matrix room (the answer's room) and in its Discord
	// channel, once each.
	ok(h.cross(ann, "ann", clubChannel, "play A1"), "A1")
	if rep := ok(h.cross(bob, "bob", "matrix:!dm-bob:example.org", "play J9"), "J9"); rep.Room != clubMatrix {
		t.Fatalf("bob's move from his DM was answered in %q", rep.Room)
	}
	if n, k := in(m, clubMatrix, "played J9"), in(d, clubChannel, "played J9"); n != 0 || k != 1 {
		t.Fatalf("J9 from a DM: the Matrix room saw %d copies besides the answer, the Discord channel %d", n, k)
	}
	// A reminder of ann's turn (the game's clock, 1 day a move by
	// default here: reminded an hour before) is posted in both rooms.
	h.tick(23*time.Hour + 30*time.Minute)
	if n, k := in(m, clubMatrix, "your move"), in(d, clubChannel, "your move"); n != 1 || k != 1 {
		t.Fatalf("the reminder: the Matrix room saw it %d times, the Discord channel %d: %+v", n, k, m.all())
	}
	// A board opened inside the Matrix room (its widget) shows bob his
	// game to play, and a looker the game to watch.
	if rb, err := h.bot.RoomBoards(context.Background(), clubMatrix, bob, 0); err != nil || rb.Watch || len(rb.Games) != 1 || rb.Games[0].ID != 1 {
		t.Fatalf("bob's boards in the Matrix room: %+v %v", rb, err)
	}
	if rb, err := h.bot.RoomBoards(context.Background(), clubMatrix, "matrix:@dan:example.org", 0); err != nil || !rb.Watch || len(rb.Games) != 1 {
		t.Fatalf("a looker's boards in the Matrix room: %+v %v", rb, err)
	}
	// The board as the Matrix room's widget, for bob who plays there.
	h.bot.SetLinker(widgetLinker{})
	if rep := h.cross(bob, "bob", clubMatrix, "web"); rep.Error || rep.Widget == nil || rep.Widget.Room != clubMatrix || rep.Widget.Game != 1 {
		t.Fatalf("web in the Matrix room: widget %+v (%q)", rep.Widget, rep.Text)
	}
	// A looker in the Matrix room sees the game there.
	if rep := ok(h.cross("matrix:@dan:example.org", "dan", clubMatrix, "board"), "to play"); rep.Game != 1 {
		t.Fatalf("board in the mirror room shows game %d", rep.Game)
	}
	// The result, in both rooms.
	ok(h.cross(bob, "bob", clubMatrix, "resign"), "resign")
	if c := in(d, clubChannel, "resign"); c != 1 {
		t.Fatalf("the Discord channel saw the resignation %d times", c)
	}
	if match, _ := h.game(1); match.Active() || match.Rating == nil || !match.Rating.Done {
		t.Fatal("game #1 is not over and rated")
	}

	// From Matrix, a Discord player is named by the name the bot knows.
	ok(h.cross(bob, "bob", clubMatrix, "challenge discord:@Ann"), "challenges")
	var c *gobot.Challenge
	err := h.db.View(context.Background(), func(tx gobot.Tx) (err error) {
		c, err = tx.Challenge(2)
		return err
	})
	if err != nil || c.To != ann || c.Mirror != clubChannel || c.Room != clubMatrix {
		t.Fatalf("challenge #2: %+v %v", c, err)
	}
	if n := in(d, clubChannel, "challenge"); n != 1 {
		t.Fatalf("the Discord channel saw bob's challenge %d times", n)
	}
	// Declined on Discord: the Matrix room hears it.
	ok(h.cross(ann, "ann", clubChannel, "decline"), "declined")
	if n := in(m, clubMatrix, "declined"); n != 1 {
		t.Fatalf("the Matrix room heard the decline %d times", n)
	}
	// A name two Discord players go by names neither: each by their ID.
	ok(h.cross("discord:44", "ANN", clubChannel, "challenge @bob:example.org"), "challenges")
	refused(h.cross(bob, "bob", clubMatrix, "challenge discord:@ann"), "name the one you mean by their ID, like discord:@11 or discord:@44")
	ok(h.cross(bob, "bob", clubMatrix, "challenge discord:@44"), "challenges")
}

// TestTournamentAcrossPlatforms: a tournament made in the Discord
// channel of a joined community, joined from its Matrix room: a round's
// game between a Discord and a Matrix player is seen by the Matrix room
// too, and played from there.
func TestTournamentAcrossPlatforms(t *testing.T) {
	h, _, m := newClub(t)
	ok := saying(t)
	ok(h.cross(ann, "ann", clubChannel, `tournament new "Cup" roundrobin size=9`), "Cup")
	ok(h.cross(ann, "ann", clubChannel, "tournament join"), "")
	ok(h.cross(bob, "bob", clubMatrix, "tournament join"), "")
	ok(h.cross(ann, "ann", clubChannel, "tournament start"), "")
	var game *gobot.Match
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		gs, err := tx.ActiveGames(bob)
		if err == nil && len(gs) == 1 {
			game = gs[0]
		}
		return err
	})
	if game == nil || game.Room != clubChannel || game.Mirror != clubMatrix {
		t.Fatalf("the round's game: %+v", game)
	}
	seen := 0
	for _, msg := range m.all() {
		if msg.Room == clubMatrix && msg.Reply.Game == game.ID {
			seen++
		}
	}
	if seen != 1 {
		t.Fatalf("the Matrix room saw the round's game %d times", seen)
	}
	first := ann
	if game.Black == bob {
		first = bob
	}
	room := map[gobot.UserID]gobot.RoomID{ann: clubChannel, bob: clubMatrix}
	ok(h.cross(first, first.Local(), room[first], "play E5"), "E5")
}

// TestLadderAcrossPlatforms: a ladder made in the Discord channel of a
// joined community, joined by two Matrix players from its Matrix room:
// their challenge's game is answered in the Matrix room and seen by the
// Discord channel.
func TestLadderAcrossPlatforms(t *testing.T) {
	h, d, _ := newClub(t)
	const cat = gobot.UserID("matrix:@cat:example.org")
	ok := saying(t)
	ok(h.cross(ann, "ann", clubChannel, `ladder new "Club ladder" size=9`), "Club ladder")
	ok(h.cross(bob, "bob", clubMatrix, "ladder join"), "")
	ok(h.cross(cat, "cat", clubMatrix, "ladder join"), "")
	// (A Matrix ID as the Matrix adapter hands it over.)
	rep := ok(h.cross(cat, "cat", clubMatrix, "ladder challenge @matrix:@bob:example.org"), "")
	if rep.Room != "" || rep.Game == 0 {
		t.Fatalf("the challenge's game was answered in %q (game %d)", rep.Room, rep.Game)
	}
	match, _ := h.game(rep.Game)
	if match.Room != clubChannel || match.Mirror != clubMatrix {
		t.Fatalf("the ladder game: room %s mirror %s", match.Room, match.Mirror)
	}
	seen := 0
	for _, msg := range d.all() {
		if msg.Room == clubChannel && msg.Reply.Game == match.ID {
			seen++
		}
	}
	if seen != 1 {
		t.Fatalf("the Discord channel saw the ladder game %d times", seen)
	}
}
