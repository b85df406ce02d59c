//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package storage

import (
	"os"
	"time"
)

// lockShared does nothing here: Open's check reads the file unlocked
// (bbolt's own lock, taken next, still keeps two gobots apart).
func lockShared(f *os.File, timeout time.Duration) error { return nil }
