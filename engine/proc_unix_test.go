//go:build unix

package engine

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestTimeoutKillsWhatTheEngineStarted: an engine behind a shell script
// is killed with the script when it hangs.
func TestTimeoutKillsWhatTheEngineStarted(t *testing.T) {
	f := newFake(t, "slow", func(c *Config) {
		c.Command = "/bin/sh"
		// Not exec: the shell stays the parent of the fake engine.
		c.Args = []string{"-c", `"$0" "$@"; true`, os.Args[0], "-fakegtp", "slow", c.Args[2]}
		c.MoveTimeout = 300 * time.Millisecond
	})
	g := newGame(t, 9, "japanese", 0)
	_, err := f.pool.Move(context.Background(), Request{Record: g.Record(), Level: 1})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	var pid int
	for _, l := range f.commands(t) {
		if n, ok := strings.CutPrefix(l, "pid "); ok {
			pid, _ = strconv.Atoi(n)
		}
	}
	if pid == 0 {
		t.Fatal("the fake engine did not log its pid")
	}
	deadline := time.Now().Add(5 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("the engine (pid %d) behind the shell is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
