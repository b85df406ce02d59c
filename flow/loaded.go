package flow

import (
	"fmt"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Loaded is a stored game with its rules state: the match and its record
// replayed. Every operation works on one, in its transaction.
type Loaded struct {
	Match *gobot.Match
	G     *game.Game
}

// Load replays match's record.
func Load(match *gobot.Match) (*Loaded, error) {
	g, err := game.Replay(match.Record)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", match.ID, gobot.ErrCorrupt, err)
	}
	return &Loaded{Match: match, G: g}, nil
}
