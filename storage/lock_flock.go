//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package storage

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lockShared takes a shared flock on f, as bbolt's read-only open does, so
// no gobot writes the file while Open's check reads it; it waits up to
// timeout (0: for ever) and then fails with errLocked. Closing f releases
// the lock.
func lockShared(f *os.File, timeout time.Duration) error {
	start := time.Now()
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return err
		}
		if timeout != 0 && time.Since(start) > timeout {
			return errLocked
		}
		time.Sleep(50 * time.Millisecond)
	}
}
