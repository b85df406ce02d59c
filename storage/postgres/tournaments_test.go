package postgres

import (
	"errors"
	"sync"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	"github.com/gobotgo/gobot/tournament"
)

// TestTournamentsMigrate: a database of schema 7 (before tournaments)
// with a game in it opens with migration 008; tournaments and ladders are
// numbered from 1 and hold its game.
func TestTournamentsMigrate(t *testing.T) {
	dsn := freshDSN(t)
	old, err := Open(ctx, dsn, Options{migrateTo: 7})
	if err != nil {
		t.Fatal(err)
	}
	g := storetest.NewGame("console:alice", "console:bob", "console:room")
	putOldGame(t, old, g)
	old.Close()

	s, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	tm := storetest.NewTournament("console:room", "console:alice")
	tm.Played[0].Matches = []gobot.GameID{g.ID}
	l := storetest.NewLadder("console:room", "console:alice")
	l.Challenges[0].Game = g.ID
	err = s.Update(ctx, func(tx gobot.Tx) error {
		if err := tx.PutTournament(tm); err != nil {
			return err
		}
		return tx.PutLadder(l)
	})
	if err != nil || tm.ID != 1 || l.ID != 1 {
		t.Fatalf("after migrating: tournament %d, ladder %d (%v); want 1 and 1", tm.ID, l.ID, err)
	}
	err = s.View(ctx, func(tx gobot.Tx) error {
		if v, err := tx.TournamentOfGame(g.ID); err != nil || v.ID != 1 {
			t.Errorf("the tournament of game #%d: %v", g.ID, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Two processes pairing the same game into two tournaments at once: one
// wins, the other is told the game is taken; and writes of one tournament
// from both, each reading first, lose nothing.
func TestTournamentsAcrossProcesses(t *testing.T) {
	a, dsn := mustOpen(t)
	b, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	one, two := storetest.NewTournament("console:room", "console:alice"), storetest.NewTournament("console:room", "console:bob")
	err = a.Update(ctx, func(tx gobot.Tx) error {
		if err := tx.PutTournament(one); err != nil {
			return err
		}
		return tx.PutTournament(two)
	})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, s := range []*Store{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.Update(ctx, func(tx gobot.Tx) error {
				v, err := tx.Tournament(gobot.TournamentID(i + 1))
				if err != nil {
					return err
				}
				v.Played[0].Matches = []gobot.GameID{42}
				return tx.PutTournament(v)
			})
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), gobot.ErrGameTaken) {
		t.Fatalf("two tournaments taking game #42 at once: %v; want one to win, the other ErrGameTaken", errs)
	}

	const n = 20
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := []*Store{a, b}[i%2]
			err := s.Update(ctx, func(tx gobot.Tx) error {
				v, err := tx.Tournament(one.ID)
				if err != nil {
					return err
				}
				id := tournament.PlayerID("console:p" + string(rune('a'+i)))
				v.Players = append(v.Players, gobot.TournamentPlayer{Player: tournament.Player{ID: id, Name: string(id)}})
				return tx.PutTournament(v)
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	err = a.View(ctx, func(tx gobot.Tx) error {
		v, err := tx.Tournament(one.ID)
		if err == nil && len(v.Players) != 3+n {
			t.Errorf("after %d joins from two processes: %d players, want %d", n, len(v.Players), 3+n)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}
