package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// timeoutClockAPI is the fake Discord API that also notes when each
// game's first "ran out of time" message arrived.
type timeoutClockAPI struct {
	fakeDiscordAPI
	mu sync.Mutex
	at map[int]time.Time
}

func (f *timeoutClockAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	body, _ := io.ReadAll(r.Body)
	if bytes.Contains(body, []byte("ran out of time")) {
		if m := gameNumber.FindSubmatch(body); m != nil {
			n, _ := strconv.Atoi(string(m[1]))
			f.mu.Lock()
			if _, ok := f.at[n]; !ok {
				f.at[n] = now
			}
			f.mu.Unlock()
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	f.fakeDiscordAPI.ServeHTTP(w, r)
}

// procCPU is the CPU time (user + system) process pid has used, from
// /proc/PID/stat (clock ticks of 10 ms: Linux's USER_HZ of 100).
func procCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:]) // f[0] is field 3, state
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, s)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond, nil
}

// BenchmarkLiveTimeoutsTwoProcesses (issue 38, section 2): 500 live
// games with a 10-second byo-yomi period (after 30 s of main time) on two
// `gobot run` processes sharing one PostgreSQL database (default config:
// the 30 s tick, woken at the next deadline), in real time. The games are
// started through a bot of the benchmark's own on the same database (as a
// third process would); the two processes only run the clocks and send
// the timeouts to a fake Discord API. It reports how late each loss on
// time was decided (p50, p99, max: Match.Finished, the time the clock job
// ran in its transaction, minus Match.Deadline) and announced (the
// message's arrival at the fake API, after the commit), and the CPU both
// processes used together while the timeouts ran and then over 30 s of
// idle ticking, as a share of one core. Every game must end once: a
// loss on time stored, one game per channel, one timeout message.
// Needs GOBOT_TEST_POSTGRES_DSN; run it alone, with -benchtime 1x:
//
//	go test ./cmd/gobot/ -run XXX -bench LiveTimeoutsTwoProcesses -benchtime 1x
func BenchmarkLiveTimeoutsTwoProcesses(b *testing.B) {
	if os.Getenv("GOBOT_TEST_POSTGRES_DSN") == "" {
		b.Skip("GOBOT_TEST_POSTGRES_DSN is not set: this benchmark runs on a shared PostgreSQL")
	}
	const games = 500
	const idle = 30 * time.Second
	for range b.N {
		dsn := pgtest.Fresh(b)
		api := &timeoutClockAPI{fakeDiscordAPI: fakeDiscordAPI{reminders: map[int]int{}, timeouts: map[int]int{}}, at: map[int]time.Time{}}
		srv := httptest.NewServer(api)
		s := startProcs(b, 2, dsn, srv.URL, "")
		ctx := context.Background()
		pg, err := postgres.Open(ctx, dsn, postgres.Options{})
		if err != nil {
			b.Fatal(err)
		}
		bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, pg, nil, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
		seq := 0
		do := func(user int, room, line string, args ...string) protocol.Reply {
			seq++
			r := protocol.Request{User: protocol.User{ID: gobot.UserID(fmt.Sprintf("discord:%d", user)), Name: fmt.Sprintf("p%d", user)},
				Room: gobot.RoomID(room), EventID: gobot.EventID(fmt.Sprintf("bench:%d", seq)), Command: line, Args: args, Platform: &protocol.Platform{Name: "discord", PrivateReplies: true}}
			return bot.Handle(ctx, r)
		}
		start := time.Now()
		for k := range games {
			room := fmt.Sprintf("discord:l%d", k)
			black := 300000 + 2*k
			if rep := do(black, room, "challenge", fmt.Sprintf("@discord:%d", black+1), "black", "clock=byoyomi:30s+1x10s"); rep.Error {
				b.Fatal(rep.Text)
			}
			if rep := do(black+1, room, "accept"); rep.Error {
				b.Fatal(rep.Text)
			}
		}
		b.ReportMetric(time.Since(start).Seconds(), "s-to-start")
		if time.Since(start) > 30*time.Second {
			b.Logf("starting the games took %v: the first deadlines fell while the rest were started", time.Since(start))
		}
		matches := func() []*gobot.Match {
			var out []*gobot.Match
			if err := pg.View(ctx, func(tx gobot.Tx) error {
				for k := range games {
					ms, err := tx.RoomGames(gobot.RoomID(fmt.Sprintf("discord:l%d", k)), false)
					if err != nil {
						return err
					}
					if len(ms) != 1 {
						return fmt.Errorf("channel l%d: %d games, want 1", k, len(ms))
					}
					out = append(out, ms[0])
				}
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			return out
		}
		deadline := map[gobot.GameID]time.Time{}
		var last time.Time
		for _, m := range matches() {
			if m.Deadline.IsZero() || !m.Active() {
				b.Fatalf("game #%d: no deadline (%v) or over (%q)", m.ID, m.Deadline, m.Result)
			}
			deadline[m.ID] = m.Deadline
			if m.Deadline.After(last) {
				last = m.Deadline
			}
		}
		cpuAll := func() time.Duration {
			var sum time.Duration
			for _, p := range s.procs {
				c, err := procCPU(p.cmd.Process.Pid)
				if err != nil {
					b.Fatal(err)
				}
				sum += c
			}
			return sum
		}
		cpu0, wall0 := cpuAll(), time.Now()
		for {
			api.mu.Lock()
			n := len(api.at)
			api.mu.Unlock()
			if n == games {
				break
			}
			if time.Now().After(last.Add(2 * time.Minute)) {
				b.Fatalf("%d of %d timeouts announced two minutes after the last deadline", n, games)
			}
			time.Sleep(50 * time.Millisecond)
		}
		cpu1, wall1 := cpuAll(), time.Now()
		time.Sleep(idle) // no deadline left: the processes only tick
		cpu2, wall2 := cpuAll(), time.Now()
		share := func(c time.Duration, w time.Duration) float64 { return 100 * float64(c) / float64(w) }

		var decided, announced []time.Duration
		type byDeadline struct {
			at   time.Time
			late time.Duration
		}
		var order []byDeadline
		api.mu.Lock()
		api.fakeDiscordAPI.mu.Lock()
		for _, m := range matches() {
			id := int(m.ID)
			if m.Result != "B+T" && m.Result != "W+T" {
				b.Errorf("game #%d: result %q, want a loss on time", id, m.Result)
				continue
			}
			if c := api.timeouts[id]; c != 1 {
				b.Errorf("game #%d: %d timeout messages, want 1", id, c)
			}
			decided = append(decided, m.Finished.Sub(deadline[m.ID]))
			order = append(order, byDeadline{deadline[m.ID], m.Finished.Sub(deadline[m.ID])})
			announced = append(announced, api.at[id].Sub(deadline[m.ID]))
		}
		api.fakeDiscordAPI.mu.Unlock()
		api.mu.Unlock()
		pg.Close()
		srv.Close()
		if b.Failed() {
			return
		}
		for _, d := range decided {
			if d < 0 {
				b.Fatalf("a game lost on time %v before its deadline", -d)
			}
		}
		// Whether the lateness builds up while the deadlines come (a
		// backlog) or is the same throughout: the first and last 100.
		slices.SortFunc(order, func(x, y byDeadline) int { return x.at.Compare(y.at) })
		median := func(xs []byDeadline) time.Duration {
			ds := make([]time.Duration, len(xs))
			for i, x := range xs {
				ds[i] = x.late
			}
			slices.Sort(ds)
			return ds[len(ds)/2]
		}
		b.Logf("deadlines spread over %v; median lateness of the first 100 deadlines %v, of the last 100 %v",
			order[len(order)-1].at.Sub(order[0].at).Round(time.Millisecond), median(order[:100]).Round(time.Millisecond), median(order[len(order)-100:]).Round(time.Millisecond))
		slices.Sort(decided)
		slices.Sort(announced)
		ms := func(d time.Duration) float64 { return float64(d) / 1e6 }
		b.ReportMetric(ms(decided[len(decided)/2]), "p50-late-ms")
		b.ReportMetric(ms(decided[len(decided)*99/100]), "p99-late-ms")
		b.ReportMetric(ms(decided[len(decided)-1]), "max-late-ms")
		b.ReportMetric(ms(announced[len(announced)/2]), "p50-sent-ms")
		b.ReportMetric(ms(announced[len(announced)*99/100]), "p99-sent-ms")
		b.ReportMetric(ms(announced[len(announced)-1]), "max-sent-ms")
		b.ReportMetric(share(cpu1-cpu0, wall1.Sub(wall0)), "cpu%-timeouts")
		b.ReportMetric(share(cpu2-cpu1, wall2.Sub(wall1)), "cpu%-idle")
	}
}
