package postgres

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

func twoStores(t *testing.T) (*Store, *Store) {
	a, dsn := mustOpen(t)
	b, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return a, b
}

func TestLeaseHasOneHolderAcrossProcesses(t *testing.T) {
	a, b := twoStores(t)
	now := time.Now()
	var wins atomic.Int64
	var winner atomic.Value
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, holder := a, "a"
			if i%2 == 1 {
				s, holder = b, "b"
			}
			holder += string(rune('0' + i))
			ok, err := gobot.AcquireLease(ctx, s, "matrix:sync:@bot:x", holder, 20*time.Second, now)
			if err != nil {
				t.Error(err)
			}
			if ok {
				wins.Add(1)
				winner.Store(holder)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 {
		t.Fatalf("%d holders of one lease, want 1", wins.Load())
	}
	h := winner.Load().(string)
	// The holder renews; others cannot take it before it expires...
	if ok, _ := gobot.AcquireLease(ctx, b, "matrix:sync:@bot:x", h, 20*time.Second, now.Add(10*time.Second)); !ok {
		t.Fatal("the holder could not renew")
	}
	if ok, _ := gobot.AcquireLease(ctx, a, "matrix:sync:@bot:x", "other", 20*time.Second, now.Add(29*time.Second)); ok {
		t.Fatal("another process took a renewed lease before it expired")
	}
	// ...and take it once it has (the holder died).
	if ok, _ := gobot.AcquireLease(ctx, a, "matrix:sync:@bot:x", "other", 20*time.Second, now.Add(31*time.Second)); !ok {
		t.Fatal("an expired lease was not taken over")
	}
	// A release hands it over at once.
	if err := gobot.ReleaseLease(ctx, a, "matrix:sync:@bot:x", "other"); err != nil {
		t.Fatal(err)
	}
	if ok, _ := gobot.AcquireLease(ctx, b, "matrix:sync:@bot:x", "third", 20*time.Second, now.Add(32*time.Second)); !ok {
		t.Fatal("a released lease was not free")
	}
}

// HoldLease: a standby process starts its work only when the holder stops,
// and a holder whose lease is taken has its work cancelled.
func TestHoldLeaseFailover(t *testing.T) {
	a, b := twoStores(t)
	ttl := 900 * time.Millisecond
	var running atomic.Int64
	var maxRunning atomic.Int64
	work := func(name string, started chan<- string) func(context.Context) error {
		return func(ctx context.Context) error {
			if n := running.Add(1); n > maxRunning.Load() {
				maxRunning.Store(n)
			}
			started <- name
			<-ctx.Done()
			running.Add(-1)
			return nil
		}
	}
	started := make(chan string, 4)
	actx, stopA := context.WithCancel(ctx)
	aDone := make(chan error, 1)
	go func() {
		aDone <- gobot.HoldLease(actx, a, "shard:0/1", "A", ttl, time.Now, nil, work("A", started))
	}()
	if got := <-started; got != "A" {
		t.Fatalf("first to start: %s", got)
	}
	var standby atomic.Value
	bctx, stopB := context.WithCancel(ctx)
	defer stopB()
	bDone := make(chan error, 1)
	go func() {
		bDone <- gobot.HoldLease(bctx, b, "shard:0/1", "B", ttl, time.Now, func(h string) { standby.Store(h) }, work("B", started))
	}()
	time.Sleep(2 * ttl)
	if len(started) != 0 {
		t.Fatal("the standby started while the holder runs")
	}
	if h, _ := standby.Load().(string); h != "A" {
		t.Fatalf("standby saw holder %q, want A", h)
	}
	stopA()
	<-aDone
	select {
	case got := <-started:
		if got != "B" {
			t.Fatalf("after A stopped, %s started", got)
		}
	case <-time.After(5 * ttl):
		t.Fatal("the standby did not take over")
	}
	// Someone else takes the lease by force (as after B's clock stalled):
	// B's work is cancelled and HoldLease says so.
	if ok, err := gobot.AcquireLease(ctx, a, "shard:0/1", "C", 10*ttl, time.Now()); err != nil || ok {
		t.Fatalf("take of a held lease: %v %v, want refused", ok, err)
	}
	a.pool.Exec(ctx, "DELETE FROM state WHERE ns = 'lease'")
	if ok, _ := gobot.AcquireLease(ctx, a, "shard:0/1", "C", 10*ttl, time.Now()); !ok {
		t.Fatal("could not take the freed lease")
	}
	select {
	case err := <-bDone:
		if !errors.Is(err, gobot.ErrLeaseLost) {
			t.Fatalf("B's HoldLease: %v, want ErrLeaseLost", err)
		}
	case <-time.After(5 * ttl):
		t.Fatal("B kept working after losing the lease")
	}
	if maxRunning.Load() != 1 {
		t.Fatalf("%d workers ran at once", maxRunning.Load())
	}
}

// A process keeps writing under its term of a lease while another
// process takes the lease over: once the takeover has committed, not one
// more write under the old term commits (the term is checked in each
// write's own SERIALIZABLE transaction), though the writer never
// learned that it lost the lease.
func TestFencedWritesStopAtTakeover(t *testing.T) {
	a, b := twoStores(t)
	now := time.Now()
	old, ok, err := gobot.TakeLease(ctx, a, "matrix:sync:@bot:x", "old", time.Second, now)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	// The bot's state writes check the term its ctx carries.
	state := gobot.StoreState(a)
	fenced := gobot.WithFence(ctx, old)
	var committed, lateCommits atomic.Int64
	var lostSeen, takenOver atomic.Bool
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				late := takenOver.Load() // begun after the takeover committed
				err := state.PutState(fenced, "matrix", map[string][]byte{"pos": []byte{byte(w), byte(i)}})
				switch {
				case err == nil:
					committed.Add(1)
					if late {
						lateCommits.Add(1)
					}
				case errors.Is(err, gobot.ErrLeaseLost):
					lostSeen.Store(true)
				default:
					t.Error(err)
					return
				}
			}
		}()
	}
	for committed.Load() < 20 {
		time.Sleep(5 * time.Millisecond)
	}
	if _, ok, err := gobot.TakeLease(ctx, b, "matrix:sync:@bot:x", "new", time.Second, now.Add(2*time.Second)); err != nil || !ok {
		t.Fatal(ok, err)
	}
	takenOver.Store(true)
	atTakeover := committed.Load()
	time.Sleep(300 * time.Millisecond)
	close(stop)
	wg.Wait()
	if n := lateCommits.Load(); n != 0 || !lostSeen.Load() {
		t.Fatalf("%d writes under the old term begun after the takeover committed (refusals seen: %v)", n, lostSeen.Load())
	}
	t.Logf("about %d writes under the old term before the takeover, none after", atTakeover)
}
