// Package storecopy moves a whole gobot installation from one store to
// another (bbolt to PostgreSQL and back): every kind of record the store
// holds (Kinds: games, challenges, players, rooms, ratings, owed replies,
// claimed messages, adapter state values, remembered event IDs, reviews,
// tournaments, ladders, linked accounts, account link codes, joined
// communities), keeping game, challenge, review, tournament and
// ladder numbers so that references like "#7" still work, and checks the copy by
// counting each kind on both sides.
package storecopy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// Kind is one kind of record a store holds.
type Kind int

// The kinds of records, in the order a copy moves them.
const (
	Games Kind = iota
	Challenges
	Players
	Rooms
	Ratings
	Outbox
	Claims
	States
	Events
	Links
	Reviews
	Tournaments
	Ladders
	Accounts
	LinkCodes
	Communities
	numKinds
)

// Kinds lists every kind of record a store holds. The copier counts and
// checks each, and storecopy/copytest fills a store with each before
// copying it, so a kind added here and not copied fails the test.
var Kinds = []Kind{Games, Challenges, Players, Rooms, Ratings, Links, Outbox, Claims, States, Events, Reviews, Tournaments, Ladders, Accounts, LinkCodes, Communities}

// kindNames are a kind's words in a summary: one, many.
var kindNames = [numKinds][2]string{
	Games:       {"game", "games"},
	Challenges:  {"challenge", "challenges"},
	Players:     {"player", "players"},
	Rooms:       {"room", "rooms"},
	Ratings:     {"rating", "ratings"},
	Outbox:      {"reply not yet delivered", "replies not yet delivered"},
	Claims:      {"notice being sent", "notices being sent"},
	States:      {"saved platform setting", "saved platform settings"},
	Events:      {"handled chat event", "handled chat events"},
	Links:       {"web link generation", "web link generations"},
	Reviews:     {"review", "reviews"},
	Tournaments: {"tournament", "tournaments"},
	Ladders:     {"ladder", "ladders"},
	Accounts:    {"linked account", "linked accounts"},
	LinkCodes:   {"account link code", "account link codes"},
	Communities: {"joined community", "joined communities"},
}

func (k Kind) String() string {
	if k < 0 || k >= numKinds {
		return fmt.Sprintf("kind %d", int(k))
	}
	return kindNames[k][1]
}

// Item is one record of a copy; exactly one of its parts is set.
type Item struct {
	Game       *gobot.Match
	Challenge  *gobot.Challenge
	Player     *gobot.Player
	Room       *gobot.Room
	Rating     *gobot.PlayerRating
	Outbox     *OutboxEntry
	Claim      *gobot.Claim
	State      *State
	Event      *Event
	Link       *LinkGeneration
	Review     *gobot.Review
	Tournament *gobot.Tournament
	Ladder     *gobot.Ladder
	Account    *gobot.AccountLink
	LinkCode   *gobot.LinkCode
	Community  *gobot.JoinedCommunity
}

// Kind returns the kind of the one part that is set; an error when none
// or several are.
func (it Item) Kind() (Kind, error) {
	set := [numKinds]bool{
		Games:       it.Game != nil,
		Challenges:  it.Challenge != nil,
		Players:     it.Player != nil,
		Rooms:       it.Room != nil,
		Ratings:     it.Rating != nil,
		Outbox:      it.Outbox != nil,
		Claims:      it.Claim != nil,
		States:      it.State != nil,
		Events:      it.Event != nil,
		Links:       it.Link != nil,
		Reviews:     it.Review != nil,
		Tournaments: it.Tournament != nil,
		Ladders:     it.Ladder != nil,
		Accounts:    it.Account != nil,
		LinkCodes:   it.LinkCode != nil,
		Communities: it.Community != nil,
	}
	k, n := Kind(-1), 0
	for i, ok := range set {
		if ok {
			k, n = Kind(i), n+1
		}
	}
	if n != 1 {
		return k, fmt.Errorf("storecopy: an item with %d parts set, want 1", n)
	}
	return k, nil
}

// OutboxEntry is what the bot owes as the answer to an event, and when it
// was stored (gobot.Tx.PutOutbox).
type OutboxEntry struct {
	ID     gobot.EventID
	Stored time.Time
	Value  []byte
}

// State is an adapter's value.
type State struct {
	NS, Key string
	Value   []byte
}

// LinkGeneration is the generation of a player's personal links to a
// game (gobot.Tx.PutLinkGeneration).
type LinkGeneration struct {
	Game gobot.GameID
	User gobot.UserID
	Gen  uint64
}

// Event is a handled chat event ID and when it was handled.
type Event struct {
	ID      gobot.EventID
	Handled time.Time
}

// Tally is a number of records per kind.
type Tally [numKinds]int

// Total is the number of records of every kind.
func (t Tally) Total() int {
	n := 0
	for _, x := range t {
		n += x
	}
	return n
}

// String is "3 games, 1 challenge, …, 0 handled chat events": every kind.
func (t Tally) String() string {
	parts := make([]string, 0, len(Kinds))
	for _, k := range Kinds {
		w := kindNames[k][1]
		if t[k] == 1 {
			w = kindNames[k][0]
		}
		parts = append(parts, fmt.Sprintf("%d %s", t[k], w))
	}
	return strings.Join(parts, ", ")
}

// Source is a store that lists everything it holds.
type Source interface {
	// Export calls fn for every record, games and challenges in ID order.
	// Records that cannot be read are skipped and named in the returned
	// *chat.DamagedError.
	Export(ctx context.Context, fn func(Item) error) error
	// Count counts the records of each kind, damaged ones included.
	Count(ctx context.Context) (Tally, error)
}

// Sink is a store that takes records with their IDs.
type Sink interface {
	// Count counts the records of each kind (a copy goes only into an
	// empty store, and is checked by counting).
	Count(ctx context.Context) (Tally, error)
	// Import stores items in one transaction, games and challenges under
	// their own IDs (in increasing order), and moves the ID counters past
	// them.
	Import(ctx context.Context, items []Item) error
}

// Counts is what a copy moved.
type Counts struct {
	Tally
	// Damaged names the records the source could not read (not copied).
	Damaged *gobot.DamagedError
}

func (c Counts) String() string {
	s := c.Tally.String()
	if c.Damaged != nil {
		d := c.Damaged
		s += fmt.Sprintf("; not copied, damaged: %d games, %d challenges", len(d.Games), len(d.Challenges))
		if n := len(d.Tournaments) + len(d.Ladders); n > 0 {
			s += fmt.Sprintf(", %d tournaments, %d ladders", len(d.Tournaments), len(d.Ladders))
		}
	}
	return s
}

// ErrNotEmpty is returned when the destination already holds records: a
// copy never merges into or overwrites an installation.
var ErrNotEmpty = errors.New("the destination is not empty")

// ErrMismatch is returned when the counts after a copy differ: the
// destination does not hold what was read, or the source holds records
// the copy did not read.
var ErrMismatch = errors.New("the copy does not match")

// batch is how many records go into one destination transaction.
const batch = 500

// Copy copies everything in src into dst, which must be empty, then
// counts each kind on both sides: the destination must hold exactly what
// was read, and the source exactly that plus the damaged records.
func Copy(ctx context.Context, src Source, dst Sink) (Counts, error) {
	var c Counts
	n, err := dst.Count(ctx)
	if err != nil {
		return c, fmt.Errorf("reading the destination: %w", err)
	}
	if n.Total() > 0 {
		return c, fmt.Errorf("%w: it holds %d records; copy into a new, empty database (a second run of the same copy has nothing to do)", ErrNotEmpty, n.Total())
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
		k, err := it.Kind()
		if err != nil {
			return err
		}
		c.Tally[k]++
		pending = append(pending, it)
		if len(pending) == batch {
			return flush()
		}
		return nil
	})
	if d := gobot.Damaged(err); d != nil {
		c.Damaged, err = d, nil
	}
	if err == nil {
		err = flush()
	}
	if err != nil {
		return c, err
	}
	return c, check(ctx, src, dst, c)
}

// check compares the counts of each kind after a copy.
func check(ctx context.Context, src Source, dst Sink, c Counts) error {
	got, err := dst.Count(ctx)
	if err != nil {
		return fmt.Errorf("checking the copy: counting the destination: %w", err)
	}
	had, err := src.Count(ctx)
	if err != nil {
		return fmt.Errorf("checking the copy: counting the source: %w", err)
	}
	read := c.Tally
	if c.Damaged != nil {
		read[Games] += len(c.Damaged.Games)
		read[Challenges] += len(c.Damaged.Challenges)
		read[Tournaments] += len(c.Damaged.Tournaments)
		read[Ladders] += len(c.Damaged.Ladders)
	}
	var bad []string
	for _, k := range Kinds {
		switch {
		case got[k] != c.Tally[k]:
			bad = append(bad, fmt.Sprintf("%s: %d copied, the destination holds %d", k, c.Tally[k], got[k]))
		case had[k] != read[k]:
			bad = append(bad, fmt.Sprintf("%s: the source holds %d, %d were read (did the bot run during the copy?)", k, had[k], read[k]))
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("%w: %s", ErrMismatch, strings.Join(bad, "; "))
	}
	return nil
}
