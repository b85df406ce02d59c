package postgres

import (
	"bytes"
	"context"
	"math/rand/v2"
	"strings"
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

// Issue 47: a change published with its page state reaches another
// process's listener with the state as it was sent (no read there); a
// state too large for a payload, or with no state, reaches it as the
// game's ID alone; a listener that takes no states (of an older gobot)
// hears every such change as the ID.
func TestGameStatesReachEveryProcess(t *testing.T) {
	a, b := twoStores(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ids := make(chan gobot.GameID, 64)
	states := make(chan GameState, 64)
	old := make(chan gobot.GameID, 64)
	done := make(chan error, 2)
	go func() {
		done <- b.Listen(ctx, Changes{Games: func(id gobot.GameID) { ids <- id }, States: func(st GameState) { states <- st }})
	}()
	go func() { done <- b.Listen(ctx, Changes{Games: func(id gobot.GameID) { old <- id }}) }()
	// Both listen once both have heard a change.
	deadline := time.After(20 * time.Second)
	for n := 0; n != 1|2; {
		a.PublishGames(ctx, []gobot.GameID{1})
		select {
		case <-ids:
			n |= 1
		case <-old:
			n |= 2
		case <-time.After(100 * time.Millisecond):
		case <-deadline:
			t.Fatal("the listeners never heard a change")
		}
	}
	time.Sleep(200 * time.Millisecond)
	for len(ids)+len(old) > 0 {
		select {
		case <-ids:
		case <-old:
		}
	}
	small := []byte(`{"v":12,"status":"Black to play","board":"` + strings.Repeat(`<rect data-point="E5"/>`, 300) + `"}`)
	large := make([]byte, 40_000) // incompressible: it cannot fit
	r := rand.NewChaCha8([32]byte{1})
	r.Read(large)
	a.PublishStates(ctx, []GameState{{Game: 7, V: 12, JSON: small}, {Game: 8, V: 3, JSON: large}, {Game: 9}})
	got := <-states
	if got.Game != 7 || got.V != 12 || !bytes.Equal(got.JSON, small) {
		t.Fatalf("heard state %d v%d %.60q, want game 7's v12 as sent", got.Game, got.V, got.JSON)
	}
	for _, want := range []gobot.GameID{8, 9} {
		if id := <-ids; id != want {
			t.Errorf("heard game %d as an ID, want %d", id, want)
		}
	}
	for _, want := range []gobot.GameID{7, 8, 9} {
		if id := <-old; id != want {
			t.Errorf("an older listener heard game %d, want %d", id, want)
		}
	}
	select {
	case id := <-ids:
		t.Errorf("game %d heard as an ID too", id)
	case st := <-states:
		t.Errorf("game %d's state heard again", st.Game)
	case <-time.After(200 * time.Millisecond):
	}
	cancel()
	for range 2 {
		if err := <-done; err != nil {
			t.Errorf("Listen: %v", err)
		}
	}
}

// A state field reads back as written; a damaged one is refused (its
// game is then read, from its ID beside it).
func TestParseState(t *testing.T) {
	st := GameState{Game: 7, V: 12, JSON: []byte(`{"v":12}`)}
	f := stateField(st)
	got, ok := parseState(strings.TrimPrefix(f, "s"))
	if !ok || got.Game != 7 || got.V != 12 || !bytes.Equal(got.JSON, st.JSON) {
		t.Fatalf("parseState(%q) = %+v, %v", f, got, ok)
	}
	for _, f := range []string{"", "7", "7:12", "0:1:" + f[strings.LastIndex(f, ":")+1:], "7:x:AAAA", "7:12:!!!", "7:12:AAAA"} {
		if st, ok := parseState(f); ok {
			t.Errorf("parseState(%q) = %+v, want refused", f, st)
		}
	}
	if f := stateField(GameState{Game: 7}); f != "" {
		t.Errorf("a change with no state has the field %q", f)
	}
}
