package flow

import (
	"errors"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// newGame is game 1 between alice (Black) and bob (White) on a 9×9
// board, the moves played in turn (GTP points, "pass").
func newGame(t *testing.T, moves ...string) *Loaded {
	t.Helper()
	rules, err := game.ParseRules("japanese")
	if err != nil {
		t.Fatal(err)
	}
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range moves {
		p, err := game.ParsePoint(s, 9, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(g.ToMove(), p); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	m := &gobot.Match{ID: 1, Black: "t:alice", White: "t:bob", Record: g.Record(), Created: start}
	l, err := Load(m)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func pt(s string) game.Point { p, _ := game.ParsePoint(s, 9, 9); return p }

func TestPlay(t *testing.T) {
	// . . .        after B1 A1 A2, Black's A2 takes White's A1:
	// X . .   3
	// O X .   2 …  A1 has no liberty left.
	l := newGame(t, "B1", "A1")
	o, err := play(l, game.Black, pt("A2"), start)
	if err != nil {
		t.Fatal(err)
	}
	if o != (Played{Color: game.Black, Point: pt("A2"), Captured: 1}) {
		t.Errorf("Play = %+v", o)
	}
	if len(l.Match.MoveTimes) != 1 || l.G.At(pt("A1")) != game.Empty {
		t.Errorf("the move is not recorded: %v, A1 %v", l.Match.MoveTimes, l.G.At(pt("A1")))
	}
	_, err = play(l, game.White, pt("B1"), start)
	var ill IllegalMove
	if !errors.As(err, &ill) || ill.Point != pt("B1") || !errors.Is(err, game.ErrOccupied) {
		t.Errorf("Play on B1 = %v, want occupied", err)
	}
}

func TestTurn(t *testing.T) {
	l := newGame(t, "D4")
	if err := Turn(l, game.White, "t:bob", start); err != nil {
		t.Errorf("White's turn: %v", err)
	}
	if err := Turn(l, game.Black, "t:alice", start); err != (NotYourTurn{Game: 1, Next: "t:bob"}) {
		t.Errorf("Black out of turn: %v", err)
	}
	l.Match.Clock = gobot.TimeControl{Kind: gobot.Absolute, Main: 10 * time.Minute}
	l.Match.Deadline = start.Add(-3 * time.Second)
	if err := Turn(l, game.White, "t:bob", start); err != (TooLate{Game: 1, By: 3 * time.Second}) {
		t.Errorf("late: %v", err)
	}
	l.Match.Pause = &gobot.LivePause{Since: start.Add(-time.Minute)}
	if err := Turn(l, game.White, "t:bob", start); err != (WhilePaused{Game: 1}) {
		t.Errorf("paused: %v", err)
	}
	p := newGame(t, "D4", "pass", "pass")
	if err := Turn(p, game.Black, "t:alice", start); !errors.Is(err, game.ErrScoring) {
		t.Errorf("scoring: %v", err)
	}
}

func TestUndo(t *testing.T) {
	l := newGame(t, "D4", "E5")
	if _, err := undo(l, game.Black, "t:alice", false, start); err != (NotYourMove{Last: game.White}) {
		t.Errorf("Black asks for White's move: %v", err)
	}
	if _, err := undo(l, game.White, "t:bob", true, start); err != (NoUndoAsked{}) {
		t.Errorf("refusing nothing: %v", err)
	}
	o, err := undo(l, game.White, "t:bob", false, start)
	if err != nil || o.Answer != UndoAsked || l.Match.UndoBy != "t:bob" {
		t.Fatalf("ask = %+v, %v (UndoBy %q)", o, err, l.Match.UndoBy)
	}
	if _, err := undo(l, game.White, "t:bob", false, start); err != (UndoWaiting{By: "t:bob", You: true, Side: game.White}) {
		t.Errorf("asking again: %v", err)
	}
	l.Match.Plan = &gobot.Plan{By: "t:alice"}
	o, err = undo(l, game.Black, "t:alice", false, start)
	want := Undone{Answer: UndoAgreed, Asked: "t:bob", Number: 2, Taken: game.Move{Color: game.White, Point: pt("E5")}, PlanOwner: "t:alice"}
	if err != nil || o != want {
		t.Errorf("agree = %+v, %v; want %+v", o, err, want)
	}
	if l.G.MoveCount() != 1 || l.Match.UndoBy != "" || l.Match.Plan != nil || len(l.Match.Undos) != 1 {
		t.Errorf("after the undo: %d moves, UndoBy %q, plan %v, undos %v", l.G.MoveCount(), l.Match.UndoBy, l.Match.Plan, l.Match.Undos)
	}
	l.Match.Engine, l.Match.White = "gnugo", gobot.EngineUser("gnugo") // an engine game: its seat is the engine's
	if _, err := undo(l, game.Black, "t:alice", false, start); err != (NoTakeBack{"gnugo"}) {
		t.Errorf("against an engine: %v", err)
	}
}

func TestMarkAndAccept(t *testing.T) {
	l := newGame(t, "D4", "E5", "pass", "pass")
	if _, err := accept(l, game.White, start); err != nil {
		t.Fatal(err)
	}
	if _, err := accept(l, game.White, start); err != (CountAccepted{game.White}) {
		t.Errorf("accepting again: %v", err)
	}
	if _, err := markStones(l, []string{"D4", "A1"}); err != (NoStone{pt("A1")}) {
		t.Errorf("marking A1: %v", err)
	}
	var notA NotAStone
	if _, err := markStones(l, []string{"Z9"}); !errors.As(err, &notA) || notA.Word != "Z9" || !errors.Is(notA.Err, game.ErrOffBoard) {
		t.Errorf("marking Z9: %v", err)
	}
	if _, err := markStones(l, []string{"pass"}); !errors.As(err, &notA) || notA.Word != "pass" || notA.Err != nil {
		t.Errorf("marking pass: %v", err)
	}
	l = newGame(t, "D4", "E5", "pass", "pass")
	if _, err := accept(l, game.White, start); err != nil {
		t.Fatal(err)
	}
	o, err := markStones(l, []string{"E5"})
	if err != nil || len(o.Toggled) != 1 || o.Toggled[0] != (Mark{pt("E5"), true}) || len(o.Withdrew) != 1 || o.Withdrew[0] != game.White {
		t.Errorf("MarkDead E5 = %+v, %v", o, err)
	}
	if a, err := accept(l, game.Black, start); err != nil || a.Over {
		t.Errorf("Black accepts = %+v, %v", a, err)
	}
	if a, err := accept(l, game.White, start); err != nil || !a.Over || l.Match.Active() {
		t.Errorf("White accepts = %+v, %v; finished %v", a, err, l.Match.Finished)
	}
}

func TestPassAndResign(t *testing.T) {
	l := newGame(t, "D4")
	if o, err := pass(l, game.White, start); err != nil || o.Scoring {
		t.Errorf("Pass = %+v, %v", o, err)
	}
	if o, err := pass(l, game.Black, start); err != nil || !o.Scoring {
		t.Errorf("second pass = %+v, %v", o, err)
	}
	l = newGame(t, "D4")
	if o, err := resign(l, game.White, start); err != nil || o.Result != "B+R" || l.Match.Finished != start {
		t.Errorf("Resign = %+v, %v", o, err)
	}
}

func TestCheckLine(t *testing.T) {
	l := newGame(t, "D4") // White to move; Black plans
	line, err := CheckLine(l.G, game.Black, []string{"C3", "C4", "D3", "E3"})
	if err != nil || len(line) != 2 || line[1] != (gobot.PlanPair{Their: pt("D3"), Reply: pt("E3")}) {
		t.Errorf("CheckLine = %v, %v", line, err)
	}
	_, err = CheckLine(l.G, game.Black, []string{"C3", "C3"})
	if err != (LineMove{Move: 2, Mine: true, Point: pt("C3"), Err: err.(LineMove).Err, Ahead: true}) || !errors.Is(err, game.ErrOccupied) {
		t.Errorf("a reply on their move: %v", err)
	}
	_, err = CheckLine(l.G, game.Black, []string{"D4", "C3"})
	if lm, ok := err.(LineMove); !ok || lm.Ahead || lm.Move != 1 {
		t.Errorf("their move on a stone now: %v", err)
	}
	if _, err = CheckLine(l.G, game.Black, []string{"C3", "Q1"}); err == nil || err.(LineWord).Move != 2 {
		t.Errorf("off the board: %v", err)
	}
}

func TestFollowPlan(t *testing.T) {
	l := newGame(t, "D4")
	line, _ := CheckLine(l.G, game.Black, []string{"C3", "C4", "D3", "E3"})
	if _, err := AddLine(l, "t:alice", line, start); err != nil {
		t.Fatal(err)
	}
	if _, err := play(l, game.White, pt("C3"), start); err != nil {
		t.Fatal(err)
	}
	f := FollowPlan(l, game.White, pt("C3"), start)
	if !f.Played || f.Reply != pt("C4") || l.G.At(pt("C4")) != game.Black || l.Match.Plan == nil {
		t.Errorf("FollowPlan C3 = %+v, plan %v", f, l.Match.Plan)
	}
	if _, err := play(l, game.White, pt("G7"), start); err != nil {
		t.Fatal(err)
	}
	f = FollowPlan(l, game.White, pt("G7"), start)
	if f.Played || f.Dropped != PlanUncovered || f.Owner != "t:alice" || l.Match.Plan != nil {
		t.Errorf("FollowPlan G7 = %+v, plan %v", f, l.Match.Plan)
	}
}

// A refused undo stands until a move is played: once a later move is
// played and taken back by agreement, the position's move count is the
// refusal's again, but the refusal is over (the board tells it no more).
func TestUndoRefusalEndsWithTheNextMove(t *testing.T) {
	l := newGame(t, "E5", "C3")
	save := func() { l.Match.Record = l.G.Record() }
	if _, err := undo(l, game.White, "t:bob", false, start); err != nil { // bob asks to take back C3
		t.Fatal(err)
	}
	if _, err := undo(l, game.Black, "t:alice", true, start); err != nil { // alice refuses
		t.Fatal(err)
	}
	save()
	if r := l.Match.RefusedNow(); r == nil || r.Asked != "t:bob" {
		t.Fatalf("right after the refusal: %+v", r)
	}
	if _, err := play(l, game.Black, pt("D4"), start); err != nil {
		t.Fatal(err)
	}
	save()
	if r := l.Match.RefusedNow(); r != nil {
		t.Fatalf("after a move: %+v still stands", r)
	}
	if _, err := undo(l, game.Black, "t:alice", false, start); err != nil { // alice asks to take back D4
		t.Fatal(err)
	}
	if o, err := undo(l, game.White, "t:bob", false, start); err != nil || o.Answer != UndoAgreed {
		t.Fatalf("bob agrees: %+v %v", o, err)
	}
	save()
	if r := l.Match.RefusedNow(); r != nil {
		t.Errorf("after a move and its undo, the old refusal is told again: %+v", r)
	}
}
