package matrix

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
)

// TestPrivateDM: the rule for a direct room that may carry what is for
// one user alone (a personal web link).
func TestPrivateDM(t *testing.T) {
	const bot, ann, bob = id.UserID("@gobot:x"), id.UserID("@ann:x"), id.UserID("@bob:x")
	join, invite, leave, ban := event.MembershipJoin, event.MembershipInvite, event.MembershipLeave, event.MembershipBan
	for _, c := range []struct {
		name              string
		members           map[id.UserID]event.Membership
		encrypted, crypto bool
		want              bool
	}{
		{"the bot and ann", map[id.UserID]event.Membership{bot: join, ann: join}, false, false, true},
		{"ann yet to answer the invite", map[id.UserID]event.Membership{bot: join, ann: invite}, false, false, true},
		{"encrypted, crypto on", map[id.UserID]event.Membership{bot: join, ann: join}, true, true, true},
		{"bob who left does not count", map[id.UserID]event.Membership{bot: join, ann: join, bob: leave}, false, false, true},
		{"bob banned does not count", map[id.UserID]event.Membership{bot: join, ann: join, bob: ban}, false, false, true},
		{"bob joined", map[id.UserID]event.Membership{bot: join, ann: join, bob: join}, false, false, false},
		{"bob invited", map[id.UserID]event.Membership{bot: join, ann: join, bob: invite}, false, false, false},
		{"not encrypted, crypto on", map[id.UserID]event.Membership{bot: join, ann: join}, false, true, false},
		{"ann left", map[id.UserID]event.Membership{bot: join, ann: leave}, false, false, false},
		{"the bot only invited", map[id.UserID]event.Membership{bot: invite, ann: join}, false, false, false},
		{"ann not there", map[id.UserID]event.Membership{bot: join, bob: join}, false, false, false},
		{"no members read", map[id.UserID]event.Membership{}, false, false, false},
	} {
		if got := privateDM(bot, ann, c.members, c.encrypted, c.crypto); got != c.want {
			t.Errorf("%s: privateDM = %v, want %v", c.name, got, c.want)
		}
	}
}

// countingLinker mints links that say whose they are and of which
// generation.
type countingLinker struct{}

func (countingLinker) Link(g gobot.GameID, u gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/%d-%s-%d", g, u.Local(), gen), time.Now().Add(time.Hour), nil
}

// TestLinkOnlyInPrivateDM (Dendrite): bob's personal link goes to a
// direct room the bot makes; once bob has brought carol into that room,
// his next link goes to a new direct room with only the bot and him,
// which the bot then keeps as his.
func TestLinkOnlyInPrivateDM(t *testing.T) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@carol:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false, joinInvites)
	carol := newHuman(t, ctx, hs, "carol", botID, false, joinInvites)
	logs := &logBuffer{}
	defer func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	bot := startBot(t, ctx, Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot"}, filepath.Join(t.TempDir(), "gobot.db"), 50, logs)
	bot.adapter.bot.(*chat.Bot).SetLinker(countingLinker{})
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "club", Invite: []id.UserID{botID}})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	if _, err := bob.cli.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli)
	ask := func(h *human, text string) {
		t.Helper()
		if c, _ := h.replyTo(t, ctx, h.say(t, ctx, room, text)); strings.Contains(c.Body, "refused") {
			t.Fatalf("%s: %s", text, c.Body)
		}
	}
	ask(ann, "!go challenge @bob:localhost 9")
	ask(bob, "!go accept")

	ask(bob, "!go web")
	first, _ := bob.wait(t, ctx, 0, "bob's link in a direct room", func(e *event.Event) bool {
		return e.RoomID != room && strings.Contains(e.Content.AsMessage().Body, "/l/1-@bob:localhost-0")
	})
	dm := first.RoomID
	// bob brings carol into the direct room.
	if _, err := bob.cli.InviteUser(ctx, dm, &mautrix.ReqInviteUser{UserID: carol.cli.UserID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, dm, carol.cli.UserID, bob.cli, carol.cli)

	ask(bob, "!go web reset")
	second, _ := bob.wait(t, ctx, 0, "bob's new link", func(e *event.Event) bool {
		return e.RoomID != room && strings.Contains(e.Content.AsMessage().Body, "/l/1-@bob:localhost-1")
	})
	if second.RoomID == dm {
		t.Fatalf("bob's link went to the direct room carol is in (%s)", dm)
	}
	waitJoined(t, ctx, second.RoomID, bob.cli.UserID, bob.cli)
	members, err := bob.cli.JoinedMembers(ctx, second.RoomID)
	if err != nil {
		t.Fatal(err)
	}
	if _, b := members.Joined[botID]; len(members.Joined) != 2 || !b {
		t.Errorf("the new direct room's members: %v, want the bot and bob", members.Joined)
	}
	if got, _ := bot.adapter.getState("dm " + string(bob.cli.UserID)); id.RoomID(got) != second.RoomID {
		t.Errorf("the bot keeps %q as bob's direct room, want the new %s", got, second.RoomID)
	}
	// carol may read the room's history from before she came (the old
	// link: bob's reset ended it); the new link never reached her.
	carol.mu.Lock()
	defer carol.mu.Unlock()
	for _, e := range carol.got {
		if strings.Contains(e.Content.AsMessage().Body, "/l/1-@bob:localhost-1") {
			t.Errorf("carol saw a link: %q", e.Content.AsMessage().Body)
		}
	}
}
