package discord

import (
	"fmt"
	"strings"
	"testing"
	"time"
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
