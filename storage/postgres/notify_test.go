package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// TestGameChangesReachEveryProcess: a change published through one
// store reaches the listener of another store on the same database (a
// second process), and not a listener on another schema.
func TestGameChangesReachEveryProcess(t *testing.T) {
	a, b := twoStores(t)
	other, _ := mustOpen(t) // another schema: another gobot
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	heard := make(chan gobot.GameID, 16)
	stray := make(chan gobot.GameID, 16)
	done := make(chan error, 2)
	go func() { done <- b.ListenGames(ctx, func(id gobot.GameID) { heard <- id }) }()
	go func() { done <- other.ListenGames(ctx, func(id gobot.GameID) { stray <- id }) }()
	// The listeners may not be listening yet: publish until they hear.
	deadline := time.After(20 * time.Second)
	for got := false; !got; {
		other.PublishGames(ctx, []gobot.GameID{5})
		select {
		case <-stray:
			got = true
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("the other gobot never heard its own change")
		}
	}
	for got := false; !got; {
		a.PublishGames(ctx, []gobot.GameID{7, 9})
		select {
		case id := <-heard:
			if id != 7 {
				t.Fatalf("heard game %d first, want 7", id)
			}
			if id2 := <-heard; id2 != 9 {
				t.Fatalf("heard game %d second, want 9", id2)
			}
			got = true
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("the other process never heard the change")
		}
	}
	for quiet := time.After(300 * time.Millisecond); ; {
		select {
		case id := <-stray:
			if id != 5 { // its own late echoes are fine
				t.Errorf("a gobot on another schema heard game %d", id)
			}
			continue
		case <-quiet:
		}
		break
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("ListenGames: %v", err)
		}
	}
}

// A presence field reads back as it was written; anything else in a "p"
// field is left aside.
func TestParsePresence(t *testing.T) {
	for f, want := range map[string]Presence{
		"7b+3fa9":  {Game: 7, Color: game.Black, Process: "3fa9", Open: true},
		"12w-abcd": {Game: 12, Color: game.White, Process: "abcd"},
	} {
		if got, ok := parsePresence(f); !ok || got != want {
			t.Errorf("parsePresence(%q) = %+v, %v; want %+v", f, got, ok, want)
		}
	}
	for _, f := range []string{"", "b+x", "7b+", "7x+ab", "7b*ab", "0b+ab", "-1b+ab", "99999999999999999999999b+ab"} {
		if p, ok := parsePresence(f); ok {
			t.Errorf("parsePresence(%q) = %+v, want refused", f, p)
		}
	}
}
