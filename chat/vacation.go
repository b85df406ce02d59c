package chat

import (
	"fmt"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
)

// Vacation: the command and the job that start and end a vacation; its
// flow is flow/vacation.go (what it does to each game's clock), its
// words chat/say/vacation.go. A vacation ends with `vacation off`, or
// by itself when its days run out (runVacation, claimed like a reminder
// so it happens once with several processes and across restarts), with
// a reminder a day before.

// logCorrupt logs the records an operation left out as corrupt.
func (b *core) logCorrupt(errs []error) {
	for _, err := range errs {
		b.log.Error("corrupt record", "err", err)
	}
}

func cmdVacation(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	switch a.Choice["on"] {
	case "on":
		return b.vacationOn(tx, r)
	case "off":
		return b.vacationOff(tx, r)
	}
	p, err := flow.VacationPlayer(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	v := b.cfg.Vacation.Account(p, r.Time)
	var stopped []gobot.GameID
	if v.On() {
		accounts, err := gobot.AccountsOf(tx, p.ID)
		if err != nil {
			return Result{}, err
		}
		if stopped, err = flow.StoppedGames(tx, accounts); err != nil {
			return Result{}, err
		}
	}
	return Result{Reply: protocol.Reply{Title: "Vacation", Text: say.VacationShown(b.cfg.Vacation, v, stopped, r.Time)}}, nil
}

// vacationShown: `vacation` alone only looks.
func vacationShown(a *protocol.Args) bool { return a.Choice["on"] == "" }

// vacationOn starts the vacation of the player r's caller is (one
// allowance per player, on the player's ID): the clocks of every one of
// their accounts' games stop.
func (b *core) vacationOn(tx gobot.Tx, r *protocol.Request) (Result, error) {
	id, err := gobot.PlayerOf(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	v, err := flow.VacationOn(tx, b.cfg.Vacation, id, r.Room, r.Time)
	if err != nil {
		return Result{}, say.VacationRefused(b.cfg.Vacation, err)
	}
	accounts, err := gobot.AccountsOf(tx, id)
	if err != nil {
		return Result{}, err
	}
	var fx Effects
	var all []*flow.Loaded
	var allDid []flow.VacationGame
	for _, u := range accounts {
		games, err := b.vacationGames(tx, u)
		if err != nil {
			return Result{}, err
		}
		did, err := flow.StopClocks(tx, games, u, r.Time)
		if err != nil {
			return Result{}, err
		}
		for i, l := range games {
			b.passedNow(&fx, tx, &loaded{Loaded: l}, did[i].Turns, r.Time)
			if did[i].Clock == flow.ClockStopped {
				b.tellOpponent(&fx, tx, l.Match, u, say.ClockStopped(u, v, l))
			}
		}
		all, allDid = append(all, games...), append(allDid, did...)
	}
	return reply(protocol.Reply{Title: "Vacation", Text: say.VacationStarted(v, all, allDid)}, fx)
}

// passedNow tells team game l's room that a turn passed on at once as a
// vacation started or ended (flow.PassTurnNow), unless t is zero.
func (b *core) passedNow(fx *Effects, tx gobot.Tx, l *loaded, t flow.TurnsPassed, now time.Time) {
	if l.note = say.TurnsPassed(namer(tx), l.Match, t); l.note != "" {
		fx.notify(protocol.Message{Room: l.Match.Room, Reply: b.gameReplyAt(fx, tx, l, occasion{Room: l.Match.Room, At: now}, "")})
	}
}

// tellOpponent posts text in game m's room for the opponent of u (in a
// DM when they asked for DMs).
func (b *core) tellOpponent(fx *Effects, tx gobot.Tx, m *gobot.Match, u gobot.UserID, text string) {
	opp := m.Side(m.ColorOf(u).Opponent()).ToMove()
	msg := protocol.Message{Room: m.Room, Reply: protocol.Reply{Game: m.ID, Title: say.GameName(m.ID), Text: text, Mentions: []gobot.UserID{opp}}}
	b.tell(fx, tx, msg, opp, false)
}

// tell posts msg, a game's message for player u, as u asked to be told
// (notify=, notify_on=): in the game's room pinging u, in a DM (to each
// account u is told on: toldOn), or in the room without a ping (off).
// msg's mentions are those to ping in the room. A reminder (deadline)
// pings even a player who turned notices off: their time runs out.
func (b *core) tell(fx *Effects, tx gobot.Tx, msg protocol.Message, u gobot.UserID, deadline bool) {
	p := playerIn(tx, u)
	if p.Notify == "off" && deadline {
		p.Notify = "mention"
	}
	if p.Notify == "off" {
		msg.Reply.Mentions = nil
		fx.notify(msg)
		return
	}
	inRoom := false
	for _, to := range toldOn(tx, u) {
		if to == u && p.Notify != "dm" {
			inRoom = true
			continue
		}
		dm := msg
		dm.To = to
		fx.notify(dm)
	}
	if inRoom {
		fx.notify(msg)
	}
}

func (b *core) vacationOff(tx gobot.Tx, r *protocol.Request) (Result, error) {
	p, err := flow.VacationPlayer(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	var fx Effects
	restarted, err := b.endVacation(&fx, tx, p, r.Time)
	if err != nil {
		return Result{}, say.VacationRefused(b.cfg.Vacation, err)
	}
	return reply(protocol.Reply{Title: "Vacation", Text: say.WelcomeBack(p.Vacation.Left, restarted)}, fx)
}

// vacationGames are u's active games a vacation starts or ends in
// (flow.VacationGames), logging those left out.
func (b *core) vacationGames(tx gobot.Tx, u gobot.UserID) ([]*flow.Loaded, error) {
	games, damaged, unplayable, err := flow.VacationGames(tx, u)
	if damaged != nil {
		b.log.Error("vacation: left out damaged records", "player", u, "err", damaged)
	}
	for id, e := range unplayable {
		b.log.Error("vacation: left out a game that does not replay", "game", id, "err", e)
	}
	return games, err
}

// endVacation ends p's vacation at now (flow.VacationOff,
// flow.RestartClocks), in the games of each of the player's accounts:
// each opponent whose game's clock it stopped is told. It returns a
// sentence on the games for p.
func (b *core) endVacation(fx *Effects, tx gobot.Tx, p *gobot.Player, now time.Time) (string, error) {
	end, err := flow.VacationOff(tx, b.cfg.Vacation, p, now)
	if err != nil {
		return "", err
	}
	accounts, err := gobot.AccountsOf(tx, p.ID)
	if err != nil {
		return "", err
	}
	id, err := gobot.PlayerOf(tx, p.ID)
	if err != nil {
		return "", err
	}
	if id != p.ID {
		// A vacation an account began before it was linked (and
		// before vacations were the player's): its own games only.
		accounts = []gobot.UserID{p.ID}
	}
	var all []*flow.Loaded
	var allDid []flow.VacationGame
	for _, u := range accounts {
		games, err := b.vacationGames(tx, u)
		if err != nil {
			return "", err
		}
		did, err := flow.RestartClocks(tx, games, u, end, now)
		if err != nil {
			return "", err
		}
		for i, l := range games {
			b.passedNow(fx, tx, &loaded{Loaded: l}, did[i].Turns, now)
			if c := did[i].Clock; c == flow.ClockRestarted || c == flow.ClockHeld {
				b.tellOpponent(fx, tx, l.Match, u, say.ClockRestarted(u, l, c, now))
			}
		}
		all, allDid = append(all, games...), append(allDid, did...)
	}
	return say.ClocksRestarted(all, allDid), nil
}

// vacationDue takes a player the vacation index lists: due once the
// vacation's days ran out, or within a day of its end before its
// reminder was sent (flow.VacationDue).
func vacationDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	return true, flow.VacationDue(item.Player.Vacation, now) != flow.VacationWaits
}

// runVacation ends c.Player's vacation whose days ran out, or reminds
// them that it ends within a day, and says so in a DM; each happens once
// (its step names the vacation by its start).
func runVacation(c *JobCall) (Done, error) {
	b, tx, p, now := c.bot, c.Tx, c.Player, c.Now
	u, v := p.ID, p.Vacation
	var fx Effects
	msg := protocol.Message{To: u, Room: v.Room, Reply: protocol.Reply{Title: "Vacation"}}
	switch flow.VacationDue(v, now) {
	case flow.VacationRemind:
		v.Reminded = true
		if err := tx.PutPlayer(p); err != nil {
			return Done{}, err
		}
		msg.Reply.Text = say.VacationEnding(v, now)
		fx.notify(msg)
		return done("reminder", fmt.Sprintf("vacation %s %d reminder", u, v.Start.UnixNano()), fx)
	case flow.VacationEnds:
		step := fmt.Sprintf("vacation %s %d end", u, v.Start.UnixNano())
		restarted, err := b.endVacation(&fx, tx, p, now)
		if err != nil {
			return Done{}, err
		}
		msg.Reply.Text = say.VacationRanOut(restarted)
		fx.Notices = append([]protocol.Message{msg}, fx.Notices...)
		return done("end", step, fx)
	}
	return Done{}, nil
}
