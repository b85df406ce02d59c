// Command gobot plays Go in chat rooms. With no arguments it starts a
// terminal game on a local database; see `gobot help`.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// errUsage marks errors caused by bad command-line input (exit code 2).
var errUsage = errors.New("usage")

// exitError carries a specific exit code (e.g. 1 for an illegal move in
// `gobot sgf replay`).
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

const usage = `gobot — play Go in chat rooms.

Usage:
  gobot [-db FILE] [-user NAME] play in this terminal (local database, no account needed)
  gobot run -config FILE        start the adapters the config file enables
  gobot sgf replay FILE...      replay records: final position, captures, illegal moves
  gobot sgf score FILE          score the final position of a record
  gobot render FILE.sgf -o board.png   draw a position (or --gif a replay)
  gobot backup -o FILE          write a consistent copy of the database (-force: replace FILE)
  gobot repair --list           list records gobot cannot read (the bot stopped)
  gobot repair --quarantine game:7   take a damaged record out of play
  gobot ratings [--json]        every player's rating (-db/-config, --community C)
  gobot store copy --from bbolt:FILE --to postgres:DSN   move an installation (or back)
  gobot check [FILE]            check a database file page by page; exit 1 if damaged
  gobot version                 print the version
  gobot help                    this text (also gobot -h, gobot --help)

Run "gobot COMMAND -h" for a command's options.
`

// writeUsage prints the commands and the terminal game's flags.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, usage)
	fmt.Fprint(w, "\nFlags of the terminal game (gobot [flags]):\n")
	fs, _, _, _, _, _ := consoleFlags()
	fs.SetOutput(w)
	fs.PrintDefaults()
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run dispatches a command line and returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var err error
	cmd := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		cmd = args[0]
		args = args[1:]
	}
	switch cmd {
	case "", "console", "play":
		err = cmdConsole(args, stdin, stdout, stderr)
	case "run":
		err = cmdRun(args, stdin, stdout, stderr)
	case "sgf":
		err = cmdSGF(args, stdout, stderr)
	case "render":
		err = cmdRender(args, stdout, stderr)
	case "backup":
		err = cmdBackup(args, stdout, stderr)
	case "repair":
		err = cmdRepair(args, stdout, stderr)
	case "ratings":
		err = cmdRatings(args, stdout, stderr)
	case "store":
		err = cmdStore(args, stdout, stderr)
	case "check":
		err = cmdCheck(args, stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, "gobot", version)
	case "help":
		writeUsage(stdout)
	default:
		fmt.Fprintf(stderr, "gobot: unknown command %q\n\n%s", clip(cmd, 40), usage)
		return 2
	}
	var ee exitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.code
	case errors.Is(err, flag.ErrHelp): // gobot COMMAND -h: its usage is printed
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "gobot:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "gobot:", err)
		fmt.Fprint(stderr, damagedHelp(err))
		return 1
	}
}
