package chat

import (
	"context"
	"io"
	"time"

	"github.com/gobotgo/gobot/game"
)

// Notifier delivers messages that are not replies, for one platform.
type Notifier interface {
	Notify(ctx context.Context, m Message) error
}

// TimeSource tells the time; tests use a fake one.
type TimeSource interface {
	Now() time.Time
}

// Renderer draws boards; *render.Renderer implements it.
type Renderer interface {
	// Board writes the PNG of g's current position (with the scoring
	// markup in the scoring phase), numbering the last numbers moves, and
	// returns the image size.
	Board(w io.Writer, g *game.Game, theme string, numbers int) (width, height int, err error)
	// Replay writes an animated GIF of the whole game.
	Replay(w io.Writer, g *game.Game, theme string) (width, height int, err error)
}
