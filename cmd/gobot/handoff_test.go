package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runBin runs bin with args (where "{dir}" is a new directory of its
// own) and stdin, in cwd, and returns its exit status and output with
// that directory written "{dir}".
func runBin(t *testing.T, cwd, bin string, args []string, stdin string, env ...string) (code int, stdout, stderr string) {
	t.Helper()
	dir := t.TempDir()
	var a []string
	for _, s := range args {
		a = append(a, strings.ReplaceAll(s, "{dir}", dir))
	}
	cmd := exec.Command(bin, a...)
	cmd.Dir = cwd
	cmd.Env = append(os.Environ(), env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("%s %q: %v", bin, args, err)
	}
	return code, strings.ReplaceAll(out.String(), dir, "{dir}"), strings.ReplaceAll(errb.String(), dir, "{dir}")
}

// TestHandOff: gobot hands gobot-chat's commands (the terminal game, gobot
// run, the store's tools) to gobot-chat, installed next to it: what they
// print and their exit status are gobot-chat's own; gobot's own commands
// (the usage, sgf, render, version) answer the same without it. Without
// gobot-chat, gobot's own commands still work, and the others say where
// to get it.
func TestHandOff(t *testing.T) {
	dir := t.TempDir()
	bin := buildBoth(t, dir)
	chat := filepath.Join(dir, "gobot-chat")
	elsewhere := t.TempDir() // not in gobot's source: nothing is built from it
	sgf, err := filepath.Abs("../../game/testdata/gnugo19.sgf")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args  []string
		stdin string
	}{
		{[]string{"-db", "{dir}/gobot.db", "-web", "off"}, "challenge @bob 9\n/as bob\naccept\nplay E5\n"},
		{[]string{"-db", "{dir}/gobot.db", "-user", "🐐"}, ""},
		{[]string{"-bogus"}, ""},
		{[]string{"play", "-db", "{dir}/gobot.db", "-web", "off"}, "help\n"},
		{[]string{"check", "{dir}/none.db"}, ""},
		{[]string{"check", "-h"}, ""},
		{[]string{"ratings", "-db", "{dir}/none.db"}, ""},
		{[]string{"store", "-h"}, ""},
		{[]string{"backup"}, ""},
		{[]string{"repair", "--list", "-db", "{dir}/none.db"}, ""},
		{[]string{"run", "-config", "{dir}/none.yaml"}, ""},
		{[]string{"-h"}, ""},
		{[]string{"help"}, ""},
		{[]string{"bogus"}, ""},
		{[]string{"sgf", "replay", sgf}, ""},
		{[]string{"sgf", "replay"}, ""},
		{[]string{"render", sgf}, ""},
	} {
		wantCode, wantOut, wantErr := runBin(t, elsewhere, chat, tc.args, tc.stdin)
		code, out, errOut := runBin(t, elsewhere, bin, tc.args, tc.stdin)
		if code != wantCode || out != wantOut || errOut != wantErr {
			t.Errorf("gobot %q: exit %d\nstdout:\n%s\nstderr:\n%s\ngobot-chat: exit %d\nstdout:\n%s\nstderr:\n%s", tc.args, code, out, errOut, wantCode, wantOut, wantErr)
		}
	}

	// gobot alone, away from gobot's source and from gobot-chat.
	alone := filepath.Join(t.TempDir(), "gobot")
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(alone, b, 0o755); err != nil {
		t.Fatal(err)
	}
	path := "PATH=" + t.TempDir()
	for _, args := range [][]string{{"version"}, {"sgf", "replay", sgf}, {"help"}} {
		if code, out, errOut := runBin(t, elsewhere, alone, args, "", path); code != 0 || out == "" || errOut != "" {
			t.Errorf("gobot %q without gobot-chat: exit %d\n%s%s", args, code, out, errOut)
		}
	}
	// Inside gobot's source (as `go run ./cmd/gobot` runs), gobot builds
	// gobot-chat from it, into the user's cache, and hands it the command.
	goTool := goCommand(t)
	goenv, err := exec.Command(goTool, "env", "GOCACHE", "GOMODCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocache, gomodcache, _ := strings.Cut(strings.TrimSpace(string(goenv)), "\n")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	srcEnv := []string{"PATH=" + filepath.Dir(goTool), "XDG_CACHE_HOME=" + cache, "GOCACHE=" + gocache, "GOMODCACHE=" + gomodcache}
	wantCode, wantOut, wantErr := runBin(t, elsewhere, chat, []string{"check", "{dir}/none.db"}, "")
	if code, out, errOut := runBin(t, root, alone, []string{"check", "{dir}/none.db"}, "", srcEnv...); code != wantCode || out != wantOut || errOut != wantErr {
		t.Errorf("gobot check in gobot's source, without gobot-chat: exit %d\n%s%s\nwant exit %d\n%s%s", code, out, errOut, wantCode, wantOut, wantErr)
	}
	if m, _ := filepath.Glob(filepath.Join(cache, "gobot", "chat-*", chatName())); len(m) != 1 && runtime.GOOS == "linux" { // XDG_CACHE_HOME
		t.Errorf("gobot-chat built from the source: %q in the cache, want one", m)
	}

	for _, args := range [][]string{{}, {"run", "-config", "gobot.yaml"}, {"check"}} {
		code, out, errOut := runBin(t, elsewhere, alone, args, "", path)
		if code != 1 || out != "" || !strings.Contains(errOut, "gobot-chat") || !strings.Contains(errOut, "go install github.com/gobotgo/gobot/cmd/...") || len(errOut) > 300 {
			t.Errorf("gobot %q without gobot-chat: exit %d (%d bytes)\nstdout: %q\nstderr: %q\nwant exit 1 and where to get gobot-chat", args, code, len(errOut), out, errOut)
		}
	}
}
