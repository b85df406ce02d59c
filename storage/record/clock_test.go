package record

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// liveClocks is one game per live time system, mid-game: black in
// overtime, white in main time. Their records are pinned in
// testdata/clocks.golden (-update rewrites it), so a later format that
// cannot read them fails here.
func liveClocks(t *testing.T) []*gobot.Match {
	clocks := []gobot.TimeControl{
		{Kind: gobot.ByoYomi, Main: 10 * time.Minute, Periods: 5, Period: 30 * time.Second},
		{Kind: gobot.Canadian, Main: 10 * time.Minute, Stones: 25, Period: 5 * time.Minute},
		{Kind: gobot.Fischer, Main: 5 * time.Minute, Increment: 10 * time.Second, Max: 10 * time.Minute},
		{Kind: gobot.Absolute, Main: 20 * time.Minute},
		{Kind: gobot.Simple, PerMove: 30 * time.Second},
	}
	var out []*gobot.Match
	for i, c := range clocks {
		g := newGame(t, "t:a", "t:b", "t:r")
		g.ID = gobot.GameID(i + 1)
		g.Clock = c
		g.StartClocks()
		b, _ := c.Spend(c.Start(), c.Budget(c.Start())-7*time.Second)
		g.SetClock(game.Black, b)
		g.Deadline = t0.Add(c.Budget(g.ClockOf(game.White)))
		out = append(out, g)
	}
	return out
}

func TestCodecLiveClocks(t *testing.T) {
	var golden bytes.Buffer
	for _, g := range liveClocks(t) {
		raw, err := EncodeMatch(g)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeMatch(raw)
		if err != nil || !reflect.DeepEqual(back, g) {
			t.Fatalf("%+v round trip: %+v, %v", g.Clock, back, err)
		}
		golden.Write(raw)
		golden.WriteByte('\n')
	}
	path := filepath.Join("testdata", "clocks.golden")
	if *update {
		if err := os.WriteFile(path, golden.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(golden.Bytes(), want) {
		t.Errorf("live clocks' records changed:\n%s\nwant\n%s", golden.Bytes(), want)
	}
	// Per-move and Fischer games write no overtime, as before.
	g := newGame(t, "t:a", "t:b", "t:r")
	g.Clock = gobot.TimeControl{Kind: gobot.Fischer, Main: time.Hour, Increment: time.Minute, Max: 2 * time.Hour}
	g.StartClocks()
	raw, _ := EncodeMatch(g)
	if bytes.Contains(raw, []byte("over_")) || bytes.Contains(raw, []byte("period")) {
		t.Errorf("a Fischer game writes overtime: %s", raw)
	}
}
