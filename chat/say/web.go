package say

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
)

// NoWebBoard refuses `web` where the web board is off.
func NoWebBoard() error {
	return Refusef("The web board is not enabled on this bot (its operator turns it on in the config's web: section).")
}

// WebElsewhere refuses a watcher the board of game id, played in
// another room.
func WebElsewhere(id gobot.GameID) error {
	return Refusef("Game #%d is played in another room; ask for its board there.", id)
}

// WebPlayersInDM refuses a watcher the board of game id in a DM.
func WebPlayersInDM(id gobot.GameID) error {
	return Refusef("Only the players of game #%d get its link in a DM; others ask in the game's room.", id)
}

// WebLink gives the reader's personal link url to match's web board,
// which works until expires: to play, or (watch) to vote in a vote game
// being played, or to watch; after reset, it says the earlier links
// ended.
func WebLink(match *gobot.Match, watch, reset bool, url string, expires time.Time) string {
	what := "Your personal link to play game #%d on the web board; it acts as you, so keep it to yourself. It works until %s."
	switch {
	case watch && match.Has(gobot.SideRoom) && match.Active(): // the room's members vote on the board (board.go)
		what = "Your link to vote in game #%d on the web board; it votes as you, so keep it to yourself. It works until %s."
	case watch:
		what = "Your link to watch game #%d on the web board (watch only). It works until %s."
	}
	text := fmt.Sprintf(what, match.ID, expires.UTC().Format("2 Jan 2006")) + "\n" + url
	if reset {
		text = fmt.Sprintf("Your earlier links to game #%d no longer work, nor the boards opened with them. ", match.ID) + text
	}
	return text
}

// WebLinkSent acknowledges a link to game id sent in a direct message
// (after reset, a new one).
func WebLinkSent(id gobot.GameID, reset bool) string {
	if reset {
		return fmt.Sprintf("Your earlier links to game #%d no longer work; I sent you a new one in a direct message.", id)
	}
	return fmt.Sprintf("I sent you the link to game #%d in a direct message.", id)
}

// GameWidget names game id's widget in its room.
func GameWidget(id gobot.GameID) string { return fmt.Sprintf("Go: game #%d", id) }

// TournamentWidget names tournament t's widget in its room.
func TournamentWidget(t *gobot.Tournament) string {
	return "Go: " + clean(t.Name) + " (" + t.ID.Ref() + ")"
}

// ReviewWidget names review id's widget in its room.
func ReviewWidget(id gobot.ReviewID) string { return "Go: review " + id.Ref() }
