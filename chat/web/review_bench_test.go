package web

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// BenchmarkReviewFollowers: 200 followers of one review on one process,
// each on its own session and live stream over real HTTP on loopback;
// each iteration is one navigation by the controller, timed from its
// POST until every follower's stream has shown the new position. It
// reports the slowest follower's latency per navigation (max-ms) and
// the median navigation's (p50-ms); docs/review.md has the numbers.
//
//	go test ./chat/web -run XXX -bench ReviewFollowers -benchtime 50x
func BenchmarkReviewFollowers(b *testing.B) {
	const followers = 200
	h := newHarness(b)
	g := game250(b)
	tree, err := game.TreeFromRecord(g.Record(), game.GameInfo{})
	if err != nil {
		b.Fatal(err)
	}
	if err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutReview(gobot.NewReview(h.room, "console:alice", "a 19x19 game", tree, h.now.Now()))
	}); err != nil {
		b.Fatal(err)
	}
	alice := h.openReview(1, "alice")
	tr := &http.Transport{MaxIdleConnsPerHost: followers + 10}
	defer tr.CloseIdleConnections()
	type seen struct {
		node int
		at   time.Time
	}
	arrivals := make(chan seen, followers*16)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer func() { cancel(); wg.Wait() }()
	for i := range followers {
		jar, _ := cookiejar.New(nil)
		// The link's two steps, up to its session cookie; not the page.
		c := &http.Client{Jar: jar, Transport: tr, CheckRedirect: func(r *http.Request, _ []*http.Request) error {
			if r.URL.Path == reviewPath(1) {
				return http.ErrUseLastResponse
			}
			return nil
		}}
		link := h.reviewLink(1, fmt.Sprintf("f%03d", i))
		res, err := c.Get(link)
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		req, _ := http.NewRequestWithContext(ctx, "GET", h.ts.URL+reviewPath(1)+"/events?v=0", nil)
		res, err = c.Do(req)
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("follower %d's stream: %v %v", i, err, res)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer res.Body.Close()
			r := bufio.NewReader(res.Body)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if d, ok := strings.CutPrefix(line, "data: "); ok {
					_, rest, _ := strings.Cut(d, `"node":`)
					n, _ := strconv.Atoi(rest[:strings.IndexByte(rest, ',')])
					select {
					case arrivals <- seen{n, time.Now()}:
					case <-ctx.Done():
						return
					}
				}
			}
		}()
	}
	h.waitReview(1, "with every follower present", func(r *gobot.Review) bool { return len(r.Present) == followers })
	main := tree.MainLine()
	// navigate moves the controller to target and returns how long until
	// the last follower saw it.
	navigate := func(target int) time.Duration {
		start := time.Now()
		if code, msg, _ := alice.act(url.Values{"action": {"goto"}, "node": {strconv.Itoa(target)}}); code != 200 || msg != "" {
			b.Fatalf("goto: %d %q", code, msg)
		}
		var last time.Time
		for got := 0; got < followers; {
			a := <-arrivals
			if a.node == target {
				got++
				last = a.at
			}
		}
		return last.Sub(start)
	}
	// Untimed: the streams catch up with the 200 joins first.
	navigate(main[len(main)-1])
	sn, _ := h.srv.reviewSnapshot(context.Background(), 1)
	var lat []time.Duration
	step := 0
	for b.Loop() {
		step++
		lat = append(lat, navigate(main[1+step%(len(main)-2)]))
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
	b.ReportMetric(followers, "followers")
	b.ReportMetric(float64(len(sn.json))/1024, "KB/event")
}
