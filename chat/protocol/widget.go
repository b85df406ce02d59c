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
	// Review is set instead of Game for a review's board, Tournament
	// for a tournament's page (its standings, pairings and boards).
	Review     gobot.ReviewID
	Tournament gobot.TournamentID
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

// WidgetID is the widget's ID in its room: one per game, review or
// tournament, so adding it again replaces it.
func (w Widget) WidgetID() string {
	if w.Tournament != 0 {
		return "gobot_tournament_" + strconv.FormatUint(uint64(w.Tournament), 10)
	}
	if w.Review != 0 {
		return "gobot_review_" + strconv.FormatUint(uint64(w.Review), 10)
	}
	return "gobot_game_" + strconv.FormatUint(uint64(w.Game), 10)
}

// What names the widget's board in a sentence: "game #7", "review r3",
// "tournament t2".
func (w Widget) What() string {
	if w.Tournament != 0 {
		return "tournament " + w.Tournament.Ref()
	}
	if w.Review != 0 {
		return "review " + w.Review.Ref()
	}
	return "game #" + strconv.FormatUint(uint64(w.Game), 10)
}
