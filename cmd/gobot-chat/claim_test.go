package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// hangingDiscordAPI is fakeDiscordAPI for TestClaimerKilledBeforeSend:
// each process calls it under its own prefix (/p0/, /p1/), and the first
// reminder posted is never answered, as if the process died while
// sending it; the test then kills that process.
type hangingDiscordAPI struct {
	fakeDiscordAPI
	hung     chan int // the process whose reminder hangs
	hangOnce sync.Once
}

func (f *hangingDiscordAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	proc, _ := strconv.Atoi(strings.TrimPrefix(strings.SplitN(r.URL.Path, "/", 3)[1], "p"))
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/messages") {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte("it's your move")) {
			hang := false
			f.hangOnce.Do(func() { hang = true })
			if hang {
				f.hung <- proc
				<-r.Context().Done() // until the process is gone
				return
			}
		}
	}
	f.fakeDiscordAPI.ServeHTTP(w, r)
}

// Two gobot processes on one PostgreSQL database; the one that claims a
// game's reminder is killed (SIGKILL) while sending it. The other sends
// the reminder once the claim expires, and it arrives once; the timeout
// after it too.
func TestClaimerKilledBeforeSend(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two gobot processes and waits for a one-minute clock")
	}
	t.Parallel() // mostly waiting for the clock
	dsn := pgtest.Fresh(t)
	api := &hangingDiscordAPI{fakeDiscordAPI: fakeDiscordAPI{reminders: map[int]int{}, timeouts: map[int]int{}}, hung: make(chan int, 1)}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	s := startProcsAt(t, 2, dsn, func(i int) string { return fmt.Sprintf("%s/p%d/api/v9/", srv.URL, i) },
		"clock:\n  reminders: [20s]\n  tick: 1s\n  claim_ttl: 5s\n")
	g := &scaleGame{k: 0, black: 300000, channel: "claims", stall: true, planned: planMoves(2)}
	g.acked = make([]bool, 2)
	var progress atomic.Int64
	s.play(t, g, 1, &progress)
	if t.Failed() {
		return
	}
	var victim int
	select {
	case victim = <-api.hung:
	case <-time.After(2 * time.Minute):
		t.Fatal("no process sent the reminder")
	}
	p := s.procs[victim]
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()
	killed := time.Now()
	var resent time.Duration
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		api.mu.Lock()
		n, timedOut := api.reminders[1], api.timeouts[1]
		api.mu.Unlock()
		if n > 0 && resent == 0 {
			resent = time.Since(killed)
		}
		if timedOut > 0 || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(3 * time.Second) // a second sending, if any, would come now
	api.mu.Lock()
	defer api.mu.Unlock()
	if api.reminders[1] != 1 || api.timeouts[1] != 1 {
		t.Fatalf("game #1: %d reminders and %d timeout messages arrived, want 1 and 1", api.reminders[1], api.timeouts[1])
	}
	t.Logf("process %d was killed while sending the reminder; the other sent it %v later (claim_ttl 5s, tick 1s)", victim, resent.Round(10*time.Millisecond))
}
