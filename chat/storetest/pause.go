package storetest

import (
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// testLivePause: a live game's pause (asked, running, and the time used)
// comes back as stored, and a game that never paused has none.
func testLivePause(t *testing.T, s gobot.Store) {
	running := NewGame("t:ann", "t:bob", "t:room")
	running.Clock = gobot.TimeControl{Kind: gobot.Absolute, Main: 10 * time.Minute}
	running.Deadline = T0.Add(7 * time.Minute)
	running.Pause = &gobot.LivePause{Since: T0, Left: 3*time.Minute + 250*time.Millisecond, Used: 3 * time.Minute}
	asked := NewGame("t:ann", "t:cat", "t:room")
	asked.Pause = &gobot.LivePause{Asked: "t:cat", Used: 90 * time.Second}
	plain := NewGame("t:bob", "t:cat", "t:room")
	update(t, s, func(tx gobot.Tx) error {
		for _, g := range []*gobot.Match{running, asked, plain} {
			if err := tx.PutMatch(g); err != nil {
				return err
			}
		}
		return nil
	})
	view(t, s, func(tx gobot.Tx) error {
		for _, want := range []*gobot.Match{running, asked, plain} {
			got, err := tx.Match(want.ID)
			if err != nil {
				return err
			}
			switch {
			case want.Pause == nil && got.Pause != nil:
				t.Errorf("game #%d: got pause %+v, want none", want.ID, *got.Pause)
			case want.Pause != nil && (got.Pause == nil || got.Pause.Asked != want.Pause.Asked || !got.Pause.Since.Equal(want.Pause.Since) || got.Pause.Left != want.Pause.Left || got.Pause.Used != want.Pause.Used):
				t.Errorf("game #%d: got pause %+v, want %+v", want.ID, got.Pause, *want.Pause)
			}
			if got.LivePaused() != want.LivePaused() {
				t.Errorf("game #%d: paused %v, want %v", want.ID, got.LivePaused(), want.LivePaused())
			}
		}
		return nil
	})
}
