package record

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// TestRatingRecordFormat pins the rating parts of the record format
// (testdata/ratings.golden; -update rewrites it) and checks that each
// record reads back as written.
func TestRatingRecordFormat(t *testing.T) {
	at := time.Date(2026, 11, 24, 1, 2, 3, 0, time.UTC)
	rules, _ := game.Preset("japanese")
	g := &gobot.Match{ID: 9, Version: 3, Room: "discord:5", Black: "discord:1", White: "discord:2", Created: at, Updated: at,
		Record: game.Record{Config: game.Config{Width: 19, Height: 19, Handicap: 3, Rules: rules}},
		Rating: &gobot.GameRating{Community: "discord:guild:5", Rated: true, BlackRank: "5k?", WhiteRank: "2k", Done: true, Grades: 3,
			BlackChange: 12.25, WhiteChange: -12.25, BlackAfter: "4k?", WhiteAfter: "2k"}}
	c := &gobot.Challenge{ID: 9, Room: "discord:5", From: "discord:2", To: "discord:1", Color: "white", Created: at, Status: gobot.Accepted, Game: 9,
		Config: game.Config{Width: 19, Height: 19, Handicap: 3, Rules: rules},
		Rating: &gobot.ChallengeRating{Community: "discord:guild:5", Rated: true, Auto: true, Suggested: "3 stones", FromRank: "2k", ToRank: "5k?"}}
	r := &gobot.PlayerRating{Community: "discord:guild:5", User: "discord:1", Rating: 1612.5, RD: 180.25, Volatility: 0.0600012,
		Games: 4, Wins: 3, Losses: 1, Stated: true, Updated: at,
		Last: []gobot.RatedResult{{Game: 9, Opponent: "discord:2", Score: 1, Change: 12.25, At: at}}}
	var lines []string
	gb, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := EncodeChallenge(c)
	if err != nil {
		t.Fatal(err)
	}
	rb, err := EncodeRating(r)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, "game "+string(gb), "challenge "+string(cb), "rating "+string(rb))
	got := strings.Join(lines, "\n") + "\n"
	golden := filepath.Join("testdata", "ratings.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("the rating record format changed (-update if meant, with a migration):\n got %s\nwant %s", got, want)
	}
	if g2, err := DecodeMatch(gb); err != nil || !reflect.DeepEqual(g2.Rating, g.Rating) {
		t.Errorf("game rating read back: %+v, %v", g2.Rating, err)
	}
	if c2, err := DecodeChallenge(cb); err != nil || !reflect.DeepEqual(c2.Rating, c.Rating) {
		t.Errorf("challenge rating read back: %+v, %v", c2.Rating, err)
	}
	if r2, err := DecodeRating(rb); err != nil || !reflect.DeepEqual(r2, r) {
		t.Errorf("rating read back: %+v, %v", r2, err)
	}
	// A record with impossible values is damaged, not a rating.
	bad := strings.Replace(string(rb), `"rd":180.25`, `"rd":-3`, 1)
	if _, err := DecodeRating([]byte(bad)); err == nil {
		t.Error("a rating with a negative RD was read")
	}
}
