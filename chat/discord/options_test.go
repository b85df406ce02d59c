package discord

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Options reach chat by argument name and are parsed there from the
// declaration: a komi, a handicap and a size as typed values, a user as
// a snowflake; a second user or an invalid one is refused by chat.
func TestOptionsByName(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "13")+","+
		opt("komi", 3, "0.5")+","+opt("clock", 3, "fischer:3d+1d/7d")+","+opt("rated", 3, "unrated")), now, false)
	data := out["data"].(map[string]any)
	embeds, _ := data["embeds"].([]any)
	if len(embeds) == 0 {
		t.Fatalf("challenge: %v", out)
	}
	desc := embeds[0].(map[string]any)["description"].(string)
	for _, want := range []string{"<@111> challenges <@222>", "13x13", "komi 0.5", "Fischer 3d + 1d a move, at most 7d"} {
		if !strings.Contains(desc, want) {
			t.Fatalf("challenge %q does not say %q", desc, want)
		}
	}
	// A typed key in the option is read as the value.
	_, out = e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("komi", 3, "komi=7")), now, false)
	if desc := out["data"].(map[string]any)["embeds"].([]any)[0].(map[string]any)["description"].(string); !strings.Contains(desc, "komi 7") {
		t.Fatalf("komi=7 in the komi option: %q", desc)
	}
	for _, tc := range []struct{ opts, want string }{
		{opt("player", 6, "bob"), "is not a Discord user"},
		{opt("player", 6, strings.Repeat("9", 21)), "is not a Discord user"},
		{opt("player", 6, "222") + "," + opt("komi", 3, "banana"), "komi=banana is not a number"},
		{opt("player", 6, "222") + "," + opt("bogus", 3, "1"), "challenge has no option \"bogus\""},
	} {
		_, out := e.send(e.command("111", "alice", "challenge", tc.opts), now, false)
		data := out["data"].(map[string]any)
		if data["flags"] != float64(64) || !strings.Contains(data["content"].(string), tc.want) {
			t.Errorf("%s: %v, want an ephemeral error saying %q", tc.opts, data["content"], tc.want)
		}
	}
	// A game option is a number, with or without "#".
	_, out = e.send(e.command("111", "alice", "board", opt("game", 3, "#0")), now, false)
	if c, _ := out["data"].(map[string]any)["content"].(string); !strings.Contains(c, "#0 is not a game") {
		t.Fatalf("board #0: %v", out)
	}
}

// /go rengo takes the players as user options (partners and opponents):
// the caller's team is the first, the colour option its colour; the
// challenge names everyone by mention, each accepts with a button or the
// command, and the game begins with the last acceptance.
func TestRengoUserOptions(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "rengo", opt("partner", 6, "222")+","+opt("opponent", 6, "333")+","+opt("opponent2", 6, "444")+","+
		opt("color", 3, "white")+","+opt("size", 3, "9")), now, false)
	data := out["data"].(map[string]any)
	embeds, _ := data["embeds"].([]any)
	if len(embeds) == 0 {
		t.Fatalf("rengo: %v", out)
	}
	desc := embeds[0].(map[string]any)["description"].(string)
	if !strings.Contains(desc, "Black <@333> and <@444> against White <@111> and <@222>") || !strings.Contains(desc, "9x9") {
		t.Fatalf("team challenge: %q", desc)
	}
	if buttons(data)["Accept"] == "" {
		t.Fatalf("no Accept button: %v", data)
	}
	e.send(e.command("222", "bob", "accept", ""), now, false)
	e.send(e.command("333", "carol", "accept", ""), now, false)
	e.fake.take()
	_, out = e.send(e.command("444", "dave", "accept", opt("challenge", 3, "#1")), now, false)
	if out["type"] != float64(5) { // the board image: deferred, then the original edited
		t.Fatalf("the last accept: %v", out)
	}
	edit := findCall(t, e.fake.take(), "PATCH", "")
	embeds, _ = edit.JSON["embeds"].([]any)
	if len(embeds) == 0 {
		t.Fatalf("the game's start: %v", edit.JSON)
	}
	if desc := embeds[0].(map[string]any)["description"].(string); !strings.Contains(desc, "Team game #1 begins") || !strings.Contains(desc, "Turn order: <@333>, <@111>, <@444>, <@222>") {
		t.Fatalf("the game's start: %q", desc)
	}
	if users := fmt.Sprint(edit.JSON["allowed_mentions"].(map[string]any)["users"]); users != "[333]" {
		t.Errorf("the player to move should be pinged: %s", users)
	}
	// The caller is always in the first team: naming them again, or only
	// partners, is refused.
	for _, tc := range []struct{ opts, want string }{
		{opt("opponent", 6, "111"), "is named twice"},
		{opt("partner", 6, "222") + "," + opt("bogus", 3, "1"), "rengo has no option \"bogus\""},
	} {
		_, out := e.send(e.command("111", "alice", "rengo", tc.opts), now, false)
		data := out["data"].(map[string]any)
		if data["flags"] != float64(64) || !strings.Contains(data["content"].(string), tc.want) {
			t.Errorf("%s: %v, want an ephemeral error saying %q", tc.opts, data["content"], tc.want)
		}
	}
}
