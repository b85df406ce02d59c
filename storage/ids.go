package storage

import (
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/record"
)

// A game takes its challenge's number, and a new challenge's number is
// above every game's, so "#7" names one thing: challenge #7 and the game
// it became. Numbers given before (two separate counters) stay as they
// are.

// SkipGameNumbers moves the challenge counter up to the game counter,
// so that the next challenge's number is no game's number. Call it in
// the transaction that puts a new challenge, before PutChallenge.
func (tx *Tx) SkipGameNumbers() error {
	games, chals := tx.b(bGames), tx.b(bChallenges)
	if g := games.Sequence(); g > chals.Sequence() {
		return chals.SetSequence(g)
	}
	return nil
}

// InsertMatch stores a new game under g.ID when that number is free (a
// game keeps its challenge's number), else under a new number above both
// counters (which the challenge counter then skips). g.ID 0 takes the
// next game number.
func (tx *Tx) InsertMatch(g *gobot.Match) error {
	games, chals := tx.b(bGames), tx.b(bChallenges)
	if g.ID == 0 {
		return tx.PutMatch(g)
	}
	if games.Get(idKey(uint64(g.ID))) != nil {
		// Taken (a database from before numbers were shared): the next
		// number above both counters.
		n := max(games.Sequence(), chals.Sequence()) + 1
		if err := chals.SetSequence(n); err != nil {
			return err
		}
		if err := games.SetSequence(n - 1); err != nil {
			return err
		}
		g.ID = 0
		return tx.PutMatch(g)
	}
	if uint64(g.ID) > games.Sequence() {
		if err := games.SetSequence(uint64(g.ID)); err != nil {
			return err
		}
	}
	// PutMatch inserts only with ID 0; put the record as PutMatch would.
	g.Version = 1
	raw, err := record.EncodeMatch(g)
	if err != nil {
		return err
	}
	if err := games.Put(idKey(uint64(g.ID)), raw); err != nil {
		return err
	}
	return tx.indexGame(g)
}
