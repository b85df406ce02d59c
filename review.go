package gobot

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gobotgo/gobot/game"
)

// ReviewID numbers reviews from 1, apart from games.
type ReviewID uint64

// Ref is the review as users write and read it: "r5". A game is
// written "#5"; the two signs never mean the other.
func (id ReviewID) Ref() string { return "r" + strconv.FormatUint(uint64(id), 10) }

// How long a review lives: an open review nobody has touched for
// ReviewIdle is closed; a closed one is deleted ReviewLife after it was
// made, unless kept.
const (
	ReviewIdle = 48 * time.Hour
	ReviewLife = 30 * 24 * time.Hour
)

// Errors of review control, for chat and the board to turn into words.
var (
	ErrNotController = errors.New("only the one in control moves the review")
	ErrNotPresent    = errors.New("not following this review")
	ErrReviewClosed  = errors.New("the review is closed")
	ErrNotOwner      = errors.New("only who started the review takes control back")
)

// Review is a shared board for teaching and post-game review: a game
// tree (game.Tree), the position its controller shows, who controls it
// and who follows it. Everyone present sees the controller's position;
// the controller moves through the tree, plays variations, marks points
// and comments. Control is handed on by the controller, taken back by
// the owner (who started it), and passes to the longest-present follower
// when the controller leaves.
type Review struct {
	ID      ReviewID
	Version int // bumped by every PutReview; a stale write is ErrConflict
	Room    RoomID
	Game    GameID // the game reviewed; 0 for an SGF file or an empty board
	Title   string // what the review shows: "game #12", "an SGF file", "a 19×19 board"
	Tree    *game.Tree
	// Node is the controller's position: an index in Tree.Nodes.
	Node       int
	Owner      UserID
	Controller UserID
	// Present are the people watching the board, longest present first;
	// the controller among them while watching.
	Present []UserID
	// LinkGen is each user's link generation in the review (nil or
	// absent: 0): `review reset` moves the caller's on, which ends their
	// earlier links and the boards opened with them.
	LinkGen map[UserID]uint64
	Kept    bool
	Closed  bool
	Created time.Time
	Updated time.Time // the last change by a person: idle is measured from it
}

// NewReview starts a review of tree in room by owner, who controls it.
func NewReview(room RoomID, owner UserID, title string, tree *game.Tree, now time.Time) *Review {
	return &Review{Room: room, Owner: owner, Controller: owner, Title: title, Tree: tree, Created: now, Updated: now}
}

// Due returns when the review's timed work falls due: an open review's
// idle close, a closed review's deletion; zero for a closed kept one.
func (r *Review) Due() time.Time {
	switch {
	case !r.Closed:
		return r.Updated.Add(ReviewIdle)
	case !r.Kept:
		return r.Created.Add(ReviewLife)
	}
	return time.Time{}
}

// Expired reports whether a closed review is past its life at now.
func (r *Review) Expired(now time.Time) bool {
	return r.Closed && !r.Kept && !now.Before(r.Created.Add(ReviewLife))
}

// Idle reports whether an open review is to be closed at now.
func (r *Review) Idle(now time.Time) bool {
	return !r.Closed && !now.Before(r.Updated.Add(ReviewIdle))
}

// IsController reports whether u controls the review.
func (r *Review) IsController(u UserID) bool { return u != "" && u == r.Controller }

// control checks that u may change the review's board.
func (r *Review) control(u UserID) error {
	if r.Closed {
		return ErrReviewClosed
	}
	if !r.IsController(u) {
		return ErrNotController
	}
	return nil
}

// Join adds u to those present (at the end: the newest). Control
// held by someone who is not present passes to u when u is the owner,
// or when the absent controller is not the owner (a follower who had
// control left last): nobody is left following a board nobody on it
// can move. An owner who has not come yet keeps it (and may take it
// back whenever they come: Take).
func (r *Review) Join(u UserID) {
	if !slices.Contains(r.Present, u) {
		r.Present = append(r.Present, u)
	}
	if !slices.Contains(r.Present, r.Controller) && (u == r.Owner || r.Controller != r.Owner) {
		r.Controller = u
	}
}

// Leave takes u from those present. A controller who leaves hands
// control to the longest-present follower, if anyone is left.
func (r *Review) Leave(u UserID) {
	i := slices.Index(r.Present, u)
	if i < 0 {
		return
	}
	r.Present = slices.Delete(r.Present, i, i+1)
	if u == r.Controller && len(r.Present) > 0 {
		r.Controller = r.Present[0]
	}
}

// Give hands control from by, who holds it, to to, who is present.
func (r *Review) Give(by, to UserID, now time.Time) error {
	if err := r.control(by); err != nil {
		return err
	}
	if !slices.Contains(r.Present, to) {
		return fmt.Errorf("%w: %s", ErrNotPresent, to)
	}
	r.Controller, r.Updated = to, now
	return nil
}

// Take gives control back to the owner.
func (r *Review) Take(by UserID, now time.Time) error {
	if r.Closed {
		return ErrReviewClosed
	}
	if by != r.Owner {
		return ErrNotOwner
	}
	r.Controller, r.Updated = by, now
	return nil
}

// Navigate moves the controller's position to node n.
func (r *Review) Navigate(by UserID, n int, now time.Time) error {
	if err := r.control(by); err != nil {
		return err
	}
	if !r.Tree.Has(n) {
		return fmt.Errorf("%w: %d", game.ErrNoNode, n)
	}
	r.Node, r.Updated = n, now
	return nil
}

// Play plays the next move at p from the controller's position (a
// variation when the position already has a different next move) and
// goes there.
func (r *Review) Play(by UserID, p game.Point, now time.Time) error {
	if err := r.control(by); err != nil {
		return err
	}
	n, err := r.Tree.Play(r.Node, p)
	if err != nil {
		return err
	}
	r.Node, r.Updated = n, now
	return nil
}

// Mark toggles mark m on the controller's position.
func (r *Review) Mark(by UserID, m game.Mark, now time.Time) error {
	if err := r.control(by); err != nil {
		return err
	}
	if err := r.Tree.ToggleMark(r.Node, m); err != nil {
		return err
	}
	r.Updated = now
	return nil
}

// Comment sets the comment of the controller's position.
func (r *Review) Comment(by UserID, text string, now time.Time) error {
	if err := r.control(by); err != nil {
		return err
	}
	if err := r.Tree.SetComment(r.Node, text); err != nil {
		return err
	}
	r.Updated = now
	return nil
}

// ReviewAction is one change a board makes to a review, by its kind:
// "goto" Node, "play" Point, "mark" Mark, "comment" Text, "give" To,
// "take", "join", "leave".
type ReviewAction struct {
	Kind  string
	Node  int
	Point game.Point
	Mark  game.Mark
	Text  string
	To    UserID
}

// ErrReviewAction: an action kind the review does not know.
var ErrReviewAction = errors.New("not an action of a review")

// Apply makes action a of user u at now.
func (r *Review) Apply(u UserID, a ReviewAction, now time.Time) error {
	switch a.Kind {
	case "goto":
		return r.Navigate(u, a.Node, now)
	case "play":
		return r.Play(u, a.Point, now)
	case "mark":
		return r.Mark(u, a.Mark, now)
	case "comment":
		return r.Comment(u, a.Text, now)
	case "give":
		return r.Give(u, a.To, now)
	case "take":
		return r.Take(u, now)
	case "join":
		r.Join(u)
		return nil
	case "leave":
		r.Leave(u)
		return nil
	}
	return fmt.Errorf("%w: %q", ErrReviewAction, a.Kind)
}
