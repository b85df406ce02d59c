package game

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// The tests in this file check the engine against GNU Go, a real,
// independent implementation: GNU Go plays games against itself, every
// move must be legal here, and given GNU Go's list of dead stones our
// count must equal GNU Go's final_score under both Japanese (territory)
// and Chinese (area) counting.

const gnugoPath = "/usr/games/gnugo"

type gtp struct {
	t   *testing.T
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startGnuGo(t *testing.T, args ...string) *gtp {
	t.Helper()
	if _, err := os.Stat(gnugoPath); err != nil {
		t.Skip("GNU Go is not installed (apt-get install gnugo); .ci/run installs it")
	}
	cmd := exec.Command(gnugoPath, append([]string{"--mode", "gtp"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := &gtp{t: t, cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		fmt.Fprintln(in, "quit")
		in.Close()
		cmd.Wait()
	})
	return g
}

// do sends one GTP command and returns the response text.
func (g *gtp) do(format string, a ...any) string {
	g.t.Helper()
	c := fmt.Sprintf(format, a...)
	if _, err := fmt.Fprintln(g.in, c); err != nil {
		g.t.Fatalf("gtp %s: %v", c, err)
	}
	var sb strings.Builder
	for {
		line, err := g.out.ReadString('\n')
		if err != nil {
			g.t.Fatalf("gtp %s: %v", c, err)
		}
		if strings.TrimSpace(line) == "" && sb.Len() > 0 {
			break
		}
		sb.WriteString(line)
	}
	resp := strings.TrimSpace(sb.String())
	if strings.HasPrefix(resp, "?") {
		g.t.Fatalf("gtp %s: %s", c, resp)
	}
	return strings.TrimSpace(strings.TrimPrefix(resp, "="))
}

func TestAgainstGnuGo(t *testing.T) {
	if testing.Short() {
		t.Skip("plays GNU Go self-play games")
	}
	for _, tc := range []struct {
		seed    int
		size    int
		rules   string
		gnuFlag string
	}{
		{1, 9, "japanese", "--japanese-rules"},
		{2, 9, "chinese", "--chinese-rules"},
		{3, 9, "japanese", "--japanese-rules"},
		{4, 13, "chinese", "--chinese-rules"},
		{5, 13, "japanese", "--japanese-rules"},
		{6, 19, "japanese", "--japanese-rules"},
		{8, 9, "chinese", "--chinese-rules"},
		{9, 9, "japanese", "--japanese-rules"},
		{10, 9, "chinese", "--chinese-rules"},
		{11, 13, "japanese", "--japanese-rules"},
		{12, 9, "japanese", "--japanese-rules"},
		{13, 9, "chinese", "--chinese-rules"},
		{14, 9, "japanese", "--japanese-rules"},
		{15, 13, "chinese", "--chinese-rules"},
		{16, 9, "chinese", "--chinese-rules"},
		{17, 9, "japanese", "--japanese-rules"},
	} {
		t.Run(fmt.Sprintf("%s-%dx%d-seed%d", tc.rules, tc.size, tc.size, tc.seed), func(t *testing.T) {
			t.Parallel()
			gg := startGnuGo(t, "--level", "1", "--seed", strconv.Itoa(tc.seed), tc.gnuFlag)
			rules, err := Preset(tc.rules)
			if err != nil {
				t.Fatal(err)
			}
			rules.Komi = 6.5
			g, err := New(Config{Width: tc.size, Height: tc.size, Rules: rules})
			if err != nil {
				t.Fatal(err)
			}
			gg.do("boardsize %d", tc.size)
			gg.do("clear_board")
			gg.do("komi 6.5")
			for n := 0; g.Phase() == Playing && n < 400; n++ {
				c := g.ToMove()
				resp := gg.do("genmove %s", strings.ToLower(c.Name()))
				if strings.EqualFold(resp, "resign") {
					t.Skipf("GNU Go resigned at move %d; nothing to count", n+1)
				}
				p, err := ParseGTP(resp, tc.size, tc.size)
				if err != nil {
					t.Fatalf("move %d: GNU Go played %q: %v", n+1, resp, err)
				}
				if err := g.Play(c, p); err != nil {
					t.Fatalf("move %d: GNU Go's %s %s is illegal here: %v\n%s", n+1, c.Name(), resp, err, g.Board())
				}
				if got, want := gnugoBoard(t, gg, tc.size), g.Board().String(); got != want {
					t.Fatalf("move %d (%s %s): boards differ\nGNU Go:\n%s\ngobot:\n%s", n+1, c.Name(), resp, got, want)
				}
			}
			if g.Phase() != Scoring {
				t.Fatalf("game did not reach scoring after 400 moves:\n%s", g.Board())
			}
			dead := map[Point]bool{}
			for _, f := range strings.Fields(gg.do("final_status_list dead")) {
				p, err := ParseGTP(f, tc.size, tc.size)
				if err != nil {
					t.Fatal(err)
				}
				dead[p] = true
			}
			// Report how the automatic proposal compares (it is a heuristic,
			// GNU Go's is another).
			proposed := g.DeadStones()
			agree := 0
			for _, p := range proposed {
				if dead[p] {
					agree++
				}
			}
			t.Logf("dead stones: GNU Go %d, gobot proposal %d, in common %d", len(dead), len(proposed), agree)
			// On these games the automatic proposal agrees with GNU Go's
			// life-and-death reading stone for stone.
			if agree != len(dead) || agree != len(proposed) {
				t.Errorf("the dead-stone proposal %v differs from GNU Go's %v\n%s", proposed, dead, g.Board())
			}
			for _, p := range g.Board().Stones(Black) {
				setDead(t, g, p, dead[p])
			}
			for _, p := range g.Board().Stones(White) {
				setDead(t, g, p, dead[p])
			}
			want := gg.do("final_score")
			got := g.Score().Result.String()
			if got != want {
				t.Fatalf("score: GNU Go says %s, gobot %s\n%s\ndead: %v", want, got, g.Board(), g.DeadStones())
			}
			t.Logf("%d moves, result %s", g.MoveCount(), got)
		})
	}
}

func setDead(t *testing.T, g *Game, p Point, dead bool) {
	t.Helper()
	if g.IsDead(p) != dead {
		if err := g.ToggleDead(p, false); err != nil {
			t.Fatal(err)
		}
	}
}

// gnugoBoard reads GNU Go's position through list_stones.
func gnugoBoard(t *testing.T, gg *gtp, size int) string {
	b, _ := NewBoard(size, size)
	for _, c := range []Color{Black, White} {
		for _, f := range strings.Fields(gg.do("list_stones %s", strings.ToLower(c.Name()))) {
			p, err := ParseGTP(f, size, size)
			if err != nil {
				t.Fatal(err)
			}
			b.Set(p, c)
		}
	}
	return b.String()
}

func BenchmarkProposeDead19(b *testing.B) {
	data, err := os.ReadFile("testdata/gnugo19.sgf")
	if err != nil {
		b.Fatal(err)
	}
	recs, err := ReadSGF(data)
	if err != nil {
		b.Fatal(err)
	}
	rules, _ := Preset("japanese")
	rep, err := recs[0].Replay(rules, true)
	if err != nil {
		b.Fatal(err)
	}
	board := rep.Game.Board()
	cpu := cpuSeconds()
	for b.Loop() {
		ProposeDead(board, rules)
	}
	b.ReportMetric((cpuSeconds()-cpu)*1e3/float64(b.N), "cpu-ms/op")
}

// BenchmarkRandomPlayout19 plays playouts of the dead-stone estimate to
// the end on an empty 19×19 board.
func BenchmarkRandomPlayout19(b *testing.B) {
	empty, _ := NewBoard(19, 19)
	start := newPboard(empty)
	pb := start.clone()
	rng := rand.New(rand.NewPCG(1, 2))
	moves := 0
	cpu := cpuSeconds()
	for b.Loop() {
		pb.reset(start)
		moves += pb.playout(rng, Black, 3*19*19)
	}
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
	b.ReportMetric(float64(moves)/(cpuSeconds()-cpu), "moves/cpu-s")
}

// TestSharedLibertyBoardsGnuGo checks the positions of
// sharedLibertyBoards against GNU Go's final_status_list dead (Japanese
// rules), so that the expected answers are not only ours.
func TestSharedLibertyBoardsGnuGo(t *testing.T) {
	gg := startGnuGo(t, "--japanese-rules")
	for _, tt := range sharedLibertyBoards {
		b, err := ParseBoard(tt.board)
		if err != nil {
			t.Fatal(err)
		}
		gg.do("boardsize %d", b.w)
		gg.do("clear_board")
		for _, c := range []Color{Black, White} {
			for _, p := range b.Stones(c) {
				gg.do("play %s %s", strings.ToLower(c.Name()), p.GTP(b.h))
			}
		}
		dead := make([]bool, len(b.cells))
		for _, f := range strings.Fields(gg.do("final_status_list dead")) {
			p, err := ParseGTP(f, b.w, b.h)
			if err != nil {
				t.Fatal(err)
			}
			dead[b.index(p)] = true
		}
		if got := firstStones(b, dead); got != tt.dead {
			t.Errorf("%s: GNU Go's dead stones %q, the table says %q\n%s", tt.name, got, tt.dead, b)
		}
	}
}

// firstStones lists the first stone in reading order of each string
// marked in dead, in reading order, as ProposeDead does.
func firstStones(b *Board, dead []bool) string {
	var out []string
	seen := make([]bool, len(dead))
	for i, d := range dead {
		if !d || seen[i] || b.cells[i] == Empty {
			continue
		}
		stones, _ := b.StringAt(b.point(i))
		for _, s := range stones {
			seen[b.index(s)] = true
		}
		out = append(out, b.point(i).GTP(b.h))
	}
	return strings.Join(out, " ")
}
