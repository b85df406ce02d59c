// Command rookreplay is `gobot sgf replay` done with rooklift/sgf, for the
// whole-process comparison in docs/sgf.md: it loads every game of every
// file, plays its main line with rooklift's legality checks and prints
// the final position and the captures.
package main

import (
	"bufio"
	"fmt"
	"os"

	"github.com/gobotgo/gobot/bench/rooklift"
	"github.com/rooklift/sgf"
)

func main() {
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	status := 0
	for _, f := range os.Args[1:] {
		roots, err := sgf.LoadCollection(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "rookreplay:", err)
			status = 1
			continue
		}
		for i, root := range roots {
			b, moves, err := rooklift.RookReplay(root)
			fmt.Fprintf(out, "== %s game %d: %d moves\n%s", f, i+1, moves, b.String())
			fmt.Fprintf(out, "Captures: black %d, white %d\n", b.CapturesBy[sgf.BLACK], b.CapturesBy[sgf.WHITE])
			if err != nil {
				fmt.Fprintln(out, "Illegal:", err)
				status = 1
			}
		}
	}
	out.Flush()
	os.Exit(status)
}
