package chat

import (
	"context"
	"time"

	"github.com/gobotgo/gobot/chat/draw"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// Notifier delivers messages that are not replies, for one platform.
type Notifier interface {
	Notify(ctx context.Context, m protocol.Message) error
}

// TimeSource tells the time; tests use a fake one.
type TimeSource interface {
	Now() time.Time
}

// Timers is what a TimeSource may also offer: Run then waits on its
// timers instead of the system's, so a test's fake time drives the
// runner (a fake fires a timer when its time is moved past it).
type Timers interface {
	// After returns a channel that receives once d has passed.
	After(d time.Duration) <-chan time.Time
}

// Renderer draws boards; *render.Renderer implements it (chat/draw).
type Renderer = draw.Renderer

// Engines is the computer players as chat uses them: GTP engines behind a
// pool (package engine), adapted in chat/engines. chat knows no GTP.
type Engines interface {
	// List returns the engines on offer, by name.
	List() []EngineInfo
	// Check reports whether engine name can play a game of cfg at level;
	// the error's text is a reason a player can read.
	Check(ctx context.Context, name string, cfg game.Config, level int) error
	// Move returns the engine's move for the colour to play in rec.
	// cleanup (play resumed over a disputed count) asks for a move that
	// captures the opponent's dead stones rather than passing, where that
	// costs the engine nothing (area counting, pass stones) and only while
	// such stones remain; under territory counting the engine passes
	// when the position is settled and holds to its dead-stone list.
	Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (EngineMove, error)
	// Dead returns the engine's dead stones in rec's final position.
	Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error)
	// Review reports whether the marking in rec (a game being scored)
	// counts at least as well for the engine, playing colour c, as its
	// own dead list.
	Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error)
}

// EngineInfo describes one engine for the engines command.
type EngineInfo struct {
	Name   string
	About  string // "GNU Go 3.8" when known
	Levels []int  // nil: the engine's own default only
	Sizes  []int  // nil: any size the engine accepts
}
