package chat

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/deliver"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
)

// The route of a timed job (a reminder, a timeout, a voting window's
// close, an engine's turn, a vacation's end):
//
//  1. Run wakes at the next regular tick (Config.Tick), or sooner when
//     work on an index read on time (a game's Deadline) falls due first;
//     a command that changed something pokes it to look again. Such a
//     wake does only the work due on those indexes (tickOnTime: the
//     timeouts, not the reminders ahead of a deadline nor the other
//     indexes), which waits for no bulk work.
//  2. Tick reads each index of due work once (dueIndex: games by
//     Deadline, players by the end of their vacation) and offers every
//     item whose platform this process can deliver to now to the jobs
//     declared on that index, in order: the first job that takes the
//     item handles it (or waits for it, if it is not due yet).
//  3. The runner opens the job's one write transaction, fenced by the
//     lease of the item's platform (a process that lost the lease
//     writes nothing), reads the item again in it (JobCall.Match or
//     .Player) and calls the job's handler. The handler decides afresh
//     (a shared store may run it again after a conflict), records, and
//     returns what it did and its messages (Done); it has no store.
//  4. In the same transaction the runner claims the messages under the
//     step that names them (deliver.Claim), so that they are sent once across
//     processes: a second process deciding the same step finds the work
//     done and decides nothing; if this one dies before sending, another
//     sends the claim when it expires (reclaim).
//  5. After the commit the runner draws and sends the messages and
//     starts the engine turns the job woke; a tick records the claims it
//     sent done together, once its index's due work is done.
//
// A job with a prepare step (an engine's turn) runs off the tick, one at
// a time per game, started by the tick or by a command's Effects.Wake:
// the runner reads the game, prepare does the slow work outside any
// transaction, and the handler applies its answer as above.

// A job is timed work declared as data, as a command is: its name, the
// index its work is found through, which of the listed items are its,
// and its handler.
type job struct {
	name string
	// on is the index its work is found through.
	on *dueIndex
	// takes reports whether item, as the index listed it, is this job's
	// work (mine), and if so whether it is due at now. The first job on
	// the index that takes an item handles it; a job's item that is not
	// due yet is left alone until it is (an open voting window).
	takes func(b *core, item dueItem, now time.Time) (mine, due bool)
	// prepare, if set, is slow work done outside any transaction on the
	// item as the runner read it (asking an engine for its move). It
	// returns what the handler gets as JobCall.Prepared, or nil when
	// there is nothing to do after all (nothing is written).
	prepare func(c *JobCall) (any, error)
	// start runs a job with a prepare step off the tick: the tick hands
	// it the due item, and it runs the job in the background (engine
	// turns: one at a time per game, engine.go).
	start func(b *Bot, item dueItem)
	// run decides and records one item in the runner's write transaction
	// and returns what it did and the messages to send.
	run func(c *JobCall) (Done, error)
	// anywhere: the job runs even where this process cannot deliver to
	// the item's platform now (an engine's turn a web click woke); other
	// jobs check again in their transaction, and write nothing if the
	// platform's notifier went away since the tick looked.
	anywhere bool
}

// jobs declares the timed jobs, in the order they are offered due
// items; their handlers live in the files of their topics.
func jobs() []*job {
	return []*job{
		// A live game's pause: its Deadline is the pause's end while
		// it runs (pause.go).
		{name: "pause", on: byDeadline, takes: pauseDue, run: runDue},
		// A vote game's open window is the room's turn: no timeout or
		// reminder while it runs (vote.go).
		{name: "voting window", on: byDeadline, takes: voteWindowDue, run: runDue},
		// An engine's work is due at once (engineDue): its "deadline" is
		// no timeout (engine.go).
		{name: "engine turn", on: byDeadline, takes: engineWorkDue, prepare: askEngine, run: applyEngineAnswer,
			start: func(b *Bot, item dueItem) { b.startEngineTurn(item.Game) }, anywhere: true},
		// Reminders, and the loss on time, or a team's turn passed on
		// (scheduler.go, rengo.go).
		{name: "clock", on: byDeadline, takes: clockDue, run: runDue},
		// A vacation's reminder a day before its end, and its end
		// (vacation.go).
		{name: "vacation", on: byVacationEnd, takes: vacationDue, run: runVacation},
		// An idle review's close, a closed one's deletion (review.go).
		{name: "review", on: byReviewDue, takes: reviewDue, run: runReview},
		// A tournament's registration closing, its next round once the
		// last game of a round ended (tournament.go).
		{name: "tournament", on: byTournamentDue, takes: dueAt, run: runTournament},
		// A ladder's challenge not answered by its deadline: forfeited
		// (ladder.go).
		{name: "ladder", on: byLadderDue, takes: dueAt, run: runLadder},
	}
}

// job returns the job declared as name.
func (b *core) job(name string) *job {
	for _, j := range b.jobs {
		if j.name == name {
			return j
		}
	}
	panic("chat: no job " + name)
}

// A dueIndex lists due work from the store: each job declares the one
// its work is found through, and the runner reads each index once a
// tick.
type dueIndex struct {
	name string
	// list reads the items due by now (with the index's lead: the
	// reminders before a deadline).
	list func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error)
	// onTime: Run wakes when an item of this index falls due (a game's
	// deadline: a voting window's close, a player's time running out, an
	// engine's turn), not only at the next regular tick.
	onTime bool
	// upTo lists the items whose due time is before t, earliest first,
	// at most limit of them, for Run's wake.
	upTo func(b *core, tx gobot.Tx, t time.Time, limit int) ([]dueItem, error)
}

// dueItem is one record an index listed: a game, a player or a review.
type dueItem struct {
	Game   gobot.GameID
	User   gobot.UserID   // a player's
	Review gobot.ReviewID // a review's
	// Tournament is a tournament's (tournament.go).
	Tournament gobot.TournamentID
	// Ladder is a ladder's (ladder.go).
	Ladder gobot.LadderID
	// platform is the one whose notifier delivers its messages (and
	// whose lease fences its transaction).
	platform string
	// At is when it falls due (a game's Deadline); Due, for a game, what
	// falls due then (Match.Due), which tells the job that takes it.
	At  time.Time
	Due gobot.DueKind
	// Match, Player and Rev are the records as the index listed them.
	Match  *gobot.Match
	Player *gobot.Player
	Rev    *gobot.Review
}

func gameItem(m *gobot.Match, e flow.Engines) dueItem {
	return dueItem{Game: m.ID, platform: m.Room.Platform(), At: m.Deadline, Due: flow.DueOf(m, e), Match: m}
}

// byDeadline lists games by Match.Deadline: their clocks (reminders
// ahead of it), voting windows and engine turns.
var byDeadline = &dueIndex{
	name: "deadlines",
	list: func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error) {
		horizon := now
		if len(b.cfg.Reminders) > 0 {
			horizon = now.Add(b.cfg.Reminders[0] + 1) // DueGames is strict: a reminder due just now is due
		}
		return dueGames(b, tx, horizon, 0)
	},
	onTime: true,
	upTo:   dueGames,
}

func dueGames(b *core, tx gobot.Tx, before time.Time, limit int) ([]dueItem, error) {
	due, err := tx.DueGames(before, limit)
	items := make([]dueItem, 0, len(due))
	for _, m := range due {
		items = append(items, gameItem(m, b.engines()))
	}
	return items, err
}

// byVacationEnd lists the players whose vacation ends within a day
// (that day's end included): their reminder, then the end.
var byVacationEnd = &dueIndex{
	name: "vacations",
	list: func(b *core, tx gobot.Tx, now time.Time) ([]dueItem, error) {
		due, err := tx.DueVacations(now.Add(flow.VacationReminder+time.Nanosecond), 0)
		items := make([]dueItem, 0, len(due))
		for _, p := range due {
			items = append(items, dueItem{User: p.ID, platform: p.ID.Platform(), At: p.Vacation.End, Player: p})
		}
		return items, err
	},
}

// A JobCall is one item of a job in the transaction the runner opened
// for it: everything its handler gets. Like a command's Call it has no
// store: it reads and writes through Tx, and sends nothing.
type JobCall struct {
	Ctx context.Context
	Tx  gobot.Tx // nil in prepare
	Now time.Time
	// Match is the game the item names, read in this transaction (in
	// prepare: in a read transaction before it); Player the player;
	// Review the review.
	Match      *gobot.Match
	Player     *gobot.Player
	Review     *gobot.Review
	Tournament *gobot.Tournament
	Ladder     *gobot.Ladder
	// Prepared is what the job's prepare step returned.
	Prepared any

	bot *core
}

// Done is what a job's handler returns: what it did ("" when nothing was
// due after all), the step that names its messages (their claim and
// Message.Key: "game 7 timeout"), and its effects (the messages, the
// engine turns to start).
type Done struct {
	Did  string
	Step string
	Effects
}

// done is the Done of a handler that did what and made messages fx.
func done(what, step string, fx Effects) (Done, error) {
	return Done{Did: what, Step: step, Effects: fx}, nil
}

// Run drives the timed jobs until ctx ends. Work that fell due while the
// bot was down is done at once. It ticks every Config.Tick, and sooner
// when work on an index read on time (a voting window, as short as 5
// seconds, a player's time) falls due before the next tick: after each
// tick and each command that changed something it looks for the next.
// It waits on the TimeSource's timers when it has them (Timers: a test's
// fake time), else on the system's.
func (b *Bot) Run(ctx context.Context) error {
	var last time.Time   // when the last regular tick ran
	var looked time.Time // when the last tick, regular or on time, ran
	onTime := false      // the wait is for work due on time, not the regular tick
	ticked := b.after(0)
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-ticked:
			looked = b.timeSource.Now()
			// A wake for work due on time does that work only (issue 47:
			// a clock's timeout waits for no reminder, vacation, review
			// or expiry, which the regular tick does).
			if onTime {
				b.tickOnTime(ctx, looked)
				break
			}
			last = looked
			if err := b.Tick(ctx); err != nil && ctx.Err() == nil { // not the shutdown itself
				b.log.Error("clock", "err", err)
			}
		case <-b.wake:
		}
		wait := last.Add(b.cfg.Tick).Sub(b.timeSource.Now())
		onTime = false
		if next, ok := b.nextDue(ctx, looked, b.cfg.Tick); ok && next < wait {
			wait, onTime = next, true
		}
		ticked = b.after(max(wait, 0))
	}
}

// tickOnTime does the work of the indexes read on time (onTime) that is
// due by now, as Tick does: a game's timeout, a voting window's close, an
// engine's turn, a tournament's next round; not the reminders ahead of a
// deadline nor the other indexes' work, which wait for the regular tick.
func (b *Bot) tickOnTime(ctx context.Context, now time.Time) {
	var sent []string // the claims sent, recorded done at the end
	for _, ix := range b.indexes() {
		if !ix.onTime {
			continue
		}
		var due []dueItem
		if err := b.store.View(ctx, func(tx gobot.Tx) error {
			var err error
			due, err = ix.upTo(b.core, tx, now.Add(time.Nanosecond), 0)
			return err
		}); err != nil && ctx.Err() == nil {
			b.log.Error("clock: "+ix.name, "err", err)
		}
		for _, item := range due {
			if b.CanDeliver(item.platform) {
				b.offer(ctx, ix, item, now, &sent)
			}
		}
	}
	b.claimsDone(ctx, sent)
}

// after is a channel that receives once d has passed on the time source.
func (b *Bot) after(d time.Duration) <-chan time.Time {
	if t, ok := b.timeSource.(Timers); ok {
		return t.After(d)
	}
	return time.After(d)
}

// poke tells Run to look again for the next due work (never blocks: one
// pending poke is enough).
func (b *Bot) poke() {
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

// nextDue is how long until the first item of an index read on time
// falls due after the last tick and within d from now; false when none.
// An item due before the last tick was that tick's to handle: if it
// could not, the next regular tick tries again.
func (b *Bot) nextDue(ctx context.Context, last time.Time, d time.Duration) (time.Duration, bool) {
	now := b.timeSource.Now()
	var next time.Duration
	found := false
	for _, ix := range b.indexes() {
		if !ix.onTime {
			continue
		}
		// The index lists earliest first: the first item this process
		// can deliver, due after the last tick, is the one to wake for.
		// It is read a few items at a time, not whole (issue 47: with
		// 500 live games, decoding every game due within d after each
		// tick and each command was most of the runner's CPU).
		for limit := 8; ; limit *= 4 {
			var due []dueItem
			if err := b.store.View(ctx, func(tx gobot.Tx) error {
				var err error
				due, err = ix.upTo(b.core, tx, now.Add(d), limit)
				return err
			}); err != nil && len(due) == 0 {
				break
			}
			i := slices.IndexFunc(due, func(item dueItem) bool {
				// An item due before the last tick was that tick's to
				// handle; one of a platform this process cannot deliver
				// to now is another process's.
				return item.At.After(last) && b.CanDeliver(item.platform)
			})
			if i >= 0 {
				// Work just due is done by the next tick, a moment on.
				if w := max(due[i].At.Sub(now), 100*time.Millisecond); !found || w < next {
					next, found = w, true
				}
				break
			}
			if len(due) < limit {
				break
			}
		}
	}
	return next, found
}

// indexes are the due indexes of the jobs, each once, in the jobs' order.
func (b *core) indexes() []*dueIndex {
	var out []*dueIndex
	for _, j := range b.jobs {
		if !slices.Contains(out, j.on) {
			out = append(out, j.on)
		}
	}
	return out
}

// Tick does every due job once: it sends the reminders that are due,
// ends games whose time ran out, closes voting windows, starts engine
// turns, ends vacations. Only items of platforms with a notifier are
// taken: several processes may share the store, and one that cannot
// deliver to a platform right now (a Matrix standby) leaves its work to
// one that can, so no message is claimed and then not sent.
func (b *Bot) Tick(ctx context.Context) error {
	now := b.timeSource.Now()
	var sent []string // the claims an index's work sent, recorded done after it
	for i, ix := range b.indexes() {
		// The first index unreadable (the store is down) fails the tick;
		// another's is logged, and the tick goes on.
		var due []dueItem
		if err := b.store.View(ctx, func(tx gobot.Tx) error {
			var err error
			due, err = ix.list(b.core, tx, now)
			return err
		}); err != nil {
			if len(due) == 0 && i == 0 {
				return err
			}
			if len(due) == 0 && ctx.Err() == nil { // not the shutdown itself
				b.log.Error("clock: "+ix.name, "err", err)
			}
		}
		for _, item := range due {
			if !b.CanDeliver(item.platform) {
				continue // left to a process that can send its messages
			}
			b.offer(ctx, ix, item, now, &sent)
		}
		b.claimsDone(ctx, sent)
		sent = sent[:0]
		if i == 0 {
			// Claims whose claimer died before sending: sent now, after
			// the games' due work (the clocks' timeouts come first).
			if err := b.reclaim(ctx, now); err != nil {
				b.log.Error("clock: expired claims", "err", err)
			}
		}
	}
	// Forget handled event IDs older than EventTTL.
	return b.store.Update(ctx, func(tx gobot.Tx) error {
		if _, err := tx.ExpireOutbox(now.Add(-b.cfg.EventTTL)); err != nil {
			return err
		}
		_, err := tx.ExpireEvents(now.Add(-b.cfg.EventTTL))
		return err
	})
}

// offer gives item to the first job on ix that takes it.
func (b *Bot) offer(ctx context.Context, ix *dueIndex, item dueItem, now time.Time, sent *[]string) {
	for _, j := range b.jobs {
		if j.on != ix {
			continue
		}
		mine, due := j.takes(b.core, item, now)
		if !mine {
			continue
		}
		switch {
		case !due:
		case j.start != nil:
			j.start(b, item)
		default:
			_, err := b.runJob(ctx, j, item, now, sent)
			b.logJob(err, j, item)
		}
		return
	}
}

// logJob logs err, from j's run on item: a lease held elsewhere now is
// news, not an error.
func (b *Bot) logJob(err error, j *job, item dueItem) {
	attrs := []any{"game", item.Game}
	if item.User != "" {
		attrs = []any{"player", item.User}
	}
	switch {
	case errors.Is(err, gobot.ErrLeaseLost):
		b.log.Info("clock: "+j.name+": the platform's lease is held elsewhere now", append(attrs, "err", err)...)
	case err != nil:
		b.log.Error("clock: "+j.name, append(attrs, "err", err)...)
	}
}

// runJob runs j on item: prepare (if any) on the item as read, then the
// handler in one write transaction fenced by the item's platform's
// lease, which also claims its messages; after the commit they are sent
// and the engine turns it woke are started. It returns what the handler
// did.
func (b *Bot) runJob(ctx context.Context, j *job, item dueItem, now time.Time, sent *[]string) (Done, error) {
	var prepared any
	if j.prepare != nil {
		c := &JobCall{Ctx: ctx, Now: now, bot: b.core}
		if err := b.store.View(ctx, func(tx gobot.Tx) error { return item.read(tx, c) }); err != nil {
			return Done{}, err
		}
		if c.Match != nil && item.platform == "" { // woken by a command: known by its ID alone
			item.platform = c.Match.Room.Platform()
		}
		var err error
		if prepared, err = j.prepare(c); err != nil || prepared == nil {
			return Done{}, err
		}
		now = b.timeSource.Now() // the slow work took its time
	}
	var d Done
	err := b.store.Update(b.notifiers.Fenced(ctx, item.platform), func(tx gobot.Tx) error {
		d = Done{} // a rerun after a conflict decides afresh
		if !b.CanDeliver(item.platform) && !j.anywhere {
			return nil // the notifier went away since the tick looked
		}
		c := &JobCall{Ctx: ctx, Tx: tx, Now: now, Prepared: prepared, bot: b.core}
		if err := item.read(tx, c); err != nil {
			return err
		}
		var err error
		if d, err = j.run(c); err != nil {
			return err
		}
		if d.Notices, err = b.mirrored(tx, d.Notices); err != nil { // mirror.go
			return err
		}
		return deliver.Claim(tx, d.Step, d.Notices, b.cfg.Holder, now.Add(b.cfg.ClaimTTL))
	})
	if err != nil {
		return Done{}, err
	}
	b.sendClaimedLater(ctx, d.Step, d.Notices, sent)
	for _, id := range d.Wake {
		b.startEngineTurn(id)
	}
	return d, nil
}

// read reads item's record in tx into c.
func (item dueItem) read(tx gobot.Tx, c *JobCall) error {
	var err error
	if item.Review != 0 {
		c.Review, err = tx.Review(item.Review)
		return err
	}
	if item.Tournament != 0 {
		c.Tournament, err = tx.Tournament(item.Tournament)
		return err
	}
	if item.Ladder != 0 {
		c.Ladder, err = tx.Ladder(item.Ladder)
		return err
	}
	if item.User != "" {
		c.Player, err = tx.Player(item.User)
		return err
	}
	c.Match, err = tx.Match(item.Game)
	return err
}

// sendClaimed sends the messages of the claim step (committed) and then
// records it done. The record is made whether or not the lease the claim
// was made under is still held: the messages are out.
func (b *Bot) sendClaimed(ctx context.Context, step string, msgs []protocol.Message) {
	b.sendClaimedLater(ctx, step, msgs, nil)
}

// sendClaimedLater is sendClaimed, but with sent not nil it adds step to
// *sent instead of recording it done: a tick records the claims it sent
// together once its due work is done (claimsDone), one transaction for
// them all rather than one after each (issue 47: the timeouts of 500
// live games waited on a commit each for these). Until then a process
// that dies would have the claims sent again when they expire.
func (b *Bot) sendClaimedLater(ctx context.Context, step string, msgs []protocol.Message, sent *[]string) {
	b.carryOut(ctx, Effects{Notices: deliver.Keyed(step, msgs)})
	if step == "" || len(msgs) == 0 {
		return // nothing was claimed
	}
	if sent != nil {
		*sent = append(*sent, step)
		return
	}
	b.claimsDone(ctx, []string{step})
}

// claimsDone records the claims of steps done, in one transaction.
func (b *Bot) claimsDone(ctx context.Context, steps []string) {
	if len(steps) == 0 {
		return
	}
	if err := b.store.Update(gobot.WithFence(ctx, gobot.Fence{}), func(tx gobot.Tx) error {
		for _, step := range steps {
			if err := tx.DeleteClaim(step); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		b.log.Warn("recording claims done", "claims", steps, "err", err)
	}
}

// reclaim claims again, and sends, the claims that expired before now
// unfinished (their claimer died between the claim and the send), for
// the platforms this process can deliver to now.
func (b *Bot) reclaim(ctx context.Context, now time.Time) error {
	var expired []*gobot.Claim
	if err := b.store.View(ctx, func(tx gobot.Tx) error {
		var err error
		expired, err = tx.ExpiredClaims(now, 0)
		return err
	}); err != nil {
		if len(expired) == 0 {
			return err
		}
		b.log.Error("clock: unreadable claims", "err", err) // and the readable ones are sent
	}
	for _, c := range expired {
		msgs, err := deliver.Claimed(c)
		if err != nil {
			b.log.Error("an unreadable claim is dropped", "claim", c.Key, "err", err)
			b.store.Update(ctx, func(tx gobot.Tx) error { return tx.DeleteClaim(c.Key) })
			continue
		}
		platform, deliverable := b.notifiers.Deliverable(msgs)
		if !deliverable {
			continue // left to a process that can send them
		}
		won := false
		err = b.store.Update(b.notifiers.Fenced(ctx, platform), func(tx gobot.Tx) error {
			won = false
			cur, err := tx.Claim(c.Key)
			if errors.Is(err, gobot.ErrNotFound) {
				return nil // done meanwhile
			}
			if err != nil {
				return err
			}
			if now.Before(cur.Expires) {
				return nil // another process claimed it again first
			}
			cur.Holder, cur.Expires = b.cfg.Holder, now.Add(b.cfg.ClaimTTL)
			won = true
			return tx.PutClaim(cur)
		})
		if err != nil {
			b.log.Warn("claiming an expired claim again", "claim", c.Key, "err", err)
			continue
		}
		if won {
			b.log.Info("sending the messages of a claim whose claimer did not finish", "claim", c.Key, "claimer", c.Holder)
			b.sendClaimed(ctx, c.Key, msgs)
		}
	}
	return nil
}
