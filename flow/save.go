package flow

import "github.com/gobotgo/gobot"

// save is the one save path of a game: every change to a stored game —
// an act (Act, through Commit), a timed job's, an engine's turn, a
// vacation's, a team's turn passed on — is written here, and nowhere
// else calls the store's PutMatch.
// It keeps what the game's Deadline means (Match.Due) with it: an
// engine's work as Engines.Due marked it, else what the game's state
// makes of the deadline.
func save(tx gobot.Tx, m *gobot.Match) error {
	m.Due = dueOf(m, m.Due == gobot.DueEngine)
	return tx.PutMatch(m)
}

// dueOf is what m's Deadline means, engine: an engine has work in it.
func dueOf(m *gobot.Match, engine bool) gobot.DueKind {
	switch {
	case !m.Active() || m.Deadline.IsZero():
		return gobot.DueUnknown
	case engine:
		return gobot.DueEngine
	case m.LivePaused():
		return gobot.DuePause
	case m.Vote.WindowOpen():
		return gobot.DueVote
	}
	return gobot.DueClock
}

// DueOf is what m's Deadline means, for a game stored before the kind
// was kept (Match.Due unknown): it replays the game once to ask whether
// an engine has work in it.
func DueOf(m *gobot.Match, e Engines) gobot.DueKind {
	if m.Due != gobot.DueUnknown {
		return m.Due
	}
	engine := false
	if l, err := Load(m); err == nil {
		engine = e.Job(m, l.G) != JobNone
	}
	return dueOf(m, engine)
}

// Save stores a change to game m that replays nothing (a thread opened
// for the game, a timed job's bookkeeping): through the one save path.
func Save(tx gobot.Tx, m *gobot.Match) error { return save(tx, m) }
