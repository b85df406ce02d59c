package say

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow/review"
	"github.com/gobotgo/gobot/game"
)

// NoReviewBoard refuses a review where the web board is off.
func NoReviewBoard() error {
	return Refusef("Reviews happen on the web board, which is not enabled on this bot (its operator turns it on in the config's web: section).")
}

// ReviewOneSource refuses a review of an attached file and something else.
func ReviewOneSource() error {
	return Refusef("Review the attached file, a game or an empty board: one of them.")
}

// ReviewGameOrBoard refuses a review of game id and of an empty w×h board.
func ReviewGameOrBoard(id gobot.GameID, w, h int) error {
	return Refusef("Review a game (%s) or an empty board (%s), not both.", Cmd(fmt.Sprintf("review #%d", id)), Cmd("review "+game.SizeString(w, h)))
}

// ReviewWhat refuses a review of nothing, saying what can be reviewed.
func ReviewWhat() error {
	return Refusef("Say what to review: %s (a finished game), %s (an empty board), or attach an SGF file; %s or %s.",
		Cmd("review #12"), Cmd("review 19"), Cmd("review end"), Cmd("review keep"))
}

// SGFTitle is a review's title for an attached SGF file called name
// ("" when it has none).
func SGFTitle(name string) string {
	if name == "" {
		return "an SGF file"
	}
	return "the SGF file " + protocol.Echo(strings.TrimSuffix(name, ".sgf"))
}

// GameTitle is a review's title for game id.
func GameTitle(id gobot.GameID) string { return fmt.Sprintf("game #%d", id) }

// BoardTitle is a review's title for an empty w×h board.
func BoardTitle(w, h int) string { return "an empty " + game.SizeString(w, h) + " board" }

// ReviewOpened tells the room that user opened rev.
func ReviewOpened(user gobot.UserID, rev *gobot.Review) string {
	return fmt.Sprintf("%s opened review %s of %s: the board follows them as they show moves, variations and marks. %s gives you your link to follow it.",
		protocol.Mention(user), rev.ID.Ref(), rev.Title, Cmd("reviews"))
}

// ReviewOpen tells who opened rev that it is open, before their link.
func ReviewOpen(rev *gobot.Review) string {
	return fmt.Sprintf("Review %s of %s is open, and you control it.", rev.ID.Ref(), rev.Title)
}

// SGFTooBig refuses an attached file of size bytes, too big to review.
func SGFTooBig(size int) error {
	return Refusef("%s", protocol.FileTooBig("The attached file", int64(size)))
}

// SGFUnread refuses an attached file that is no SGF record
// (game.ErrNotSGF) or cannot be read (err).
func SGFUnread(err error) error {
	if errors.Is(err, game.ErrNotSGF) {
		return Refusef("The attached file is not an SGF game record (it should start with \"(;\").")
	}
	return Refusef("The attached SGF file cannot be read: %s.", ClipRefusal(err.Error()))
}

// SGFUnreviewable refuses an attached SGF file whose game cannot be
// reviewed (err): one beyond a review's limits says which.
func SGFUnreviewable(err error) error {
	switch {
	case errors.Is(err, game.ErrTreeFull):
		return Refusef("The attached SGF file is too big to review: it has more than %d positions (moves and variations), and a review holds at most that.", game.MaxTreeNodes)
	case errors.Is(err, game.ErrTreePoints):
		return Refusef("The attached SGF file is too big to review: its setup stones and marks come to more than %d points (each counted once a position), and a review holds at most that.", game.MaxTreePoints)
	case errors.Is(err, game.ErrTreeText):
		return Refusef("The attached SGF file is too big to review: its comments and labels come to more than %d KB, and a review holds at most that.", game.MaxTreeText>>10)
	}
	return Refusef("The attached SGF file has a game I cannot review: %s.", ClipRefusal(err.Error()))
}

// ClipRefusal keeps an error's text short enough for a refusal.
func ClipRefusal(s string) string {
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

// ReviewLink is a line giving the reader's personal link url to rev,
// which works until expires.
func ReviewLink(rev *gobot.Review, url string, expires time.Time) string {
	return fmt.Sprintf("Review %s (%s), your personal link until %s; keep it to yourself:\n%s", rev.ID.Ref(), rev.Title, expires.UTC().Format("2 Jan 2006"), url)
}

// LinkInDM acknowledges, after lead, a link sent in a direct message.
func LinkInDM(lead string) string { return lead + " I sent you the link in a direct message." }

// NoReviews refuses to list the reviews of a room with none open.
func NoReviews() error {
	return Refusef("No review is open in this room. %s starts one on a finished game, %s on an empty board.", Cmd("review #12"), Cmd("review 19"))
}

// ReviewHere says that review id is open in the room (the Activity
// opens on it).
func ReviewHere(id gobot.ReviewID) string { return fmt.Sprintf("Review %s is open here.", id.Ref()) }

// ReviewList lists a room's open reviews, before their links.
func ReviewList(n Namer, open []*gobot.Review) string {
	lines := []string{"Open reviews here:"}
	for _, rev := range open {
		lines = append(lines, fmt.Sprintf("%s: %s, by %s; %s in control, %d on the board", rev.ID.Ref(), rev.Title, n.Name(rev.Owner), n.Name(rev.Controller), len(rev.Present)))
	}
	return strings.Join(lines, "\n")
}

// ReviewLinksReset says the caller's earlier links to review id ended.
func ReviewLinksReset(id gobot.ReviewID) string {
	return fmt.Sprintf("Your earlier links to review %s no longer work, nor the boards opened with them.", id.Ref())
}

// ManageRefusal words a refusal of review.End or review.Keep;
// verb is what was refused ("ends", "keeps").
func ManageRefusal(n Namer, rev *gobot.Review, verb string, err error) error {
	switch {
	case errors.Is(err, gobot.ErrReviewClosed):
		return Refusef("Review %s is closed already.", rev.ID.Ref())
	case errors.Is(err, review.ErrKept):
		return Refusef("Review %s is kept already.", rev.ID.Ref())
	case errors.Is(err, review.ErrNotManager):
		return Refusef("Only %s (who started review %s), whoever controls it or a room admin %s it.", n.Name(rev.Owner), rev.ID.Ref(), verb)
	}
	return err
}

// ReviewEnded says that user ended rev, before its record.
func ReviewEnded(user gobot.UserID, rev *gobot.Review) string {
	return fmt.Sprintf("%s ended review %s (%s).", protocol.Mention(user), rev.ID.Ref(), rev.Title)
}

// ReviewIdleClosed says that rev was closed idle, before its record.
func ReviewIdleClosed(rev *gobot.Review) string {
	return fmt.Sprintf("Review %s (%s) was closed after two days without a change.", rev.ID.Ref(), rev.Title)
}

// ReviewClosed is the message posting closed review rev's record, after
// lead, which says how it closed.
func ReviewClosed(rev *gobot.Review, lead string) string {
	keep := " It is deleted 30 days after it began, unless kept (" + Cmd("review keep "+rev.ID.Ref()) + ")."
	if rev.Kept {
		keep = " It is kept."
	}
	return lead + " Its record, with its variations, marks and comments, is attached." + keep
}

// ReviewKept says that rev is kept.
func ReviewKept(rev *gobot.Review) string {
	return fmt.Sprintf("Review %s (%s) is kept: it stays after 30 days.", rev.ID.Ref(), rev.Title)
}

// ReviewGone refuses an action on review id, which no longer exists.
func ReviewGone(id gobot.ReviewID) error { return Refusef("Review %s no longer exists.", id.Ref()) }

// ReviewRefusal words an error of a review board's action on rev
// (gobot.Review.Apply); other errors are returned as they are.
func ReviewRefusal(n Namer, rev *gobot.Review, err error) error {
	switch {
	case errors.Is(err, gobot.ErrReviewClosed):
		return Refusef("Review %s is closed: the board only shows it now.", rev.ID.Ref())
	case errors.Is(err, gobot.ErrNotController):
		return Refusef("%s has control of the board; ask them to hand it to you.", n.Name(rev.Controller))
	case errors.Is(err, gobot.ErrNotOwner):
		return Refusef("Only %s, who started the review, takes control back.", n.Name(rev.Owner))
	case errors.Is(err, gobot.ErrNotPresent):
		return Refusef("Control goes to someone on the board now; they have left.")
	case errors.Is(err, game.ErrNoNode):
		return Refusef("That position is not in this review.")
	case errors.Is(err, game.ErrTreeFull):
		return Refusef("This review holds no more positions (%d).", game.MaxTreeNodes)
	case errors.Is(err, game.ErrTreePoints):
		return Refusef("This review holds no more marks: its setup stones and marks come to %d, the most a review holds. Take a mark off first.", game.MaxTreePoints)
	case errors.Is(err, game.ErrTreeText):
		return Refusef("This review holds no more comment text: its comments and labels come to %d KB, the most a review holds. Shorten a comment first.", game.MaxTreeText>>10)
	case errors.Is(err, game.ErrLongComment):
		return Refusef("A comment is at most %d bytes.", game.MaxCommentLen)
	case errors.Is(err, game.ErrBadMark):
		return Refusef("A mark is a triangle, square, circle or a label of 1 to %d letters, on a point of the board.", game.MaxLabelLen)
	case errors.Is(err, game.ErrOccupied), errors.Is(err, game.ErrKo), errors.Is(err, game.ErrSuicide), errors.Is(err, game.ErrOffBoard):
		return Refusef("%s", err.Error())
	case errors.Is(err, gobot.ErrReviewAction):
		return Refusef("That is not an action of the review board.")
	}
	return err
}

// ReviewRefused words a review.Refusal (other errors are returned
// as they are).
func ReviewRefused(err error) error {
	var e review.Refusal
	if !errors.As(err, &e) {
		return err
	}
	switch e.Problem {
	case review.TooMany:
		return Refusef("This room has %d open reviews already; %s closes yours (%s lists them).", e.N, Cmd("review end"), Cmd("reviews"))
	case review.NoGame:
		return Refusef("There is no game #%d.", e.Game)
	case review.StillPlayed:
		return Refusef("Game #%d is still being played: review it once it has ended.", e.Game)
	case review.Elsewhere:
		return Refusef("Game #%d was played in another room: review it there, or ask one of its players.", e.Game)
	case review.NoSuchOpen:
		return Refusef("There is no open review %s in this room. %s lists them.", e.Review.Ref(), Cmd("reviews"))
	case review.NoSuch:
		return Refusef("There is no review %s in this room. %s lists them.", e.Review.Ref(), Cmd("reviews"))
	case review.NoneOfYours:
		return Refusef("You have no open review in this room. %s lists the room's.", Cmd("reviews"))
	case review.NoneOpen:
		return Refusef("No review is open in this room. %s lists them.", Cmd("reviews"))
	case review.WhichOfYours:
		return Refusef("You have %d open reviews here: say which, like %s.", e.N, Cmd(reviewLine(e.Action, e.Review)))
	case review.WhichOfRoom:
		return Refusef("This room has %d open reviews: say which, like %s.", e.N, Cmd(reviewLine(e.Action, e.Review)))
	case review.WhichOfGame:
		return Refusef("Game #%d has %d open reviews here: say which, like %s (%s lists them).", e.Game, e.N, Cmd(reviewLine(e.Action, e.Review)), Cmd("reviews"))
	case review.GameAndReview:
		return Refusef("Name the review (%s) or its game (#%d), not both.", e.Review.Ref(), e.Game)
	case review.NotAReview:
		example := "r3"
		if e.Review != 0 {
			example = e.Review.Ref()
		}
		return Refusef("#%d is a game, and no review of it is open here. A review is written like %s: %s (%s lists them).", e.Game, example, Cmd(reviewLine(e.Action, e.Review)), Cmd("reviews"))
	}
	return err
}

// reviewLine is the command that does action (end, keep, reset) to
// review id (0: an example's r3).
func reviewLine(action string, id gobot.ReviewID) string {
	if action == "" {
		action = "end"
	}
	if id == 0 {
		id = 3
	}
	return "review " + action + " " + id.Ref()
}

// ReviewNamed refuses a review named with no action (review r5): a
// review is opened from a game, a board or a file, and r5 is open
// already.
func ReviewNamed(id gobot.ReviewID) error {
	return Refusef("%s is a review: %s gives you your link to it, and %s closes it. To open a review, name a game like #12, a board size like 19, or attach an SGF file.", id.Ref(), Cmd("reviews"), Cmd("review end "+id.Ref()))
}
