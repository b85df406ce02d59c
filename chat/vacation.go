package chat

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// Vacation: a player on vacation stops the clocks of their correspondence
// games (not those against an engine, not those challenged with
// vacation=off). The clock of a paused game keeps the time the player to
// move had left (Match.PausedLeft) and gives it back, to the second, when
// the last of its players on vacation returns. Moves may still be played
// in a paused game: the clock turns over as usual, but stopped (per move:
// the next player's full time; Fischer: the mover's bank plus the
// increment, the next player's bank) until the vacation ends.
//
// A vacation ends with `vacation off`, or by itself when its days run out
// (the runner: runVacation, claimed like a reminder so it happens
// once with several processes and across restarts), with a reminder a
// day before.

// VacationConfig is the vacation allowance. The zero VacationConfig is
// the default: every player starts with 14 days, earns one more day per
// week counted from their first game, and may hold at most 30 (as OGS
// does: enough for a long holiday at once, earned back at a rate that
// keeps nobody on vacation for good). One with any field set is used as
// given: PerWeek 0 earns nothing.
type VacationConfig struct {
	Start   time.Duration // allowance before the first game (default 14 days)
	PerWeek time.Duration // earned per week from the first game (default 1 day)
	Max     time.Duration // at most this much is held (default 30 days)
	// Off turns vacations off: `vacation on` is refused.
	Off bool
}

const (
	day  = 24 * time.Hour
	week = 7 * day
	// vacationReminder is how long before a vacation's end its player
	// is reminded.
	vacationReminder = day
)

// DefaultVacation is the allowance of the zero VacationConfig.
var DefaultVacation = VacationConfig{Start: 14 * day, PerWeek: day, Max: 30 * day}

func (c *VacationConfig) setDefaults() {
	if *c == (VacationConfig{}) {
		*c = DefaultVacation
	}
}

// vacationAccount returns p's vacation account as of now, with the weeks
// since their first game credited (a copy; nothing is stored). While a
// vacation runs nothing is credited: its end was fixed when it began, and
// the weeks that pass meanwhile are credited when it ends.
func (b *core) vacationAccount(p *gobot.Player, now time.Time) gobot.Vacation {
	v := gobot.Vacation{Left: min(b.cfg.Vacation.Start, b.cfg.Vacation.Max)}
	if p != nil && p.Vacation != nil {
		v = *p.Vacation
	}
	if v.On() || v.FirstGame.IsZero() {
		return v
	}
	if weeks := int(now.Sub(v.FirstGame) / week); weeks > v.Weeks {
		if v.Left < b.cfg.Vacation.Max {
			v.Left = min(v.Left+time.Duration(weeks-v.Weeks)*b.cfg.Vacation.PerWeek, b.cfg.Vacation.Max)
		}
		v.Weeks = weeks
	}
	return v
}

// loadPlayer returns u's record, or a new one.
func loadPlayer(tx gobot.Tx, u gobot.UserID) (*gobot.Player, error) {
	p, err := tx.Player(u)
	if errors.Is(err, gobot.ErrNotFound) {
		return &gobot.Player{ID: u}, nil
	}
	return p, err
}

// gameBegins starts the week count of each of the game's human players
// (every member of a team game's teams) whose first game this is (their
// vacation allowance grows from it), and stops the new game's clock at
// once if one of them is on vacation. Called when a game begins, before
// it is stored. An engine and the room's seat of a vote game are no
// players: nothing is stored for them.
func (b *core) gameBegins(tx gobot.Tx, l *loaded, t time.Time) error {
	for _, u := range l.Match.Players() {
		if !l.Match.Side(l.Match.ColorOf(u)).Human() {
			continue
		}
		p, err := loadPlayer(tx, u)
		if errors.Is(err, gobot.ErrCorrupt) {
			b.log.Error("corrupt record", "err", err)
			continue
		}
		if err != nil {
			return err
		}
		if p.Vacation.On() {
			pauseGame(l, u, t)
		}
		if p.Vacation != nil && !p.Vacation.FirstGame.IsZero() {
			continue
		}
		v := b.vacationAccount(p, t)
		v.FirstGame, v.Weeks = t, 0
		p.Vacation = &v
		if err := tx.PutPlayer(p); err != nil {
			return err
		}
	}
	return nil
}

// vacationApplies reports whether a vacation stops game l's clock: not
// in games against an engine, nor in team games (the turn passes to a
// teammate), nor with vacation=off, a live clock (gobot.TimeControl.Live)
// or no clock. In a vote game against
// a person it stops the clock as in any game, the room's included (vote.go),
// but a voting window that is running goes on: pauseGame and unpauseGame
// leave it alone.
func vacationApplies(l *loaded) bool {
	return l.Match.VacationStops() // a team game: a teammate plays (rengo.go)
}

// pauseGame stops game l's clock for u's vacation and reports whether it
// did (not when vacation does not apply, u already paused it, or the
// player to move is already out of time: the clock loop ends that game).
func pauseGame(l *loaded, u gobot.UserID, now time.Time) bool {
	m := l.Match
	if !vacationApplies(l) || slices.Contains(m.PausedBy, u) {
		return false
	}
	if !m.Paused() {
		if l.G.Phase() == game.Playing && !m.Deadline.IsZero() && !(m.Find(gobot.SideRoom).Moves(l.G) && m.Vote.WindowOpen()) { // a vote window is no clock (vote.go)
			if !now.Before(m.Deadline) {
				return false
			}
			m.PausedLeft, m.Deadline = m.Deadline.Sub(now), time.Time{}
		}
		m.PausedAt = now
	}
	m.PausedBy = append(m.PausedBy, u)
	return true
}

// unpauseGame takes u's vacation off game l and reports whether its clock
// runs again (nobody else's vacation holds it): the player to move gets
// back the time they had left.
func unpauseGame(l *loaded, u gobot.UserID, now time.Time) bool {
	m := l.Match
	i := slices.Index(m.PausedBy, u)
	if i < 0 {
		return false
	}
	m.PausedBy = slices.Delete(m.PausedBy, i, i+1)
	if len(m.PausedBy) > 0 {
		return false
	}
	m.PausedBy = nil
	// A running vote window goes on; a vote game stored before the
	// room's turns had a clock (issue 35) kept none for it (vote.go).
	if room := m.Find(gobot.SideRoom).Moves(l.G); l.G.Phase() == game.Playing && m.Clock.Kind != gobot.NoClock && !(room && (m.Vote.WindowOpen() || m.PausedLeft == 0)) {
		// The same turn goes on: a reminder already sent for it is not
		// sent again (the vacation's end says the time left).
		m.Deadline = now.Add(m.PausedLeft)
	}
	m.PausedLeft, m.PausedAt = 0, time.Time{}
	return true
}

// pausedNote says why a paused game's clock is stopped: "clock stopped:
// @alice is on vacation".
func pausedNote(match *gobot.Match) string {
	var who []string
	for _, u := range match.PausedBy {
		who = append(who, protocol.Mention(u))
	}
	verb := "is"
	if len(who) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("clock stopped: %s %s on vacation", strings.Join(who, " and "), verb)
}

// vacationHeader is what the game's header adds about vacation.
func vacationHeader(noVacation bool) string {
	if noVacation {
		return ", vacation=off (vacations do not stop its clock)"
	}
	return ""
}

func formatWhen(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }

// formatDays is a vacation balance in words: "14 days", "2d 3h".
func formatDays(d time.Duration) string {
	d = d.Truncate(time.Second)
	if d > 0 && d%day == 0 {
		n := int(d / day)
		if n == 1 {
			return "1 day"
		}
		return fmt.Sprintf("%d days", n)
	}
	return protocol.FormatDuration(d)
}

func cmdVacation(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	switch a.Choice["on"] {
	case "on":
		return b.vacationOn(tx, r)
	case "off":
		return b.vacationOff(tx, r)
	}
	return b.vacationShow(tx, r)
}

// vacationShown: `vacation` alone only looks.
func vacationShown(a *protocol.Args) bool { return a.Choice["on"] == "" }

func (b *core) vacationShow(tx gobot.Tx, r *protocol.Request) (Result, error) {
	p := playerIn(tx, r.User.ID)
	v := b.vacationAccount(&p, r.Time)
	c := b.cfg.Vacation
	earn := fmt.Sprintf("You earn %s a week from your first game, up to %s.", formatDays(c.PerWeek), formatDays(c.Max))
	if c.PerWeek <= 0 {
		earn = "No days are earned here."
	}
	if c.Off && !v.On() {
		return Result{Reply: protocol.Reply{Title: "Vacation", Text: "Vacations are turned off on this bot: your games' clocks run as usual."}}, nil
	}
	if v.On() {
		games, err := pausedGames(tx, r.User.ID)
		if err != nil {
			return Result{}, err
		}
		text := fmt.Sprintf("You are on vacation until %s: %s left. %s ends it.", formatWhen(v.End), formatDays(v.End.Sub(r.Time)), b.cmd("vacation off"))
		if len(games) > 0 {
			text += " Stopped clocks: " + protocol.ListSome(games) + "."
		}
		return Result{Reply: protocol.Reply{Title: "Vacation", Text: text + " " + earn}}, nil
	}
	return Result{Reply: protocol.Reply{Title: "Vacation", Text: fmt.Sprintf("You have %s of vacation left. %s %s stops the clocks of your games against people until you are back (%s), or until the days run out.",
		formatDays(v.Left), earn, b.cmd("vacation on"), b.cmd("vacation off"))}}, nil
}

// pausedGames names u's games whose clock u's vacation stops.
func pausedGames(tx gobot.Tx, u gobot.UserID) ([]string, error) {
	games, err := tx.ActiveGames(u)
	if err != nil && len(games) == 0 {
		return nil, err
	}
	var names []string
	for _, m := range games {
		if slices.Contains(m.PausedBy, u) {
			names = append(names, fmt.Sprintf("#%d", m.ID))
		}
	}
	return names, nil
}

func (b *core) vacationOn(tx gobot.Tx, r *protocol.Request) (Result, error) {
	u := r.User.ID
	p, err := loadPlayer(tx, u)
	if err != nil {
		return Result{}, err
	}
	if b.cfg.Vacation.Off {
		return Result{}, errorf("Vacations are turned off on this bot: your games' clocks run as usual.")
	}
	if p.Vacation.On() {
		return Result{}, errorf("You are already on vacation, until %s; %s ends it.", formatWhen(p.Vacation.End), b.cmd("vacation off"))
	}
	v := b.vacationAccount(p, r.Time)
	if v.Left < time.Second {
		if b.cfg.Vacation.PerWeek <= 0 {
			return Result{}, errorf("You have no vacation days left, and none are earned here.")
		}
		return Result{}, errorf("You have no vacation days left: you earn %s a week from your first game.", formatDays(b.cfg.Vacation.PerWeek))
	}
	v.Start, v.End, v.Reminded, v.Room = r.Time, r.Time.Add(v.Left), v.Left <= vacationReminder, r.Room
	p.Vacation = &v
	if err := tx.PutPlayer(p); err != nil {
		return Result{}, err
	}
	var fx Effects
	games, err := b.vacationGames(tx, u)
	if err != nil {
		return Result{}, err
	}
	var stopped, running []string
	for _, l := range games {
		m := l.Match
		if s := m.Side(m.ColorOf(u)); s.Rotates() { // rengo.go: no team game stops; a turn of u's passes on now
			why := "a team game: your turns pass to a teammate"
			if present, _ := teamPresence(tx, s.Players); len(present) == 0 {
				why = "a team game: its clock runs on"
			}
			running = append(running, fmt.Sprintf("#%d (%s)", m.ID, why))
			if err := b.passTurnNow(&fx, tx, l, u, r.Time); err != nil {
				return Result{}, err
			}
			continue
		}
		if !pauseGame(l, u, r.Time) {
			switch {
			case m.Clock.Kind == gobot.NoClock || m.Engine != "":
			case m.NoVacation:
				running = append(running, fmt.Sprintf("#%d (vacation=off)", m.ID))
			case m.Clock.Live():
				running = append(running, fmt.Sprintf("#%d (a live game)", m.ID))
			case vacationApplies(l):
				running = append(running, fmt.Sprintf("#%d (out of time already)", m.ID))
			}
			continue
		}
		l.Match.Updated = r.Time
		if err := tx.PutMatch(l.Match); err != nil {
			return Result{}, err
		}
		stopped = append(stopped, fmt.Sprintf("#%d", m.ID))
		opp := m.Side(m.ColorOf(u).Opponent()).ToMove()
		text := fmt.Sprintf("%s is on vacation until %s: the clock of game #%d is stopped", protocol.Mention(u), formatWhen(v.End), m.ID)
		if l.G.Phase() == game.Playing && !(m.Find(gobot.SideRoom).Moves(l.G) && m.Vote.WindowOpen()) {
			text += fmt.Sprintf(", with %s left for %s", protocol.FormatDuration(m.PausedLeft), protocol.Mention(m.Side(l.G.ToMove()).ToMove()))
		}
		b.tellOpponent(&fx, tx, m, opp, text+". Moves can still be played.")
	}
	text := fmt.Sprintf("You are on vacation until %s (%s).", formatWhen(v.End), formatDays(v.Left))
	if len(stopped) > 0 {
		text += " Clocks stopped: " + protocol.ListSome(stopped) + "; your opponents are told."
	} else {
		text += " None of your games has a clock to stop."
	}
	if len(running) > 0 {
		text += " Still running: " + protocol.ListSome(running) + "."
	}
	text += fmt.Sprintf(" %s ends it.", b.cmd("vacation off"))
	return reply(protocol.Reply{Title: "Vacation", Text: text}, fx)
}

// passTurnNow passes team game l's turn on from players on vacation
// (passAwayTurns) when u's vacation starts or ends, and tells the room.
// That the team to move is all away is said only when u is one of them
// (u's vacation made it so), not on every teammate's or opponent's
// vacation after.
func (b *core) passTurnNow(fx *Effects, tx gobot.Tx, l *loaded, u gobot.UserID, now time.Time) error {
	before := l.Match.Side(l.G.ToMove()).ToMove()
	note := b.passAwayTurns(tx, l)
	if note == "" || (l.Match.Side(l.G.ToMove()).ToMove() == before && l.Match.ColorOf(u) != l.G.ToMove()) {
		return nil
	}
	l.Match.Updated = now
	if err := tx.PutMatch(l.Match); err != nil {
		return err
	}
	l.note = note
	fx.notify(protocol.Message{Room: l.Match.Room, Reply: b.gameReplyAt(fx, tx, l, occasion{Room: l.Match.Room, At: now}, "")})
	return nil
}

// tellOpponent posts text in game m's room for its player opp (in a DM
// when they asked for DMs).
func (b *core) tellOpponent(fx *Effects, tx gobot.Tx, m *gobot.Match, opp gobot.UserID, text string) {
	msg := protocol.Message{Room: m.Room, Reply: protocol.Reply{Game: m.ID, Title: fmt.Sprintf("Game #%d", m.ID), Text: text}}
	switch playerIn(tx, opp).Notify {
	case "dm":
		msg.To = opp
	case "off":
	default:
		msg.Reply.Mentions = []gobot.UserID{opp}
	}
	fx.notify(msg)
}

func (b *core) vacationOff(tx gobot.Tx, r *protocol.Request) (Result, error) {
	p, err := loadPlayer(tx, r.User.ID)
	if err != nil {
		return Result{}, err
	}
	if !p.Vacation.On() {
		return Result{}, errorf("You are not on vacation; %s starts it.", b.cmd("vacation on"))
	}
	var fx Effects
	resumed, err := b.endVacation(&fx, tx, p, r.Time)
	if err != nil {
		return Result{}, err
	}
	text := fmt.Sprintf("Welcome back: your vacation is over, with %s left.", formatDays(p.Vacation.Left))
	if resumed != "" {
		text += " " + resumed
	}
	return reply(protocol.Reply{Title: "Vacation", Text: text}, fx)
}

// vacationGames are u's active games a vacation starts or ends in,
// loaded. A damaged record is left out (and logged), so one unreadable
// game neither blocks a vacation nor keeps the others stopped.
func (b *core) vacationGames(tx gobot.Tx, u gobot.UserID) ([]*loaded, error) {
	games, err := tx.ActiveGames(u)
	if d := gobot.Damaged(err); d != nil {
		b.log.Error("vacation: left out damaged records", "player", u, "err", d)
		err = nil
	}
	if err != nil {
		return nil, err
	}
	var out []*loaded
	for _, m := range games {
		l, err := load(m)
		if err != nil {
			b.log.Error("vacation: left out a game that does not replay", "game", m.ID, "err", err)
			continue
		}
		out = append(out, l)
	}
	return out, nil
}

// endVacation ends p's vacation at now (or at its end, if that passed):
// the time spent comes off the account, the weeks passed are credited,
// and the clocks it stopped run again unless the opponent's vacation
// holds them too; each opponent is told. It returns a sentence on the
// games for p.
func (b *core) endVacation(fx *Effects, tx gobot.Tx, p *gobot.Player, now time.Time) (string, error) {
	v := *p.Vacation
	// It ends no earlier than it began (a late-delivered event may carry
	// a time before the vacation's start) and no later than its end.
	end := now
	if v.End.Before(end) {
		end = v.End
	}
	if end.Before(v.Start) {
		end = v.Start
	}
	v.Left = max(v.Left-end.Sub(v.Start).Truncate(time.Second), 0)
	v.Start, v.End, v.Reminded, v.Room = time.Time{}, time.Time{}, false, ""
	p.Vacation = &v
	v = b.vacationAccount(p, now)
	p.Vacation = &v
	if err := tx.PutPlayer(p); err != nil {
		return "", err
	}
	games, err := b.vacationGames(tx, p.ID)
	if err != nil {
		return "", err
	}
	var running, held []string
	for _, l := range games {
		m := l.Match
		if m.Side(m.ColorOf(p.ID)).Rotates() { // rengo.go: a team all away kept its turn; p can take it now
			if err := b.passTurnNow(fx, tx, l, p.ID, now); err != nil {
				return "", err
			}
			continue
		}
		if !slices.Contains(m.PausedBy, p.ID) {
			continue
		}
		opp := m.Side(m.ColorOf(p.ID).Opponent()).ToMove()
		var text string
		// The clock runs again from when the vacation ended, not from when
		// the clock loop (or a late `vacation off`) noticed it.
		if unpauseGame(l, p.ID, end) {
			running = append(running, fmt.Sprintf("#%d", m.ID))
			text = fmt.Sprintf("%s is back from vacation: the clock of game #%d runs again", protocol.Mention(p.ID), m.ID)
			if l.G.Phase() == game.Playing && !(m.Find(gobot.SideRoom).Moves(l.G) && m.Vote.WindowOpen()) {
				text += fmt.Sprintf(", %s (%s) to play with %s left", protocol.Mention(m.Side(l.G.ToMove()).ToMove()), l.G.ToMove().Name(), protocol.FormatDuration(max(m.Deadline.Sub(now), 0)))
			}
		} else {
			held = append(held, fmt.Sprintf("#%d", m.ID))
			text = fmt.Sprintf("%s is back from vacation; game #%d stays stopped (%s)", protocol.Mention(p.ID), m.ID, pausedNote(m))
		}
		m.Updated = now
		if err := tx.PutMatch(m); err != nil {
			return "", err
		}
		b.tellOpponent(fx, tx, m, opp, text+".")
	}
	var s []string
	if len(running) > 0 {
		s = append(s, "Clocks running again: "+protocol.ListSome(running)+".")
	}
	if len(held) > 0 {
		s = append(s, map[bool]string{true: "Still stopped, as your opponent is on vacation too: ", false: "Still stopped, as your opponents there are on vacation too: "}[len(held) == 1]+protocol.ListSome(held)+".")
	}
	return strings.Join(s, " "), nil
}

// vacationDue takes a player the vacation index lists: due once the
// vacation's days ran out, or within a day of its end before its
// reminder was sent.
func vacationDue(b *core, item dueItem, now time.Time) (mine, due bool) {
	v := item.Player.Vacation
	return true, v.On() && (!now.Before(v.End) || !v.Reminded && v.End.Sub(now) <= vacationReminder)
}

// runVacation ends c.Player's vacation whose days ran out, or reminds
// them that it ends within a day, and says so in a DM; each happens once
// (its step names the vacation by its start).
func runVacation(c *JobCall) (Done, error) {
	b, tx, p, now := c.bot, c.Tx, c.Player, c.Now
	u, v := p.ID, p.Vacation
	if !v.On() {
		return Done{}, nil
	}
	var fx Effects
	var step, did string
	msg := protocol.Message{To: u, Room: v.Room, Reply: protocol.Reply{Title: "Vacation"}}
	if now.Before(v.End) {
		if v.Reminded || v.End.Sub(now) > vacationReminder {
			return Done{}, nil
		}
		v.Reminded = true
		if err := tx.PutPlayer(p); err != nil {
			return Done{}, err
		}
		step, did = fmt.Sprintf("vacation %s %d reminder", u, v.Start.UnixNano()), "reminder"
		msg.Reply.Text = fmt.Sprintf("Your vacation ends on %s, in %s: then the clocks of your games run again. %s ends it sooner.", formatWhen(v.End), protocol.FormatDuration(v.End.Sub(now)), b.cmd("vacation off"))
	} else {
		step, did = fmt.Sprintf("vacation %s %d end", u, v.Start.UnixNano()), "end"
		resumed, err := b.endVacation(&fx, tx, p, now)
		if err != nil {
			return Done{}, err
		}
		msg.Reply.Text = strings.TrimSpace("Your vacation days ran out, so your vacation is over. " + resumed)
	}
	fx.Notices = append([]protocol.Message{msg}, fx.Notices...)
	return done(did, step, fx)
}

// vacationDoc is docs/commands.md's paragraph on clocks and vacation
// (written by TestCommandsDoc).
const vacationDoc = `
Clocks and vacation: ` + "`vacation on`" + ` stops the clock of every game you play against a person that has one,
except team games (your turns pass at once to a teammate who is not away) and games challenged with ` + "`vacation=off`" + ` (tournaments); your opponents are told (in a vote game, the room: its turns' clock stops too, but a running voting window goes on). A stopped clock keeps
the time the player to move had left: no reminder and no loss on time while it is stopped, and moves may
still be played (per move: the next player's full time is kept; Fischer: the mover's bank plus the
increment, up to the maximum, and the next player's bank). When the vacation ends (` + "`vacation off`" + `, or
when the days run out: a reminder comes a day before) each clock runs again from the time kept, to the
second, whoever's turn it is. A game whose two players are away waits for both. A game that begins
while one of its players is away starts with its clock stopped. Days are spent in real time, by the
second: everyone starts with 14, earns one more each week counted from their first game, and holds at
most 30 (the operator's ` + "`vacation:`" + ` settings may change the three numbers); days earned during a
vacation are credited when it ends. (Players who played before vacations existed count their weeks
from their next game.)
`
