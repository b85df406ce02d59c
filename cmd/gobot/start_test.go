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
// command milliseconds at start, and which gobot's tools have no use
// for: the chat SDKs and what they bring (gobot-chat links them; gobot
// hands it the commands that need them), PostgreSQL's driver, the store,
// the bot; and a Markdown library and an HTML parser, which only
// mautrix's format package linked (chat/matrix reads message HTML
// itself: htmltext.go).
var heavyAtStart = []string{
	"github.com/bwmarrin/discordgo",
	"maunium.net/go/mautrix",
	"go.mau.fi",
	"github.com/rs/xid",
	"github.com/rs/zerolog",
	"github.com/jackc/pgx",
	"go.etcd.io/bbolt",
	"net/http",
	"html/template",
	"go.yaml.in/yaml/v3",
	"github.com/gobotgo/gobot/chat",
	"github.com/gobotgo/gobot/storage",
	"github.com/yuin/goldmark",
	"golang.org/x/net/html",
}

// TestStartLinksNoHeavyPackage: `gobot sgf replay` and the other tools
// pay for every package the binary links at each start; gobot links
// none of heavyAtStart (before, it linked them all: it was the bot).
func TestStartLinksNoHeavyPackage(t *testing.T) {
	goTool := goCommand(t)
	out, err := exec.Command(goTool, "list", "-deps", "-tags", "goolm", ".").Output()
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

// buildBoth builds gobot and gobot-chat into dir, as go install puts
// them, and returns gobot's path.
func buildBoth(tb testing.TB, dir string) string {
	goTool := goCommand(tb)
	for _, pkg := range []string{".", "../gobot-chat"} {
		if out, err := exec.Command(goTool, "build", "-o", dir+string(filepath.Separator), pkg).CombinedOutput(); err != nil {
			tb.Fatalf("go build %s: %v\n%s", pkg, err, out)
		}
	}
	return filepath.Join(dir, "gobot")
}

// BenchmarkStart times whole processes of the built binaries, from exec
// to exit: a one-file replay (the record of a 200-move game), a board
// drawn to a PNG, `gobot version`, and, handed to gobot-chat, a terminal
// game on a new database that ends at once (no input). cpu-ms/op is the
// process's user and system time (what it costs when the machine is
// busy), init-KB/op what package initialisation allocated
// (GODEBUG=inittrace=1; gobot's and gobot-chat's for the terminal),
// init-ms/op its time; ns/op is the wall time. Run it with
//
//	go test ./cmd/gobot -run x -bench Start -benchtime 200x
func BenchmarkStart(b *testing.B) {
	dir := b.TempDir()
	bin := buildBoth(b, dir)
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
		{"terminal", []string{"-db", filepath.Join(dir, "gobot.db"), "-web", "off"}},
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
