package web

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"math/rand/v2"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

// game250 is a 19x19 game with at least 250 stones on the board, from
// random legal moves.
func game250(tb testing.TB) *game.Game {
	tb.Helper()
	rules, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: 19, Height: 19, Rules: rules})
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	stones := func() int {
		n := 0
		b := g.Board()
		for y := range 19 {
			for x := range 19 {
				if b.At(game.Pt(x, y)) != game.Empty {
					n++
				}
			}
		}
		return n
	}
	for tries := 0; stones() < 250; tries++ {
		if tries > 100000 {
			tb.Fatal("could not fill the board")
		}
		g.Play(g.ToMove(), game.Pt(rng.IntN(19), rng.IntN(19))) // illegal ones are skipped
	}
	return g
}

// BenchmarkBoardSVG19: drawing a 19x19 board with 250 stones, and its
// size gzipped as it goes on the wire.
func BenchmarkBoardSVG19(b *testing.B) {
	g := game250(b)
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		boardSVG(&buf, g, nil)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(buf.Bytes())
	zw.Close()
	b.ReportMetric(float64(buf.Len())/1024, "KB")
	b.ReportMetric(float64(z.Len())/1024, "KB-gzip")
}

// BenchmarkLive1000: 1,000 pages of one game open on one process, over
// real HTTP connections on loopback; each iteration is one move, timed
// until every page has its update. Reports the memory the connections
// take (both ends: the clients run in this process too, so it is an
// upper bound for the server) and the time until the last page has it.
func BenchmarkLive1000(b *testing.B) {
	const pages = 1000
	const clientBuf = 64 << 10 // each client's read buffer, counted in the memory below
	h := newHarness(b)
	if r := h.cmd("alice", "challenge", "@console:bob", "19", "black"); r.Error {
		b.Fatal(r.Text)
	}
	r := h.cmd("bob", "accept")
	if r.Error {
		b.Fatal(r.Text)
	}
	id := r.Game
	p := Pass{Game: id, User: "console:carol", Watch: true, Expires: h.now.Now().Add(time.Hour).Unix(), Session: "bench"}
	cookie := &http.Cookie{Name: cookieName(id), Value: h.srv.sign.sign(purposeSession, p)}
	tr := &http.Transport{MaxIdleConnsPerHost: pages, MaxConnsPerHost: 0}
	client := &http.Client{Transport: tr}
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events := make(chan string, pages*4) // one per event received
	var wg sync.WaitGroup
	for range pages {
		req, _ := http.NewRequestWithContext(ctx, "GET", h.ts.URL+gamePath(id)+"/events", nil)
		req.AddCookie(cookie)
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer res.Body.Close()
			r := bufio.NewReaderSize(res.Body, clientBuf) // a line fits: no copy
			for {
				line, err := r.ReadSlice('\n')
				if err != nil {
					return
				}
				if bytes.HasPrefix(line, []byte("id: ")) {
					events <- ""
				}
			}
		}()
	}
	for range pages { // the current state, to each
		<-events
	}
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	var worst time.Duration
	next := 0 // the next point to try, in reading order
	for i := 0; b.Loop(); i++ {
		who := "alice"
		if i%2 == 1 {
			who = "bob"
		}
		start := time.Now()
		for {
			if next >= 19*19 {
				b.Fatal("the board is full: run with -benchtime=100x or fewer")
			}
			p := game.Pt(next%19*2%19, next/19).GTP(19) // spread out: few captures
			next++
			if r := h.cmd(who, "play", p); !r.Error {
				break
			}
		}
		for range pages {
			<-events
		}
		worst = max(worst, time.Since(start))
	}
	b.ReportMetric(float64(worst.Milliseconds()), "ms-slowest-move-to-all")
	b.ReportMetric(float64(after.Sys-before.Sys)/(1<<20), "MB-sys/1000pages")
	heap := float64(after.HeapInuse+after.StackInuse-before.HeapInuse-before.StackInuse) / (1 << 20)
	b.ReportMetric(heap, "MB-heap+stack/1000pages")
	b.ReportMetric(heap-float64(pages*clientBuf)/(1<<20), "MB-without-client-buffers")

	cancel()
	h.ts.CloseClientConnections()
	wg.Wait()
}
