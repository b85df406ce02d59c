package matrix

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

type voteClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *voteClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *voteClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// A room-vote game through a real homeserver: ann challenges bob with a
// pill and vote=1h, bob accepts, carol and ann vote with !go vote, a
// board during the window shows the votes drawn, bob's vote and carol's
// play are refused with the reason, and when the window closes the
// room's move is announced in the room once.
func TestVoteGameInRoom(t *testing.T) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@carol:localhost")
	botCli := register(t, ctx, hs, "gobot")
	botID := botCli.UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false)
	carol := newHuman(t, ctx, hs, "carol", botID, false)
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "vote club"})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	for _, h := range []*human{bob, carol} {
		if _, err := h.cli.JoinRoomByID(ctx, room); err != nil {
			t.Fatal(err)
		}
	}
	waitJoined(t, ctx, room, carol.cli.UserID, ann.cli, bob.cli, carol.cli)

	dir := t.TempDir()
	db, err := storage.Open(filepath.Join(dir, "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	logs := &logBuffer{}
	defer func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	clock := &voteClock{t: time.Now()}
	bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{}, clock, slog.New(slog.NewTextHandler(logs, nil)))
	a, err := New(Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot", AllowServers: []string{"localhost"},
		CryptoStore: filepath.Join(dir, "crypto.db")}, bot, gobot.StoreState(db), slog.New(slog.NewTextHandler(logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	a.retryBase = 50 * time.Millisecond
	bot.SetNotifier(Platform, a)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- a.Run(rctx) }()
	defer func() { cancel(); <-done }()
	select {
	case <-a.ready:
	case err := <-done:
		t.Fatalf("adapter stopped: %v", err)
	case <-ctx.Done():
		t.Fatal("adapter did not log in")
	}
	if _, err := ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli, carol.cli)

	ask := func(h *human, text string, want string, pills ...*mautrix.Client) (*event.MessageEventContent, int) {
		t.Helper()
		cmd := h.say(t, ctx, room, text, pills...)
		c, i := ann.replyTo(t, ctx, cmd)
		if !strings.Contains(c.Body, want) {
			t.Fatalf("%s: the bot said %q; want %q in it", text, c.Body, want)
		}
		return c, i
	}
	ask(ann, "!go challenge {bob} vote=1h 9 black", "ann challenges bob to play against the room, by vote (the room takes Black)", bob.cli)
	ask(ann, "!go challenge {bob} vote=10s9 9", "vote=10s9 won't work", bob.cli)
	ask(bob, "!go accept", "Game #1 begins: the room (Black) against bob (White)")
	ask(carol, "!go vote E5", "carol votes E5 and opens the vote for move 1 of game #1: it closes in 1h")
	ask(ann, "!go vote e5", "Votes for move 1: E5 (2 votes)")
	ask(bob, "!go vote D4", "You play against the room in game #1")
	ask(carol, "!go play D4", "the room plays against bob by vote: `!go vote <point>`")
	_, i := ask(carol, "!go board", "Votes: E5 (2 votes); the window closes in ")
	img, _ := ann.wait(t, ctx, i+1, "the board image", func(e *event.Event) bool { return e.Content.AsMessage().MsgType == event.MsgImage })
	pic, err := png.Decode(bytes.NewReader(fetch(t, ctx, ann.cli, img.Content.AsMessage())))
	if err != nil {
		t.Fatal(err)
	}
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: game.Rules{Komi: 6.5}})
	var buf bytes.Buffer
	if _, _, err := (&render.Renderer{}).BoardVotes(&buf, g, "", map[game.Point]int{game.Pt(4, 4): 2}); err != nil {
		t.Fatal(err)
	}
	want, _ := png.Decode(&buf)
	if !samePixels(pic, want) {
		t.Fatal("the board during the window is not the board with E5's two votes drawn")
	}

	ann.mu.Lock()
	before := len(ann.got)
	ann.mu.Unlock()
	clock.Advance(2 * time.Hour) // the requests carry their events' times, a little after the clock's start
	for range 2 {
		if err := bot.Tick(ctx); err != nil {
			t.Fatal(err)
		}
	}
	ann.wait(t, ctx, before, "the room's move", func(e *event.Event) bool {
		return strings.Contains(e.Content.AsMessage().Body, "The room plays E5. Votes: E5 (2 votes).")
	})
	// Another tick, and the notice's echo, bring no second copy.
	bot.Tick(ctx)
	ask(carol, "!go board", "bob (White) to play")
	n := 0
	ann.mu.Lock()
	for _, e := range ann.got {
		if strings.Contains(e.Content.AsMessage().Body, "The room plays E5") {
			n++
		}
	}
	ann.mu.Unlock()
	if n != 1 {
		t.Fatalf("the room's move was announced %d times", n)
	}
	var match *gobot.Match
	db.View(ctx, func(tx gobot.Tx) error { match, _ = tx.Match(1); return nil })
	if g, err := game.Replay(match.Record); err != nil || g.MoveCount() != 1 || g.At(game.Pt(4, 4)) != game.Black {
		t.Fatalf("the game after the window: %+v %v", match, err)
	}
}

// samePixels compares two images pixel by pixel.
func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
