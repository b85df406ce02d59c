// Command gobot-chat is gobot with its chat adapters: the terminal
// game, gobot run and the tools that open the store. People type gobot
// (cmd/gobot), which runs the tools that need no chat SDK itself and
// hands every other command here. With no arguments it starts a
// terminal game on a local database; see `gobot help`.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobotgo/gobot/cmd/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// errUsage marks errors caused by bad command-line input (exit code 2).
var errUsage = cli.ErrUsage

// exitError carries a specific exit code (e.g. 3 from gobot check).
type exitError = cli.ExitError

const usage = cli.Usage

// writeUsage prints the commands and the terminal game's flags.
func writeUsage(w io.Writer) { cli.WriteUsage(w) }

// consoleFlags declares the terminal game's flags (cli.ConsoleFlags).
func consoleFlags() (fs *flag.FlagSet, db, user, images, cfgPath, webAddr *string) {
	return cli.ConsoleFlags()
}

// defaultDBPath is where the database lives when no config names one.
func defaultDBPath() string { return cli.DefaultDBPath() }

// clip shortens s for an error message.
func clip(s string, n int) string { return cli.Clip(s, n) }

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
		err = cli.SGF(args, stdout, stderr)
	case "render":
		err = cli.Render(args, stdout, stderr)
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
	return cli.ExitCode(err, stderr, damagedHelp)
}
