// Package cli is what the two gobot binaries share: the usage text, the
// exit codes, and the tools that need no chat SDK (gobot sgf, gobot
// render). cmd/gobot, the command people type, runs those itself and
// hands every other command to cmd/gobot-chat, which links the chat
// adapters; so `gobot sgf replay` starts without their initialisation
// (docs/sgf.md, "Starting gobot").
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// ErrUsage marks errors caused by bad command-line input (exit code 2).
var ErrUsage = errors.New("usage")

// ExitError carries a specific exit code (e.g. 1 for an illegal move in
// `gobot sgf replay`).
type ExitError struct{ Code int }

func (e ExitError) Error() string { return fmt.Sprintf("exit %d", e.Code) }

// Usage lists gobot's commands.
const Usage = `gobot — play Go in chat rooms.

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

// WriteUsage prints the commands and the terminal game's flags.
func WriteUsage(w io.Writer) {
	fmt.Fprint(w, Usage)
	fmt.Fprint(w, "\nFlags of the terminal game (gobot [flags]):\n")
	fs, _, _, _, _, _ := ConsoleFlags()
	fs.SetOutput(w)
	fs.PrintDefaults()
}

// ConsoleFlags declares the terminal game's flags (gobot [flags]); they
// print no error or usage of their own: the terminal game says what was
// wrong, and WriteUsage lists them after the commands.
func ConsoleFlags() (fs *flag.FlagSet, db, user, images, cfgPath, webAddr *string) {
	fs = flag.NewFlagSet("gobot", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	db = fs.String("db", DefaultDBPath(), "database file")
	user = fs.String("user", "alice", "who you are at the start (/as NAME switches)")
	images = fs.String("images", "", "folder for board images (default: next to the database)")
	cfgPath = fs.String("config", "", "config file (only its defaults and log sections are used here)")
	webAddr = fs.String("web", "127.0.0.1:0", "serve the web board on this address (127.0.0.1:0 is a free local port; off disables it)")
	return fs, db, user, images, cfgPath, webAddr
}

// DefaultDBPath is where the database lives when no config names one:
// the user's config directory, or the current directory.
func DefaultDBPath() string {
	if dir, err := os.UserConfigDir(); err == nil {
		return filepath.Join(dir, "gobot", "gobot.db")
	}
	return "gobot.db"
}

// ExitCode turns a command's error into gobot's exit status, saying on
// stderr what went wrong: 0 for none or a command's -h, 2 for a bad
// command line, an ExitError's code, else 1 with the error and what
// more (may be nil) adds for it.
func ExitCode(err error, stderr io.Writer, more func(error) string) int {
	var ee ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.Code
	case errors.Is(err, flag.ErrHelp): // gobot COMMAND -h: its usage is printed
		return 0
	case errors.Is(err, ErrUsage):
		fmt.Fprintln(stderr, "gobot:", err)
		return 2
	default:
		fmt.Fprintln(stderr, "gobot:", err)
		if more != nil {
			fmt.Fprint(stderr, more(err))
		}
		return 1
	}
}

// Clip shortens s to n characters for an error message, ending in "…"
// when cut.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
