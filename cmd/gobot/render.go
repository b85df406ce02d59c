package main

import (
	"errors"
	"io"
)

// cmdRender is being written in this session; until then it says so.
func cmdRender(args []string, stdout, stderr io.Writer) error {
	return errors.New("gobot render: not available yet")
}
