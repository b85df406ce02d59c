package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The terminal session README.md shows works as written: each "name> "
// line is typed, and every command succeeds.
func TestReadmeTerminalSession(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), "In the terminal you start as")
	if !ok {
		t.Fatal("README.md has no terminal session")
	}
	_, block, _ := strings.Cut(after, "```\n")
	block, _, _ = strings.Cut(block, "```")
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(block), "\n") {
		_, typed, ok := strings.Cut(l, "> ")
		if !ok {
			t.Fatalf("README session line without a prompt: %q", l)
		}
		lines = append(lines, typed)
	}
	var out, errb bytes.Buffer
	db := filepath.Join(t.TempDir(), "gobot.db")
	if code := run([]string{"-db", db}, strings.NewReader(strings.Join(lines, "\n")+"\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if strings.Contains(out.String(), "\n! ") || !strings.Contains(out.String(), "played E5") {
		t.Fatalf("the README's session does not play as written:\n%s", out.String())
	}
}

// -user is a name as /as takes it: checked, and case-blind.
func TestConsoleUserFlag(t *testing.T) {
	db := filepath.Join(t.TempDir(), "gobot.db")
	var out, errb bytes.Buffer
	if code := run([]string{"-db", db, "-user", "🐐"}, strings.NewReader(""), &out, &errb); code != 2 || !strings.Contains(errb.String(), "is not a player name") {
		t.Fatalf("-user 🐐: exit %d, %q", code, errb.String())
	}
	errb.Reset()
	if code := run([]string{"-db", db, "-user", "Bob"}, strings.NewReader("challenge @alice 9\n/as Alice\naccept\n"), &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "@bob challenges @alice") || !strings.Contains(out.String(), "Game #1 begins") {
		t.Fatalf("-user Bob is not bob:\n%s", out.String())
	}
}
