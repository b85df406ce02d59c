package record

import (
	"errors"
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
	// A record with joins (joined communities, linked accounts).
	jr := *r
	jr.Community, jr.Joins = "community:go-club", []gobot.RatingJoin{{At: at,
		Kept:    gobot.RatingSource{Community: "discord:guild:5", User: "discord:1", Games: 4, Rank: "4k"},
		Dropped: gobot.RatingSource{Community: "matrix:!a:example.org", User: "matrix:@a:example.org", Games: 1, Rank: "9k?"}}}
	jb, err := EncodeRating(&jr)
	if err != nil {
		t.Fatal(err)
	}
	jc := &gobot.JoinedCommunity{ID: "community:go-club", Name: "Go Club", Members: []gobot.CommunityID{"discord:guild:5", "matrix:!a:example.org"}, Updated: at}
	cmb, err := EncodeJoinedCommunity(jc)
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, "game "+string(gb), "challenge "+string(cb), "rating "+string(rb), "joined rating "+string(jb), "community "+string(cmb))
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
	if r2, err := DecodeRating(jb); err != nil || !reflect.DeepEqual(r2, &jr) {
		t.Errorf("rating with joins read back: %+v, %v", r2, err)
	}
	if j2, err := DecodeJoinedCommunityOf(jc.ID, cmb); err != nil || !reflect.DeepEqual(j2, jc) {
		t.Errorf("joined community read back: %+v, %v", j2, err)
	}
	if _, err := DecodeJoinedCommunityOf("community:other", cmb); !errors.Is(err, gobot.ErrCorrupt) {
		t.Errorf("a joined community under another ID: %v", err)
	}
	// A record with impossible values is damaged, not a rating.
	bad := strings.Replace(string(rb), `"rd":180.25`, `"rd":-3`, 1)
	if _, err := DecodeRating([]byte(bad)); err == nil {
		t.Error("a rating with a negative RD was read")
	}
}
