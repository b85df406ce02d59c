package chat

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
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
	if b.engineJob(l.match, l.g) != jobNone {
		l.match.Deadline, l.match.Reminded = t, 0
	}
}

// wakeEngine queues the engine's turn in game l, if it has one, for
// after the commit, so the turn reads the committed game.
func (b *core) wakeEngine(fx *Effects, l *loaded) {
	if l == nil || b.engineJob(l.match, l.g) == jobNone {
		return
	}
	fx.wake(l.match.ID)
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

// engineTick handles a due game whose due item is engine work: it starts
// the turn (unless one runs) and reports true, so the clock does not
// treat the engine's "deadline" as a timeout.
func (b *Bot) engineTick(match *gobot.Match) bool {
	if match.Engine == "" && (b.eng.scorer == "" || match.Deadline.IsZero()) {
		return false
	}
	l, err := load(match)
	if err != nil {
		return false
	}
	if b.engineJob(l.match, l.g) == jobNone {
		return false
	}
	// With no engines set up (a restart without them) the turn waits:
	// its due item is not a timeout.
	b.startEngineTurn(match.ID)
	return true
}

// engineTurn runs one piece of engine work in game id: the engine is
// asked outside any transaction, and its answer is applied only if the
// game is still in the position it was asked about, so a move is made
// once even when two turns (two processes, a restart) ask together. It
// reports whether more engine work followed.
func (b *Bot) engineTurn(ctx context.Context, id gobot.GameID) bool {
	var snap *loaded
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		match, err := tx.Match(id)
		if err != nil {
			return err
		}
		snap, err = load(match)
		return err
	}); err != nil {
		if ctx.Err() == nil {
			b.log.Error("engine turn", "game", id, "err", err)
		}
		return false
	}
	job := b.engineJob(snap.match, snap.g)
	if job == jobNone {
		return false
	}
	name := snap.match.Engine
	if name == "" {
		name = b.eng.scorer
	}
	ec := engineColor(snap.match)
	rec := snap.g.Record()
	var mv EngineMove
	var dead []game.Point
	var accept bool
	var err error
	switch job {
	case jobMove:
		mv, err = b.eng.engines.Move(ctx, name, rec, snap.match.EngineLevel, len(rec.Resumes) > 0)
	case jobPropose:
		dead, err = b.eng.engines.Dead(ctx, name, rec)
	case jobReview:
		accept, err = b.eng.engines.Review(ctx, name, rec, ec)
	}
	if err != nil {
		b.engineFailed(ctx, snap, name, job, err)
		return false
	}
	now := b.timeSource.Now()
	var out *loaded
	var fx Effects
	// The announcement is claimed with the move (claim.go): if this
	// process dies before sending it, another does.
	step := fmt.Sprintf("game %d engine job %d at move %d resume %d", id, job, snap.g.MoveCount(), len(rec.Resumes))
	// In a platform served under a lease (Matrix) the move is applied
	// under its term: a process that lost the lease applies nothing.
	err = b.store.Update(b.fenced(ctx, snap.match.Room.Platform()), func(tx gobot.Tx) error {
		out, fx = nil, Effects{} // a rerun after a conflict decides afresh
		match, err := tx.Match(id)
		if err != nil {
			return err
		}
		l, err := load(match)
		if err != nil {
			return err
		}
		if !samePosition(snap, l) || b.engineJob(l.match, l.g) != job {
			if job == jobPropose && l.g.Phase() == game.Scoring && l.g.MoveCount() == snap.g.MoveCount() && l.match.EngineDead != l.g.MoveCount() {
				// The players marked stones first: keep theirs.
				l.match.EngineDead = l.g.MoveCount()
				startClock(l.match, l.g, now)
				b.engineDue(l, now)
				out = l
				return tx.PutMatch(l.match)
			}
			return nil // someone else applied it, or the game moved on
		}
		me := protocol.Mention(EngineUser(name))
		var what string
		switch job {
		case jobMove:
			what, err = b.applyEngineMove(l, ec, mv, now)
			if err != nil {
				return err
			}
		case jobPropose:
			what = b.applyEngineDead(l, dead, ec, me)
		case jobReview:
			if accept {
				l.g.Accept(ec)
				l.acceptSaid = ec
				what = fmt.Sprintf("%s accepts this marking.", me)
			} else {
				if err := l.g.Resume(); err != nil {
					return err
				}
				what = fmt.Sprintf("%s does not agree with that marking, so play resumes to settle it: play where you think it is wrong, or pass.", me)
			}
		case jobAccept:
			l.g.Accept(ec)
			l.acceptSaid = ec
			what = fmt.Sprintf("%s accepts the count.", me)
		}
		if l.g.Phase() == game.Over {
			finish(l.match, l.g, now)
			if err := b.rateGame(tx, l.match, l.g); err != nil {
				return err
			}
		} else if job != jobMove {
			startClock(l.match, l.g, now)
		}
		l.match.Record = l.g.Record()
		l.match.Updated = now
		b.engineDue(l, now)
		if err := tx.PutMatch(l.match); err != nil {
			return err
		}
		out = l
		if what != "" {
			user := protocol.User{ID: EngineUser(name)}
			if l.match.Engine == "" {
				user = protocol. // a people's game: the proposal pings both
							User{}
			}
			r := &protocol.Request{Time: now, Room: l.match.Room, User: user}
			rep := b.gameReply(&fx, tx, l, r, what)
			fx.notify(protocol.Message{Room: l.match.Room, Reply: rep})
		}
		return b.claim(tx, step, fx.Notices, now)
	})
	if err != nil {
		if ctx.Err() == nil {
			b.log.Error("engine turn", "game", id, "err", err)
		}
		return false
	}
	if out == nil {
		return false
	}
	b.eng.mu.Lock()
	delete(b.eng.failed, id)
	b.eng.mu.Unlock()
	b.sendClaimed(ctx, step, fx.Notices)
	return b.engineJob(out.match, out.g) != jobNone
}

// samePosition reports whether two loads of a game are at the same
// point: moves, resumes, phase, marks and acceptances.
func samePosition(a, b *loaded) bool {
	ra, rb := a.g.Record(), b.g.Record()
	return a.g.Phase() == b.g.Phase() && len(ra.Moves) == len(rb.Moves) && slices.Equal(ra.Resumes, rb.Resumes) &&
		slices.Equal(ra.Dead, rb.Dead) && slices.Equal(ra.Accepted, rb.Accepted) && a.match.EngineDead == b.match.EngineDead
}

func (b *core) applyEngineMove(l *loaded, ec game.Color, mv EngineMove, now time.Time) (string, error) {
	me := protocol.Mention(EngineUser(l.match.Engine))
	h := l.g.Config().Height
	if mv.Resign {
		if err := l.g.Resign(ec); err != nil {
			return "", err
		}
		return fmt.Sprintf("%s resigned.", me), nil
	}
	var pts []string
	passed, count := false, l.g.MoveCount()
	for _, m := range mv.Moves {
		if m.Color != ec || l.g.Phase() != game.Playing {
			break
		}
		if err := l.g.PlayMove(m); err != nil {
			return "", fmt.Errorf("engine move %s: %w", m.Point.GTP(h), err)
		}
		moved(l.match, l.g, ec, now)
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
		if l.g.Phase() == game.Scoring {
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
	for _, p := range l.g.DeadStrings() {
		l.g.ToggleDead(p, false)
	}
	h := l.g.Config().Height
	var names []string
	for _, p := range dead {
		if l.g.At(p) == game.Empty || l.g.IsDead(p) {
			continue
		}
		if err := l.g.ToggleDead(p, false); err == nil {
			names = append(names, p.GTP(h))
		}
	}
	l.match.EngineDead = l.g.MoveCount()
	list := "no dead stones"
	if len(names) > 0 {
		list = "dead: " + protocol.ClipRunes(strings.Join(names, " "), 200)
	}
	if ec == game.Empty {
		return fmt.Sprintf("%s proposes the dead stones (%s).", me, list)
	}
	l.g.Accept(ec)
	return fmt.Sprintf("%s proposes %s and accepts that count. Accept with %s, mark stones with %s (%s re-checks them), or %s.",
		me, list, b.cmd("done"), b.cmd("dead <point>"), me, b.cmd("resume"))
}

// engineFailed logs a failed engine request and tells the room once per
// position; the game is unchanged and the clock loop asks again.
func (b *Bot) engineFailed(ctx context.Context, l *loaded, name string, job engineJob, err error) {
	if ctx.Err() != nil {
		return // shutting down: the turn stays due for the next start
	}
	b.log.Warn("engine request failed", "game", l.match.ID, "engine", name, "err", err)
	if l.match.Engine == "" || job == jobPropose || job == jobReview {
		// Judging dead stones failed (final_status_list can take minutes
		// on an open board): the built-in proposal stands, or the
		// player's marking; the engine accepts it, so nothing loops.
		now := b.timeSource.Now()
		reason := protocol.ClipRunes(err.Error(), 200)
		var fx Effects
		// Claimed and fenced as an engine's move is (engineTurn).
		step := fmt.Sprintf("game %d engine fallback at move %d resume %d", l.match.ID, l.g.MoveCount(), len(l.g.Record().Resumes))
		uerr := b.store.Update(b.fenced(ctx, l.match.Room.Platform()), func(tx gobot.Tx) error {
			fx = Effects{}
			match, err := tx.Match(l.match.ID)
			if err != nil {
				return err
			}
			cur, err := load(match)
			if err != nil || !samePosition(l, cur) {
				return err
			}
			match.EngineDead = cur.g.MoveCount()
			if ec := engineColor(match); ec != game.Empty {
				cur.g.Accept(ec)
				match.Record = cur.g.Record()
			}
			if cur.g.Phase() == game.Over {
				finish(match, cur.g, now)
				if err := b.rateGame(tx, match, cur.g); err != nil {
					return err
				}
			} else {
				startClock(match, cur.g, now)
			}
			match.Updated = now
			b.engineDue(cur, now)
			if err := tx.PutMatch(match); err != nil {
				return err
			}
			if match.Engine != "" {
				what := fmt.Sprintf("%s could not judge the dead stones (%s), so it accepts the marking as it stands.", protocol.Mention(EngineUser(name)), reason)
				r := &protocol.Request{Time: now, Room: match.Room, User: protocol.User{ID: EngineUser(name)}}
				rep := b.gameReply(&fx, tx, cur, r, what)
				fx.notify(protocol.Message{Room: match.Room, Reply: rep})
			}
			return b.claim(tx, step, fx.Notices, now)
		})
		if uerr != nil {
			// Nothing was stored: nothing is announced.
			b.log.Error("engine fallback", "game", l.match.ID, "err", uerr)
			return
		}
		b.sendClaimed(ctx, step, fx.Notices)
		return
	}
	b.eng.mu.Lock()
	seen, ok := b.eng.failed[l.match.ID]
	b.eng.failed[l.match.ID] = l.g.MoveCount()
	b.eng.mu.Unlock()
	if ok && seen == l.g.MoveCount() {
		return
	}
	text := fmt.Sprintf("%s could not answer in game #%d (%s). Nothing changed; I will ask it again shortly.", protocol.Mention(EngineUser(name)), l.match.ID, protocol.ClipRunes(err.Error(), 200))
	b.notify(ctx, protocol.Message{Room: l.match.Room, Reply: protocol.Reply{Game: l.match.ID, Title: fmt.Sprintf("Game #%d", l.match.ID), Text: text},
		Key: fmt.Sprintf("game %d engine failed at move %d resume %d", l.match.ID, l.g.MoveCount(), len(l.g.Record().Resumes))})
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
