// Package storecopy moves a whole gobot installation from one store to
// another (bbolt to PostgreSQL and back): every game, challenge, player,
// room, adapter state value and remembered event ID, keeping game and
// challenge numbers so that references like "#7" still work.
package storecopy

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot/chat"
)

// Item is one record of a copy; exactly one of its parts is set.
type Item struct {
	Game      *chat.Game
	Challenge *chat.Challenge
	Player    *chat.Player
	Room      *chat.Room
	State     *State
	Event     *Event
}

// State is an adapter's value.
type State struct {
	NS, Key string
	Value   []byte
}

// Event is a handled chat event ID and when it was handled.
type Event struct {
	ID      chat.EventID
	Handled time.Time
}

// Source is a store that lists everything it holds.
type Source interface {
	// Export calls fn for every record, games and challenges in ID order.
	// Records that cannot be read are skipped and named in the returned
	// *chat.DamagedError.
	Export(ctx context.Context, fn func(Item) error) error
}

// Sink is a store that takes records with their IDs.
type Sink interface {
	// Records counts what the store holds (a copy goes only into an empty
	// store).
	Records(ctx context.Context) (int, error)
	// Import stores items in one transaction, games and challenges under
	// their own IDs (in increasing order), and moves the ID counters past
	// them.
	Import(ctx context.Context, items []Item) error
}

// Counts is what a copy moved.
type Counts struct {
	Games, Challenges, Players, Rooms, State, Events int
	// Damaged names the records the source could not read (not copied).
	Damaged *chat.DamagedError
}

func (c Counts) String() string {
	s := fmt.Sprintf("%d games, %d challenges, %d players, %d rooms, %d adapter values, %d event IDs",
		c.Games, c.Challenges, c.Players, c.Rooms, c.State, c.Events)
	if c.Damaged != nil {
		s += fmt.Sprintf("; not copied, damaged: %d games, %d challenges", len(c.Damaged.Games), len(c.Damaged.Challenges))
	}
	return s
}

// ErrNotEmpty is returned when the destination already holds records: a
// copy never merges into or overwrites an installation.
var ErrNotEmpty = errors.New("the destination is not empty")

// batch is how many records go into one destination transaction.
const batch = 500

// Copy copies everything in src into dst, which must be empty.
func Copy(ctx context.Context, src Source, dst Sink) (Counts, error) {
	var c Counts
	n, err := dst.Records(ctx)
	if err != nil {
		return c, fmt.Errorf("reading the destination: %w", err)
	}
	if n > 0 {
		return c, fmt.Errorf("%w: it holds %d records; copy into a new, empty database (a second run of the same copy has nothing to do)", ErrNotEmpty, n)
	}
	var pending []Item
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		if err := dst.Import(ctx, pending); err != nil {
			return fmt.Errorf("writing to the destination: %w", err)
		}
		pending = pending[:0]
		return nil
	}
	err = src.Export(ctx, func(it Item) error {
		switch {
		case it.Game != nil:
			c.Games++
		case it.Challenge != nil:
			c.Challenges++
		case it.Player != nil:
			c.Players++
		case it.Room != nil:
			c.Rooms++
		case it.State != nil:
			c.State++
		case it.Event != nil:
			c.Events++
		default:
			return errors.New("storecopy: an empty item")
		}
		pending = append(pending, it)
		if len(pending) == batch {
			return flush()
		}
		return nil
	})
	if d := chat.Damaged(err); d != nil {
		c.Damaged, err = d, nil
	}
	if err != nil {
		return c, err
	}
	return c, flush()
}
