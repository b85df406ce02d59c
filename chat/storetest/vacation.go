package storetest

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// testVacations: a player's vacation account and a game's paused clock
// come back as stored; a record without them means "not used"; the
// vacation index (DueVacations) follows PutPlayer: the players on
// vacation, by the end of it, earliest first, ties by ID.
func testVacations(t *testing.T, s gobot.Store) {
	at := func(h int) time.Time { return T0.Add(time.Duration(h) * time.Hour) }
	onVacation := func(id gobot.UserID, end int) *gobot.Player {
		return &gobot.Player{ID: id, Name: string(id), Updated: T0, Vacation: &gobot.Vacation{
			FirstGame: T0.Add(-30 * 24 * time.Hour), Left: 100 * time.Hour, Weeks: 4, Start: T0, End: at(end), Reminded: end < 10, Room: "t:room"}}
	}
	plain := &gobot.Player{ID: "t:plain", Name: "plain", Updated: T0}
	back := &gobot.Player{ID: "t:back", Name: "back", Updated: T0, Vacation: &gobot.Vacation{FirstGame: T0, Left: 14 * 24 * time.Hour}}
	g := NewGame("t:ann", "t:bob", "t:room")
	g.NoVacation = false
	g.PausedBy, g.PausedLeft, g.PausedAt = []gobot.UserID{"t:ann", "t:bob"}, 90*time.Minute+7*time.Second, T0
	free := NewGame("t:ann", "t:cat", "t:room")
	free.NoVacation, free.Deadline = true, at(2)
	ch := &gobot.Challenge{Room: "t:room", From: "t:ann", To: "t:bob", Config: g.Record.Config, Color: "black", Created: T0, NoVacation: true}
	update(t, s, func(tx gobot.Tx) error {
		for _, p := range []*gobot.Player{onVacation("t:ann", 30), onVacation("t:bob", 5), onVacation("t:cat", 30), plain, back} {
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		if err := tx.PutMatch(g); err != nil {
			return err
		}
		if err := tx.PutMatch(free); err != nil {
			return err
		}
		return tx.PutChallenge(ch)
	})
	due := func(before time.Time, limit int) []gobot.UserID {
		t.Helper()
		var ids []gobot.UserID
		view(t, s, func(tx gobot.Tx) error {
			ps, err := tx.DueVacations(before, limit)
			for _, p := range ps {
				ids = append(ids, p.ID)
			}
			return err
		})
		return ids
	}
	wantUsers := func(what string, got []gobot.UserID, want ...gobot.UserID) {
		t.Helper()
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %v, want %v", what, got, want)
		}
	}
	wantUsers("due before +31h, earliest first, ties by ID", due(at(31), 0), "t:bob", "t:ann", "t:cat")
	wantUsers("due before +30h (strictly before)", due(at(30), 0), "t:bob")
	wantUsers("due before +31h, limit 2", due(at(31), 2), "t:bob", "t:ann")
	wantUsers("due before +5h", due(at(5), 0))

	view(t, s, func(tx gobot.Tx) error {
		p, err := tx.Player("t:bob")
		if err != nil {
			return err
		}
		if want := onVacation("t:bob", 5); !reflect.DeepEqual(p, want) {
			t.Errorf("player on vacation: got %+v %+v, want %+v %+v", p, p.Vacation, want, want.Vacation)
		}
		for _, want := range []*gobot.Player{plain, back} {
			p, err := tx.Player(want.ID)
			if err != nil {
				return err
			}
			if !reflect.DeepEqual(p, want) {
				t.Errorf("player %s: got %+v %+v, want %+v %+v", want.ID, p, p.Vacation, want, want.Vacation)
			}
		}
		got, err := tx.Match(g.ID)
		if err != nil {
			return err
		}
		if !slices.Equal(got.PausedBy, g.PausedBy) || got.PausedLeft != g.PausedLeft || !got.PausedAt.Equal(g.PausedAt) || got.NoVacation || !got.Paused() {
			t.Errorf("paused game: got by %v, left %v, at %v, no vacation %v", got.PausedBy, got.PausedLeft, got.PausedAt, got.NoVacation)
		}
		got, err = tx.Match(free.ID)
		if err != nil {
			return err
		}
		if !got.NoVacation || got.Paused() || got.PausedLeft != 0 || !got.PausedAt.IsZero() {
			t.Errorf("vacation=off game: got no vacation %v, by %v, left %v, at %v", got.NoVacation, got.PausedBy, got.PausedLeft, got.PausedAt)
		}
		c, err := tx.Challenge(ch.ID)
		if err != nil {
			return err
		}
		if !c.NoVacation {
			t.Errorf("challenge with vacation=off reads back without it")
		}
		return nil
	})

	// Moving the end moves the entry; ending the vacation drops it.
	update(t, s, func(tx gobot.Tx) error {
		bob := onVacation("t:bob", 40)
		if err := tx.PutPlayer(bob); err != nil {
			return err
		}
		ann, err := tx.Player("t:ann")
		if err != nil {
			return err
		}
		ann.Vacation.Start, ann.Vacation.End = time.Time{}, time.Time{}
		return tx.PutPlayer(ann)
	})
	wantUsers("after bob's end moved and ann came back", due(at(100), 0), "t:cat", "t:bob")
	wantUsers("after bob's end moved, before +31h", due(at(31), 0), "t:cat")
}
