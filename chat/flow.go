package chat

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/gobotgo/gobot/game"
)

// colorOf returns u's colour in sg, or Empty.
func colorOf(sg *Game, u UserID) game.Color {
	switch u {
	case sg.Black:
		return game.Black
	case sg.White:
		return game.White
	}
	return game.Empty
}

func playerOf(sg *Game, c game.Color) UserID {
	if c == game.White {
		return sg.White
	}
	return sg.Black
}

// findGame resolves a game reference for r: "#7", or (empty) the
// caller's single active game in this room (in a DM: anywhere); for
// lookers (asPlayer false) also the room's single active game.
func findGame(tx Tx, b *Bot, r *Request, id GameID, asPlayer bool) (*Game, error) {
	if id != 0 {
		sg, err := tx.Game(id)
		if errors.Is(err, ErrNotFound) {
			if c, cerr := tx.Challenge(ChallengeID(id)); cerr == nil && c.Status == Pending {
				return nil, errorf("#%d is a challenge that nobody has accepted yet, not a game: %s takes it.", id, b.cmd(fmt.Sprintf("accept #%d", id)))
			}
			return nil, errorf("There is no game #%d. %s lists yours.", id, b.cmd("games"))
		}
		return sg, err
	}
	mine, err := tx.ActiveGames(r.User.ID)
	if err != nil {
		return nil, err
	}
	var here []*Game
	for _, g := range mine {
		if r.DM || g.Room == r.Room || (g.Thread && g.Parent == r.Room) {
			here = append(here, g)
		}
	}
	if len(here) == 0 && !asPlayer {
		here, err = tx.RoomGames(r.Room, true)
		if err != nil {
			return nil, err
		}
		if len(here) == 0 {
			// Looking at a finished game: the caller's latest here, else
			// the room's latest.
			all, err := tx.RoomGames(r.Room, false)
			if err != nil {
				return nil, err
			}
			var pick *Game
			better := func(a, b *Game) bool { // a before b: the caller's games first, then the latest
				mineA, mineB := colorOf(a, r.User.ID) != game.Empty, colorOf(b, r.User.ID) != game.Empty
				if mineA != mineB {
					return mineA
				}
				return a.ID > b.ID
			}
			for _, g := range all {
				if pick == nil || better(g, pick) {
					pick = g
				}
			}
			if pick != nil {
				return pick, nil
			}
		}
	}
	switch len(here) {
	case 1:
		return here[0], nil
	case 0:
		if len(mine) > 0 {
			return nil, errorf("You have no active game in this room; name one like #%d (%s lists them).", mine[0].ID, b.cmd("games"))
		}
		return nil, errorf("You have no active game here. Start one with %s.", b.cmd("challenge @player"))
	}
	var c []string
	for _, g := range here {
		c = append(c, fmt.Sprintf("#%d (%s vs %s)", g.ID, Mention(g.Black), Mention(g.White)))
	}
	return nil, errorf("Which game? There are several: %s. Add the game, like %s.", strings.Join(c, ", "), b.cmd(strings.TrimSpace(r.Command+" "+strings.Join(r.Args, " "))+" #"+fmt.Sprint(here[0].ID)))
}

// loaded is a stored game with its rules engine state.
type loaded struct {
	sg *Game
	g  *game.Game
}

func load(sg *Game) (*loaded, error) {
	g, err := game.Replay(sg.Record)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", sg.ID, ErrCorrupt, err)
	}
	return &loaded{sg, g}, nil
}

// change applies fn to the game r refers to, in the command's write
// transaction: the game is replayed, fn applied, the game rated if it
// ended, the record saved. Nothing is written if fn fails (the router
// rolls the whole transaction back).
func (b *Bot) change(tx Tx, r *Request, id GameID, asPlayer bool, fn func(l *loaded, me game.Color) error) (*loaded, error) {
	sg, err := findGame(tx, b, r, id, asPlayer)
	if err != nil {
		return nil, err
	}
	me := colorOf(sg, r.User.ID)
	if asPlayer && me == game.Empty {
		return nil, errorf("Only %s and %s play game #%d; you can watch with %s.", Mention(sg.Black), Mention(sg.White), sg.ID, b.cmd(fmt.Sprintf("board #%d", sg.ID)))
	}
	if !sg.Active() {
		return nil, errorf("Game #%d is over (%s).", sg.ID, sg.Result)
	}
	l, err := load(sg)
	if err != nil {
		return nil, err
	}
	if err := fn(l, me); err != nil {
		return nil, err
	}
	if !l.sg.Active() { // it ended now: rate it in this transaction
		if err := b.rateGame(tx, l.sg, l.g); err != nil {
			return nil, err
		}
	}
	l.sg.Record = l.g.Record()
	l.sg.Updated = r.Time
	b.engineDue(l, r.Time)
	if err := tx.PutGame(l.sg); err != nil {
		return nil, err
	}
	b.wakeEngine(l) // after the commit: notify holds it until then
	return l, nil
}

// --- clocks ---

// startClock sets the deadline for the player to move at t.
func startClock(sg *Game, g *game.Game, t time.Time) {
	sg.Reminded = 0
	sg.Deadline = time.Time{}
	if g.Phase() != game.Playing {
		return
	}
	switch sg.Clock.Kind {
	case PerMove:
		sg.Deadline = t.Add(sg.Clock.PerMove)
	case Fischer:
		sg.Deadline = t.Add(sg.Left[g.ToMove()])
	}
}

// moved updates the clock after mover moved at t.
func moved(sg *Game, g *game.Game, mover game.Color, t time.Time) {
	sg.MoveTimes = append(sg.MoveTimes, t)
	if sg.Clock.Kind == Fischer && !sg.Deadline.IsZero() {
		left := sg.Deadline.Sub(t) + sg.Clock.Increment
		sg.Left[mover] = min(max(left, 0), sg.Clock.Max)
	}
	sg.UndoBy = ""
	startClock(sg, g, t)
}

// timeLeft describes the clock of the player to move.
func timeLeft(sg *Game, now time.Time) string {
	if sg.Deadline.IsZero() {
		return ""
	}
	return FormatDuration(sg.Deadline.Sub(now)) + " left"
}

// finish records the end of a game.
func finish(sg *Game, g *game.Game, t time.Time) {
	res, _ := g.Result()
	sg.Finished, sg.Result = t, res.String()
	sg.Deadline, sg.Reminded, sg.UndoBy = time.Time{}, 0, ""
}

// --- challenges ---

func cmdChallenge(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	opponent, o, ro := a.User, a.Options, a.Rating
	o.Placement = a.Choice["placement"]
	if v, ok := a.Choice["rated"]; ok {
		rated := v == "rated"
		ro.Rated = &rated
	}
	if a.HasLevel && a.Engine == "" {
		return Reply{}, errorf("level= is for games against the computer: add engine=NAME (%s lists them).", b.cmd("engines"))
	}
	if a.Engine != "" {
		return b.engineChallenge(tx, r, a)
	}
	if opponent == r.User.ID {
		return Reply{}, errorf("You can't challenge yourself — name another player, or leave the player out for an open challenge anyone here can take.")
	}
	if opponent == "" && r.DM {
		return Reply{}, errorf("Nobody else is in this direct conversation to take an open challenge: name your opponent, like %s, or open the challenge in a room.", b.cmd("challenge @player"))
	}
	room, err := tx.Room(r.Room)
	if err != nil && !errors.Is(err, ErrNotFound) {
		return Reply{}, err
	}
	cfg, clock, color, err := b.challengeConfig(room, o)
	if err != nil {
		return Reply{}, err
	}
	rated, err := b.rateChallenge(tx, r, opponent, ro, o, &cfg, &color)
	if err != nil {
		return Reply{}, err
	}
	b.rememberUser(tx, r.User, r.Time)
	for _, m := range r.Mentions {
		if m.ID == opponent {
			b.rememberUser(tx, m, r.Time)
		}
	}
	c := &Challenge{Room: r.Room, From: r.User.ID, To: opponent, Config: cfg, Color: color, Clock: clock, Created: r.Time, Rating: rated}
	if err := tx.SkipGameNumbers(); err != nil {
		return Reply{}, err
	}
	if err := tx.PutChallenge(c); err != nil {
		return Reply{}, err
	}
	rep := b.challengeReply(c)
	rep.Text += challengeRatingNote(c)
	return rep, nil
}

// rememberUser stores a user's display name the first time, or when it
// changed.
func (b *Bot) rememberUser(tx Tx, u User, t time.Time) {
	if u.ID == "" || u.Name == "" {
		return
	}
	p, err := tx.Player(u.ID)
	if err == nil && p.Name == u.Name {
		return
	}
	if err != nil {
		p = &Player{ID: u.ID}
	}
	p.Name, p.Updated = u.Name, t
	if err := tx.PutPlayer(p); err != nil {
		b.log.Warn("saving player", "user", u.ID, "err", err)
	}
}

// userArg turns "@bob" or "@discord:123" into a platform-qualified ID.
func (b *Bot) userArg(r *Request, a string) UserID {
	id := strings.TrimPrefix(a, "@")
	for _, m := range r.Mentions {
		if string(m.ID) == id {
			return m.ID
		}
	}
	if !strings.Contains(id, ":") {
		return UserID(r.User.ID.Platform() + ":" + id)
	}
	return UserID(id)
}

// challengeConfig merges the typed options with the room's and the
// bot's defaults and checks the result.
func (b *Bot) challengeConfig(room *Room, o gameOptions) (game.Config, TimeControl, string, error) {
	var cfg game.Config
	rulesText := b.cfg.Rules
	if room != nil && room.Rules != "" {
		rulesText = room.Rules
	}
	if o.Rules != nil {
		cfg.Rules = *o.Rules
	} else {
		rules, err := game.ParseRules(rulesText)
		if err != nil {
			return cfg, TimeControl{}, "", errorf("the default rules %q don't work: %v", rulesText, err)
		}
		cfg.Rules = rules
	}
	cfg.Width, cfg.Height = b.cfg.Width, b.cfg.Height
	if room != nil && room.Width > 0 {
		cfg.Width, cfg.Height = room.Width, room.Height
	}
	if o.Width > 0 {
		cfg.Width, cfg.Height = o.Width, o.Height
	}
	if o.Handicap != nil {
		cfg.Handicap = *o.Handicap
	}
	if o.Placement != "" {
		cfg.Rules.Placement = map[string]game.Placement{"fixed": game.PlacementFixed, "free": game.PlacementFree, "white-passes": game.PlacementWhitePasses}[o.Placement]
	}
	komi := cfg.Rules.DefaultKomi(cfg.Width, cfg.Height, cfg.Handicap)
	if cfg.Rules.Name == "custom" && o.Rules != nil {
		komi = cfg.Rules.Komi
	}
	if cfg.Handicap < 2 {
		if b.cfg.Komi != nil {
			komi = *b.cfg.Komi
		}
		if room != nil && room.Komi != nil {
			komi = *room.Komi
		}
	}
	if o.Komi != nil {
		komi = *o.Komi
	}
	cfg.Rules.Komi = komi
	if _, err := game.New(cfg); err != nil {
		if errors.Is(err, game.ErrHandicap) {
			return cfg, TimeControl{}, "", errorf("A %d-stone handicap has no fixed points on a %s board: add placement=free so Black places the stones anywhere.", cfg.Handicap, game.SizeString(cfg.Width, cfg.Height))
		}
		return cfg, TimeControl{}, "", errorf("those options don't make a game: %v", err)
	}
	clockText := b.cfg.Clock
	if room != nil && room.Clock != "" {
		clockText = room.Clock
	}
	var clock TimeControl
	if o.Clock != nil {
		clock = *o.Clock
	} else {
		c, err := ParseClock(clockText)
		if err != nil {
			return cfg, TimeControl{}, "", err
		}
		clock = c
	}
	color := o.Color
	if color == "" {
		color = "random"
	}
	return cfg, clock, color, nil
}

func describeConfig(cfg game.Config, clock TimeControl) string {
	s := fmt.Sprintf("%s, %s rules, komi %s", game.SizeString(cfg.Width, cfg.Height), cfg.Rules.Name, game.FormatKomi(cfg.Rules.Komi))
	if cfg.Handicap >= 2 {
		s += fmt.Sprintf(", handicap %d", cfg.Handicap)
	}
	if clock.Kind != NoClock {
		s += ", clock " + FormatClock(clock)
	}
	return s
}

func (b *Bot) challengeReply(c *Challenge) Reply {
	colour := map[string]string{"black": " (taking Black)", "white": " (taking White)", "random": " (colours by lot)"}[c.Color]
	var text string
	var mentions []UserID
	if c.To == "" {
		text = fmt.Sprintf("%s opens challenge #%d%s: %s. Anyone here can take it with %s.", Mention(c.From), c.ID, colour, describeConfig(c.Config, c.Clock), b.cmd(fmt.Sprintf("accept #%d", c.ID)))
	} else {
		text = fmt.Sprintf("%s challenges %s to a game%s: %s. %s, answer with %s or %s.", Mention(c.From), Mention(c.To), colour, describeConfig(c.Config, c.Clock), Mention(c.To), b.cmd(fmt.Sprintf("accept #%d", c.ID)), b.cmd(fmt.Sprintf("decline #%d", c.ID)))
		mentions = []UserID{c.To}
	}
	return Reply{Title: fmt.Sprintf("Challenge #%d", c.ID), Text: text, Mentions: mentions,
		Actions: []Action{
			{ID: Button{Command: "accept", Challenge: c.ID}.ID(), Label: "Accept", Style: Success},
			{ID: Button{Command: "decline", Challenge: c.ID}.ID(), Label: "Decline", Style: Danger},
		}}
}

// findChallenge resolves "#3" or the single pending challenge that r's
// caller may answer (to them, or open in this room) or withdraw (mine).
func findChallenge(tx Tx, b *Bot, r *Request, id ChallengeID, mine bool) (*Challenge, error) {
	if id != 0 {
		c, err := tx.Challenge(id)
		if errors.Is(err, ErrNotFound) {
			return nil, errorf("There is no challenge #%d.", id)
		}
		return c, err
	}
	var cands []*Challenge
	pending, err := tx.PendingChallenges(r.User.ID)
	if err != nil {
		return nil, err
	}
	for _, c := range pending {
		if mine == (c.From == r.User.ID) {
			cands = append(cands, c)
		}
	}
	if !mine {
		open, err := tx.RoomChallenges(r.Room)
		if err != nil {
			return nil, err
		}
		for _, c := range open {
			if c.To == "" && c.From != r.User.ID {
				cands = append(cands, c)
			}
		}
	}
	switch len(cands) {
	case 1:
		return cands[0], nil
	case 0:
		if mine {
			return nil, errorf("You have no pending challenge to cancel.")
		}
		return nil, errorf("There is no challenge waiting for you here. Start one with %s.", b.cmd("challenge @player"))
	}
	var names []string
	for _, c := range cands {
		names = append(names, fmt.Sprintf("#%d from %s", c.ID, Mention(c.From)))
	}
	return nil, errorf("Which challenge? %s. Add it, like %s.", strings.Join(names, ", "), b.cmd(fmt.Sprintf("%s #%d", r.Command, cands[0].ID)))
}

func cmdAccept(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	l, threads, err := accept(tx, b, r, a.Challenge)
	if err != nil {
		return Reply{}, err
	}
	rep := b.gameReply(tx, l, r, fmt.Sprintf("Game #%d begins: %s against %s, %s%s.", l.sg.ID, seat(l.sg, game.Black), seat(l.sg, game.White), describeConfig(l.g.Config(), l.sg.Clock), ratedNote(l.sg)))
	if threads && !r.DM {
		rep.Thread = true
		rep.ThreadName = fmt.Sprintf("Game #%d", l.sg.ID)
	}
	return rep, nil
}

// accept starts the game of the challenge r accepts.
func accept(tx Tx, b *Bot, r *Request, ref ChallengeID) (l *loaded, threads bool, err error) {
	c, err := findChallenge(tx, b, r, ref, false)
	if err != nil {
		return nil, false, err
	}
	if c.Status != Pending {
		return nil, false, errorf("Challenge #%d is already %s.", c.ID, c.Status)
	}
	if c.From == r.User.ID {
		return nil, false, errorf("That is your own challenge; wait for someone to accept it, or %s.", b.cmd(fmt.Sprintf("cancel #%d", c.ID)))
	}
	if c.To != "" && c.To != r.User.ID {
		return nil, false, errorf("Challenge #%d is for %s, not for you.", c.ID, Mention(c.To))
	}
	b.rememberUser(tx, r.User, r.Time)
	g, err := game.New(c.Config)
	if err != nil {
		return nil, false, err
	}
	// The game keeps the challenge's number where it is free.
	sg := &Game{ID: GameID(c.ID), Room: c.Room, Record: g.Record(), Clock: c.Clock, Challenge: c.ID, Created: r.Time, Updated: r.Time}
	black, white := c.From, r.User.ID
	switch c.Color {
	case "white":
		black, white = white, black
	case "random":
		h := fnv.New32a()
		fmt.Fprintf(h, "%d|%s|%s", c.ID, c.From, r.User.ID)
		if h.Sum32()%2 == 1 {
			black, white = white, black
		}
	}
	sg.Black, sg.White = black, white
	sg.Rating = b.gameRatingFor(tx, c, r, black, white)
	if c.Clock.Kind == Fischer {
		sg.Left[game.Black], sg.Left[game.White] = c.Clock.Main, c.Clock.Main
	}
	startClock(sg, g, r.Time)
	if err := tx.InsertGame(sg); err != nil {
		return nil, false, err
	}
	c.Status, c.Game, c.Answered = Accepted, sg.ID, r.Time
	if c.To == "" {
		c.To = r.User.ID
	}
	if err := tx.PutChallenge(c); err != nil {
		return nil, false, err
	}
	if room, err := tx.Room(c.Room); err == nil {
		threads = room.Threads
	}
	return &loaded{sg, g}, threads, nil
}

func (b *Bot) answerChallenge(tx Tx, r *Request, ref ChallengeID, mine bool, status ChallengeStatus) (Reply, error) {
	c, err := findChallenge(tx, b, r, ref, mine)
	if err != nil {
		return Reply{}, err
	}
	if c.Status != Pending {
		return Reply{}, errorf("Challenge #%d is already %s.", c.ID, c.Status)
	}
	if mine && c.From != r.User.ID {
		return Reply{}, errorf("Only %s can cancel challenge #%d; you may %s it.", Mention(c.From), c.ID, b.cmd("decline"))
	}
	if !mine && c.To != r.User.ID {
		if c.From == r.User.ID {
			return Reply{}, errorf("That is your own challenge; use %s to withdraw it.", b.cmd(fmt.Sprintf("cancel #%d", c.ID)))
		}
		return Reply{}, errorf("Challenge #%d isn't addressed to you, so you can't decline it.", c.ID)
	}
	c.Status, c.Answered = status, r.Time
	if err := tx.PutChallenge(c); err != nil {
		return Reply{}, err
	}
	if mine {
		return Reply{Text: fmt.Sprintf("%s withdrew challenge #%d.", Mention(c.From), c.ID)}, nil
	}
	return Reply{Text: fmt.Sprintf("%s declined challenge #%d from %s.", Mention(r.User.ID), c.ID, Mention(c.From)), Mentions: []UserID{c.From}}, nil
}

func cmdDecline(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	return b.answerChallenge(tx, r, a.Challenge, false, Declined)
}

func cmdCancel(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	return b.answerChallenge(tx, r, a.Challenge, true, Cancelled)
}
