// Command records writes the records of game's BenchmarkReplaySGF (100
// random 19×19 games) as one SGF collection to standard output, for the
// whole-process comparison in docs/sgf.md.
package main

import (
	"fmt"
	"os"

	"github.com/gobotgo/gobot/bench/rooklift"
)

func main() {
	data, err := rooklift.Records(100)
	if err != nil {
		fmt.Fprintln(os.Stderr, "records:", err)
		os.Exit(1)
	}
	os.Stdout.Write(data)
}
