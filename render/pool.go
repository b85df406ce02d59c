package render

import (
	"github.com/gobotgo/gobot/tournament"
	"io"
	"runtime"
	"sync"

	"github.com/gobotgo/gobot/game"
)

// Drawer draws boards and replays: *Renderer, or a Pool around one (it
// is chat's Renderer port).
type Drawer interface {
	Board(w io.Writer, g *game.Game, theme string, numbers int) (width, height int, err error)
	Replay(w io.Writer, g *game.Game, theme string) (width, height int, err error)
}

// Pool is a Drawer that draws at most n boards (or replays) at
// once, n being the number of cores by default: drawing is CPU-bound, so
// more at once only adds memory (each draw holds an image) and makes
// every player wait longer. Calls beyond n wait their turn in the order
// they came (first in, first out), so the renders that commands ask for
// start in the order the commands asked, and none waits for ever behind
// later ones. It is safe for concurrent use.
type Pool struct {
	r Drawer
	n int

	mu      sync.Mutex
	running int
	queue   []chan struct{} // waiting calls, first come first
}

// NewPool wraps r so that at most n calls draw at once (n < 1:
// runtime.GOMAXPROCS(0), the cores Go uses).
func NewPool(r Drawer, n int) *Pool {
	if n < 1 {
		n = runtime.GOMAXPROCS(0)
	}
	return &Pool{r: r, n: n}
}

// Size is how many renders may run at once.
func (p *Pool) Size() int { return p.n }

// Board draws g's position with the wrapped renderer, in its turn.
func (p *Pool) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	p.acquire()
	defer p.release()
	return p.r.Board(w, g, theme, numbers)
}

// BoardVotes draws g's position with its votes marked, in its turn; a
// wrapped renderer that cannot mark votes draws the plain board.
func (p *Pool) BoardVotes(w io.Writer, g *game.Game, theme string, votes map[game.Point]int) (int, int, error) {
	p.acquire()
	defer p.release()
	if vr, ok := p.r.(interface {
		BoardVotes(io.Writer, *game.Game, string, map[game.Point]int) (int, int, error)
	}); ok {
		return vr.BoardVotes(w, g, theme, votes)
	}
	return p.r.Board(w, g, theme, 0)
}

// Standings draws a tournament's standings table, in its turn.
func (p *Pool) Standings(w io.Writer, t *tournament.Tournament, after int, title, theme string) (int, int, error) {
	p.acquire()
	defer p.release()
	if tr, ok := p.r.(interface {
		Standings(io.Writer, *tournament.Tournament, int, string, string) (int, int, error)
	}); ok {
		return tr.Standings(w, t, after, title, theme)
	}
	return StandingsPNG(w, t, after, TableOptions{Theme: theme, Title: title})
}

// Ladder draws a ladder's table, in its turn.
func (p *Pool) Ladder(w io.Writer, l *tournament.Ladder, name func(tournament.PlayerID) string, rows int, title, theme string) (int, int, error) {
	p.acquire()
	defer p.release()
	if lr, ok := p.r.(interface {
		Ladder(io.Writer, *tournament.Ladder, func(tournament.PlayerID) string, int, string, string) (int, int, error)
	}); ok {
		return lr.Ladder(w, l, name, rows, title, theme)
	}
	return LadderPNG(w, l, name, TableOptions{Theme: theme, Title: title, Rows: rows})
}

// Replay draws g's replay with the wrapped renderer, in its turn.
func (p *Pool) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	p.acquire()
	defer p.release()
	return p.r.Replay(w, g, theme)
}

// acquire returns when the call may draw: at once if fewer than n draw
// and nobody waits, else when the calls queued before it have started
// and a draw has finished.
func (p *Pool) acquire() {
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
func (p *Pool) release() {
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
func (p *Pool) waiting() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.queue)
}
