package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// heavyAtStart are packages whose initialisation costs every gobot
// command milliseconds at start, and which gobot has no use for: a
// Markdown library and an HTML parser, linked only through mautrix's
// format package (chat/matrix reads message HTML itself: htmltext.go).
var heavyAtStart = []string{
	"github.com/yuin/goldmark",
	"maunium.net/go/mautrix/format",
	"golang.org/x/net/html",
}

// TestStartLinksNoHeavyPackage: `gobot sgf replay` and the other tools
// pay for every package the binary links at each start.
func TestStartLinksNoHeavyPackage(t *testing.T) {
	goTool := goCommand(t)
	out, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, heavy := range heavyAtStart {
			if dep == heavy || strings.HasPrefix(dep, heavy+"/") {
				t.Errorf("gobot links %s", dep)
			}
		}
	}
}

func goCommand(t testing.TB) string {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command:", err)
	}
	return goTool
}

// BenchmarkStart times whole processes of the built binary, from exec to
// exit: a one-file replay (the record of a 200-move game), a board drawn
// to a PNG, and `gobot version`. cpu-ms/op is the process's user and
// system time (what it costs when the machine is busy), init-KB/op what
// package initialisation allocated (GODEBUG=inittrace=1), init-ms/op its
// time. Run it with
//
//	go test ./cmd/gobot -run x -bench Start -benchtime 200x
func BenchmarkStart(b *testing.B) {
	goTool := goCommand(b)
	dir := b.TempDir()
	bin := filepath.Join(dir, "gobot")
	if out, err := exec.Command(goTool, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	sgf, err := filepath.Abs("../../game/testdata/gnugo19.sgf")
	if err != nil {
		b.Fatal(err)
	}
	png := filepath.Join(dir, "board.png")
	for _, bc := range []struct {
		name string
		args []string
	}{
		{"sgf-replay", []string{"sgf", "replay", sgf}},
		{"render", []string{"render", sgf, "-o", png}},
		{"version", []string{"version"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			initKB, initMS := initCost(b, bin, bc.args)
			var cpu time.Duration
			for b.Loop() {
				cmd := exec.Command(bin, bc.args...)
				if out, err := cmd.CombinedOutput(); err != nil {
					b.Fatalf("%v: %v\n%s", bc.args, err, out)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
			b.ReportMetric(initKB, "init-KB/op")
			b.ReportMetric(initMS, "init-ms/op")
		})
	}
}

// initCost runs bin once with GODEBUG=inittrace=1 and sums what the
// package initialisers allocated and took.
func initCost(b *testing.B, bin string, args []string) (kb, ms float64) {
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		b.Fatalf("%v: %v\n%s", args, err, stderr.String())
	}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init internal/bytealg @0.008 ms, 0 ms clock, 0 bytes, 0 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 8 || f[0] != "init" {
			continue
		}
		clock, _ := strconv.ParseFloat(f[4], 64)
		bytes, _ := strconv.ParseFloat(f[7], 64)
		ms += clock
		kb += bytes / 1024
	}
	return kb, ms
}
