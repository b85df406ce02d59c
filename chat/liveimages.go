package chat

import (
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/say"
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

var liveImagesValues = []string{"every", "last", "off"}

// liveImagesSetting takes live_images=… out of the room's settings.
func liveImagesSetting(room []string) (rest []string, value *string, err error) {
	for _, a := range room {
		k, v, _ := strings.Cut(a, "=")
		if !strings.EqualFold(k, "live_images") {
			rest = append(rest, a)
			continue
		}
		v = strings.ToLower(v)
		switch v {
		case "every", "last", "off":
		default:
			return nil, nil, say.BadLiveImages(v)
		}
		if v == "last" {
			v = "" // the default, stored as nothing
		}
		value = &v
	}
	return rest, value, nil
}

// liveImagesShown is a room's setting as settings shows it.
func liveImagesShown(rm *gobot.Room) string {
	if rm.LiveImages == "" {
		return "last"
	}
	return rm.LiveImages
}

// liveImage reports whether an announcement of live game l carries the
// board, under the setting of the room the game was started in.
func liveImage(tx gobot.Tx, l *loaded) bool {
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
