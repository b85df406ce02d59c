// Command deadcorpus writes the dead-stone corpus of game/testdata/deadcorpus:
// GNU Go self-play games played to two passes, each stored as an SGF record
// whose last node carries GNU Go's final_status_list dead as TB/TW marks
// (a dead stone sits in the opponent's territory) and whose RE is GNU Go's
// final_score. game's TestDeadCorpus compares gobot's own dead-stone
// proposal against them.
//
//	go run ./game/internal/deadcorpus -out game/testdata/deadcorpus
//
// Every game is fixed by its name (size, handicap, level, seed), so running
// the command again writes the same files. Each move is checked against
// gobot's rules engine, and gobot's count with GNU Go's dead list must equal
// GNU Go's final_score. A game that does not end in 3×size² moves, or whose
// count differs, is replaced by the same game with the next seed (+10000,
// up to three times); any other failure is reported and the game left out.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gobotgo/gobot/game"
)

// spec is one game of the corpus.
type spec struct {
	size, handicap, level, seed int
	rules                       string
}

func (s spec) name() string {
	if s.handicap == 0 {
		return fmt.Sprintf("even%02d-%s-l%d-s%d", s.size, s.rules, s.level, s.seed)
	}
	return fmt.Sprintf("h%02d-%d-l%d-s%d", s.size, s.handicap, s.level, s.seed)
}

func main() {
	out := flag.String("out", "game/testdata/deadcorpus", "directory for the SGF files")
	gnugo := flag.String("gnugo", "/usr/games/gnugo", "GNU Go binary")
	perSize := flag.Int("handicap", 20, "handicap games per board size (9, 13, 19)")
	even := flag.Int("even", 4, "even games per board size")
	jobs := flag.Int("jobs", 2, "games played at once")
	only := flag.String("only", "", "play only the games whose name has this prefix")
	seed := flag.Int("seed", 0, "added to every game's seed: another set of games, e.g. one held out from the corpus (use 50000 or more)")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	specs := corpus(*perSize, *even, *seed)
	work := make(chan spec)
	var wg sync.WaitGroup
	var mu sync.Mutex
	failed := 0
	for range max(*jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range work {
				msg, err := playOne(*gnugo, *out, s)
				// A game that does not end in time is replaced by
				// the same game with the next seeds.
				for try := 1; errors.Is(err, errSkip) && try < 4; try++ {
					s.seed += 10000
					msg, err = playOne(*gnugo, *out, s)
				}
				mu.Lock()
				if err != nil {
					failed++
					fmt.Fprintf(os.Stderr, "%s: %v\n", s.name(), err)
				} else {
					fmt.Printf("%s: %s\n", s.name(), msg)
				}
				mu.Unlock()
			}
		}()
	}
	for _, s := range specs {
		if strings.HasPrefix(s.name(), *only) {
			work <- s
		}
	}
	close(work)
	wg.Wait()
	if failed > 0 {
		fmt.Fprintf(os.Stderr, "%d games left out\n", failed)
	}
}

// corpus lists the games: per size, handicap 2 to 9 in turn at GNU Go
// levels 0 to 2, then even games alternating Japanese and Chinese rules;
// base is added to every seed.
func corpus(perSize, even, base int) []spec {
	var out []spec
	for _, size := range []int{9, 13, 19} {
		for i := range perSize {
			out = append(out, spec{size: size, handicap: 2 + i%8, level: i % 3, seed: base + 100*size + i, rules: "japanese"})
		}
		for i := range even {
			r := "japanese"
			if i%2 == 1 {
				r = "chinese"
			}
			out = append(out, spec{size: size, level: i % 3, seed: base + 1000*size + i, rules: r})
		}
	}
	return out
}

// errSkip marks a game that is not usable: no end in time, or GNU Go's
// final_score disagrees with the count of its own dead stones.
var errSkip = errors.New("skipped")

func playOne(bin, dir string, s spec) (string, error) {
	rulesFlag := "--japanese-rules"
	if s.rules == "chinese" {
		rulesFlag = "--chinese-rules"
	}
	gg, err := startGTP(bin, "--level", fmt.Sprint(s.level), "--seed", fmt.Sprint(s.seed), rulesFlag, "--never-resign")
	if err != nil {
		return "", err
	}
	defer gg.close()
	rules, err := game.Preset(s.rules)
	if err != nil {
		return "", err
	}
	rules.Komi = rules.DefaultKomi(s.size, s.size, s.handicap)
	g, err := game.New(game.Config{Width: s.size, Height: s.size, Rules: rules, Handicap: s.handicap})
	if err != nil {
		return "", err
	}
	for _, c := range []string{fmt.Sprintf("boardsize %d", s.size), "clear_board", "komi " + game.FormatKomi(rules.Komi)} {
		if _, err := gg.do(c); err != nil {
			return "", err
		}
	}
	if s.handicap >= 2 {
		if _, err := gg.do(fmt.Sprintf("fixed_handicap %d", s.handicap)); err != nil {
			return "", err
		}
	}
	if err := sameBoard(gg, g.Board()); err != nil {
		return "", fmt.Errorf("handicap stones: %w", err)
	}
	limit := 3 * s.size * s.size
	for n := 0; g.Phase() == game.Playing; n++ {
		if n >= limit {
			return "", fmt.Errorf("%w: no two passes in %d moves", errSkip, limit)
		}
		c := g.ToMove()
		resp, err := gg.do("genmove " + strings.ToLower(c.Name()))
		if err != nil {
			return "", err
		}
		if strings.EqualFold(resp, "resign") {
			return "", fmt.Errorf("%s resigned at move %d despite --never-resign", c.Name(), n+1)
		}
		p, err := game.ParseGTP(resp, s.size, s.size)
		if err != nil {
			return "", fmt.Errorf("move %d: %q: %w", n+1, resp, err)
		}
		if err := g.Play(c, p); err != nil {
			return "", fmt.Errorf("move %d: GNU Go's %s %s is illegal here: %w", n+1, c.Name(), resp, err)
		}
	}
	if err := sameBoard(gg, g.Board()); err != nil {
		return "", fmt.Errorf("final position: %w", err)
	}
	deadResp, err := gg.do("final_status_list dead")
	if err != nil {
		return "", err
	}
	board := g.Board()
	for _, p := range g.DeadStones() { // clear the automatic proposal
		if g.IsDead(p) {
			if err := g.ToggleDead(p, false); err != nil {
				return "", err
			}
		}
	}
	nDead := 0
	for _, f := range strings.Fields(deadResp) {
		p, err := game.ParseGTP(f, s.size, s.size)
		if err != nil {
			return "", fmt.Errorf("final_status_list dead: %q: %w", f, err)
		}
		if board.At(p) == game.Empty {
			return "", fmt.Errorf("final_status_list dead: %s is empty", f)
		}
		nDead++
		if !g.IsDead(p) {
			if err := g.ToggleDead(p, false); err != nil {
				return "", err
			}
		}
	}
	want, err := gg.do("final_score")
	if err != nil {
		return "", err
	}
	if got := g.Score().Result.String(); got != want {
		// GNU Go's final_score does its own reading and now and then
		// disagrees with its final_status_list: no usable answer.
		return "", fmt.Errorf("%w: gobot counts %s with GNU Go's dead stones, GNU Go's final_score says %s", errSkip, got, want)
	}
	g.Accept(game.Black)
	g.Accept(game.White)
	var buf bytes.Buffer
	info := game.GameInfo{
		Black: "GNU Go", White: "GNU Go", Result: want, Name: s.name(),
		Comment: fmt.Sprintf("GNU Go 3.8 self-play: --level %d --seed %d %s --never-resign. TB/TW: GNU Go's final_status_list dead and its territory; RE: its final_score.", s.level, s.seed, rulesFlag),
	}
	if err := game.WriteSGF(&buf, g, info); err != nil {
		return "", err
	}
	buf.WriteByte('\n')
	if err := os.WriteFile(filepath.Join(dir, s.name()+".sgf"), buf.Bytes(), 0o644); err != nil {
		return "", err
	}
	return fmt.Sprintf("%d moves, %d dead, %s", g.MoveCount(), nDead, want), nil
}

// sameBoard checks GNU Go's stones (list_stones) against b.
func sameBoard(gg *gtp, b *game.Board) error {
	for _, c := range []game.Color{game.Black, game.White} {
		resp, err := gg.do("list_stones " + strings.ToLower(c.Name()))
		if err != nil {
			return err
		}
		n := 0
		for _, f := range strings.Fields(resp) {
			p, err := game.ParseGTP(f, b.Width(), b.Height())
			if err != nil {
				return err
			}
			if b.At(p) != c {
				return fmt.Errorf("GNU Go has %s at %s, gobot not", c.Name(), f)
			}
			n++
		}
		if n != len(b.Stones(c)) {
			return fmt.Errorf("GNU Go has %d %s stones, gobot %d", n, c.Name(), len(b.Stones(c)))
		}
	}
	return nil
}

type gtp struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startGTP(bin string, args ...string) (*gtp, error) {
	cmd := exec.Command(bin, append([]string{"--mode", "gtp"}, args...)...)
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &gtp{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

func (g *gtp) close() {
	fmt.Fprintln(g.in, "quit")
	g.in.Close()
	g.cmd.Wait()
}

// do sends one command and returns its answer without the "= ".
func (g *gtp) do(c string) (string, error) {
	if _, err := fmt.Fprintln(g.in, c); err != nil {
		return "", fmt.Errorf("gtp %s: %w", c, err)
	}
	var sb strings.Builder
	for {
		line, err := g.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("gtp %s: %w", c, err)
		}
		if strings.TrimSpace(line) == "" && sb.Len() > 0 {
			break
		}
		sb.WriteString(line)
	}
	resp := strings.TrimSpace(sb.String())
	if strings.HasPrefix(resp, "?") {
		return "", fmt.Errorf("gtp %s: %s", c, resp)
	}
	return strings.TrimSpace(strings.TrimPrefix(resp, "=")), nil
}
