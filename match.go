package gobot

import (
	"errors"
	"time"

	"github.com/gobotgo/gobot/game"
)

// Errors a Store reports, tested with errors.Is. Store implementations
// wrap them with the record they are about.
var (
	ErrNotFound  = errors.New("not found")
	ErrCorrupt   = errors.New("record is corrupted")
	ErrInUse     = errors.New("database is in use by another gobot")
	ErrConflict  = errors.New("record changed since it was read")
	ErrDuplicate = errors.New("event already handled")
	// ErrUnavailable: the store could not be reached (a shared database
	// down or restarting) and nothing was written.
	ErrUnavailable = errors.New("the database is unavailable")
)

// DueKind is what a game's Deadline means (Match.Due).
type DueKind uint8

const (
	// DueUnknown: a game stored before the kind was kept; the runner
	// works it out once from the game (flow.DueOf).
	DueUnknown DueKind = iota
	DueClock           // the player to move loses on time then (reminders before it)
	DuePause           // a live game's pause ends then
	DueVote            // the room's voting window closes then
	DueEngine          // an engine has work in the game (due at once)
)

// Match is a game as gobot keeps it: game.Record holds the moves and
// scoring state (package game's Game replays it); the rest is what the
// bot needs around it: players, room, clock, result. How a store writes it is
// the store's business (storage has its own versioned format), so these
// types carry no encoding tags.
type Match struct {
	ID      GameID
	Version uint64 // bumped by every PutMatch; a stale write fails with ErrConflict
	Room    RoomID // home room (or the game's thread) where updates go
	Thread  bool   // Room is a thread made for this game
	Parent  RoomID // the room the thread hangs off
	// Mirror is the room of another platform that sees the game too: a
	// game between players of two platforms of a joined community is
	// posted in the challenger's room (Room) and in the community's room
	// on the other player's platform, and each sees every move
	// (docs/identity.md). Empty for a game of one platform.
	Mirror RoomID
	Black  UserID
	White  UserID
	Record game.Record
	// MoveTimes holds when each move of Record.Moves was made.
	MoveTimes []time.Time
	Clock     TimeControl
	// Left is each player's main time left (Fischer's bank, absolute's
	// time) at the start of their turn, indexed by game.Color (Black=1,
	// White=2); Over is the rest of their clock (byo-yomi's periods,
	// Canadian's stones). A team shares its colour's clock. ClockOf and
	// SetClock read and write both as a ClockState.
	Left [3]time.Duration
	Over [3]Overtime
	// Deadline is when the game's next timed work falls due; zero =
	// none. Indexed while the game is active. What falls due then is Due.
	Deadline time.Time
	// Due is what Deadline means: the player to move's clock, a live
	// pause's end, a vote window's close or an engine's work (now). The
	// save path keeps it (flow's save); the runner hands the game to the
	// job of that kind.
	Due DueKind
	// Reminded counts reminders already sent (or passed over) for the
	// current turn, as an index into the configured leads, longest first.
	Reminded int
	// TurnTime is the time the player to move had on the clock when the
	// turn began: no reminder comes in its first half, nor one with a
	// longer lead than it. Zero: unknown (a game stored before it was
	// kept), then the time from the last move to Deadline.
	TurnTime time.Duration
	// UndoBy is the player asking to take back the last move, if any.
	UndoBy UserID
	// UndoRefused is the last undo request refused, which a board tells
	// its asker of until the next move (nil: none).
	UndoRefused *UndoRefusal
	// Withdrawn is the last change of the dead stones that withdrew an
	// acceptance of the count, which a board shows until the side
	// accepts again or play moves on (nil: none).
	Withdrawn *Withdrawal
	// Undos records every move taken back.
	Undos     []Undo
	Challenge ChallengeID
	Created   time.Time
	Updated   time.Time
	// Finished is set when the game ends; Result is its SGF result string.
	Finished time.Time
	Result   string
	// Rating says where and whether the game is rated (rating.go).
	Rating *GameRating
	// Engine and EngineLevel: the computer player of an engine game (its
	// seat holds EngineUser(Engine)); empty in games between people.
	// EngineDead is len(Record.Moves) when the engine's dead-stone list
	// was applied to that scoring phase (engine.go).
	Engine      string
	EngineLevel int
	EngineDead  int
	// Vacation (vacation.go): NoVacation makes the game ignore vacations
	// (the challenge said vacation=off). PausedBy lists the players whose
	// vacation stops its clock now; while it is not empty Deadline is
	// zero and PausedLeft is the time the player to move has left, given
	// back when the last of them returns. PausedAt is when it stopped.
	NoVacation bool
	PausedBy   []UserID
	PausedLeft time.Duration
	PausedAt   time.Time
	// Room-vote games (vote.go): the room's side, when VoteSeat holds a seat.
	Vote *Vote
	// Conditional moves (plan.go): the plan of the player not to move;
	// nil when there is none.
	Plan *Plan
	// Teams: the sides of a team game (rengo, team.go); nil otherwise.
	Teams *Teams
	// Pause: a live game's pause asked for or running, and the pause
	// time it used (chat's pause); nil when it never had one.
	Pause *LivePause
}

// PauseAllowance is the time a live game's clocks may stand paused, in
// all its pauses together.
const PauseAllowance = 10 * time.Minute

// LivePause is a live game's pause (OGS's manners): one player asks, the
// other accepts, and both clocks stop until either resumes or the
// game's PauseAllowance is spent. While it runs, Match.Deadline is when
// it ends by itself, so the timed-job runner wakes for it.
type LivePause struct {
	// Asked is the player who asked for a pause the other has not
	// accepted yet; empty otherwise.
	Asked UserID
	// Since is when both clocks stopped; zero when no pause runs.
	Since time.Time
	// Left is the time the player to move had to their deadline when it
	// stopped, given back when play resumes.
	Left time.Duration
	// Used is the pause time spent in the pauses that ended.
	Used time.Duration
}

// LivePaused reports whether a live game's clocks stand paused.
func (g *Match) LivePaused() bool { return g.Pause != nil && !g.Pause.Since.IsZero() }

// PauseLeft is what is left of the game's PauseAllowance at now.
func (g *Match) PauseLeft(now time.Time) time.Duration {
	if g.Pause == nil {
		return PauseAllowance
	}
	used := g.Pause.Used
	if !g.Pause.Since.IsZero() {
		used += now.Sub(g.Pause.Since)
	}
	return max(PauseAllowance-used, 0)
}

// Overtime is the part of a player's clock beyond the main time
// (ClockState's other fields); zero for per-move and Fischer clocks.
type Overtime struct {
	Periods int
	Stones  int
	Period  time.Duration
}

// ClockOf is colour c's clock at the start of their turn.
func (g *Match) ClockOf(c game.Color) ClockState {
	o := g.Over[c]
	return ClockState{Main: g.Left[c], Periods: o.Periods, Stones: o.Stones, Period: o.Period}
}

// SetClock sets colour c's clock.
func (g *Match) SetClock(c game.Color, s ClockState) {
	g.Left[c], g.Over[c] = s.Main, Overtime{Periods: s.Periods, Stones: s.Stones, Period: s.Period}
}

// StartClocks gives both colours their clock's starting time.
func (g *Match) StartClocks() {
	for _, c := range []game.Color{game.Black, game.White} {
		g.SetClock(c, g.Clock.Start())
	}
}

// Active reports whether the game is still being played or scored.
func (g *Match) Active() bool { return g.Finished.IsZero() }

// Undo records a move taken back.
type Undo struct {
	By   UserID // who asked
	Move int    // the move number taken back (1-based)
	Was  game.Move
	At   time.Time
}

// UndoRefusal is an undo request refused: who Asked, who refused it
// (By), and the moves played then (len(Record.Moves)): it stands while
// no move has been played since.
type UndoRefusal struct {
	Asked, By UserID
	Moves     int
	// Undos is how many undos had been agreed then (len(Match.Undos)):
	// a move played and taken back since brings Moves back, not this.
	Undos int
}

// RefusedNow returns the refusal of the last undo request while it
// stands: no move played since, and no request asked again; nil else.
func (g *Match) RefusedNow() *UndoRefusal {
	r := g.UndoRefused
	if r == nil || g.UndoBy != "" || !g.Active() || len(g.Record.Moves) != r.Moves || len(g.Undos) != r.Undos {
		return nil
	}
	return r
}

// Withdrawal is a change of the dead stones in the scoring that
// withdrew the acceptance of the count of Colors, at Moves moves played
// (len(Record.Moves)): it stands for the scoring phase it was made in.
type Withdrawal struct {
	Colors []game.Color
	Moves  int
	Undos  int // len(Match.Undos) then, as in UndoRefusal
}

// WithdrawnNow returns the withdrawal of the scoring phase the game is
// in, at moves moves played: nil when there is none, or when it was made
// in an earlier scoring phase (play resumed or moves taken back since).
func (g *Match) WithdrawnNow(moves int) *Withdrawal {
	w := g.Withdrawn
	if w == nil || w.Moves != moves || w.Undos != len(g.Undos) {
		return nil
	}
	return w
}

// ChallengeStatus is where a challenge stands.
type ChallengeStatus uint8

const (
	Pending ChallengeStatus = iota
	Accepted
	Declined
	Cancelled
)

func (s ChallengeStatus) String() string {
	return [...]string{"pending", "accepted", "declined", "cancelled"}[s]
}

// Challenge is an invitation to a game. To is empty for an open
// challenge anyone in the room may take.
type Challenge struct {
	ID   ChallengeID
	Room RoomID
	// Mirror is the room of the challenged player's platform that sees
	// the challenge and then its game (Match.Mirror); empty when both
	// players are of one platform.
	Mirror   RoomID
	From     UserID
	To       UserID
	Config   game.Config
	Color    string // colour of the challenger: "black", "white", "random"
	Clock    TimeControl
	Created  time.Time
	Status   ChallengeStatus
	Game     GameID // set when accepted
	Message  string // platform ID of the challenge message (for threads)
	Answered time.Time
	// Rating says where and whether the game will be rated.
	Rating *ChallengeRating
	// Vacation: NoVacation (vacation=off) makes the game ignore vacations.
	NoVacation bool
	// Room-vote games (vote.go): the voting window; 0 = not a vote game.
	VoteWindow time.Duration
	// Teams: the sides of a team challenge (rengo, team.go), by colour;
	// nil otherwise.
	Teams *Teams
}

// Player is what gobot remembers of a user.
type Player struct {
	ID     UserID
	Name   string
	Notify string // "mention" (default), "dm", "off"
	// NotifyOn is where a linked player is told of their turn and
	// reminded: "" where the game is played (the default), a platform
	// ("discord", "matrix", "console": their account there), or "both"
	// (every account they link). docs/identity.md.
	NotifyOn string
	Theme    string // board theme: "wood" (default), "dark"
	// Confirm: when the web board asks a tap to be confirmed before it
	// plays: "touch" (default: on a touch screen or a narrow window),
	// "always", "never".
	Confirm string
	Updated time.Time
	// Vacation: the player's vacation account (nil: never used).
	Vacation *Vacation
}

// Room holds a room's settings; zero values mean "use the bot's config".
type Room struct {
	ID      RoomID
	Rules   string // preset or rules spec
	Width   int
	Height  int
	Komi    *float64
	Clock   string // clock spec as typed: "3d", "fischer:3d+1d/7d", "none"
	Threads bool   // each game gets its own thread
	// NoEngines: engine games may not be started here.
	NoEngines bool
	Updated   time.Time
	// Matrix widget: every new game here is added as a room widget.
	Widget bool
	// LiveImages is when a live game's announcements here carry the
	// board image: "every" move, "off" (never), or "" (the default,
	// "last"): the final position and each 20th move.
	LiveImages string
}

// Rooms are the rooms that see the game: its room (or thread), then its
// mirror on another platform, if any.
func (m *Match) Rooms() []RoomID {
	if m.Mirror == "" {
		return []RoomID{m.Room}
	}
	return []RoomID{m.Room, m.Mirror}
}

// In reports whether room sees the game: its room, the room its thread
// hangs off, or its mirror.
func (m *Match) In(room RoomID) bool {
	return room != "" && (m.Room == room || m.Thread && m.Parent == room || m.Mirror == room)
}
