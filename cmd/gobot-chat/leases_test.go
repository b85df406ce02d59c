package main

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(within); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not within %v: %s", within, what)
		}
	}
}

// On a shared store one process runs the Matrix sync loop and has the
// Matrix notifier; another stands by without it and takes over when the
// lease expires (its holder died) or is given up (its holder stopped).
func TestMatrixSyncLease(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a lease to expire")
	}
	t.Parallel() // mostly waiting for clocks and leases
	dsn := pgtest.Fresh(t)
	pg, err := postgres.Open(context.Background(), dsn, postgres.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pg.Close() })
	store := &openedStore{Store: pg, pg: pg, where: pg.String(), dir: t.TempDir()}
	// A homeserver that never answers: the adapter stays logging in, which
	// is enough to hold the lease and the notifier.
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hs.Close)
	mc := matrix.Config{Homeserver: hs.URL, UserID: "@gobot:example.org", AccessToken: "tok"}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	name := "matrix:sync:" + mc.UserID
	leaseTTL := StorageConfig{}.leaseTTL()

	// A holder that died a moment ago: its lease runs out in 2 s.
	if ok, err := gobot.AcquireLease(context.Background(), store, name, "dead:1:x", 2*time.Second, time.Now()); !ok || err != nil {
		t.Fatalf("a lease for the dead holder: %v %v", ok, err)
	}
	bot1 := chat.New(chat.Config{}, store, nil, nil, log)
	run1, err := matrixRunner(mc, bot1, store, leaseTTL, log)
	if err != nil {
		t.Fatal(err)
	}
	if bot1.CanDeliver(matrix.Platform) {
		t.Fatal("the Matrix notifier is set before the lease is held")
	}
	ctx1, stop1 := context.WithCancel(context.Background())
	done1 := make(chan error, 1)
	go func() { done1 <- run1(ctx1) }()
	t.Cleanup(stop1)
	waitFor(t, "process 1 takes over the dead holder's lease", leaseTTL, func() bool { return bot1.CanDeliver(matrix.Platform) })
	holder1, _, err := gobot.LeaseHolder(context.Background(), store, name, time.Now())
	if err != nil || holder1 == "" || holder1 == "dead:1:x" {
		t.Fatalf("lease holder %q, %v", holder1, err)
	}

	bot2 := chat.New(chat.Config{}, store, nil, nil, log)
	run2, err := matrixRunner(mc, bot2, store, leaseTTL, log)
	if err != nil {
		t.Fatal(err)
	}
	ctx2, stop2 := context.WithCancel(context.Background())
	done2 := make(chan error, 1)
	go func() { done2 <- run2(ctx2) }()
	t.Cleanup(stop2)
	time.Sleep(leaseTTL / 3) // a renewal round of both
	if bot2.CanDeliver(matrix.Platform) {
		t.Fatal("the standby process has the Matrix notifier while another holds the lease")
	}
	if h, _, _ := gobot.LeaseHolder(context.Background(), store, name, time.Now()); h != holder1 {
		t.Fatalf("lease holder %q, want %q still", h, holder1)
	}

	stop1()
	select {
	case err := <-done1:
		if err != nil {
			t.Fatalf("process 1 stopping: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("process 1 did not stop")
	}
	if bot1.CanDeliver(matrix.Platform) {
		t.Fatal("a stopped process keeps the Matrix notifier")
	}
	waitFor(t, "the standby takes over", leaseTTL/3+5*time.Second, func() bool { return bot2.CanDeliver(matrix.Platform) })
	stop2()
	<-done2
}
