package say

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// The router's refusals: before a command runs, and of a pressed button.

// Panicked is the answer to a command that failed on the bot's side.
const Panicked = "Sorry, something went wrong on my side; nothing was changed."

// BadUser refuses a command from a user name the platform does not
// accept (err says why).
func BadUser(err error) error {
	return Refusef("I can't take commands from this user name: %v", err)
}

// AdminOnly refuses command to someone who is not a room admin.
func AdminOnly(command string) error { return Refusef("Only room admins can use %s.", Cmd(command)) }

// UnknownButton refuses a button the bot cannot read.
func UnknownButton() error { return Refusef("I don't recognise that button; try %s.", Cmd("help")) }

// ButtonGone refuses a button of game id, which no longer exists.
func ButtonGone(id gobot.GameID) error { return Refusef("Game #%d no longer exists.", id) }

// OldButton refuses a button of game id shown for an older position.
func OldButton(id gobot.GameID) error {
	return Refusef("The board has moved on since those buttons were shown — here is the latest: %s.", Cmd(fmt.Sprintf("board #%d", id)))
}

// UnknownCommand refuses the command name, which none is called; best
// is the nearest command's, if one is near.
func UnknownCommand(name, best string) error {
	switch {
	case name == "":
		return Refusef("Which command? Try %s.", Cmd("help"))
	case best != "":
		return Refusef("I don't know the command %s. Did you mean %s? %s lists them all.", protocol.Echo(name), Cmd(best), Cmd("help"))
	}
	return Refusef("I don't know the command %s. %s lists them all.", protocol.Echo(name), Cmd("help"))
}

// TakesNoFile refuses a file attached to command, which takes none;
// takers are the commands that take one.
func TakesNoFile(command string, takers []string) error {
	if len(takers) == 0 {
		return Refusef("%s takes no file, and no command does; send the command without it.", Cmd(command))
	}
	names := make([]string, len(takers))
	for i, t := range takers {
		names[i] = Cmd(t)
	}
	if len(names) == 1 {
		return Refusef("%s takes no file (only %s does); send the command without it. Nothing changed.", Cmd(command), names[0])
	}
	list := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	return Refusef("%s takes no file (only %s do); send the command without it. Nothing changed.", Cmd(command), list)
}
