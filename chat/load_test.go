package chat

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

// TestLoad plays many games between distinct players concurrently through
// the router to the end (resignation after a random number of moves), with
// every request delivered twice at random. Nothing may fail, no move may
// be lost or doubled, and the store's indexes must stay consistent. The
// size is 150 games by default (so that `go test ./...` stays quick; the
// 1,000-game figure in README.md is GOBOT_LOAD_GAMES=1000), -short and
// the race detector use 60. Boards are not
// drawn unless GOBOT_LOAD_RENDER=real: then every move's board is drawn
// by the real renderer through a render.Pool, as gobot runs
// (TestLoadRendered does that at a small size in every run).
func TestLoad(t *testing.T) {
	games := loadGames(t, 150, 60)
	var r Renderer
	switch s := os.Getenv("GOBOT_LOAD_RENDER"); s {
	case "":
	case "real":
		r = render.NewPool(benchRenderer, 0)
	default:
		t.Fatalf("GOBOT_LOAD_RENDER=%q: want real (or nothing)", s)
	}
	runLoad(t, games, r)
}

// loadGames is GOBOT_LOAD_GAMES, else def (small under -short and the race
// detector).
func loadGames(t *testing.T, def, small int) int {
	if testing.Short() || raceEnabled {
		def = small
	}
	if s := os.Getenv("GOBOT_LOAD_GAMES"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			t.Fatalf("GOBOT_LOAD_GAMES=%q: want a positive number of games", s)
		}
		return n
	}
	return def
}

// runLoad plays games as TestLoad says, drawing boards with r (nil:
// none; else every accepted move's reply must carry its board image),
// and logs the time, the peak heap in use and the process's peak RSS.
func runLoad(t *testing.T, games int, r Renderer) {
	resetPeakRSS()
	db, err := OpenTestDB(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	bot := New(Config{Rules: "japanese", Width: 9, Height: 9}, db, r, clock, nil)
	var peak atomic.Uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(20 * time.Millisecond):
				runtime.ReadMemStats(&ms)
				if ms.HeapInuse > peak.Load() {
					peak.Store(ms.HeapInuse)
				}
			}
		}
	}()
	start := time.Now()
	var seq atomic.Int64
	send := func(rng *rand.Rand, user, room string, line ...string) protocol.Reply {
		id := fmt.Sprintf("load:%d", seq.Add(1))
		r := protocol.Request{User: protocol.User{ID: gobot.UserID("load:" + user), Name: user}, Room: gobot.RoomID("load:" + room), EventID: gobot.EventID(id), Command: line[0], Args: line[1:]}
		rep := bot.Handle(context.Background(), r)
		if rng.IntN(4) == 0 { // a duplicate delivery
			dup := bot.Handle(context.Background(), r)
			if !dup.Error {
				t.Errorf("duplicate of %v was applied: %s", line, dup.Text)
			}
		}
		return rep
	}
	type result struct {
		id    gobot.GameID
		moves int
	}
	results := make(chan result, games)
	var wg sync.WaitGroup
	for i := range games {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 7))
			a, b, room := fmt.Sprintf("a%d", i), fmt.Sprintf("b%d", i), fmt.Sprintf("r%d", i%50)
			if rep := send(rng, a, room, "challenge", "@load:"+b, "9", "black"); rep.Error {
				t.Errorf("challenge: %s", rep.Text)
				return
			}
			rep := send(rng, b, room, "accept")
			if rep.Error {
				t.Errorf("accept: %s", rep.Text)
				return
			}
			id := rep.Game
			ref := "#" + strconv.FormatUint(uint64(id), 10)
			players := [2]string{a, b}
			made := 0
			target := 10 + rng.IntN(40)
			for made < target {
				p := game.Pt(rng.IntN(9), rng.IntN(9)).GTP(9)
				rep := send(rng, players[made%2], room, "play", p, ref)
				if !rep.Error {
					made++
					if r != nil && (rep.Image == nil || len(rep.Image.Data) == 0) {
						t.Errorf("game %s, move %d: no board image", ref, made)
					}
				}
			}
			if rep := send(rng, players[made%2], room, "resign", ref); rep.Error {
				t.Errorf("resign: %s", rep.Text)
			}
			results <- result{id, made}
		}()
	}
	wg.Wait()
	close(stop)
	close(results)
	elapsed := time.Since(start)
	n := 0
	db.View(context.Background(), func(tx gobot.Tx) error {
		for r := range results {
			n++
			match, err := tx.Match(r.id)
			if err != nil {
				t.Fatal(err)
			}
			if len(match.Record.Moves) != r.moves || match.Active() || len(match.MoveTimes) != r.moves {
				t.Errorf("game %d: %d moves stored (%d times), %d acknowledged, active %v", r.id, len(match.Record.Moves), len(match.MoveTimes), r.moves, match.Active())
			}
		}
		return nil
	})
	if n != games {
		t.Fatalf("%d of %d games finished", n, games)
	}
	if err := db.Check(); err != nil {
		t.Fatal(err)
	}
	drawn := "no boards drawn"
	if r != nil {
		drawn = "every board drawn"
	}
	t.Logf("%d games, %d requests in %v, %s; peak heap in use %.1f MB, peak RSS %s",
		games, seq.Load(), elapsed.Round(time.Millisecond), drawn, float64(peak.Load())/1e6, peakRSS())
}

// BenchmarkMoveCommand measures the whole in-process path of a move:
// parse, authorize, replay, play, store with fsync, render.
func BenchmarkMoveCommand(b *testing.B) {
	db, err := OpenTestDB(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	clock := &fakeClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	bot := New(Config{Rules: "japanese", Width: 19, Height: 19}, db, benchRenderer, clock, nil)
	ctx := context.Background()
	newGame := func() {
		bot.Handle(ctx, protocol.Request{User: protocol.User{ID: "b:a", Name: "a"}, Room: "b:r", Command: "challenge", Args: []string{"@b:b", "black"}})
		bot.Handle(ctx, protocol.Request{User: protocol.User{ID: "b:b", Name: "b"}, Room: "b:r", Command: "accept"})
	}
	newGame()
	rng := rand.New(rand.NewPCG(1, 1))
	users := [2]gobot.UserID{"b:a", "b:b"}
	turn := 0
	moves := 0
	var took []time.Duration // per successful move, for the median
	for b.Loop() {
		for {
			began := time.Now()
			p := game.Pt(rng.IntN(19), rng.IntN(19)).GTP(19)
			rep := bot.Handle(ctx, protocol.Request{User: protocol.User{ID: users[turn%2]}, Room: "b:r", Command: "play", Args: []string{p}})
			if !rep.Error {
				if rep.Image == nil && benchRenderer != nil {
					b.Fatal("no image")
				}
				took = append(took, time.Since(began))
				turn++
				moves++
				break
			}
		}
		if moves == 200 { // keep games realistic: about 200 moves, then a new one
			bot.Handle(ctx, protocol.Request{User: protocol.User{ID: users[turn%2]}, Room: "b:r", Command: "resign"})
			newGame()
			moves, turn = 0, 0
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2])/float64(time.Millisecond), "ms/move-median")
}
