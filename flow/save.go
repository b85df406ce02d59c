package flow

import "github.com/gobotgo/gobot"

// save is the one save path of a game: every change to a stored game —
// an act (Act, through Commit), a timed job's, an engine's turn, a
// vacation's, a team's turn passed on — is written here, and nowhere
// else calls the store's PutMatch.
func save(tx gobot.Tx, m *gobot.Match) error { return tx.PutMatch(m) }

// Save stores a change to game m that replays nothing (a thread opened
// for the game, a timed job's bookkeeping): through the one save path.
func Save(tx gobot.Tx, m *gobot.Match) error { return save(tx, m) }
