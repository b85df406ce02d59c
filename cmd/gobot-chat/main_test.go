package main

import (
	"strings"
	"testing"
)

// TestHelp: gobot -h, --help and help print the same usage, which lists
// the commands and the terminal game's flags, on stdout with exit status
// 0. Before, -h and --help printed only the four flags, then "gobot:
// usage: flag: help requested", and exited with status 2.
func TestHelp(t *testing.T) {
	code, want, stderr := runGobotArgs("help")
	if code != 0 || stderr != "" {
		t.Fatalf("gobot help: exit %d, stderr %q", code, stderr)
	}
	for _, line := range []string{"gobot check [FILE]", "gobot sgf replay FILE", "gobot repair --list", "Flags of the terminal game", "-db string", "-user string", "-images string", "-config string"} {
		if !strings.Contains(want, line) {
			t.Errorf("gobot help lacks %q:\n%s", line, want)
		}
	}
	for _, arg := range []string{"-h", "--help", "-help"} {
		code, stdout, stderr := runGobotArgs(arg)
		if code != 0 || stdout != want || stderr != "" {
			t.Errorf("gobot %s: exit %d\nstdout:\n%s\nstderr: %q\nwant exit 0 and the gobot help text", arg, code, stdout, stderr)
		}
	}
	// A command's own -h is not an error either.
	if code, _, stderr := runGobotArgs("check", "-h"); code != 0 || strings.Contains(stderr, "help requested") || !strings.Contains(stderr, "Usage: gobot check") {
		t.Errorf("gobot check -h: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{{"store", "-h"}, {"store", "copy", "-h"}} {
		if code, stdout, stderr := runGobotArgs(args...); code != 0 || !strings.Contains(stdout+stderr, "gobot store copy") {
			t.Errorf("gobot %v: exit %d: %s%s", args, code, stdout, stderr)
		}
	}
}

// TestBadFlags: an unknown flag or a flag without its value exits with
// status 2 and one line saying what was wrong and where to look.
func TestBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-bogus"}, "gobot: usage: flag provided but not defined: -bogus (gobot -h lists the commands and flags)\n"},
		{[]string{"-db"}, "gobot: usage: flag needs an argument: -db (gobot -h lists the commands and flags)\n"},
	} {
		code, stdout, stderr := runGobotArgs(tc.args...)
		if code != 2 || stderr != tc.want || stdout != "" {
			t.Errorf("gobot %q: exit %d\nstdout: %q\nstderr: %q\nwant exit 2 and %q", tc.args, code, stdout, stderr, tc.want)
		}
	}
}
