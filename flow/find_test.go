package flow_test

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
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

// Find resolves "#N", the caller's one game here, or says which
// refusal it is; Commit stores an operation's game.
func TestFindAndCommit(t *testing.T) {
	db := newDB(t)
	ref := func(id gobot.GameID, u gobot.UserID, room gobot.RoomID, player bool) flow.Reference {
		return flow.Reference{ID: id, User: u, Room: room, Command: "play", Player: player}
	}
	update(t, db, func(tx gobot.Tx) error {
		l := twoPlayers(t, tx, 1, gobot.TimeControl{})
		if m, err := flow.Find(tx, ref(0, "t:alice", "t:room", true)); err != nil || m.ID != 1 {
			t.Errorf("the one game here: %v, %v", m, err)
		}
		var nsg flow.NoSuchGame
		if _, err := flow.Find(tx, ref(7, "t:alice", "t:room", true)); !errors.As(err, &nsg) || nsg.ID != 7 || nsg.Pending != nil {
			t.Errorf("#7: %v", err)
		}
		var ngh flow.NoGameHere
		if _, err := flow.Find(tx, ref(0, "t:alice", "t:elsewhere", true)); !errors.As(err, &ngh) || len(ngh.Mine) != 1 {
			t.Errorf("elsewhere: %v", err)
		}
		twoPlayers(t, tx, 2, gobot.TimeControl{})
		var which flow.WhichGame
		if _, err := flow.Find(tx, ref(0, "t:alice", "t:room", true)); !errors.As(err, &which) || len(which.Games) != 2 {
			t.Errorf("two games here: %v", err)
		}

		// Alice resigns game #1 through the door: Act saves it.
		o, err := flow.Act(tx, flow.Engines{}, flow.Actor{User: l.Match.Black, Room: "t:room", Time: t0.Add(day)}, 1, flow.Resign{})
		if err != nil || o.Rated.Done || len(o.Turns.Away) != 0 || o.Did != (flow.Ended{Result: "W+R"}) {
			t.Fatalf("Act: %+v, %v", o, err)
		}
		stored, err := tx.Match(1)
		if err != nil || stored.Active() || !stored.Updated.Equal(t0.Add(day)) {
			t.Errorf("stored: %+v, %v", stored, err)
		}
		// A looker sees the room's one active game.
		if m, err := flow.Find(tx, ref(0, "t:carol", "t:room", false)); err != nil || m.ID != 2 {
			t.Errorf("looking: %v, %v", m, err)
		}
		return nil
	})
}

// Issue 43: with several games here and no number, a move (play, pass)
// goes to the one game at the caller's turn, and a vote to the one game
// at the room's; a command not bound to a turn (resign, undo), a plan,
// or a move with several games at the caller's turn asks which.
func TestFindTurn(t *testing.T) {
	db := newDB(t)
	ref := func(u gobot.UserID, cmd string) flow.Reference {
		return flow.Reference{User: u, Room: "t:room", Command: cmd, Player: true}
	}
	update(t, db, func(tx gobot.Tx) error {
		twoPlayers(t, tx, 1, gobot.TimeControl{}) // alice (Black) to move
		g, err := game.New(game.Config{Width: 9, Height: 9})
		if err != nil {
			t.Fatal(err)
		}
		// Game 2: bob Black to move, alice White.
		if err := tx.InsertMatch(&gobot.Match{ID: 2, Room: "t:room", Black: "t:bob", White: "t:alice", Record: g.Record(), Created: t0, Updated: t0}); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"play", "pass"} {
			if m, err := flow.Find(tx, ref("t:alice", cmd)); err != nil || m.ID != 1 {
				t.Errorf("alice's %s: %v, %v (game 1 is at her turn)", cmd, m, err)
			}
			if m, err := flow.Find(tx, ref("t:bob", cmd)); err != nil || m.ID != 2 {
				t.Errorf("bob's %s: %v, %v (game 2 is at his turn)", cmd, m, err)
			}
		}
		var which flow.WhichGame
		for _, cmd := range []string{"resign", "undo", "plan"} {
			if _, err := flow.Find(tx, ref("t:alice", cmd)); !errors.As(err, &which) || len(which.Games) != 2 {
				t.Errorf("alice's %s: %v, want which game", cmd, err)
			}
		}
		twoPlayers(t, tx, 3, gobot.TimeControl{}) // alice to move in a second game
		if _, err := flow.Find(tx, ref("t:alice", "play")); !errors.As(err, &which) || len(which.Games) != 3 || which.Games[2].ID != 2 {
			t.Errorf("alice's play at her turn in two games: %v, want which game, those at her turn first", err)
		}
		return nil
	})
}

// A vote without a number goes to the one game of the room at the
// room's turn.
func TestRoomToMove(t *testing.T) {
	g, err := game.New(game.Config{Width: 9, Height: 9})
	if err != nil {
		t.Fatal(err)
	}
	roomBlack := &gobot.Match{ID: 1, Black: gobot.VoteSeat, White: "t:alice", Record: g.Record(), Vote: &gobot.Vote{Window: time.Minute}}
	roomWhite := &gobot.Match{ID: 2, Black: "t:bob", White: gobot.VoteSeat, Record: g.Record(), Vote: &gobot.Vote{Window: time.Minute}}
	if got := flow.RoomToMove([]*gobot.Match{roomBlack, roomWhite}); len(got) != 1 || got[0].ID != 1 {
		t.Errorf("RoomToMove: %v, want game 1 (the room is Black, to move)", got)
	}
}
