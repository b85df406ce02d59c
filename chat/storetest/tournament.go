package storetest

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// NewTournament returns an unsaved McMahon tournament in room, organised
// by org, with three players and one round paired (Ann–Bob, Cat's bye),
// no game made yet.
func NewTournament(room gobot.RoomID, org gobot.UserID) *gobot.Tournament {
	rules, err := game.Preset("japanese")
	must(err)
	player := func(u gobot.UserID, name string, rank game.Rank) gobot.TournamentPlayer {
		return gobot.TournamentPlayer{Player: tournament.Player{ID: tournament.PlayerID(u), Name: name, Rank: rank}, User: u}
	}
	return &gobot.Tournament{Room: room, Community: gobot.CommunityID(room), Name: "Winter Cup", Organiser: org, State: gobot.Running,
		System: tournament.McMahon, Rounds: 5, Size: 19, Rules: rules, Clock: gobot.TimeControl{Kind: gobot.Fischer, Main: time.Hour, Increment: 30 * time.Second, Max: time.Hour},
		Handicap: gobot.HandicapPolicy{Kind: gobot.McMahonHandicap, Cap: 2}, Rated: true, RegistrationCloses: T0, MaxPlayers: 40,
		Bar: tournament.DefaultBar, Floor: tournament.DefaultFloor,
		Players: []gobot.TournamentPlayer{player("t:ann", "Ann", 2), player("t:bob", "Bob", -3), player("t:cat", "Cat", -10)},
		Played: []gobot.TournamentRound{{Round: tournament.Round{Games: []tournament.Game{{Table: 1, White: "t:ann", Black: "t:bob", Handicap: 2}},
			Byes: []tournament.PlayerID{"t:cat"}}, Start: T0.Add(time.Hour)}},
		Created: T0}
}

// NewLadder returns an unsaved ladder in room with three rungs and an
// open challenge (no game made yet).
func NewLadder(room gobot.RoomID, org gobot.UserID) *gobot.Ladder {
	return &gobot.Ladder{Room: room, Community: gobot.CommunityID(room), Name: "Room ladder", Organiser: org, Size: 19,
		Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 72 * time.Hour}, ChallengeRange: 3, ForfeitAfter: 7 * 24 * time.Hour,
		Rungs:      []gobot.UserID{"t:ann", "t:bob", "t:cat"},
		Challenges: []gobot.LadderChallenge{{Challenger: "t:cat", Defender: "t:ann", Made: T0, Deadline: T0.Add(7 * 24 * time.Hour)}},
		Log:        []gobot.LadderResult{{Challenger: "t:bob", Defender: "t:cat", Winner: "t:bob", Forfeit: true, At: T0}},
		Created:    T0}
}

// EventDamager is implemented by a store whose test can damage a stored
// tournament or ladder (see Damager); without it the damaged-event test
// is skipped.
type EventDamager interface {
	DamageTournament(id gobot.TournamentID) error
	DamageLadder(id gobot.LadderID) error
}

func tournamentIDs(t *testing.T, s gobot.Store, what string, list func(tx gobot.Tx) ([]*gobot.Tournament, error)) []gobot.TournamentID {
	t.Helper()
	var ids []gobot.TournamentID
	view(t, s, func(tx gobot.Tx) error {
		ts, err := list(tx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, v := range ts {
			ids = append(ids, v.ID)
		}
		return nil
	})
	return ids
}

func ladderIDs(t *testing.T, s gobot.Store, what string, list func(tx gobot.Tx) ([]*gobot.Ladder, error)) []gobot.LadderID {
	t.Helper()
	var ids []gobot.LadderID
	view(t, s, func(tx gobot.Tx) error {
		ls, err := list(tx)
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		for _, v := range ls {
			ids = append(ids, v.ID)
		}
		return nil
	})
	return ids
}

// tournamentOf returns the ID of the tournament holding game g, 0 when
// none does.
func tournamentOf(t *testing.T, s gobot.Store, g gobot.GameID) gobot.TournamentID {
	t.Helper()
	var id gobot.TournamentID
	view(t, s, func(tx gobot.Tx) error {
		v, err := tx.TournamentOfGame(g)
		switch {
		case errors.Is(err, gobot.ErrNotFound):
		case err != nil:
			t.Fatalf("TournamentOfGame(%d): %v", g, err)
		default:
			id = v.ID
		}
		return nil
	})
	return id
}

func ladderOf(t *testing.T, s gobot.Store, g gobot.GameID) gobot.LadderID {
	t.Helper()
	var id gobot.LadderID
	view(t, s, func(tx gobot.Tx) error {
		v, err := tx.LadderOfGame(g)
		switch {
		case errors.Is(err, gobot.ErrNotFound):
		case err != nil:
			t.Fatalf("LadderOfGame(%d): %v", g, err)
		default:
			id = v.ID
		}
		return nil
	})
	return id
}

// testTournaments: a tournament comes back as stored, numbered apart from
// games, versioned, listed by room (active or all) and by due time, and
// found from each of its games; a game is one tournament's.
func testTournaments(t *testing.T, s gobot.Store) {
	putGames(t, s, NewGame("t:ann", "t:bob", "t:room"), NewGame("t:ann", "t:bob", "t:room"))
	a := NewTournament("t:room", "t:ann")
	b := NewTournament("t:room", "t:bob")
	c := NewTournament("t:other", "t:cat")
	b.State, b.Played = gobot.Registering, nil
	a.Name = "Winter <Cup> & \x00 co" // text as it is, a NUL too
	update(t, s, func(tx gobot.Tx) error {
		for _, v := range []*gobot.Tournament{a, b, c} {
			if err := tx.PutTournament(v); err != nil {
				return err
			}
		}
		return nil
	})
	if a.ID != 1 || b.ID != 2 || c.ID != 3 || a.Version != 1 || c.Version != 1 {
		t.Fatalf("tournaments numbered %d %d %d (version %d), want 1 2 3 (1), apart from games", a.ID, b.ID, c.ID, a.Version)
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Tournament(a.ID)
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Errorf("tournament read back\n%+v (%v)\nwant\n%+v", got, err, a)
		}
		if _, err := tx.Tournament(99); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("tournament 99: %v, want ErrNotFound", err)
		}
		if _, err := tx.TournamentOfGame(1); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("the tournament of game #1, in none: %v, want ErrNotFound", err)
		}
		return nil
	})

	// The round's game is made: the tournament is found from it. A stale
	// write is a conflict and changes nothing.
	stale := *a
	update(t, s, func(tx gobot.Tx) error {
		a.Played[0].Matches = []gobot.GameID{1}
		return tx.PutTournament(a)
	})
	if a.Version != 2 {
		t.Errorf("version after an update: %d, want 2", a.Version)
	}
	stale.Played = []gobot.TournamentRound{{Round: a.Played[0].Round, Matches: []gobot.GameID{2}}}
	if err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutTournament(&stale) }); !errors.Is(err, gobot.ErrConflict) {
		t.Errorf("stale tournament write: %v, want ErrConflict", err)
	}
	if got := tournamentOf(t, s, 1); got != a.ID {
		t.Errorf("the tournament of game #1: %d, want %d", got, a.ID)
	}
	if got := tournamentOf(t, s, 2); got != 0 {
		t.Errorf("game #2 after a refused write belongs to tournament %d", got)
	}
	// A game is one tournament's: another tournament holding it is
	// refused, and changes nothing.
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		c.Played[0].Matches = []gobot.GameID{1}
		return tx.PutTournament(c)
	})
	if !errors.Is(err, gobot.ErrGameTaken) {
		t.Errorf("a second tournament holding game #1: %v, want ErrGameTaken", err)
	}
	c.Played[0].Matches, c.Version = nil, 1
	err = s.Update(context.Background(), func(tx gobot.Tx) error {
		d := NewTournament("t:room", "t:dan")
		d.Played[0].Matches = []gobot.GameID{1}
		return tx.PutTournament(d)
	})
	if !errors.Is(err, gobot.ErrGameTaken) {
		t.Errorf("a new tournament holding game #1: %v, want ErrGameTaken", err)
	}
	// The game changes: the index follows (the old one is free again).
	update(t, s, func(tx gobot.Tx) error {
		a.Played[0].Matches = []gobot.GameID{2}
		return tx.PutTournament(a)
	})
	if g1, g2 := tournamentOf(t, s, 1), tournamentOf(t, s, 2); g1 != 0 || g2 != a.ID {
		t.Errorf("after moving the pairing to game #2: game #1 in %d, game #2 in %d; want 0 and %d", g1, g2, a.ID)
	}

	// Lists: by room in ID order, active ones only if asked.
	room := func(r gobot.RoomID, active bool) []gobot.TournamentID {
		return tournamentIDs(t, s, "RoomTournaments", func(tx gobot.Tx) ([]*gobot.Tournament, error) { return tx.RoomTournaments(r, active) })
	}
	wantIDs(t, "room tournaments", room("t:room", true), 1, 2)
	update(t, s, func(tx gobot.Tx) error {
		a.State = gobot.Ended
		return tx.PutTournament(a)
	})
	wantIDs(t, "active room tournaments after one ended", room("t:room", true), 2)
	wantIDs(t, "all room tournaments", room("t:room", false), 1, 2)
	wantIDs(t, "another room's", room("t:other", false), 3)
	wantIDs(t, "a room without", room("t:none", false))
	if got := tournamentOf(t, s, 2); got != a.ID {
		t.Errorf("an ended tournament's game #2: in %d, want %d", got, a.ID)
	}

	// Due: earliest first, ties by ID, a limit; cleared, gone from it.
	due := func(at time.Time, limit int) []gobot.TournamentID {
		return tournamentIDs(t, s, "DueTournaments", func(tx gobot.Tx) ([]*gobot.Tournament, error) { return tx.DueTournaments(at, limit) })
	}
	wantIDs(t, "due with none set", due(T0.Add(1000*time.Hour), 0))
	update(t, s, func(tx gobot.Tx) error {
		a.Due, b.Due, c.Due = T0.Add(2*time.Hour), T0.Add(time.Hour), T0.Add(2*time.Hour)
		for _, v := range []*gobot.Tournament{c, b, a} {
			if err := tx.PutTournament(v); err != nil {
				return err
			}
		}
		return nil
	})
	wantIDs(t, "due at T0+1h", due(T0.Add(time.Hour), 0))
	wantIDs(t, "due at T0+3h", due(T0.Add(3*time.Hour), 0), 2, 1, 3)
	wantIDs(t, "due at T0+3h, two", due(T0.Add(3*time.Hour), 2), 2, 1)
	update(t, s, func(tx gobot.Tx) error {
		b.Due = time.Time{}
		if err := tx.PutTournament(b); err != nil {
			return err
		}
		a.Due = T0.Add(5 * time.Hour)
		return tx.PutTournament(a)
	})
	wantIDs(t, "due after clearing one and moving one", due(T0.Add(3*time.Hour), 0), 3)
	wantIDs(t, "due later", due(T0.Add(6*time.Hour), 0), 3, 1)

	// Too big: refused with a clear error, nothing stored, no number spent.
	big := NewTournament("t:room", "t:ann")
	big.Name = strings.Repeat("x", gobot.MaxEventName+1)
	err = s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutTournament(big) })
	if !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "at most 100 bytes") {
		t.Errorf("a 101-byte name: %v, want ErrTooLarge", err)
	}
	big = NewTournament("t:room", "t:ann")
	for i := range tournament.MaxPlayers {
		u := gobot.UserID("t:p" + strings.Repeat("i", i%9) + string(rune('A'+i/9%26)) + string(rune('a'+i/234)))
		big.Players = append(big.Players, gobot.TournamentPlayer{Player: tournament.Player{ID: tournament.PlayerID(u), Name: "P"}, User: u})
	}
	err = s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutTournament(big) })
	if !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "2000 players") {
		t.Errorf("%d players: %v, want ErrTooLarge", len(big.Players), err)
	}
	update(t, s, func(tx gobot.Tx) error {
		a2 := *a
		a2.Name = strings.Repeat("y", gobot.MaxEventName+1)
		if err := tx.PutTournament(&a2); !errors.Is(err, gobot.ErrTooLarge) {
			t.Errorf("an update with a 101-byte name: %v, want ErrTooLarge", err)
		}
		d := NewTournament("t:room", "t:dan")
		if err := tx.PutTournament(d); err != nil || d.ID != 4 {
			t.Errorf("the next tournament: %d (%v), want 4", d.ID, err)
		}
		// Gone: an update of a tournament never stored is not found.
		ghost := NewTournament("t:room", "t:dan")
		ghost.ID, ghost.Version = 50, 1
		if err := tx.PutTournament(ghost); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("updating tournament 50, never stored: %v, want ErrNotFound", err)
		}
		return nil
	})
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Tournament(a.ID)
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Errorf("tournament after a refused update\n%+v (%v)\nwant\n%+v", got, err, a)
		}
		return nil
	})
}

// testLadders: a ladder comes back as stored, numbered apart from
// tournaments, versioned, listed by room and due time, and found from the
// games of its challenges and results.
func testLadders(t *testing.T, s gobot.Store) {
	tm := NewTournament("t:room", "t:ann")
	update(t, s, func(tx gobot.Tx) error { return tx.PutTournament(tm) })
	a := NewLadder("t:room", "t:ann")
	b := NewLadder("t:room", "t:bob")
	c := NewLadder("t:other", "t:cat")
	update(t, s, func(tx gobot.Tx) error {
		for _, v := range []*gobot.Ladder{a, b, c} {
			if err := tx.PutLadder(v); err != nil {
				return err
			}
		}
		return nil
	})
	if a.ID != 1 || b.ID != 2 || c.ID != 3 || a.Version != 1 {
		t.Fatalf("ladders numbered %d %d %d (version %d), want 1 2 3 (1), apart from tournaments", a.ID, b.ID, c.ID, a.Version)
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Ladder(a.ID)
		if err != nil || !reflect.DeepEqual(got, a) {
			t.Errorf("ladder read back\n%+v (%v)\nwant\n%+v", got, err, a)
		}
		if _, err := tx.Ladder(99); !errors.Is(err, gobot.ErrNotFound) {
			t.Errorf("ladder 99: %v, want ErrNotFound", err)
		}
		return nil
	})
	// The challenge's game is made; then decided, it moves to the log
	// and is still found. A stale write is a conflict.
	stale := *a
	update(t, s, func(tx gobot.Tx) error {
		a.Challenges[0].Game = 7
		return tx.PutLadder(a)
	})
	if err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutLadder(&stale) }); !errors.Is(err, gobot.ErrConflict) {
		t.Errorf("stale ladder write: %v, want ErrConflict", err)
	}
	if got := ladderOf(t, s, 7); got != a.ID {
		t.Errorf("the ladder of game #7: %d, want %d", got, a.ID)
	}
	update(t, s, func(tx gobot.Tx) error {
		ch := a.Challenges[0]
		a.Challenges = nil
		a.Rungs = []gobot.UserID{"t:cat", "t:ann", "t:bob"}
		a.AddResult(gobot.LadderResult{Challenger: ch.Challenger, Defender: ch.Defender, Game: ch.Game, Winner: ch.Challenger, At: T0.Add(time.Hour)})
		a.Challenges = append(a.Challenges, gobot.LadderChallenge{Challenger: "t:bob", Defender: "t:ann", Game: 8, Made: T0.Add(time.Hour)})
		return tx.PutLadder(a)
	})
	if g7, g8 := ladderOf(t, s, 7), ladderOf(t, s, 8); g7 != a.ID || g8 != a.ID {
		t.Errorf("games #7 (logged) and #8 (open): in ladders %d and %d, want %d", g7, g8, a.ID)
	}
	if err := s.Update(context.Background(), func(tx gobot.Tx) error {
		b.Challenges[0].Game = 8
		return tx.PutLadder(b)
	}); !errors.Is(err, gobot.ErrGameTaken) {
		t.Errorf("a second ladder holding game #8: %v, want ErrGameTaken", err)
	}
	b.Challenges[0].Game = 0
	if got := ladderOf(t, s, 9); got != 0 {
		t.Errorf("game #9 is in ladder %d", got)
	}
	view(t, s, func(tx gobot.Tx) error {
		got, err := tx.Ladder(a.ID)
		if err != nil || !reflect.DeepEqual(got, a) || got.Version != 3 {
			t.Errorf("ladder after a result\n%+v (%v)\nwant\n%+v", got, err, a)
		}
		return nil
	})

	room := func(r gobot.RoomID, active bool) []gobot.LadderID {
		return ladderIDs(t, s, "RoomLadders", func(tx gobot.Tx) ([]*gobot.Ladder, error) { return tx.RoomLadders(r, active) })
	}
	update(t, s, func(tx gobot.Tx) error {
		a.Closed = true
		return tx.PutLadder(a)
	})
	wantIDs(t, "open room ladders", room("t:room", true), 2)
	wantIDs(t, "all room ladders", room("t:room", false), 1, 2)
	wantIDs(t, "another room's", room("t:other", true), 3)

	due := func(at time.Time, limit int) []gobot.LadderID {
		return ladderIDs(t, s, "DueLadders", func(tx gobot.Tx) ([]*gobot.Ladder, error) { return tx.DueLadders(at, limit) })
	}
	update(t, s, func(tx gobot.Tx) error {
		b.Due, c.Due = T0.Add(48*time.Hour), T0.Add(24*time.Hour)
		if err := tx.PutLadder(b); err != nil {
			return err
		}
		return tx.PutLadder(c)
	})
	wantIDs(t, "due in a day", due(T0.Add(24*time.Hour), 0))
	wantIDs(t, "due in three days", due(T0.Add(72*time.Hour), 0), 3, 2)
	wantIDs(t, "due in three days, one", due(T0.Add(72*time.Hour), 1), 3)

	big := NewLadder("t:room", "t:ann")
	for i := range gobot.MaxLadderRungs {
		big.Rungs = append(big.Rungs, gobot.UserID("t:r"+strings.Repeat("i", i%9)+string(rune('A'+i/9%26))+string(rune('a'+i/234))))
	}
	err := s.Update(context.Background(), func(tx gobot.Tx) error { return tx.PutLadder(big) })
	if !errors.Is(err, gobot.ErrTooLarge) || !strings.Contains(err.Error(), "2000 players") {
		t.Errorf("a ladder of %d: %v, want ErrTooLarge", len(big.Rungs), err)
	}
	update(t, s, func(tx gobot.Tx) error {
		d := NewLadder("t:room", "t:dan")
		if err := tx.PutLadder(d); err != nil || d.ID != 4 {
			t.Errorf("the next ladder: %d (%v), want 4", d.ID, err)
		}
		return nil
	})
	// A game may be a tournament's and a ladder's: the kinds are apart.
	update(t, s, func(tx gobot.Tx) error {
		tm.Played[0].Matches = []gobot.GameID{8}
		return tx.PutTournament(tm)
	})
	if gt, gl := tournamentOf(t, s, 8), ladderOf(t, s, 8); gt != tm.ID || gl != a.ID {
		t.Errorf("game #8: tournament %d, ladder %d; want %d and %d", gt, gl, tm.ID, a.ID)
	}
}

// testDamagedEvents: a damaged tournament or ladder reads as ErrCorrupt,
// lists return the others with a DamagedError naming it, and it is not
// overwritten.
func testDamagedEvents(t *testing.T, s gobot.Store) {
	d, ok := s.(EventDamager)
	if !ok {
		t.Skip("the store cannot damage tournaments (implement storetest.EventDamager in its test)")
	}
	update(t, s, func(tx gobot.Tx) error {
		for i := range 3 {
			tm := NewTournament("t:room", "t:ann")
			tm.Due = T0.Add(time.Hour)
			tm.Played[0].Matches = []gobot.GameID{gobot.GameID(10 + i)}
			if err := tx.PutTournament(tm); err != nil {
				return err
			}
			l := NewLadder("t:room", "t:ann")
			l.Due = T0.Add(time.Hour)
			l.Challenges[0].Game = gobot.GameID(20 + i)
			if err := tx.PutLadder(l); err != nil {
				return err
			}
		}
		return nil
	})
	if err := d.DamageTournament(2); err != nil {
		t.Fatal(err)
	}
	if err := d.DamageLadder(1); err != nil {
		t.Fatal(err)
	}
	view(t, s, func(tx gobot.Tx) error {
		if _, err := tx.Tournament(2); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("Tournament(2), damaged: %v, want ErrCorrupt", err)
		}
		if _, err := tx.TournamentOfGame(11); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("TournamentOfGame(11), of a damaged one: %v, want ErrCorrupt", err)
		}
		if _, err := tx.Ladder(1); !errors.Is(err, gobot.ErrCorrupt) {
			t.Errorf("Ladder(1), damaged: %v, want ErrCorrupt", err)
		}
		for what, list := range map[string]func() ([]*gobot.Tournament, error){
			"RoomTournaments": func() ([]*gobot.Tournament, error) { return tx.RoomTournaments("t:room", false) },
			"DueTournaments":  func() ([]*gobot.Tournament, error) { return tx.DueTournaments(T0.Add(2*time.Hour), 0) },
		} {
			ts, err := list()
			var ids []gobot.TournamentID
			for _, v := range ts {
				ids = append(ids, v.ID)
			}
			wantIDs(t, what+" with 2 damaged", ids, 1, 3)
			dm := gobot.Damaged(err)
			if !errors.Is(err, gobot.ErrCorrupt) || dm == nil || !slices.Equal(dm.Tournaments, []gobot.TournamentID{2}) || len(dm.Games)+len(dm.Ladders) != 0 {
				t.Errorf("%s with 2 damaged: error %v, want a DamagedError naming tournament 2", what, err)
			}
		}
		for what, list := range map[string]func() ([]*gobot.Ladder, error){
			"RoomLadders": func() ([]*gobot.Ladder, error) { return tx.RoomLadders("t:room", true) },
			"DueLadders":  func() ([]*gobot.Ladder, error) { return tx.DueLadders(T0.Add(2*time.Hour), 0) },
		} {
			ls, err := list()
			var ids []gobot.LadderID
			for _, v := range ls {
				ids = append(ids, v.ID)
			}
			wantIDs(t, what+" with 1 damaged", ids, 2, 3)
			dm := gobot.Damaged(err)
			if dm == nil || !slices.Equal(dm.Ladders, []gobot.LadderID{1}) || len(dm.Tournaments) != 0 {
				t.Errorf("%s with 1 damaged: error %v, want a DamagedError naming ladder 1", what, err)
			}
		}
		return nil
	})
	err := s.Update(context.Background(), func(tx gobot.Tx) error {
		tm := NewTournament("t:room", "t:ann")
		tm.ID, tm.Version = 2, 1
		return tx.PutTournament(tm)
	})
	if !errors.Is(err, gobot.ErrCorrupt) {
		t.Errorf("overwriting damaged tournament 2: %v, want ErrCorrupt", err)
	}
}
