package record

import (
	"bytes"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// A room-vote game's voting and a vote challenge's window survive the
// record format; other games and challenges write none of it, and a
// record without it decodes as no vote game.
func TestCodecVoteFields(t *testing.T) {
	g := newGame(t, gobot.VoteSeat, "t:b", "t:r")
	plain, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte(`"vote"`)) {
		t.Errorf("a game without voting writes vote fields: %s", plain)
	}
	if back, err := DecodeMatch(plain); err != nil || back.Vote != nil {
		t.Fatalf("a record without vote fields decodes as %+v, %v", back.Vote, err)
	}
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	g.Vote = &gobot.Vote{Window: 10 * time.Minute, Closes: at.Add(10 * time.Minute),
		Ballots: []gobot.Ballot{{By: "t:c", Move: "E5", At: at}, {By: "t:d", Move: "resign", At: at.Add(time.Second)}},
		Voters:  []gobot.UserID{"t:c", "t:d", "t:e"}, Recent: [][]gobot.UserID{{"t:c"}, {"t:d", "t:e"}}, Left: 90 * time.Minute}
	raw, err := EncodeMatch(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeMatch(raw)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Vote, g.Vote) {
		t.Errorf("decoded vote %+v, want %+v", back.Vote, g.Vote)
	}
	c := &gobot.Challenge{ID: 3, Room: "t:r", From: "t:c", To: "t:b", Config: g.Record.Config, Color: "black"}
	plain, err = EncodeChallenge(c)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(plain, []byte("vote")) {
		t.Errorf("a challenge without voting writes vote fields: %s", plain)
	}
	c.VoteWindow = time.Hour
	raw, err = EncodeChallenge(c)
	if err != nil {
		t.Fatal(err)
	}
	if bc, err := DecodeChallenge(raw); err != nil || bc.VoteWindow != time.Hour {
		t.Errorf("challenge: window %v, %v", bc.VoteWindow, err)
	}
}
