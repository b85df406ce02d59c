package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/gobotgo/gobot/cmd/internal/cli"
)

// chatName is gobot-chat's file name here.
func chatName() string {
	if runtime.GOOS == "windows" {
		return "gobot-chat.exe"
	}
	return "gobot-chat"
}

// findChat finds gobot-chat: next to this binary (where `go install
// ./cmd/...` puts both); else, in a checkout of gobot's source (`go run
// ./cmd/gobot`), built from it with this binary's tags into the user's
// cache (the go command builds it again only when the source changed);
// else on PATH.
func findChat(stderr io.Writer) (string, error) {
	self, err := os.Executable()
	if err == nil {
		if s, err := filepath.EvalSymlinks(self); err == nil {
			self = s
		}
		p := filepath.Join(filepath.Dir(self), chatName())
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, nil
		}
	}
	if root := checkout(); root != "" {
		if goTool, err := exec.LookPath("go"); err == nil {
			return buildChat(goTool, root, stderr)
		}
	}
	if p, err := exec.LookPath(chatName()); err == nil {
		return p, nil
	}
	where := "on PATH"
	if self != "" {
		where = "next to " + self + " or on PATH"
	}
	return "", fmt.Errorf("this command is run by gobot-chat, gobot's chat bot, which is not %s: install both with go install github.com/gobotgo/gobot/cmd/...@latest", cli.Clip(where, 120))
}

// checkout is the root of the gobot module holding the working
// directory, or "" when there is none.
func checkout() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if f, err := os.Open(filepath.Join(dir, "go.mod")); err == nil {
			sc := bufio.NewScanner(f)
			mod := ""
			for sc.Scan() {
				if m, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
					mod = strings.Trim(strings.TrimSpace(m), `"`)
					break
				}
			}
			f.Close()
			if mod == "github.com/gobotgo/gobot" {
				return dir
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// buildChat builds root's gobot-chat with this binary's build tags into
// the user's cache, one file per checkout and tags, and returns its path.
func buildChat(goTool, root string, stderr io.Writer) (string, error) {
	tags := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "-tags" {
				tags = s.Value
			}
		}
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	sum := sha256.Sum256([]byte(root + "\x00" + tags))
	out := filepath.Join(cache, "gobot", "chat-"+hex.EncodeToString(sum[:6]), chatName())
	cmd := exec.Command(goTool, "build", "-tags", tags, "-o", out, "./cmd/gobot-chat")
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("building gobot-chat from %s: %w", cli.Clip(root, 120), err)
	}
	return out, nil
}

// runChat runs gobot-chat with args as a child process and returns its
// exit status as a cli.ExitError (it has said what went wrong).
func runChat(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	bin, err := findChat(stderr)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() > 0 {
		return cli.ExitError{Code: ee.ExitCode()}
	}
	return err
}
