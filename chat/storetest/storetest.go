// Package storetest is the conformance suite for gobot.Store: every store
// implementation (bbolt in storage, PostgreSQL next) runs it from its own
// tests, like testing/fstest.TestFS:
//
//	func TestStore(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) gobot.Store { return mustOpen(t) })
//	}
//
// open must return a new, empty store and register its cleanup with t.
// Times the suite stores have whole seconds in UTC, so a store may keep
// them at microsecond precision; they must come back equal (==, in UTC).
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Damager is implemented by a store (the value open returns) whose test
// can damage a stored record so that it can no longer be decoded, the way
// a bad disk or a buggy old version would. Without it the damaged-record
// tests are skipped.
type Damager interface {
	DamageGame(id gobot.GameID) error
	DamageChallenge(id gobot.ChallengeID) error
}

// Run runs the whole suite, each test on a store of its own.
func Run(t *testing.T, open func(t *testing.T) gobot.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s gobot.Store)
	}{
		{"GameRoundTrip", testGameRoundTrip},
		{"NotFound", testNotFound},
		{"Versions", testVersions},
		{"CopiesNotShared", testCopies},
		{"PlayerGames", testPlayerGames},
		{"TeamGames", testTeamGames},
		{"RoomGames", testRoomGames},
		{"MovedAndHandedOver", testMoved},
		{"DueGames", testDueGames},
		{"Vacations", testVacations},
		{"Challenges", testChallenges},
		{"PlayersAndRooms", testPlayersAndRooms},
		{"Events", testEvents},
		{"State", testState},
		{"UpdateState", testUpdateState},
		{"Rollback", testRollback},
		{"ViewIsReadOnly", testViewReadOnly},
		{"Cancelled", testCancelled},
		{"ConcurrentWriters", testConcurrentWriters},
		{"ConcurrentInserts", testConcurrentInserts},
		{"Outbox", testOutbox},
		{"Claims", testClaims},
		{"SharedNumbers", testSharedNumbers},
		{"Ratings", testRatings},
		{"LinkGenerations", testLinkGenerations}, // link.go
		{"Accounts", testAccounts},               // account.go
		{"LinkCodes", testLinkCodes},             // account.go
		{"Communities", testCommunities},         // community.go
		{"DamagedGames", testDamagedGames},
		{"DamagedChallenges", testDamagedChallenges},
		{"VoteGames", testVoteGames},         // vote.go
		{"Plan", testPlan},                   // conditional moves (plan.go)
		{"Reviews", testReviews},             // review.go
		{"LivePause", testLivePause},         // a live game's pause (pause.go)
		{"Tournaments", testTournaments},     // tournament.go
		{"Ladders", testLadders},             // tournament.go
		{"DamagedEvents", testDamagedEvents}, // tournament.go
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, open(t)) })
	}
}

// T0 is the suite's reference time.
var T0 = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

// NewGame returns an unsaved 9×9 game between black and white in room.
func NewGame(black, white gobot.UserID, room gobot.RoomID) *gobot.Match {
	r, err := game.Preset("japanese")
	if err != nil {
		panic(err)
	}
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: r})
	if err != nil {
		panic(err)
	}
	return &gobot.Match{Room: room, Black: black, White: white, Record: g.Record(), Created: T0, Updated: T0}
}

func update(t *testing.T, s gobot.Store, fn func(tx gobot.Tx) error) {
	t.Helper()
	if err := s.Update(context.Background(), fn); err != nil {
		t.Fatalf("update: %v", err)
	}
}

func view(t *testing.T, s gobot.Store, fn func(tx gobot.Tx) error) {
	t.Helper()
	if err := s.View(context.Background(), fn); err != nil {
		t.Fatalf("view: %v", err)
	}
}

func putGames(t *testing.T, s gobot.Store, gs ...*gobot.Match) {
	t.Helper()
	update(t, s, func(tx gobot.Tx) error {
		for _, g := range gs {
			if err := tx.PutMatch(g); err != nil {
				return err
			}
		}
		return nil
	})
}

func getGame(t *testing.T, s gobot.Store, id gobot.GameID) *gobot.Match {
	t.Helper()
	var g *gobot.Match
	view(t, s, func(tx gobot.Tx) (err error) { g, err = tx.Match(id); return err })
	return g
}

// gameIDs lists a list call's games' IDs; the call must succeed.
func gameIDs(t *testing.T, s gobot.Store, what string, list func(tx gobot.Tx) ([]*gobot.Match, error)) []gobot.GameID {
	t.Helper()
	var ids []gobot.GameID
	view(t, s, func(tx gobot.Tx) error {
		gs, err := list(tx)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		return nil
	})
	return ids
}

func chalIDs(t *testing.T, s gobot.Store, what string, list func(tx gobot.Tx) ([]*gobot.Challenge, error)) []gobot.ChallengeID {
	t.Helper()
	var ids []gobot.ChallengeID
	view(t, s, func(tx gobot.Tx) error {
		cs, err := list(tx)
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		for _, c := range cs {
			ids = append(ids, c.ID)
		}
		return nil
	})
	return ids
}

func wantIDs[ID comparable](t *testing.T, what string, got []ID, want ...ID) {
	t.Helper()
	if len(got) != len(want) || !slices.Equal(got, want) {
		t.Errorf("%s: got %v, want %v", what, got, want)
	}
}

func testGameRoundTrip(t *testing.T, s gobot.Store) {
	g := NewGame("t:ann", "t:bob", "t:room")
	gg, _ := game.Replay(g.Record)
	for _, p := range []game.Point{game.Pt(2, 2), game.Pt(6, 6), game.Pt(2, 6)} {
		if err := gg.Play(gg.ToMove(), p); err != nil {
			t.Fatal(err)
		}
	}
	g.Record = gg.Record()
	g.MoveTimes = []time.Time{T0, T0.Add(time.Hour), T0.Add(2 * time.Hour)}
	g.Clock = gobot.TimeControl{Kind: gobot.Fischer, Main: 72 * time.Hour, Increment: 24 * time.Hour, Max: 168 * time.Hour}
	g.Left = [3]time.Duration{0, 70 * time.Hour, 71 * time.Hour}
	g.Deadline = T0.Add(72 * time.Hour)
	g.Reminded = 1
	g.UndoBy = "t:bob"
	g.Undos = []gobot.Undo{{By: "t:bob", Move: 2, Was: game.Move{Color: game.White, Point: game.Pt(4, 4)}, At: T0}}
	g.Thread, g.Parent = true, "t:parent"
	g.Challenge = 3
	putGames(t, s, g)
	if g.ID != 1 || g.Version != 1 {
		t.Fatalf("first game stored as #%d version %d, want #1 version 1", g.ID, g.Version)
	}
	if got := getGame(t, s, 1); !reflect.DeepEqual(got, g) {
		t.Errorf("game round trip:\n got %+v\nwant %+v", got, g)
	}
	if _, err := game.Replay(getGame(t, s, 1).Record); err != nil {
		t.Errorf("the stored record does not replay: %v", err)
	}

	over := NewGame("t:cat", "t:dan", "t:room")
	over.Finished, over.Result = T0.Add(time.Hour), "W+R"
	putGames(t, s, over)
	if over.ID != 2 {
		t.Errorf("second game got #%d, want #2", over.ID)
	}
	if got := getGame(t, s, 2); !reflect.DeepEqual(got, over) || got.Active() {
		t.Errorf("finished game round trip:\n got %+v\nwant %+v", got, over)
	}
}

func testNotFound(t *testing.T, s gobot.Store) {
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Match(42); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("Game(42) on an empty store: %v, want ErrNotFound", err)
		}
		if _, err := tx.Challenge(42); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("Challenge(42): %v, want ErrNotFound", err)
		}
		if _, err := tx.Player("t:nobody"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("Player: %v, want ErrNotFound", err)
		}
		if _, err := tx.Room("t:nowhere"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("Room: %v, want ErrNotFound", err)
		}
		if _, err := tx.State("t", "none"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("State: %v, want ErrNotFound", err)
		}
		for what, list := range map[string]func() (int, error){
			"ActiveGames":       func() (int, error) { l, err := tx.ActiveGames("t:ann"); return len(l), err },
			"RoomGames":         func() (int, error) { l, err := tx.RoomGames("t:room", false); return len(l), err },
			"DueGames":          func() (int, error) { l, err := tx.DueGames(T0.Add(1000*time.Hour), 0); return len(l), err },
			"PendingChallenges": func() (int, error) { l, err := tx.PendingChallenges("t:ann"); return len(l), err },
			"RoomChallenges":    func() (int, error) { l, err := tx.RoomChallenges("t:room"); return len(l), err },
		} {
			if n, err := list(); n != 0 || err != nil {
				t.Errorf("%s on an empty store: %d records, %v", what, n, err)
			}
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		g := NewGame("t:ann", "t:bob", "t:room")
		g.ID = 7
		return tx.PutMatch(g)
	})
	if !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("updating game #7 that was never stored: %v, want ErrNotFound", err)
	}
	err = s.Update(context.Background(), func(tx gobot.Tx) error {
		return tx.PutChallenge(&gobot.Challenge{ID: 7, Room: "t:room", From: "t:ann", Created: T0})
	})
	if !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("updating challenge #7 that was never stored: %v, want ErrNotFound", err)
	}
}

func testVersions(t *testing.T, s gobot.Store) {
	g := NewGame("t:ann", "t:bob", "t:room")
	putGames(t, s, g)
	stale := *getGame(t, s, g.ID)
	g.Reminded = 1
	putGames(t, s, g)
	if g.Version != 2 {
		t.Fatalf("version after two writes: %d, want 2", g.Version)
	}
	stale.Reminded = 2
	err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutMatch(&stale) })
	if !errors.Is(err, gobot.ErrConflict) {
		t.Fatalf("a write from version 1 over version 2: %v, want ErrConflict", err)
	}
	if got := getGame(t, s, g.ID); got.Version != 2 || got.Reminded != 1 {
		t.Errorf("after the refused stale write: version %d reminded %d, want 2 and 1", got.Version, got.Reminded)
	}
	// Two writes in one transaction: each sees the other's version.
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(1)
		if err != nil {
			return err
		}
		if err := tx.PutMatch(g); err != nil {
			return err
		}
		again, err := tx.Match(1)
		if err != nil {
			return err
		}
		if again.Version != 3 {
			t.Errorf("read back in the same transaction: version %d, want 3", again.Version)
		}
		return tx.PutMatch(again)
	})
	if got := getGame(t, s, 1); got.Version != 4 {
		t.Errorf("version after two writes in one transaction: %d, want 4", got.Version)
	}
}

func testCopies(t *testing.T, s gobot.Store) {
	putGames(t, s, NewGame("t:ann", "t:bob", "t:room"))
	view(t, s, func(tx gobot.Tx) error {
		a, err := tx.Match(1)
		if err != nil {
			return err
		}
		a.Black, a.Record.Moves = "t:eve", append(a.Record.Moves, game.Move{Color: game.Black, Point: game.Pt(0, 0)})
		b, err := tx.Match(1)
		if err != nil {
			return err
		}
		if b.Black != "t:ann" || len(b.Record.Moves) != 0 {
			t.Errorf("changing a returned game changed the stored one: %+v", b)
		}
		return nil
	})
}

func testPlayerGames(t *testing.T, s gobot.Store) {
	putGames(t, s,
		NewGame("t:ann", "t:bob", "t:r1"), // 1
		NewGame("t:cat", "t:ann", "t:r2"), // 2
		NewGame("t:bob", "t:cat", "t:r1"), // 3
		NewGame("t:ann", "t:dan", "t:r3"), // 4
	)
	ann := func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:ann") }
	wantIDs(t, "ann's active games", gameIDs(t, s, "ActiveGames", ann), 1, 2, 4)
	wantIDs(t, "bob's active games", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:bob") }), 1, 3)
	// A prefix of another user's ID is another user.
	wantIDs(t, "an's active games", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:an") }))

	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(2)
		if err != nil {
			return err
		}
		g.Finished, g.Result = T0.Add(time.Hour), "B+R"
		return tx.PutMatch(g)
	})
	wantIDs(t, "ann's active games after #2 ended", gameIDs(t, s, "ActiveGames", ann), 1, 4)
	wantIDs(t, "cat's active games after #2 ended", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:cat") }), 3)

	// A game against oneself is listed once.
	putGames(t, s, NewGame("t:eve", "t:eve", "t:r1"))
	wantIDs(t, "eve's game against herself", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:eve") }), 5)
}

func testRoomGames(t *testing.T, s gobot.Store) {
	putGames(t, s,
		NewGame("t:ann", "t:bob", "t:r1"), // 1
		NewGame("t:cat", "t:dan", "t:r2"), // 2
		NewGame("t:bob", "t:cat", "t:r1"), // 3
	)
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(1)
		if err != nil {
			return err
		}
		g.Finished, g.Result = T0, "W+T"
		return tx.PutMatch(g)
	})
	wantIDs(t, "r1, all", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:r1", false) }), 1, 3)
	wantIDs(t, "r1, active", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:r1", true) }), 3)
	wantIDs(t, "r2, active", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:r2", true) }), 2)
	wantIDs(t, "r, a prefix of r1", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:r", false) }))
	// A game between platforms is its mirror room's too (docs/identity.md),
	// and leaves it when it has none.
	g := NewGame("t:eve", "u:fay", "t:r3")
	g.Mirror = "u:r4"
	putGames(t, s, g) // 4
	wantIDs(t, "r4, the mirror", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("u:r4", true) }), 4)
	wantIDs(t, "r3, its home", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:r3", true) }), 4)
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(4)
		if err != nil {
			return err
		}
		g.Mirror = ""
		return tx.PutMatch(g)
	})
	wantIDs(t, "r4, mirror no more", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("u:r4", false) }))
}

// testMoved: a game moved to a thread and a game handed to another
// player leave their old index entries.
func testMoved(t *testing.T, s gobot.Store) {
	g := NewGame("t:ann", "t:bob", "t:room")
	g.Deadline = T0.Add(time.Hour)
	putGames(t, s, g)
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(1)
		if err != nil {
			return err
		}
		g.Parent, g.Room, g.Thread = g.Room, "t:thread", true
		g.White = "t:cat"
		g.Deadline = T0.Add(2 * time.Hour)
		return tx.PutMatch(g)
	})
	wantIDs(t, "old room", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:room", false) }))
	wantIDs(t, "thread", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:thread", true) }), 1)
	wantIDs(t, "bob, who handed it over", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:bob") }))
	wantIDs(t, "cat, who took it", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:cat") }), 1)
	wantIDs(t, "ann", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:ann") }), 1)
	wantIDs(t, "due before the old deadline moved", gameIDs(t, s, "DueGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.DueGames(T0.Add(90*time.Minute), 0) }))
	wantIDs(t, "due before the new deadline", gameIDs(t, s, "DueGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.DueGames(T0.Add(3*time.Hour), 0) }), 1)
}

func testDueGames(t *testing.T, s gobot.Store) {
	at := func(h int) time.Time { return T0.Add(time.Duration(h) * time.Hour) }
	var gs []*gobot.Match
	for _, h := range []int{5, 1, 3, 0, 3, 9} { // #1..#6; #4 has no deadline
		g := NewGame("t:ann", "t:bob", "t:room")
		if h != 0 {
			g.Deadline = at(h)
		}
		gs = append(gs, g)
	}
	finished := NewGame("t:ann", "t:bob", "t:room") // #7: over, its deadline no longer counts
	finished.Deadline, finished.Finished, finished.Result = at(1), at(1), "B+T"
	putGames(t, s, append(gs, finished)...)
	due := func(before time.Time, limit int) []gobot.GameID {
		return gameIDs(t, s, "DueGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.DueGames(before, limit) })
	}
	wantIDs(t, "due before +6h, earliest first, ties by ID", due(at(6), 0), 2, 3, 5, 1)
	wantIDs(t, "due before +3h (strictly before)", due(at(3), 0), 2)
	wantIDs(t, "due before +100h, limit 3", due(at(100), 3), 2, 3, 5)
	wantIDs(t, "due before +1h", due(at(1), 0))

	// Clearing and moving deadlines moves the entries.
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(2)
		if err != nil {
			return err
		}
		g.Deadline = time.Time{}
		if err := tx.PutMatch(g); err != nil {
			return err
		}
		g, err = tx.Match(6)
		if err != nil {
			return err
		}
		g.Deadline = at(2)
		return tx.PutMatch(g)
	})
	wantIDs(t, "due after #2 cleared and #6 moved to +2h", due(at(100), 0), 6, 3, 5, 1)
	update(t, s, func(tx gobot.Tx) error {
		g, err := tx.Match(3)
		if err != nil {
			return err
		}
		g.Finished, g.Result = at(3), "W+T"
		return tx.PutMatch(g)
	})
	wantIDs(t, "due after #3 ended", due(at(100), 0), 6, 5, 1)
}

func testChallenges(t *testing.T, s gobot.Store) {
	cfg := NewGame("", "", "").Record.Config
	cfg.Rules.Komi = 0.5
	cs := []*gobot.Challenge{
		{Room: "t:r1", From: "t:ann", To: "t:bob", Config: cfg, Color: "black", Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}, Created: T0, Message: "m1"}, // 1
		{Room: "t:r1", From: "t:cat", Config: cfg, Color: "random", Created: T0},                                                                                                    // 2, open
		{Room: "t:r2", From: "t:bob", To: "t:ann", Config: cfg, Color: "white", Created: T0},                                                                                        // 3
	}
	update(t, s, func(tx gobot.Tx) error {
		for _, c := range cs {
			if err := tx.PutChallenge(c); err != nil {
				return err
			}
		}
		return nil
	})
	for i, c := range cs {
		if c.ID != gobot.ChallengeID(i+1) {
			t.Fatalf("challenge %d stored as #%d", i+1, c.ID)
		}
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Challenge(1)
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(got, cs[0]) {
			t.Errorf("challenge round trip:\n got %+v\nwant %+v", got, cs[0])
		}
		return nil
	})
	pending := func(u gobot.UserID) []gobot.ChallengeID {
		return chalIDs(t, s, "PendingChallenges", func(tx gobot.Tx) ([]*gobot.Challenge, error) { return tx.PendingChallenges(u) })
	}
	inRoom := func(r gobot.RoomID) []gobot.ChallengeID {
		return chalIDs(t, s, "RoomChallenges", func(tx gobot.Tx) ([]*gobot.Challenge, error) { return tx.RoomChallenges(r) })
	}
	wantIDs(t, "ann's pending challenges", pending("t:ann"), 1, 3)
	wantIDs(t, "bob's", pending("t:bob"), 1, 3)
	wantIDs(t, "cat's (open)", pending("t:cat"), 2)
	wantIDs(t, "room r1's", inRoom("t:r1"), 1, 2)
	wantIDs(t, "room r2's", inRoom("t:r2"), 3)

	// Answered challenges leave the indexes; a changed opponent moves.
	answer := func(id gobot.ChallengeID, st gobot.ChallengeStatus, g gobot.GameID) {
		update(t, s, func(tx gobot.Tx) error {
			c, err := tx.Challenge(id)
			if err != nil {
				return err
			}
			c.Status, c.Answered, c.Game = st, T0.Add(time.Hour), g
			return tx.PutChallenge(c)
		})
	}
	answer(1, gobot.Declined, 0)
	answer(3, gobot.Accepted, 9)
	update(t, s, func(tx gobot.Tx) error {
		c, err := tx.Challenge(2)
		if err != nil {
			return err
		}
		c.To = "t:dan"
		return tx.PutChallenge(c)
	})
	wantIDs(t, "ann's after #1 declined and #3 accepted", pending("t:ann"))
	wantIDs(t, "dan's, now challenged by cat", pending("t:dan"), 2)
	wantIDs(t, "room r1's", inRoom("t:r1"), 2)
	wantIDs(t, "room r2's", inRoom("t:r2"))
	update(t, s, func(tx gobot.Tx) error {
		c, err := tx.Challenge(2)
		if err != nil {
			return err
		}
		c.Status = gobot.Cancelled
		return tx.PutChallenge(c)
	})
	wantIDs(t, "cat's after cancelling", pending("t:cat"))
	view(t, s, func(tx gobot.Tx) error {
		for id, want := range map[gobot.ChallengeID]gobot.ChallengeStatus{1: gobot.Declined, 2: gobot.Cancelled, 3: gobot.Accepted} {
			c, err := tx.Challenge(id)
			if err != nil {
				return err
			}
			if c.Status != want {
				t.Errorf("challenge #%d: status %v, want %v", id, c.Status, want)
			}
		}
		return nil
	})
}

func testPlayersAndRooms(t *testing.T, s gobot.Store) {
	komi := 7.5
	p := &gobot.Player{ID: "t:ann", Name: "Ann", Notify: "dm", Theme: "dark", Confirm: "always", Updated: T0}
	r := &gobot.Room{ID: "t:room", Rules: "chinese", Width: 13, Height: 9, Komi: &komi, Clock: "fischer:3d+1d/7d", Threads: true, Updated: T0, Widget: true, LiveImages: "every"}
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
		return tx.PutRoom(r)
	})
	view(t, s, func(tx gobot.Tx) error {
		gp, err := tx.Player("t:ann")
		if err != nil {
			return err
		}
		gr, err := tx.Room("t:room")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(gp, p) || !reflect.DeepEqual(gr, r) {
			t.Errorf("round trip:\n got %+v %+v\nwant %+v %+v", gp, gr, p, r)
		}
		return nil
	})
	p2 := &gobot.Player{ID: "t:ann", Name: "Annie", Updated: T0.Add(time.Hour)}
	update(t, s, func(tx gobot.Tx) error { return tx.PutPlayer(p2) })
	view(t, s, func(tx gobot.Tx) error {
		gp, err := tx.Player("t:ann")
		if err != nil {
			return err
		}
		if !reflect.DeepEqual(gp, p2) {
			t.Errorf("after overwrite: %+v, want %+v", gp, p2)
		}
		return nil
	})
}

func testEvents(t *testing.T, s gobot.Store) {
	update(t, s, func(tx gobot.Tx) error { return tx.MarkEvent("t:e1", T0) })
	update(t, s, func(tx gobot.Tx) error { return tx.MarkEvent("t:e2", T0.Add(time.Hour)) })
	err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.MarkEvent("t:e1", T0.Add(2*time.Hour)) })
	if !errors.Is(err, gobot.ErrDuplicate) {
		t.Fatalf("marking e1 again: %v, want ErrDuplicate", err)
	}
	err = s.Update(context.Background(), func(tx gobot.Tx) error {
		if err := tx.MarkEvent("t:e3", T0); err != nil {
			return err
		}
		return tx.MarkEvent("t:e3", T0)
	})
	if !errors.Is(err, gobot.ErrDuplicate) {
		t.Fatalf("marking e3 twice in one transaction: %v, want ErrDuplicate", err)
	}
	var n int
	update(t, s, func(tx gobot.Tx) (err error) { n, err = tx.ExpireEvents(T0.Add(time.Hour)); return err })
	if n != 1 {
		t.Errorf("expiring events before +1h removed %d, want 1 (e1; e2 is at +1h, e3 was rolled back)", n)
	}
	update(t, s, func(tx gobot.Tx) error { return tx.MarkEvent("t:e1", T0.Add(3*time.Hour)) })
	err = s.Update(context.Background(), func(tx gobot.Tx) error { return tx.MarkEvent("t:e2", T0.Add(3*time.Hour)) })
	if !errors.Is(err, gobot.ErrDuplicate) {
		t.Errorf("e2 after expiring older events: %v, want ErrDuplicate", err)
	}
	update(t, s, func(tx gobot.Tx) (err error) { n, err = tx.ExpireEvents(T0.Add(100 * time.Hour)); return err })
	if n != 2 {
		t.Errorf("expiring everything removed %d, want 2", n)
	}
}

func testState(t *testing.T, s gobot.Store) {
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutState("matrix", "since", []byte("s1")); err != nil {
			return err
		}
		return tx.PutState("discord", "since", []byte("other"))
	})
	view(t, s, func(tx gobot.Tx) error {
		v, err := tx.State("matrix", "since")
		if err != nil || string(v) != "s1" {
			t.Errorf("matrix/since: %q, %v", v, err)
		}
		v, err = tx.State("discord", "since")
		if err != nil || string(v) != "other" {
			t.Errorf("discord/since: %q, %v", v, err)
		}
		return nil
	})
	st := gobot.StoreState(s)
	ctx := context.Background()
	if err := st.PutState(ctx, "matrix", map[string][]byte{"since": []byte("s2"), "dm t:ann": []byte("!dm"), "session": []byte{0, 1, 0xff}}); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"since": "s2", "dm t:ann": "!dm", "session": "\x00\x01\xff"} {
		if v, err := st.GetState(ctx, "matrix", k); err != nil || string(v) != want {
			t.Errorf("matrix/%s: %q, %v; want %q", k, v, err, want)
		}
	}
	if err := st.PutState(ctx, "matrix", map[string][]byte{"since": nil}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetState(ctx, "matrix", "since"); !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("after deleting matrix/since: %v, want ErrNotFound", err)
	}
	if v, err := st.GetState(ctx, "discord", "since"); err != nil || string(v) != "other" {
		t.Errorf("discord/since after deleting matrix/since: %q, %v", v, err)
	}
}

// UpdateState changes a value in one transaction: writers racing on one
// key (an adapter's held notices, from several processes) lose nothing;
// fn's error writes nothing; a nil result deletes the key.
func testUpdateState(t *testing.T, s gobot.Store) {
	ctx := context.Background()
	st := gobot.StoreState(s)
	const writers, each = 2, 4
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				errs <- st.UpdateState(ctx, "test", "list", func(old []byte) ([]byte, error) {
					return append(old, fmt.Sprintf("%d.%d;", w, i)...), nil
				})
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatalf("UpdateState: %v", err)
		}
	}
	v, err := st.GetState(ctx, "test", "list")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(v), ";"); n != writers*each {
		t.Fatalf("%d of %d appends kept: %q", n, writers*each, v)
	}
	boom := errors.New("boom")
	if err := st.UpdateState(ctx, "test", "list", func([]byte) ([]byte, error) { return []byte("lost"), boom }); !errors.Is(err, boom) {
		t.Fatalf("fn's error: %v", err)
	}
	if after, _ := st.GetState(ctx, "test", "list"); string(after) != string(v) {
		t.Fatalf("a failed update wrote %q", after)
	}
	if err := st.UpdateState(ctx, "test", "list", func([]byte) ([]byte, error) { return nil, nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := st.GetState(ctx, "test", "list"); !errors.Is(err, gobot.ErrNotFound) {
		t.Fatalf("after a nil result: %v, want ErrNotFound", err)
	}
	var seen []byte
	if err := st.UpdateState(ctx, "test", "none", func(old []byte) ([]byte, error) { seen = old; return nil, nil }); err != nil || seen != nil {
		t.Fatalf("a missing key: old %q, err %v", seen, err)
	}
}

func testRollback(t *testing.T, s gobot.Store) {
	putGames(t, s, NewGame("t:ann", "t:bob", "t:room"))
	boom := errors.New("boom")
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		g, err := tx.Match(1)
		if err != nil {
			return err
		}
		g.Deadline, g.Room = T0.Add(time.Hour), "t:elsewhere"
		for _, f := range []func() error{
			func() error { return tx.PutMatch(g) },
			func() error { return tx.PutMatch(NewGame("t:cat", "t:dan", "t:room")) },
			func() error { return tx.PutChallenge(&gobot.Challenge{Room: "t:room", From: "t:ann", Created: T0}) },
			func() error { return tx.PutPlayer(&gobot.Player{ID: "t:ann", Name: "Ann", Updated: T0}) },
			func() error { return tx.PutRoom(&gobot.Room{ID: "t:room", Threads: true, Updated: T0}) },
			func() error { return tx.MarkEvent("t:e", T0) },
			func() error { return tx.PutState("t", "k", []byte("v")) },
		} {
			if err := f(); err != nil {
				return err
			}
		}
		return fmt.Errorf("handler failed: %w", boom)
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update returned %v, want fn's error", err)
	}
	if g := getGame(t, s, 1); g.Version != 1 || g.Room != "t:room" || !g.Deadline.IsZero() {
		t.Errorf("game #1 after a rolled-back write: %+v", g)
	}
	wantIDs(t, "room games", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:room", false) }), 1)
	wantIDs(t, "elsewhere", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:elsewhere", false) }))
	wantIDs(t, "cat's games", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:cat") }))
	wantIDs(t, "due", gameIDs(t, s, "DueGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.DueGames(T0.Add(100*time.Hour), 0) }))
	wantIDs(t, "room challenges", chalIDs(t, s, "RoomChallenges", func(tx gobot.Tx) ([]*gobot.Challenge, error) { return tx.RoomChallenges("t:room") }))
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Player("t:ann"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("player after rollback: %v", err)
		}
		if _, err := tx.Room("t:room"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("room after rollback: %v", err)
		}
		if _, err := tx.State("t", "k"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("state after rollback: %v", err)
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error { return tx.MarkEvent("t:e", T0) }) // not marked by the rolled-back transaction
}

func testViewReadOnly(t *testing.T, s gobot.Store) {
	err := s.View(context.Background(), func(tx gobot.Tx) error {
		return tx.PutMatch(NewGame("t:ann", "t:bob", "t:room"))
	})
	if err == nil {
		t.Error("PutMatch in a View succeeded")
	}
	wantIDs(t, "games after a write in a View", gameIDs(t, s, "RoomGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.RoomGames("t:room", false) }))
}

func testCancelled(t *testing.T, s gobot.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	ran := false
	if err := s.Update(ctx, func(tx gobot.Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("Update with a cancelled context: %v (fn ran: %v), want context.Canceled and no run", err, ran)
	}
	if err := s.View(ctx, func(tx gobot.Tx) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Errorf("View with a cancelled context: %v (fn ran: %v), want context.Canceled and no run", err, ran)
	}
}

// testConcurrentWriters: writers racing on one game each add an undo
// entry, retrying on ErrConflict; none is lost.
func testConcurrentWriters(t *testing.T, s gobot.Store) {
	putGames(t, s, NewGame("t:ann", "t:bob", "t:room"))
	const writers, each = 8, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				for {
					err := s.Update(context.Background(), func(tx gobot.Tx) error {
						g, err := tx.Match(1)
						if err != nil {
							return err
						}
						g.Undos = append(g.Undos, gobot.Undo{By: gobot.UserID(fmt.Sprintf("t:w%d", w)), Move: i, Was: game.Move{Color: game.Black, Point: game.Pt(i%9, w%9)}, At: T0})
						return tx.PutMatch(g)
					})
					if errors.Is(err, gobot.ErrConflict) {
						continue
					}
					if err != nil {
						errs <- err
						return
					}
					break
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	g := getGame(t, s, 1)
	if len(g.Undos) != writers*each || g.Version != writers*each+1 {
		t.Fatalf("%d writers × %d updates: %d stored, version %d; want %d and %d", writers, each, len(g.Undos), g.Version, writers*each, writers*each+1)
	}
	seen := map[string]bool{}
	for _, u := range g.Undos {
		k := fmt.Sprint(u.By, u.Move)
		if seen[k] {
			t.Errorf("update %s stored twice", k)
		}
		seen[k] = true
	}
}

// testConcurrentInserts: new games and challenges inserted at once get
// distinct IDs.
func testConcurrentInserts(t *testing.T, s gobot.Store) {
	const writers, each = 6, 5
	var wg sync.WaitGroup
	var mu sync.Mutex
	games, chals := map[gobot.GameID]bool{}, map[gobot.ChallengeID]bool{}
	for range writers {
		wg.Go(func() {
			for range each {
				g := NewGame("t:ann", "t:bob", "t:room")
				c := &gobot.Challenge{Room: "t:room", From: "t:ann", Created: T0}
				err := s.Update(context.Background(), func(tx gobot.Tx) error {
					g.ID, g.Version, c.ID = 0, 0, 0
					if err := tx.PutMatch(g); err != nil {
						return err
					}
					return tx.PutChallenge(c)
				})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				games[g.ID], chals[c.ID] = true, true
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(games) != writers*each || len(chals) != writers*each {
		t.Fatalf("%d inserts gave %d distinct game IDs and %d challenge IDs", writers*each, len(games), len(chals))
	}
	if n := len(gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:ann") })); n != writers*each {
		t.Errorf("ann has %d active games, want %d", n, writers*each)
	}
}

func damager(t *testing.T, s gobot.Store) Damager {
	d, ok := s.(Damager)
	if !ok {
		t.Skip("the store cannot damage records (implement storetest.Damager in its test)")
	}
	return d
}

func testDamagedGames(t *testing.T, s gobot.Store) {
	d := damager(t, s)
	for range 3 {
		g := NewGame("t:ann", "t:bob", "t:room")
		g.Deadline = T0.Add(time.Hour)
		putGames(t, s, g)
	}
	if err := d.DamageGame(2); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Match(2); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("Game(2), damaged: %v, want ErrCorrupt", err)
		}
		if g, err := tx.Match(3); err != nil || g.ID != 3 {
			t.Errorf("Game(3) next to a damaged one: %v", err)
		}
		for what, list := range map[string]func() ([]*gobot.Match, error){
			"ActiveGames": func() ([]*gobot.Match, error) { return tx.ActiveGames("t:ann") },
			"RoomGames":   func() ([]*gobot.Match, error) { return tx.RoomGames("t:room", false) },
			"DueGames":    func() ([]*gobot.Match, error) { return tx.DueGames(T0.Add(2*time.Hour), 0) },
		} {
			gs, err := list()
			var ids []gobot.GameID
			for _, g := range gs {
				ids = append(ids, g.ID)
			}
			wantIDs(t, what+" with #2 damaged", ids, 1, 3)
			d := gobot.Damaged(err)
			if !errors.Is(err, gobot.ErrCorrupt) || d == nil || !slices.Equal(d.Games, []gobot.GameID{2}) || len(d.Challenges) != 0 {
				t.Errorf("%s with #2 damaged: error %v, want a DamagedError naming game #2", what, err)
			}
		}
		return nil
	})
	// A damaged record is not overwritten blindly.
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		g := NewGame("t:ann", "t:bob", "t:room")
		g.ID, g.Version = 2, 1
		return tx.PutMatch(g)
	})
	if !errors.Is(err, gobot.ErrCorrupt) {
		t.Errorf("overwriting damaged game #2: %v, want ErrCorrupt", err)
	}
}

func testDamagedChallenges(t *testing.T, s gobot.Store) {
	d := damager(t, s)
	update(t, s, func(tx gobot.Tx) error {
		for range 3 {
			if err := tx.PutChallenge(&gobot.Challenge{Room: "t:room", From: "t:ann", To: "t:bob", Created: T0}); err != nil {
				return err
			}
		}
		return nil
	})
	if err := d.DamageChallenge(1); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Challenge(1); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("Challenge(1), damaged: %v, want ErrCorrupt", err)
		}
		for what, list := range map[string]func() ([]*gobot.Challenge, error){
			"PendingChallenges": func() ([]*gobot.Challenge, error) { return tx.PendingChallenges("t:bob") },
			"RoomChallenges":    func() ([]*gobot.Challenge, error) { return tx.RoomChallenges("t:room") },
		} {
			cs, err := list()
			var ids []gobot.ChallengeID
			for _, c := range cs {
				ids = append(ids, c.ID)
			}
			wantIDs(t, what+" with #1 damaged", ids, 2, 3)
			d := gobot.Damaged(err)
			if !errors.Is(err, gobot.ErrCorrupt) || d == nil || !slices.Equal(d.Challenges, []gobot.ChallengeID{1}) || len(d.Games) != 0 {
				t.Errorf("%s with #1 damaged: error %v, want a DamagedError naming challenge #1", what, err)
			}
		}
		return nil
	})
}

func testOutbox(t *testing.T, s gobot.Store) {
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Outbox("t:e1"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("empty outbox: %v, want ErrNotFound", err)
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		if err := tx.PutOutbox("t:e1", T0, []byte("reply 1")); err != nil {
			return err
		}
		return tx.PutOutbox("t:e2", T0.Add(time.Hour), []byte("reply 2"))
	})
	// A rolled-back entry is not owed.
	s.Update(context.Background(), func(tx gobot.Tx) error {
		tx.PutOutbox("t:e3", T0, []byte("never"))
		return errors.New("rolled back")
	})
	update(t, s, func(tx gobot.Tx) error {
		if v, err := tx.Outbox("t:e1"); err != nil || string(v) != "reply 1" {
			t.Errorf("e1: %q %v", v, err)
		}
		if _, err := tx.Outbox("t:e3"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("rolled-back e3: %v, want ErrNotFound", err)
		}
		if err := tx.DeleteOutbox("t:e1"); err != nil {
			return err
		}
		if _, err := tx.Outbox("t:e1"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("delivered e1: %v, want ErrNotFound", err)
		}
		n, err := tx.ExpireOutbox(T0.Add(2 * time.Hour))
		if n != 1 || err != nil {
			t.Errorf("expired %d, %v; want 1", n, err)
		}
		if _, err := tx.Outbox("t:e2"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("expired e2: %v, want ErrNotFound", err)
		}
		return nil
	})
}

// testClaims: claims are stored whole, replaced by key, listed once
// expired (earliest first, ties by key, up to a limit), deleted when
// done, and a rolled-back claim was never made.
func testClaims(t *testing.T, s gobot.Store) {
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Claim("game 1 timeout"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("no claim: %v, want ErrNotFound", err)
		}
		if cs, err := tx.ExpiredClaims(T0.Add(time.Hour), 0); len(cs) != 0 || err != nil {
			t.Errorf("no claims: %d expired, %v", len(cs), err)
		}
		return nil
	})
	update(t, s, func(tx gobot.Tx) error {
		for _, c := range []gobot.Claim{
			{Key: "game 1 timeout", Holder: "a:1", Expires: T0.Add(2 * time.Minute), Value: []byte(`[{"key":"x"}]`)},
			{Key: "game 2 reminder", Holder: "a:1", Expires: T0.Add(time.Minute), Value: []byte("two")},
			{Key: "game 3 reminder", Holder: "b:2", Expires: T0.Add(time.Minute), Value: []byte("three")},
			{Key: "game 4 engine", Holder: "b:2", Expires: T0.Add(time.Hour), Value: []byte("four")},
		} {
			if err := tx.PutClaim(&c); err != nil {
				return err
			}
		}
		return nil
	})
	s.Update(context.Background(), func(tx gobot.Tx) error {
		tx.PutClaim(&gobot.Claim{Key: "game 5 never", Holder: "a:1", Expires: T0, Value: []byte("no")})
		return errors.New("rolled back")
	})
	view(t, s, func(tx gobot.Tx) error {
		c, err := tx.Claim("game 1 timeout")
		if err != nil || c.Holder != "a:1" || !c.Expires.Equal(T0.Add(2*time.Minute)) || c.Expires.Location() != time.UTC || string(c.Value) != `[{"key":"x"}]` {
			t.Errorf("claim read back: %+v, %v", c, err)
		}
		if _, err := tx.Claim("game 5 never"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("rolled-back claim: %v, want ErrNotFound", err)
		}
		var keys []string
		cs, err := tx.ExpiredClaims(T0.Add(5*time.Minute), 0)
		for _, c := range cs {
			keys = append(keys, c.Key)
		}
		if want := "game 2 reminder,game 3 reminder,game 1 timeout"; strings.Join(keys, ",") != want || err != nil {
			t.Errorf("expired before T0+5m: %q, %v; want %q", keys, err, want)
		}
		if cs, _ := tx.ExpiredClaims(T0.Add(5*time.Minute), 1); len(cs) != 1 || cs[0].Key != "game 2 reminder" {
			t.Errorf("the first expired claim: %+v", cs)
		}
		if cs, _ := tx.ExpiredClaims(T0.Add(time.Minute), 0); len(cs) != 0 {
			t.Errorf("a claim expiring at t is listed as expired before t: %+v", cs[0])
		}
		return nil
	})
	// Claimed again by another process; then done.
	update(t, s, func(tx gobot.Tx) error {
		c, err := tx.Claim("game 2 reminder")
		if err != nil {
			return err
		}
		c.Holder, c.Expires = "b:2", T0.Add(10*time.Minute)
		if err := tx.PutClaim(c); err != nil {
			return err
		}
		if err := tx.DeleteClaim("game 9 none"); err != nil {
			t.Errorf("deleting no claim: %v", err)
		}
		return tx.DeleteClaim("game 3 reminder")
	})
	view(t, s, func(tx gobot.Tx) error {
		if c, err := tx.Claim("game 2 reminder"); err != nil || c.Holder != "b:2" || string(c.Value) != "two" {
			t.Errorf("claimed again: %+v, %v", c, err)
		}
		if _, err := tx.Claim("game 3 reminder"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("a done claim: %v, want ErrNotFound", err)
		}
		cs, _ := tx.ExpiredClaims(T0.Add(5*time.Minute), 0)
		if len(cs) != 1 || cs[0].Key != "game 1 timeout" {
			t.Errorf("expired after the changes: %+v", cs)
		}
		return nil
	})
}

// testSharedNumbers: a game keeps its challenge's number; a taken number
// makes the game take one above both counters, which challenges skip.
func testSharedNumbers(t *testing.T, s gobot.Store) {
	update(t, s, func(tx gobot.Tx) error {
		for range 3 { // games #1..#3 numbered on their own
			if err := tx.PutMatch(NewGame("t:a", "t:b", "t:r")); err != nil {
				return err
			}
		}
		c := &gobot.Challenge{Room: "t:r", From: "t:a", Created: T0}
		if err := tx.SkipGameNumbers(); err != nil {
			return err
		}
		if err := tx.PutChallenge(c); err != nil || c.ID != 4 {
			t.Errorf("challenge #%d, %v; want #4", c.ID, err)
		}
		g := NewGame("t:a", "t:b", "t:r")
		g.ID = gobot.GameID(c.ID)
		if err := tx.InsertMatch(g); err != nil || g.ID != 4 || g.Version != 1 {
			t.Errorf("game #%d v%d, %v; want #4 v1", g.ID, g.Version, err)
		}
		taken := NewGame("t:a", "t:b", "t:r")
		taken.ID = 2
		if err := tx.InsertMatch(taken); err != nil || taken.ID != 5 {
			t.Errorf("game for a taken number: #%d, %v; want #5", taken.ID, err)
		}
		c2 := &gobot.Challenge{Room: "t:r", From: "t:a", Created: T0}
		if err := tx.SkipGameNumbers(); err != nil {
			return err
		}
		if err := tx.PutChallenge(c2); err != nil || c2.ID != 6 {
			t.Errorf("next challenge #%d, %v; want #6", c2.ID, err)
		}
		next := NewGame("t:a", "t:b", "t:r")
		if err := tx.PutMatch(next); err != nil || next.ID != 6 {
			t.Errorf("next game by PutMatch: #%d, %v; want #6", next.ID, err)
		}
		return nil
	})
	wantIDs(t, "active games", gameIDs(t, s, "ActiveGames", func(tx gobot.Tx) ([]*gobot.Match, error) { return tx.ActiveGames("t:a") }),
		1, 2, 3, 4, 5, 6)
}

func testRatings(t *testing.T, s gobot.Store) {
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Rating("t:guild", "t:ann"); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("no rating yet: %v, want ErrNotFound", err)
		}
		return nil
	})
	ann := gobot.NewPlayerRating("t:guild", "t:ann")
	ann.Rating, ann.Games, ann.Wins, ann.Updated = 1612.5, 1, 1, T0
	ann.Last = []gobot.RatedResult{{Game: 7, Opponent: "t:bob", Score: 1, Change: 112.5, At: T0}}
	bob := gobot.NewPlayerRating("t:guild", "t:bob")
	bob.Updated = T0
	other := gobot.NewPlayerRating("t:room", "t:ann")
	other.Stated, other.RD, other.Updated = true, 250, T0
	update(t, s, func(tx gobot.Tx) error {
		for _, r := range []*gobot.PlayerRating{bob, other, ann} {
			if err := tx.PutRating(r); err != nil {
				return err
			}
		}
		if err := tx.PutRating(&gobot.PlayerRating{Community: "", User: "t:x", Rating: 1500, RD: 350, Volatility: 0.06}); err == nil {
			t.Error("a rating without a community was stored")
		}
		return nil
	})
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Rating("t:guild", "t:ann")
		if err != nil || !reflect.DeepEqual(got, ann) {
			t.Errorf("ann's rating: %+v, %v; want %+v", got, err, ann)
		}
		in, err := tx.Ratings("t:guild")
		if err != nil || len(in) != 2 || in[0].User != "t:ann" || in[1].User != "t:bob" {
			t.Errorf("ratings in t:guild: %v, %v; want ann, bob", in, err)
		}
		all, err := tx.Ratings("")
		if err != nil || len(all) != 3 || all[2].Community != "t:room" || !all[2].Stated {
			t.Errorf("all ratings: %v, %v; want t:guild's two, then t:room's", all, err)
		}
		return nil
	})
}
