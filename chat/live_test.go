package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Issue 38: a byo-yomi game to the second on the fake clock. Main time
// runs first; a move inside a period keeps it; a period that runs out
// is used up; the game is lost on time exactly at the deadline, not a
// nanosecond before; a move that reaches the server after the deadline
// is refused and changes nothing.
func TestLiveByoYomiToTheSecond(t *testing.T) {
	h := newHarness(t)
	h.start("clock=byoyomi:1m+3x10s")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "your move, your clock 1:00 + 3×10s") {
		t.Fatalf("games at the start: %s", rep.Text)
	}
	h.clock.Advance(19 * time.Second)
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "0:41 + 3×10s") {
		t.Fatalf("games after 19s: %s", rep.Text)
	}
	h.clock.Advance(45 * time.Second) // 1:04 into the turn: 4s into the first period
	if rep := h.ok("bob", "games"); !strings.Contains(rep.Text, "0:06 (3×10s)") {
		t.Fatalf("games in the first period: %s", rep.Text)
	}
	rep := h.ok("alice", "play D4") // inside the period: kept
	m, _ := h.game(1)
	if got := m.ClockOf(game.Black); got != (gobot.ClockState{Periods: 3, Period: 10 * time.Second}) {
		t.Fatalf("black's clock after a move in the first period: %+v (%s)", got, rep.Text)
	}
	h.ok("bob", "play E5")
	h.clock.Advance(25 * time.Second) // two periods used up, 5s into the last
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "0:05 (last period)") {
		t.Fatalf("games in the last period: %s", rep.Text)
	}
	h.ok("alice", "play C3")
	m, _ = h.game(1)
	if got := m.ClockOf(game.Black); got.Periods != 1 {
		t.Fatalf("black's periods after using two: %+v", got)
	}
	h.ok("bob", "play E4")
	deadline := h.clock.Now().Add(10 * time.Second)
	if m, _ := h.game(1); !m.Deadline.Equal(deadline) {
		t.Fatalf("deadline %v, want %v", m.Deadline, deadline)
	}
	h.tick(10*time.Second - time.Nanosecond)
	if m, _ := h.game(1); !m.Active() {
		t.Fatalf("lost before the deadline: %s", m.Result)
	}
	h.clock.Advance(time.Nanosecond)
	h.refuses("alice", "play D5", "Too late: your time in game #1 ran out")
	if m, g := h.game(1); !m.Active() || g.MoveCount() != 4 {
		t.Fatalf("a late move changed the game: %s, %d moves", m.Result, g.MoveCount())
	}
	h.tick(0)
	m, _ = h.game(1)
	if m.Result != "W+T" || !m.Finished.Equal(deadline) {
		t.Fatalf("at the deadline: result %q at %v, want W+T at %v", m.Result, m.Finished, deadline)
	}
	if h.notesSaying("<@test:alice> ran out of time") != 1 {
		t.Fatalf("timeout notices: %+v", h.notes.all())
	}
}

// Canadian: the period's stones played in time give a fresh period; a
// period that runs out loses.
func TestLiveCanadian(t *testing.T) {
	h := newHarness(t)
	h.start("clock=canadian:0+2/20s")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "2 stones in 0:20") {
		t.Fatalf("games at the start: %s", rep.Text)
	}
	h.clock.Advance(5 * time.Second)
	h.ok("alice", "play D4")
	h.ok("bob", "play E5")
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "1 stone in 0:15") {
		t.Fatalf("games after a stone: %s", rep.Text)
	}
	h.clock.Advance(14 * time.Second)
	h.ok("alice", "play C3") // the period's last stone, in time: a fresh period
	m, _ := h.game(1)
	if got := m.ClockOf(game.Black); got != (gobot.ClockState{Stones: 2, Period: 20 * time.Second}) {
		t.Fatalf("after the period's stones: %+v", got)
	}
	h.ok("bob", "play E4")
	h.tick(19 * time.Second)
	h.ok("alice", "play C4") // 1 stone in 1s
	h.ok("bob", "play E3")
	h.tick(time.Second)
	if m, _ := h.game(1); m.Result != "W+T" {
		t.Fatalf("a period that ran out: %q", m.Result)
	}
}

// Absolute, simple and Fischer in seconds: each loses at its deadline;
// a room default can be live; a live game ignores vacation; the SGF
// carries TM and OT.
func TestLiveSystems(t *testing.T) {
	for _, tt := range []struct {
		clock  string
		spend  time.Duration // black's first move, then white's turn runs out
		white  time.Duration // white's budget
		tm, ot string
	}{
		{"absolute:30s", 10 * time.Second, 30 * time.Second, "30", ""},
		{"simple:15s", 14 * time.Second, 15 * time.Second, "0", "15 simple"},
		{"fischer:20s+5s/30s", 10 * time.Second, 20 * time.Second, "20", "5 fischer max 30"},
		{"byoyomi:0+2x5s", 4 * time.Second, 10 * time.Second, "0", "2x5 byo-yomi"},
	} {
		t.Run(tt.clock, func(t *testing.T) {
			h := newHarness(t)
			h.admins = map[string]bool{"alice": true}
			h.ok("alice", "settings room clock="+tt.clock)
			h.start("")
			if rep := h.ok("bob", "sgf #1"); rep.File == nil || !strings.Contains(string(rep.File.Data), "TM["+tt.tm+"]") ||
				(tt.ot != "" && !strings.Contains(string(rep.File.Data), "OT["+tt.ot+"]")) {
				t.Fatalf("sgf: %+v", rep.File)
			}
			if rep := h.ok("bob", "vacation on"); !strings.Contains(rep.Text, "#1 (a live game)") {
				t.Fatalf("vacation in a live game: %s", rep.Text)
			}
			h.clock.Advance(tt.spend)
			h.ok("alice", "play D4")
			h.tick(tt.white - time.Nanosecond)
			if m, _ := h.game(1); !m.Active() {
				t.Fatalf("lost early: %s", m.Result)
			}
			h.tick(time.Nanosecond)
			if m, _ := h.game(1); m.Result != "B+T" {
				t.Fatalf("at the deadline: %q", m.Result)
			}
		})
	}
}

// A team shares its colour's clock: a teammate's move spends the team's
// byo-yomi periods.
func TestLiveTeamSharesClock(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "clock=byoyomi:0+3x10s")
	h.clock.Advance(15 * time.Second) // alice uses a period
	h.ok("alice", "play D4")
	h.ok("carol", "play E5")
	h.clock.Advance(15 * time.Second) // bob, her teammate, uses another: the last is left
	h.ok("bob", "play C3")
	m, _ := h.game(1)
	if got := m.ClockOf(game.Black); got.Periods != 1 {
		t.Fatalf("the team's clock: %+v", got)
	}
}

// A simple clock shows the turn's time left, counting down, in games
// and on the board (it has no bank of its own to show).
func TestLiveSimpleCountsDown(t *testing.T) {
	h := newHarness(t)
	h.start("clock=simple:30s")
	h.clock.Advance(6 * time.Second)
	if rep := h.ok("alice", "games"); !strings.Contains(rep.Text, "your move, your clock 0:24") {
		t.Fatalf("games 6 s into a 30 s turn: %s", rep.Text)
	}
	h.ok("alice", "play D4")
	if rep := h.ok("bob", "games"); !strings.Contains(rep.Text, "your move, your clock 0:30") {
		t.Fatalf("games at the start of the next turn: %s", rep.Text)
	}
}

// A live game's team shares one clock: when it runs out, the team loses
// on time, as one player would (no fresh clock for the next teammate, as
// a correspondence team's turn passes on).
func TestLiveTeamLosesOnTime(t *testing.T) {
	h := newHarness(t)
	startRengo(h, "clock=byoyomi:0+1x10s")
	h.tick(10 * time.Second)
	if m, _ := h.game(1); m.Active() || m.Result != "W+T" {
		t.Fatalf("a live team out of time: active %v, result %q", m.Active(), m.Result)
	}
}

// From a tester: an empty clock= is refused (not a game without a
// clock); vacation= on a live clock says a live clock never stops; a
// vote game's refused clock=none names what leaving it out gives here.
func TestClockOptionsSaid(t *testing.T) {
	h := newHarness(t)
	h.refuses("alice", "challenge @bob clock=", "clock= needs a value, like clock=3d")
	rep := h.ok("alice", "challenge @bob clock=fischer:5m+10s/10m vacation=off")
	if !strings.Contains(rep.Text, "A live game's clock never stops for a vacation: vacation= changes nothing here.") {
		t.Errorf("vacation=off on a live clock: %s", rep.Text)
	}
	h.admins = map[string]bool{"alice": true}
	h.ok("alice", "settings room clock=byoyomi:10m+5x30s")
	h.refuses("bob", "challenge @alice 9 vote=10s clock=none", "leave clock= out for this room's default, byoyomi:10m+5x30s")
}

// A live game's move is charged from the adapter's receipt of it
// (Request.Arrived), not from the platform's timestamp (Request.Time,
// which may lie in the past) nor from when the bot got round to it; an
// arrival from the future is the bot's now. A correspondence game's move
// counts from the platform's time, as before.
func TestLiveMoveCountsFromArrival(t *testing.T) {
	send := func(h *harness, line string, at, arrived time.Time) {
		t.Helper()
		h.seq++
		r := h.request(line, gobot.EventID("test:arrival"+time.Duration(h.seq).String()))
		r.Time, r.Arrived = at, arrived
		if rep := h.bot.Handle(context.Background(), r); rep.Error {
			t.Fatalf("%s: %s", line, rep.Text)
		}
	}
	h := newHarness(t)
	h.start("9 clock=absolute:5m")
	h.clock.Advance(30 * time.Second)
	arrived := h.clock.Now()
	h.clock.Advance(3 * time.Second) // the adapter's look-ups before it hands the move on
	send(h, "alice: play D4", arrived.Add(-2*time.Minute), arrived)
	m, _ := h.game(1)
	if got := m.MoveTimes[0]; !got.Equal(arrived) {
		t.Errorf("the live move counts from %v, want its arrival %v", got, arrived)
	}
	if got := m.Left[game.Black]; got != 4*time.Minute+30*time.Second {
		t.Errorf("black's time after 30 s: %v, want 4:30", got)
	}
	h.clock.Advance(10 * time.Second)
	now := h.clock.Now()
	send(h, "bob: play E5", time.Time{}, now.Add(time.Hour))                                                 // a clock ahead: now
	if m, _ := h.game(1); !m.MoveTimes[1].Equal(now) || m.Left[game.White] != 5*time.Minute-13*time.Second { // its turn began at the arrival of black's move
		t.Errorf("a move that arrived in the future: at %v (want %v), white has %v", m.MoveTimes[1], now, m.Left[game.White])
	}

	c := newHarness(t)
	c.start("9 clock=3d")
	c.clock.Advance(time.Hour)
	sent := c.clock.Now().Add(-10 * time.Minute)
	send(c, "alice: play D4", sent, c.clock.Now())
	if m, _ := c.game(1); !m.MoveTimes[0].Equal(sent) {
		t.Errorf("the correspondence move counts from %v, want the platform's %v", m.MoveTimes[0], sent)
	}
}

// From a review: a vote game on a byo-yomi clock charges the room's time
// as a player's (the time until its window opened); a pause cannot be
// asked in a vote game (the room cannot answer it).
func TestLiveVoteGameClock(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=5s 9 white clock=byoyomi:1m+3x10s")
	h.ok("alice", "accept")
	h.ok("alice", "play A1")
	h.clock.Advance(30 * time.Second)
	h.ok("carol", "vote A9")
	h.tick(5 * time.Second)
	m, g := h.game(1)
	if g.MoveCount() != 2 {
		t.Fatalf("the room's move was not played: %d moves", g.MoveCount())
	}
	if got := m.ClockOf(game.White); got.Main != 30*time.Second || got.Periods != 3 {
		t.Fatalf("the room's clock after 30 s to its first vote: %+v, want 30s main and 3 periods", got)
	}
	h.refuses("alice", "pause", "played by a room's vote, which cannot answer a pause")
}
