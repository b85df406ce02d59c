package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

// EnginePlatform is the platform of engine players' user IDs.
const EnginePlatform = gobot.EnginePlatform

// EngineUser is the user ID of engine name's seat in a game.
func EngineUser(name string) gobot.UserID { return gobot.EngineUser(name) }

// engineState is the bot's engine wiring and the engine turns running in
// this process.
type engineState struct {
	engines Engines
	scorer  string // engine proposing dead stones in people's games
	missing string // why no engine is offered (engines: how to install)

	mu      sync.Mutex
	running map[gobot.GameID]bool
	failed  map[gobot.GameID]int // position (len moves) whose failure was posted
	wg      sync.WaitGroup
	ctx     context.Context // ends with StopEngines
	cancel  context.CancelFunc
}

// SetEngines offers engines e as opponents; scorer, when not empty, is
// the engine that proposes the dead stones of games between people.
// missing (with e nil) says why there are none, for the engines command.
// Call before Run.
func (b *Bot) SetEngines(e Engines, scorer, missing string) {
	b.eng.mu.Lock()
	defer b.eng.mu.Unlock()
	b.eng.engines, b.eng.scorer, b.eng.missing = e, scorer, missing
	if b.eng.ctx == nil {
		b.eng.ctx, b.eng.cancel = context.WithCancel(context.Background())
	}
}

// WaitEngines waits until the engine turns started so far are done.
func (b *Bot) WaitEngines() { b.eng.wg.Wait() }

// StopEngines cancels the engine turns in progress and waits for them;
// what they were asked stays due in the store for the next start.
func (b *Bot) StopEngines() {
	b.eng.mu.Lock()
	if b.eng.cancel != nil {
		b.eng.cancel()
	}
	b.eng.mu.Unlock()
	b.eng.wg.Wait()
}

func (b *core) engineNames() []string {
	if b.eng.engines == nil {
		return nil
	}
	var out []string
	for _, e := range b.eng.engines.List() {
		out = append(out, e.Name)
	}
	return out
}

func (b *core) engineInfo(name string) (EngineInfo, bool) {
	if b.eng.engines == nil {
		return EngineInfo{}, false
	}
	for _, e := range b.eng.engines.List() {
		if strings.EqualFold(e.Name, name) {
			return e, true
		}
	}
	return EngineInfo{}, false
}

// engineColor is the engine's colour in match (Empty in people's games).
func engineColor(match *gobot.Match) game.Color {
	if match.Engine == "" {
		return game.Empty
	}
	return match.ColorOf(EngineUser(match.Engine))
}

// engineJob is what an engine has to do next in a game.
type engineJob uint8

// String names the work in Done.Did.
func (j engineJob) String() string {
	return [...]string{"none", "move", "dead stones proposed", "marking reviewed", "count accepted"}[j]
}

const (
	jobNone    engineJob = iota
	jobMove              // the engine is to play
	jobPropose           // propose dead stones for this scoring phase
	jobReview            // review the marking the player changed
	jobAccept            // accept a count with no dead stones to agree on
)

func (b *core) engineJob(match *gobot.Match, g *game.Game) engineJob {
	if !match.Active() {
		return jobNone
	}
	ec := engineColor(match)
	switch g.Phase() {
	case game.Playing:
		if ec != game.Empty && g.ToMove() == ec {
			return jobMove
		}
	case game.Scoring:
		if g.Rules().NoAgreement {
			if ec != game.Empty && !g.Accepted(ec) {
				return jobAccept
			}
			return jobNone
		}
		proposer := match.Engine
		if proposer == "" {
			proposer = b.eng.scorer
		}
		if proposer == "" || b.eng.engines == nil {
			return jobNone
		}
		if match.EngineDead != g.MoveCount() {
			return jobPropose
		}
		if ec != game.Empty && !g.Accepted(ec) {
			return jobReview
		}
	}
	return jobNone
}

// engineDue marks the game due in the deadline index when an engine has
// work in it, so that the clock loop asks again after a restart. Called
// on every change to a game before it is stored.
func (b *core) engineDue(l *loaded, t time.Time) {
	if b.engineJob(l.Match, l.G) != jobNone {
		l.Match.Deadline, l.Match.Reminded = t, 0
	}
}

// wakeEngine queues the engine's turn in game l, if it has one, for
// after the commit, so the turn reads the committed game.
func (b *core) wakeEngine(fx *Effects, l *loaded) {
	if l == nil || b.engineJob(l.Match, l.G) == jobNone {
		return
	}
	fx.wake(l.Match.ID)
}

func (b *Bot) startEngineTurn(id gobot.GameID) {
	e := b.eng
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.running == nil {
		e.running, e.failed = map[gobot.GameID]bool{}, map[gobot.GameID]int{}
	}
	if e.running[id] || e.ctx == nil || e.ctx.Err() != nil || e.engines == nil {
		return
	}
	ctx := e.ctx
	e.running[id] = true
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		again := true
		for again {
			again = b.engineTurn(ctx, id)
		}
		e.mu.Lock()
		delete(e.running, id)
		e.mu.Unlock()
	}()
}

// engineWorkDue takes a due game whose due item is engine work
// (engineDue marks it due at once), so the clock does not treat the
// engine's "deadline" as a timeout; the runner starts the turn unless
// one runs. With no engines set up (a restart without them) the turn
// waits: its due item is still not a timeout.
func engineWorkDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	match := item.Match
	if match.Engine == "" && (b.eng.scorer == "" || match.Deadline.IsZero()) {
		return false, false
	}
	l, err := load(match)
	if err != nil {
		return false, false
	}
	mine = b.engineJob(l.Match, l.G) != jobNone
	return mine, mine
}

// engineTurn runs one piece of engine work in game id on the runner: the
// engine is asked outside any transaction (askEngine), and its answer is
// applied only if the game is still in the position it was asked about
// (applyEngineAnswer), so a move is made once even when two turns (two
// processes, a restart) ask together. It reports whether more engine
// work followed.
func (b *Bot) engineTurn(ctx context.Context, id gobot.GameID) bool {
	d, err := b.runJob(ctx, b.job("engine turn"), dueItem{Game: id}, b.timeSource.Now())
	var un *engineUnanswered
	switch {
	case errors.As(err, &un):
		b.engineUnanswered(ctx, un)
		return false
	case err != nil:
		if ctx.Err() == nil {
			b.log.Error("engine turn", "game", id, "err", err)
		}
		return false
	case d.Did == "":
		return false // someone else applied it, or the game moved on
	}
	b.eng.mu.Lock()
	delete(b.eng.failed, id)
	b.eng.mu.Unlock()
	return slices.Contains(d.Wake, id)
}

// engineAnswer is what an engine answered for one piece of work in a
// game (askEngine), for applyEngineAnswer.
type engineAnswer struct {
	snap *loaded // the game as it was asked
	name string  // the engine asked
	job  engineJob
	ec   game.Color
	mv   EngineMove
	dead []game.Point
	ok   bool  // a review's answer
	err  error // judging dead stones failed: the marking stands
}

// engineUnanswered is an engine's failure to move: nothing is written,
// the room is told once per position, and the runner asks again.
type engineUnanswered struct {
	snap *loaded
	name string
	err  error
}

func (e *engineUnanswered) Error() string { return e.err.Error() }

// askEngine is the engine turn's prepare step: it asks the engine for
// the work due in the game as read, outside any transaction.
func askEngine(c *JobCall) (any, error) {
	b := c.bot
	snap, err := load(c.Match)
	if err != nil {
		return nil, err
	}
	job := b.engineJob(snap.Match, snap.G)
	if job == jobNone {
		return nil, nil
	}
	a := &engineAnswer{snap: snap, name: cmp.Or(snap.Match.Engine, b.eng.scorer), job: job, ec: engineColor(snap.Match)}
	rec := snap.G.Record()
	switch job {
	case jobMove:
		a.mv, err = b.eng.engines.Move(c.Ctx, a.name, rec, snap.Match.EngineLevel, len(rec.Resumes) > 0)
	case jobPropose:
		a.dead, err = b.eng.engines.Dead(c.Ctx, a.name, rec)
	case jobReview:
		a.ok, err = b.eng.engines.Review(c.Ctx, a.name, rec, a.ec)
	}
	if err == nil {
		return a, nil
	}
	if c.Ctx.Err() != nil {
		return nil, err // shutting down: the turn stays due for the next start
	}
	b.log.Warn("engine request failed", "game", snap.Match.ID, "engine", a.name, "err", err)
	if snap.Match.Engine == "" || job == jobPropose || job == jobReview {
		// Judging dead stones failed (final_status_list can take minutes
		// on an open board): the built-in proposal stands, or the
		// player's marking; the engine accepts it, so nothing loops.
		a.err = err
		return a, nil
	}
	return nil, &engineUnanswered{snap: snap, name: a.name, err: err}
}

// applyEngineAnswer applies the engine's answer (c.Prepared) if the game
// is still where it was asked, and announces it. The announcement is
// claimed with the move (claim.go): if this process dies before sending
// it, another does.
func applyEngineAnswer(c *JobCall) (Done, error) {
	a := c.Prepared.(*engineAnswer)
	if a.err != nil {
		return engineFallback(c, a)
	}
	b, tx, now, snap, name, job, ec := c.bot, c.Tx, c.Now, a.snap, a.name, a.job, a.ec
	id := snap.Match.ID
	step := fmt.Sprintf("game %d engine job %d at move %d resume %d", id, job, snap.G.MoveCount(), len(snap.G.Record().Resumes))
	l, err := load(c.Match)
	if err != nil {
		return Done{}, err
	}
	var fx Effects
	if !samePosition(snap, l) || b.engineJob(l.Match, l.G) != job {
		if job == jobPropose && l.G.Phase() == game.Scoring && l.G.MoveCount() == snap.G.MoveCount() && l.Match.EngineDead != l.G.MoveCount() {
			// The players marked stones first: keep theirs.
			l.Match.EngineDead = l.G.MoveCount()
			flow.StartClock(l.Match, l.G, now)
			b.engineDue(l, now)
			if err := tx.PutMatch(l.Match); err != nil {
				return Done{}, err
			}
			if b.engineJob(l.Match, l.G) != jobNone {
				fx.wake(id)
			}
			return done("kept the players' marking", "", fx)
		}
		return Done{}, nil // someone else applied it, or the game moved on
	}
	me := protocol.Mention(EngineUser(name))
	var what string
	switch job {
	case jobMove:
		what, err = b.applyEngineMove(l, ec, a.mv, now)
		if err != nil {
			return Done{}, err
		}
	case jobPropose:
		what = b.applyEngineDead(l, a.dead, ec, me)
	case jobReview:
		if a.ok {
			l.G.Accept(ec)
			l.acceptSaid = ec
			what = fmt.Sprintf("%s accepts this marking.", me)
		} else {
			if err := l.G.Resume(); err != nil {
				return Done{}, err
			}
			what = fmt.Sprintf("%s does not agree with that marking, so play resumes to settle it: play where you think it is wrong, or pass.", me)
		}
	case jobAccept:
		l.G.Accept(ec)
		l.acceptSaid = ec
		what = fmt.Sprintf("%s accepts the count.", me)
	}
	if l.G.Phase() == game.Over {
		flow.Finish(l.Match, l.G, now)
		if err := b.rateGame(tx, l.Match, l.G); err != nil {
			return Done{}, err
		}
	} else if job != jobMove {
		flow.StartClock(l.Match, l.G, now)
	}
	l.Match.Record = l.G.Record()
	l.Match.Updated = now
	b.engineDue(l, now)
	if err := tx.PutMatch(l.Match); err != nil {
		return Done{}, err
	}
	if what != "" {
		by := EngineUser(name)
		if l.Match.Engine == "" {
			by = "" // a people's game: the proposal pings both
		}
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: l.Match.Room, At: now, By: by}, what)
		fx.notify(protocol.Message{Room: l.Match.Room, Reply: rep})
	}
	if b.engineJob(l.Match, l.G) != jobNone {
		fx.wake(id) // more engine work follows (engineTurn goes on)
	}
	return done(job.String(), step, fx)
}

// samePosition reports whether two loads of a game are at the same
// point: moves, resumes, phase, marks and acceptances.
func samePosition(a, b *loaded) bool {
	ra, rb := a.G.Record(), b.G.Record()
	return a.G.Phase() == b.G.Phase() && len(ra.Moves) == len(rb.Moves) && slices.Equal(ra.Resumes, rb.Resumes) &&
		slices.Equal(ra.Dead, rb.Dead) && slices.Equal(ra.Accepted, rb.Accepted) && a.Match.EngineDead == b.Match.EngineDead
}

func (b *core) applyEngineMove(l *loaded, ec game.Color, mv EngineMove, now time.Time) (string, error) {
	me := protocol.Mention(EngineUser(l.Match.Engine))
	h := l.G.Config().Height
	if mv.Resign {
		if err := l.G.Resign(ec); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s resigned.", me), nil
	}
	var pts []string
	passed, count := false, l.G.MoveCount()
	for _, m := range mv.Moves {
		if m.Color != ec || l.G.Phase() != game.Playing {
			break
		}
		if err := l.G.PlayMove(m); err != nil {
			return "", fmt.Errorf("engine move %s: %w", m.Point.GTP(h), err)
		}
		flow.Moved(l.Match, l.G, ec, now)
		if m.IsPass() {
			passed = true
		} else {
			pts = append(pts, m.Point.GTP(h))
		}
	}
	var what string
	switch {
	case len(pts) > 1:
		what = fmt.Sprintf("%s placed %s.", me, strings.Join(pts, ", "))
	case len(pts) == 1:
		what = fmt.Sprintf("%s played %s.", me, pts[0])
	case passed:
		what = fmt.Sprintf("%s passed.", me)
		if l.G.Phase() == game.Scoring {
			what += " Both players passed: the game is being scored."
		}
	}
	if len(pts) > 0 {
		what += autoPassText(l, count)
	}
	if mv.Illegal != "" {
		what += fmt.Sprintf(" (It proposed %s, which the rules refuse, so it passed.)", protocol.ClipRunes(mv.Illegal, 80))
	}
	return what, nil
}

// applyEngineDead replaces the marking with the engine's dead stones;
// in an engine game the engine accepts its own list.
func (b *core) applyEngineDead(l *loaded, dead []game.Point, ec game.Color, me string) string {
	for _, p := range l.G.DeadStrings() {
		l.G.ToggleDead(p, false)
	}
	h := l.G.Config().Height
	var names []string
	for _, p := range dead {
		if l.G.At(p) == game.Empty || l.G.IsDead(p) {
			continue
		}
		if err := l.G.ToggleDead(p, false); err == nil {
			names = append(names, p.GTP(h))
		}
	}
	l.Match.EngineDead = l.G.MoveCount()
	list := "no dead stones"
	if len(names) > 0 {
		list = "dead: " + protocol.ClipRunes(strings.Join(names, " "), 200)
	}
	if ec == game.Empty {
		return fmt.Sprintf("%s proposes the dead stones (%s).", me, list)
	}
	l.G.Accept(ec)
	return fmt.Sprintf("%s proposes %s and accepts that count. Accept with %s, mark stones with %s (%s re-checks them), or %s.",
		me, list, b.cmd("done"), b.cmd("dead <point>"), me, b.cmd("resume"))
}

// engineFallback is the engine turn when judging the dead stones failed
// (askEngine): the marking as it stands is accepted for the engine, and
// in an engine game the room is told why. Claimed as an engine's move
// is.
func engineFallback(c *JobCall, a *engineAnswer) (Done, error) {
	b, tx, now, l, match := c.bot, c.Tx, c.Now, a.snap, c.Match
	step := fmt.Sprintf("game %d engine fallback at move %d resume %d", l.Match.ID, l.G.MoveCount(), len(l.G.Record().Resumes))
	cur, err := load(match)
	if err != nil || !samePosition(l, cur) {
		return Done{}, err
	}
	match.EngineDead = cur.G.MoveCount()
	if ec := engineColor(match); ec != game.Empty {
		cur.G.Accept(ec)
		match.Record = cur.G.Record()
	}
	if cur.G.Phase() == game.Over {
		flow.Finish(match, cur.G, now)
		if err := b.rateGame(tx, match, cur.G); err != nil {
			return Done{}, err
		}
	} else {
		flow.StartClock(match, cur.G, now)
	}
	match.Updated = now
	b.engineDue(cur, now)
	if err := tx.PutMatch(match); err != nil {
		return Done{}, err
	}
	var fx Effects
	if match.Engine != "" {
		reason := protocol.ClipRunes(a.err.Error(), 200)
		what := fmt.Sprintf("%s could not judge the dead stones (%s), so it accepts the marking as it stands.", protocol.Mention(EngineUser(a.name)), reason)
		rep := b.gameReplyAt(&fx, tx, cur, occasion{Room: match.Room, At: now, By: EngineUser(a.name)}, what)
		fx.notify(protocol.Message{Room: match.Room, Reply: rep})
	}
	return done("fallback", step, fx)
}

// engineUnanswered tells the room once per position that the engine
// could not answer; the game is unchanged and the runner asks again.
// The message changes nothing, so it is not claimed.
func (b *Bot) engineUnanswered(ctx context.Context, u *engineUnanswered) {
	l := u.snap
	b.eng.mu.Lock()
	seen, ok := b.eng.failed[l.Match.ID]
	b.eng.failed[l.Match.ID] = l.G.MoveCount()
	b.eng.mu.Unlock()
	if ok && seen == l.G.MoveCount() {
		return
	}
	text := fmt.Sprintf("%s could not answer in game #%d (%s). Nothing changed; I will ask it again shortly.", protocol.Mention(EngineUser(u.name)), l.Match.ID, protocol.ClipRunes(u.err.Error(), 200))
	b.notify(ctx, protocol.Message{Room: l.Match.Room, Reply: protocol.Reply{Game: l.Match.ID, Title: fmt.Sprintf("Game #%d", l.Match.ID), Text: text},
		Key: fmt.Sprintf("game %d engine failed at move %d resume %d", l.Match.ID, l.G.MoveCount(), len(l.G.Record().Resumes))})
}

func intList(v []int) string {
	var s []string
	for _, n := range v {
		s = append(s, strconv.Itoa(n))
	}
	if len(s) > 3 && slices.Equal(v, makeRange(v[0], v[len(v)-1])) {
		return fmt.Sprintf("%d to %d", v[0], v[len(v)-1])
	}
	return strings.Join(s, ", ")
}

func makeRange(a, b int) []int {
	var out []int
	for i := a; i <= b; i++ {
		out = append(out, i)
	}
	return out
}

func cmdEngines(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	var lines []string
	if b.eng.engines != nil {
		for _, e := range b.eng.engines.List() {
			s := "• " + e.Name
			if e.About != "" {
				s += " (" + e.About + ")"
			}
			if len(e.Levels) > 0 {
				s += ": levels " + intList(e.Levels)
			} else {
				s += ": its own level"
			}
			if len(e.Sizes) > 0 {
				var sz []string
				for _, n := range e.Sizes {
					sz = append(sz, game.SizeString(n, n))
				}
				s += "; boards " + strings.Join(sz, ", ")
			} else {
				s += "; square boards it accepts"
			}
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		msg := "No computer opponent is configured."
		if b.eng.missing != "" {
			msg += " " + b.eng.missing
		}
		return Result{Reply: protocol.Reply{Title: "Engines", Text: msg, Private: true}}, nil
	}
	unrated := " and is unrated"
	if b.cfg.RateEngineGames {
		unrated = ""
	}
	text := "Computer opponents:\n" + strings.Join(lines, "\n") +
		fmt.Sprintf("\nPlay one with %s; the game starts at once%s.", b.cmd("challenge engine="+b.engineNames()[0]+" level=1 9"), unrated)
	if rm, err := tx.Room(r.Room); err == nil && rm.NoEngines {
		text += "\nThey are turned off in this room."
	}
	if b.eng.scorer != "" {
		text += fmt.Sprintf("\n%s proposes the dead stones of games between people.", b.eng.scorer)
	}
	return Result{Reply: protocol.Reply{Title: "Engines", Text: text, Private: true}}, nil
}

// EngineMove is an engine's move: one play or pass, or several stones
// when it places free handicap; Resign when it resigns. Illegal names a
// proposal the rules refused (then Moves holds a pass).
type EngineMove struct {
	Moves   []game.Move
	Resign  bool
	Illegal string
}

// ratedWord is "rated" or "unrated" for a game's start message.
func ratedWord(match *gobot.Match) string {
	if match.Rating != nil && match.Rating.Rated {
		return "rated"
	}
	return "unrated"
}
