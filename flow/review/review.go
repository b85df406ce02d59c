// Package review is what the review commands and the review job do to
// reviews (a shared board over a game tree: gobot.Review), in the
// caller's transaction: a new review's source checked and stored, a
// command's review found, a review ended, kept or its links reset, an
// idle one closed and an old one expired. Refusals are typed (Refusal,
// ErrNotManager, ErrKept); chat/say words them. Who controls a review's
// board is gobot.Review's own rule.
package review

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// MaxPerRoom bounds the open reviews of a room.
const MaxPerRoom = 10

// Problem is why a review command is refused (Refusal).
type Problem int

const (
	TooMany       Problem = iota + 1 // the room has N open reviews, MaxPerRoom or more
	NoGame                           // Game does not exist
	StillPlayed                      // Game is being played
	Elsewhere                        // Game was played in another room, not by the caller
	NoSuch                           // review Review is not in the room
	NoSuchOpen                       // review Review is not open in the room (a reset)
	NoneOfYours                      // the caller has no open review in the room
	NoneOpen                         // the room has no open review (a reset)
	WhichOfYours                     // the caller has N open reviews in the room, the first Review
	WhichOfRoom                      // the room has N open reviews, the first Review (a reset)
	NotAReview                       // Game, given where a review was meant, has no open review in the room (Review: one that is, or 0)
	WhichOfGame                      // Game has N open reviews in the room, none or several the caller's; the first Review
	GameAndReview                    // both a game (Game) and a review (Review) were named
)

// Refusal refuses a review command.
type Refusal struct {
	Problem Problem
	N       int
	Game    gobot.GameID
	Review  gobot.ReviewID
	// Action is the command's action on a review: end, keep or reset.
	Action string
}

func (e Refusal) Error() string {
	return fmt.Sprintf("review: refused (problem %d, game %d, review %d, %d)", e.Problem, e.Game, e.Review, e.N)
}

// MayOpen refuses a new review in room when it has
// MaxPerRoom open (a damaged record among them is counted out).
func MayOpen(tx gobot.Tx, room gobot.RoomID) error {
	open, err := tx.RoomReviews(room)
	if err != nil && gobot.Damaged(err) == nil {
		return err
	}
	if len(open) >= MaxPerRoom {
		return Refusal{Problem: TooMany, N: len(open)}
	}
	return nil
}

// Reviewed is game id, for user to review in room: a game over,
// played in room (or a thread of it) or by user.
func Reviewed(tx gobot.Tx, id gobot.GameID, room gobot.RoomID, user gobot.UserID) (*gobot.Match, error) {
	match, err := tx.Match(id)
	switch {
	case errors.Is(err, gobot.ErrNotFound):
		return nil, Refusal{Problem: NoGame, Game: id}
	case err != nil:
		return nil, err
	case match.Active():
		return nil, Refusal{Problem: StillPlayed, Game: id}
	case match.ColorOf(user) == game.Empty && match.Room != room && match.Parent != room:
		return nil, Refusal{Problem: Elsewhere, Game: id}
	}
	return match, nil
}

// Open opens and stores a review of tree in room, titled title,
// started by user at now; of game gid (0: none).
func Open(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, title string, tree *game.Tree, gid gobot.GameID, now time.Time) (*gobot.Review, error) {
	rev := gobot.NewReview(room, user, title, tree, now)
	rev.Game = gid
	return rev, tx.PutReview(rev)
}

// Meant is the review that action (end, keep, reset) means in room:
// review id (r5), or the open review of game gid (#12: a game, always;
// its review is what "review end #12" means), or, with neither, user's
// one open review there (for a reset, the room's: Find).
func Meant(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, id gobot.ReviewID, gid gobot.GameID, action string) (*gobot.Review, error) {
	reset := action == "reset"
	var rev *gobot.Review
	var err error
	switch {
	case id != 0 && gid != 0:
		return nil, Refusal{Problem: GameAndReview, Game: gid, Review: id, Action: action}
	case gid != 0:
		rev, err = ofGame(tx, room, user, gid)
	default:
		rev, err = Find(tx, room, user, id, reset)
	}
	if r, ok := err.(Refusal); ok {
		r.Action = action
		return nil, r
	}
	return rev, err
}

// ofGame is the open review of game gid in room: its one open review
// there, or of several the one user started or controls.
func ofGame(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, gid gobot.GameID) (*gobot.Review, error) {
	open, err := tx.RoomReviews(room)
	if err != nil && gobot.Damaged(err) == nil {
		return nil, err
	}
	var of, mine []*gobot.Review
	for _, rev := range open {
		if rev.Game != gid {
			continue
		}
		of = append(of, rev)
		if rev.Owner == user || rev.Controller == user {
			mine = append(mine, rev)
		}
	}
	switch {
	case len(of) == 1:
		return of[0], nil
	case len(mine) == 1:
		return mine[0], nil
	case len(of) == 0:
		var example gobot.ReviewID
		for _, rev := range open {
			if rev.Owner == user || rev.Controller == user || example == 0 {
				example = rev.ID
			}
		}
		return nil, Refusal{Problem: NotAReview, Game: gid, Review: example}
	}
	return nil, Refusal{Problem: WhichOfGame, N: len(of), Game: gid, Review: of[0].ID}
}

// Find is review id of room, or (0) user's one open review there:
// one they started or control. For a reset, id names an open review and
// (0) the room's one open review is any of its open reviews, and a
// damaged record among them is an error; otherwise it is counted out.
func Find(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, id gobot.ReviewID, reset bool) (*gobot.Review, error) {
	if id != 0 {
		rev, err := tx.Review(id)
		if errors.Is(err, gobot.ErrNotFound) || err == nil && (rev.Room != room || reset && rev.Closed) {
			return nil, Refusal{Problem: map[bool]Problem{false: NoSuch, true: NoSuchOpen}[reset], Review: id}
		}
		return rev, err
	}
	open, err := tx.RoomReviews(room)
	if err != nil && (reset || gobot.Damaged(err) == nil) {
		return nil, err
	}
	var found []*gobot.Review
	for _, rev := range open {
		if reset || rev.Owner == user || rev.Controller == user {
			found = append(found, rev)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) == 0 && reset:
		return nil, Refusal{Problem: NoneOpen}
	case len(found) == 0:
		return nil, Refusal{Problem: NoneOfYours}
	case reset:
		return nil, Refusal{Problem: WhichOfRoom, N: len(found), Review: found[0].ID}
	}
	return nil, Refusal{Problem: WhichOfYours, N: len(found), Review: found[0].ID}
}

// Refusals of managing a review (ending or keeping it); an ended
// review's end is gobot.ErrReviewClosed.
var (
	ErrNotManager = errors.New("only who started the review, who controls it or a room admin manages it")
	ErrKept       = errors.New("the review is kept already")
)

// mayManage reports whether user may end or keep rev: who started it,
// who controls it, or a room admin.
func mayManage(rev *gobot.Review, user gobot.UserID, admin bool) bool {
	return user == rev.Owner || user == rev.Controller || admin
}

// End closes rev at now, as user (a room admin when admin).
func End(rev *gobot.Review, user gobot.UserID, admin bool, now time.Time) error {
	if rev.Closed {
		return gobot.ErrReviewClosed
	}
	if !mayManage(rev, user, admin) {
		return ErrNotManager
	}
	rev.Closed, rev.Updated = true, now
	return nil
}

// Keep keeps rev past gobot.ReviewLife, as user (a room admin
// when admin).
func Keep(rev *gobot.Review, user gobot.UserID, admin bool) error {
	if !mayManage(rev, user, admin) {
		return ErrNotManager
	}
	if rev.Kept {
		return ErrKept
	}
	rev.Kept = true
	return nil
}

// ResetLinks moves user's link generation in rev on, which ends
// their earlier links and the boards opened with them.
func ResetLinks(rev *gobot.Review, user gobot.UserID) {
	if rev.LinkGen == nil {
		rev.LinkGen = map[gobot.UserID]uint64{}
	}
	rev.LinkGen[user]++
}

// Step is what the review job did to a review whose timed work is
// due (gobot.Review.Due).
type Step int

const (
	// Waits: nothing is due yet.
	Waits Step = iota
	// Expired: a closed review past gobot.ReviewLife, not kept,
	// which the caller deletes.
	Expired
	// IdleClosed: an open review idle for gobot.ReviewIdle, now
	// closed.
	IdleClosed
)

// Due makes rev's timed work due at now: it closes an open review
// idle for gobot.ReviewIdle and says so, and says when a closed one is
// past its life.
func Due(rev *gobot.Review, now time.Time) Step {
	switch {
	case rev.Expired(now):
		return Expired
	case !rev.Idle(now):
		return Waits
	}
	rev.Closed = true
	return IdleClosed
}
