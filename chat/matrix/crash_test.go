package matrix

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// crashChild is the environment variable that makes this test binary the
// bot process that dies right after a move is committed.
const crashChild = "GOBOT_TEST_CRASH_CHILD"

// runCrashChild runs the bot on the database and homeserver the parent
// names and exits with 137 (as a SIGKILL would) between the commit of a
// move and the sending of its announcement.
func runCrashChild() {
	afterHandle = func(rep chat.Reply) {
		if strings.Contains(rep.Text, " played ") {
			os.Exit(137) // no deferred calls, nothing more written or sent
		}
	}
	db, err := storage.Open(os.Getenv(crashChild+"_DB"), storage.Options{})
	if err != nil {
		os.Exit(3)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	bot := chat.New(chat.Config{}, db, &render.Renderer{}, nil, log)
	a, err := New(Config{Homeserver: os.Getenv(crashChild + "_HS"), UserID: os.Getenv(crashChild + "_USER"), Password: "password-gobot",
		AllowServers: []string{"localhost"}}, bot, chat.StoreState(db), log)
	if err != nil {
		os.Exit(4)
	}
	a.retryBase = 50 * time.Millisecond
	bot.SetNotifier(Platform, a)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a.Run(ctx)
	os.Exit(0) // never crashed: the parent fails
}

// The bot process is killed after a move is committed and before its
// announcement is sent. After the restart the homeserver hands the
// command over again: the announcement arrives, once, with no
// "already handled" answer, and the move is stored once.
func TestKillBetweenCommitAndSend(t *testing.T) {
	if os.Getenv(crashChild) == "1" {
		runCrashChild()
		return
	}
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost")
	botCli := register(t, ctx, hs, "gobot")
	botID := botCli.UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false)
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "crash club"})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	if _, err := bob.cli.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, bob.cli.UserID, ann.cli, bob.cli)
	dbPath := filepath.Join(t.TempDir(), "gobot.db")
	cfg := Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot", AllowServers: []string{"localhost"}}
	logs := &logBuffer{}
	defer func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	}()

	// A game begins with the bot running normally.
	bot := startBot(t, ctx, cfg, dbPath, 50, logs)
	if _, err := ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli)
	ann.replyTo(t, ctx, ann.say(t, ctx, room, "!go challenge {bob} 9 black", bob.cli))
	if c, _ := ann.replyTo(t, ctx, bob.say(t, ctx, room, "!go accept")); !strings.Contains(c.Body, "Game #1 begins") {
		t.Fatalf("accept: %s", c.Body)
	}
	bot.stop()

	// The bot process that dies between the commit and the send.
	play := ann.say(t, ctx, room, "!go play D4")
	child := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKillBetweenCommitAndSend$")
	child.Env = append(os.Environ(), crashChild+"=1", crashChild+"_DB="+dbPath, crashChild+"_HS="+hs, crashChild+"_USER="+string(botID))
	child.Stderr = logs
	err = child.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 137 {
		t.Fatalf("the bot process should have died after committing the move: %v", err)
	}
	if n := ann.answers(play); n != 0 {
		t.Fatalf("the move was answered %d times before the crash", n)
	}

	// Restarted: the move's announcement arrives once.
	bot = startBot(t, ctx, cfg, dbPath, 50, logs)
	c, _ := ann.replyTo(t, ctx, play)
	if !strings.Contains(c.Body, "ann played D4") || strings.Contains(c.Body, "already handled") {
		t.Fatalf("the announcement after the restart: %s", c.Body)
	}
	// Something after it, then count: exactly one answer to the move.
	look := bob.say(t, ctx, room, "!go board")
	ann.replyTo(t, ctx, look)
	ann.wait(t, ctx, 0, "the board image", func(e *event.Event) bool {
		return e.Content.AsMessage().MsgType == event.MsgImage
	})
	if n := ann.answers(play); n != 1 {
		t.Fatalf("the move was answered %d times, want once", n)
	}
	bot.stop()
	db, err := storage.Open(dbPath, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.View(context.Background(), func(tx chat.Tx) error {
		sg, err := tx.Game(1)
		if err != nil || len(sg.Record.Moves) != 1 {
			t.Errorf("stored game: %v, %+v", err, sg)
		}
		return nil
	})
}
