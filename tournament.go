package gobot

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Tournaments and ladders as the bot keeps them: the events' settings,
// players and rounds (a ladder's rungs and challenges), and the bot's
// games that belong to them. How rounds are paired and scored is package
// tournament's; how a ladder moves is its ladder rules'. These records
// only hold what they decide, so that it survives restarts and is shared
// by every process.

// TournamentID numbers tournaments from 1, apart from games, reviews and
// ladders (each kind has its own counter).
type TournamentID uint64

// Ref is how people write a tournament's number: "t3".
func (id TournamentID) Ref() string { return "t" + strconv.FormatUint(uint64(id), 10) }

// LadderID numbers ladders from 1, apart from tournaments.
type LadderID uint64

// Bounds of a stored tournament or ladder: a store refuses a bigger one
// with an error wrapping ErrTooLarge, and stores nothing.
const (
	// MaxEventName is the most bytes in a tournament's or ladder's name.
	MaxEventName = 100
	// MaxLadderRungs is the most players on a ladder.
	MaxLadderRungs = tournament.MaxPlayers
	// MaxLadderLog is the most results a ladder keeps (AddResult drops
	// the oldest beyond it).
	MaxLadderLog = 1000
)

// Errors of stored tournaments and ladders.
var (
	// ErrTooLarge: a record beyond its bounds (MaxEventName,
	// tournament.MaxPlayers, MaxLadderRungs, MaxLadderLog).
	ErrTooLarge = errors.New("too large to store")
	// ErrBadEvent: a tournament or ladder whose data do not hold
	// together (no name, a game in two places, an unknown state).
	ErrBadEvent = errors.New("the event's record does not hold together")
	// ErrGameTaken: a game already belongs to another tournament (or
	// another ladder): a game's end must find exactly one.
	ErrGameTaken = errors.New("the game belongs to another event")
)

// TournamentState is where a tournament stands.
type TournamentState uint8

const (
	Registering TournamentState = iota // players join; no round paired yet
	Running                            // rounds are paired and played
	Ended                              // over: standings are final
)

func (s TournamentState) String() string {
	switch s {
	case Registering:
		return "registering"
	case Running:
		return "running"
	case Ended:
		return "ended"
	}
	return fmt.Sprintf("TournamentState(%d)", int(s))
}

// HandicapKind is how a tournament's games get their handicap.
type HandicapKind uint8

const (
	// NoHandicap: every game is even.
	NoHandicap HandicapKind = iota
	// McMahonHandicap: from the difference of the players' McMahon
	// scores, as OpenGotha's handicap parameters give it (package
	// tournament's pairing), at most HandicapPolicy.Cap stones when Cap
	// is set.
	McMahonHandicap
)

// HandicapPolicy is a tournament's handicap: none, McMahon-score based,
// or McMahon-score based capped at Cap stones.
type HandicapPolicy struct {
	Kind HandicapKind
	// Cap is the most stones a game gets (McMahonHandicap only); 0: no
	// cap below game.MaxHandicap.
	Cap int
}

// Tournament is a tournament as the bot keeps it: its settings, players
// and rounds, and the bot's game of each pairing. Its pairing data
// convert to a tournament.Tournament (Pairing) for package tournament to
// pair and score.
type Tournament struct {
	ID      TournamentID
	Version uint64 // bumped by every PutTournament; a stale write is ErrConflict
	Room    RoomID // where it was made and is announced
	// Community is where its games are rated (Rated).
	Community CommunityID
	Name      string // at most MaxEventName bytes
	Organiser UserID // who made it (room admins organise it too)
	State     TournamentState

	// Settings.
	System tournament.System
	Rounds int // rounds planned (round robin and elimination: as many as they need)
	Size   int // board size
	// Rules are its games' rules; Rules.Komi is an even game's komi.
	Rules    game.Rules
	Clock    TimeControl
	Handicap HandicapPolicy
	Rated    bool
	// RegistrationCloses is when joining ends (zero: at the start).
	RegistrationCloses time.Time
	// MaxPlayers is the most players the organiser takes (0: up to
	// tournament.MaxPlayers, the most any tournament holds).
	MaxPlayers int
	// Bar and Floor bound McMahon's starting scores (tournament.Tournament).
	Bar, Floor game.Rank

	Players []TournamentPlayer // in registration order
	// SitsOut lists, by round (from 0), the players to leave out of a
	// round not paired yet: an imported file's players marked as not
	// taking part in it (tournament.Meta.Absent).
	SitsOut map[int][]tournament.PlayerID
	// Starts are the rounds' start times the organiser set, by round
	// (from 0; round 1's is RegistrationCloses): a round with one is
	// paired then, once the round before it is over, not as soon as it
	// is (flow.ScheduleRound). Zero: when the round before it is over.
	Starts []time.Time
	// ByeNext is the player the organiser gave the next round's bye
	// (flow.GiveBye); empty when none.
	ByeNext tournament.PlayerID
	Played  []TournamentRound // the rounds paired so far, first first

	// Due is when the runner has timed work for it next (registration
	// closing, a round's start time); zero when none. Whoever changes the
	// tournament sets it; DueTournaments lists by it.
	Due     time.Time
	Created time.Time
}

// TournamentPlayer is a registered player: package tournament's player
// (its ID is the bot user's ID for a player who joined in chat) and the
// bot user it is, if any.
type TournamentPlayer struct {
	tournament.Player
	// User is the chat user; empty for a player who is not one (a
	// tournament imported from OpenGotha).
	User UserID
	// Withdrawn: the player left; later rounds pair them no more.
	Withdrawn bool
}

// TournamentRound is a paired round and the bot's games of its pairings.
type TournamentRound struct {
	tournament.Round
	// Matches are the bot's games of Round.Games, by index: Matches[i]
	// is the game of Games[i], 0 until created. Empty when none is.
	Matches []GameID
	// Start is when the round's games are to begin (zero: as soon as
	// it is paired).
	Start time.Time
}

// StartOf is when round n (from 1) is to start, as the organiser set it;
// zero when not set.
func (t *Tournament) StartOf(n int) time.Time {
	if n == 1 {
		return t.RegistrationCloses
	}
	if n >= 2 && n-1 < len(t.Starts) {
		return t.Starts[n-1]
	}
	return time.Time{}
}

// Match returns the bot's game of pairing i, 0 when there is none.
func (r *TournamentRound) Match(i int) GameID {
	if i < len(r.Matches) {
		return r.Matches[i]
	}
	return 0
}

// Active reports whether the tournament is not over.
func (t *Tournament) Active() bool { return t.State != Ended }

// Pairing returns the tournament as package tournament pairs and scores
// it: its system, rounds, bar and floor, players (withdrawn ones too:
// their past games count) and rounds. The slices are new; the players'
// and rounds' own slices are shared.
func (t *Tournament) Pairing() *tournament.Tournament {
	p := &tournament.Tournament{System: t.System, Rounds: t.Rounds, Bar: t.Bar, Floor: t.Floor}
	for _, pl := range t.Players {
		p.Players = append(p.Players, pl.Player)
	}
	for _, r := range t.Played {
		p.Played = append(p.Played, r.Round)
	}
	return p
}

// Games lists the bot's games of the tournament, round by round.
func (t *Tournament) Games() []GameID {
	var out []GameID
	for _, r := range t.Played {
		for _, g := range r.Matches {
			if g != 0 {
				out = append(out, g)
			}
		}
	}
	return out
}

// checkName checks an event's name.
func checkName(what, name string) error {
	if name == "" {
		return fmt.Errorf("%w: a %s needs a name", ErrBadEvent, what)
	}
	if len(name) > MaxEventName {
		return fmt.Errorf("%w: a %s's name is at most %d bytes (this one has %d)", ErrTooLarge, what, MaxEventName, len(name))
	}
	return nil
}

// Check reports the first way the tournament cannot be stored: a name
// empty or over MaxEventName bytes, over tournament.MaxPlayers players,
// an unknown state, a round with more games than pairings, a game in two
// pairings. Stores call it before they write.
func (t *Tournament) Check() error {
	if err := checkName("tournament", t.Name); err != nil {
		return err
	}
	if len(t.Players) > tournament.MaxPlayers {
		return fmt.Errorf("%w: a tournament holds at most %d players (this one has %d)", ErrTooLarge, tournament.MaxPlayers, len(t.Players))
	}
	switch t.System {
	case tournament.McMahon, tournament.Swiss, tournament.RoundRobin, tournament.DoubleRoundRobin, tournament.Elimination:
	default:
		return fmt.Errorf("%w: unknown pairing system %d", ErrBadEvent, int(t.System))
	}
	if t.State > Ended {
		return fmt.Errorf("%w: unknown state %d", ErrBadEvent, t.State)
	}
	if t.Handicap.Kind > McMahonHandicap || t.Handicap.Cap < 0 {
		return fmt.Errorf("%w: unknown handicap policy %+v", ErrBadEvent, t.Handicap)
	}
	seen := map[GameID]bool{}
	for i, r := range t.Played {
		if len(r.Matches) > len(r.Games) {
			return fmt.Errorf("%w: round %d has %d games for %d pairings", ErrBadEvent, i+1, len(r.Matches), len(r.Games))
		}
		for _, g := range r.Matches {
			if g == 0 {
				continue
			}
			if seen[g] {
				return fmt.Errorf("%w: game #%d is in two pairings", ErrBadEvent, g)
			}
			seen[g] = true
		}
	}
	return nil
}

// Ladder is a standing ladder as the bot keeps it: its settings, its
// rungs from the top, the challenges open between them and the results
// so far. Who may challenge whom and how a result moves the rungs are
// the ladder rules' (package tournament); this only holds what they
// decide.
type Ladder struct {
	ID        LadderID
	Version   uint64 // bumped by every PutLadder; a stale write is ErrConflict
	Room      RoomID
	Community CommunityID // where its games are rated (Rated)
	Name      string      // at most MaxEventName bytes
	Organiser UserID
	// Closed: the ladder takes no more challenges (RoomLadders'
	// activeOnly leaves it out).
	Closed bool

	// Settings.
	Size  int
	Rules game.Rules
	Clock TimeControl
	// ChallengeRange is how many places above themselves a player may
	// challenge.
	ChallengeRange int
	// ForfeitAfter is how long a challenge may go unanswered (its game
	// unstarted) before the defender forfeits.
	ForfeitAfter time.Duration
	Rated        bool

	// Rungs are the players, top first; at most MaxLadderRungs.
	Rungs      []UserID
	Challenges []LadderChallenge // open, oldest first
	// Log holds the results, oldest first, at most MaxLadderLog.
	Log []LadderResult

	// Due is when the runner has timed work for it next (a challenge's
	// deadline); zero when none. Whoever changes the ladder sets it.
	Due     time.Time
	Created time.Time
}

// LadderChallenge is an open challenge on a ladder.
type LadderChallenge struct {
	Challenger, Defender UserID
	Game                 GameID // the bot's game, 0 until made
	Made                 time.Time
	Deadline             time.Time // forfeited if unanswered by then
}

// LadderResult is a challenge decided.
type LadderResult struct {
	Challenger, Defender UserID
	Game                 GameID // 0 for a forfeit without a game
	Winner               UserID // empty for no result (a void game)
	Forfeit              bool
	At                   time.Time
}

// AddResult appends r to the log, dropping the oldest results beyond
// MaxLadderLog.
func (l *Ladder) AddResult(r LadderResult) {
	l.Log = append(l.Log, r)
	if n := len(l.Log) - MaxLadderLog; n > 0 {
		l.Log = append(l.Log[:0:0], l.Log[n:]...)
	}
}

// Active reports whether the ladder is open.
func (l *Ladder) Active() bool { return !l.Closed }

// Games lists the bot's games of the ladder: its open challenges' and its
// logged results'.
func (l *Ladder) Games() []GameID {
	var out []GameID
	for _, c := range l.Challenges {
		if c.Game != 0 {
			out = append(out, c.Game)
		}
	}
	for _, r := range l.Log {
		if r.Game != 0 {
			out = append(out, r.Game)
		}
	}
	return out
}

// Check reports the first way the ladder cannot be stored: a name empty
// or over MaxEventName bytes, over MaxLadderRungs rungs, more open
// challenges than rungs, over MaxLadderLog results, a player on two
// rungs, a game in two places.
func (l *Ladder) Check() error {
	if err := checkName("ladder", l.Name); err != nil {
		return err
	}
	if len(l.Rungs) > MaxLadderRungs {
		return fmt.Errorf("%w: a ladder holds at most %d players (this one has %d)", ErrTooLarge, MaxLadderRungs, len(l.Rungs))
	}
	if len(l.Challenges) > max(len(l.Rungs), 1) {
		return fmt.Errorf("%w: %d open challenges on a ladder of %d", ErrTooLarge, len(l.Challenges), len(l.Rungs))
	}
	if len(l.Log) > MaxLadderLog {
		return fmt.Errorf("%w: a ladder keeps at most %d results (this one has %d)", ErrTooLarge, MaxLadderLog, len(l.Log))
	}
	on := make(map[UserID]bool, len(l.Rungs))
	for _, u := range l.Rungs {
		if u == "" || on[u] {
			return fmt.Errorf("%w: %q on two rungs or none", ErrBadEvent, u)
		}
		on[u] = true
	}
	seen := map[GameID]bool{}
	for _, g := range l.Games() {
		if seen[g] {
			return fmt.Errorf("%w: game #%d is in the ladder twice", ErrBadEvent, g)
		}
		seen[g] = true
	}
	return nil
}
