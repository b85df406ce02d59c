package console

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/storage"
)

// Issue 38: each live time system loses on time in real time, through
// the bot's own clock loop (Run) on the system's clock, in a terminal.
// Nothing here measures how late (the benchmark in chat does): the test
// waits for the loss to be announced.
func TestLiveTimeoutsInRealTime(t *testing.T) {
	if testing.Short() {
		t.Skip("real time")
	}
	for _, clock := range []string{"byoyomi:0+2x1s", "canadian:0+3/2s", "fischer:2s+1s/3s", "absolute:2s", "simple:2s"} {
		t.Run(clock, func(t *testing.T) {
			t.Parallel()
			db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
			out := &lockedBuffer{}
			c := &Console{Bot: bot, Out: out, User: "alice", Room: Platform + ":main", session: "live"}
			bot.SetNotifier(Platform, c)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error)
			go func() { done <- bot.Run(ctx) }()
			defer func() { cancel(); <-done }()
			for _, l := range []string{"challenge @bob black clock=" + clock, "/as bob", "accept", "/as alice", "play D4"} {
				c.line(ctx, l)
			}
			if !strings.Contains(out.String(), "Game #1 begins") {
				t.Fatalf("the game did not begin:\n%s", out.String())
			}
			for end := time.Now().Add(30 * time.Second); !strings.Contains(out.String(), "@bob ran out of time"); time.Sleep(20 * time.Millisecond) {
				if time.Now().After(end) {
					t.Fatalf("no loss on time announced:\n%s", out.String())
				}
			}
			var m *gobot.Match
			if err := db.View(ctx, func(tx gobot.Tx) error { m, err = tx.Match(1); return err }); err != nil {
				t.Fatal(err)
			}
			if m.Result != "B+T" || m.Finished.Before(m.MoveTimes[0]) {
				t.Fatalf("result %q at %v", m.Result, m.Finished)
			}
			t.Logf("%s: lost %v after the move", clock, m.Finished.Sub(m.MoveTimes[0]))
		})
	}
}
