package matrix

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"
)

// TestPlanOnRealHomeserver: on Dendrite, a plan typed in a shared room
// where the bot is a moderator is refused without the moves and
// redacted; in ann's direct room with the bot it is planned, and bob's
// covered move is answered in the game's room.
func TestPlanOnRealHomeserver(t *testing.T) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false)
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	cfg := Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot"}
	startBot(t, ctx, cfg, filepath.Join(t.TempDir(), "gobot.db"), 50, logs)
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "club", Invite: []id.UserID{botID},
		PowerLevelOverride: &event.PowerLevelsEventContent{Users: map[id.UserID]int{ann.cli.UserID: 100, botID: 50}}})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	if _, err := bob.cli.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli)
	dmr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{botID}})
	if err != nil {
		t.Fatal(err)
	}
	dm := dmr.RoomID
	waitJoined(t, ctx, dm, botID, ann.cli)

	ask := func(h *human, room id.RoomID, text string, pills ...*mautrix.Client) (string, id.EventID) {
		t.Helper()
		cmd := h.say(t, ctx, room, text, pills...)
		c, _ := h.replyTo(t, ctx, cmd)
		return c.Body, cmd
	}
	ask(ann, room, "!go challenge {bob} 9 black", bob.cli)
	ask(bob, room, "!go accept")
	ask(ann, room, "!go play E5")

	got, cmd := ask(ann, room, "!go plan C3 C4")
	if !strings.Contains(got, "direct message") || strings.Contains(got, "C3") || strings.Contains(got, "C4") {
		t.Fatalf("plan in the shared room: %q", got)
	}
	deadline := time.After(30 * time.Second)
	for {
		evt, err := bob.cli.GetEvent(ctx, room, cmd)
		if err != nil {
			t.Fatal(err)
		}
		if evt.Unsigned.RedactedBecause != nil || len(evt.Content.Raw) == 0 {
			break
		}
		select {
		case <-deadline:
			t.Fatalf("the plan in the shared room was never redacted: %+v", evt.Content.Raw)
		case <-time.After(50 * time.Millisecond):
		}
	}

	if got, _ := ask(ann, dm, "!go plan C3 C4"); !strings.Contains(got, "Planned in game #1") {
		t.Fatalf("plan in the direct room: %q", got)
	}
	if got, _ := ask(ann, dm, "!go plans #1"); !strings.Contains(got, "C3 → C4") {
		t.Fatalf("plans in the direct room: %q", got)
	}
	if got, _ := ask(bob, room, "!go play C3"); !strings.Contains(got, "ann played C4 — planned.") {
		t.Fatalf("bob's covered move: %q", got)
	}
}
