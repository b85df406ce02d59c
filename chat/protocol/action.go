package protocol

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gobotgo/gobot"
)

// Button is what a button carries (Action.ID): a command with the game,
// challenge or review it acts on, the version of the game it was shown for and
// an argument. Its ID form, "undo|g7|12|no" or "accept|c3|0", is the one
// codec both adapters use: Discord sends it back as the custom ID,
// Matrix shows Line for the user to type.
type Button struct {
	Command   string
	Game      gobot.GameID      // either a game …
	Challenge gobot.ChallengeID // … or a challenge
	// … or a review: "reviews|r3|0", the Open board of a review's
	// answer. Its command names no review (reviews are the room's), so
	// Words leave it out; the button says which review it was shown for.
	Review  gobot.ReviewID
	Version uint64 // the game's version when the button was shown
	Arg     string // one word, may be empty
}

// ErrButton is the error of an ID that is not a button's.
var ErrButton = fmt.Errorf("not a button ID")

// ID encodes the button: command|g<game>|<version>[|arg],
// command|c<challenge>|0[|arg] or command|r<review>|0[|arg].
func (x Button) ID() string {
	ref := fmt.Sprintf("g%d|%d", x.Game, x.Version)
	switch {
	case x.Challenge != 0:
		ref = fmt.Sprintf("c%d|0", x.Challenge)
	case x.Review != 0:
		ref = fmt.Sprintf("r%d|0", x.Review)
	}
	id := x.Command + "|" + ref
	if x.Arg != "" {
		id += "|" + x.Arg
	}
	return id
}

// ParseButton decodes a button ID made by Button.ID.
func ParseButton(id string) (Button, error) {
	parts := strings.Split(id, "|")
	if len(parts) < 3 || len(parts) > 4 || len(parts[1]) < 2 || parts[0] == "" {
		return Button{}, ErrButton
	}
	n, err1 := strconv.ParseUint(parts[1][1:], 10, 64)
	version, err2 := strconv.ParseUint(parts[2], 10, 64)
	if err1 != nil || err2 != nil || n == 0 || n > MaxRef {
		return Button{}, ErrButton
	}
	x := Button{Command: parts[0], Version: version}
	switch parts[1][0] {
	case 'g':
		x.Game = gobot.GameID(n)
	case 'c':
		if version != 0 {
			return Button{}, ErrButton // a challenge has no versions
		}
		x.Challenge = gobot.ChallengeID(n)
	case 'r':
		if version != 0 {
			return Button{}, ErrButton // a review's button has no version
		}
		x.Review = gobot.ReviewID(n)
	default:
		return Button{}, ErrButton
	}
	if len(parts) == 4 {
		if parts[3] == "" || strings.ContainsAny(parts[3], " \t\n") {
			return Button{}, ErrButton
		}
		x.Arg = parts[3]
	}
	return x, nil
}

// Words are the command's arguments as a user would type them:
// ["no", "#7"].
func (x Button) Words() []string {
	var w []string
	if x.Arg != "" {
		w = append(w, x.Arg)
	}
	if x.Challenge != 0 {
		return append(w, fmt.Sprintf("#%d", x.Challenge))
	}
	if x.Review != 0 {
		return w
	}
	return append(w, fmt.Sprintf("#%d", x.Game))
}

// Line is the command line that does what the button does: "undo no #7".
func (x Button) Line() string { return strings.Join(append([]string{x.Command}, x.Words()...), " ") }
