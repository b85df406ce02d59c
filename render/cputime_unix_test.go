//go:build unix

package render

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used: a
// benchmark's share of a busy machine's cores does not change it much.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
