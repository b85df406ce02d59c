package chat

import (
	"context"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// thinkingEngine passes once let go (go on): until then it is thinking.
type thinkingEngine struct {
	passEngine
	goOn chan struct{}
}

func (e *thinkingEngine) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (EngineMove, error) {
	select {
	case <-e.goOn:
	case <-ctx.Done():
		return EngineMove{}, ctx.Err()
	}
	return e.passEngine.Move(ctx, name, rec, level, cleanup)
}

// Issue 43: while an engine works out its move, games says it is
// thinking, not "their move, 0s left" (its "deadline" is its work, due
// at once); once it has moved, the player's own turn and clock again.
func TestGamesSaysTheEngineThinks(t *testing.T) {
	h := newHarness(t)
	eng := &thinkingEngine{goOn: make(chan struct{})}
	h.bot.SetEngines(eng, "", "")
	defer h.bot.StopEngines()
	h.ok("alice", "challenge engine=passer level=1 9 white") // the engine plays Black: its move first
	rep := h.ok("alice", "games")
	if !strings.Contains(rep.Text, "<@engine:passer> is thinking") || strings.Contains(rep.Text, "left") {
		t.Errorf("games while the engine thinks: %s", rep.Text)
	}
	close(eng.goOn)
	h.bot.WaitEngines()
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "): your move") {
		t.Errorf("games once the engine moved: %s", rep.Text)
	}
}
