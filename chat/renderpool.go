package chat

import (
	"io"
	"runtime"
	"sync"

	"github.com/gobotgo/gobot/game"
)

// RenderPool is a Renderer that draws at most n boards (or replays) at
// once, n being the number of cores by default: drawing is CPU-bound, so
// more at once only adds memory (each draw holds an image) and makes
// every player wait longer. Calls beyond n wait their turn in the order
// they came (first in, first out), so the renders that commands ask for
// start in the order the commands asked, and none waits for ever behind
// later ones. It is safe for concurrent use.
type RenderPool struct {
	r Renderer
	n int

	mu      sync.Mutex
	running int
	queue   []chan struct{} // waiting calls, first come first
}

// NewRenderPool wraps r so that at most n calls draw at once (n < 1:
// runtime.GOMAXPROCS(0), the cores Go uses).
func NewRenderPool(r Renderer, n int) *RenderPool {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return &RenderPool{r: r, n: n}
}

// Size is how many renders may run at once.
func (p *RenderPool) Size() int { return p.n }

// Board draws g's position with the wrapped renderer, in its turn.
func (p *RenderPool) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	p.acquire()
	defer p.release()
	return p.r.Board(w, g, theme, numbers)
}

// Replay draws g's replay with the wrapped renderer, in its turn.
func (p *RenderPool) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	p.acquire()
	defer p.release()
	return p.r.Replay(w, g, theme)
}

// acquire returns when the call may draw: at once if fewer than n draw
// and nobody waits, else when the calls queued before it have started
// and a draw has finished.
func (p *RenderPool) acquire() {
	p.mu.Lock()
	if p.running < p.n && len(p.queue) == 0 {
		p.running++
		p.mu.Unlock()
		return
	}
	turn := make(chan struct{})
	p.queue = append(p.queue, turn)
	p.mu.Unlock()
	<-turn // release handed its slot over: running was not decremented
}

// release hands the slot to the first waiting call, or frees it.
func (p *RenderPool) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		p.running--
		return
	}
	next := p.queue[0]
	p.queue[0] = nil
	p.queue = p.queue[1:]
	close(next)
}

// waiting is how many calls wait their turn (for tests).
func (p *RenderPool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}
