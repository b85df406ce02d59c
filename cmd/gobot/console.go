package main

import (
	"errors"
	"io"
)

// cmdConsole and cmdRun are being written in this session.
func cmdConsole(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("gobot console: not available yet")
}

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return errors.New("gobot run: not available yet")
}
