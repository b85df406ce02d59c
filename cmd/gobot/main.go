// Command gobot plays Go in chat rooms. With no arguments it starts a
// terminal game on a local database; see `gobot help`.
//
// This binary runs the tools that need no chat SDK itself (gobot sgf,
// gobot render, gobot version, gobot help) and hands every other command
// — the terminal game, gobot run, the store's tools — to gobot-chat
// (cmd/gobot-chat), which links the chat adapters: their packages'
// initialisation would cost each tool's start more than the tool itself
// (docs/sgf.md, "Starting gobot"). Install both:
//
//	go install github.com/gobotgo/gobot/cmd/...
package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobotgo/gobot/cmd/internal/cli"
)

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

// chatCommands are gobot-chat's: "" is the terminal game (gobot [flags]).
var chatCommands = map[string]bool{"": true, "console": true, "play": true, "run": true,
	"backup": true, "repair": true, "ratings": true, "store": true, "check": true}

func main() {
	args := os.Args[1:]
	if chatCommands[command(args)] && !isHelp(args) {
		// In place of this process where the system can: signals, the
		// terminal and the exit status are then gobot-chat's own.
		if err := execChat(args); err != nil {
			fmt.Fprintln(os.Stderr, "gobot:", err)
			os.Exit(1)
		}
	}
	os.Exit(run(args, os.Stdin, os.Stdout, os.Stderr))
}

// command is the command args name ("" for the terminal game's flags).
func command(args []string) string {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return args[0]
	}
	return ""
}

// isHelp: gobot -h, --help and -help print the usage as gobot help does.
func isHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help")
}

// run dispatches a command line and returns the exit code; gobot-chat's
// commands run as a child process with stdin, stdout and stderr.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	cmd := command(args)
	if cmd != "" {
		args = args[1:]
	}
	var err error
	switch {
	case cmd == "" && isHelp(args), cmd == "help":
		cli.WriteUsage(stdout)
	case cmd == "version":
		fmt.Fprintln(stdout, "gobot", version)
	case cmd == "sgf":
		err = cli.SGF(args, stdout, stderr)
	case cmd == "render":
		err = cli.Render(args, stdout, stderr)
	case chatCommands[cmd]:
		if cmd != "" {
			args = append([]string{cmd}, args...)
		}
		err = runChat(args, stdin, stdout, stderr)
	default:
		fmt.Fprintf(stderr, "gobot: unknown command %q\n\n%s", cli.Clip(cmd, 40), cli.Usage)
		return 2
	}
	return cli.ExitCode(err, stderr, nil)
}
