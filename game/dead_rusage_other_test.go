//go:build !unix

package game

// cpuSeconds is not measured here; benchmarks report 0.
func cpuSeconds() float64 { return 0 }
