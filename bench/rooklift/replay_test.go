package rooklift

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
	"github.com/rooklift/sgf"
)

// load reads the benchmark records with both libraries.
func load(tb testing.TB) ([]*game.SGFRecord, []*sgf.Node, int) {
	data, err := Records(100)
	if err != nil {
		tb.Fatal(err)
	}
	recs, err := game.ReadSGF(data)
	if err != nil {
		tb.Fatal(err)
	}
	roots, err := sgf.LoadCollectionSGF(string(data))
	if err != nil {
		tb.Fatal(err)
	}
	moves := 0
	for _, r := range recs {
		moves += r.MoveCount()
	}
	return recs, roots, moves
}

// The two replays reach the same positions with the same captures, so
// the benchmarks below compare the same work.
func TestSamePositions(t *testing.T) {
	recs, roots, _ := load(t)
	if len(recs) != 100 || len(roots) != 100 {
		t.Fatalf("%d gobot records, %d rooklift records, want 100", len(recs), len(roots))
	}
	rules, _ := game.Preset("chinese")
	for i := range recs {
		rep, err := recs[i].Replay(rules, false)
		if err != nil || len(rep.Illegal) > 0 {
			t.Fatalf("game %d: gobot: %v %v", i+1, err, rep.Illegal)
		}
		b, moves, err := RookReplay(roots[i])
		if err != nil {
			t.Fatalf("game %d: rooklift: %v", i+1, err)
		}
		if moves != rep.Moves {
			t.Fatalf("game %d: rooklift played %d moves, gobot %d", i+1, moves, rep.Moves)
		}
		g := rep.Game
		var rows []string
		for y := 0; y < 19; y++ {
			var sb strings.Builder
			for x := 0; x < 19; x++ {
				sb.WriteByte(".XO"[b.State[x][y]])
			}
			rows = append(rows, sb.String())
		}
		if got, want := strings.Join(rows, "\n"), strings.Join(g.Board().Rows(), "\n"); got != want {
			t.Fatalf("game %d: rooklift's position\n%s\ngobot's\n%s", i+1, got, want)
		}
		if b.CapturesBy[sgf.BLACK] != g.Captures(game.Black) || b.CapturesBy[sgf.WHITE] != g.Captures(game.White) {
			t.Fatalf("game %d: captures %v, gobot %d/%d", i+1, b.CapturesBy, g.Captures(game.Black), g.Captures(game.White))
		}
	}
}

// Records are the bytes game's BenchmarkReplaySGF replays (benchRecords
// there, whose output had this SHA-256 when this was written).
func TestRecordsAsGame(t *testing.T) {
	data, err := Records(100)
	if err != nil {
		t.Fatal(err)
	}
	const want = "ec957556756bc3aa2059e69c0ae5a79445afbdfbd7994a164e1f00e5b9835aa3"
	if got := fmt.Sprintf("%x", sha256.Sum256(data)); got != want {
		t.Fatalf("Records(100) has SHA-256 %s, game's benchRecords(100) had %s", got, want)
	}
}

// BenchmarkReplayGobot is game's BenchmarkReplaySGF: decoded records
// replayed under chinese rules (positional superko).
func BenchmarkReplayGobot(b *testing.B) {
	recs, _, moves := load(b)
	rules, _ := game.Preset("chinese")
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range recs {
			rep, err := r.Replay(rules, false)
			if err != nil || len(rep.Illegal) > 0 {
				b.Fatal(err, rep.Illegal)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkReplayRooklift replays the same records, loaded by rooklift,
// with rooklift's checks (simple ko only).
func BenchmarkReplayRooklift(b *testing.B) {
	_, roots, moves := load(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range roots {
			if _, _, err := RookReplay(r); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(moves)*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// BenchmarkReadReplayGobot reads the SGF text and replays it.
func BenchmarkReadReplayGobot(b *testing.B) {
	data, err := Records(100)
	if err != nil {
		b.Fatal(err)
	}
	rules, _ := game.Preset("chinese")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		recs, err := game.ReadSGF(data)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range recs {
			if _, err := r.Replay(rules, false); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkReadReplayRooklift loads the SGF text with rooklift and
// replays it.
func BenchmarkReadReplayRooklift(b *testing.B) {
	data, err := Records(100)
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		roots, err := sgf.LoadCollectionSGF(s)
		if err != nil {
			b.Fatal(err)
		}
		for _, r := range roots {
			if _, _, err := RookReplay(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}
