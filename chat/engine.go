package chat

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/chat/turns"
	"github.com/gobotgo/gobot/flow"
)

// EngineUser is the user ID of engine name's seat in a game.
func EngineUser(name string) gobot.UserID { return gobot.EngineUser(name) }

// engineState is the bot's engine wiring and the engine turns running in
// this process.
type engineState struct {
	engines Engines
	scorer  string // engine proposing dead stones in people's games
	missing string // why no engine is offered (engines: how to install)

	turns turns.Runner // one engine turn at a time per game

	mu     sync.Mutex
	failed map[gobot.GameID]int // position (len moves) whose failure was posted
}

// SetEngines offers engines e as opponents; scorer, when not empty, is
// the engine that proposes the dead stones of games between people.
// missing (with e nil) says why there are none, for the engines command.
// Call before Run.
func (b *Bot) SetEngines(e Engines, scorer, missing string) {
	b.eng.mu.Lock()
	defer b.eng.mu.Unlock()
	b.eng.engines, b.eng.scorer, b.eng.missing = e, scorer, missing
	b.eng.turns.Open()
}

// WaitEngines waits until the engine turns started so far are done.
func (b *Bot) WaitEngines() { b.eng.turns.Wait() }

// StopEngines cancels the engine turns in progress and waits for them;
// what they were asked stays due in the store for the next start.
func (b *Bot) StopEngines() { b.eng.turns.Stop() }

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

// engines is what the flow knows of this bot's engines.
func (b *core) engines() flow.Engines {
	return flow.Engines{Running: b.eng.engines != nil, Scorer: b.eng.scorer}
}

// engineDue marks the game due in the deadline index when an engine has
// work in it, so that the clock loop asks again after a restart. Called
// on every change to a game before it is stored.
func (b *core) engineDue(l *loaded, t time.Time) {
	b.engines().Due(l.Loaded, t)
}

// storeTurn stores game l as an engine's turn left it at now: rated
// if it ended (over), due again if the engine has more work in it.
func (b *core) storeTurn(tx gobot.Tx, l *loaded, over bool, now time.Time) error {
	if over {
		if err := b.rateGame(tx, l.Match, l.G); err != nil {
			return err
		}
	}
	b.engineDue(l, now)
	return flow.Save(tx, l.Match)
}

// wakeEngine queues the engine's turn in game l, if it has one, for
// after the commit, so the turn reads the committed game.
func (b *core) wakeEngine(fx *Effects, l *loaded) {
	if l == nil || b.engines().Job(l.Match, l.G) == flow.JobNone {
		return
	}
	fx.wake(l.Match.ID)
}

// startEngineTurn runs the engine's work in game id in the background,
// one turn after another while it has more, unless it runs already.
func (b *Bot) startEngineTurn(id gobot.GameID) {
	b.eng.mu.Lock()
	none := b.eng.engines == nil
	b.eng.mu.Unlock()
	if none {
		return
	}
	b.eng.turns.Start(id, func(ctx context.Context) bool { return b.engineTurn(ctx, id) })
}

// engineWorkDue takes a due game whose due item is engine work
// (engineDue marks it due at once), so the clock does not treat the
// engine's "deadline" as a timeout; the runner starts the turn unless
// one runs. With no engines set up (a restart without them) the turn
// waits: its due item is still not a timeout.
func engineWorkDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	mine = item.Due == gobot.DueEngine
	return mine, mine
}

// engineTurn runs one piece of engine work in game id on the runner: the
// engine is asked outside any transaction (askEngine), and its answer is
// applied only if the game is still in the position it was asked about
// (applyEngineAnswer), so a move is made once even when two turns (two
// processes, a restart) ask together. It reports whether more engine
// work followed.
func (b *Bot) engineTurn(ctx context.Context, id gobot.GameID) bool {
	d, err := b.runJob(ctx, b.job("engine turn"), dueItem{Game: id}, b.timeSource.Now(), nil)
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
	flow.EngineAnswer
	err error // judging dead stones failed: the marking stands
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
	job := b.engines().Job(snap.Match, snap.G)
	if job == flow.JobNone {
		return nil, nil
	}
	a := &engineAnswer{snap: snap, name: cmp.Or(snap.Match.Engine, b.eng.scorer), EngineAnswer: flow.EngineAnswer{Job: job}}
	rec := snap.G.Record()
	switch job {
	case flow.JobMove:
		a.Move, err = b.eng.engines.Move(c.Ctx, a.name, rec, snap.Match.EngineLevel, len(rec.Resumes) > 0)
	case flow.JobPropose:
		a.Dead, err = b.eng.engines.Dead(c.Ctx, a.name, rec)
	case flow.JobReview:
		a.Agrees, err = b.eng.engines.Review(c.Ctx, a.name, rec, flow.EngineColor(snap.Match))
	}
	if err == nil {
		return a, nil
	}
	if c.Ctx.Err() != nil {
		return nil, err // shutting down: the turn stays due for the next start
	}
	b.log.Warn("engine request failed", "game", snap.Match.ID, "engine", a.name, "err", err)
	if !snap.Match.Has(gobot.SideEngine) || job == flow.JobPropose || job == flow.JobReview {
		// Judging dead stones failed (final_status_list can take minutes
		// on an open board): the built-in proposal stands, or the
		// player's marking; the engine accepts it, so nothing loops.
		a.err = err
		return a, nil
	}
	return nil, &engineUnanswered{snap: snap, name: a.name, err: err}
}

// applyEngineAnswer applies the engine's answer (c.Prepared) if the game
// is still where it was asked (flow.Engines.Answer), and announces it.
// The announcement is claimed with the move (deliver.Claim): if this process
// dies before sending it, another does.
func applyEngineAnswer(c *JobCall) (Done, error) {
	a := c.Prepared.(*engineAnswer)
	if a.err != nil {
		return engineFallback(c, a)
	}
	b, tx, now, snap := c.bot, c.Tx, c.Now, a.snap
	id := snap.Match.ID
	step := fmt.Sprintf("game %d engine job %d at move %d resume %d", id, a.Job, snap.G.MoveCount(), len(snap.G.Record().Resumes))
	l, err := load(c.Match)
	if err != nil {
		return Done{}, err
	}
	turn, err := b.engines().Answer(snap.Loaded, l.Loaded, a.EngineAnswer, now)
	if err != nil || turn.Job == flow.JobNone {
		return Done{}, err // someone else applied it, or the game moved on
	}
	var fx Effects
	if turn.Kept {
		if err := b.storeTurn(tx, l, false, now); err != nil {
			return Done{}, err
		}
		if b.engines().Job(l.Match, l.G) != flow.JobNone {
			fx.wake(id)
		}
		return done("kept the players' marking", "", fx)
	}
	if (turn.Job == flow.JobReview && turn.Agrees) || turn.Job == flow.JobAccept {
		l.acceptSaid = turn.Color
	}
	if err := b.storeTurn(tx, l, turn.Over, now); err != nil {
		return Done{}, err
	}
	autoPass := ""
	if len(turn.Played) > 0 {
		autoPass = autoPassText(l, turn.Before) // play.go
	}
	if what := say.EngineTurn(turn, a.name, l.G.Config().Height, autoPass); what != "" {
		by := EngineUser(a.name)
		if !l.Match.Has(gobot.SideEngine) {
			by = "" // a people's game: the proposal pings both
		}
		rep := b.gameReplyAt(&fx, tx, l, occasion{Room: l.Match.Room, At: now, By: by}, what)
		fx.notify(protocol.Message{Room: l.Match.Room, Reply: rep})
	}
	if b.engines().Job(l.Match, l.G) != flow.JobNone {
		fx.wake(id) // more engine work follows (engineTurn goes on)
	}
	return done(turn.Job.String(), step, fx)
}

// engineFallback is the engine turn when judging the dead stones failed
// (askEngine): the marking as it stands is accepted for the engine
// (flow.EngineFallback), and in an engine game the room is told why.
// Claimed as an engine's move is.
func engineFallback(c *JobCall, a *engineAnswer) (Done, error) {
	b, tx, now, snap, match := c.bot, c.Tx, c.Now, a.snap, c.Match
	step := fmt.Sprintf("game %d engine fallback at move %d resume %d", snap.Match.ID, snap.G.MoveCount(), len(snap.G.Record().Resumes))
	cur, err := load(match)
	if err != nil {
		return Done{}, err
	}
	turn := flow.EngineFallback(snap.Loaded, cur.Loaded, a.Job, now)
	if turn.Job == flow.JobNone {
		return Done{}, nil
	}
	if err := b.storeTurn(tx, cur, turn.Over, now); err != nil {
		return Done{}, err
	}
	var fx Effects
	if match.Has(gobot.SideEngine) {
		rep := b.gameReplyAt(&fx, tx, cur, occasion{Room: match.Room, At: now, By: EngineUser(a.name)}, say.EngineFallback(a.name, a.err))
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
	if b.eng.failed == nil {
		b.eng.failed = map[gobot.GameID]int{}
	}
	seen, ok := b.eng.failed[l.Match.ID]
	b.eng.failed[l.Match.ID] = l.G.MoveCount()
	b.eng.mu.Unlock()
	if ok && seen == l.G.MoveCount() {
		return
	}
	text := say.EngineUnanswered(u.name, l.Match.ID, u.err)
	b.notify(ctx, protocol.Message{Room: l.Match.Room, Reply: protocol.Reply{Game: l.Match.ID, Title: say.GameName(l.Match.ID), Text: text},
		Key: fmt.Sprintf("game %d engine failed at move %d resume %d", l.Match.ID, l.G.MoveCount(), len(l.G.Record().Resumes))})
}

func cmdEngines(call *Call) (Result, error) {
	tx, b, r := call.Tx, call.bot, call.Req
	var lines []string
	if b.eng.engines != nil {
		for _, e := range b.eng.engines.List() {
			lines = append(lines, say.EngineLine(e.Name, e.About, e.Levels, e.Sizes))
		}
	}
	if len(lines) == 0 {
		return Result{Reply: protocol.Reply{Title: "Engines", Text: say.NoEngines(b.eng.missing), Private: true}}, nil
	}
	rm, err := tx.Room(r.Room)
	off := err == nil && rm.NoEngines
	text := say.EngineList(lines, b.engineNames()[0], b.cfg.RateEngineGames, off, b.eng.scorer)
	return Result{Reply: protocol.Reply{Title: "Engines", Text: text, Private: true}}, nil
}

// EngineMove is an engine's move (flow.EngineMove).
type EngineMove = flow.EngineMove
