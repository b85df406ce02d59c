package discord

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat/protocol"
)

// Plans are private on Discord: the answers to /go plan and /go plans
// are ephemeral even in a server channel, while the move a plan answers
// is announced to everyone like any move.
func TestPlanRepliesAreEphemeral(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	e.send(e.button("222", "bob", buttons(out["data"].(map[string]any))["Accept"]), now, false)
	e.send(e.command("111", "alice", "play", opt("point", 3, "E5")), now, false)
	e.fake.take()

	for _, c := range []struct{ sub, opts, want string }{
		{"plan", opt("moves", 3, "C3 C4"), "Planned in game #1"},
		{"plans", "", "C3 → C4"},
		{"plan", opt("moves", 3, "C3"), "in pairs"},
	} {
		code, out := e.send(e.command("111", "alice", c.sub, c.opts), now, false)
		data, _ := out["data"].(map[string]any)
		text := ""
		if data != nil {
			text, _ = data["content"].(string)
			for _, em := range asList(data["embeds"]) {
				d, _ := em.(map[string]any)["description"].(string)
				text += d
			}
		}
		if code != 200 || out["type"] != float64(4) || data["flags"] != float64(64) || !strings.Contains(text, c.want) {
			t.Fatalf("/go %s %s: %d %v", c.sub, c.opts, code, out)
		}
	}
	// Bob plays the covered move: the answer (with the planned reply) is
	// public.
	code, out := e.send(e.command("222", "bob", "play", opt("point", 3, "C3")), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("play C3: %d %v", code, out)
	}
	if data, _ := out["data"].(map[string]any); data != nil && data["flags"] == float64(64) {
		t.Fatalf("the move is answered privately: %v", out)
	}
	edit := findCall(t, e.fake.take(), "PATCH", fmt.Sprintf("/api/v9/webhooks/app/tok%d/messages/@original", e.seq))
	var desc string
	for _, em := range asList(edit.JSON["embeds"]) {
		desc, _ = em.(map[string]any)["description"].(string)
	}
	if !strings.Contains(desc, "played C4 — planned") {
		t.Fatalf("the planned reply is not announced: %v", edit.JSON)
	}
}

func asList(v any) []any { l, _ := v.([]any); return l }

// A private notice (a player's plan dropped) whose DM was refused waits
// in a channel where gobot is no member for its player alone, even where
// replies are public: the opponent's next interaction does not get it,
// the player's does, ephemerally.
func TestPrivateHeldNoticeWaitsForItsPlayer(t *testing.T) {
	e := newEnv(t)
	w := where{channel: "c9", guild: "g9", context: 0, owners: `{"1":"111"}`, perms: fmt.Sprint(discordgo.PermissionUseExternalApps)}
	e.fake.noBot = map[string]bool{"c9": true}
	e.fake.dmRefused = map[string]bool{"111": true}
	now := time.Now()
	e.send(e.ix(w, "222", "games", ""), now, false)
	notice := protocol.Message{To: "discord:111", Room: "discord:c9", Reply: protocol.Reply{Game: 1, Title: "Your plan · game #1", Private: true,
		Text: "Your plan in game #1 is cleared: bob played G5, which your plan did not cover."}}
	if err := e.a.Notify(context.Background(), notice); err != nil {
		t.Fatal(err)
	}
	body := e.ix(w, "222", "games", "")
	e.send(body, now, false)
	if fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body)); len(fus) != 0 {
		t.Fatalf("alice's plan notice was shown to bob: %v", fus)
	}
	body = e.ix(w, "111", "games", "")
	e.send(body, now, false)
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "did not cover") || fus[0].JSON["flags"] != float64(64) {
		t.Fatalf("alice's held notice: %v", fus)
	}
	e.fake.obeyed(t)
}
