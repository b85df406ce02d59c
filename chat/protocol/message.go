package protocol

import (
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// User is a platform user as a request names them.
type User struct {
	ID   gobot.UserID // platform-qualified: "discord:1234"
	Name string       // display name
}

// Request is one command from a user.
type Request struct {
	// Elsewhere are the other platforms whose players may be named here
	// by an argument that takes them (Arg.Elsewhere): those the room's
	// joined community reaches. The bot sets it (docs/identity.md).
	Elsewhere []*Platform `json:"-"`
	User      User
	Room      gobot.RoomID // where the command was typed (a DM room for DMs)
	DM        bool         // a direct conversation with the bot
	Admin     bool         // the caller may change room settings and abort games
	// EventID is the platform's ID for this event ("discord:interaction:…",
	// "matrix:$event"). The same ID delivered twice is handled once;
	// empty disables the check.
	EventID gobot.EventID
	// Command and Args as typed: "play", ["D4", "#7"]. A user argument is
	// written "@" + platform-qualified ID ("@discord:1234"); on the console
	// a bare "@bob" means the caller's platform ("@console:bob").
	Command string
	Args    []string
	// Named gives arguments by their declared name (Arg.Name), as
	// platforms with typed options send them (Discord): "komi": "6.5",
	// "#game": "7". A user is named by its qualified ID
	// ("@player": "discord:1234"); a repeated argument's values are
	// separated by spaces.
	Named map[string]string
	// Mentions gives display names for the users named in Args.
	Mentions []User
	// Action, when set, is the ID of a button the user pressed
	// (Reply.Actions[i].ID); Command and Args are then ignored.
	Action string
	// Act, when set, is an act on game Game made on the web board (a
	// click): the router takes it through the door into the game
	// (flow.Act) as the command that does it, without command text;
	// Command, Args and Action are then ignored. The board shows the
	// actor no room, so the reply is posted in the game's room as well,
	// as a typed act's is: stored with the change (a claim) and sent
	// once, by another process or after a restart if this one dies
	// first.
	Act  flow.Action  `json:"-"`
	Game gobot.GameID `json:"-"`
	// AskFirst says the pressed button was one that asks first
	// (Action.AskFirst) and this press is the first: the bot answers
	// with its question, privately, and a button that acts (Resign game
	// #1 against bob? [Yes, resign]), changing nothing. Set it only
	// where the adapter shows that answer to the presser alone
	// (PrivateReplies).
	AskFirst bool
	// Time is when the platform received the event (a Matrix event's
	// origin_server_ts); zero = now. A correspondence game's move counts
	// from it.
	Time time.Time
	// Arrived is when the adapter received the event, by the bot's clock
	// (Bot.Now); zero = when the bot handles it. A live game's move
	// counts from it, never from a platform's timestamp in the past
	// (issue 38: time is charged from the server's receipt).
	Arrived time.Time
	// Outbox asks the bot to store the reply with the command's effect,
	// in one transaction, and to return it again when the same event
	// comes back before the adapter called Bot.Delivered (platforms
	// that hand events over again after a crash: Matrix).
	Outbox bool
	// Community is where ratings are kept (a Discord guild, a Matrix
	// room); empty means the Room.
	Community gobot.CommunityID
	// Platform is the adapter's description of its platform (nil: a
	// plain one; see Platform).
	Platform *Platform
	// CanLaunch says the adapter can answer this request by opening a
	// game's web board inside the chat client, in the request's room
	// (Discord's Activity, for an Open board button): `web` then sets
	// Reply.Launch where that board shows the game. Only adapters with
	// PrivateReplies set it.
	CanLaunch bool
	// File is the file the user attached to the command (an SGF to
	// review: a Discord attachment option, a Matrix m.file whose caption
	// is the command, a terminal line ending in "< PATH"), at most
	// MaxRequestFile bytes; nil when none. The router refuses one sent
	// with a command that takes none.
	File *File `json:",omitempty"`
}

// PrivateReplies says the request's platform shows a Private reply to
// the caller alone wherever the request came from (Discord's ephemeral
// responses, the terminal: Platform.PrivateReplies); a DM is private
// anyway. Commands whose replies must stay private (plan) are refused
// elsewhere.
func (r *Request) PrivateReplies() bool { return r.Platform != nil && r.Platform.PrivateReplies }

// MaxRequestFile bounds a file attached to a request: adapters refuse a
// bigger one before reading it whole.
const MaxRequestFile = 256 << 10

// FileTooBig is the refusal of an attached file (what: "The attached
// file", a path) of size bytes, over MaxRequestFile: the same words on
// every platform, whatever the command.
func FileTooBig(what string, size int64) string {
	return fmt.Sprintf("%s is %d KB; a file attached to a command is at most %d KB.", what, (size+1023)>>10, MaxRequestFile>>10)
}

// Style is how a button looks.
type Style uint8

const (
	Secondary Style = iota
	Primary
	Success
	Danger
)

// Action is a button under a reply. Pressing it sends a Request with
// Action set to ID.
type Action struct {
	ID    string
	Label string
	Style Style
	// AskFirst marks a button whose press, a single tap that could end
	// a game of weeks, asks the presser first: an adapter that shows
	// replies to their caller alone sends the press with
	// Request.AskFirst and shows the bot's question, whose own button
	// acts (Discord). An adapter that cannot ask privately offers the
	// command to type instead of a button (Matrix), or asks in its own
	// page (the web board).
	AskFirst bool
}

// File is an attached image or document.
type File struct {
	Name   string // "game-7.png"
	MIME   string // "image/png", "image/gif", "application/x-go-sgf"
	Data   []byte
	Width  int // pixels, for images
	Height int
}

// Field is a labelled value (Discord shows them in an embed; other
// adapters as lines of text).
type Field struct {
	Name   string
	Value  string
	Inline bool
}

// Reply is what a handler returns; adapters present it.
type Reply struct {
	// Title is a short heading ("Game #7 · move 42"), may be empty.
	Title string
	// Text is the message. Mentions are written as <@UserID>
	// ("<@discord:1234>"); adapters replace them with FormatText.
	// Inline code is written between backticks.
	Text   string
	Fields []Field
	// Mentions are the users this reply should notify (ping); adapters
	// limit pings to these.
	Mentions []gobot.UserID
	Image    *File // board PNG or replay GIF
	// Board is the position as text with coordinates, for adapters that
	// show text (the console) or as a fallback.
	Board   string
	File    *File // SGF
	Actions []Action
	// Private replies are shown only to the caller where the platform can
	// (ephemeral); errors are private.
	Private bool
	Error   bool
	// Withdraw says the request's own message showed what should have
	// stayed private (a plan typed in a shared room): the adapter removes
	// it where it can (Matrix redacts it when the bot has the power).
	Withdraw bool
	// Duplicate says the request's event was handled before and its
	// answer delivered: adapters drop it silently (the platform handed
	// the same event over twice), or that it came in under a lease this
	// process no longer holds, so the lease's new holder answers it.
	Duplicate bool
	// Again says this is the stored reply of an event handed over again
	// (Request.Outbox): an earlier process may have sent it, in part,
	// before it died.
	Again bool `json:"-"`
	// Game is the game this reply is about (0 if none); Room is where the
	// adapter should post it if not in reply to the request (a game's
	// thread).
	Game gobot.GameID
	Room gobot.RoomID
	// Thread asks the adapter to open a thread named ThreadName for Game
	// off this message and to report it with Bot.ThreadCreated.
	Thread     bool
	ThreadName string

	// Draw is the Image still to be drawn: the bot draws it after the
	// transaction that built the reply, before anyone sees the reply.
	Draw *Drawing `json:"-"`

	// Widget asks the adapter to show a game's web board in a room as a
	// widget (Matrix); adapters without widgets ignore it.
	Widget *Widget `json:",omitempty"`

	// Launch asks the adapter to open Game's web board inside the chat
	// client, in the request's room, instead of showing this reply
	// (Discord's Activity: LAUNCH_ACTIVITY). The `web` command sets it
	// only when the request said it can (Request.CanLaunch) and the board
	// opened in that room shows this game; the reply is still the
	// caller's private link, for an adapter that cannot launch after all.
	// `reviews` sets it (without Game) when the room has an open review,
	// which the board opened there shows or lists.
	Launch bool `json:",omitempty"`
}

// Drawing is an image a reply shows, drawn after the transaction that
// built the reply has ended: a board (a PNG) or a replay (a GIF). A
// reply and the DM copied from it share one drawing, drawn once: Done
// says it was, File (or Err) is what came of it.
type Drawing struct {
	Game   *game.Game
	ID     gobot.GameID
	Theme  string
	Replay bool
	// Votes, for a board, are the counts of a room-vote game's open
	// window to mark on their points (nil: none).
	Votes map[game.Point]int
	// Standings, when set, asks for a tournament's standings table after
	// round After (from 0), titled Title, instead of a board.
	Standings *tournament.Tournament
	After     int
	Title     string
	// Ladder, when set, asks for a ladder's table instead: its first
	// Rows rungs, each player named by Names, titled Title.
	Ladder *tournament.Ladder
	Names  map[tournament.PlayerID]string
	Rows   int

	Done bool
	File *File
	Err  error
}

// Message is a reply the bot sends on its own (turn notices, reminders,
// timeouts, DMs): to a room, or to a user directly when To is set.
type Message struct {
	Room  gobot.RoomID
	To    gobot.UserID
	Reply Reply
	// Key names this message the same way on every attempt to send it,
	// in this process or another after a crash: the step that made it
	// (the event answered, the clock's deadline, the engine's move) and
	// its place among that step's messages. Adapters derive the
	// platform's duplicate check from it (a Matrix transaction ID, a
	// Discord nonce), so a re-send is dropped by the platform; empty
	// means no such check.
	Key string
}

// FormatText replaces every mention token <@UserID> in text with what
// mention returns for that user.
func FormatText(text string, mention func(gobot.UserID) string) string {
	var sb strings.Builder
	for {
		i := strings.Index(text, "<@")
		if i < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		j := strings.IndexByte(text[i:], '>')
		if j < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		sb.WriteString(text[:i])
		sb.WriteString(mention(gobot.UserID(text[i+2 : i+j])))
		text = text[i+j+1:]
	}
}

// Mention writes the mention token for u, for use in Reply.Text. The
// room's seat in a vote game (gobot.VoteSeat) is nobody to mention: it
// is written as the words "the room" on every platform.
func Mention(u gobot.UserID) string {
	if u.IsRoom() {
		return "the room"
	}
	return "<@" + string(u) + ">"
}
