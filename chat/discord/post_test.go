package discord

import (
	"context"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// A message the bot posts on its own carries a nonce Discord enforces,
// derived from the message's Key: sent again (a reminder claimed again
// after a crash), it carries the same nonce, so Discord keeps one.
func TestNonceStableAcrossResend(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	e.send(e.command("222", "bob", "accept", ""), now, false)
	if err := e.db.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutPlayer(&gobot.Player{ID: "discord:222", Name: "bob", Notify: "dm"})
	}); err != nil {
		t.Fatal(err)
	}
	e.fake.take()
	// The DM to the player to move, after a move.
	e.send(e.command("111", "alice", "play", opt("point", 3, "D4")), now, false)
	e.a.Wait()
	dm := findCall(t, e.fake.take(), "POST", "/api/v9/channels/dm222/messages")
	n, _ := dm.JSON["nonce"].(string)
	if n == "" || len(n) > 25 || dm.JSON["enforce_nonce"] != true {
		t.Fatalf("the DM after a move: nonce %v, enforce_nonce %v", dm.JSON["nonce"], dm.JSON["enforce_nonce"])
	}
	checkPNG(t, dm)

	// The same message twice, and another one.
	ctx := context.Background()
	reminder := protocol.Message{Room: "discord:c1", Reply: protocol.Reply{Text: "<@discord:222>, it's your move in game #1 — 1h left."},
		Key: "game 1 deadline 123 reminder 2/0"}
	var nonces []any
	for _, m := range []protocol.Message{reminder, reminder, {Room: "discord:c1", Reply: reminder.Reply, Key: "game 1 deadline 123 reminder 1/0"}} {
		if err := e.a.Notify(ctx, m); err != nil {
			t.Fatal(err)
		}
		c := findCall(t, e.fake.take(), "POST", "/api/v9/channels/c1/messages")
		if c.JSON["enforce_nonce"] != true {
			t.Fatalf("enforce_nonce: %v", c.JSON)
		}
		nonces = append(nonces, c.JSON["nonce"])
	}
	if nonces[0] == nil || nonces[0] != nonces[1] || nonces[0] == nonces[2] || nonces[0] == n {
		t.Fatalf("nonces %v (the DM's %q): the same message must carry the same nonce, another message another", nonces, n)
	}
	// A message with no key carries none.
	if err := e.a.Notify(ctx, protocol.Message{Room: "discord:c1", Reply: reminder.Reply}); err != nil {
		t.Fatal(err)
	}
	if c := findCall(t, e.fake.take(), "POST", "/api/v9/channels/c1/messages"); c.JSON["nonce"] != nil || c.JSON["enforce_nonce"] != nil {
		t.Fatalf("a message with no key: %v", c.JSON)
	}
}
