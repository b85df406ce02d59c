package gobot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Store is the database as chat uses it. storage.DB (bbolt) implements
// it; chat/storetest is the conformance suite every implementation runs.
//
// A transaction is bound to the ctx given to Update or View: an
// implementation checks ctx before it starts one (a cancelled ctx runs
// nothing and returns ctx.Err()) and may use it for its I/O.
type Store interface {
	// Update runs fn in one read-write transaction, committed durably
	// before it returns nil; if fn fails nothing is written and fn's
	// error is returned. Concurrent Updates are serialized (or retried
	// by the caller on ErrConflict): none is lost.
	Update(ctx context.Context, fn func(Tx) error) error
	// View runs fn in a read-only transaction over a consistent snapshot.
	View(ctx context.Context, fn func(Tx) error) error
}

// Tx is one transaction: exactly the operations chat uses. Records
// returned are the caller's copies; changes are stored by the Put
// methods only.
//
// Errors wrap the sentinels: ErrNotFound (no such record), ErrConflict
// (a stale write), ErrCorrupt (a damaged record), ErrDuplicate (an event
// marked twice). A list method skips the records it cannot read and
// returns the readable ones together with a *DamagedError naming the
// others (it wraps ErrCorrupt).
type Tx interface {
	// Match returns the game numbered id.
	Match(id GameID) (*Match, error)
	// PutMatch inserts (ID 0: assigns the next ID, from 1) or updates a
	// game. An update must carry the Version it read, else ErrConflict;
	// a game that is gone is ErrNotFound. Version is then bumped, also
	// on g, and the indexes follow the new record (players, room,
	// deadline).
	PutMatch(g *Match) error
	// InsertMatch stores a new game under g.ID when no game has that
	// number (a game keeps its challenge's number), else under the next
	// number above every game's and challenge's; g.ID 0 is PutMatch's
	// insert. g.ID and g.Version are set.
	InsertMatch(g *Match) error
	// ActiveGames returns u's games still being played or scored, by ID.
	ActiveGames(u UserID) ([]*Match, error)
	// RoomGames returns the games whose Room or Mirror is r (only active ones if
	// activeOnly), by ID.
	RoomGames(r RoomID, activeOnly bool) ([]*Match, error)
	// DueGames returns active games whose Deadline is before t, earliest
	// first (ties by ID), at most limit (0 = all).
	DueGames(before time.Time, limit int) ([]*Match, error)

	// Challenge returns challenge id.
	Challenge(id ChallengeID) (*Challenge, error)
	// PutChallenge inserts (ID 0: assigns the next ID, from 1) or
	// updates a challenge; only pending challenges are indexed.
	PutChallenge(c *Challenge) error
	// SkipGameNumbers moves the challenge counter past every game's
	// number, so that the next challenge's number is no game's ("#n"
	// names one thing). Called before inserting a challenge.
	SkipGameNumbers() error
	// PendingChallenges returns the pending challenges from or to u, by ID.
	PendingChallenges(u UserID) ([]*Challenge, error)
	// RoomChallenges returns the pending challenges in room r, by ID.
	RoomChallenges(r RoomID) ([]*Challenge, error)

	// Player returns what is known of user id (ErrNotFound if nothing).
	Player(id UserID) (*Player, error)
	// PutPlayer stores a player; the vacation index follows it.
	PutPlayer(p *Player) error
	// DueVacations returns the players on vacation whose vacation ends
	// before t (Player.VacationDue), earliest first (ties by ID), at most
	// limit (0 = all).
	DueVacations(before time.Time, limit int) ([]*Player, error)
	// Room returns a room's settings (ErrNotFound if never set).
	Room(id RoomID) (*Room, error)
	// PutRoom stores a room's settings.
	PutRoom(r *Room) error

	// MarkEvent records that event id was handled at t; ErrDuplicate if
	// it already was (and not expired since).
	MarkEvent(id EventID, t time.Time) error
	// ExpireEvents forgets events handled before t and returns how many.
	ExpireEvents(before time.Time) (int, error)

	// PutOutbox stores what the bot owes as the answer to event id (the
	// reply, encoded by chat), in the transaction that handled it.
	PutOutbox(id EventID, t time.Time, v []byte) error
	// Outbox returns what is owed for event id; ErrNotFound when nothing
	// is (never owed, or delivered).
	Outbox(id EventID) ([]byte, error)
	// DeleteOutbox records that what was owed for event id was delivered.
	DeleteOutbox(id EventID) error
	// ExpireOutbox drops entries stored before t and returns how many.
	ExpireOutbox(before time.Time) (int, error)

	// PutClaim stores claim c, replacing the one under its Key.
	PutClaim(c *Claim) error
	// Claim returns the claim under key (ErrNotFound if none).
	Claim(key string) (*Claim, error)
	// DeleteClaim drops the claim under key (done); none is no error.
	DeleteClaim(key string) error
	// ExpiredClaims returns the claims whose Expires is before t,
	// earliest first (ties by Key), at most limit (0 = all).
	ExpiredClaims(before time.Time, limit int) ([]*Claim, error)

	// State returns an adapter's value stored under namespace ns and key
	// (ErrNotFound when absent).
	State(ns, key string) ([]byte, error)
	// PutState stores an adapter's value; nil deletes it.
	PutState(ns, key string, v []byte) error

	// Rating returns u's rating record in community c (ErrNotFound if
	// none).
	Rating(c CommunityID, u UserID) (*PlayerRating, error)
	// PutRating stores a rating record under its Community and User.
	PutRating(r *PlayerRating) error
	// Ratings returns the rating records of community c ("" = every
	// community), by community then user.
	Ratings(c CommunityID) ([]*PlayerRating, error)
	// UserRatings returns u's rating records in every community, by
	// community.
	UserRatings(u UserID) ([]*PlayerRating, error)
	// DeleteRating drops u's rating record in community c (none is no
	// error).
	DeleteRating(c CommunityID, u UserID) error

	// JoinedCommunities returns the joined communities recorded
	// (docs/identity.md), by ID.
	JoinedCommunities() ([]*JoinedCommunity, error)
	// PutJoinedCommunity stores j under its ID, replacing the one there.
	PutJoinedCommunity(j *JoinedCommunity) error

	// LinkGeneration returns the generation of u's personal links to
	// game g: 0 until PutLinkGeneration stores one. A link, and a
	// session opened with it, minted under an older generation is
	// revoked (the web command's reset).
	LinkGeneration(g GameID, u UserID) (uint64, error)
	// PutLinkGeneration stores the generation of u's links to game g.
	PutLinkGeneration(g GameID, u UserID, gen uint64) error

	// AccountLink returns the link of account u to its player
	// (ErrNotFound when u is linked to none: docs/identity.md).
	AccountLink(u UserID) (*AccountLink, error)
	// PutAccountLink stores l under its Account, replacing the one there.
	PutAccountLink(l *AccountLink) error
	// DeleteAccountLink drops account u's link (none is no error).
	DeleteAccountLink(u UserID) error
	// LinkedAccounts returns the links to player p, by Linked then
	// Account.
	LinkedAccounts(p UserID) ([]*AccountLink, error)
	// LinkCode returns the link code stored under hash (ErrNotFound if
	// none).
	LinkCode(hash string) (*LinkCode, error)
	// PutLinkCode stores c under its Hash, replacing the one there.
	PutLinkCode(c *LinkCode) error
	// LinkCodesOf returns the link codes u asked for that are kept, by
	// Issued.
	LinkCodesOf(u UserID) ([]*LinkCode, error)
	// ExpireLinkCodes drops the link codes issued before t and returns
	// how many.
	ExpireLinkCodes(before time.Time) (int, error)

	// Review returns review id.
	Review(id ReviewID) (*Review, error)
	// PutReview inserts (ID 0: the next number, Version 1) or updates a
	// review; an update must carry the Version it read, else ErrConflict,
	// and Version is then bumped (also on r).
	PutReview(r *Review) error
	// RoomReviews returns the open reviews in room r, by ID.
	RoomReviews(r RoomID) ([]*Review, error)
	// DueReviews returns the reviews whose Due falls before t, earliest
	// first, at most limit (0: all).
	DueReviews(before time.Time, limit int) ([]*Review, error)
	// DeleteReview drops review id (nothing when there is none).
	DeleteReview(id ReviewID) error

	// Tournament returns tournament id.
	Tournament(id TournamentID) (*Tournament, error)
	// PutTournament inserts (ID 0: the next tournament number, from 1;
	// Version 1) or updates a tournament; an update must carry the
	// Version it read, else ErrConflict (ErrNotFound when it is gone),
	// and Version is then bumped (also on t). A tournament that fails
	// its Check is refused (ErrTooLarge, ErrBadEvent); one holding a
	// game another tournament holds is ErrGameTaken. The indexes follow
	// the record (room, its games, Due).
	PutTournament(t *Tournament) error
	// RoomTournaments returns the tournaments whose Room is r (only those
	// not Ended if activeOnly), by ID.
	RoomTournaments(r RoomID, activeOnly bool) ([]*Tournament, error)
	// TournamentOfGame returns the tournament one of whose rounds holds
	// game g (ErrNotFound if none).
	TournamentOfGame(g GameID) (*Tournament, error)
	// DueTournaments returns the tournaments whose Due is set and before
	// t, earliest first (ties by ID), at most limit (0 = all).
	DueTournaments(before time.Time, limit int) ([]*Tournament, error)

	// Ladder returns ladder id.
	Ladder(id LadderID) (*Ladder, error)
	// PutLadder inserts (ID 0: the next ladder number, from 1) or
	// updates a ladder as PutTournament does a tournament.
	PutLadder(l *Ladder) error
	// RoomLadders returns the ladders whose Room is r (only open ones if
	// activeOnly), by ID.
	RoomLadders(r RoomID, activeOnly bool) ([]*Ladder, error)
	// LadderOfGame returns the ladder holding game g in an open challenge
	// or its log (ErrNotFound if none).
	LadderOfGame(g GameID) (*Ladder, error)
	// DueLadders returns the ladders whose Due is set and before t,
	// earliest first (ties by ID), at most limit (0 = all).
	DueLadders(before time.Time, limit int) ([]*Ladder, error)
}

// DamagedError is what a list method returns beside the records it could
// read: the IDs of those it could not. errors.Is(err, ErrCorrupt) holds.
type DamagedError struct {
	Games       []GameID
	Challenges  []ChallengeID
	Tournaments []TournamentID
	Ladders     []LadderID
	// Err joins the error of each damaged record.
	Err error
}

func (e *DamagedError) Error() string {
	var ids []string
	for _, id := range e.Games {
		ids = append(ids, fmt.Sprintf("game #%d", id))
	}
	for _, id := range e.Challenges {
		ids = append(ids, fmt.Sprintf("challenge #%d", id))
	}
	for _, id := range e.Tournaments {
		ids = append(ids, fmt.Sprintf("tournament %d", id))
	}
	for _, id := range e.Ladders {
		ids = append(ids, fmt.Sprintf("ladder %d", id))
	}
	msg := "damaged records: " + strings.Join(ids, ", ")
	if e.Err != nil {
		msg += " (" + strings.ReplaceAll(e.Err.Error(), "\n", "; ") + ")"
	}
	return msg
}

// Unwrap returns ErrCorrupt and the per-record errors.
func (e *DamagedError) Unwrap() []error { return []error{ErrCorrupt, e.Err} }

// Damaged returns the damaged records named by err (a *DamagedError
// anywhere in its chain), or nil.
func Damaged(err error) *DamagedError {
	var d *DamagedError
	if errors.As(err, &d) {
		return d
	}
	return nil
}

// State is a small key-value store for an adapter's own state (the
// registered-command hash, a Matrix session and sync position, DM rooms):
// what a restart needs, in the bot's database, so adapters need no
// database of their own. StoreState makes one from any Store.
type State interface {
	// GetState returns the value under ns and key, or ErrNotFound.
	GetState(ctx context.Context, ns, key string) ([]byte, error)
	// PutState stores all of values under ns at once (nil deletes a key).
	PutState(ctx context.Context, ns string, values map[string][]byte) error
	// UpdateState replaces the value under ns and key with what fn makes
	// of the current one (nil when there is none; a nil result deletes
	// the key), in one write transaction: processes sharing the store
	// never lose each other's changes. fn may run more than once (a
	// shared store retries after a conflict) and must do no I/O; its
	// error is returned and nothing is written.
	UpdateState(ctx context.Context, ns, key string, fn func(old []byte) ([]byte, error)) error
}

// StoreState returns the State kept in s. A PutState whose ctx carries a
// lease's term (WithFence) writes only while the term lasts.
func StoreState(s Store) State { return storeState{fencedStore{s}} }

type storeState struct{ s Store }

func (st storeState) GetState(ctx context.Context, ns, key string) ([]byte, error) {
	var v []byte
	err := st.s.View(ctx, func(tx Tx) error {
		b, err := tx.State(ns, key)
		v = append([]byte(nil), b...)
		return err
	})
	return v, err
}

func (st storeState) PutState(ctx context.Context, ns string, values map[string][]byte) error {
	return st.s.Update(ctx, func(tx Tx) error {
		for k, v := range values {
			if err := tx.PutState(ns, k, v); err != nil {
				return err
			}
		}
		return nil
	})
}

func (st storeState) UpdateState(ctx context.Context, ns, key string, fn func(old []byte) ([]byte, error)) error {
	return st.s.Update(ctx, func(tx Tx) error {
		old, err := tx.State(ns, key)
		if errors.Is(err, ErrNotFound) {
			old, err = nil, nil
		}
		if err != nil {
			return err
		}
		v, err := fn(append([]byte(nil), old...))
		if err != nil {
			return err
		}
		return tx.PutState(ns, key, v)
	})
}
