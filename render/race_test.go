//go:build race

package render

// raceEnabled: the race detector makes sync.Pool drop some of what is
// put back, so allocation counts mean nothing.
const raceEnabled = true
