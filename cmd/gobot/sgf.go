package main

import (
	"errors"
	"io"
)

// cmdSGF is being written in this session; until then it says so.
func cmdSGF(args []string, stdout, stderr io.Writer) error {
	return errors.New("gobot sgf: not available yet")
}
