package protocol

import (
	"strconv"

	"github.com/gobotgo/gobot"
)

// A Widget is a game's (or a review's) web board shown inside a chat
// room (a Matrix room widget): what the room wants, which the adapter
// writes as the platform's room state.
type Widget struct {
	Game gobot.GameID
	// Review is set instead of Game for a review's board.
	Review gobot.ReviewID
	// Room is the game's room (a thread's room on platforms with
	// threads): the widget goes to the room itself.
	Room gobot.RoomID
	// URL is the widget page. It may hold the platform's template
	// variables ($matrix_room_id, $matrix_user_id), which the client
	// fills in and nobody trusts.
	URL string
	// Name is the widget's title ("Game #7").
	Name string
}

// WidgetID is the widget's ID in its room: one per game or review, so
// adding it again replaces it.
func (w Widget) WidgetID() string {
	if w.Review != 0 {
		return "gobot_review_" + strconv.FormatUint(uint64(w.Review), 10)
	}
	return "gobot_game_" + strconv.FormatUint(uint64(w.Game), 10)
}

// What names the widget's board in a sentence: "game #7", "review r3".
func (w Widget) What() string {
	if w.Review != 0 {
		return "review " + w.Review.Ref()
	}
	return "game #" + strconv.FormatUint(uint64(w.Game), 10)
}
