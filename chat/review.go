package chat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
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

// maxRoomReviews bounds the open reviews of a room.
const maxRoomReviews = 10

func (b *core) reviewLinker() (ReviewLinker, error) {
	if rl, ok := b.linker().(ReviewLinker); ok {
		return rl, nil
	}
	return nil, errorf("Reviews happen on the web board, which is not enabled on this bot (its operator turns it on in the config's web: section).")
}

func cmdReview(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	rl, err := b.reviewLinker()
	if err != nil {
		return Result{}, err
	}
	switch a.Choice["action"] {
	case "end":
		return endReview(call, gobot.ReviewID(a.Game))
	case "keep":
		return keepReview(call, gobot.ReviewID(a.Game))
	case "reset":
		return resetReviewLinks(call, rl, gobot.ReviewID(a.Game))
	}
	open, err := tx.RoomReviews(r.Room)
	if err != nil && gobot.Damaged(err) == nil {
		return Result{}, err
	}
	if len(open) >= maxRoomReviews {
		return Result{}, errorf("This room has %d open reviews already; %s closes yours (%s lists them).", len(open), b.cmd("review end"), b.cmd("reviews"))
	}
	var (
		tree  *game.Tree
		title string
		gid   gobot.GameID
	)
	switch {
	case r.File != nil && (a.Game != 0 || a.Options.Width != 0):
		return Result{}, errorf("Review the attached file, a game or an empty board: one of them.")
	case r.File != nil:
		if tree, err = sgfTree(r.File); err != nil {
			return Result{}, err
		}
		title = "an SGF file"
		if name := protocol.Echo(strings.TrimSuffix(r.File.Name, ".sgf")); r.File.Name != "" {
			title = "the SGF file " + name
		}
	case a.Game != 0 && a.Options.Width != 0:
		return Result{}, errorf("Review a game (%s) or an empty board (%s), not both.", b.cmd(fmt.Sprintf("review #%d", a.Game)), b.cmd("review "+game.SizeString(a.Options.Width, a.Options.Height)))
	case a.Game != 0:
		match, err := tx.Match(a.Game)
		if errors.Is(err, gobot.ErrNotFound) {
			return Result{}, errorf("There is no game #%d.", a.Game)
		}
		if err != nil {
			return Result{}, err
		}
		if match.Active() {
			return Result{}, errorf("Game #%d is still being played: review it once it has ended.", match.ID)
		}
		if match.ColorOf(r.User.ID) == game.Empty && match.Room != r.Room && match.Parent != r.Room {
			return Result{}, errorf("Game #%d was played in another room: review it there, or ask one of its players.", match.ID)
		}
		if tree, err = game.TreeFromRecord(match.Record, sgfInfo(tx, match)); err != nil {
			return Result{}, fmt.Errorf("game #%d: %w", match.ID, err)
		}
		title, gid = fmt.Sprintf("game #%d", match.ID), match.ID
	case a.Options.Width != 0:
		if tree, err = game.NewTree(a.Options.Width, a.Options.Height); err != nil {
			return Result{}, errorf("%v", err)
		}
		title = "an empty " + game.SizeString(tree.Width, tree.Height) + " board"
	default:
		return Result{}, errorf("Say what to review: %s (a finished game), %s (an empty board), or attach an SGF file; %s or %s.",
			b.cmd("review #12"), b.cmd("review 19"), b.cmd("review end"), b.cmd("review keep"))
	}
	rev := gobot.NewReview(r.Room, r.User.ID, title, tree, r.Time)
	rev.Game = gid
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	var fx Effects
	fx.notify(protocol.Message{Room: r.Room, Reply: protocol.Reply{Text: fmt.Sprintf("%s opened review #%d of %s: the board follows them as they show moves, variations and marks. %s gives you your link to follow it.",
		protocol.Mention(r.User.ID), rev.ID, title, b.cmd("reviews"))}})
	return b.reviewLinks(fx, r, rl, fmt.Sprintf("Review #%d of %s is open, and you control it.", rev.ID, title), rev)
}

// sgfTree reads an attached SGF file's first game tree, variations,
// marks and comments included; what is wrong with it is said briefly.
func sgfTree(f *protocol.File) (*game.Tree, error) {
	if len(f.Data) > protocol.MaxRequestFile {
		return nil, errorf("The attached file is %d KB; a file to review is at most %d KB.", len(f.Data)>>10, protocol.MaxRequestFile>>10)
	}
	roots, err := game.ParseSGF(f.Data)
	if errors.Is(err, game.ErrNotSGF) {
		return nil, errorf("The attached file is not an SGF game record (it should start with \"(;\").")
	}
	if err != nil {
		return nil, errorf("The attached SGF file cannot be read: %s.", clipRefusal(err.Error()))
	}
	tree, err := game.TreeFromSGF(roots[0])
	if err != nil {
		return nil, errorf("The attached SGF file has a game I cannot review: %s.", clipRefusal(err.Error()))
	}
	return tree, nil
}

// clipRefusal keeps an error's text short enough for a refusal.
func clipRefusal(s string) string {
	const n = 160
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for len(s) > 0 && !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "…"
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
		lines = append(lines, fmt.Sprintf("Review #%d (%s), your personal link until %s; keep it to yourself:\n%s", rev.ID, rev.Title, expires.UTC().Format("2 Jan 2006"), url))
	}
	link := protocol.Reply{Text: strings.Join(lines, "\n"), Private: true}
	if r.PrivateReplies && !r.DM && len(revs) > 0 {
		// Open board: on Discord with the Activity on, it opens the
		// channel's reviews inside Discord (cmdReviews, Reply.Launch);
		// elsewhere it answers with the links again.
		link.Actions = []protocol.Action{{ID: protocol.Button{Command: "reviews", Review: revs[0].ID}.ID(), Label: "Open board"}}
	}
	if r.DM || r.PrivateReplies {
		return reply(link, fx)
	}
	fx.notify(protocol.Message{To: r.User.ID, Reply: link})
	ack := protocol.Reply{Text: lead + " I sent you the link in a direct message.", Private: true}
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
		return Result{}, errorf("No review is open in this room. %s starts one on a finished game, %s on an empty board.", b.cmd("review #12"), b.cmd("review 19"))
	}
	if r.CanLaunch && r.PrivateReplies && !r.DM {
		// An Open board button where the Activity runs: the Activity
		// opens in this room, where it shows (or lists) its open reviews.
		return Result{Reply: protocol.Reply{Text: fmt.Sprintf("Review #%d is open here.", open[0].ID), Private: true, Launch: true}}, nil
	}
	var lines []string
	for _, rev := range open {
		lines = append(lines, fmt.Sprintf("#%d: %s, by %s; %s in control, %d on the board", rev.ID, rev.Title, displayName(tx, rev.Owner), displayName(tx, rev.Controller), len(rev.Present)))
	}
	return b.reviewLinks(Effects{}, r, rl, "Open reviews here:\n"+strings.Join(lines, "\n"), open...)
}

// findReview returns the review id names, or (0) the caller's one open
// review in the room: one they started or control.
func findReview(call *Call, id gobot.ReviewID) (*gobot.Review, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	if id != 0 {
		rev, err := tx.Review(id)
		if errors.Is(err, gobot.ErrNotFound) || (err == nil && rev.Room != r.Room) {
			return nil, errorf("There is no review #%d in this room. %s lists them.", id, b.cmd("reviews"))
		}
		return rev, err
	}
	open, err := tx.RoomReviews(r.Room)
	if err != nil && gobot.Damaged(err) == nil {
		return nil, err
	}
	var mine []*gobot.Review
	for _, rev := range open {
		if rev.Owner == r.User.ID || rev.Controller == r.User.ID {
			mine = append(mine, rev)
		}
	}
	switch len(mine) {
	case 0:
		return nil, errorf("You have no open review in this room. %s lists the room's.", b.cmd("reviews"))
	case 1:
		return mine[0], nil
	}
	return nil, errorf("You have %d open reviews here: say which, like %s.", len(mine), b.cmd(fmt.Sprintf("review end #%d", mine[0].ID)))
}

// mayManage reports whether r's caller may end or keep rev: who started
// it, who controls it, or a room admin.
func mayManage(r *protocol.Request, rev *gobot.Review) bool {
	return r.User.ID == rev.Owner || r.User.ID == rev.Controller || r.Admin
}

func endReview(call *Call, id gobot.ReviewID) (Result, error) {
	tx, r := call.Tx, call.Req
	rev, err := findReview(call, id)
	if err != nil {
		return Result{}, err
	}
	if rev.Closed {
		return Result{}, errorf("Review #%d is closed already.", rev.ID)
	}
	if !mayManage(r, rev) {
		return Result{}, errorf("Only %s (who started review #%d), whoever controls it or a room admin ends it.", displayName(tx, rev.Owner), rev.ID)
	}
	rev.Closed, rev.Updated = true, r.Time
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	return closedReply(rev, fmt.Sprintf("%s ended review #%d (%s).", protocol.Mention(r.User.ID), rev.ID, rev.Title))
}

// closedReply posts a closed review's record to its room.
func closedReply(rev *gobot.Review, lead string) (Result, error) {
	var buf bytes.Buffer
	if err := rev.Tree.WriteSGF(&buf); err != nil {
		return Result{}, err
	}
	keep := " It is deleted 30 days after it began, unless kept (`review keep #" + fmt.Sprint(rev.ID) + "`)."
	if rev.Kept {
		keep = " It is kept."
	}
	return Result{Reply: protocol.Reply{Room: rev.Room, Text: lead + " Its record, with its variations, marks and comments, is attached." + keep,
		File: &protocol.File{Name: fmt.Sprintf("gobot-review-%d.sgf", rev.ID), MIME: "application/x-go-sgf", Data: buf.Bytes()}}}, nil
}

func keepReview(call *Call, id gobot.ReviewID) (Result, error) {
	tx, r := call.Tx, call.Req
	rev, err := findReview(call, id)
	if err != nil {
		return Result{}, err
	}
	if !mayManage(r, rev) {
		return Result{}, errorf("Only %s (who started review #%d), whoever controls it or a room admin keeps it.", displayName(tx, rev.Owner), rev.ID)
	}
	if rev.Kept {
		return Result{}, errorf("Review #%d is kept already.", rev.ID)
	}
	rev.Kept = true
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Text: fmt.Sprintf("Review #%d (%s) is kept: it stays after 30 days.", rev.ID, rev.Title)}}, nil
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
	rev, tx, now := c.Review, c.Tx, c.Now
	switch {
	case rev.Expired(now):
		// No message: the room was told when it closed.
		if err := tx.DeleteReview(rev.ID); err != nil {
			return Done{}, err
		}
		return done("deleted", "", Effects{})
	case !rev.Idle(now):
		return Done{}, nil
	}
	rev.Closed = true
	if err := tx.PutReview(rev); err != nil {
		return Done{}, err
	}
	res, err := closedReply(rev, fmt.Sprintf("Review #%d (%s) was closed after two days without a change.", rev.ID, rev.Title))
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
			return errorf("Review #%d no longer exists.", id)
		}
		if err != nil {
			return err
		}
		if err := rev.Apply(user, a, b.timeSource.Now()); err != nil {
			return reviewRefusal(tx, rev, err)
		}
		if err := tx.PutReview(rev); err != nil {
			return err
		}
		out = rev
		return nil
	})
	return out, err
}

// reviewRefusal turns an error of a review's action into words.
func reviewRefusal(tx gobot.Tx, rev *gobot.Review, err error) error {
	switch {
	case errors.Is(err, gobot.ErrReviewClosed):
		return errorf("Review #%d is closed: the board only shows it now.", rev.ID)
	case errors.Is(err, gobot.ErrNotController):
		return errorf("%s has control of the board; ask them to hand it to you.", displayName(tx, rev.Controller))
	case errors.Is(err, gobot.ErrNotOwner):
		return errorf("Only %s, who started the review, takes control back.", displayName(tx, rev.Owner))
	case errors.Is(err, gobot.ErrNotPresent):
		return errorf("Control goes to someone on the board now; they have left.")
	case errors.Is(err, game.ErrNoNode):
		return errorf("That position is not in this review.")
	case errors.Is(err, game.ErrTreeFull):
		return errorf("This review holds no more positions (%d).", game.MaxTreeNodes)
	case errors.Is(err, game.ErrLongComment):
		return errorf("A comment is at most %d bytes.", game.MaxCommentLen)
	case errors.Is(err, game.ErrBadMark):
		return errorf("A mark is a triangle, square, circle or a label of 1 to %d letters, on a point of the board.", game.MaxLabelLen)
	case errors.Is(err, game.ErrOccupied), errors.Is(err, game.ErrKo), errors.Is(err, game.ErrSuicide), errors.Is(err, game.ErrOffBoard):
		return errorf("%s", err.Error())
	case errors.Is(err, gobot.ErrReviewAction):
		return errorf("That is not an action of the review board.")
	}
	return err
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

// resetReviewLinks moves the caller's link generation in a review of the
// room on (review reset [#3]: the room's one open review without #3),
// which ends their earlier links and the boards opened with them, and
// gives them a new link.
func resetReviewLinks(call *Call, rl ReviewLinker, id gobot.ReviewID) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	var rev *gobot.Review
	if id != 0 {
		got, err := tx.Review(id)
		if errors.Is(err, gobot.ErrNotFound) || (err == nil && (got.Room != r.Room || got.Closed)) {
			return Result{}, errorf("There is no open review #%d in this room. %s lists them.", id, b.cmd("reviews"))
		}
		if err != nil {
			return Result{}, err
		}
		rev = got
	} else {
		open, err := tx.RoomReviews(r.Room)
		if err != nil {
			return Result{}, err
		}
		switch len(open) {
		case 0:
			return Result{}, errorf("No review is open in this room. %s lists them.", b.cmd("reviews"))
		case 1:
			rev = open[0]
		default:
			return Result{}, errorf("This room has %d open reviews: say which, like %s.", len(open), b.cmd(fmt.Sprintf("review reset #%d", open[0].ID)))
		}
	}
	if rev.LinkGen == nil {
		rev.LinkGen = map[gobot.UserID]uint64{}
	}
	rev.LinkGen[r.User.ID]++
	if err := tx.PutReview(rev); err != nil {
		return Result{}, err
	}
	return b.reviewLinks(Effects{}, r, rl, fmt.Sprintf("Your earlier links to review #%d no longer work, nor the boards opened with them.", rev.ID), rev)
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
