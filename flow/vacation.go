package flow

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Vacation: a player on vacation stops the clocks of their correspondence
// games (not those against an engine, not those challenged with
// vacation=off). The clock of a paused game keeps the time the player to
// move had left (Match.PausedLeft) and gives it back, to the second, when
// the last of its players on vacation returns. Moves may still be played
// in a paused game: the clock turns over as usual, but stopped (per move:
// the next player's full time; Fischer: the mover's bank plus the
// increment, the next player's bank) until the vacation ends.
//
// A vacation ends with `vacation off`, or by itself when its days run out
// (chat's vacation job, claimed like a reminder so it happens once with
// several processes and across restarts), with a reminder a day before.

// VacationConfig is the vacation allowance. The zero VacationConfig is
// the default: every player starts with 14 days, earns one more day per
// week counted from their first game, and may hold at most 30 (as OGS
// does: enough for a long holiday at once, earned back at a rate that
// keeps nobody on vacation for good). One with any field set is used as
// given: PerWeek 0 earns nothing.
type VacationConfig struct {
	Start   time.Duration // allowance before the first game (default 14 days)
	PerWeek time.Duration // earned per week from the first game (default 1 day)
	Max     time.Duration // at most this much is held (default 30 days)
	// Off turns vacations off: `vacation on` is refused.
	Off bool
}

const (
	day  = 24 * time.Hour
	week = 7 * day
	// VacationReminder is how long before a vacation's end its player
	// is reminded.
	VacationReminder = day
)

// DefaultVacation is the allowance of the zero VacationConfig.
var DefaultVacation = VacationConfig{Start: 14 * day, PerWeek: day, Max: 30 * day}

// SetDefaults makes the zero VacationConfig DefaultVacation.
func (c *VacationConfig) SetDefaults() {
	if *c == (VacationConfig{}) {
		*c = DefaultVacation
	}
}

// Account returns p's vacation account as of now, with the weeks since
// their first game credited (a copy; nothing is stored). While a
// vacation runs nothing is credited: its end was fixed when it began, and
// the weeks that pass meanwhile are credited when it ends.
func (c VacationConfig) Account(p *gobot.Player, now time.Time) gobot.Vacation {
	v := gobot.Vacation{Left: min(c.Start, c.Max)}
	if p != nil && p.Vacation != nil {
		v = *p.Vacation
	}
	if v.On() || v.FirstGame.IsZero() {
		return v
	}
	if weeks := int(now.Sub(v.FirstGame) / week); weeks > v.Weeks {
		if v.Left < c.Max {
			v.Left = min(v.Left+time.Duration(weeks-v.Weeks)*c.PerWeek, c.Max)
		}
		v.Weeks = weeks
	}
	return v
}

// LoadPlayer returns u's record, or a new one.
func LoadPlayer(tx gobot.Tx, u gobot.UserID) (*gobot.Player, error) {
	p, err := tx.Player(u)
	if errors.Is(err, gobot.ErrNotFound) {
		return &gobot.Player{ID: u}, nil
	}
	return p, err
}

// VacationPlayer returns the record that holds the vacation of the
// player account u is: one allowance per player, kept on the player's ID
// (gobot.PlayerOf: u itself when it is linked to none).
func VacationPlayer(tx gobot.Tx, u gobot.UserID) (*gobot.Player, error) {
	id, err := gobot.PlayerOf(tx, u)
	if err != nil {
		return nil, err
	}
	return LoadPlayer(tx, id)
}

// OnVacation reports whether the player account u is is on vacation; a
// player whose record cannot be read counts as present (they keep their
// turns).
func OnVacation(tx gobot.Tx, u gobot.UserID) bool {
	p, err := VacationPlayer(tx, u)
	return err == nil && p.Vacation.On()
}

// GameBegins starts the week count of each of the game's human players
// (every member of a team game's teams) whose first game this is (their
// vacation allowance grows from it), and stops the new game's clock at
// once if one of them is on vacation. Call it when a game begins, before
// it is stored. An engine and the room's seat of a vote game are no
// players: nothing is stored for them. A player whose record is corrupt
// is left out, and the error returned in corrupt.
func GameBegins(tx gobot.Tx, cfg VacationConfig, l *Loaded, t time.Time) (corrupt []error, err error) {
	for _, u := range l.Match.Players() {
		if !l.Match.Side(l.Match.ColorOf(u)).Human() {
			continue
		}
		p, err := VacationPlayer(tx, u)
		if errors.Is(err, gobot.ErrCorrupt) {
			corrupt = append(corrupt, err)
			continue
		}
		if err != nil {
			return corrupt, err
		}
		if p.Vacation.On() {
			PauseGame(l, u, t)
		}
		if p.Vacation != nil && !p.Vacation.FirstGame.IsZero() {
			continue
		}
		v := cfg.Account(p, t)
		v.FirstGame, v.Weeks = t, 0
		p.Vacation = &v
		if err := tx.PutPlayer(p); err != nil {
			return corrupt, err
		}
	}
	return corrupt, nil
}

// PauseGame stops game l's clock for u's vacation and reports whether it
// did: not when vacation does not apply (gobot.Match.VacationStops: not
// against an engine, nor in a team game, where a teammate plays, nor with
// vacation=off, a live clock or none), u already paused it, or the player
// to move is already out of time (the clock loop ends that game). In a
// vote game against a person it stops the clock as in any game, the
// room's included, but a voting window that is running goes on: PauseGame
// and UnpauseGame leave it alone.
func PauseGame(l *Loaded, u gobot.UserID, now time.Time) bool {
	m := l.Match
	if !m.VacationStops() || slices.Contains(m.PausedBy, u) {
		return false
	}
	if !m.Paused() {
		if l.G.Phase() == game.Playing && !m.Deadline.IsZero() && !VoteWindowRuns(l) {
			if !now.Before(m.Deadline) {
				return false
			}
			m.PausedLeft, m.Deadline = m.Deadline.Sub(now), time.Time{}
		}
		m.PausedAt = now
	}
	m.PausedBy = append(m.PausedBy, u)
	return true
}

// VoteWindowRuns reports whether the room is to move in vote game l and
// its voting window is open: that is no clock a vacation stops.
func VoteWindowRuns(l *Loaded) bool {
	return l.Match.Find(gobot.SideRoom).Moves(l.G) && l.Match.Vote.WindowOpen()
}

// UnpauseGame takes u's vacation off game l and reports whether its clock
// runs again (nobody else's vacation holds it): the player to move gets
// back the time they had left.
func UnpauseGame(l *Loaded, u gobot.UserID, now time.Time) bool {
	m := l.Match
	i := slices.Index(m.PausedBy, u)
	if i < 0 {
		return false
	}
	m.PausedBy = slices.Delete(m.PausedBy, i, i+1)
	if len(m.PausedBy) > 0 {
		return false
	}
	m.PausedBy = nil
	// A running vote window goes on; a vote game stored before the
	// room's turns had a clock (issue 35) kept none for it.
	if room := m.Find(gobot.SideRoom).Moves(l.G); l.G.Phase() == game.Playing && m.Clock.Kind != gobot.NoClock && !(room && (m.Vote.WindowOpen() || m.PausedLeft == 0)) {
		// The same turn goes on: a reminder already sent for it is not
		// sent again (the vacation's end says the time left).
		m.Deadline = now.Add(m.PausedLeft)
	}
	m.PausedLeft, m.PausedAt = 0, time.Time{}
	return true
}

// VacationProblem is why a vacation is refused to start or end
// (VacationRefusal).
type VacationProblem int

const (
	VacationsOff VacationProblem = iota + 1 // the bot's VacationConfig.Off
	AlreadyAway                             // on vacation already, until Vacation.End
	NoDaysLeft                              // nothing left to spend
	NotAway                                 // ending a vacation not on
)

// VacationRefusal refuses `vacation on` or `off`.
type VacationRefusal struct {
	Problem  VacationProblem
	Vacation gobot.Vacation // AlreadyAway: the vacation on
}

func (e VacationRefusal) Error() string {
	return fmt.Sprintf("flow: vacation refused (problem %d)", e.Problem)
}

// VacationOn starts u's vacation at now, asked in room (where its end is
// said), for all the days left on the account, and returns it.
func VacationOn(tx gobot.Tx, cfg VacationConfig, u gobot.UserID, room gobot.RoomID, now time.Time) (gobot.Vacation, error) {
	p, err := LoadPlayer(tx, u)
	if err != nil {
		return gobot.Vacation{}, err
	}
	if cfg.Off {
		return gobot.Vacation{}, VacationRefusal{Problem: VacationsOff}
	}
	if p.Vacation.On() {
		return gobot.Vacation{}, VacationRefusal{Problem: AlreadyAway, Vacation: *p.Vacation}
	}
	v := cfg.Account(p, now)
	if v.Left < time.Second {
		return gobot.Vacation{}, VacationRefusal{Problem: NoDaysLeft}
	}
	v.Start, v.End, v.Reminded, v.Room = now, now.Add(v.Left), v.Left <= VacationReminder, room
	p.Vacation = &v
	return v, tx.PutPlayer(p)
}

// VacationClock is what a vacation's start or end did to the clock of
// one of its player's games (VacationGame).
type VacationClock int

const (
	ClockAlone      VacationClock = iota // nothing to say: no clock, an engine's game, or not the player's to restart
	ClockStopped                         // the vacation's start stopped it
	ClockRestarted                       // its end set it running again
	ClockHeld                            // its end, but another player's vacation still holds it
	ClockTeam                            // a team game: the player's turns pass to a teammate
	ClockTeamAway                        // a team game whose players are all away: its clock runs on
	ClockNotStopped                      // a game challenged with vacation=off
	ClockLive                            // a live game
	ClockOutOfTime                       // the player to move is out of time already
)

// VacationGame is what a vacation's start or end did in one game of its
// player's: to its clock, and in a team game to its turn (Turns: said
// when not zero, PassTurnNow).
type VacationGame struct {
	Clock VacationClock
	Turns TurnsPassed
}

// StopClocks stops the clocks of games, u's active games, for u's
// vacation begun at now, and stores each game it stopped; in a team game
// none stops, and a turn of u's passes on at once. It returns what it
// did in each game, in the order of games.
func StopClocks(tx gobot.Tx, games []*Loaded, u gobot.UserID, now time.Time) ([]VacationGame, error) {
	out := make([]VacationGame, len(games))
	for i, l := range games {
		m := l.Match
		if s := m.Side(m.ColorOf(u)); s.Rotates() { // team.go: no team game stops
			out[i].Clock = ClockTeam
			if len(TeamPresence(tx, m, m.ColorOf(u)).Present) == 0 {
				out[i].Clock = ClockTeamAway
			}
			t, err := PassTurnNow(tx, l, u, now)
			if err != nil {
				return nil, err
			}
			out[i].Turns = t
			continue
		}
		if !PauseGame(l, u, now) {
			switch {
			case m.Clock.Kind == gobot.NoClock || m.Has(gobot.SideEngine):
			case m.NoVacation:
				out[i].Clock = ClockNotStopped
			case m.Clock.Live():
				out[i].Clock = ClockLive
			case m.VacationStops():
				out[i].Clock = ClockOutOfTime
			}
			continue
		}
		m.Updated = now
		if err := save(tx, m); err != nil {
			return nil, err
		}
		out[i].Clock = ClockStopped
	}
	return out, nil
}

// VacationOff ends p's vacation at now (or at its end, if that passed),
// and returns when it ended: the time spent comes off the account, and
// the weeks passed are credited.
func VacationOff(tx gobot.Tx, cfg VacationConfig, p *gobot.Player, now time.Time) (end time.Time, err error) {
	if !p.Vacation.On() {
		return time.Time{}, VacationRefusal{Problem: NotAway}
	}
	v := *p.Vacation
	// It ends no earlier than it began (a late-delivered event may carry
	// a time before the vacation's start) and no later than its end.
	end = now
	if v.End.Before(end) {
		end = v.End
	}
	if end.Before(v.Start) {
		end = v.Start
	}
	v.Left = max(v.Left-end.Sub(v.Start).Truncate(time.Second), 0)
	v.Start, v.End, v.Reminded, v.Room = time.Time{}, time.Time{}, false, ""
	p.Vacation = &v
	v = cfg.Account(p, now)
	p.Vacation = &v
	return end, tx.PutPlayer(p)
}

// RestartClocks takes u's vacation, ended at end (noticed at now), off
// games, u's active games: the clocks it stopped run again from end
// unless another player's vacation holds them too, and each is stored;
// in a team game a team all away kept its turn, and u can take it now.
// It returns what it did in each game, in the order of games.
func RestartClocks(tx gobot.Tx, games []*Loaded, u gobot.UserID, end, now time.Time) ([]VacationGame, error) {
	out := make([]VacationGame, len(games))
	for i, l := range games {
		m := l.Match
		if m.Side(m.ColorOf(u)).Rotates() {
			t, err := PassTurnNow(tx, l, u, now)
			if err != nil {
				return nil, err
			}
			out[i].Turns = t
			continue
		}
		if !slices.Contains(m.PausedBy, u) {
			continue
		}
		// The clock runs again from when the vacation ended, not from when
		// the clock loop (or a late `vacation off`) noticed it.
		out[i].Clock = ClockHeld
		if UnpauseGame(l, u, end) {
			out[i].Clock = ClockRestarted
		}
		m.Updated = now
		if err := save(tx, m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// VacationGames are u's active games a vacation starts or ends in,
// loaded. Damaged records (damaged) and games that do not replay
// (unplayable, by game) are left out, so one unreadable game neither
// blocks a vacation nor keeps the others stopped.
func VacationGames(tx gobot.Tx, u gobot.UserID) (games []*Loaded, damaged error, unplayable map[gobot.GameID]error, err error) {
	matches, err := tx.ActiveGames(u)
	if d := gobot.Damaged(err); d != nil {
		damaged, err = d, nil
	}
	if err != nil {
		return nil, nil, nil, err
	}
	for _, m := range matches {
		l, err := Load(m)
		if err != nil {
			if unplayable == nil {
				unplayable = map[gobot.GameID]error{}
			}
			unplayable[m.ID] = err
			continue
		}
		games = append(games, l)
	}
	return games, damaged, unplayable, nil
}

// StoppedGames are the active games of accounts (a player's) whose
// clock the player's vacation stops.
func StoppedGames(tx gobot.Tx, accounts []gobot.UserID) ([]gobot.GameID, error) {
	var ids []gobot.GameID
	for _, u := range accounts {
		games, err := tx.ActiveGames(u)
		if err != nil && len(games) == 0 {
			return nil, err
		}
		for _, m := range games {
			if slices.Contains(m.PausedBy, u) {
				ids = append(ids, m.ID)
			}
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}

// VacationStep is what the vacation job does for a player (VacationDue).
type VacationStep int

const (
	VacationWaits  VacationStep = iota // nothing yet
	VacationRemind                     // remind them: it ends within VacationReminder
	VacationEnds                       // end it: its days ran out
)

// VacationDue is the vacation job's decision for a player on vacation v
// at now: end it once its days ran out; remind them once, within
// VacationReminder of its end.
func VacationDue(v *gobot.Vacation, now time.Time) VacationStep {
	switch {
	case !v.On():
		return VacationWaits
	case !now.Before(v.End):
		return VacationEnds
	case !v.Reminded && v.End.Sub(now) <= VacationReminder:
		return VacationRemind
	}
	return VacationWaits
}

// Code names the refusal (Refusal).
func (VacationRefusal) Code() string { return "vacation-refusal" }
