package render

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// cup is a McMahon of ten players over four rounds paired by Pair, with
// every kind of round: handicaps, a forfeit, a jigo, a bye, a late
// joiner, a game without a result.
func cup(t testing.TB) *tournament.Tournament {
	t.Helper()
	tr := tournament.NewMcMahon(4)
	names := []string{"Ana Souza", "Bartosz Nowak", "Chen Wei", "Dagny Lund", "Émile Roux", "Farah Haddad", "Goro Tanaka", "Hana Kim", "Ivo Petrov", "Jonas Berg"}
	ranks := []game.Rank{4, 2, 1, 0, -1, -2, -4, -5, -7, -9}
	for i, n := range names {
		p := tournament.Player{ID: tournament.PlayerID(fmt.Sprint("p", i)), Name: n, Rank: ranks[i], Rating: tournament.RatingForRank(ranks[i])}
		tr.Players = append(tr.Players, p)
	}
	late := tr.Players[9]
	tr.Players = tr.Players[:9]
	results := []tournament.Result{tournament.WhiteWins, tournament.BlackWins, tournament.BlackWins, tournament.Jigo, tournament.WhiteWins}
	k := 0
	for r := range 4 {
		rd, err := tr.Pair()
		if err != nil {
			t.Fatal(err)
		}
		for i := range rd.Games {
			if r == 3 && i == 0 {
				continue // still playing
			}
			rd.Games[i].Result = results[k%len(results)]
			rd.Games[i].Forfeit = r == 1 && i == 1
			k++
		}
		tr.Played = append(tr.Played, rd)
		if r == 0 { // Jonas joins for round 2
			late.Joined = 1
			tr.Players = append(tr.Players, late)
		}
	}
	return tr
}

// Standings and a ladder as the bot posts them, against golden images
// (go test ./render -run TestTableGoldens -update rewrites them).
func TestTableGoldens(t *testing.T) {
	tr := cup(t)
	lad := ladder(t)
	for _, tc := range []struct {
		name string
		draw func(w *bytes.Buffer) error
	}{
		{"standings", func(w *bytes.Buffer) error {
			_, _, err := StandingsPNG(w, tr, 3, TableOptions{Title: "Winter Cup"})
			return err
		}},
		{"standings-dark-page", func(w *bytes.Buffer) error {
			_, _, err := StandingsPNG(w, tr, 2, TableOptions{Title: "Winter Cup", Theme: "dark", First: 3, Rows: 4})
			return err
		}},
		{"ladder-dark", func(w *bytes.Buffer) error {
			_, _, err := LadderPNG(w, lad, ladderName, TableOptions{Title: "Room ladder", Theme: "dark", Rows: 10})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			if err := tc.draw(&buf); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "table-"+tc.name+".png")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			got, err := png.Decode(bytes.NewReader(buf.Bytes()))
			if err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			defer f.Close()
			want, err := png.Decode(f)
			if err != nil {
				t.Fatal(err)
			}
			if msg := compare(got, want); msg != "" {
				out := filepath.Join(t.TempDir(), tc.name+"-got.png")
				os.WriteFile(out, buf.Bytes(), 0o644)
				t.Fatalf("%s: %s; got image written to %s", golden, msg, out)
			}
		})
	}
}

// Each round's cell shows its result by its ground and the colour played
// by its stone: along every row, the runs of win, loss and jigo ground are
// as many as the player's wins, losses and jigos, and each round's stone
// is black or white as the player's colour was.
func TestStandingsPNGRounds(t *testing.T) {
	tr := cup(t)
	lines, err := tr.Table(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, themeName := range []string{"wood", "dark"} {
		ti, err := standingsTable(tr, 3, TableOptions{})
		if err != nil {
			t.Fatal(err)
		}
		img, err := ti.draw(themeName)
		if err != nil {
			t.Fatal(err)
		}
		tc := tableThemes[themeName]
		near := func(x, y int, want color.RGBA) bool {
			r, g, b, _ := img.At(x, y).RGBA()
			return diff(r>>8, uint32(want.R)) < 8 && diff(g>>8, uint32(want.G)) < 8 && diff(b>>8, uint32(want.B)) < 8
		}
		first := 4 // the rounds' columns follow place, name, rank and score
		seen := map[tournament.Outcome]int{}
		for i, l := range lines {
			top := int(tabTitleH + tabHeadH + float64(i)*tabRowH)
			y := top + 5 // inside the ground, above the text
			runs := map[tournament.Outcome]int{}
			want := map[tournament.Outcome]int{}
			for r, rr := range l.Rounds {
				col := ti.cols[first+r]
				want[rr.Outcome]++
				for o, ground := range map[tournament.Outcome]color.RGBA{tournament.Win: tc.win, tournament.Loss: tc.loss, tournament.Draw: tc.draw} {
					in := false
					// Right of the stone, whose top reaches as high.
					for x := int(col.x + (col.w-roundWidth)/2 + 2*tabStoneR + 3); x < int(col.x+col.w); x++ {
						if on := near(x, y, ground); on && !in {
							runs[o]++
							in = true
						} else if !on {
							in = false
						}
					}
				}
				if rr.Kind != tournament.RoundPlayed {
					continue
				}
				// The stone: a point left of its centre, clear of the number.
				cx := int(col.x + (col.w-roundWidth)/2 + tabStoneR + 1 - tabStoneR*0.6)
				cy := top + int(tabRowH/2)
				r8, g8, b8, _ := img.At(cx, cy).RGBA()
				lum := (r8>>8 + g8>>8 + b8>>8) / 3
				if white := lum > 150; white != rr.White {
					t.Errorf("%s: %s round %d: stone luminance %d, White %v", themeName, l.Name, r+1, lum, rr.White)
				}
			}
			for _, o := range []tournament.Outcome{tournament.Win, tournament.Loss, tournament.Draw} {
				if runs[o] != want[o] {
					t.Errorf("%s: %s: %d cells of outcome %s drawn, want %d", themeName, l.Name, runs[o], o, want[o])
				}
				seen[o] += want[o]
			}
		}
		if seen[tournament.Win] == 0 || seen[tournament.Loss] == 0 || seen[tournament.Draw] == 0 {
			t.Fatalf("the fixture lacks an outcome: %v", seen)
		}
	}
}

// Lines that are not in the table are refused; a page is the lines asked
// for, with a note saying which.
func TestTableRowsRefused(t *testing.T) {
	lad := ladder(t)
	for _, o := range []TableOptions{{First: 12}, {First: -1}, {Rows: -3}} {
		if _, _, err := LadderPNG(&bytes.Buffer{}, lad, ladderName, o); !errors.Is(err, ErrTableRows) {
			t.Errorf("%+v: %v", o, err)
		}
	}
	ti, err := ladderTable(lad, ladderName, TableOptions{First: 10, Rows: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(ti.rows) != 2 || ti.note != "Lines 11–12 of 12" || ti.rows[0][0].text != "11" {
		t.Errorf("rows %d, note %q", len(ti.rows), ti.note)
	}
	if _, _, err := StandingsPNG(&bytes.Buffer{}, cup(t), 4, TableOptions{}); err == nil {
		t.Error("standings after a round not paired")
	}
	if _, _, err := LadderPNG(&bytes.Buffer{}, lad, ladderName, TableOptions{Theme: "neon"}); err == nil {
		t.Error("an unknown theme")
	}
}

var ladderNames = []string{"Ana Souza", "Bartosz Nowak", "Chen Wei", "Dagny Lund", "Émile Roux", "Farah Haddad", "Goro Tanaka", "Hana Kim", "Ivo Petrov", "Jonas Berg", "Kofi Mensah", "Lena Vogel"}

func ladderName(p tournament.PlayerID) string {
	i, _ := strconv.Atoi(string(p)[1:])
	return ladderNames[i]
}

// ladder is a ladder of twelve with three open challenges.
func ladder(t testing.TB) *tournament.Ladder {
	t.Helper()
	l := &tournament.Ladder{Range: 3}
	for i := range ladderNames {
		if err := l.Join(tournament.PlayerID(fmt.Sprint("u", i))); err != nil {
			t.Fatal(err)
		}
	}
	at := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range [][2]tournament.PlayerID{{"u4", "u2"}, {"u5", "u4"}, {"u11", "u9"}} {
		if _, err := l.Challenge(c[0], c[1], at); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// BenchmarkLadderPNG draws a page of a 2,000-player ladder.
func BenchmarkLadderPNG(b *testing.B) {
	l := &tournament.Ladder{Range: 3}
	for i := range tournament.MaxLadderPlayers {
		if err := l.Join(tournament.PlayerID(fmt.Sprint("u", i))); err != nil {
			b.Fatal(err)
		}
	}
	name := func(p tournament.PlayerID) string { return "Player " + string(p) }
	for b.Loop() {
		var buf bytes.Buffer
		if _, _, err := LadderPNG(&buf, l, name, TableOptions{First: 1000}); err != nil {
			b.Fatal(err)
		}
	}
}
