package chat

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

// planAs sends a plan command as user: in a room where replies can be
// private (priv), in the user's DM with the bot (dm), or in a shared
// room where they cannot.
func planAs(h *harness, user, line string, priv, dm bool) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
		EventID: gobot.EventID("test:plan" + time.Duration(h.seq).String()), Command: f[0], Args: f[1:], Platform: testPlatform(priv)}
	if dm {
		r.Room, r.DM = gobot.RoomID("test:dm-"+user), true
	}
	return h.bot.Handle(context.Background(), r)
}

func pt(t *testing.T, s string) game.Point {
	t.Helper()
	p, err := game.ParsePoint(s, 9, 9)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// In a room where everyone sees the answer, plan and plans are refused
// without a word of the moves, the message is to be withdrawn, and
// nothing is stored; in the player's DM (no #game: the single game; or
// #1) the same line is planned, privately.
func TestPlanOnlyWherePrivate(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	for _, line := range []string{"plan C3 C4 D3 D4 #1", "plans", "plan clear"} {
		rep := planAs(h, "alice", line, false, false)
		if !rep.Error || !rep.Private || !rep.Withdraw || !strings.Contains(rep.Text, "direct message") {
			t.Fatalf("%q in a shared room: %+v", line, rep)
		}
		if strings.Contains(rep.Text, "C3") || strings.Contains(rep.Text, "C4") || len(rep.Text) > protocol.MaxRefusal {
			t.Fatalf("%q: the refusal repeats the moves or is long: %s", line, rep.Text)
		}
	}
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("refused plan stored: %+v", m.Plan)
	}
	rep := planAs(h, "alice", "plan C3 C4 D3 D4", false, true)
	if rep.Error || !rep.Private || rep.Withdraw {
		t.Fatalf("plan in the DM: %+v", rep)
	}
	rep = planAs(h, "alice", "plan G7 G3 #1", false, true)
	if rep.Error || !rep.Private {
		t.Fatalf("plan #1 in the DM: %+v", rep)
	}
	rep = planAs(h, "alice", "plans", false, true)
	if rep.Error || !rep.Private || !strings.Contains(rep.Text, "C3 → C4, then D3 → D4") || !strings.Contains(rep.Text, "G7 → G3") {
		t.Fatalf("plans in the DM: %+v", rep)
	}
	m, _ := h.game(1)
	want := []gobot.PlanBranch{
		{Their: pt(t, "C3"), Reply: pt(t, "C4"), Next: []gobot.PlanBranch{{Their: pt(t, "D3"), Reply: pt(t, "D4")}}},
		{Their: pt(t, "G7"), Reply: pt(t, "G3")},
	}
	if m.Plan == nil || m.Plan.By != "test:alice" || gobot.PlanSize(m.Plan.Branches) != 3 || say.PlanText(m.Plan.Branches, 9) != say.PlanText(want, 9) {
		t.Fatalf("stored plan %+v", m.Plan)
	}
	// The opponent sees nothing of it.
	if rep := planAs(h, "bob", "plans", true, false); !strings.Contains(rep.Text, "no plan") {
		t.Fatalf("bob's plans: %s", rep.Text)
	}
}

// A covered move is answered in the same transaction, at the same
// instant, with the clock run as for any move (Fischer: the increment).
func TestPlanAnsweredAtOnce(t *testing.T) {
	h := newHarness(t)
	h.start("9 clock=fischer:3d+1d/7d")
	h.ok("alice", "play E5")
	h.clock.Advance(time.Hour)
	before, _ := h.game(1)
	if rep := planAs(h, "alice", "plan C3 C4 D3 D4", true, false); rep.Error {
		t.Fatal(rep.Text)
	}
	h.clock.Advance(5 * time.Hour)
	rep := h.ok("bob", "play C3")
	if !strings.Contains(rep.Text, "<@test:alice> played C4 — planned.") || !strings.Contains(rep.Text, "<@test:bob> (White) to play") {
		t.Fatalf("reply: %s", rep.Text)
	}
	m, g := h.game(1)
	if g.MoveCount() != 3 || g.At(pt(t, "C4")) != game.Black || g.ToMove() != game.White {
		t.Fatalf("moves %v", g.Moves())
	}
	if n := len(m.MoveTimes); n != 3 || !m.MoveTimes[1].Equal(m.MoveTimes[2]) {
		t.Fatalf("move times %v", m.MoveTimes)
	}
	// Alice's bank: what she had when Bob's move started her clock (an
	// instant, no time spent) plus the increment.
	if want := min(before.Left[game.Black]+24*time.Hour, 7*24*time.Hour); m.Left[game.Black] != want {
		t.Fatalf("alice's bank %v, want %v", m.Left[game.Black], want)
	}
	if m.Plan == nil || len(m.Plan.Branches) != 1 || m.Plan.Branches[0].Their != pt(t, "D3") {
		t.Fatalf("the plan did not descend: %+v", m.Plan)
	}
	rep = h.ok("bob", "play D3")
	if !strings.Contains(rep.Text, "<@test:alice> played D4 — planned.") {
		t.Fatalf("second reply: %s", rep.Text)
	}
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("a used-up plan stays: %+v", m.Plan)
	}
}

// A planned reply that is no longer legal (here a plan stored before the
// position changed under it) drops the plan: no move is played for its
// owner, who is told privately.
func TestPlanIllegalReplyDropsIt(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	if err := h.db.Update(context.Background(), func(tx gobot.Tx) error {
		m, err := tx.Match(1)
		if err != nil {
			return err
		}
		m.Plan = &gobot.Plan{By: "test:alice", Branches: []gobot.PlanBranch{{Their: pt(t, "C3"), Reply: pt(t, "E5")}}}
		return tx.PutMatch(m)
	}); err != nil {
		t.Fatal(err)
	}
	n := len(h.notes.all())
	rep := h.ok("bob", "play C3")
	if strings.Contains(rep.Text, "planned") || !strings.Contains(rep.Text, "<@test:alice> (Black) to play") {
		t.Fatalf("reply: %s", rep.Text)
	}
	m, g := h.game(1)
	if m.Plan != nil || g.MoveCount() != 2 {
		t.Fatalf("plan %+v, %d moves", m.Plan, g.MoveCount())
	}
	msgs := h.notes.all()[n:]
	var told bool
	for _, msg := range msgs {
		if msg.To == "test:alice" && msg.Reply.Private && strings.Contains(msg.Reply.Text, "E5 is occupied") {
			told = true
		}
		if msg.To == "" || msg.To == "test:bob" {
			if strings.Contains(msg.Reply.Text, "plan") {
				t.Fatalf("the plan shows in a message to others: %+v", msg)
			}
		}
	}
	if !told {
		t.Fatalf("alice not told: %+v", msgs)
	}
}

// A move the plan does not cover drops it and tells its owner alone.
func TestPlanDeviationDropsIt(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	planAs(h, "alice", "plan C3 C4", true, false)
	n := len(h.notes.all())
	rep := h.ok("bob", "play G5")
	if strings.Contains(rep.Text, "plan") {
		t.Fatalf("the reply tells of the plan: %s", rep.Text)
	}
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("plan kept: %+v", m.Plan)
	}
	var told bool
	for _, msg := range h.notes.all()[n:] {
		told = told || msg.To == "test:alice" && msg.Reply.Private && strings.Contains(msg.Reply.Text, "did not cover")
	}
	if !told {
		t.Fatal("alice not told privately")
	}
	// A pass it does not cover, the same.
	h.ok("alice", "play G6")
	planAs(h, "alice", "plan C3 C4", true, false)
	n = len(h.notes.all())
	h.ok("bob", "pass")
	told = false
	for _, msg := range h.notes.all()[n:] {
		told = told || msg.To == "test:alice" && strings.Contains(msg.Reply.Text, "<@test:bob> passed, which your plan did not cover")
	}
	if m, _ := h.game(1); !told || m.Plan != nil {
		t.Fatalf("a pass left the plan %+v (told %v)", m.Plan, told)
	}
}

// An undo by agreement clears the plans.
func TestPlanClearedByUndo(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	planAs(h, "alice", "plan C3 C4 D3 D4", true, false)
	h.ok("bob", "play C3") // C4 answers
	h.ok("alice", "undo")
	if m, _ := h.game(1); m.Plan == nil {
		t.Fatal("asking for an undo dropped the plan")
	}
	n := len(h.notes.all())
	h.ok("bob", "undo")
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("plan kept after an undo: %+v", m.Plan)
	}
	told := false
	for _, msg := range h.notes.all()[n:] {
		told = told || msg.To == "test:alice" && msg.Reply.Private && strings.Contains(msg.Reply.Text, "was taken back")
	}
	if !told {
		t.Errorf("alice was not told her plan went with the undo: %+v", h.notes.all()[n:])
	}
}

// Refusals: one's own turn, engine games, handicap placement, bad lines
// (every move checked on the board), the bounds. Nothing is stored.
func TestPlanRefusals(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	for _, c := range []struct{ user, line, want string }{
		{"bob", "plan C3 C4", "It's your turn"},
		{"alice", "plan C3", "in pairs"},
		{"alice", "plan E5 C4", "E5 is occupied"},
		{"alice", "plan C3 C3", "C3 is occupied"},
		{"alice", "plan C3 Z9", "off the board"},
		{"alice", "plan pass pass C3 C4", "being scored"},
		{"alice", "plan clear C3 C4", "takes no moves"},
		{"alice", "plan", "Which moves?"},
		{"alice", "plan " + strings.Repeat("C3 C4 ", gobot.MaxPlanPairs+1), "at most 20 pairs"},
	} {
		rep := planAs(h, c.user, c.line, true, false)
		if !rep.Error || !strings.Contains(rep.Text, c.want) || len(rep.Text) > protocol.MaxRefusal {
			t.Errorf("%s: %q: %s", c.user, protocol.ClipRunes(c.line, 40), rep.Text)
		}
	}
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("stored: %+v", m.Plan)
	}
	// The branches are bounded: five lines of 20 pairs, each starting
	// with a different move of theirs, fill the plan; one more pair is
	// refused.
	var free []string
	for x := 0; x < 9; x++ {
		for y := 0; y < 9; y++ {
			if p := game.Pt(x, y); p != pt(t, "E5") {
				free = append(free, p.GTP(9))
			}
		}
	}
	for i := 0; i < 5; i++ {
		var line []string
		for k := 0; k < 2*gobot.MaxPlanPairs; k++ {
			line = append(line, free[(i*9+k)%len(free)])
		}
		if rep := planAs(h, "alice", "plan "+strings.Join(line, " "), true, false); rep.Error {
			t.Fatalf("line %d: %s", i, rep.Text)
		}
	}
	if m, _ := h.game(1); gobot.PlanSize(m.Plan.Branches) != gobot.MaxPlanBranches {
		t.Fatalf("plan of %d branches", gobot.PlanSize(m.Plan.Branches))
	}
	rep := planAs(h, "alice", "plan "+free[70]+" "+free[71], true, false)
	if !rep.Error || !strings.Contains(rep.Text, "at most 100") {
		t.Fatalf("a plan past the bound: %s", rep.Text)
	}

	e := newHarness(t)
	e.bot.SetEngines(&passEngine{}, "", "")
	defer e.bot.StopEngines()
	e.ok("alice", "challenge engine=passer level=1 9 black")
	e.ok("alice", "play D4")
	e.bot.WaitEngines()
	if rep := planAs(e, "alice", "plan C3 C4", true, false); !rep.Error || !strings.Contains(rep.Text, "games between people") {
		t.Fatalf("engine game: %s", rep.Text)
	}

	hc := newHarness(t)
	hc.start("9 handicap=2 placement=free")
	if rep := planAs(hc, "bob", "plan C3 C4", true, false); !rep.Error || !strings.Contains(rep.Text, "handicap") {
		t.Fatalf("during placement: %s", rep.Text)
	}
}

// In a game against the room by vote, the room's move comes from a
// vote: its opponent has nothing to plan against, and is told so.
func TestPlanRefusedInVoteGame(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=1h black 9")
	h.ok("alice", "accept")
	rep := planAs(h, "alice", "plan C3 C4", true, false)
	if !rep.Error || !strings.Contains(rep.Text, "decided by vote") {
		t.Fatalf("plan in a vote game: %s", rep.Text)
	}
	if m, _ := h.game(1); m.Plan != nil {
		t.Fatalf("stored: %+v", m.Plan)
	}
}

// A pass that ends the game's play (the plan's owner passed just before)
// drops the plan with the reason, not "It's your move": the game is
// being scored.
func TestPlanDroppedWhenScoringBegins(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play E5")
	h.ok("bob", "play C3")
	h.ok("alice", "pass")
	if rep := planAs(h, "alice", "plan D3 D4", true, false); rep.Error {
		t.Fatal(rep.Text)
	}
	n := len(h.notes.all())
	h.ok("bob", "pass")
	m, g := h.game(1)
	if g.Phase() != game.Scoring || m.Plan != nil {
		t.Fatalf("phase %v, plan %+v", g.Phase(), m.Plan)
	}
	var text string
	for _, msg := range h.notes.all()[n:] {
		if msg.To == "test:alice" && msg.Reply.Private {
			text = msg.Reply.Text
		}
	}
	if !strings.Contains(text, "being scored") || strings.Contains(text, "It's your move") {
		t.Fatalf("alice is told: %q", text)
	}
}
