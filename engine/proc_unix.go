//go:build unix

package engine

import (
	"os/exec"
	"syscall"
)

// ownGroup starts the engine in a process group of its own, so that
// killGroup also stops what it started (an engine behind a shell script).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
	}
}
