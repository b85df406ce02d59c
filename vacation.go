package gobot

import "time"

// Vacation is a player's vacation account: the days they may spend with
// their correspondence games' clocks stopped, and the vacation running
// now, if any. A Player without one (nil) has never started a game or a
// vacation: their account is the starting allowance, untouched.
//
// The allowance (flow.VacationConfig): a starting number of days, one
// more earned per week counted from the player's first game, the days
// left capped. Time on vacation is spent in real time.
type Vacation struct {
	// FirstGame is when the player's first game began (zero: none yet,
	// so no week has been earned).
	FirstGame time.Time
	// Left is the time left to spend, as of the last week credited (or
	// the start of the running vacation).
	Left time.Duration
	// Weeks is how many whole weeks since FirstGame are credited to Left.
	Weeks int
	// Start is when the running vacation began; zero: not on vacation.
	Start time.Time
	// End is when the running vacation ends by itself (Start + Left).
	// Stores index it while Start is set (Tx.DueVacations).
	End time.Time
	// Reminded is set once the reminder before End was sent.
	Reminded bool
	// Room is where the running vacation was started: its end and the
	// reminder go to the player there, as a direct message.
	Room RoomID
}

// On reports whether the player is on vacation.
func (v *Vacation) On() bool { return v != nil && !v.Start.IsZero() }

// VacationDue is the time a player is indexed by for Tx.DueVacations:
// the end of their running vacation; zero when not on vacation.
func (p *Player) VacationDue() time.Time {
	if !p.Vacation.On() {
		return time.Time{}
	}
	return p.Vacation.End
}

// Paused reports whether the game's clock is stopped for a player's
// vacation.
func (g *Match) Paused() bool { return len(g.PausedBy) > 0 }
