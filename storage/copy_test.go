package storage

import (
	"testing"

	"github.com/gobotgo/gobot/storage/storecopy/copytest"
)

// Every kind of record moves from one bbolt file to another.
func TestCopy(t *testing.T) {
	copytest.Run(t, func(t *testing.T) copytest.Store { return mustOpen(t) }, func(t *testing.T) copytest.Store { return mustOpen(t) })
}
