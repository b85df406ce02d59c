package board

import (
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// A live game's announcements in chat are compact (issue 38): the room
// says when they carry the board image (settings room
// live_images=every|last|off). last, the default, draws the final
// position, the scoring and each 20th move; every draws each
// announcement; off none. A board asked for (board) is always drawn, and
// correspondence games are drawn as before.

// liveImageEvery is the move number whose multiples are drawn under
// live_images=last.
const liveImageEvery = 20

// LiveImagesValue is live_images=v as a room stores it ("" for last, the
// default); ok is false when v is none of every, last and off.
func LiveImagesValue(v string) (stored string, ok bool) {
	switch v = strings.ToLower(v); v {
	case "every", "off":
		return v, true
	}
	return "", strings.EqualFold(v, "last")
}

// LiveImagesShown is a room's setting as settings shows it.
func LiveImagesShown(rm *gobot.Room) string {
	if rm.LiveImages == "" {
		return "last"
	}
	return rm.LiveImages
}

// LiveImage reports whether an announcement of live game l carries the
// board, under the setting of the room the game was started in.
func LiveImage(tx gobot.Tx, l *flow.Loaded) bool {
	m, g := l.Match, l.G
	if !m.Clock.Live() {
		return true
	}
	home := m.Room
	if m.Thread {
		home = m.Parent
	}
	var setting string
	if rm, err := tx.Room(home); err == nil {
		setting = rm.LiveImages
	}
	switch setting {
	case "every":
		return true
	case "off":
		return false
	}
	n := g.MoveNumber()
	return g.Phase() != game.Playing || !m.Active() || n > 0 && n%liveImageEvery == 0
}
