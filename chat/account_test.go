package chat

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// as sends line as user id (platform-qualified: "d:alice") in room, a DM
// when dm; private says the platform can show a reply to one member.
func (h *harness) as(id gobot.UserID, room gobot.RoomID, dm, private bool, line string) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: id, Name: id.Local()}, Room: room, DM: dm,
		EventID: gobot.EventID("test:acct" + time.Duration(h.seq).String()), Command: f[0], Args: f[1:], Platform: testPlatform(private)}
	return h.bot.Handle(context.Background(), r)
}

var codeRE = regexp.MustCompile(`account link ([A-Z0-9]{10})`)

// linkCode asks for a code as id and returns it.
func (h *harness) linkCode(id gobot.UserID) string {
	h.t.Helper()
	rep := h.as(id, "d:main", false, true, "account link")
	m := codeRE.FindStringSubmatch(rep.Text)
	if rep.Error || !rep.Private || m == nil {
		h.t.Fatalf("account link as %s: %+v", id, rep)
	}
	return m[1]
}

// TestLinkedAccounts: a code asked for on one platform and sent from
// the other links the accounts; the game begun on the first is then
// played from the second (and listed there); unlink undoes it.
func TestLinkedAccounts(t *testing.T) {
	h := newHarness(t)
	const dAlice, mAlice, dBob = gobot.UserID("d:alice"), gobot.UserID("m:alice"), gobot.UserID("d:bob")
	mustOK := func(rep protocol.Reply, want string) {
		t.Helper()
		if rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want %q", rep.Text, rep.Error, want)
		}
	}
	mustOK(h.as(dAlice, "d:main", false, true, "challenge @d:bob black"), "")
	mustOK(h.as(dBob, "d:main", false, true, "accept"), "Game #1 begins")
	// Before the link, the Matrix account has no game.
	if rep := h.as(mAlice, "m:dm", true, true, "play D4"); !rep.Error {
		t.Fatalf("an unlinked account played: %s", rep.Text)
	}
	rep := h.as(mAlice, "m:dm", true, true, "account")
	mustOK(rep, "linked to no other")

	code := h.linkCode(dAlice)
	mustOK(h.as(mAlice, "m:dm", true, true, "account link "+strings.ToLower(code)), "Linked: this account and d:alice are now one player")
	mustOK(h.as(mAlice, "m:dm", true, true, "account"), "d:alice (d), the player's ID")
	mustOK(h.as(dAlice, "d:main", false, true, "account"), "m:alice (m), since 2026-11-22")

	// The game begun on one platform is played from the other.
	mustOK(h.as(mAlice, "m:dm", true, true, "games"), "(on d, as d:alice)")
	dRooms := &recordingNotifier{}
	h.bot.SetNotifier("d", dRooms)
	if rep := h.as(mAlice, "m:dm", true, true, "play D4"); rep.Room != "" || !strings.Contains(rep.Text, "<@d:alice> played D4") { // as the game's room knows her
		t.Fatalf("the move from the Matrix account: %+v", rep)
	}
	// Answered in the Matrix DM; the game's Discord room is told by
	// Discord, once.
	if msgs := dRooms.all(); len(msgs) != 1 || msgs[0].Room != "d:main" || !strings.Contains(msgs[0].Reply.Text, "played D4") {
		t.Fatalf("the game's room was sent %+v", msgs)
	}
	mustOK(h.as(dBob, "d:main", false, true, "play E5"), "E5")
	mustOK(h.as(mAlice, "m:dm", true, true, "play C3 #1"), "C3")
	if _, g := h.game(1); len(g.Moves()) != 3 {
		t.Fatalf("moves played: %d, want 3", len(g.Moves()))
	}

	// The web link asked for from the other account plays as the
	// account that sits in the game.
	mustOK(h.as(mAlice, "m:dm", true, true, "web #1"), "/l/1-d:alice-false")

	// The settings are the player's, from either account.
	mustOK(h.as(mAlice, "m:dm", true, true, "settings theme=dark"), "")
	mustOK(h.as(dAlice, "d:main", false, true, "settings"), "theme=dark confirm")

	// Unlinked, the Matrix account is on its own again; the game stays
	// the Discord account's.
	mustOK(h.as(mAlice, "m:dm", true, true, "account unlink"), "Unlinked")
	if rep := h.as(mAlice, "m:dm", true, true, "play D5 #1"); !rep.Error {
		t.Fatalf("an unlinked account played: %s", rep.Text)
	}
	mustOK(h.as(dAlice, "d:main", false, true, "account"), "linked to no other")
	mustOK(h.as(mAlice, "m:dm", true, true, "account"), "linked to no other")
	mustOK(h.as(dAlice, "d:main", false, true, "settings"), "theme=dark confirm")
	if rep := h.as(mAlice, "m:dm", true, true, "settings"); strings.Contains(rep.Text, "theme=dark confirm") {
		t.Fatalf("the unlinked account kept the player's settings: %s", rep.Text)
	}
	if m, _ := h.game(1); m.Black != dAlice {
		t.Fatalf("game #1's Black is %s", m.Black)
	}
}

// TestLinkCodeRefusals: every bad code gets its own answer and links
// nothing; a code typed in a shared room is voided.
func TestLinkCodeRefusals(t *testing.T) {
	h := newHarness(t)
	const dAlice, mAlice, dCat, mCat = gobot.UserID("d:alice"), gobot.UserID("m:alice"), gobot.UserID("d:cat"), gobot.UserID("m:cat")
	refused := func(rep protocol.Reply, want string) {
		t.Helper()
		if !rep.Error || !rep.Private || !strings.Contains(rep.Text, want) || len(rep.Text) > protocol.MaxRefusal {
			t.Fatalf("got %q (error %v), want a refusal saying %q", rep.Text, rep.Error, want)
		}
	}
	linked := func(u gobot.UserID) bool {
		t.Helper()
		var ok bool
		h.db.View(context.Background(), func(tx gobot.Tx) error {
			_, err := tx.AccountLink(u)
			ok = err == nil
			return nil
		})
		return ok
	}
	dm := func(u gobot.UserID, line string) protocol.Reply { return h.as(u, "m:dm", true, true, line) }

	refused(dm(mAlice, "account link ABC"), "not a link code")
	refused(dm(mAlice, "account link AAAAAAAAAA"), "no such code")
	code := h.linkCode(dAlice)
	refused(h.as(dAlice, "d:main", false, true, "account link "+code), "this account's own")
	refused(dm(gobot.UserID("d:alice2"), "account link "+code), "two d accounts")

	// Typed in a shared room: refused, withdrawn and voided.
	rep := h.as(mAlice, "m:room", false, false, "account link "+code)
	if !rep.Error || !rep.Withdraw || !strings.Contains(rep.Text, "voided") {
		t.Fatalf("a code in a shared room: %+v", rep)
	}
	refused(dm(mAlice, "account link "+code), "used already")
	refused(h.as(dAlice, "m:room", false, false, "account link"), "private")

	// Expired.
	code = h.linkCode(dAlice)
	h.clock.Advance(gobot.LinkCodeTTL + time.Second)
	refused(dm(mAlice, "account link "+code), "expired")
	if linked(mAlice) || linked(dAlice) {
		t.Fatal("a refused code linked an account")
	}

	// Used; already linked, to the same player or to another.
	code = h.linkCode(dAlice)
	if rep := dm(mAlice, "account link "+code); rep.Error {
		t.Fatal(rep.Text)
	}
	refused(dm(mCat, "account link "+code), "used already")
	code = h.linkCode(dAlice)
	refused(dm(mAlice, "account link "+code), "already linked to that one")
	cat := h.linkCode(dCat)
	refused(dm(mAlice, "account link "+cat), "already linked to other accounts")
	// The unused code still works for its own.
	if rep := dm(mCat, "account link "+cat); rep.Error {
		t.Fatal(rep.Text)
	}

	// Limits: 3 waiting, 10 a day.
	for range 3 {
		h.linkCode("d:dan")
	}
	refused(h.as("d:dan", "d:main", false, true, "account link"), "3 link codes waiting")
	for range 2 {
		h.clock.Advance(gobot.LinkCodeTTL)
		for range 3 {
			h.as("d:dan", "d:main", false, true, "account link")
		}
	}
	h.clock.Advance(gobot.LinkCodeTTL)
	h.linkCode("d:dan") // the 10th
	h.clock.Advance(gobot.LinkCodeTTL)
	refused(h.as("d:dan", "d:main", false, true, "account link"), "10 link codes in the last 24 hours")
	h.clock.Advance(24 * time.Hour)
	h.linkCode("d:dan")
}

// TestNotifyOn: a linked player is told of their turn on the platform
// they chose (settings notify_on=), once: pinged in the game's room where
// it is played (the default), in a DM to their other account instead, or
// both; a platform they have no account on is refused.
func TestNotifyOn(t *testing.T) {
	h := newHarness(t)
	d, m := &recordingNotifier{}, &recordingNotifier{}
	h.bot.SetNotifier("d", d)
	h.bot.SetNotifier("m", m)
	const dAlice, mAlice, dBob = gobot.UserID("d:alice"), gobot.UserID("m:alice"), gobot.UserID("d:bob")
	ok := func(u gobot.UserID, room gobot.RoomID, dm bool, line, want string) protocol.Reply {
		t.Helper()
		rep := h.as(u, room, dm, true, line)
		if rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("%s: %q got %q (error %v), want %q", u, line, rep.Text, rep.Error, want)
		}
		return rep
	}
	ok(dAlice, "d:main", false, "challenge @d:bob white clock=1d", "")
	ok(dBob, "d:main", false, "accept", "Game #1 begins")
	if rep := h.as(dAlice, "d:main", false, true, "settings notify_on=m"); !rep.Error || !strings.Contains(rep.Text, "no m account linked") {
		t.Fatalf("notify_on= a platform without an account: %+v", rep)
	}
	if rep := h.as(dAlice, "d:main", false, true, "settings notify_on=Über"); !rep.Error || !strings.Contains(rep.Text, "choose game") {
		t.Fatalf("notify_on= no platform's name: %+v", rep)
	}
	code := h.linkCode(dAlice)
	ok(mAlice, "m:dm", true, "account link "+code, "Linked")
	ok(dAlice, "d:main", false, "settings", "notify_on=game")

	dmsTo := func(n *recordingNotifier, u gobot.UserID) int {
		c := 0
		for _, msg := range n.all() {
			if msg.To == u {
				c++
			}
		}
		return c
	}
	// Where the game is played (the default): pinged in the room.
	rep := ok(dBob, "d:main", false, "play D4", "D4")
	if !slices.Contains(rep.Mentions, dAlice) || dmsTo(m, mAlice) != 0 {
		t.Fatalf("notify_on=game: mentions %v, DMs to m:alice %d", rep.Mentions, dmsTo(m, mAlice))
	}
	ok(dAlice, "d:main", false, "play E5", "E5")

	// On the other platform: a DM there, and no ping in the room.
	ok(mAlice, "m:dm", true, "settings notify_on=m", "notify_on=m")
	rep = ok(dBob, "d:main", false, "play C3", "C3")
	if slices.Contains(rep.Mentions, dAlice) || dmsTo(m, mAlice) != 1 || dmsTo(d, dAlice) != 0 {
		t.Fatalf("notify_on=m: mentions %v, DMs to m:alice %d, to d:alice %d", rep.Mentions, dmsTo(m, mAlice), dmsTo(d, dAlice))
	}
	ok(dAlice, "d:main", false, "play G5", "G5")

	// Both: the ping in the room and the DM on the other platform, each once.
	ok(dAlice, "d:main", false, "settings notify_on=both", "notify_on=both")
	rep = ok(dBob, "d:main", false, "play C7", "C7")
	if !slices.Contains(rep.Mentions, dAlice) || dmsTo(m, mAlice) != 2 || dmsTo(d, dAlice) != 0 {
		t.Fatalf("notify_on=both: mentions %v, DMs to m:alice %d, to d:alice %d", rep.Mentions, dmsTo(m, mAlice), dmsTo(d, dAlice))
	}

	// A reminder goes where the turn notice went: a DM on the other
	// platform, once.
	before := dmsTo(m, mAlice)
	h.tick(23 * time.Hour) // the game's clock is 1 day a move; reminded 1h before
	if dmsTo(m, mAlice) != before+1 || dmsTo(d, dAlice) != 0 {
		t.Fatalf("reminder: DMs to m:alice %d (want %d), to d:alice %d", dmsTo(m, mAlice), before+1, dmsTo(d, dAlice))
	}
}

// TestLinkedVacation: a linked player has one vacation allowance: a
// vacation from either account stops the clocks of both accounts'
// games, shows from both, and ends from either; linking and unlinking
// wait until it is over.
func TestLinkedVacation(t *testing.T) {
	h := newHarness(t)
	const dAlice, mAlice, dBob, mCat = gobot.UserID("d:alice"), gobot.UserID("m:alice"), gobot.UserID("d:bob"), gobot.UserID("m:cat")
	mustOK := func(rep protocol.Reply, want string) {
		t.Helper()
		if rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want %q", rep.Text, rep.Error, want)
		}
	}
	refused := func(rep protocol.Reply, want string) {
		t.Helper()
		if !rep.Error || !strings.Contains(rep.Text, want) {
			t.Fatalf("got %q (error %v), want a refusal saying %q", rep.Text, rep.Error, want)
		}
	}
	mustOK(h.as(dAlice, "d:main", false, true, "challenge @d:bob black clock=1d"), "")
	mustOK(h.as(dBob, "d:main", false, true, "accept"), "Game #1 begins")
	mustOK(h.as(mAlice, "m:room", false, true, "challenge @m:cat black clock=1d"), "")
	mustOK(h.as(mCat, "m:room", false, true, "accept"), "Game #2 begins")

	// On vacation, an account cannot be linked.
	mustOK(h.as(mAlice, "m:dm", true, true, "vacation on"), "")
	code := h.linkCode(dAlice)
	refused(h.as(mAlice, "m:dm", true, true, "account link "+code), "vacation off")
	mustOK(h.as(mAlice, "m:dm", true, true, "vacation off"), "")
	mustOK(h.as(mAlice, "m:dm", true, true, "account link "+code), "Linked")

	// A vacation from the Matrix account stops both games' clocks.
	h.clock.Advance(time.Hour)
	mustOK(h.as(mAlice, "m:dm", true, true, "vacation on"), "")
	for _, id := range []gobot.GameID{1, 2} {
		if m, _ := h.game(id); !m.Paused() {
			t.Fatalf("game #%d's clock runs during the player's vacation", id)
		}
	}
	rep := h.as(dAlice, "d:main", false, true, "vacation")
	mustOK(rep, "#1")
	mustOK(rep, "#2")
	refused(h.as(dAlice, "d:main", false, true, "vacation on"), "already on vacation")
	refused(h.as(mAlice, "m:dm", true, true, "account unlink"), "vacation off")
	// Ended from the Discord account: both clocks run again.
	h.clock.Advance(24 * time.Hour)
	mustOK(h.as(dAlice, "d:main", false, true, "vacation off"), "")
	for _, id := range []gobot.GameID{1, 2} {
		if m, _ := h.game(id); m.Paused() || m.Deadline.IsZero() {
			t.Fatalf("game #%d's clock did not start again: %+v", id, m)
		}
	}
	// One allowance: the day spent is off the player's, whichever asks.
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		p, err := tx.Player(dAlice)
		if err != nil || p.Vacation == nil || p.Vacation.Left > 13*24*time.Hour+time.Minute || p.Vacation.Left < 12*24*time.Hour {
			t.Errorf("the player's allowance: %+v, %v", p, err)
		}
		return nil
	})
	mustOK(h.as(mAlice, "m:dm", true, true, "account unlink"), "Unlinked")
}
