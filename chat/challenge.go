package chat

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/game"
)

// prepareChallenge checks a challenge to an engine before the
// transaction: the engine and level exist, the room allows engines, and
// the engine can play the game (which may start it). It returns the game
// it asked the engine about, with the engine's name and level settled:
// that is the game engineChallenge starts. A challenge to a person
// prepares nothing (nil).
func prepareChallenge(p *Prep) (any, error) {
	ctx, b, a := p.Ctx, p.bot, p.Args
	if a.Engine == "" {
		return nil, nil
	}
	if err := b.checkVoteChallenge(p.Req, a); err != nil { // vote.go
		return nil, err
	}
	name, level, hasLevel, opponent := a.Engine, a.Level, a.HasLevel, a.User
	if opponent != "" {
		return nil, say.EngineAndPerson(opponent)
	}
	info, ok := b.engineInfo(name)
	if !ok {
		return nil, say.NoEngine(name, b.engineNames())
	}
	name = info.Name
	if !hasLevel && len(info.Levels) > 0 {
		level = info.Levels[0]
	}
	if hasLevel && len(info.Levels) > 0 && !slices.Contains(info.Levels, level) {
		return nil, say.EngineLevel(name, info.Levels, level)
	}
	if a.Choice["rated"] == "rated" && !b.cfg.RateEngineGames {
		return nil, say.EngineUnrated(name, false)
	}
	if a.Rating.Auto {
		return nil, say.EngineUnrated(name, true)
	}
	o := a.Options
	o.Placement = a.Choice["placement"]
	room := p.Room
	if room != nil && room.NoEngines {
		return nil, say.EnginesOff(true)
	}
	cfg, clock, color, err := o.Config(b.gameDefaults(room))
	if err != nil {
		return nil, err
	}
	if err := b.eng.engines.Check(ctx, name, cfg, level); err != nil {
		return nil, say.EngineCannot(name, err)
	}
	return &engineGame{name: name, level: level, cfg: cfg, clock: clock, color: color}, nil
}

// engineGame is the game prepareChallenge asked an engine about.
type engineGame struct {
	name  string // the engine, by its own name
	level int
	cfg   game.Config
	clock gobot.TimeControl
	color string
}

// engineChallenge starts a game against the engine prepareChallenge
// settled, at once.
func (b *core) engineChallenge(tx gobot.Tx, r *protocol.Request, a *protocol.Args, eg *engineGame) (Result, error) {
	if eg == nil {
		return Result{}, errors.New("chat: an engine challenge without its prepare step")
	}
	name, level, cfg, clock, color := eg.name, eg.level, eg.cfg, eg.clock, eg.color
	threads := false
	if rm, err := tx.Room(r.Room); err == nil {
		if rm.NoEngines {
			return Result{}, say.EnginesOff(false)
		}
		threads = rm.Threads
	} else if !errors.Is(err, gobot.ErrNotFound) {
		return Result{}, err
	}
	bot := EngineUser(name)
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	c := &gobot.Challenge{Room: r.Room, From: r.User.ID, To: bot, Config: cfg, Color: color, Clock: clock, Created: r.Time, Status: gobot.Accepted, Answered: r.Time, VoteWindow: a.Vote}
	if err := flow.Propose(tx, c); err != nil {
		return Result{}, err
	}
	var gr *gobot.GameRating // unrated, and a vote game always is (vote.go)
	if b.cfg.RateEngineGames && a.Vote == 0 {
		var err error
		if gr, err = ratings.EngineGameRating(cfg, communityOf(r), a.Choice["rated"]); err != nil {
			return Result{}, say.ChallengeRatingRefusal(err)
		}
	}
	l, err := b.begin(tx, c, flow.Opening{By: bot, At: r.Time, Engine: name, Level: level, Rating: gr})
	if err != nil {
		return Result{}, err
	}
	return b.beginReply(tx, r, l, say.EngineBegins(l.Match, cfg, say.VoteStartNote(l.Match)), threads)
}

// beginReply is the message a game begins with (text), in a thread of
// its own where the room has threads; an engine's first move follows.
func (b *core) beginReply(tx gobot.Tx, r *protocol.Request, l *loaded, text string, threads bool) (Result, error) {
	var fx Effects
	rep := b.gameReply(&fx, tx, l, r, text)
	if threads && !r.DM {
		rep.Thread = true
		rep.ThreadName = say.GameName(l.Match.ID)
	}
	if err := b.autoWidget(tx, r, &rep, l.Match); err != nil {
		return Result{}, err
	}
	b.wakeEngine(&fx, l)
	return reply(rep, fx)
}

// begin starts challenge c's game (flow.Begin) and stores it: the
// players' ranks read, their first game noted (vacation.go), the
// challenge accepted.
func (b *core) begin(tx gobot.Tx, c *gobot.Challenge, o flow.Opening) (*loaded, error) {
	fl, err := flow.Begin(c, o)
	if err != nil {
		return nil, err
	}
	l := &loaded{Loaded: fl}
	if gr := l.Match.Rating; gr != nil {
		gr.BlackRank, gr.WhiteRank = b.rankLabel(tx, gr.Community, l.Match.Black), b.rankLabel(tx, gr.Community, l.Match.White)
	}
	corrupt, err := flow.GameBegins(tx, b.cfg.Vacation, l.Loaded, o.At) // vacation.go
	b.logCorrupt(corrupt)
	if err != nil {
		return nil, err
	}
	b.engineDue(l, o.At)
	if err := tx.InsertMatch(l.Match); err != nil {
		return nil, err
	}
	flow.ChallengeAccepted(c, l.Match, o.By, o.At)
	return l, tx.PutChallenge(c)
}

func cmdChallenge(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	opponent, o, ro := a.User, a.Options, a.Rating
	o.Placement = a.Choice["placement"]
	if v, ok := a.Choice["rated"]; ok {
		rated := v == "rated"
		ro.Rated = &rated
	}
	if err := b.checkVoteChallenge(r, a); err != nil { // vote.go
		return Result{}, err
	}
	if a.HasLevel && a.Engine == "" {
		return Result{}, say.LevelWithoutEngine()
	}
	if a.Engine != "" {
		if v := a.Choice["vacation"]; v != "" {
			return Result{}, say.EngineVacation(v)
		}
		eg, _ := call.Prepared.(*engineGame)
		return b.engineChallenge(tx, r, a, eg)
	}
	opponent, mirror, err := b.across(tx, r, opponent) // a player of another platform (mirror.go)
	if err != nil {
		return Result{}, err
	}
	if mirror != "" && a.Vote > 0 {
		return Result{}, say.VoteAcross()
	}
	if opponent == r.User.ID {
		return Result{}, say.ChallengeSelf()
	}
	if mirror != "" { // another account of the caller's own (docs/identity.md)?
		me, err := gobot.PlayerOf(tx, r.User.ID)
		if err != nil {
			return Result{}, err
		}
		them, err := gobot.PlayerOf(tx, opponent)
		if err != nil {
			return Result{}, err
		}
		if them == me {
			return Result{}, say.ChallengeSelf()
		}
	}
	if opponent == "" && r.DM {
		return Result{}, say.OpenChallengeInDM()
	}
	room, err := tx.Room(r.Room)
	if err != nil && !errors.Is(err, gobot.ErrNotFound) {
		return Result{}, err
	}
	dflt, here := b.gameDefaults(room)
	cfg, clock, color, err := o.Config(dflt, here)
	if err != nil {
		return Result{}, err
	}
	if a.Vote > 0 && clock.Kind == gobot.NoClock { // vote.go: the room's side needs time like any side
		if o.Clock != nil {
			return Result{}, say.VoteNeedsClock(here.Clock)
		}
		clock = voteDefaultClock
	}
	if a.Choice["vacation"] == "off" && clock.Kind == gobot.NoClock {
		return Result{}, say.NoClockVacationOff()
	}
	terms := ratings.RatingTerms{Community: communityOf(r), From: r.User.ID, To: opponent, Auto: ro.Auto, Rated: ro.Rated, Fixed: o.Handicap != nil || o.Komi != nil}
	rated, auto, err := ratings.RateChallenge(tx, terms, &cfg, &color)
	if err != nil {
		return Result{}, say.ChallengeRatingRefusal(err)
	}
	if auto != nil {
		rated.Suggested = say.HandicapChoice(*auto)
	}
	if a.Vote > 0 {
		rated = nil // vote games are unrated (vote.go)
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	for _, m := range r.Mentions {
		if m.ID == opponent {
			if err := b.rememberUser(tx, m, r.Time); err != nil {
				return Result{}, err
			}
		}
	}
	c := &gobot.Challenge{Room: r.Room, Mirror: mirror, From: r.User.ID, To: opponent, Config: cfg, Color: color, Clock: clock, Created: r.Time, Rating: rated,
		NoVacation: a.Choice["vacation"] == "off", VoteWindow: a.Vote}
	if err := flow.Propose(tx, c); err != nil {
		return Result{}, err
	}
	rep := say.ChallengeReply(c)
	if note := guide.AliasNote(a.Options.RulesPreset); note != "" {
		rep.Text += "\n" + strings.TrimSpace(note)
	}
	rep.Text += say.ChallengeRatingNote(c) + say.VacationChoice(c, a.Choice["vacation"])
	var fx Effects
	mirrorChallenge(&fx, c, rep)
	return Result{Reply: rep, Effects: fx}, nil
}

// rememberUser stores a user's display name (flow.RememberName). A
// damaged player record is left for the operator (it holds the player's
// settings); a store error fails the transaction, which a shared store
// then runs again.
func (b *core) rememberUser(tx gobot.Tx, u protocol.User, t time.Time) error {
	err := flow.RememberName(tx, u.ID, u.Name, t)
	if errors.Is(err, gobot.ErrCorrupt) {
		b.log.Error("corrupt record", "err", err)
		return nil
	}
	return err
}

// gameDefaults are the bot's and room's defaults a challenge's options
// fall back on (protocol.GameOptions.Config).
func (b *core) gameDefaults(room *gobot.Room) (bot, here protocol.Defaults) {
	bot = protocol.Defaults{Rules: b.cfg.Rules, Width: b.cfg.Width, Height: b.cfg.Height, Komi: b.cfg.Komi, Clock: b.cfg.Clock}
	if room != nil {
		here = protocol.Defaults{Rules: room.Rules, Width: room.Width, Height: room.Height, Komi: room.Komi, Clock: room.Clock}
	}
	return bot, here
}

// findChallenge resolves "#3" or the single pending challenge that r's
// caller may answer (to them, or open in this room) or withdraw (mine).
func findChallenge(tx gobot.Tx, r *protocol.Request, id gobot.ChallengeID, mine bool) (*gobot.Challenge, error) {
	c, err := flow.FindChallenge(tx, id, r.User.ID, r.Room, mine)
	return c, say.ChallengeRefusal(err, mine, r.Command)
}

func cmdAccept(call *Call) (Result, error) {
	if res, ok, err := acceptTeam(call); ok { // rengo.go
		return res, err
	}
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	c, err := findChallenge(tx, r, a.Challenge, false)
	if err != nil {
		return Result{}, err
	}
	if err := flow.Acceptable(c, r.User.ID); err != nil {
		return Result{}, say.AcceptRefusal(err, c)
	}
	if err := b.rememberUser(tx, r.User, r.Time); err != nil {
		return Result{}, err
	}
	l, err := b.begin(tx, c, flow.Opening{By: r.User.ID, At: r.Time, Rating: ratings.GameRating(c, communityOf(r))})
	if err != nil {
		return Result{}, err
	}
	room, err := tx.Room(c.Room)
	threads := err == nil && room.Threads && c.Mirror == "" // a game between platforms is posted in two rooms, without threads
	return b.beginReply(tx, r, l, say.Begins(l.Match, l.G.Config(), say.VacationHeader(l.Match.NoVacation), say.VoteStartNote(l.Match)), threads)
}

// answerChallenge withdraws (mine) or declines the challenge r names.
func (b *core) answerChallenge(tx gobot.Tx, r *protocol.Request, ref gobot.ChallengeID, mine bool, status gobot.ChallengeStatus) (Result, error) {
	c, err := findChallenge(tx, r, ref, mine)
	if err != nil {
		return Result{}, err
	}
	if err := flow.Answer(c, r.User.ID, status, r.Time); err != nil {
		return Result{}, say.AnswerRefusal(err, c, r.User.ID)
	}
	if err := tx.PutChallenge(c); err != nil {
		return Result{}, err
	}
	rep := protocol.Reply{Text: say.Declined(c, r.User.ID), Mentions: []gobot.UserID{c.From}}
	if mine {
		// Whoever it was for is told (every named player of a team
		// challenge).
		to := c.Invited()
		rep = protocol.Reply{Text: say.Withdrawn(c, to), Mentions: to}
	}
	var fx Effects
	if c.Mirror != "" { // a challenge between platforms: the other room is told too (mirror.go)
		other := c.Mirror
		if r.Room == c.Mirror {
			other = c.Room
		}
		fx.notify(protocol.Message{Room: other, Reply: rep})
	}
	return reply(rep, fx)
}

func cmdDecline(call *Call) (Result, error) {
	if res, ok, err := declineTeam(call); ok { // rengo.go
		return res, err
	}
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	return b.answerChallenge(tx, r, a.Challenge, false, gobot.Declined)
}

func cmdCancel(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	return b.answerChallenge(tx, r, a.Challenge, true, gobot.Cancelled)
}
