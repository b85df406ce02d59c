package chat

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/render"
)

// TestLoadRendered is the load test with every board drawn by the real
// renderer through a render.Pool of the cores' size, as gobot runs: 6
// games (2 under -short and the race detector; GOBOT_LOAD_GAMES overrides
// it; under those, 160-pixel boards), more games than cores, so renders
// queue. No more renders than
// the pool's size may draw at once. The 1,000-game figures in
// docs/render.md come from
//
//	GOBOT_LOAD_GAMES=1000 go test ./chat -run 'TestLoadRendered$' -v
func TestLoadRendered(t *testing.T) {
	games := loadGames(t, 6, 2)
	r := benchRenderer
	if raceEnabled || testing.Short() {
		// The same code on smaller images: the race detector makes a
		// full-size board cost about 0.4 s.
		r = &render.Renderer{Width: 160, GIFWidth: 160}
	}
	count := &countingRenderer{r: r}
	pool := render.NewPool(count, 0)
	runLoad(t, games, pool)
	count.mu.Lock()
	defer count.mu.Unlock()
	if count.most > pool.Size() || count.calls == 0 {
		t.Errorf("%d renders, at most %d at once; the pool allows %d", count.calls, count.most, pool.Size())
	}
	t.Logf("%d boards drawn, at most %d at once (pool of %d)", count.calls, count.most, pool.Size())
}

// countingRenderer counts calls and how many draw at once.
type countingRenderer struct {
	r Renderer

	mu                  sync.Mutex
	calls, active, most int
}

func (c *countingRenderer) enter() {
	c.mu.Lock()
	c.calls++
	c.active++
	c.most = max(c.most, c.active)
	c.mu.Unlock()
}

func (c *countingRenderer) leave() {
	c.mu.Lock()
	c.active--
	c.mu.Unlock()
}

func (c *countingRenderer) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	c.enter()
	defer c.leave()
	return c.r.Board(w, g, theme, numbers)
}

func (c *countingRenderer) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	c.enter()
	defer c.leave()
	return c.r.Replay(w, g, theme)
}

// resetPeakRSS starts the kernel's count of this process's peak resident
// set (VmHWM) afresh, so a test reads its own peak (Linux: writing 5 to
// /proc/self/clear_refs; elsewhere nothing happens).
func resetPeakRSS() {
	os.WriteFile("/proc/self/clear_refs", []byte("5"), 0)
}

// peakRSS reads VmHWM from /proc/self/status ("unknown" where there is
// none), with the Go runtime's view of the same moment.
func peakRSS() string {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "unknown"
	}
	for _, line := range bytes.Split(raw, []byte("\n")) {
		if rest, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(string(rest)), " kB"))
			if err != nil {
				break
			}
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			return fmt.Sprintf("%.1f MB (VmHWM; Go runtime now holds %.1f MB from the OS)", float64(kb)/1e3, float64(ms.Sys-ms.HeapReleased)/1e6)
		}
	}
	return "unknown"
}
