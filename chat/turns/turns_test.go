package turns

import (
	"context"
	"sync/atomic"
	"testing"
)

// Work for a game runs once at a time, again while it says more
// followed; a second Start while it runs starts nothing; a runner not
// open, or stopped, starts nothing; Stop ends the work's context.
func TestRunner(t *testing.T) {
	var r Runner
	var runs atomic.Int32
	r.Start(1, func(context.Context) bool { runs.Add(1); return false })
	r.Wait()
	if n := runs.Load(); n != 0 {
		t.Fatalf("a runner not open ran work %d times", n)
	}
	r.Open()
	release, started := make(chan struct{}), make(chan struct{})
	left := 3 // the work says more followed twice
	r.Start(7, func(context.Context) bool {
		if runs.Add(1) == 1 {
			close(started)
			<-release
		}
		left--
		return left > 0
	})
	<-started
	r.Start(7, func(context.Context) bool { t.Error("game 7's work started twice"); return false })
	other := make(chan struct{})
	r.Start(8, func(context.Context) bool { close(other); return false }) // another game runs beside it
	<-other
	close(release)
	r.Wait()
	if n := runs.Load(); n != 3 {
		t.Errorf("game 7's work ran %d times, want 3", n)
	}
	ended := make(chan struct{})
	r.Start(7, func(ctx context.Context) bool { <-ctx.Done(); close(ended); return false })
	r.Stop()
	<-ended
	r.Start(9, func(context.Context) bool { t.Error("a stopped runner started work"); return false })
	r.Wait()
}
