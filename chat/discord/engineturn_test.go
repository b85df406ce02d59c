package discord

import (
	"fmt"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat/engines"
	"github.com/gobotgo/gobot/engine"
)

// In a DM between users, a game against GNU Go (real, at
// /usr/games/gnugo): the engine's moves, which come after the answer,
// go out as follow-ups of the interaction that prompted them — never a
// post with the bot token.
func TestEngineMovesInAPrivateChannel(t *testing.T) {
	const gnugo = "/usr/games/gnugo"
	if _, err := os.Stat(gnugo); err != nil {
		t.Skipf("GNU Go is not installed at %s (apt-get install gnugo): %v", gnugo, err)
	}
	e := newEnv(t)
	cfg := engine.GNUGo(gnugo)
	cfg.MoveTimeout = 3 * time.Minute
	set, err := engines.New([]engine.Config{cfg}, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	e.bot.SetEngines(set, "", "")
	t.Cleanup(func() { e.bot.StopEngines(); set.Close() })
	w := privateChannel("pc4")
	e.fake.noBot = map[string]bool{"pc4": true}
	body := e.ix(w, "111", "challenge", opt("engine", 3, "gnugo")+","+opt("level", 4, "1")+","+opt("size", 3, "9")+","+opt("color", 3, "white"))
	e.send(body, time.Now(), false)
	e.bot.WaitEngines()
	// GNU Go is black: its first move follows the game's start.
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "gnugo played") {
		t.Fatalf("the engine's first move: %v", fus)
	}
	checkPNG(t, fus[0])
	played := 0
	for _, p := range []string{"E5", "C3", "G7", "C7", "G3", "D5", "F5"} {
		if played == 3 {
			break
		}
		body := e.ix(w, "111", "play", opt("point", 3, p))
		if _, out := e.send(body, time.Now(), false); out["type"] != float64(5) {
			continue // GNU Go took the point
		}
		played++
		e.bot.WaitEngines()
		if fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body)); len(fus) != 1 {
			t.Fatalf("after %s, %d follow-ups, want the engine's move: %v", p, len(fus), e.fake.take())
		}
	}
	if played < 3 {
		t.Fatalf("only %d moves played", played)
	}
	e.fake.obeyed(t)
}
