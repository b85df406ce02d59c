package deliver

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/tournament"
)

type nop struct{}

func (nop) Notify(context.Context, protocol.Message) error { return nil }

// The notifiers held now decide where messages can go; a leased one
// fences its platform's transactions and goes when its lease ends.
func TestNotifiers(t *testing.T) {
	var s Notifiers
	msgs := []protocol.Message{{Room: "a:room"}, {Room: "a:room", To: "b:bob"}}
	s.Set("a", nop{})
	if p, ok := s.Deliverable(msgs); p != "b" || ok {
		t.Errorf("Deliverable without b = %q, %v", p, ok)
	}
	ctx, cancel := context.WithCancel(gobot.WithFence(context.Background(), gobot.Fence{Name: "b", Gen: 3}))
	s.SetLeased(ctx, "b", nop{})
	if _, ok := s.Deliverable(msgs); !ok {
		t.Error("not deliverable with both")
	}
	if f, _ := gobot.FenceOf(s.Fenced(context.Background(), "b")); f.Gen != 3 {
		t.Errorf("fenced by %+v", f)
	}
	cancel()
	for deadline := time.Now().Add(time.Second); s.Can("b") && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	if s.Can("b") || !s.Can("a") {
		t.Error("the lease's end left b, or took a")
	}
	s.Set("a", nil)
	if s.Can("a") {
		t.Error("Set(nil) left a")
	}
}

// A claim keeps its step's keyed messages and the position to draw.
func TestClaimRoundTrip(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := game.New(game.Config{Width: 9, Height: 9})
	if err != nil {
		t.Fatal(err)
	}
	msgs := []protocol.Message{{Room: "a:room", Reply: protocol.Reply{Text: "hi", Draw: &protocol.Drawing{Game: g, ID: 4}}}, {To: "a:bob", Key: "own"}}
	err = db.Update(context.Background(), func(tx gobot.Tx) error {
		if err := Claim(tx, "step", msgs, "me", time.Now().Add(time.Minute)); err != nil {
			return err
		}
		c, err := tx.Claim("step")
		if err != nil {
			return err
		}
		got, err := Claimed(c)
		if err != nil {
			return err
		}
		if len(got) != 2 || got[0].Key != "step/0" || got[1].Key != "own" || got[0].Reply.Text != "hi" || got[0].Reply.Draw.ID != 4 || got[0].Reply.Draw.Game == nil || c.Holder != "me" {
			t.Errorf("claimed %+v as %+v", c, got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A claimed table image (a tournament's standings, a ladder) keeps what
// it is drawn from: the claim read back draws the same table.
func TestClaimKeepsTables(t *testing.T) {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	standings := &tournament.Tournament{System: tournament.McMahon, Rounds: 2, Bar: 4, Floor: -19,
		Players: []tournament.Player{{ID: "a:ann", Name: "Ann", Rank: 2, Rating: 2200}, {ID: "a:bob", Name: "Bob", Rank: -3}},
		Played:  []tournament.Round{{Games: []tournament.Game{{Table: 1, White: "a:ann", Black: "a:bob", Handicap: 2, Result: tournament.WhiteWins}}}}}
	ladder := &tournament.Ladder{Rungs: []tournament.PlayerID{"a:ann", "a:bob"}, Range: 3}
	msgs := []protocol.Message{
		{Room: "a:room", Reply: protocol.Reply{Text: "final", Draw: &protocol.Drawing{Standings: standings, After: 0, Title: "Cup: final standings", Theme: "dark"}}},
		{Room: "a:room", Reply: protocol.Reply{Text: "ladder", Draw: &protocol.Drawing{Ladder: ladder, Names: map[tournament.PlayerID]string{"a:ann": "Ann"}, Rows: 40, Title: "L"}}},
	}
	err = db.Update(context.Background(), func(tx gobot.Tx) error {
		if err := Claim(tx, "step", msgs, "me", time.Now().Add(time.Minute)); err != nil {
			return err
		}
		c, err := tx.Claim("step")
		if err != nil {
			return err
		}
		got, err := Claimed(c)
		if err != nil {
			return err
		}
		s, l := got[0].Reply.Draw, got[1].Reply.Draw
		if s == nil || !reflect.DeepEqual(s.Standings, standings) || s.Title != "Cup: final standings" || s.Theme != "dark" {
			t.Errorf("the standings claimed: %+v", s)
		}
		if l == nil || !reflect.DeepEqual(l.Ladder, ladder) || l.Names["a:ann"] != "Ann" || l.Rows != 40 || l.Title != "L" {
			t.Errorf("the ladder claimed: %+v", l)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
