package flow

import (
	"errors"
	"time"

	"github.com/gobotgo/gobot"
)

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
