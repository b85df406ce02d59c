package protocol

// ArgKind says what an argument is, so help, usage errors and each
// platform's typed options come from one declaration.
type ArgKind uint8

// The kinds of argument.
const (
	ArgText      ArgKind = iota // free text
	ArgUser                     // a user: "@discord:1234"
	ArgPoint                    // a board point: "D4"
	ArgGame                     // a game reference: "#7"
	ArgChallenge                // a challenge reference: "#3"
	ArgSize                     // "19", "13x9"
	ArgRules                    // a preset name
	ArgColor                    // black, white, random
	ArgKomi                     // komi=6.5
	ArgHandicap                 // handicap=2
	ArgClock                    // clock=3d, clock=fischer:3d+1d/7d
	ArgChoice                   // one of Choices
	ArgEngine                   // engine=gnugo (autocompleted)
	ArgLevel                    // level=1..10
	ArgVote                     // vote=10m: a room-vote game's window
	ArgTeams                    // two teams: "@alice @bob vs @carol @dave" (rengo, teams.go)
	ArgReview                   // a review reference: "r5" (a game is "#5")
)

// Arg declares one argument of a command.
type Arg struct {
	Name     string
	Kind     ArgKind
	Required bool
	Repeat   bool // may be given several times (dead D4 Q16)
	Help     string
	Choices  []string
	// Synonyms are other words for a choice, not offered in menus:
	// "refuse" → "no".
	Synonyms map[string]string
	// Elsewhere lets a user argument name a player of another platform
	// that the room's community joins (Request.Elsewhere): a challenge
	// between platforms (docs/identity.md).
	Elsewhere bool
}
