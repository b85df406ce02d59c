package chat

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Ladders (docs/tournaments.md, "Ladders"): `ladder new …` makes one in
// the room, players join at the bottom and challenge up to the ladder's
// range above; a challenge's game is made at once by flow
// (flow/ladder.go) and played as any game is; its end moves the rungs in
// the transaction that ended it, and says so under the game's result
// (ladderLine). A challenge not answered in time is forfeited through
// the runner (the ladder job below), announced once.

// ladderActions are the ladder command's verbs; none is show.
var ladderActions = []string{"new", "join", "leave", "challenge", "show", "close"}

// ladderLooks: the verbs that only look.
func ladderLooks(a *protocol.Args) bool {
	act := a.Choice["action"]
	return act == "" || act == "show"
}

func cmdLadder(call *Call) (Result, error) {
	tx, r, a, b := call.Tx, call.Req, call.Args, call.bot
	me := tournament.PlayerID(r.User.ID)
	action := a.Choice["action"]
	if action == "new" {
		return ladderNew(call)
	}
	id, words, err := ladderRef(a.Text)
	if err != nil {
		return Result{}, err
	}
	l, err := flow.FindLadder(tx, b.where(r), id)
	if err != nil {
		return Result{}, say.LadderRefused(err, me)
	}
	if a.User != "" && action != "challenge" && action != "leave" {
		return Result{}, say.Refusef("%s names no player; to challenge one, say %s.", say.Cmd(strings.TrimSpace("ladder "+action)), say.Cmd("ladder challenge @name"))
	}
	var fx Effects
	var text string
	var draw *protocol.Drawing
	switch action {
	case "", "show":
		if text, draw, err = ladderText(call, l, words); err == nil {
			text, err = b.withLadderPage(l, text)
		}
	case "join":
		if err = flow.JoinLadder(tx, l, r.User.ID); err == nil {
			err = b.rememberUser(tx, r.User, r.Time)
			text = say.LadderJoined(l, r.User.ID)
		}
	case "leave":
		u := r.User.ID
		if a.User != "" && a.User != u {
			if l.Organiser != r.User.ID && !r.Admin {
				return Result{}, say.LadderRefused(flow.LadderRefusal{Problem: flow.NotLadderOrganiser, Ladder: l}, me)
			}
			u = a.User
		}
		var o *flow.LadderLeft
		if o, err = flow.LeaveLadder(tx, b.engines(), l, u, r.Time); err == nil {
			var ids []gobot.GameID
			for _, g := range o.Aborted {
				ids = append(ids, g.Match.ID)
				rep := b.gameReplyAt(&fx, tx, &loaded{Loaded: g}, occasion{Room: g.Match.Room, At: r.Time, By: r.User.ID}, say.LadderAbandoned(l, u))
				fx.notify(protocol.Message{Room: g.Match.Room, Reply: rep})
			}
			text = say.LadderLeft(l, u, r.User.ID, ids)
		}
	case "challenge":
		return ladderChallenge(call, l)
	case "close":
		if l.Organiser != r.User.ID && !r.Admin {
			return Result{}, say.LadderRefused(flow.LadderRefusal{Problem: flow.NotLadderOrganiser, Ladder: l}, me)
		}
		if err = flow.CloseLadder(tx, l); err == nil {
			text = say.LadderClosedNow(l)
		}
	}
	if err != nil {
		return Result{}, say.LadderRefused(err, me)
	}
	if draw != nil {
		draw.Theme = playerIn(tx, r.User.ID).Theme
	}
	return reply(protocol.Reply{Title: say.LadderName(l), Text: text, Draw: draw}, fx)
}

// ladderChallenge is `ladder challenge @x`: the challenge opened and its
// game begun at once, its board the reply.
func ladderChallenge(call *Call, l *gobot.Ladder) (Result, error) {
	tx, r, b := call.Tx, call.Req, call.bot
	if call.Args.User == "" {
		return Result{}, say.Refusef("Name the player you challenge, like %s; %s shows who is above you.", say.Cmd("ladder challenge @alice"), say.Cmd("ladder"))
	}
	o, err := flow.ChallengeOnLadder(tx, b.cfg.Vacation, l, r.User.ID, call.Args.User, r.Time)
	if err != nil {
		return Result{}, say.LadderRefused(err, tournament.PlayerID(r.User.ID))
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	if err := b.mirrorEventGame(tx, l.Community, o.Game.Match); err != nil { // mirror.go
		return Result{}, err
	}
	var fx Effects
	rung := flow.LadderRules(l).Rung(tournament.PlayerID(o.Challenge.Defender))
	rep := b.gameReply(&fx, tx, &loaded{Loaded: o.Game}, r, say.LadderChallenged(l, o.Challenge, rung))
	rep.Mentions = o.Game.Match.Players()
	return reply(rep, fx)
}

// ladderRef takes a ladder reference ("L2") off words.
func ladderRef(words []string) (gobot.LadderID, []string, error) {
	for i, w := range words {
		lw := strings.ToLower(w)
		if len(lw) > 1 && lw[0] == 'l' && protocol.AllDigits(lw[1:]) {
			n, err := strconv.ParseUint(lw[1:], 10, 63)
			if err != nil || n == 0 {
				return 0, nil, say.Refusef("%s is no ladder number; ladders are named like L2.", protocol.Echo(w))
			}
			return gobot.LadderID(n), append(words[:i:i], words[i+1:]...), nil
		}
	}
	return 0, words, nil
}

// ladderText is the ladder as a text table, a page of it (page=N).
func ladderText(call *Call, l *gobot.Ladder, words []string) (string, *protocol.Drawing, error) {
	page := 1
	for _, w := range words {
		v, ok := strings.CutPrefix(strings.ToLower(w), "page=")
		n, err := strconv.Atoi(v)
		switch {
		case !ok:
			return "", nil, say.Refusef("%s is not something %s takes: it takes page=2, or a ladder like L2.", protocol.Echo(w), say.Cmd("ladder show"))
		case err != nil || n < 1:
			return "", nil, say.Refusef("page=%s: pages are numbered from 1.", protocol.ClipArg(v))
		}
		page = n
	}
	rules := flow.LadderRules(l)
	text, err := say.LadderTable(namer(call.Tx), rules, say.Paging{Page: page, Command: "ladder show"})
	if err != nil || page != 1 || len(l.Rungs) == 0 {
		return text, nil, err
	}
	// The first page comes with the ladder's top as an image, drawn
	// after the commit: the names it shows are read now.
	draw := &protocol.Drawing{Ladder: rules, Rows: ladderImageRows, Title: l.Name, Names: map[tournament.PlayerID]string{}}
	for _, u := range l.Rungs[:min(len(l.Rungs), ladderImageRows)] {
		draw.Names[tournament.PlayerID(u)] = displayName(call.Tx, u)
	}
	return text, draw, nil
}

// ladderImageRows is how many rungs the ladder's image shows: its top.
const ladderImageRows = 40

// LadderLinker mints the link to a ladder's web page (package chat/web
// implements it beside Linker): every rung, the open challenges with
// their games' boards, and the latest results. The page is the room's,
// as the ladder is: the link is posted in the ladder's room.
type LadderLinker interface {
	LadderLink(id gobot.LadderID) (url string, expires time.Time, err error)
}

// withLadderPage adds the link to l's web page under text when the bot
// has a web board (text alone when it has none).
func (b *core) withLadderPage(l *gobot.Ladder, text string) (string, error) {
	ll, ok := b.linker().(LadderLinker)
	if !ok {
		return text, nil
	}
	return withPage(text, say.LadderPage)(ll.LadderLink(l.ID))
}

// withPage is text with, under it, a page's link (url, expires, err as
// a linker mints them) in words's words.
func withPage(text string, words func(url string, expires time.Time) string) func(url string, expires time.Time, err error) (string, error) {
	return func(url string, expires time.Time, err error) (string, error) {
		if err != nil {
			return "", err
		}
		return text + "\n" + words(url, expires), nil
	}
}

// LadderView reads ladder id for its web page, with the names of its
// players, in one read. An unknown ladder is gobot.ErrNotFound.
func (b *Bot) LadderView(ctx context.Context, id gobot.LadderID) (*gobot.Ladder, map[gobot.UserID]string, error) {
	var l *gobot.Ladder
	names := map[gobot.UserID]string{}
	err := b.query(ctx, func(tx gobot.Tx) error {
		var err error
		if l, err = tx.Ladder(id); err != nil {
			return err
		}
		for _, u := range l.Rungs {
			names[u] = displayName(tx, u)
		}
		for _, c := range l.Log {
			for _, u := range []gobot.UserID{c.Challenger, c.Defender} {
				if _, ok := names[u]; !ok {
					names[u] = displayName(tx, u)
				}
			}
		}
		return nil
	})
	return l, names, err
}

// Ladders' defaults.
const (
	defaultLadderRange   = 3
	defaultLadderForfeit = 3 * 24 * time.Hour
	maxLadderForfeit     = 90 * 24 * time.Hour
)

// ladderNew makes a ladder from `ladder new "Room ladder" size=19
// clock=3d challenge=3 forfeit=3d rated=yes`; its maker organises it.
func ladderNew(call *Call) (Result, error) {
	tx, r := call.Tx, call.Req
	l, err := parseLadder(call.Args.Text)
	if err != nil {
		return Result{}, err
	}
	l.Room, l.Organiser, l.Community = r.Room, r.User.ID, communityOf(r)
	if err := flow.NewLadder(tx, l, r.Time); err != nil {
		return Result{}, say.Refusef("That ladder cannot be made: %s.", strings.TrimPrefix(err.Error(), "gobot: "))
	}
	return reply(protocol.Reply{Title: say.LadderName(l), Text: say.LadderMade(l)}, Effects{})
}

// parseLadder reads a new ladder's words.
func parseLadder(words []string) (*gobot.Ladder, error) {
	name, rest, err := splitName(strings.Join(words, " "))
	switch {
	case err != nil:
		return nil, err
	case name == "":
		return nil, say.Refusef("A ladder needs a name: %s.", say.Cmd(`ladder new "Room ladder" challenge=3`))
	case len(name) > gobot.MaxEventName:
		return nil, say.Refusef("A ladder's name is at most %d bytes; that one has %d.", gobot.MaxEventName, len(name))
	}
	l := &gobot.Ladder{Name: name, Size: 19, ChallengeRange: defaultLadderRange, ForfeitAfter: defaultLadderForfeit,
		Clock: gobot.TimeControl{Kind: gobot.PerMove, PerMove: 3 * 24 * time.Hour}, Rules: game.Rules{Komi: 6.5}}
	if p, err := game.Preset("japanese"); err == nil {
		l.Rules = p
	}
	var opts []string // the games' options: size, rules, komi, clock
	for _, w := range strings.Fields(rest) {
		lw := strings.ToLower(w)
		k, v, ok := strings.Cut(lw, "=")
		if !ok {
			return nil, say.Refusef("%s is not a ladder option; options are like challenge=3 or clock=3d (the name goes in quotes).", protocol.Echo(w))
		}
		switch k {
		case "challenge", "range", "reach":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > tournament.MaxLadderPlayers {
				return nil, say.Refusef("challenge=%s: how many places above a player may challenge, 1 or more (like challenge=3).", protocol.ClipArg(v))
			}
			l.ChallengeRange = n
		case "forfeit", "answer":
			if d, ok := protocol.ParseBool(v); ok && !d || v == "none" {
				l.ForfeitAfter = 0
				continue
			}
			d, err := protocol.ParseClock(v)
			if err != nil || d.Kind != gobot.PerMove || d.PerMove < time.Minute || d.PerMove > maxLadderForfeit {
				return nil, say.Refusef("forfeit=%s: how long a challenge may go unanswered, like forfeit=3d or forfeit=12h (1m to 90d), or forfeit=off.", protocol.ClipArg(v))
			}
			l.ForfeitAfter = d.PerMove
		case "rated":
			b, ok := protocol.ParseBool(v)
			if !ok {
				return nil, say.Refusef("rated=%s: say rated=yes or rated=no.", protocol.ClipArg(v))
			}
			l.Rated = b
		case "size", "board", "rules", "ruleset", "komi", "km", "clock", "time":
			opts = append(opts, w)
		default:
			return nil, say.Refusef("%s is not a ladder option; see %s.", protocol.Echo(k), say.Cmd("help ladder"))
		}
	}
	if err := eventGame("ladder", opts, &l.Size, &l.Rules, &l.Clock); err != nil {
		return nil, err
	}
	return l, nil
}

func cmdLadders(call *Call) (Result, error) {
	ls, err := flow.RoomLadders(call.Tx, call.bot.where(call.Req))
	if err != nil {
		return Result{}, err
	}
	return reply(protocol.Reply{Title: "Ladders", Text: say.LadderLines(ls)}, Effects{})
}

// ladderLine is what an ended game did on its ladder, for the line under
// its result ("" for a game of no ladder, or one not settled).
func ladderLine(tx gobot.Tx, m *gobot.Match) string {
	l, err := tx.LadderOfGame(m.ID)
	if err != nil {
		return ""
	}
	res, ok := flow.LadderResultOf(l, m.ID)
	if !ok {
		return ""
	}
	return say.LadderResultLine(l, res)
}

// byLadderDue lists the ladders with a challenge's deadline due: the
// runner wakes for it (onTime) as for a game's deadline.
var byLadderDue = &dueIndex{
	name: "ladders",
	list: func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error) {
		return dueLadders(b, tx, now.Add(time.Nanosecond), 100)
	},
	onTime: true,
	upTo:   dueLadders,
}

func dueLadders(b *core, tx gobot.Tx, before time.Time, limit int) ([]dueItem, error) {
	due, err := tx.DueLadders(before, limit)
	items := make([]dueItem, 0, len(due))
	for _, l := range due {
		items = append(items, dueItem{Ladder: l.ID, platform: l.Room.Platform(), At: l.Due})
	}
	return items, err
}

// runLadder does a ladder's due work (flow.LadderDue): each challenge
// whose deadline passed is answered, or forfeited by the player to move,
// its game ended and announced in its room once.
func runLadder(c *JobCall) (Done, error) {
	b, tx, l := c.bot, c.Tx, c.Ladder
	due := l.Due
	fs, err := flow.LadderDue(tx, b.engines(), l, c.Now)
	if err != nil || len(fs) == 0 {
		return Done{}, err
	}
	var fx Effects
	for _, f := range fs {
		m := f.Game.Match
		what := say.LadderForfeited(l, f.Late, f.Late == f.Challenge.Defender)
		rep := b.gameReplyAt(&fx, tx, &loaded{Loaded: f.Game}, occasion{Room: m.Room, At: c.Now}, what)
		rep.Mentions = m.Players()
		fx.notify(protocol.Message{Room: m.Room, Reply: rep})
	}
	return done("ladder forfeit", fmt.Sprintf("ladder %d due %d", l.ID, due.UnixNano()), fx)
}
