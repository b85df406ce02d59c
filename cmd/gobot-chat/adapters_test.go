package main

import (
	"runtime"
	"testing"

	"github.com/gobotgo/gobot/render"
)

// TestRendererIsBounded: gobot draws boards through a pool of one slot
// per core, not without bound.
func TestRendererIsBounded(t *testing.T) {
	p, ok := newRenderer().(*render.Pool)
	if !ok {
		t.Fatalf("newRenderer returns %T, want a *render.Pool", newRenderer())
	}
	if p.Size() != runtime.GOMAXPROCS(0) {
		t.Errorf("pool of %d, want %d (the cores)", p.Size(), runtime.GOMAXPROCS(0))
	}
}
