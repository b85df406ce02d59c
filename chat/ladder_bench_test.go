package chat

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// bigLadder stores a ladder of n named players in room, with an open
// challenge from every fourth rung to the one two above it (n/4 open),
// made by `ladder new` and filled in one transaction.
func bigLadder(b testing.TB, bot *Bot, db gobot.Store, room gobot.RoomID, n int, now time.Time) {
	ctx := context.Background()
	if rep := bot.Handle(ctx, protocol.Request{User: protocol.User{ID: "b:u0", Name: "u0"}, Room: room, Command: "ladder", Args: []string{"new", `"Big`, `ladder"`, "size=19"}}); rep.Error {
		b.Fatal(rep.Text)
	}
	err := db.Update(ctx, func(tx gobot.Tx) error {
		l, err := tx.Ladder(1)
		if err != nil {
			return err
		}
		for i := range n {
			u := gobot.UserID(fmt.Sprintf("b:u%d", i))
			if err := tx.PutPlayer(&gobot.Player{ID: u, Name: fmt.Sprintf("Player %d", i)}); err != nil {
				return err
			}
			l.Rungs = append(l.Rungs, u)
		}
		for i := 3; i < n; i += 4 {
			l.Challenges = append(l.Challenges, gobot.LadderChallenge{Challenger: l.Rungs[i], Defender: l.Rungs[i-2], Made: now, Deadline: now.Add(72 * time.Hour)})
		}
		return tx.PutLadder(l)
	})
	if err != nil {
		b.Fatal(err)
	}
}

// BenchmarkLadderShow2000 is `ladder` on a 2,000-player ladder with 500
// open challenges, through the bot as a person asks it: the ladder read
// from bbolt, its first page as text, the names of its top, and its top
// drawn as a PNG by the real renderer. It reports the median wall time
// and the CPU time of the process per `ladder` (user and system), which
// a loaded machine does not inflate as it does the wall time.
func BenchmarkLadderShow2000(b *testing.B) {
	db, err := OpenTestDB(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	bot := New(Config{Rules: "japanese", Width: 19, Height: 19}, db, benchRenderer, clock, nil)
	bigLadder(b, bot, db, "b:r", 2000, clock.Now())
	ctx := context.Background()
	var took []time.Duration
	var ru0, ru1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	for b.Loop() {
		began := time.Now()
		rep := bot.Handle(ctx, protocol.Request{User: protocol.User{ID: "b:u7", Name: "u7"}, Room: "b:r", Command: "ladder"})
		took = append(took, time.Since(began))
		if rep.Error || rep.Image == nil {
			b.Fatalf("ladder: %q, image %v", rep.Text, rep.Image != nil)
		}
	}
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) / time.Duration(len(took))
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms-median")
	b.ReportMetric(float64(cpu)/float64(time.Millisecond), "cpu-ms/op")
}
