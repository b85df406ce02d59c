package postgres

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// playMoves plays n legal moves in a new game through bot (no board
// image: this measures the store), returning each move's latency.
func playMoves(b *testing.B, bot *chat.Bot, tag string, n int, seed uint64) []time.Duration {
	ctx := context.Background()
	ua, ub := gobot.UserID("b:"+tag+"a"), gobot.UserID("b:"+tag+"b")
	room := gobot.RoomID("b:" + tag)
	bot.Handle(ctx, protocol.Request{User: protocol.User{ID: ua, Name: "a"}, Room: room, Command: "challenge", Args: []string{"@" + string(ub), "black", "9"}})
	bot.Handle(ctx, protocol.Request{User: protocol.User{ID: ub, Name: "b"}, Room: room, Command: "accept"})
	rng := rand.New(rand.NewPCG(seed, 1))
	users := [2]gobot.UserID{ua, ub}
	var took []time.Duration
	for turn, tries := 0, 0; len(took) < n && tries < 50*n; tries++ {
		p := game.Pt(rng.IntN(9), rng.IntN(9)).GTP(9)
		began := time.Now()
		rep := bot.Handle(ctx, protocol.Request{User: protocol.User{ID: users[turn%2]}, Room: room, Command: "play", Args: []string{p},
			EventID: gobot.EventID(fmt.Sprintf("b:%s:%d", tag, tries))})
		if !rep.Error {
			took = append(took, time.Since(began))
			turn++
		}
	}
	return took
}

// BenchmarkMoveCommit: one move through the bot committed to a local
// PostgreSQL (SERIALIZABLE, synchronous_commit on), p50 and p99.
func BenchmarkMoveCommit(b *testing.B) {
	s, _ := mustOpen(b)
	bot := chat.New(chat.Config{Rules: "japanese"}, s, nil, nil, nil)
	var all []time.Duration
	i := 0
	for b.Loop() {
		all = append(all, playMoves(b, bot, fmt.Sprint(i), 40, uint64(i))...)
		i++
	}
	slices.Sort(all)
	b.ReportMetric(float64(all[len(all)/2])/1e6, "ms/move-p50")
	b.ReportMetric(float64(all[len(all)*99/100])/1e6, "ms/move-p99")
	b.ReportMetric(float64(len(all))/float64(b.Elapsed().Seconds()), "moves/s")
}

// BenchmarkMovesPerSecond: games played concurrently through 1 or 3 bots,
// each with a store of its own on one database (as separate processes
// would have: separate pools, separate bots).
func BenchmarkMovesPerSecond(b *testing.B) {
	for _, procs := range []int{1, 3} {
		b.Run(fmt.Sprintf("processes=%d", procs), func(b *testing.B) {
			s, dsn := mustOpen(b)
			bots := []*chat.Bot{chat.New(chat.Config{Rules: "japanese"}, s, nil, nil, nil)}
			for range procs - 1 {
				o, err := Open(context.Background(), dsn, Options{})
				if err != nil {
					b.Fatal(err)
				}
				defer o.Close()
				bots = append(bots, chat.New(chat.Config{Rules: "japanese"}, o, nil, nil, nil))
			}
			var moves atomic.Int64
			round := 0
			for b.Loop() {
				var wg sync.WaitGroup
				for g := range 12 { // 12 games at once, spread over the bots
					wg.Add(1)
					go func() {
						defer wg.Done()
						took := playMoves(b, bots[g%procs], fmt.Sprintf("%d-%d", round, g), 20, uint64(round*100+g))
						moves.Add(int64(len(took)))
					}()
				}
				wg.Wait()
				round++
			}
			b.ReportMetric(float64(moves.Load())/b.Elapsed().Seconds(), "moves/s")
		})
	}
}
