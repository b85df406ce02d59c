package chat

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// timedNotifier notes when each game's timeout notice arrives.
type timedNotifier struct {
	mu sync.Mutex
	at map[gobot.GameID]time.Time
}

func (n *timedNotifier) Notify(ctx context.Context, m protocol.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if _, ok := n.at[m.Reply.Game]; !ok {
		n.at[m.Reply.Game] = time.Now()
	}
	return nil
}

func (n *timedNotifier) count() int { n.mu.Lock(); defer n.mu.Unlock(); return len(n.at) }

// BenchmarkLiveTimeouts (issue 38): 500 live games with 10-second
// byo-yomi periods (after 20s of main time) on one process (bbolt), in real time through the
// clock loop (Run). It reports how late each loss on time was declared,
// from the true deadline to the notice (p50, p99, max), and the CPU the
// process used while the loop waited and ticked, as a share of one core.
// Run it alone, with -benchtime 1x:
//
//	go test ./chat/ -run XXX -bench LiveTimeouts -benchtime 1x
func BenchmarkLiveTimeouts(b *testing.B) {
	const games = 500
	for range b.N {
		db, err := OpenTestDB(filepath.Join(b.TempDir(), "gobot.db"))
		if err != nil {
			b.Fatal(err)
		}
		bot := New(Config{Rules: "japanese", Width: 9, Height: 9}, db, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
		n := &timedNotifier{at: map[gobot.GameID]time.Time{}}
		bot.SetNotifier("test", n)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error)
		go func() { done <- bot.Run(ctx) }()
		deadlines := map[gobot.GameID]time.Time{}
		seq := 0
		do := func(user, line string, args ...string) protocol.Reply {
			seq++
			r := protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
				EventID: gobot.EventID(fmt.Sprintf("test:%d", seq)), Command: line, Args: args, Platform: privateTest}
			return bot.Handle(ctx, r)
		}
		// Each game has 20s of main time, then one 10-second period:
		// its deadline is 30s after its start, after the last game began
		// (starting 500 games takes a few seconds), so the timeouts run
		// on their own, as many a second as games began.
		start := time.Now()
		for i := range games {
			a, o := fmt.Sprintf("a%d", i), fmt.Sprintf("o%d", i)
			if rep := do(a, "challenge", "@"+o, "black", "clock=byoyomi:20s+1x10s"); rep.Error {
				b.Fatal(rep.Text)
			}
			if rep := do(o, "accept"); rep.Error {
				b.Fatal(rep.Text)
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "s-to-start")
		if err := db.View(ctx, func(tx gobot.Tx) error {
			for id := gobot.GameID(1); id <= games; id++ {
				m, err := tx.Match(id)
				if err != nil {
					return err
				}
				deadlines[id] = m.Deadline
			}
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		var ru0 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
		wall0 := time.Now()
		for n.count() < games {
			time.Sleep(50 * time.Millisecond)
		}
		// Idle: no deadline left, the loop only ticks.
		var ru1 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
		wall1 := time.Now()
		time.Sleep(5 * time.Second)
		var ru2 syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru2)
		wall2 := time.Now()
		cancel()
		<-done
		db.Close()
		var late []time.Duration
		for id, d := range deadlines {
			late = append(late, n.at[id].Sub(d))
		}
		slices.Sort(late)
		cpu := func(a, z syscall.Rusage, w time.Duration) float64 {
			used := time.Duration(z.Utime.Nano() + z.Stime.Nano() - a.Utime.Nano() - a.Stime.Nano())
			return 100 * float64(used) / float64(w)
		}
		b.ReportMetric(float64(late[len(late)/2])/1e6, "p50-late-ms")
		b.ReportMetric(float64(late[len(late)*99/100])/1e6, "p99-late-ms")
		b.ReportMetric(float64(late[len(late)-1])/1e6, "max-late-ms")
		b.ReportMetric(cpu(ru0, ru1, wall1.Sub(wall0)), "cpu%-timeouts")
		b.ReportMetric(cpu(ru1, ru2, wall2.Sub(wall1)), "cpu%-idle")
	}
}
