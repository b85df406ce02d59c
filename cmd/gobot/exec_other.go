//go:build !unix

package main

import (
	"os"
	"os/signal"

	"github.com/gobotgo/gobot/cmd/internal/cli"
)

// execChat runs gobot-chat with args as a child process, which gets the
// interrupt (Ctrl-C reaches both), and exits with its status.
func execChat(args []string) error {
	signal.Ignore(os.Interrupt)
	os.Exit(cli.ExitCode(runChat(args, os.Stdin, os.Stdout, os.Stderr), os.Stderr, nil))
	return nil
}
