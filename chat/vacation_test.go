package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/game"
)

const (
	day  = 24 * time.Hour
	week = 7 * day
)

// The allowance: 14 days to start, one more per whole week since the
// first game, at most 30 held; nothing is credited while a vacation runs;
// the three numbers come from the configuration.
func TestVacationAllowance(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	defaults := New(Config{}, nil, nil, nil, nil).core
	custom := New(Config{Vacation: flow.VacationConfig{Start: 3 * day, PerWeek: 12 * time.Hour, Max: 5 * day}}, nil, nil, nil, nil).core
	for _, tc := range []struct {
		name string
		b    *core
		v    *gobot.Vacation
		at   time.Duration // after t0
		want time.Duration
	}{
		{"no account yet", defaults, nil, 400 * day, 14 * day},
		{"first game, 6 days on", defaults, &gobot.Vacation{FirstGame: t0, Left: 14 * day}, 6*day + 23*time.Hour, 14 * day},
		{"one whole week", defaults, &gobot.Vacation{FirstGame: t0, Left: 14 * day}, week, 15 * day},
		{"seven weeks", defaults, &gobot.Vacation{FirstGame: t0, Left: 14 * day}, 7*week + day, 21 * day},
		{"capped at 30", defaults, &gobot.Vacation{FirstGame: t0, Left: 14 * day}, 40 * week, 30 * day},
		{"spent, credited weeks not counted twice", defaults, &gobot.Vacation{FirstGame: t0, Left: 5*day + 17*time.Second, Weeks: 10}, 12 * week, 7*day + 17*time.Second},
		{"above the cap (config lowered): kept", defaults, &gobot.Vacation{FirstGame: t0, Left: 40 * day}, 3 * week, 40 * day},
		{"on vacation: nothing credited", defaults, &gobot.Vacation{FirstGame: t0, Left: 14 * day, Start: t0, End: t0.Add(14 * day)}, 2 * week, 14 * day},
		{"custom start", custom, nil, 0, 3 * day},
		{"custom rate", custom, &gobot.Vacation{FirstGame: t0, Left: 3 * day}, 3 * week, 4*day + 12*time.Hour},
		{"custom cap", custom, &gobot.Vacation{FirstGame: t0, Left: 3 * day}, 9 * week, 5 * day},
	} {
		p := &gobot.Player{ID: "test:alice", Vacation: tc.v}
		if got := tc.b.cfg.Vacation.Account(p, t0.Add(tc.at)); got.Left != tc.want {
			t.Errorf("%s: %v left, want %v", tc.name, got.Left, tc.want)
		}
	}
}

func (h *harness) player(user string) *gobot.Player {
	h.t.Helper()
	var p *gobot.Player
	if err := h.db.View(context.Background(), func(tx gobot.Tx) (err error) {
		p, err = flow.LoadPlayer(tx, gobot.UserID("test:"+user))
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	return p
}

// Vacation time is spent in real time, to the second; the account
// starts with the first game and is refused when empty.
func TestVacationSpentInSeconds(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	if v := h.player("bob").Vacation; v == nil || !v.FirstGame.Equal(h.clock.Now()) || v.Left != 14*day {
		t.Fatalf("bob's account after his first game: %+v", v)
	}
	h.ok("alice", "vacation on")
	h.clock.Advance(3*day + 5*time.Second + 300*time.Millisecond)
	rep := h.ok("alice", "vacation off")
	if v := h.player("alice").Vacation; v.On() || v.Left != 11*day-5*time.Second {
		t.Fatalf("after 3 days and 5.3s away: %+v, want 11 days less 5s left", v)
	}
	if !strings.Contains(rep.Text, "10d 23h") {
		t.Errorf("vacation off says: %s", rep.Text)
	}
	h.ok("alice", "vacation on")
	h.refuses("alice", "vacation on", "You are already on vacation")
	h.clock.Advance(12 * day) // past its end; nobody ticked
	h.ok("alice", "vacation off")
	if v := h.player("alice").Vacation; v.Left != time.Duration(2)*day {
		t.Fatalf("a vacation ended late spends only what was left: %v left, want 2 days (the two weeks since the first game)", v.Left)
	}
	h.refuses("alice", "vacation off", "You are not on vacation")
	h.refuses("alice", "vacation maybe", "vacation takes on or off")
}

// The clock arithmetic of a Fischer game through two vacations: the
// player to move gets back exactly the time they had; a move played
// while stopped turns the clock over as a move does (the mover's bank
// plus the increment); with both players away the game waits for both;
// a vacation that ends on the opponent's turn gives the opponent their
// time. Reminders and timeouts never fire while it is stopped.
func TestVacationClockArithmetic(t *testing.T) {
	h := newHarness(t)
	h.start("clock=fischer:1h+10m/2h")
	h.clock.Advance(20 * time.Minute)
	h.ok("alice", "play D4") // alice's bank: 40m + 10m
	h.clock.Advance(15 * time.Minute)
	h.ok("alice", "vacation on") // on bob's turn: 45m left
	m, _ := h.game(1)
	if !m.Deadline.IsZero() || m.PausedLeft != 45*time.Minute || len(m.PausedBy) != 1 {
		t.Fatalf("paused: deadline %v, left %v, by %v", m.Deadline, m.PausedLeft, m.PausedBy)
	}
	before := len(h.notes.all())
	h.clock.Advance(3 * day)
	h.tick(0)
	if m, _ := h.game(1); !m.Active() || len(h.notes.all()) != before {
		t.Fatalf("a stopped clock ran out or reminded: %s, %d messages", m.Result, len(h.notes.all())-before)
	}
	h.ok("bob", "play E5") // stopped: bob's bank is what he had, plus 10m
	m, g := h.game(1)
	if m.Left[game.White] != 55*time.Minute || m.PausedLeft != 50*time.Minute || g.ToMove() != game.Black || !m.Deadline.IsZero() {
		t.Fatalf("after a move while stopped: bob's bank %v (want 55m), alice to move with %v (want 50m), deadline %v", m.Left[game.White], m.PausedLeft, m.Deadline)
	}
	h.ok("bob", "vacation on")
	h.clock.Advance(day)
	h.ok("alice", "vacation off")
	if m, _ := h.game(1); !m.Paused() || !m.Deadline.IsZero() || m.PausedLeft != 50*time.Minute {
		t.Fatalf("bob is still away, but: paused %v, deadline %v, left %v", m.Paused(), m.Deadline, m.PausedLeft)
	}
	h.clock.Advance(2 * day)
	rep := h.ok("bob", "vacation off") // ends on alice's turn: she gets her 50m
	m, _ = h.game(1)
	if m.Paused() || !m.Deadline.Equal(h.clock.Now().Add(50*time.Minute)) || m.Left[game.White] != 55*time.Minute {
		t.Fatalf("resumed: paused %v, deadline in %v (want 50m), bob's bank %v", m.Paused(), m.Deadline.Sub(h.clock.Now()), m.Left[game.White])
	}
	if !strings.Contains(rep.Text, "Clocks running again: #1") {
		t.Errorf("vacation off: %s", rep.Text)
	}
	h.clock.Advance(49 * time.Minute)
	h.tick(0)
	if m, _ := h.game(1); !m.Active() {
		t.Fatal("timed out before the time given back ran out")
	}
	h.clock.Advance(2 * time.Minute)
	h.tick(0)
	if m, _ := h.game(1); m.Result != "W+T" {
		t.Fatalf("result %q, want W+T once the time given back ran out", m.Result)
	}
}

// Per-move clocks: an undo while stopped restarts the stopped clock at
// the full time; games against an engine and vacation=off games never
// stop; a game accepted during a vacation starts stopped.
func TestVacationWhichGamesStop(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "challenge @bob black clock=2h vacation=off")
	h.ok("bob", "accept #1")
	h.ok("alice", "challenge @bob black clock=2h")
	h.ok("bob", "accept #2")
	h.ok("alice", "play D4 #2")
	h.clock.Advance(time.Hour)
	h.ok("bob", "vacation on")
	if m, _ := h.game(1); m.Paused() || m.Deadline.IsZero() || !m.NoVacation {
		t.Fatalf("the vacation=off game stopped: %+v", m.PausedBy)
	}
	if m, _ := h.game(2); m.PausedLeft != time.Hour {
		t.Fatalf("game #2: %v left, want 1h", m.PausedLeft)
	}
	h.ok("alice", "undo #2")
	h.ok("bob", "undo #2")
	if m, _ := h.game(2); !m.Paused() || m.PausedLeft != 2*time.Hour || !m.Deadline.IsZero() {
		t.Fatalf("after an undo while stopped: paused %v, %v left, deadline %v", m.Paused(), m.PausedLeft, m.Deadline)
	}
	h.ok("alice", "challenge @bob clock=1d")
	rep := h.ok("bob", "accept #3")
	if m, _ := h.game(3); !m.Paused() || m.PausedLeft != day || !strings.Contains(rep.Text, "(clock stopped: "+protocol.Mention("test:bob")+" is on vacation)") {
		t.Fatalf("a game accepted on vacation: paused %v, %v left; %s", m.Paused(), m.PausedLeft, rep.Text)
	}
	if rep := h.ok("carol", "board #1"); !strings.Contains(rep.Fields[2].Value, "vacation=off") {
		t.Fatalf("the header of a vacation=off game: %q", rep.Fields[2].Value)
	}
}

// A process ends a vacation and dies before telling anyone: the claim
// expires and another process sends the same messages, once; the
// vacation is ended once (the clocks resumed once).
func TestVacationEndClaimedAndSentByAnother(t *testing.T) {
	h := newHarness(t)
	h.bot.cfg.Vacation = flow.VacationConfig{Start: 2 * day, PerWeek: day, Max: 30 * day}
	h.start("clock=1d")
	h.ok("alice", "play D4")
	h.ok("bob", "vacation on")
	h.bot.SetNotifier("test", nil)
	dying := New(Config{Rules: "japanese", Width: 9, Height: 9, Holder: "dying:1"}, h.db, pngRenderer{}, h.clock, nil)
	hang := &hangingNotifier{entered: make(chan protocol.Message, 4), release: make(chan struct{})}
	dying.SetNotifier("test", hang)

	h.clock.Advance(day + time.Hour) // the reminder is due
	ticked := make(chan error, 1)
	go func() { ticked <- dying.Tick(context.Background()) }()
	reminder := <-hang.entered
	if !strings.Contains(reminder.Reply.Text, "Your vacation ends on") || reminder.To != "test:bob" {
		t.Fatalf("the dying process's reminder: %+v", reminder)
	}
	h.bot.SetNotifier("test", h.notes)
	seen := len(h.notes.all())
	h.clock.Advance(3 * time.Minute)
	h.tick(0)
	if sent := h.notes.all()[seen:]; len(sent) != 1 || sent[0].Key != reminder.Key || sent[0].Reply.Text != reminder.Reply.Text {
		t.Fatalf("sent after the reminder's claim expired: %+v", sent)
	}
	close(hang.release)
	<-ticked

	h.clock.Advance(day) // past the end
	hang2 := &hangingNotifier{entered: make(chan protocol.Message, 4), release: make(chan struct{})}
	h.bot.SetNotifier("test", nil)
	dying.SetNotifier("test", hang2)
	go func() { ticked <- dying.Tick(context.Background()) }()
	end := <-hang2.entered
	if !strings.Contains(end.Reply.Text, "Your vacation days ran out") {
		t.Fatalf("the dying process's end message: %+v", end)
	}
	m, _ := h.game(1)
	deadline := m.Deadline
	if m.Paused() || h.player("bob").Vacation.On() {
		t.Fatal("the vacation was not ended in the dying process's transaction")
	}
	h.bot.SetNotifier("test", h.notes)
	seen = len(h.notes.all())
	h.clock.Advance(3 * time.Minute)
	h.tick(0)
	h.clock.Advance(3 * time.Minute)
	h.tick(0)
	var sent []protocol.Message
	for _, m := range h.notes.all()[seen:] {
		if strings.HasPrefix(m.Key, "vacation ") {
			sent = append(sent, m)
		}
	}
	if len(sent) != 2 || sent[0].Key != end.Key || !strings.Contains(sent[1].Reply.Text, "is back from vacation") {
		t.Fatalf("sent after the end's claim expired: %+v; want the end and the opponent's notice, once", sent)
	}
	if m, _ := h.game(1); !m.Deadline.Equal(deadline) {
		t.Fatalf("the clock was resumed again (deadline %v, then %v)", deadline, m.Deadline)
	}
	close(hang2.release)
	<-ticked
}

// A game that ends while stopped keeps no stopped clock, and the
// vacation's end leaves it alone.
func TestVacationGameEndsWhileStopped(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.ok("bob", "vacation on")
	h.ok("alice", "resign")
	if m, _ := h.game(1); m.Paused() || m.PausedLeft != 0 || !m.PausedAt.IsZero() {
		t.Fatalf("a finished game still stopped: %v, %v, %v", m.PausedBy, m.PausedLeft, m.PausedAt)
	}
	m, _ := h.game(1)
	h.ok("bob", "vacation off")
	if after, _ := h.game(1); after.Version != m.Version {
		t.Fatal("ending the vacation wrote the finished game")
	}
}

// An operator's allowance: the view says what is earned; vacations
// turned off are refused in words.
func TestVacationConfigured(t *testing.T) {
	h := newHarness(t)
	h.bot.cfg.Vacation = flow.VacationConfig{Start: 3 * day, Max: 5 * day}
	if rep := h.ok("alice", "vacation"); !strings.Contains(rep.Text, "You have 3 days of vacation left. No days are earned here.") {
		t.Fatalf("vacation: %s", rep.Text)
	}
	h.bot.cfg.Vacation = flow.VacationConfig{PerWeek: day, Off: true}
	if rep := h.ok("alice", "vacation"); !strings.Contains(rep.Text, "Vacations are turned off") {
		t.Fatalf("vacation, turned off: %s", rep.Text)
	}
	h.refuses("alice", "vacation on", "Vacations are turned off on this bot")
}

// The usage of a command whose argument is a choice named after one of
// its words shows every word: vacation [on|off], not vacation [on].
func TestVacationUsageShowsOff(t *testing.T) {
	h := newHarness(t)
	rep := h.fails("alice", "vacation of", "off")
	if !strings.Contains(rep.Text, "vacation [on|off]") {
		t.Fatalf("usage: %s", rep.Text)
	}
}

// vacation=off where it could change nothing (no clock; an engine game)
// is refused with the reason, and nothing is stored.
func TestVacationOffWhereMeaningless(t *testing.T) {
	h, _ := newVoteEngineHarness(t) // a computer opponent
	before := h.dump()
	h.fails("alice", "challenge @bob 9 vacation=off", "this one has none")
	h.fails("alice", "challenge engine=corner 9 clock=3d vacation=off", "changes nothing against the computer")
	if h.dump() != before {
		t.Error("a refused challenge changed the store")
	}
	h.ok("alice", "challenge @bob 9 clock=3d vacation=off")
}

// A vacation that ran out while nobody ticked (the bot was down, or a
// late `vacation off`) gives the clock back from its end, not from when
// it was noticed: the game gains no time beyond the vacation.
func TestVacationEndNoticedLateGivesNoExtraTime(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.clock.Advance(2 * time.Hour) // alice to move, 22h left
	h.ok("alice", "vacation on")
	end := h.player("alice").Vacation.End
	h.clock.Advance(14*day + 3*time.Hour) // the days ran out 3h ago
	h.tick(0)
	m, _ := h.game(1)
	if m.Paused() || !m.Deadline.Equal(end.Add(22*time.Hour)) {
		t.Fatalf("resumed: paused %v, deadline %v after the vacation's end, want 22h", m.Paused(), m.Deadline.Sub(end))
	}
}

// A clock that runs again goes on with the same turn: bob had the
// 24-hour reminder before alice's vacation stopped his clock; when it
// resumes with 20 hours left the vacation's end tells him so, and no
// reminder repeats it (issue 35: a reminder says something new, at most
// one per turn per lead); the one-hour reminder comes in its time.
func TestVacationResumedClockRemindsOncePerLead(t *testing.T) {
	h := newHarness(t)
	h.start("clock=2d")
	h.ok("alice", "play D4")
	h.clock.Advance(28 * time.Hour) // bob: 20h left
	h.tick(0)
	reminded := func() int { return h.notesSaying("it's your move in game #1") }
	if n := reminded(); n != 1 {
		t.Fatalf("bob was reminded %d times with 20h left", n)
	}
	h.ok("alice", "vacation on")
	h.clock.Advance(2 * day)
	h.ok("alice", "vacation off")
	if h.notesSaying("<@test:bob> (White) to play with 20h left") != 1 {
		t.Fatalf("the vacation's end does not tell bob his time: %+v", h.notes.all())
	}
	h.tick(0)
	if n := reminded(); n != 1 {
		t.Fatalf("after the clock resumed with 20h left, bob was reminded %d times in all, want 1", n)
	}
	h.clock.Advance(19 * time.Hour)
	h.tick(0)
	if n := reminded(); n != 2 {
		t.Fatalf("with an hour left bob was reminded %d times in all, want 2", n)
	}
	h.tick(0)
	if n := reminded(); n != 2 {
		t.Fatalf("reminded again on the next tick: %d", n)
	}
}

// Time from the sender's clock cannot stretch a vacation: a request
// dated in the future counts from the bot's time, and a vacation that
// ends "before" it began spends nothing and gains nothing.
func TestVacationSenderClockIgnored(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.ok("alice", "play D4")
	h.clock.Advance(time.Hour) // bob: 23h left
	on := h.request("alice: vacation on", "test:future-on")
	on.Time = h.clock.Now().Add(300 * day)
	if rep := h.bot.Handle(context.Background(), on); rep.Error {
		t.Fatal(rep.Text)
	}
	v := h.player("alice").Vacation
	if !v.Start.Equal(h.clock.Now()) || !v.End.Equal(h.clock.Now().Add(14*day)) {
		t.Fatalf("a vacation asked for from the future starts %v, ends %v; want now and 14 days on", v.Start, v.End)
	}
	off := h.request("alice: vacation off", "test:past-off")
	off.Time = h.clock.Now().Add(-day)
	if rep := h.bot.Handle(context.Background(), off); rep.Error {
		t.Fatal(rep.Text)
	}
	if v := h.player("alice").Vacation; v.On() || v.Left != 14*day {
		t.Fatalf("a vacation ended before its start: %+v, want 14 days left", v)
	}
	if m, _ := h.game(1); m.Paused() || !m.Deadline.Equal(h.clock.Now().Add(23*time.Hour)) {
		t.Fatalf("bob's clock after a vacation ended before its start: paused %v, %v left, want 23h", m.Paused(), m.Deadline.Sub(h.clock.Now()))
	}
}

// One damaged game record neither blocks a vacation nor keeps it from
// ending: the readable games stop and run again.
func TestVacationWithADamagedGame(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "challenge @bob black clock=1d")
	h.ok("bob", "accept #1")
	h.ok("alice", "challenge @bob black clock=1d")
	h.ok("bob", "accept #2")
	h.ok("alice", "vacation on")
	h.damageGame(1, `{"ID":1,"Room":"te`)
	h.bot.SetNotifier("test", h.notes)
	h.bot.SetLinker(testLinker{})
	rep := h.ok("alice", "vacation off")
	if !strings.Contains(rep.Text, "Clocks running again: #2") {
		t.Fatalf("vacation off with game #1 damaged: %s", rep.Text)
	}
	if m, _ := h.game(2); m.Paused() || m.Deadline.IsZero() {
		t.Fatalf("game #2 still stopped: %+v", m.PausedBy)
	}
	h.ok("alice", "vacation on")
	if m, _ := h.game(2); !m.Paused() {
		t.Fatal("game #2 did not stop")
	}
}
