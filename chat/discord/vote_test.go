package discord

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

type voteClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *voteClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *voteClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// /go vote is registered from its declaration: a point that
// autocompletes, resign as a choice, the game; /go challenge has a vote
// option for the window.
func TestVoteCommandRegistered(t *testing.T) {
	bot := chat.New(chat.Config{}, nil, nil, nil, nil)
	subs := subcommands(ApplicationCommands(bot.Commands()))
	opts := map[string]map[string]*discordgo.ApplicationCommandOption{}
	for _, sub := range subs {
		opts[sub.Name] = map[string]*discordgo.ApplicationCommandOption{}
		for _, o := range sub.Options {
			opts[sub.Name][o.Name] = o
		}
	}
	vote := opts["vote"]
	if vote == nil {
		t.Fatal("no /go vote")
	}
	if p := vote["point"]; p == nil || !p.Autocomplete || p.Required || p.Type != discordgo.ApplicationCommandOptionString {
		t.Fatalf("vote's point option: %+v", p)
	}
	if r := vote["resign"]; r == nil || len(r.Choices) != 1 || r.Choices[0].Value != "resign" {
		t.Fatalf("vote's resign option: %+v", r)
	}
	if g := vote["game"]; g == nil || !g.Autocomplete {
		t.Fatalf("vote's game option: %+v", g)
	}
	if v := opts["challenge"]["vote"]; v == nil || v.Type != discordgo.ApplicationCommandOptionString || !strings.Contains(v.Description, "5s to 7d") {
		t.Fatalf("challenge's vote option: %+v", v)
	}
}

// A vote game through Discord's interactions: the challenge with its
// vote option, bob accepts, others vote with /go vote, /go board shows
// the votes drawn on the board, and when the window closes the room's
// move is posted in the channel once, with the tally.
func TestVoteGameOverInteractions(t *testing.T) {
	clock := &voteClock{t: time.Now()}
	e := newEnvWith(t, chat.Config{Rules: "japanese", Width: 9, Height: 9}, clock)
	now := time.Now()
	code, out := e.send(e.command("111", "alice", "challenge", opt("player", 6, "222")+","+opt("vote", 3, "1h")+","+opt("size", 3, "9")+","+opt("color", 3, "black")), now, false)
	if code != 200 || out["type"] != float64(4) {
		t.Fatalf("challenge: %d %v", code, out)
	}
	data := out["data"].(map[string]any)
	if s := fmt.Sprint(data["embeds"]); !strings.Contains(s, "<@111> challenges <@222> to play against the room, by vote (the room takes Black)") || !strings.Contains(s, "voting window 1h") {
		t.Fatalf("challenge embeds: %s", s)
	}
	code, out = e.send(e.button("222", "bob", buttons(data)["Accept"]), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("accept: %d %v", code, out)
	}
	edit := findCall(t, e.fake.take(), "PATCH", "")
	if s := fmt.Sprint(edit.JSON["embeds"]); !strings.Contains(s, "the room (Black) against <@222> (White)") || !strings.Contains(s, "/go vote <point>") {
		t.Fatalf("game start: %s", s)
	}
	// The others vote; the first opens the window.
	code, out = e.send(e.command("333", "carol", "vote", opt("point", 3, "E5")), now, false)
	if code != 200 || out["type"] != float64(4) {
		t.Fatalf("vote: %d %v", code, out)
	}
	if s := fmt.Sprint(out["data"].(map[string]any)["embeds"]); !strings.Contains(s, "<@333> votes E5 and opens the vote for move 1 of game #1: it closes in 1h") {
		t.Fatalf("vote reply: %s", s)
	}
	e.send(e.command("444", "dave", "vote", opt("point", 3, "E5")), now, false)
	code, out = e.send(e.command("555", "erin", "vote", opt("resign", 3, "resign")), now, false)
	if s := fmt.Sprint(out["data"].(map[string]any)["embeds"]); code != 200 || !strings.Contains(s, "Votes for move 1: E5 (2 votes), resign (1)") {
		t.Fatalf("resign vote: %d %s", code, s)
	}
	// bob plays the room: he may not vote; play explains vote to others.
	code, out = e.send(e.command("222", "bob", "vote", opt("point", 3, "D4")), now, false)
	if d := out["data"].(map[string]any); d["flags"] != float64(64) || !strings.Contains(fmt.Sprint(d["content"]), "You play against the room") {
		t.Fatalf("bob's vote: %d %v", code, out)
	}
	code, out = e.send(e.command("333", "carol", "play", opt("point", 3, "D4")), now, false)
	if d := out["data"].(map[string]any); d["flags"] != float64(64) || !strings.Contains(fmt.Sprint(d["content"]), "`/go vote <point>`") {
		t.Fatalf("carol's play: %d %v", code, out)
	}
	e.fake.take()
	// The board during the window: the picture is the board with the votes.
	code, out = e.send(e.command("666", "fay", "board", ""), now, false)
	if code != 200 || out["type"] != float64(5) {
		t.Fatalf("board: %d %v", code, out)
	}
	edit = findCall(t, e.fake.take(), "PATCH", "")
	checkPNG(t, edit)
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: mustRules(t)})
	var want bytes.Buffer
	if _, _, err := (&render.Renderer{Width: 400}).BoardVotes(&want, g, "", map[game.Point]int{game.Pt(4, 4): 2}); err != nil {
		t.Fatal(err)
	}
	matched := false
	for _, f := range edit.Files {
		matched = matched || bytes.Equal(f, want.Bytes())
	}
	if !matched {
		t.Fatal("the board image is not the board with E5's two votes drawn")
	}
	// The window closes: the room's move goes to the channel, once.
	clock.Advance(time.Hour)
	for range 2 {
		if err := e.bot.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	posted := 0
	for _, c := range e.fake.take() {
		if c.Method == "POST" && strings.HasSuffix(c.Path, "/channels/c1/messages") && strings.Contains(fmt.Sprint(c.JSON["embeds"]), "The room plays E5. Votes: E5 (2 votes), resign (1).") {
			posted++
			if c.JSON["nonce"] == nil {
				t.Errorf("the announcement has no nonce: %v", c.JSON)
			}
		}
	}
	if posted != 1 {
		t.Fatalf("the room's move was posted %d times", posted)
	}
	var match *gobot.Match
	e.db.View(context.Background(), func(tx gobot.Tx) error { match, _ = tx.Match(1); return nil })
	if g, err := game.Replay(match.Record); err != nil || g.MoveCount() != 1 || g.At(game.Pt(4, 4)) != game.Black {
		t.Fatalf("the game after the window: %v", err)
	}
}

func mustRules(t *testing.T) game.Rules {
	t.Helper()
	r, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
