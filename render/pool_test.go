package render

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
)

// gateRenderer records the order in which calls start drawing (by their
// theme) and how many draw at once, and lets each finish only when the
// test sends on release.
type gateRenderer struct {
	release chan struct{}

	mu      sync.Mutex
	started []string
	active  int
	most    int
}

func (r *gateRenderer) draw(label string) (int, int, error) {
	r.mu.Lock()
	r.started = append(r.started, label)
	r.active++
	r.most = max(r.most, r.active)
	r.mu.Unlock()
	<-r.release
	r.mu.Lock()
	r.active--
	r.mu.Unlock()
	if label == "fails" {
		return 0, 0, errors.New("drawing failed")
	}
	return 1, 1, nil
}

func (r *gateRenderer) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	return r.draw(theme)
}

func (r *gateRenderer) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	return r.draw(theme)
}

func (r *gateRenderer) snapshot() ([]string, int, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.started), r.active, r.most
}

// waitFor polls cond (the pool's state changes in other goroutines).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestPoolBoundsAndOrder: with two slots, two calls draw at once;
// the others wait and start in the order they came, whether they draw a
// board or a replay, and a failed draw frees its slot too.
func TestPoolBoundsAndOrder(t *testing.T) {
	gate := &gateRenderer{release: make(chan struct{})}
	pool := NewPool(gate, 2)
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: mustPreset(t)})
	var wg sync.WaitGroup
	errs := make(chan error, 10)
	call := func(label string, replay bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if replay {
				_, _, err = pool.Replay(io.Discard, g, label)
			} else {
				_, _, err = pool.Board(io.Discard, g, label, 0)
			}
			if (err != nil) != (label == "fails") {
				errs <- err
			}
		}()
	}
	call("a", false)
	call("fails", true)
	waitFor(t, "two draws", func() bool { _, active, _ := gate.snapshot(); return active == 2 })
	// Each next call is queued before the one after it is made.
	for i, label := range []string{"c", "d", "e", "f"} {
		call(label, i%2 == 1)
		waitFor(t, label+" to queue", func() bool { return pool.waiting() == i+1 })
	}
	if started, _, _ := gate.snapshot(); len(started) != 2 {
		t.Fatalf("started %v while two draw", started)
	}
	// One draw ends at a time, and the next waiting call takes its slot
	// (two released together would start two calls at once, in either
	// order).
	for i := range 6 {
		gate.release <- struct{}{}
		want := min(3+i, 6)
		waitFor(t, "the next call to start", func() bool { started, _, _ := gate.snapshot(); return len(started) == want })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Errorf("unexpected result: %v", err)
	}
	started, active, most := gate.snapshot()
	if most != 2 || active != 0 {
		t.Errorf("at most %d drew at once (want 2), %d still drawing", most, active)
	}
	if !slices.Equal(started[2:], []string{"c", "d", "e", "f"}) {
		t.Errorf("the waiting calls started in the order %v, want c d e f", started[2:])
	}
	if pool.waiting() != 0 {
		t.Errorf("%d still waiting", pool.waiting())
	}
	// With the pool idle, a call draws at once.
	done := make(chan struct{})
	go func() { pool.Board(io.Discard, g, "g", 0); close(done) }()
	waitFor(t, "an idle pool to draw", func() bool { _, active, _ := gate.snapshot(); return active == 1 })
	gate.release <- struct{}{}
	<-done
}

func TestPoolSize(t *testing.T) {
	if p := NewPool(nil, 0); p.Size() < 1 {
		t.Errorf("default size %d", p.Size())
	}
	if p := NewPool(nil, 3); p.Size() != 3 {
		t.Errorf("size %d, want 3", p.Size())
	}
}

// TestPoolDrawsTheSame: through the pool the real renderer writes
// the same bytes as without it.
func TestPoolDrawsTheSame(t *testing.T) {
	g, _ := game.New(game.Config{Width: 9, Height: 9, Rules: mustPreset(t)})
	g.Play(game.Black, game.Pt(2, 2))
	var direct, pooled bytes.Buffer
	r := &Renderer{Width: 200}
	w1, h1, err1 := r.Board(&direct, g, "", 1)
	w2, h2, err2 := NewPool(r, 1).Board(&pooled, g, "", 1)
	if err1 != nil || err2 != nil || w1 != w2 || h1 != h2 || !bytes.Equal(direct.Bytes(), pooled.Bytes()) {
		t.Fatalf("direct %dx%d %v, pooled %dx%d %v, same bytes %v", w1, h1, err1, w2, h2, err2, bytes.Equal(direct.Bytes(), pooled.Bytes()))
	}
}

func mustPreset(t *testing.T) game.Rules {
	t.Helper()
	r, err := game.Preset("japanese")
	if err != nil {
		t.Fatal(err)
	}
	return r
}
