package main

import (
	"image/gif"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRenderCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "b.png")
	code, stdout, stderr := runGobot("render", "../../game/testdata/handicap9.sgf", "--move", "3", "--theme", "dark", "--px", "400", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 400 || !strings.Contains(stdout, "wrote") {
		t.Fatalf("width %d, stdout %q", img.Bounds().Dx(), stdout)
	}
	gifOut := filepath.Join(dir, "g.gif")
	if code, _, stderr := runGobot("render", "--gif", "../../game/testdata/handicap9.sgf", "-o", gifOut, "--px", "300"); code != 0 {
		t.Fatalf("gif: exit %d: %s", code, stderr)
	}
	f, _ = os.Open(gifOut)
	anim, err := gif.DecodeAll(f)
	f.Close()
	if err != nil || len(anim.Image) < 2 {
		t.Fatalf("gif: %v, %d frames", err, len(anim.Image))
	}
}

func TestRenderUsage(t *testing.T) {
	for _, args := range [][]string{
		{"render"},
		{"render", "../../game/testdata/handicap9.sgf"},
		{"render", "../../game/testdata/handicap9.sgf", "-o", "x.png", "--px", "5"},
		{"render", "../../game/testdata/handicap9.sgf", "-o", filepath.Join(t.TempDir(), "x.png"), "--move", "9999"},
		{"render", "--bogus"},
		{"render", "../../game/testdata/handicap9.sgf", "-o", "x.png", "--theme", "neon"},
		{"render", "../../game/testdata/handicap9.sgf", "-o", "x.png", "--numbers", "-2"},
		{"render", "../../game/testdata/handicap9.sgf", "-o", "x.png", "--move", "-3"},
		{"render", "--gif", "../../game/testdata/handicap9.sgf", "-o", "x.gif", "--move", "3"},
	} {
		if code, _, _ := runGobot(args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
	if code, _, stderr := runGobot("render", "nonexistent.sgf", "-o", "x.png"); code != 1 || stderr == "" {
		t.Errorf("missing file: exit %d %q", code, stderr)
	}
}

// A record with a bad HA (HA[7.5], as some servers write) is drawn from
// its stones, with a warning, instead of being refused.
func TestRenderToleratesBadHandicap(t *testing.T) {
	dir := t.TempDir()
	sgf := filepath.Join(dir, "ha.sgf")
	if err := os.WriteFile(sgf, []byte("(;GM[1]FF[4]SZ[9]HA[7.5]KM[0.5]AB[cc][gg];W[ee];B[ce])"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "b.png")
	code, _, stderr := runGobot("render", sgf, "-o", out)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "HA") {
		t.Fatalf("no warning about HA: %q", stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := png.Decode(f); err != nil {
		t.Fatal(err)
	}
}
