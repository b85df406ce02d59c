package protocol

import "github.com/gobotgo/gobot"

// Platform describes a chat platform to the bot. Each adapter makes its
// own and puts it on every request it hands over (Request.Platform), so
// the bot asks the request what the platform can do instead of keeping
// tables of platform names. A nil *Platform is a plain one: no private
// replies in shared rooms, no widgets, commands typed bare, user names
// a short word.
type Platform struct {
	// Name is the platform's part of its IDs ("discord" in
	// discord:1234).
	Name string
	// PrivateReplies: a reply can be shown to its caller alone in a
	// shared room (Discord's ephemeral responses; the terminal has one
	// person). Request.PrivateReplies asks it.
	PrivateReplies bool
	// Widgets: the platform's rooms show a game's board as a room
	// widget (Matrix).
	Widgets bool
	// CommandLine writes a command line as the platform's users type it
	// ("play D4" → "/go play D4"); nil: bare.
	CommandLine func(line string) string
	// User checks the local part of one of the platform's user IDs
	// ("1234" of discord:1234) and refuses it in words (a Refusal); nil:
	// a short word.
	User func(local string) error
	// Typed recognises a word naming one of the platform's users as
	// typed on another platform ("@bob:example.org" on Discord is a
	// Matrix user; "discord:@carol" on Matrix a Discord one) and returns
	// the user's ID, whose local part may be a name the bot resolves
	// (docs/identity.md); nil: none are named elsewhere.
	Typed func(word string) (gobot.UserID, bool)
}

// TypedUser is the user word names on one of platforms other than the
// caller's (from): a player of another platform (Platform.Typed).
func TypedUser(platforms []*Platform, from, word string) (gobot.UserID, bool) {
	for _, p := range platforms {
		if p == nil || p.Name == from || p.Typed == nil {
			continue
		}
		if u, ok := p.Typed(word); ok && u.Platform() == p.Name {
			return u, true
		}
	}
	return "", false
}

// ShowsWidgets reports whether p's rooms show widgets.
func (p *Platform) ShowsWidgets() bool { return p != nil && p.Widgets }

// Command writes line as p's users type it.
func (p *Platform) Command(line string) string {
	if p == nil || p.CommandLine == nil {
		return line
	}
	return p.CommandLine(line)
}

// ValidateUser checks u before it is stored or looked up: a platform
// name and, for p's own users, p's grammar; for anyone else's (or a
// nil p), a short word. The error quotes u only clipped.
func (p *Platform) ValidateUser(u gobot.UserID) error {
	if err := validUserShape(u); err != nil {
		return err
	}
	if p != nil && p.User != nil && u.Platform() == p.Name {
		return p.User(u.Local())
	}
	return ValidName(u.Local())
}
