package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow/review"
	"github.com/gobotgo/gobot/game"
)

// Reviews: a shared board for teaching and post-game review (gobot.Review,
// its tree in game.Tree). The board itself is a page of the web board
// (chat/web); chat starts, lists, keeps and ends reviews, and closes idle
// ones on the clock (the runner's review job: byReviewDue, runReview).

// ReviewLinker mints personal links to a review's board; package chat/web
// implements it beside Linker. A link is a credential: it lets whoever
// holds it follow the review as user, and control it when user does.
type ReviewLinker interface {
	// gen is user's link generation in the review (Review.LinkGen): a
	// link minted under an earlier one no longer works.
	ReviewLink(id gobot.ReviewID, user gobot.UserID, gen uint64) (url string, expires time.Time, err error)
}

func (b *core) reviewLinker() (ReviewLinker, error) {
	if rl, ok := b.linker().(ReviewLinker); ok {
		return rl, nil
	}
	return nil, say.NoReviewBoard()
}

func cmdReview(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	rl, err := b.reviewLinker()
	if err != nil {
		return Result{}, err
	}
	if action := a.Choice["action"]; action != "" {
		// r5 is a review, #12 a game: review end #12 ends game #12's
		// open review (review.Meant).
		rev, err := review.Meant(tx, r.Room, r.User.ID, a.Review, a.Game, action)
		if err != nil {
			return Result{}, say.ReviewRefused(err)
		}
		if action == "reset" {
			return resetReviewLinks(call, rl, rev)
		}
		return manageReview(call, rev, action == "end")
	}
	if a.Review != 0 {
		return Result{}, say.ReviewNamed(a.Review)
	}
	if err := review.MayOpen(tx, r.Room); err != nil {
		return Result{}, say.ReviewRefused(err)
	}
	var (
		tree  *game.Tree
		title string
		gid   gobot.GameID
	)
	switch {
	case r.File != nil && (a.Game != 0 || a.Options.Width != 0):
		return Result{}, say.ReviewOneSource()
	case r.File != nil:
		if tree, err = sgfTree(r.File); err != nil {
			return Result{}, err
		}
		title = say.SGFTitle(r.File.Name)
	case a.Game != 0 && a.Options.Width != 0:
		return Result{}, say.ReviewGameOrBoard(a.Game, a.Options.Width, a.Options.Height)
	case a.Game != 0:
		match, err := review.Reviewed(tx, a.Game, r.Room, r.User.ID)
		if err != nil {
			return Result{}, say.ReviewRefused(err)
		}
		if tree, err = game.TreeFromRecord(match.Record, say.SGFInfo(namer(tx), match)); err != nil {
			return Result{}, fmt.Errorf("game #%d: %w", match.ID, err)
		}
		title, gid = say.GameTitle(match.ID), match.ID
	case a.Options.Width != 0:
		if tree, err = game.NewTree(a.Options.Width, a.Options.Height); err != nil {
			return Result{}, errorf("%v", err)
		}
		title = say.BoardTitle(tree.Width, tree.Height)
	default:
		return Result{}, say.ReviewWhat()
	}
	rev, err := review.Open(tx, r.Room, r.User.ID, title, tree, gid, r.Time)
	if err != nil {
		return Result{}, err
	}
	var fx Effects
	fx.notify(protocol.Message{Room: r.Room, Reply: protocol.Reply{Text: say.ReviewOpened(r.User.ID, rev)}})
	return b.reviewLinks(fx, r, rl, say.ReviewOpen(rev), rev)
}

// sgfTree reads an attached SGF file's first game tree, variations,
// marks and comments included, within a tree's limits (game.ReadTreeSGF);
// what is wrong with it is said briefly.
func sgfTree(f *protocol.File) (*game.Tree, error) {
	if len(f.Data) > protocol.MaxRequestFile {
		return nil, say.SGFTooBig(len(f.Data))
	}
	tree, err := game.ReadTreeSGF(f.Data)
	switch {
	case errors.Is(err, game.ErrSGF):
		return nil, say.SGFUnread(err)
	case err != nil:
		return nil, say.SGFUnreviewable(err)
	}
	return tree, nil
}

// reviewLinks answers r with user's personal links to reviews: privately
// where the platform can, else in a direct message (a link is a
// credential), with lead before them.
func (b *core) reviewLinks(fx Effects, r *protocol.Request, rl ReviewLinker, lead string, revs ...*gobot.Review) (Result, error) {
	lines := []string{lead}
	for _, rev := range revs {
		url, expires, err := rl.ReviewLink(rev.ID, r.User.ID, rev.LinkGen[r.User.ID])
		if err != nil {
			return Result{}, err
		}
		lines = append(lines, say.ReviewLink(rev, url, expires))
	}
	link := protocol.Reply{Text: strings.Join(lines, "\n"), Private: true}
	if r.PrivateReplies() && !r.DM && len(revs) > 0 {
		// Open board: on Discord with the Activity on, it opens the
		// channel's reviews inside Discord (cmdReviews, Reply.Launch);
		// elsewhere it answers with the links again.
		link.Actions = []protocol.Action{{ID: protocol.Button{Command: "reviews", Review: revs[0].ID}.ID(), Label: "Open board"}}
	}
	if r.DM || r.PrivateReplies() {
		return reply(link, fx)
	}
	fx.notify(protocol.Message{To: r.User.ID, Reply: link})
	ack := protocol.Reply{Text: say.LinkInDM(lead), Private: true}
	if len(revs) == 1 && revs[0].Room == r.Room {
		// In a shared room (Matrix) the review's board becomes the
		// room's widget too, as a game's does for `web`.
		ack.Widget = b.reviewWidgetOf(r, revs[0])
	}
	return reply(ack, fx)
}

func cmdReviews(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	rl, err := b.reviewLinker()
	if err != nil {
		return Result{}, err
	}
	open, err := tx.RoomReviews(r.Room)
	if d := gobot.Damaged(err); d != nil {
		b.log.Error("corrupt record", "err", err)
	} else if err != nil {
		return Result{}, err
	}
	if len(open) == 0 {
		return Result{}, say.NoReviews()
	}
	if r.CanLaunch && r.PrivateReplies() && !r.DM {
		// An Open board button where the Activity runs: the Activity
		// opens in this room, where it shows (or lists) its open reviews.
		return Result{Reply: protocol.Reply{Text: say.ReviewHere(open[0].ID), Private: true, Launch: true}}, nil
	}
	return b.reviewLinks(Effects{}, r, rl, say.ReviewList(namer(tx), open), open...)
}

// manageReview ends (end) or keeps rev, the review the command means
// (review.Meant).
func manageReview(call *Call, rev *gobot.Review, end bool) (Result, error) {
	tx, r := call.Tx, call.Req
	var err error
	verb := "keeps"
	if end {
		verb, err = "ends", review.End(rev, r.User.ID, r.Admin, r.Time)
	} else {
		err = review.Keep(rev, r.User.ID, r.Admin)
	}
	if err != nil {
		return Result{}, say.ManageRefusal(namer(tx), rev, verb, err)
	}
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	if end {
		return closedReply(rev, say.ReviewEnded(r.User.ID, rev))
	}
	return Result{Reply: protocol.Reply{Text: say.ReviewKept(rev)}}, nil
}

// closedReply posts a closed review's record to its room.
func closedReply(rev *gobot.Review, lead string) (Result, error) {
	var buf bytes.Buffer
	if err := rev.Tree.WriteSGF(&buf); err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Room: rev.Room, Text: say.ReviewClosed(rev, lead),
		File: &protocol.File{Name: fmt.Sprintf("gobot-review-%d.sgf", rev.ID), MIME: "application/x-go-sgf", Data: buf.Bytes()}}}, nil
}

// byReviewDue lists the reviews whose timed work is due (gobot.Review.Due):
// an open review's idle close, a closed one's deletion. It is read each
// tick (not on time: a review's work can wait for the next tick).
var byReviewDue = &dueIndex{
	name: "reviews",
	list: func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error) {
		due, err := tx.DueReviews(now.Add(time.Nanosecond), 100)
		items := make([]dueItem, 0, len(due))
		for _, r := range due {
			items = append(items, dueItem{Review: r.ID, platform: r.Room.Platform(), At: r.Due(), Rev: r})
		}
		return items, err
	},
}

// reviewDue takes every review the index lists: it is due when idle or
// expired.
func reviewDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return true, item.Rev.Idle(now) || item.Rev.Expired(now)
}

// runReview closes an open review idle for gobot.ReviewIdle, posting its
// record to its room, and deletes a closed one past gobot.ReviewLife,
// not kept.
func runReview(c *JobCall) (Done, error) {
	rev, tx := c.Review, c.Tx
	switch review.Due(rev, c.Now) {
	case review.Expired:
		// No message: the room was told when it closed.
		if err := tx.DeleteReview(rev.ID); err != nil {
			return Done{}, err
		}
		return done("deleted", "", Effects{})
	case review.Waits:
		return Done{}, nil
	}
	if err := tx.PutReview(rev); err != nil {
		return Done{}, err
	}
	res, err := closedReply(rev, say.ReviewIdleClosed(rev))
	if err != nil {
		return Done{}, err
	}
	var fx Effects
	fx.notify(protocol.Message{Room: rev.Room, Reply: res.Reply})
	return done("closed", fmt.Sprintf("review %d idle", rev.ID), fx)
}

// ReviewAct makes a board's action on review id as user (the web board:
// navigation, variations, marks, comments, control, presence) in one
// transaction of the bot's store, and returns the review as stored. A
// refusal is a protocol refusal with friendly text and changes nothing.
func (b *Bot) ReviewAct(ctx context.Context, id gobot.ReviewID, user gobot.UserID, a gobot.ReviewAction) (*gobot.Review, error) {
	var out *gobot.Review
	err := b.write(ctx, func(tx gobot.Tx) error {
		rev, err := tx.Review(id)
		if errors.Is(err, gobot.ErrNotFound) {
			return say.ReviewGone(id)
		}
		if err != nil {
			return err
		}
		if err := rev.Apply(user, a, b.timeSource.Now()); err != nil {
			return say.ReviewRefusal(namer(tx), rev, err)
		}
		if err := tx.PutReview(rev); err != nil {
			return err
		}
		out = rev
		return nil
	})
	return out, err
}

// ReviewView reads review id and the display names of its people (its
// owner, controller and those present) in one read, for the review
// board. An unknown review is gobot.ErrNotFound.
func (b *Bot) ReviewView(ctx context.Context, id gobot.ReviewID) (*gobot.Review, map[gobot.UserID]string, error) {
	var rev *gobot.Review
	names := map[gobot.UserID]string{}
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		if rev, err = tx.Review(id); err != nil {
			return err
		}
		for _, u := range append([]gobot.UserID{rev.Owner, rev.Controller}, rev.Present...) {
			names[u] = displayName(tx, u)
		}
		return nil
	})
	return rev, names, err
}

// resetReviewLinks moves the caller's link generation in rev, the open
// review of the room the command means (review reset [r3]: the room's
// one open review without r3), which ends their earlier links and the
// boards opened with them, and gives them a new link.
func resetReviewLinks(call *Call, rl ReviewLinker, rev *gobot.Review) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	review.ResetLinks(rev, r.User.ID)
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	return b.reviewLinks(Effects{}, r, rl, say.ReviewLinksReset(rev.ID), rev)
}

// RoomReviews are the reviews open in room, for the Activity's list.
func (b *Bot) RoomReviews(ctx context.Context, room gobot.RoomID) ([]*gobot.Review, error) {
	var out []*gobot.Review
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		out, err = tx.RoomReviews(room)
		return err
	})
	return out, err
}
