package chat

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// fakeClock is a clock tests move by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *fakeClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// recordingNotifier keeps the messages the bot sends on its own.
type recordingNotifier struct {
	mu   sync.Mutex
	msgs []protocol.Message
}

func (n *recordingNotifier) Notify(ctx context.Context, m protocol.Message) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.msgs = append(n.msgs, m)
	return nil
}

func (n *recordingNotifier) all() []protocol.Message {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]protocol.Message(nil), n.msgs...)
}

// pngRenderer is a small real renderer for chat tests: one pixel per
// point, so replies carry a decodable PNG of the right size.
type pngRenderer struct{}

func (pngRenderer) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	return writeTinyPNG(w, g)
}

func (pngRenderer) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	return writeTinyPNG(w, g)
}

type harness struct {
	t     testing.TB
	bot   *Bot
	db    TestDB
	clock *fakeClock
	notes *recordingNotifier
	seq   int
	// admins are the users whose requests carry Admin.
	admins map[string]bool
	// shared: requests come from a platform that cannot show a reply to
	// one member of a room (a platform without private replies).
	shared bool
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	db, err := OpenTestDB(filepath.Join(t.TempDir(), "gobot.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	clock := &fakeClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	h := &harness{t: t, db: db, clock: clock, notes: &recordingNotifier{}}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, db, pngRenderer{}, clock, nil)
	h.bot.SetNotifier("test", h.notes)
	h.bot.SetLinker(testLinker{})
	return h
}

// do sends a command line as user (a bare name: "alice") in room main.
// privateTest is the tests' platform whose replies can be private (as
// Discord's ephemeral ones, the terminal's); sharedTest's cannot (a
// Matrix room's).
var (
	privateTest = &protocol.Platform{Name: "test", PrivateReplies: true}
	sharedTest  = &protocol.Platform{Name: "test"}
)

// testPlatform is privateTest or sharedTest.
func testPlatform(private bool) *protocol.Platform {
	if private {
		return privateTest
	}
	return sharedTest
}

func (h *harness) do(user, line string) protocol.Reply {
	h.t.Helper()
	h.seq++
	f := strings.Fields(line)
	r := protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main",
		EventID: gobot.EventID("test:" + string(rune('a'+h.seq%26)) + time.Duration(h.seq).String()), Command: f[0], Args: f[1:], Admin: h.admins[user], Platform: testPlatform(!h.shared)}
	return h.bot.Handle(context.Background(), r)
}

func (h *harness) ok(user, line string) protocol.Reply {
	h.t.Helper()
	rep := h.do(user, line)
	if rep.Error {
		h.t.Fatalf("%s: %q failed: %s", user, line, rep.Text)
	}
	return rep
}

func (h *harness) fails(user, line, want string) protocol.Reply {
	h.t.Helper()
	rep := h.do(user, line)
	if !rep.Error || !rep.Private {
		h.t.Fatalf("%s: %q should fail privately, got %+v", user, line, rep.Text)
	}
	if !strings.Contains(rep.Text, want) {
		h.t.Fatalf("%s: %q: error %q does not say %q", user, line, rep.Text, want)
	}
	return rep
}

// game returns the stored game id.
func (h *harness) game(id gobot.GameID) (*gobot.Match, *game.Game) {
	h.t.Helper()
	var match *gobot.Match
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		match, err = tx.Match(id)
		return err
	}); err != nil {
		h.t.Fatal(err)
	}
	g, err := game.Replay(match.Record)
	if err != nil {
		h.t.Fatal(err)
	}
	return match, g
}

// start makes alice (Black) and bob (White) play game #1.
func (h *harness) start(opts string) {
	h.t.Helper()
	h.ok("alice", "challenge @bob black "+opts)
	rep := h.ok("bob", "accept")
	if !strings.Contains(rep.Text, "Game #1 begins") {
		h.t.Fatalf("accept reply: %s", rep.Text)
	}
}

func TestFullGame(t *testing.T) {
	h := newHarness(t)
	rep := h.ok("alice", "challenge @bob 5 black")
	if rep.Mentions[0] != "test:bob" || len(rep.Actions) != 2 {
		t.Fatalf("challenge reply: %+v", rep)
	}
	h.ok("bob", "accept #1")
	// A capture: White's stone at B2... build a position where Black captures.
	for _, mv := range []struct{ who, line string }{
		{"alice", "play C3"}, {"bob", "play B3"}, {"alice", "play B2"}, {"bob", "play A3"},
		{"alice", "play B4"}, {"bob", "play E5"}, {"alice", "play A2"}, {"bob", "play E4"},
	} {
		h.ok(mv.who, mv.line)
	}
	rep = h.ok("alice", "play A4")
	if !strings.Contains(rep.Text, "capturing 2 stones") {
		t.Fatalf("capture not reported: %s", rep.Text)
	}
	if rep.Image == nil || rep.Image.MIME != "image/png" {
		t.Fatal("move reply has no board image")
	}
	if _, err := png.Decode(bytes.NewReader(rep.Image.Data)); err != nil {
		t.Fatal(err)
	}
	if len(rep.Mentions) != 1 || rep.Mentions[0] != "test:bob" {
		t.Fatalf("the player to move should be mentioned: %v", rep.Mentions)
	}
	h.fails("bob", "play C3", "C3 is occupied")
	h.fails("alice", "play D4", "not your turn")
	h.fails("bob", "play Z9", "off the board")
	h.fails("bob", "play I3", "no column I")
	h.fails("carol", "play D4", "no active game")
	h.fails("carol", "play D4 #1", "Only")
	h.ok("bob", "pass")
	rep = h.ok("alice", "pass")
	if !strings.Contains(rep.Text, "Scoring") {
		t.Fatalf("two passes should start scoring: %s", rep.Text)
	}
	h.fails("alice", "play D4", "being scored")
	h.ok("alice", "done")
	h.fails("alice", "done", "already accepted")
	rep = h.ok("bob", "done")
	if !strings.Contains(rep.Text, "Game over") {
		t.Fatalf("both accepting should end the game: %s", rep.Text)
	}
	match, g := h.game(1)
	if match.Active() || match.Result == "" {
		t.Fatalf("game not finished: %+v", match)
	}
	if res, _ := g.Result(); res.String() != match.Result {
		t.Fatalf("stored result %q, game says %q", match.Result, res)
	}
	h.fails("alice", "play D4 #1", "over")
	rep = h.ok("carol", "sgf #1")
	if rep.File == nil || !bytes.Contains(rep.File.Data, []byte("RE["+match.Result+"]")) {
		t.Fatalf("sgf: %+v", rep.File)
	}
}

func TestDuplicateEventAppliedOnce(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: "test:dup", Command: "play", Args: []string{"D4"}}
	first := h.bot.Handle(context.Background(), r)
	second := h.bot.Handle(context.Background(), r)
	if first.Error || !second.Duplicate {
		t.Fatalf("first %q, second %+v", first.Text, second)
	}
	_, g := h.game(1)
	if g.MoveCount() != 1 {
		t.Fatalf("moves = %d, want 1", g.MoveCount())
	}
	// Commands that only look are answered once too.
	look := protocol.Request{User: protocol.User{ID: "test:carol", Name: "carol"}, Room: "test:main", EventID: "test:look", Command: "board", Args: []string{"#1"}}
	if rep := h.bot.Handle(context.Background(), look); rep.Error || rep.Image == nil {
		t.Fatalf("board: %s", rep.Text)
	}
	if rep := h.bot.Handle(context.Background(), look); !rep.Duplicate {
		t.Fatalf("a duplicate board request: %q", rep.Text)
	}
}

func TestRights(t *testing.T) {
	h := newHarness(t)
	h.fails("alice", "challenge @alice", "can't challenge yourself")
	h.ok("alice", "challenge @bob")
	h.fails("carol", "accept #1", "is for")
	h.fails("alice", "accept #1", "your own challenge")
	h.fails("carol", "cancel #1", "Only")
	h.fails("carol", "cancel", "no pending")
	h.fails("bob", "cancel #1", "Only")
	h.ok("bob", "decline #1")
	h.fails("bob", "accept #1", "already declined")
	// An open challenge anyone may take; the game keeps its number.
	h.ok("alice", "challenge 9 white")
	rep := h.ok("carol", "accept")
	if !strings.Contains(rep.Text, "Game #2 begins") {
		t.Fatalf("open challenge: %s", rep.Text)
	}
	match, _ := h.game(2)
	if match.Black != "test:carol" || match.White != "test:alice" {
		t.Fatalf("colours: black %s white %s", match.Black, match.White)
	}
	// Room settings are for admins.
	h.fails("bob", "settings room size=13", "Only room admins")
	h.fails("bob", "abort #2", "Only room admins")
}

func TestBadChallengeOptions(t *testing.T) {
	h := newHarness(t)
	for line, want := range map[string]string{
		"challenge @bob 30":           "2 to 25 lines",
		"challenge @bob 1":            "2 to 25 lines",
		"challenge @bob komi=6.3":     "multiple of 0.5",
		"challenge @bob komi=x":       "not a number",
		"challenge @bob handicap=12":  "2 to 9",
		"challenge @bob clock=3x":     "clock",
		"challenge @bob fancyrules":   "I don't know the ruleset",
		"challenge @bob 5 handicap=3": "placement=free",
		"chalenge @bob":               "Did you mean",
	} {
		h.fails("alice", line, want)
	}
	var n int
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		cs, _ := tx.PendingChallenges("test:alice")
		n = len(cs)
		return nil
	})
	if n != 0 {
		t.Fatalf("bad challenges were stored: %d", n)
	}
}

func TestUndo(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "play D4")
	h.fails("bob", "undo no", "no undo request")
	h.fails("bob", "undo", "your own last move")
	h.ok("alice", "undo")
	h.fails("alice", "undo", "already asked")
	h.ok("bob", "undo no")
	_, g := h.game(1)
	if g.MoveCount() != 1 {
		t.Fatal("refused undo took the move back")
	}
	h.ok("alice", "undo")
	h.ok("bob", "undo")
	match, g := h.game(1)
	if g.MoveCount() != 0 || len(match.Undos) != 1 || match.Undos[0].By != "test:alice" {
		t.Fatalf("undo: moves %d, undos %+v", g.MoveCount(), match.Undos)
	}
	if g.ToMove() != game.Black {
		t.Fatal("after undo Black should move again")
	}
}

func TestScoringDisputeAndResume(t *testing.T) {
	h := newHarness(t)
	h.start("5")
	h.ok("alice", "play C3")
	h.ok("bob", "pass")
	h.ok("alice", "pass")
	h.ok("alice", "dead C3")
	_, g := h.game(1)
	if !g.IsDead(game.Pt(2, 2)) {
		t.Fatal("C3 not marked dead")
	}
	h.ok("bob", "done")
	h.ok("alice", "dead C3") // unmark: clears bob's acceptance
	_, g = h.game(1)
	if g.Accepted(game.White) {
		t.Fatal("toggling should clear acceptance")
	}
	h.ok("bob", "resume")
	_, g = h.game(1)
	if g.Phase() != game.Playing || g.ToMove() != game.White {
		t.Fatalf("after resume: phase %v, to move %v (Black passed last, so White moves)", g.Phase(), g.ToMove())
	}
}

func TestStaleButton(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	rep := h.ok("alice", "play D4")
	var pass string
	for _, a := range rep.Actions {
		if a.Label == "Pass" {
			pass = a.ID
		}
	}
	h.ok("bob", "play E5")
	r := protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", Action: pass}
	got := h.bot.Handle(context.Background(), r)
	if !got.Error || !strings.Contains(got.Text, "moved on") {
		t.Fatalf("stale button: %q", got.Text)
	}
	// The fresh button works.
	rep = h.ok("alice", "play F6")
	for _, a := range rep.Actions {
		if a.Label == "Pass" {
			pass = a.ID
		}
	}
	got = h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", Action: pass})
	if got.Error {
		t.Fatalf("fresh button: %s", got.Text)
	}
}

func TestTimeoutAndReminders(t *testing.T) {
	h := newHarness(t)
	h.start("9 clock=2d")
	h.ok("alice", "play D4")
	ctx := context.Background()
	h.clock.Advance(25 * time.Hour) // 23h left: the 24h reminder
	if err := h.bot.Tick(ctx); err != nil {
		t.Fatal(err)
	}
	h.bot.Tick(ctx) // not twice
	msgs := h.notes.all()
	if len(msgs) != 1 || !strings.Contains(msgs[0].Reply.Text, "your move") || msgs[0].Reply.Mentions[0] != "test:bob" {
		t.Fatalf("reminder: %+v", msgs)
	}
	h.clock.Advance(24 * time.Hour) // past the deadline
	h.bot.Tick(ctx)
	msgs = h.notes.all()
	last := msgs[len(msgs)-1]
	if !strings.Contains(last.Reply.Text, "ran out of time") {
		t.Fatalf("timeout message: %+v", last.Reply.Text)
	}
	match, _ := h.game(1)
	if match.Result != "B+T" || match.Active() {
		t.Fatalf("result %q", match.Result)
	}
}

func TestFischerClock(t *testing.T) {
	h := newHarness(t)
	h.start("9 clock=fischer:3d+1d/5d")
	match, _ := h.game(1)
	if got := match.Deadline.Sub(h.clock.Now()); got != 72*time.Hour {
		t.Fatalf("first deadline in %v", got)
	}
	h.clock.Advance(24 * time.Hour)
	h.ok("alice", "play D4") // 2d left + 1d = 3d for Black
	match, _ = h.game(1)
	if match.Left[game.Black] != 72*time.Hour {
		t.Fatalf("black bank %v", match.Left[game.Black])
	}
	h.ok("bob", "play E5") // 3d +1d = 4d for White
	h.ok("alice", "play F6")
	h.ok("bob", "play G7") // capped at 5d
	match, _ = h.game(1)
	if match.Left[game.White] != 5*24*time.Hour {
		t.Fatalf("white bank %v, want the 5d cap", match.Left[game.White])
	}
}

func TestGamesAndAmbiguity(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "challenge @carol 9 black")
	h.ok("carol", "accept")
	h.fails("alice", "play D4", "Which game")
	h.ok("alice", "play D4 #2")
	rep := h.ok("alice", "games")
	if !strings.Contains(rep.Text, "#1") || !strings.Contains(rep.Text, "#2") {
		t.Fatalf("games: %s", rep.Text)
	}
	h.fails("alice", "board #9", "no game #9")
}

func TestHelpAndRules(t *testing.T) {
	h := newHarness(t)
	rep := h.ok("alice", "help")
	for _, c := range h.bot.Commands() {
		if !strings.Contains(rep.Text, c.Name) {
			t.Errorf("help misses %s", c.Name)
		}
	}
	rep = h.ok("alice", "help play")
	if !strings.Contains(rep.Text, "play <point> [#game]") {
		t.Fatalf("help play: %s", rep.Text)
	}
	rep = h.ok("alice", "rules bga")
	if !strings.Contains(rep.Text, "prisoner") {
		t.Fatalf("rules bga: %s", rep.Text)
	}
	h.fails("alice", "rules nonsense", "I don't know the ruleset")
}

func TestSettings(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "settings notify=dm theme=dark")
	h.fails("alice", "settings notify=loud", "mention, dm or off")
	h.fails("alice", "settings confirm=sometimes", "touch (the web board asks to confirm a tap on a phone), always or never")
	h.ok("alice", "settings confirm=always")
	h.fails("alice", "settings colour=red", "no setting")
	r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true, Command: "settings", Args: []string{"room", "size=13", "rules=chinese", "clock=3d"}}
	if rep := h.bot.Handle(context.Background(), r); rep.Error {
		t.Fatal(rep.Text)
	}
	h.ok("bob", "challenge @alice black")
	h.ok("alice", "accept")
	match, g := h.game(1)
	if cfg := g.Config(); cfg.Width != 13 || cfg.Rules.Name != "chinese" || match.Clock.PerMove != 72*time.Hour {
		t.Fatalf("room defaults not used: %+v %+v", cfg, match.Clock)
	}
	// alice chose DM notifications: when it's her turn she gets a DM.
	h.ok("bob", "play D4")
	found := false
	for _, m := range h.notes.all() {
		if m.To == "test:alice" && strings.Contains(m.Reply.Text, "Your move") {
			found = true
		}
	}
	if !found {
		t.Fatal("no DM to alice")
	}
}

func TestStoreErrorsAreFriendly(t *testing.T) {
	h := newHarness(t)
	rep := h.bot.errorReply(errors.New("disk on fire"))
	if !rep.Error || strings.Contains(rep.Text, "disk") {
		t.Fatalf("internal errors must not leak: %q", rep.Text)
	}
}

// A marking survives being stored and read back: the automatic proposal is
// not added again when the game is loaded for the next command.
func TestMarksSurviveReload(t *testing.T) {
	h := newHarness(t)
	h.start("5")
	// White's lone stone in Black's area is proposed dead.
	for _, mv := range []struct{ who, line string }{
		{"alice", "play B2"}, {"bob", "play D4"}, {"alice", "play B4"}, {"bob", "play C2"}, {"alice", "play C3"},
	} {
		h.ok(mv.who, mv.line)
	}
	h.ok("bob", "pass")
	h.ok("alice", "pass")
	_, g := h.game(1)
	proposed := g.DeadStones()
	if len(proposed) == 0 {
		t.Fatal("the proposal should mark White C2 dead")
	}
	p := proposed[0].GTP(5)
	h.ok("bob", "dead "+p) // bob says it lives
	_, g = h.game(1)
	if g.IsDead(proposed[0]) {
		t.Fatalf("%s should be alive after bob's toggle", p)
	}
	h.ok("alice", "board") // another command loads the game again
	_, g = h.game(1)
	if g.IsDead(proposed[0]) {
		t.Fatalf("%s came back dead after a reload", p)
	}
}

func TestOldEventsExpire(t *testing.T) {
	h := newHarness(t)
	r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: "test:old", Command: "help"}
	h.bot.Handle(context.Background(), r)
	h.clock.Advance(8 * 24 * time.Hour) // past the default 7-day memory
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rep := h.bot.Handle(context.Background(), r); rep.Error {
		t.Fatalf("an event forgotten after a week is new again: %s", rep.Text)
	}
}

func TestNewLeavesCallersRemindersAlone(t *testing.T) {
	db, err := OpenTestDB(filepath.Join(t.TempDir(), "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mine := []time.Duration{time.Hour, 24 * time.Hour}
	b := New(Config{Reminders: mine}, db, nil, &fakeClock{}, nil)
	if mine[0] != time.Hour || mine[1] != 24*time.Hour {
		t.Errorf("New reordered the caller's reminders: %v", mine)
	}
	if got := b.cfg.Reminders; len(got) != 2 || got[0] != 24*time.Hour || got[1] != time.Hour {
		t.Errorf("bot's reminders = %v, want longest first [24h 1h]", got)
	}
}

// TestThreadPerGame: with threads on, accept asks for a thread; once the
// adapter reports it, the game's replies go there, and commands typed in
// the thread or in the parent room find the game.
func TestThreadPerGame(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	admin := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true, EventID: "test:threads-on",
		Command: "settings", Args: []string{"room", "threads=on"}}
	if rep := h.bot.Handle(ctx, admin); rep.Error {
		t.Fatalf("settings room threads=on: %s", rep.Text)
	}
	h.ok("alice", "challenge @bob black")
	rep := h.ok("bob", "accept")
	if !rep.Thread || rep.Game != 1 || rep.ThreadName == "" {
		t.Fatalf("accept with threads on: Thread=%v Game=%d ThreadName=%q, want a thread for game 1", rep.Thread, rep.Game, rep.ThreadName)
	}
	if err := h.bot.ThreadCreated(ctx, 1, "test:thread-1"); err != nil {
		t.Fatal(err)
	}
	match, _ := h.game(1)
	if match.Room != "test:thread-1" || !match.Thread || match.Parent != "test:main" {
		t.Fatalf("after ThreadCreated: Room=%q Thread=%v Parent=%q", match.Room, match.Thread, match.Parent)
	}
	in := func(room gobot.RoomID, user, line string) protocol.Reply {
		h.seq++
		f := strings.Fields(line)
		return h.bot.Handle(ctx, protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: room,
			EventID: gobot.EventID("test:thread-" + time.Duration(h.seq).String()), Command: f[0], Args: f[1:]})
	}
	if rep := in("test:thread-1", "alice", "play D4"); rep.Error {
		t.Fatalf("play in the thread: %s", rep.Text)
	}
	rep = in("test:main", "bob", "play E5") // typed in the parent room
	if rep.Error {
		t.Fatalf("play in the parent room: %s", rep.Text)
	}
	if rep.Room != "test:thread-1" {
		t.Errorf("reply to a move typed in the parent room goes to %q, want the thread", rep.Room)
	}
	if rep := in("test:elsewhere", "alice", "play C3"); !rep.Error {
		t.Errorf("a move typed in an unrelated room found the game: %s", rep.Text)
	}
	if _, g := h.game(1); g.MoveCount() != 2 {
		t.Errorf("moves = %d, want 2", g.MoveCount())
	}
}

// cancelOnTimeout records messages and ends the bot's Run once a game has
// ended on time.
type cancelOnTimeout struct {
	recordingNotifier
	cancel context.CancelFunc
}

func (n *cancelOnTimeout) Notify(ctx context.Context, m protocol.Message) error {
	n.recordingNotifier.Notify(ctx, m)
	if strings.Contains(m.Reply.Text, "ran out of time") {
		n.cancel()
	}
	return nil
}

// TestOverdueGameEndsAtStart: the deadline is stored; a bot started on the
// same database after the deadline passed (it was down meanwhile) ends the
// game on time as soon as it runs.
func TestOverdueGameEndsAtStart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "gobot.db")
	clock := &fakeClock{t: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)}
	db, err := OpenTestDB(path)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, db: db, clock: clock, notes: &recordingNotifier{}}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, db, pngRenderer{}, clock, nil)
	h.start("clock=1d")
	h.ok("alice", "play D4")
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	clock.Advance(3 * 24 * time.Hour) // the bot was down past bob's deadline
	db, err = OpenTestDB(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	notes := &cancelOnTimeout{cancel: cancel}
	bot := New(Config{Rules: "japanese", Width: 9, Height: 9, Tick: time.Hour}, db, pngRenderer{}, clock, nil)
	bot.SetNotifier("test", notes)
	if err := bot.Run(ctx); err != nil { // returns once the timeout is announced
		t.Fatal(err)
	}
	var match *gobot.Match
	if err := db.View(context.Background(), func(tx gobot.Tx) error {
		match, err = tx.Match(1)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if match.Result != "B+T" || match.Active() {
		t.Fatalf("after restart: result %q, active %v; want B+T, over", match.Result, match.Active())
	}
	msgs := notes.all()
	if len(msgs) == 0 || msgs[len(msgs)-1].Room != "test:main" {
		t.Fatalf("timeout message: %+v", msgs)
	}
}

// Accepting right after one's own challenge says whom it waits for,
// not that there is none.
func TestAcceptOwnChallenge(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "challenge @bob 9")
	h.fails("alice", "accept", "Your challenge #1 is waiting for <@test:bob> to accept it")
	h.ok("alice", "challenge 9")
	h.fails("alice", "decline", "is waiting for")
}

// A reminder says something new (issue 35): none in the first half of a
// turn's time (the move that began the turn pinged the player), none for
// a turn shorter than the reminder's lead, at most one per turn per lead.
// The default leads are 24 hours and an hour; the bot's clock ticks
// every step through each turn until it times out.
func TestRemindersSaySomethingNew(t *testing.T) {
	for _, tc := range []struct {
		clock string
		step  time.Duration
		want  []string // the time left each reminder of the turn says
	}{
		{"clock=1d", 10 * time.Minute, []string{"12h left", "1h left"}},
		{"clock=1m", time.Second, nil},
		{"clock=2d", 10 * time.Minute, []string{"1d left", "1h left"}},
		{"clock=90m", time.Minute, []string{"45m left"}},
		{"clock=3h", time.Minute, []string{"1h left"}},
		{"clock=fischer:30m+1m/1h", time.Minute, nil},
		{"clock=fischer:36h+1h/2d", 10 * time.Minute, []string{"18h left", "1h left"}},
	} {
		t.Run(tc.clock, func(t *testing.T) {
			h := newHarness(t)
			h.start("9 " + tc.clock)
			says := func() []string {
				var out []string
				for _, m := range h.notes.all() {
					if _, left, ok := strings.Cut(m.Reply.Text, "it's your move in game #1 — "); ok {
						out = append(out, strings.TrimSuffix(left, "."))
					}
				}
				return out
			}
			// Two turns: Black's from the start, White's after a move
			// played in the middle of Black's time.
			m, _ := h.game(1)
			for h.clock.Now().Add(tc.step).Before(m.Deadline.Add(-m.TurnTime / 2)) {
				h.tick(tc.step)
			}
			if got := says(); len(got) > 0 {
				t.Fatalf("reminded in the first half of the turn: %v", got)
			}
			h.ok("alice", "play D4")
			m, _ = h.game(1)
			for m.Active() {
				h.tick(tc.step)
				m, _ = h.game(1)
			}
			if got := says(); !slices.Equal(got, tc.want) {
				t.Fatalf("bob's reminders: %q, want %q", got, tc.want)
			}
			if m.Result != "B+T" {
				t.Fatalf("result %q, want B+T", m.Result)
			}
		})
	}
}
