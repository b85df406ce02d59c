package main

import (
	"errors"
	"io"
)

// cmdBackup is being written in this session; until then it says so.
func cmdBackup(args []string, stdout, stderr io.Writer) error {
	return errors.New("gobot backup: not available yet")
}
