//go:build unix

package main

import (
	"os"
	"syscall"
)

// execChat replaces this process with gobot-chat running args; it
// returns only when that could not be done.
func execChat(args []string) error {
	bin, err := findChat(os.Stderr)
	if err != nil {
		return err
	}
	return syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
