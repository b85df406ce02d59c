package record

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// A team game's and a team challenge's sides survive the record format;
// a two-player game writes none, and a team without players of both
// colours is refused.
func TestCodecTeams(t *testing.T) {
	g := newGame(t, "t:a", "t:c", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("teams")) {
		t.Errorf("a two-player game writes teams: %s", plain)
	}
	if back, err := DecodeMatch(plain); err != nil || back.Teams != nil {
		t.Errorf("a record without teams decodes to %+v, %v", back.Teams, err)
	}
	g.Teams = &gobot.Teams{Black: []gobot.UserID{"t:a", "t:b"}, White: []gobot.UserID{"t:c", "t:d", "t:e"}}
	g.Teams.Skipped[game.White], g.Teams.Late[game.White], g.Teams.Skipped[game.Black] = 3, 2, 1
	raw, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeMatch(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Teams, g.Teams) {
		t.Errorf("decoded teams %+v, want %+v", back.Teams, g.Teams)
	}

	c := &gobot.Challenge{ID: 4, Room: "t:r", From: "t:a", Color: "random", Created: t0,
		Teams: &gobot.Teams{Black: []gobot.UserID{"t:c"}, White: []gobot.UserID{"t:a", "t:b"}, Accepted: []gobot.UserID{"t:b"}}}
	raw, err = EncodeChallenge(c)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := DecodeChallenge(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(bc.Teams, c.Teams) {
		t.Errorf("decoded challenge teams %+v, want %+v", bc.Teams, c.Teams)
	}

	g.Teams = &gobot.Teams{Black: []gobot.UserID{"t:a"}}
	if _, err := EncodeMatch(g); err == nil {
		t.Error("a team game without White's team was stored")
	}
}
