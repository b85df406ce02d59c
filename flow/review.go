package flow

import (
	"errors"
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// MaxRoomReviews bounds the open reviews of a room.
const MaxRoomReviews = 10

// ReviewProblem is why a review command is refused (ReviewRefusal).
type ReviewProblem int

const (
	TooManyReviews   ReviewProblem = iota + 1 // the room has N open reviews, MaxRoomReviews or more
	NoGameToReview                            // Game does not exist
	GameStillPlayed                           // Game is being played
	GameElsewhere                             // Game was played in another room, not by the caller
	NoSuchReview                              // review Review is not in the room
	NoSuchOpenReview                          // review Review is not open in the room (a reset)
	NoReviewOfYours                           // the caller has no open review in the room
	NoOpenReview                              // the room has no open review (a reset)
	WhichOfYours                              // the caller has N open reviews in the room, the first Review
	WhichOfRoom                               // the room has N open reviews, the first Review (a reset)
)

// ReviewRefusal refuses a review command.
type ReviewRefusal struct {
	Problem ReviewProblem
	N       int
	Game    gobot.GameID
	Review  gobot.ReviewID
}

func (e ReviewRefusal) Error() string {
	return fmt.Sprintf("flow: review refused (problem %d, game %d, review %d, %d)", e.Problem, e.Game, e.Review, e.N)
}

// MayOpenReview refuses a new review in room when it has
// MaxRoomReviews open (a damaged record among them is counted out).
func MayOpenReview(tx gobot.Tx, room gobot.RoomID) error {
	open, err := tx.RoomReviews(room)
	if err != nil && gobot.Damaged(err) == nil {
		return err
	}
	if len(open) >= MaxRoomReviews {
		return ReviewRefusal{Problem: TooManyReviews, N: len(open)}
	}
	return nil
}

// ReviewedGame is game id, for user to review in room: a game over,
// played in room (or a thread of it) or by user.
func ReviewedGame(tx gobot.Tx, id gobot.GameID, room gobot.RoomID, user gobot.UserID) (*gobot.Match, error) {
	match, err := tx.Match(id)
	switch {
	case errors.Is(err, gobot.ErrNotFound):
		return nil, ReviewRefusal{Problem: NoGameToReview, Game: id}
	case err != nil:
		return nil, err
	case match.Active():
		return nil, ReviewRefusal{Problem: GameStillPlayed, Game: id}
	case match.ColorOf(user) == game.Empty && match.Room != room && match.Parent != room:
		return nil, ReviewRefusal{Problem: GameElsewhere, Game: id}
	}
	return match, nil
}

// OpenReview opens and stores a review of tree in room, titled title,
// started by user at now; of game gid (0: none).
func OpenReview(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, title string, tree *game.Tree, gid gobot.GameID, now time.Time) (*gobot.Review, error) {
	rev := gobot.NewReview(room, user, title, tree, now)
	rev.Game = gid
	return rev, tx.PutReview(rev)
}

// FindReview is review id of room, or (0) user's one open review there:
// one they started or control. For a reset, id names an open review and
// (0) the room's one open review is any of its open reviews, and a
// damaged record among them is an error; otherwise it is counted out.
func FindReview(tx gobot.Tx, room gobot.RoomID, user gobot.UserID, id gobot.ReviewID, reset bool) (*gobot.Review, error) {
	if id != 0 {
		rev, err := tx.Review(id)
		if errors.Is(err, gobot.ErrNotFound) || err == nil && (rev.Room != room || reset && rev.Closed) {
			return nil, ReviewRefusal{Problem: map[bool]ReviewProblem{false: NoSuchReview, true: NoSuchOpenReview}[reset], Review: id}
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
		return nil, ReviewRefusal{Problem: NoOpenReview}
	case len(found) == 0:
		return nil, ReviewRefusal{Problem: NoReviewOfYours}
	case reset:
		return nil, ReviewRefusal{Problem: WhichOfRoom, N: len(found), Review: found[0].ID}
	}
	return nil, ReviewRefusal{Problem: WhichOfYours, N: len(found), Review: found[0].ID}
}

// Refusals of managing a review (ending or keeping it); an ended
// review's end is gobot.ErrReviewClosed.
var (
	ErrNotManager = errors.New("only who started the review, who controls it or a room admin manages it")
	ErrReviewKept = errors.New("the review is kept already")
)

// mayManage reports whether user may end or keep rev: who started it,
// who controls it, or a room admin.
func mayManage(rev *gobot.Review, user gobot.UserID, admin bool) bool {
	return user == rev.Owner || user == rev.Controller || admin
}

// EndReview closes rev at now, as user (a room admin when admin).
func EndReview(rev *gobot.Review, user gobot.UserID, admin bool, now time.Time) error {
	if rev.Closed {
		return gobot.ErrReviewClosed
	}
	if !mayManage(rev, user, admin) {
		return ErrNotManager
	}
	rev.Closed, rev.Updated = true, now
	return nil
}

// KeepReview keeps rev past gobot.ReviewLife, as user (a room admin
// when admin).
func KeepReview(rev *gobot.Review, user gobot.UserID, admin bool) error {
	if !mayManage(rev, user, admin) {
		return ErrNotManager
	}
	if rev.Kept {
		return ErrReviewKept
	}
	rev.Kept = true
	return nil
}

// ResetReviewLinks moves user's link generation in rev on, which ends
// their earlier links and the boards opened with them.
func ResetReviewLinks(rev *gobot.Review, user gobot.UserID) {
	if rev.LinkGen == nil {
		rev.LinkGen = map[gobot.UserID]uint64{}
	}
	rev.LinkGen[user]++
}

// ReviewStep is what the review job did to a review whose timed work is
// due (gobot.Review.Due).
type ReviewStep int

const (
	// ReviewWaits: nothing is due yet.
	ReviewWaits ReviewStep = iota
	// ReviewExpired: a closed review past gobot.ReviewLife, not kept,
	// which the caller deletes.
	ReviewExpired
	// ReviewIdleClosed: an open review idle for gobot.ReviewIdle, now
	// closed.
	ReviewIdleClosed
)

// DueReview makes rev's timed work due at now: it closes an open review
// idle for gobot.ReviewIdle and says so, and says when a closed one is
// past its life.
func DueReview(rev *gobot.Review, now time.Time) ReviewStep {
	switch {
	case rev.Expired(now):
		return ReviewExpired
	case !rev.Idle(now):
		return ReviewWaits
	}
	rev.Closed = true
	return ReviewIdleClosed
}
