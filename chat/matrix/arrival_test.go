package matrix

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/storage"
)

// A live game's move is charged from the adapter's receipt of it, not
// from the homeserver's origin_server_ts, which may lie in the past (a
// slow sync, a client's clock): here two minutes before it arrived, so
// counting from it would give the player time back. A correspondence
// game's move still counts from the homeserver's time, as before.
func TestFakeLiveMoveCountsFromArrival(t *testing.T) {
	f, db := fakeClub(t)
	run := startFake(t, f, Config{}, db, nil)
	answer := func(evt string) string {
		t.Helper()
		f.waitFor(t, "the answer to "+evt, func() bool {
			for _, s := range f.sent {
				rel, _ := s.content["m.relates_to"].(map[string]any)
				if irt, _ := rel["m.in_reply_to"].(map[string]any); irt["event_id"] == evt {
					return true
				}
			}
			return false
		})
		return f.answers(evt)[0].body()
	}
	sayAt := func(sender, body string, at time.Time) string {
		f.mu.Lock()
		evtID := fmt.Sprintf("$e%d", len(f.stream)+1)
		f.mu.Unlock()
		it := msg(fakeRoom, sender, body, evtID)
		it.evt["origin_server_ts"] = at.UnixMilli()
		f.push(it)
		return evtID
	}
	answer(f.say(fakeRoom, "@ann:example.org", "!go challenge @bob 9 black clock=absolute:5m"))
	answer(f.say(fakeRoom, "@bob:example.org", "!go accept"))
	past := time.Now().Add(-2 * time.Minute)
	sent := time.Now()
	if got := answer(sayAt("@ann:example.org", "!go play E5 #1", past)); !strings.Contains(got, "played E5") {
		t.Fatalf("the live move: %q", got)
	}
	answer(f.say(fakeRoom, "@ann:example.org", "!go challenge @bob 9 black clock=3d"))
	answer(f.say(fakeRoom, "@bob:example.org", "!go accept"))
	if got := answer(sayAt("@ann:example.org", "!go play E5 #2", past)); !strings.Contains(got, "played E5") {
		t.Fatalf("the correspondence move: %q", got)
	}
	if err := run.stop(); err != nil {
		t.Fatal(err)
	}

	s, err := storage.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var live, corr *gobot.Match
	if err := s.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		if live, err = tx.Match(1); err != nil {
			return err
		}
		corr, err = tx.Match(2)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if at := live.MoveTimes[0]; at.Before(sent) {
		t.Errorf("the live move counts from %v, before it was sent (%v): the homeserver's time", at, sent)
	}
	if left := live.Left[game.Black]; left > 5*time.Minute || left < 4*time.Minute {
		t.Errorf("black's time after the live move: %v, want just under 5m", left)
	}
	if at := corr.MoveTimes[0]; !at.Equal(time.UnixMilli(past.UnixMilli())) {
		t.Errorf("the correspondence move counts from %v, want the homeserver's %v", at, past)
	}
}
