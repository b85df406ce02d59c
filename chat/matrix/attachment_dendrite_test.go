package matrix

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
)

// reviewLinks stands in for the web board's links (chat/web tests the
// board itself).
type reviewLinks struct{}

func (reviewLinks) Link(id gobot.GameID, u gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/%d", id), time.Now().Add(time.Hour), nil
}

func (reviewLinks) ReviewLink(id gobot.ReviewID, u gobot.UserID, _ uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/r%d", id), time.Now().Add(time.Hour), nil
}

// TestReviewFileOnRealHomeserver: on Dendrite, an SGF sent as a file
// whose caption is "!go review" is fetched from the media repository
// and reviewed, variations and comments included; a file said to be too
// big is refused without being fetched, and a caption that is no
// command is left alone.
func TestReviewFileOnRealHomeserver(t *testing.T) {
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	logs := &logBuffer{}
	defer func() {
		if t.Failed() || testing.Verbose() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	rb := startBot(t, ctx, Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot"}, filepath.Join(t.TempDir(), "gobot.db"), 50, logs)
	rb.bot.SetLinker(reviewLinks{})
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "club", Invite: []id.UserID{botID}})
	if err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, cr.RoomID, botID, ann.cli)
	sgf := []byte("(;GM[1]SZ[9]PB[ann];B[ee]C[centre](;W[cc])(;W[gg]C[the other way]))")
	up, err := ann.cli.UploadBytesWithName(ctx, sgf, "application/x-go-sgf", "club-game.sgf")
	if err != nil {
		t.Fatal(err)
	}
	send := func(body string, size int) id.EventID {
		t.Helper()
		c := &event.MessageEventContent{MsgType: event.MsgFile, Body: body, FileName: "club-game.sgf", URL: up.ContentURI.CUString(),
			Info: &event.FileInfo{MimeType: "application/x-go-sgf", Size: size}}
		resp, err := ann.cli.SendMessageEvent(ctx, cr.RoomID, event.EventMessage, c)
		if err != nil {
			t.Fatal(err)
		}
		return resp.EventID
	}
	got, _ := ann.replyTo(t, ctx, send("!go review", len(sgf)))
	if !strings.Contains(got.Body, "Review r1") {
		t.Fatalf("answer %q", got.Body)
	}
	var rev *gobot.Review
	if err := rb.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		rev, err = tx.Review(1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if rev.Title != `the SGF file "club-game"` || len(rev.Tree.Nodes[1].Children) != 2 || rev.Tree.Nodes[3].Comment != "the other way" {
		t.Fatalf("review %q: %+v", rev.Title, rev.Tree.Nodes)
	}
	got, _ = ann.replyTo(t, ctx, send("!go review", 300<<10))
	if !strings.Contains(got.Body, "at most 256 KB") {
		t.Fatalf("a big file: %q", got.Body)
	}
	plain := send("our game from yesterday", len(sgf))
	// The bot takes a room's events in order: once "reviews" is
	// answered, the caption before it was read.
	if got, _ := ann.replyTo(t, ctx, ann.say(t, ctx, cr.RoomID, "!go reviews")); !strings.Contains(got.Body, "r1:") {
		t.Fatalf("reviews: %q", got.Body)
	}
	if n := ann.answers(plain); n != 0 {
		t.Fatalf("a caption that is no command got %d answers", n)
	}
}
