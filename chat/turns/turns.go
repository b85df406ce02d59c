// Package turns runs background work one piece at a time per game in
// this process — an engine's turns, which chat starts off the runner's
// tick or after a command. Work for a game whose work already runs is
// not started twice; Stop cancels what runs and waits for it.
package turns

import (
	"context"
	"sync"

	"github.com/gobotgo/gobot"
)

// Runner is the work running per game. Its zero value starts nothing
// until Open.
type Runner struct {
	mu      sync.Mutex
	running map[gobot.GameID]bool
	wg      sync.WaitGroup
	ctx     context.Context // ends with Stop
	cancel  context.CancelFunc
}

// Open lets r start work, until Stop; opening it again changes nothing.
func (r *Runner) Open() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ctx == nil {
		r.ctx, r.cancel = context.WithCancel(context.Background())
	}
}

// Start runs work for game id in the background, and again for as long
// as it reports more work followed, unless work for id runs already or
// r is not open (or stopped). work's context ends with Stop.
func (r *Runner) Start(id gobot.GameID, work func(ctx context.Context) (again bool)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.running == nil {
		r.running = map[gobot.GameID]bool{}
	}
	if r.running[id] || r.ctx == nil || r.ctx.Err() != nil {
		return
	}
	ctx := r.ctx
	r.running[id] = true
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		for work(ctx) {
		}
		r.mu.Lock()
		delete(r.running, id)
		r.mu.Unlock()
	}()
}

// Wait waits until the work started so far is done.
func (r *Runner) Wait() { r.wg.Wait() }

// Stop cancels the work in progress and waits for it; r starts nothing
// after.
func (r *Runner) Stop() {
	r.mu.Lock()
	if r.cancel != nil {
		r.cancel()
	}
	r.mu.Unlock()
	r.wg.Wait()
}
