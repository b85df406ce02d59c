package record

import (
	"encoding/json"
	"testing"
)

// BenchmarkDecodeGame compares reading a long game (movesFor's moves,
// each with its time) in the schema-3 format with reading it in the
// schema-2 one (encoding/json of the model).
func BenchmarkDecodeGame(b *testing.B) {
	g := newGame(b, "t:a", "t:b", "t:r")
	for _, m := range movesFor(1, 250) {
		g.Record.Moves = append(g.Record.Moves, m)
		g.MoveTimes = append(g.MoveTimes, t0)
	}
	v3, err := EncodeMatch(g)
	if err != nil {
		b.Fatal(err)
	}
	v2, err := json.Marshal(g)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("schema3", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeMatch(v3); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(v3)), "record-bytes")
	})
	b.Run("schema2", func(b *testing.B) {
		for b.Loop() {
			if _, err := DecodeMatchV2(v2); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(v2)), "record-bytes")
	})
}
