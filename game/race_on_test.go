//go:build race

package game

// raceEnabled: the race detector slows the long property tests about
// tenfold; they run fewer cases under it (CI's -race run) and all of
// them without it.
const raceEnabled = true
