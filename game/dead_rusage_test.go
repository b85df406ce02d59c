//go:build unix

package game

import "syscall"

// cpuSeconds is the CPU time the process has used (user + system), for
// benchmarks that report CPU time per operation next to wall time: on a
// shared machine wall time says more about the neighbours.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
