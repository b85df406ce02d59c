package flow_test

import (
	"errors"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
)

// FindChallenge takes the one challenge a caller may answer or
// withdraw, and refuses with the reason otherwise.
func TestFindChallenge(t *testing.T) {
	db := newDB(t)
	alice, bob, carol := gobot.UserID("t:alice"), gobot.UserID("t:bob"), gobot.UserID("t:carol")
	const room = gobot.RoomID("t:room")
	update(t, db, func(tx gobot.Tx) error {
		challenge := func(from, to gobot.UserID) *gobot.Challenge {
			c := &gobot.Challenge{Room: room, From: from, To: to, Color: "black", Created: t0}
			if err := flow.Propose(tx, c); err != nil {
				t.Fatal(err)
			}
			return c
		}
		find := func(u gobot.UserID, id gobot.ChallengeID, mine bool) (*gobot.Challenge, error) {
			return flow.FindChallenge(tx, id, u, room, mine)
		}
		toBob := challenge(alice, bob)
		var own flow.OwnChallengeWaits
		if _, err := find(alice, 0, false); !errors.As(err, &own) || own.C.ID != toBob.ID {
			t.Errorf("alice answers her own: %v", err)
		}
		if c, err := find(bob, 0, false); err != nil || c.ID != toBob.ID {
			t.Errorf("bob answers: %v, %v", c, err)
		}
		if c, err := find(alice, 0, true); err != nil || c.ID != toBob.ID {
			t.Errorf("alice withdraws: %v, %v", c, err)
		}
		var no flow.NoChallenge
		if _, err := find(carol, 0, false); !errors.As(err, &no) || no.ID != 0 {
			t.Errorf("carol answers: %v", err)
		}
		if _, err := find(carol, 99, false); !errors.As(err, &no) || no.ID != 99 {
			t.Errorf("#99: %v", err)
		}
		challenge(carol, alice)
		challenge(bob, alice)
		var which flow.WhichChallenge
		if _, err := find(alice, 0, false); !errors.As(err, &which) || len(which.Cands) != 2 {
			t.Errorf("alice answers one of two: %v", err)
		}
		if c, err := find(alice, toBob.ID, false); err != nil || c.ID != toBob.ID {
			t.Errorf("#%d: %v, %v", toBob.ID, c, err)
		}
		return nil
	})
}
