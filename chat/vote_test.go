package chat

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// cornerEngine is an engine for chat's tests that plays the first empty
// legal point in reading order from the top left (A9 on 9x9), passes
// when the opponent passed, and accepts any count. It counts its moves.
type cornerEngine struct {
	mu    sync.Mutex
	moves int
}

func (e *cornerEngine) List() []EngineInfo { return []EngineInfo{{Name: "corner", Levels: []int{1}}} }

func (e *cornerEngine) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	return nil
}

func (e *cornerEngine) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (EngineMove, error) {
	e.mu.Lock()
	e.moves++
	e.mu.Unlock()
	return cornerMove(rec)
}

func (e *cornerEngine) count() int { e.mu.Lock(); defer e.mu.Unlock(); return e.moves }

// cornerMove is cornerEngine's move in rec.
func cornerMove(rec game.Record) (EngineMove, error) {
	g, err := game.Replay(rec)
	if err != nil {
		return EngineMove{}, err
	}
	c := g.ToMove()
	if m, ok := g.LastMove(); ok && m.IsPass() {
		return EngineMove{Moves: []game.Move{{Color: c, Point: game.Pass}}}, nil
	}
	cfg := g.Config()
	for y := 0; y < cfg.Height; y++ {
		for x := 0; x < cfg.Width; x++ {
			try, _ := game.Replay(rec)
			if try.At(game.Pt(x, y)) == game.Empty && try.Play(c, game.Pt(x, y)) == nil {
				return EngineMove{Moves: []game.Move{{Color: c, Point: game.Pt(x, y)}}}, nil
			}
		}
	}
	return EngineMove{Moves: []game.Move{{Color: c, Point: game.Pass}}}, nil
}

func (e *cornerEngine) Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error) {
	return nil, nil
}

func (e *cornerEngine) Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error) {
	return true, nil
}

// tick advances the clock by d and runs the clock loop, then waits for
// the engine turns it started.
func (h *harness) tick(d time.Duration) {
	h.t.Helper()
	h.clock.Advance(d)
	if err := h.bot.Tick(context.Background()); err != nil {
		h.t.Fatal(err)
	}
	h.bot.WaitEngines()
}

// notesSaying counts the messages sent on the bot's own that contain s.
func (h *harness) notesSaying(s string) int {
	n := 0
	for _, m := range h.notes.all() {
		if strings.Contains(m.Reply.Text, s) {
			n++
		}
	}
	return n
}

func newVoteEngineHarness(t *testing.T) (*harness, *cornerEngine) {
	h := newHarness(t)
	eng := &cornerEngine{}
	h.bot.SetEngines(eng, "", "")
	t.Cleanup(h.bot.StopEngines)
	return h, eng
}

// The room against an engine: votes open a window, a changed vote
// replaces the earlier one, an illegal vote is refused with play's
// reason, and when the window closes the move with the most votes is
// played, announced with the tally, and the engine answers at once.
func TestVoteGameAgainstEngine(t *testing.T) {
	h, eng := newVoteEngineHarness(t)
	rep := h.ok("alice", "challenge engine=corner vote=10m black 9")
	if !strings.Contains(rep.Text, "Game #1 begins: the room (Black) against <@engine:corner> (White)") || !strings.Contains(rep.Text, "(unrated). The room plays Black by vote") {
		t.Fatalf("start: %s", rep.Text)
	}
	match, _ := h.game(1)
	if match.Vote == nil || match.Vote.Window != 10*time.Minute || match.Rating != nil || !match.Deadline.IsZero() {
		t.Fatalf("stored game: vote %+v rating %+v deadline %v", match.Vote, match.Rating, match.Deadline)
	}
	if !strings.Contains(rep.Text, "the first vote opens the voting window (10m)") {
		t.Fatalf("the start does not say how to vote: %s", rep.Text)
	}
	h.fails("bob", "play E5", "the room plays against <@engine:corner> by vote: <cmd:vote <point>:cmd>")
	h.fails("bob", "pass", "<cmd:vote pass:cmd>")
	h.fails("bob", "resign", "<cmd:vote resign:cmd>")
	h.fails("bob", "undo", "Vote games have no undo")
	h.fails("bob", "vote", "vote needs your move")
	h.fails("bob", "vote Z5", "Z5 is off the board")
	h.fails("bob", "vote E5 resign", "Vote for one move")

	rep = h.ok("bob", "vote E5")
	if !strings.Contains(rep.Text, "<@test:bob> votes E5 and opens the vote for move 1 of game #1: it closes in 10m") || !strings.Contains(rep.Text, "Votes for move 1: E5 (1 vote)") {
		t.Fatalf("first vote: %s", rep.Text)
	}
	match, _ = h.game(1)
	if !match.Deadline.Equal(h.clock.Now().Add(10*time.Minute)) || !match.Vote.Closes.Equal(match.Deadline) {
		t.Fatalf("window: deadline %v closes %v", match.Deadline, match.Vote.Closes)
	}
	h.clock.Advance(time.Minute)
	h.ok("carol", "vote C3")
	h.ok("dave", "vote c3")
	rep = h.ok("dave", "vote E5")
	if !strings.Contains(rep.Text, "changes their vote from C3 to E5") || !strings.Contains(rep.Text, "E5 (2 votes), C3 (1)") || !strings.Contains(rep.Text, "closes in 9m") {
		t.Fatalf("changed vote: %s", rep.Text)
	}
	// The board during the window: the tally in words, the counts drawn.
	board := h.ok("erin", "board")
	if !strings.Contains(board.Text, "Votes: E5 (2 votes), C3 (1); the window closes in 9m") {
		t.Fatalf("board text: %s", board.Text)
	}
	if !strings.Contains(board.Text, "The room (Black) to play.") {
		t.Fatalf("board's turn line: %s", board.Text)
	}
	// Nothing is played before the window closes.
	h.tick(8 * time.Minute)
	// A vote at the window's end, before the clock loop closed it, is late.
	h.clock.Advance(time.Minute)
	h.fails("erin", "vote C3", "The vote for move 1 of game #1 has closed")
	h.clock.Advance(-time.Minute)
	if _, g := h.game(1); g.MoveCount() != 0 || eng.count() != 0 {
		t.Fatalf("played before the window closed: %d moves", g.MoveCount())
	}
	h.tick(time.Minute)
	match, g := h.game(1)
	if g.MoveCount() != 2 || g.At(game.Pt(4, 4)) != game.Black || eng.count() != 1 {
		t.Fatalf("after the window: %d moves, E5 %v, engine asked %d times", g.MoveCount(), g.At(game.Pt(4, 4)), eng.count())
	}
	if match.Vote.Closes.IsZero() == false || len(match.Vote.Ballots) != 0 || len(match.Vote.Voters) != 3 {
		t.Fatalf("vote after closing: %+v", match.Vote)
	}
	if !match.Deadline.IsZero() {
		t.Fatalf("the room's next turn has a deadline before any vote: %v", match.Deadline)
	}
	if n := h.notesSaying("The room plays E5. Votes: E5 (2 votes), C3 (1)."); n != 1 {
		t.Fatalf("the close is announced %d times: %+v", n, h.notes.all())
	}
	if n := h.notesSaying("<@engine:corner> played A9."); n != 1 {
		t.Fatalf("the engine's answer is announced %d times", n)
	}
	// Ticking again plays nothing more.
	h.tick(time.Hour)
	if _, g := h.game(1); g.MoveCount() != 2 || eng.count() != 1 {
		t.Fatalf("a second tick: %d moves", g.MoveCount())
	}
	// An illegal vote is refused at once, with the reason.
	h.fails("bob", "vote E5", "E5 is occupied")
}

// The board image during a window carries the counts on their points,
// and only then.
func TestVoteBoardMarksVotes(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=1h black 9")
	if d := h.drawOf("board"); d == nil || d.Votes != nil {
		t.Fatalf("board before any vote: %+v", d)
	}
	h.ok("bob", "vote E5")
	h.ok("carol", "vote E5")
	h.ok("dave", "vote pass")
	d := h.drawOf("board")
	if d == nil || len(d.Votes) != 1 || d.Votes[game.Pt(4, 4)] != 2 {
		t.Fatalf("board during the window: %+v", d)
	}
}

// drawOf returns the drawing the reply to line would carry (before it is
// drawn), by asking through the handler directly.
func (h *harness) drawOf(line string) *protocol.Drawing {
	h.t.Helper()
	var d *protocol.Drawing
	err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		f := strings.Fields(line)
		r := &protocol.Request{User: protocol.User{ID: "test:zed", Name: "zed"}, Room: "test:main", Command: f[0], Args: f[1:], Time: h.clock.Now()}
		res, err := cmdBoard(&Call{Ctx: context.Background(), Tx: tx, Req: r, Args: &protocol.Args{}, bot: h.bot.core})
		d = res.Reply.Draw
		return err
	})
	if err != nil {
		h.t.Fatal(err)
	}
	return d
}

// A tie is drawn at random and said so; resigning needs more than half
// of the turn's voters.
func TestVoteTieAndResign(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=5s black 9")
	h.ok("bob", "vote E5")
	h.ok("carol", "vote C3")
	h.ok("dave", "vote resign")
	h.tick(5 * time.Second)
	_, g := h.game(1)
	if g.MoveCount() != 2 || (g.At(game.Pt(4, 4)) != game.Black && g.At(game.Pt(2, 6)) != game.Black) {
		t.Fatalf("after a tie: %d moves", g.MoveCount())
	}
	if n := h.notesSaying("(E5 and C3 tied; drawn at random). Votes: E5 (1 vote), C3 (1), resign (1)."); n != 1 {
		t.Fatalf("tie announced %d times: %+v", n, h.notes.all())
	}
	// Two of three for resigning is a majority.
	h.ok("bob", "vote resign")
	h.ok("carol", "vote D4")
	h.ok("dave", "vote resign")
	h.tick(5 * time.Second)
	match, _ := h.game(1)
	if match.Active() || match.Result != "W+R" {
		t.Fatalf("after a majority to resign: active %v, result %q", match.Active(), match.Result)
	}
	if n := h.notesSaying("The room resigns (2 of 3 voters chose to). Votes: resign (2 votes), D4 (1)."); n != 1 {
		t.Fatalf("resignation announced %d times", n)
	}
	h.fails("bob", "vote E5", "No vote game is being played here. Start one with <cmd:challenge engine=corner vote=10m:cmd>")
	h.fails("bob", "vote E5 #1", "Game #1 is over")
	h.fails("bob", "pass #1", "Game #1 is over") // a voter of an ended game: over, not "vote"
}

// Half the voters for resigning is not enough: the other move is played.
func TestVoteResignNeedsMajority(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=5s black 9")
	h.ok("bob", "vote resign")
	h.ok("carol", "vote D4")
	h.tick(5 * time.Second)
	match, g := h.game(1)
	if !match.Active() || g.At(game.Pt(3, 5)) != game.Black {
		t.Fatalf("one of two voted resign: active %v, D4 %v", match.Active(), g.At(game.Pt(3, 5)))
	}
	if n := h.notesSaying("The room plays D4. Votes: resign (1 vote), D4 (1). Resigning had 1 of 2 votes; it needs more than half."); n != 1 {
		t.Fatalf("the resignation's shortfall said %d times: %+v", n, h.notes.all())
	}
}

// The room against a person: alice accepts, plays with play under the
// game's clock; the others vote; alice may not vote. Scoring: the voters
// mark and accept for the room.
func TestVoteGameAgainstPerson(t *testing.T) {
	h := newHarness(t)
	rep := h.ok("bob", "challenge @alice vote=1h black 9 clock=1d")
	if !strings.Contains(rep.Text, "<@test:bob> challenges <@test:alice> to play against the room, by vote (the room takes Black)") || !strings.Contains(rep.Text, "voting window 1h, unrated") {
		t.Fatalf("challenge: %s", rep.Text)
	}
	h.fails("carol", "accept #1", "Challenge #1 is for <@test:alice>")
	rep = h.ok("alice", "accept")
	if !strings.Contains(rep.Text, "the room (Black) against <@test:alice> (White)") || strings.Contains(rep.Text, "rated,") {
		t.Fatalf("start: %s", rep.Text)
	}
	match, _ := h.game(1)
	if match.Vote == nil || match.Rating != nil || !match.Deadline.Equal(h.clock.Now().Add(24*time.Hour)) { // the room's clock (issue 35)
		t.Fatalf("stored: vote %+v rating %+v deadline %v", match.Vote, match.Rating, match.Deadline)
	}
	h.fails("alice", "play E5", "It's not your turn")
	h.fails("alice", "vote E5", "You play against the room in game #1")
	h.ok("bob", "vote E5")
	h.ok("carol", "vote E5")
	h.tick(time.Hour)
	match, g := h.game(1)
	if g.MoveCount() != 1 || g.At(game.Pt(4, 4)) != game.Black {
		t.Fatalf("the room's move: %d moves", g.MoveCount())
	}
	if !match.Deadline.Equal(h.clock.Now().Add(24 * time.Hour)) {
		t.Fatalf("alice's clock: deadline %v", match.Deadline)
	}
	if n := h.notesSaying("The room plays E5. Votes: E5 (2 votes)."); n != 1 {
		t.Fatalf("announced %d times", n)
	}
	h.fails("bob", "vote D4", "It's <@test:alice>'s turn in game #1")
	h.fails("bob", "play D4", "the room plays against <@test:alice> by vote")
	rep = h.ok("alice", "play C3")
	if !strings.Contains(rep.Text, "The room votes: <cmd:vote <point>:cmd>") {
		t.Fatalf("after alice's move: %s", rep.Text)
	}
	// Both pass: scoring; a voter accepts for the room, alice for herself.
	h.ok("bob", "vote pass")
	h.tick(time.Hour)
	h.ok("alice", "pass")
	_, g = h.game(1)
	if g.Phase() != game.Scoring {
		t.Fatalf("phase %v", g.Phase())
	}
	h.fails("zed", "done #1", "In game #1 the room plays against <@test:alice> by vote; only those who voted in it act for the room")
	h.ok("carol", "done")
	rep = h.ok("alice", "done")
	if !strings.Contains(rep.Text, "Both sides accepted the count") {
		t.Fatalf("end: %s", rep.Text)
	}
	if match, _ := h.game(1); match.Active() || match.Rating != nil {
		t.Fatalf("the game: active %v rating %+v", match.Active(), match.Rating)
	}
}

// Refusals of a vote challenge: the window out of range, rated, no
// opponent, handicap=auto, a direct conversation; nothing is stored.
func TestVoteChallengeRefusals(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	for _, c := range []struct{ line, want string }{
		{"challenge engine=corner vote=4s", "the voting window goes from 5 seconds to 7 days"},
		{"challenge engine=corner vote=8d", "the voting window goes from 5 seconds to 7 days"},
		{"challenge engine=corner vote=soon", "vote=soon won't work"},
		{"challenge @bob vote=1h rated", "Vote games are unrated"},
		{"challenge engine=corner vote=1h rated", "Vote games are unrated"},
		{"challenge vote=1h", "A vote game needs the room's opponent"},
		{"challenge @bob vote=1h handicap=auto", "the room has none"},
	} {
		h.fails("alice", c.line, c.want)
	}
	if rep := h.do("bob", "vote E5"); !rep.Error || !strings.Contains(rep.Text, "No vote game is being played here") {
		t.Fatalf("a vote with no vote game: %s", rep.Text)
	}
	h.start("9")
	h.fails("carol", "vote E5 #1", "Game #1 is not a vote game")
}

// A window is a stored deadline: a bot started afresh on the same
// database (a restart) closes it once.
func TestVoteWindowSurvivesRestart(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	h.ok("bob", "vote G7")
	h.bot.StopEngines()
	h.clock.Advance(11 * time.Minute)
	second := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	notes := &recordingNotifier{}
	second.SetNotifier("test", notes)
	eng := &cornerEngine{}
	second.SetEngines(eng, "", "")
	defer second.StopEngines()
	for range 2 {
		if err := second.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
		second.WaitEngines()
	}
	_, g := h.game(1)
	if g.MoveCount() != 2 || g.At(game.Pt(6, 2)) != game.Black || eng.count() != 1 {
		t.Fatalf("after the restart: %d moves, engine asked %d times", g.MoveCount(), eng.count())
	}
	n := 0
	for _, m := range notes.all() {
		if strings.Contains(m.Reply.Text, "The room plays G7") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("announced %d times", n)
	}
}

// The clock loop closes a voting window when it ends, not at its next
// regular tick: with ticks an hour apart, a 5-second window opened after
// the loop started still closes and its move is played.
func TestVoteWindowClosesOnTime(t *testing.T) {
	h := newHarness(t)
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9, Tick: time.Hour}, h.db, pngRenderer{}, nil, nil) // the system's time
	h.bot.SetNotifier("test", h.notes)
	h.bot.SetLinker(testLinker{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- h.bot.Run(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	h.ok("bob", "challenge @alice vote=5s black 9")
	h.ok("alice", "accept")
	h.ok("bob", "vote E5")
	// A bound on a hung loop, far under the hour between ticks.
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if _, g := h.game(1); g.MoveCount() == 1 {
			return
		}
	}
	t.Fatal("the 5-second window was not closed by the clock loop within a minute (its ticks are an hour apart)")
}

// The room's opponent cannot ask for an undo either: nobody could answer
// it (the room's undo is refused), so it is refused at once.
func TestVoteGameOpponentHasNoUndo(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=5s black 9")
	h.ok("alice", "accept")
	h.ok("bob", "vote E5")
	h.tick(5 * time.Second)
	h.ok("alice", "play D5")
	h.fails("alice", "undo", "Vote games have no undo")
	h.fails("alice", "undo #1", "Vote games have no undo")
	if m, g := h.game(1); m.UndoBy != "" || g.MoveCount() != 2 {
		t.Fatalf("undo by %q, %d moves", m.UndoBy, g.MoveCount())
	}
}

// The room's seat is nobody: a vote game stores no player record for it
// (the challenger and the opponent get their vacation week count).
func TestVoteSeatIsNoPlayer(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=1h black 9 clock=1d")
	h.ok("alice", "accept")
	err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		_, err := tx.Player(gobot.VoteSeat)
		return err
	})
	if !errors.Is(err, gobot.ErrNotFound) {
		t.Errorf("a player record for the room's seat: err %v, want ErrNotFound", err)
	}
	if v := h.player("alice").Vacation; v == nil || v.FirstGame.IsZero() {
		t.Errorf("alice's week count did not start: %+v", v)
	}
}

// Vacation in a vote game against a person (issue 30: every game
// against people): the person's clock stops and resumes; the room's
// voting windows run as usual, opened or closed while the clock is
// stopped.
func TestVoteGameVacationStopsThePersonsClock(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=1h black 9 clock=1d")
	h.ok("alice", "accept")
	h.ok("bob", "vote E5")
	h.ok("alice", "vacation on") // during the room's window
	if m, _ := h.game(1); !m.Paused() || !m.Deadline.Equal(m.Vote.Closes) {
		t.Fatalf("vacation during the window: paused %v, deadline %v, window closes %v", m.Paused(), m.Deadline, m.Vote.Closes)
	}
	h.tick(time.Hour) // the window closes: E5 is played
	m, g := h.game(1)
	if g.MoveCount() != 1 || !m.Deadline.IsZero() || m.PausedLeft != 24*time.Hour {
		t.Fatalf("alice's turn while away: %d moves, deadline %v, left %v (want stopped with 1d)", g.MoveCount(), m.Deadline, m.PausedLeft)
	}
	h.tick(3 * day)
	if m, _ := h.game(1); !m.Active() {
		t.Fatalf("alice lost on time while on vacation: %s", m.Result)
	}
	h.ok("alice", "play C3") // moves may be played while away; the room votes as usual
	h.ok("carol", "vote G7")
	h.tick(time.Hour)
	if m, g := h.game(1); g.MoveCount() != 3 || !m.Deadline.IsZero() || m.PausedLeft != 24*time.Hour {
		t.Fatalf("after the room's second move: %d moves, deadline %v, left %v", g.MoveCount(), m.Deadline, m.PausedLeft)
	}
	h.ok("alice", "vacation off")
	if m, _ := h.game(1); m.Paused() || !m.Deadline.Equal(h.clock.Now().Add(24*time.Hour)) {
		t.Fatalf("back: paused %v, deadline in %v (want 1d)", m.Paused(), m.Deadline.Sub(h.clock.Now()))
	}
	// Back on the room's turn, before its first vote: the room's clock
	// (issue 35) stops and runs again as any.
	h.ok("alice", "play D4")
	h.tick(2 * time.Hour)
	h.ok("alice", "vacation on")
	if m, _ := h.game(1); !m.Paused() || !m.Deadline.IsZero() || m.PausedLeft != 22*time.Hour {
		t.Fatalf("a vacation on the room's turn: paused %v, deadline %v, left %v (want stopped with 22h)", m.Paused(), m.Deadline, m.PausedLeft)
	}
	h.tick(3 * day)
	h.ok("alice", "vacation off")
	if m, _ := h.game(1); m.Paused() || !m.Deadline.Equal(h.clock.Now().Add(22*time.Hour)) {
		t.Fatalf("back on the room's turn: paused %v, deadline in %v (want 22h)", m.Paused(), m.Deadline.Sub(h.clock.Now()))
	}
}

// With two vote games in a room, a voter's play, pass, resign or undo
// without a game is refused as in one: the room moves by vote, in each
// game by its number. Nothing changes.
func TestVoteTwoGamesInRoomVoterCannotMove(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	h.ok("bob", "vote E5 #1")
	h.fails("bob", "resign", "This room plays #1, #2 by vote: <cmd:vote resign #1:cmd>, naming the game")
	h.fails("bob", "pass", "This room plays #1, #2 by vote: <cmd:vote pass #1:cmd>")
	h.fails("bob", "play D4", "This room plays #1, #2 by vote: <cmd:vote <point> #1:cmd>")
	h.fails("bob", "undo", "Vote games have no undo")
	h.fails("bob", "resign #1", "In game #1 the room plays against")
	for _, id := range []gobot.GameID{1, 2} {
		match, g := h.game(id)
		if !match.Active() || g.MoveCount() != 0 {
			t.Fatalf("game #%d changed: active %v, %d moves", id, match.Active(), g.MoveCount())
		}
	}
}

// A vote dated in the future (a Matrix homeserver's clock) opens the
// window from the bot's time, so it closes on time.
func TestVoteFromTheFutureOpensWindowNow(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	r := h.request("bob: vote E5", "test:future-vote")
	r.Time = h.clock.Now().Add(365 * day)
	if rep := h.bot.Handle(context.Background(), r); rep.Error {
		t.Fatal(rep.Text)
	}
	if match, _ := h.game(1); !match.Vote.Closes.Equal(h.clock.Now().Add(10 * time.Minute)) {
		t.Fatalf("the window closes at %v, want 10 minutes from now", match.Vote.Closes)
	}
	h.tick(10 * time.Minute)
	if _, g := h.game(1); g.MoveCount() != 2 {
		t.Fatalf("after the window: %d moves, want the room's and the engine's", g.MoveCount())
	}
}

// Refusals that name a player stay under MaxRefusal bytes with the
// longest Matrix IDs (255 bytes): they drop the name instead.
func TestRefusalsShortWithLongMatrixIDs(t *testing.T) {
	h := newHarness(t)
	h.bot.SetNotifier("matrix", h.notes)
	long := strings.Repeat("l", 240) // @l…l:example.org is 253 bytes
	room := "matrix:!main:example.org"
	check := func(rep protocol.Reply, want string) {
		t.Helper()
		if !rep.Error || !strings.Contains(rep.Text, want) || len(rep.Text) > protocol.MaxRefusal {
			t.Errorf("want a refusal of at most %d bytes saying %q, got %d bytes: %s", protocol.MaxRefusal, want, len(rep.Text), rep.Text)
		}
	}
	check(h.mx("alice", room, "rengo @matrix:@alice:example.org @matrix:@"+long+":example.org vs @matrix:@"+long+":example.org", false), "named twice")
	if rep := h.mx("alice", room, "challenge @matrix:@"+long+":example.org vote=1h white 9", false); rep.Error {
		t.Fatal(rep.Text)
	}
	if rep := h.mx(long, room, "accept", false); rep.Error {
		t.Fatal(rep.Text)
	}
	check(h.mx("bob", room, "play E5", false), "the room plays by vote")
	check(h.mx("bob", room, "vote E5", false), "the room votes again after that move")
	if rep := h.mx(long, room, "challenge @matrix:@alice:example.org 9", false); rep.Error {
		t.Fatal(rep.Text)
	}
	check(h.mx("alice", room, "cancel #2", false), "you may")
	check(h.mx("carol", room, "cancel #2", false), "Only the challenger can cancel challenge #2.")
}

// games lists the room's vote games for its members: the room plays
// them, with the caller's vote this turn.
func TestGamesListsRoomVoteGames(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	rep := h.ok("alice", "games")
	if !strings.Contains(rep.Text, "#1, the room (Black) vs <@engine:corner> by vote (9x9, move 0): the room's vote") {
		t.Fatalf("alice's games: %s", rep.Text)
	}
	h.ok("bob", "vote E5")
	if rep := h.ok("bob", "games"); !strings.Contains(rep.Text, "the room's vote, yours: E5") {
		t.Fatalf("bob's games: %s", rep.Text)
	}
}

// A vote game against a person cannot stall (issue 35): the room's turn
// runs on the game's clock from its start, and a room that casts no vote
// by its deadline loses on time, as a player would.
func TestVoteRoomLosesOnTime(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=5s 9 white clock=1m")
	h.ok("alice", "accept")
	h.ok("alice", "play E5")
	if m, _ := h.game(1); !m.Deadline.Equal(h.clock.Now().Add(time.Minute)) {
		t.Fatalf("the room's clock: deadline in %v, want 1m", m.Deadline.Sub(h.clock.Now()))
	}
	for range 11 {
		h.tick(5 * time.Second)
	}
	if m, _ := h.game(1); !m.Active() {
		t.Fatalf("the room lost before its time ran out: %s", m.Result)
	}
	h.clock.Advance(5 * time.Second)
	h.fails("carol", "vote D4", "The room's time for move 2 of game #1 ran out before this vote")
	h.tick(0)
	m, _ := h.game(1)
	if m.Active() || m.Result != "B+T" {
		t.Fatalf("after 60s without a vote: active %v, result %q", m.Active(), m.Result)
	}
	if n := h.notesSaying("The room ran out of time: nobody voted for move 2 by its deadline."); n != 1 {
		t.Fatalf("the loss on time said %d times: %+v", n, h.notes.all())
	}
	if h.notesSaying("Black wins on time") != 1 || h.notesSaying("it's your move") != 0 {
		t.Fatalf("notices: %+v", h.notes.all())
	}
}

// The room is reminded in the room, as a player is, under the same rule
// (issue 35): with a day a move, the 24-hour reminder halfway; nobody is
// pinged or sent a DM.
func TestVoteRoomReminded(t *testing.T) {
	h := newHarness(t)
	h.ok("carol", "settings notify=dm")
	h.ok("carol", "challenge @alice vote=1h 9 white clock=1d")
	h.ok("alice", "accept")
	h.ok("alice", "play E5")
	h.tick(11 * time.Hour)
	if n := h.notesSaying("The room's move"); n != 0 {
		t.Fatalf("reminded in the first half of the room's turn: %+v", h.notes.all())
	}
	h.tick(time.Hour)
	var reminders []protocol.Message
	for _, m := range h.notes.all() {
		if strings.Contains(m.Reply.Text, "The room's move in game #1 (move 2) — 12h left to vote: <cmd:vote <point>:cmd>") {
			reminders = append(reminders, m)
		}
	}
	if len(reminders) != 1 || reminders[0].To != "" || len(reminders[0].Reply.Mentions) != 0 || reminders[0].Room != "test:main" {
		t.Fatalf("the room's reminder: %+v", h.notes.all())
	}
	h.tick(11 * time.Hour)
	if n := h.notesSaying("The room's move in game #1 (move 2) — 1h left to vote"); n != 1 {
		t.Fatalf("the one-hour reminder sent %d times: %+v", n, h.notes.all())
	}
	// Its first vote stops the room's clock: the window closes on its
	// own time and the move is played after the deadline had passed.
	h.tick(30 * time.Minute)
	h.ok("carol", "vote D4")
	h.tick(time.Hour)
	m, g := h.game(1)
	if !m.Active() || g.MoveCount() != 2 || !m.Deadline.Equal(h.clock.Now().Add(24*time.Hour)) {
		t.Fatalf("after the window: active %v (%s), %d moves, alice's deadline in %v", m.Active(), m.Result, g.MoveCount(), m.Deadline.Sub(h.clock.Now()))
	}
	if n := h.notesSaying("The room's move"); n != 2 {
		t.Fatalf("the room was reminded %d times, want twice", n)
	}
}

// A Fischer clock on the room's side: the room's bank is charged up to
// its first vote (the window runs on the room's own time), plus the
// increment.
func TestVoteRoomFischerBank(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=10m 9 white clock=fischer:1h+10m/2h")
	h.ok("alice", "accept")
	h.ok("alice", "play E5")
	h.tick(20 * time.Minute)
	h.ok("bob", "vote D4")
	h.tick(10 * time.Minute)
	m, g := h.game(1)
	if g.MoveCount() != 2 || m.Left[game.White] != 50*time.Minute {
		t.Fatalf("the room's bank after its move: %d moves, %v (want 40m left at the vote + 10m)", g.MoveCount(), m.Left[game.White])
	}
}

// A vote game against a person always has a clock: the room's default,
// else 3 days a move; clock=none is refused.
func TestVoteGameAgainstPersonHasAClock(t *testing.T) {
	h := newHarness(t)
	before := h.dump()
	h.fails("bob", "challenge @alice vote=1h 9 clock=none", "A vote game against a person needs a clock")
	if h.dump() != before {
		t.Fatal("a refused challenge changed the store")
	}
	if rep := h.ok("bob", "challenge @alice vote=1h 9"); !strings.Contains(rep.Text, "3d a move") {
		t.Fatalf("without a clock: %s", rep.Text)
	}
	h.admins = map[string]bool{"bob": true}
	h.ok("bob", "settings clock=1d")
	if rep := h.ok("bob", "challenge @alice vote=1h 9"); !strings.Contains(rep.Text, "1d a move") {
		t.Fatalf("with the room's clock: %s", rep.Text)
	}
	if rep := h.ok("bob", "challenge @alice vote=1h 9 clock=2h"); !strings.Contains(rep.Text, "2h a move") {
		t.Fatalf("with a clock: %s", rep.Text)
	}
}

// One voter cannot resign for the room (issue 35): a resignation needs
// more than half of the votes and at least 3 voters, or everyone who
// voted in the room's last 5 turns when fewer. Short of it, resign alone
// keeps the window open (the tally says why) and any other vote is
// played.
func TestVoteLoneResign(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	for _, turn := range [][2]string{{"carol", "C3"}, {"dave", "D4"}, {"bob", "E5"}} {
		h.ok(turn[0], "vote "+turn[1])
		h.tick(10 * time.Minute)
	}
	// bob, carol and dave voted in the last turns: bob alone is short.
	h.ok("bob", "vote resign")
	h.tick(10 * time.Minute)
	m, g := h.game(1)
	if !m.Active() || g.MoveCount() != 6 || len(m.Vote.Ballots) != 1 || !m.Vote.Closes.IsZero() || !m.Deadline.IsZero() {
		t.Fatalf("after a lone resign vote: active %v (%s), %d moves, ballots %v, window closes %v, deadline %v", m.Active(), m.Result, g.MoveCount(), m.Vote.Ballots, m.Vote.Closes, m.Deadline)
	}
	if n := h.notesSaying("The vote for move 7 stays open: votes resign (1 vote). Resigning needs 3 voters; 1 voted."); n != 1 {
		t.Fatalf("the open window said %d times: %+v", n, h.notes.all())
	}
	if rep := h.ok("carol", "board"); !strings.Contains(rep.Text, "Votes: resign (1 vote); the window stays open") {
		t.Fatalf("board: %s", rep.Text)
	}
	h.tick(time.Hour)
	if m, _ := h.game(1); !m.Active() {
		t.Fatal("the open window ended the game")
	}
	rep := h.ok("carol", "vote G7")
	if !strings.Contains(rep.Text, "<@test:carol> votes G7: the vote for move 7 of game #1 runs again and closes in 10m.") || !strings.Contains(rep.Text, "resign (1 vote), G7 (1)") {
		t.Fatalf("the vote that runs the window again: %s", rep.Text)
	}
	h.tick(10 * time.Minute)
	if m, g := h.game(1); !m.Active() || g.At(game.Pt(6, 2)) != game.Black {
		t.Fatalf("G7 was not played: active %v", m.Active())
	}
	if n := h.notesSaying("The room plays G7. Votes: resign (1 vote), G7 (1). Resigning had 1 of 2 votes; it needs more than half."); n != 1 {
		t.Fatalf("G7 announced %d times: %+v", n, h.notes.all())
	}
	// Two of three resign, with a third voter: the quorum is met.
	h.ok("bob", "vote resign")
	h.ok("carol", "vote resign")
	h.ok("dave", "vote J9")
	h.tick(10 * time.Minute)
	if m, _ := h.game(1); m.Active() || m.Result != "W+R" {
		t.Fatalf("two of three voted resign: active %v, result %q", m.Active(), m.Result)
	}
	if n := h.notesSaying("The room resigns (2 of 3 voters chose to)."); n != 1 {
		t.Fatalf("the resignation said %d times", n)
	}
}

// Two of two resigning is not enough when three voted recently, and a
// move with the other votes is played; a voter of 5 turns ago no longer
// counts.
func TestVoteResignQuorumLooksBackFiveTurns(t *testing.T) {
	h, _ := newVoteEngineHarness(t)
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	voters := [][]string{{"erin"}, {"bob"}, {"carol"}, {"bob"}, {"carol"}}
	for i, vs := range voters {
		for _, u := range vs {
			h.ok(u, "vote "+[]string{"A9", "C9", "E9", "G9", "J9"}[i])
		}
		h.tick(10 * time.Minute)
	}
	// The room's last 5 turns (this one included) had bob and carol:
	// erin's vote was 6 turns ago. Both of them is the quorum.
	h.ok("bob", "vote resign")
	h.ok("carol", "vote resign")
	h.tick(10 * time.Minute)
	if m, _ := h.game(1); m.Active() || m.Result != "W+R" {
		t.Fatalf("both recent voters resign: active %v, result %q", m.Active(), m.Result)
	}

	// On the room's first voted turn nothing tells how many vote here:
	// a lone resign needs the full 3, and the window stays open.
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	h.ok("bob", "vote resign #2")
	h.tick(10 * time.Minute)
	if m, _ := h.game(2); !m.Active() {
		t.Fatalf("a lone resign on the room's first turn ended the game: %q", m.Result)
	}
	if n := h.notesSaying("Resigning needs 3 voters; 1 voted."); n != 1 {
		t.Fatalf("the first turn's shortfall said %d times: %+v", n, h.notes.all())
	}
	// A room where bob alone has voted since: his is every vote of the
	// last 5 turns, so he resigns alone.
	h.ok("bob", "vote C9 #2")
	h.tick(10 * time.Minute)
	h.ok("bob", "vote resign #2")
	h.tick(10 * time.Minute)
	if m, _ := h.game(2); m.Active() || m.Result != "W+R" {
		t.Fatalf("the only voter resigns: active %v, result %q", m.Active(), m.Result)
	}

	// Two of three recent voters, without the third: short.
	h.ok("alice", "challenge engine=corner vote=10m black 9")
	for i, u := range []string{"bob", "carol", "dave"} {
		h.ok(u, "vote "+[]string{"A9", "C9", "E9"}[i]+" #3")
		h.tick(10 * time.Minute)
	}
	h.ok("bob", "vote resign #3")
	h.ok("carol", "vote resign #3")
	h.tick(10 * time.Minute)
	if m, _ := h.game(3); !m.Active() {
		t.Fatalf("two of three recent voters resigned: %s", m.Result)
	}
	if n := h.notesSaying("The vote for move 7 stays open: votes resign (2 votes). Resigning needs 3 voters;"); n != 1 {
		t.Fatalf("the shortfall said %d times: %+v", n, h.notes.all())
	}
}

// Against a person, a window that stays open on a lone resign vote gives
// the room's clock back the time it had at that vote: when nobody votes a
// move by the deadline, the room loses on time, and the message says why.
func TestVoteLoneResignAgainstPersonEndsOnTime(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=5s 9 white clock=1m")
	h.ok("alice", "accept")
	for i, u := range []string{"carol", "dave", "erin"} {
		h.ok("alice", "play "+[]string{"A1", "C1", "E1"}[i])
		h.ok(u, "vote "+[]string{"A9", "C9", "E9"}[i])
		h.tick(5 * time.Second)
	}
	h.ok("alice", "play G1")
	h.tick(10 * time.Second)
	h.ok("bob", "vote resign")
	h.tick(5 * time.Second)
	m, _ := h.game(1)
	if !m.Active() || !m.Deadline.Equal(h.clock.Now().Add(50*time.Second)) {
		t.Fatalf("after the lone resign vote: active %v, the room's deadline in %v (want 50s)", m.Active(), m.Deadline.Sub(h.clock.Now()))
	}
	if n := h.notesSaying("The room has 50s left."); n != 1 {
		t.Fatalf("the room's time not said: %+v", h.notes.all())
	}
	h.tick(50 * time.Second)
	if m, _ := h.game(1); m.Active() || m.Result != "B+T" {
		t.Fatalf("nobody voted a move: active %v, result %q", m.Active(), m.Result)
	}
	if n := h.notesSaying("The room ran out of time: no move was voted for move 8, and resigning was short of the quorum."); n != 1 {
		t.Fatalf("the loss on time said %d times: %+v", n, h.notes.all())
	}
}

// Issue 43: a vote without a number in a room that votes in two games
// goes to the one at the room's turn; with both at the room's turn it
// asks which.
func TestVoteGoesToTheGameAtTheRoomsTurn(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "challenge @alice vote=1h black 9 clock=1d")
	h.ok("alice", "accept #1") // the room is Black: its turn
	h.ok("bob", "challenge @alice vote=1h white 9 clock=1d")
	h.ok("alice", "accept #2") // the room is White: alice's turn
	h.ok("carol", "vote E5")
	if match, _ := h.game(1); !match.Vote.Voted("test:carol") {
		t.Fatal("carol's vote is not in game #1, the one at the room's turn")
	}
	h.ok("alice", "play C3 #2")
	h.fails("carol", "vote D4", "Which game? The room votes in several: #1, #2")
}
