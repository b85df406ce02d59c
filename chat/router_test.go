package chat

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// onceCases are, for every command, a scenario in which it succeeds:
// lines that set it up, then the command itself (user: line).
var onceCases = map[string]struct{ setup, line string }{
	"challenge":   {"", "alice: challenge @bob 9"},
	"accept":      {"alice: challenge @bob 9", "bob: accept #1"},
	"decline":     {"alice: challenge @bob 9", "bob: decline #1"},
	"cancel":      {"alice: challenge @bob 9", "alice: cancel #1"},
	"play":        {"start", "alice: play D4"},
	"pass":        {"start", "alice: pass"},
	"resign":      {"start", "bob: resign"},
	"undo":        {"start; alice: play D4", "alice: undo"},
	"board":       {"start", "carol: board #1"},
	"games":       {"start", "alice: games"},
	"sgf":         {"start; alice: play D4", "carol: sgf #1"},
	"replay":      {"start; alice: play D4", "carol: replay #1"},
	"dead":        {"start; alice: play D4; bob: pass; alice: pass", "bob: dead D4"},
	"done":        {"start; alice: pass; bob: pass", "alice: done"},
	"resume":      {"start; alice: pass; bob: pass", "alice: resume"},
	"pause":       {"alice: challenge @bob clock=byoyomi:5m+3x30s black 9; bob: accept; alice: pause", "bob: pause"},
	"rating":      {"", "alice: rating"},
	"top":         {"", "alice: top"},
	"engines":     {"", "alice: engines"},
	"rules":       {"", "alice: rules chinese"},
	"settings":    {"", "alice: settings theme=dark"},
	"account":     {"", "alice: account link"},
	"abort":       {"start", "alice: abort #1"},
	"help":        {"", "alice: help play"},
	"web":         {"start", "carol: web reset #1"},
	"review":      {"", "carol: review 9"},
	"reviews":     {"carol: review 9", "dave: reviews"},
	"tournament":  {"carol: tournament new \"Cup\" swiss rounds=2", "dave: tournament join"},
	"tournaments": {"carol: tournament new \"Cup\" swiss rounds=2", "dave: tournaments"},
	"ladder":      {"carol: ladder new \"Ladder\" challenge=2", "dave: ladder join"},
	"ladders":     {"carol: ladder new \"Ladder\" challenge=2", "dave: ladders"},
	"vacation":    {"start", "alice: vacation on"},
	"vote":        {"alice: challenge @bob vote=1h black 9; bob: accept", "carol: vote D4"},
	"plan":        {"start; alice: play D4", "alice: plan C3 C4"},
	"plans":       {"start; alice: play D4; alice: plan C3 C4", "alice: plans"},
	"rengo":       {"", "alice: rengo @alice @bob vs @carol @dave 9"},
}

// run plays a scenario's lines ("start" is h.start).
func (h *harness) run(lines string) {
	h.t.Helper()
	for _, l := range strings.Split(lines, ";") {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if l == "start" {
			h.start("9")
			continue
		}
		user, line, _ := strings.Cut(l, ":")
		h.ok(user, strings.TrimSpace(line))
	}
}

// request is the Request h.do would send for "user: line".
func (h *harness) request(l string, id gobot.EventID) protocol.Request {
	user, line, _ := strings.Cut(l, ":")
	f := strings.Fields(line)
	return protocol.Request{User: protocol.User{ID: gobot.UserID("test:" + user), Name: user}, Room: "test:main", EventID: id,
		Command: f[0], Args: f[1:], Admin: h.admins[user], Platform: privateTest}
}

// Every command is applied once per event, whatever its handler does:
// the router marks the event in the transaction it hands the handler.
// A command added without a case here fails the test.
func TestEveryCommandOncePerEvent(t *testing.T) {
	for _, c := range commands() {
		tc, ok := onceCases[c.Name]
		if !ok {
			t.Errorf("command %s has no case in onceCases", c.Name)
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			h := newHarness(t)
			h.admins = map[string]bool{"alice": true}
			h.run(tc.setup)
			req := h.request(tc.line, "test:once")
			before := h.dump()
			first := h.bot.Handle(context.Background(), req)
			if first.Error || first.Duplicate {
				t.Fatalf("%s: %s", tc.line, first.Text)
			}
			if c.view != (h.dump() == before) {
				t.Fatalf("%s: view=%v but the store changed=%v", tc.line, c.view, h.dump() != before)
			}
			if !h.eventMarked(req.EventID) {
				t.Fatalf("%s: the event is not marked handled", tc.line)
			}
			after := h.dump()
			again := h.bot.Handle(context.Background(), req)
			if !again.Duplicate {
				t.Fatalf("%s handed over again: %+v, want a Duplicate", tc.line, again.Text)
			}
			if h.dump() != after {
				t.Fatalf("%s handed over again changed the store", tc.line)
			}
		})
	}
}

// txWatch is a store that counts the transactions open at each moment.
type txWatch struct {
	gobot.Store

	open atomic.Int32
}

func (w *txWatch) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	return w.Store.Update(ctx, func(tx gobot.Tx) error {
		w.open.Add(1)
		defer w.open.Add(-1)
		return fn(tx)
	})
}

func (w *txWatch) View(ctx context.Context, fn func(gobot.Tx) error) error {
	return w.Store.View(ctx, func(tx gobot.Tx) error {
		w.open.Add(1)
		defer w.open.Add(-1)
		return fn(tx)
	})
}

// watchingRenderer draws tiny PNGs and records every draw made while a
// transaction was open.
type watchingRenderer struct {
	w      *txWatch
	mu     sync.Mutex
	draws  int
	inside []string
}

func (r *watchingRenderer) note(what string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.draws++
	if r.w.open.Load() != 0 {
		r.inside = append(r.inside, what)
	}
}

func (r *watchingRenderer) Board(w io.Writer, g *game.Game, theme string, numbers int) (int, int, error) {
	r.note("board")
	return writeTinyPNG(w, g)
}

func (r *watchingRenderer) Replay(w io.Writer, g *game.Game, theme string) (int, int, error) {
	r.note("replay")
	return writeTinyPNG(w, g)
}

// Boards and replays are drawn after the transaction that built the
// reply has ended, for commands, DMs, timeouts and reminders alike, so a
// slow draw never holds the store's write lock.
func TestDrawnOutsideTransactions(t *testing.T) {
	h := newHarness(t)
	w := &txWatch{Store: h.db}
	rend := &watchingRenderer{w: w}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9, Clock: "1d", Reminders: []time.Duration{time.Hour}}, w, rend, h.clock, nil)
	h.bot.SetNotifier("test", h.notes)
	h.start("9")
	h.ok("bob", "settings notify=dm")
	rep := h.ok("alice", "play D4") // the reply and bob's DM
	if rep.Image == nil {
		t.Fatal("the move's reply has no board")
	}
	if n := len(h.notes.all()); n != 1 || h.notes.all()[0].Reply.Image == nil {
		t.Fatalf("bob's DM: %d messages, want 1 with the board", n)
	}
	if rep := h.ok("carol", "board"); rep.Image == nil {
		t.Fatal("board has no image")
	}
	if rep := h.ok("carol", "replay #1"); rep.Image == nil || rep.Image.MIME != "image/gif" && rep.Image.MIME != "image/png" {
		t.Fatalf("replay image: %+v", rep.Image)
	}
	h.clock.Advance(23*time.Hour + time.Minute) // bob's reminder
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(2 * time.Hour) // bob's timeout
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	msgs := h.notes.all()
	if last := msgs[len(msgs)-1]; !strings.Contains(last.Reply.Text, "ran out of time") || last.Reply.Image == nil {
		t.Fatalf("the timeout message: %q, image %v", last.Reply.Text, last.Reply.Image != nil)
	}
	if rend.draws < 5 {
		t.Fatalf("%d draws, want at least 5", rend.draws)
	}
	if len(rend.inside) > 0 {
		t.Fatalf("drawn inside a transaction: %v", rend.inside)
	}
	// A reply the outbox keeps is stored whole, image included: that one
	// is drawn inside its transaction, on purpose.
	h.ok("alice", "challenge @bob black 9")
	h.ok("bob", "accept")
	owed := h.request("alice: play E5", "test:$owed")
	owed.Outbox = true
	if rep := h.bot.Handle(context.Background(), owed); rep.Error || rep.Image == nil {
		t.Fatalf("owed reply: %q", rep.Text)
	}
}

// A handler returns its effects as data: a DM to the player to move is
// carried out only when the adapter calls then, after the commit and its
// own answer, never from inside the handler.
func TestEffectsCarriedOutAfterAnswer(t *testing.T) {
	h := newHarness(t)
	h.ok("bob", "settings notify=dm")
	h.start("9")
	before := len(h.notes.all())
	rep, then := h.bot.Respond(context.Background(), h.request("alice: play E5", "test:$fx"))
	if rep.Error {
		t.Fatalf("play: %s", rep.Text)
	}
	if n := len(h.notes.all()); n != before {
		t.Fatalf("%d notices sent before then was called", n-before)
	}
	then(context.Background())
	notes := h.notes.all()
	if len(notes) != before+1 || notes[len(notes)-1].To != "test:bob" {
		t.Fatalf("after then: %d notices (want %d), %+v", len(notes), before+1, notes)
	}
}

// A button's game version is checked in the command's own transaction.
func TestStaleButtonRefused(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	rep := h.ok("alice", "play D4")
	var pass string
	for _, a := range rep.Actions {
		if strings.HasPrefix(a.ID, "pass|") {
			pass = a.ID
		}
	}
	h.ok("bob", "play E5")
	before := h.dump()
	stale := h.bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", EventID: "test:btn", Action: pass})
	if !stale.Error || !strings.Contains(stale.Text, "moved on") || h.dump() != before || h.eventMarked("test:btn") {
		t.Fatalf("a stale button: %q", stale.Text)
	}
}

// "Which game?" and "Which challenge?" name a few choices and count the
// rest, however many there are.
func TestWhichOneBounded(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 12; i++ {
		h.ok("alice", "challenge @bob 9 black")
	}
	rep := h.fails("bob", "accept", "Which challenge?")
	if !strings.Contains(rep.Text, "and 7 more") || strings.Count(rep.Text, "#") > 6 {
		t.Fatalf("which challenge: %s", rep.Text)
	}
	for i := 1; i <= 12; i++ {
		h.ok("bob", "accept #"+strconv.Itoa(i))
	}
	rep = h.fails("alice", "play D4", "Which game?")
	if !strings.Contains(rep.Text, "and 7 more") || strings.Count(rep.Text, "#") > 6 {
		t.Fatalf("which game: %s", rep.Text)
	}
}

// passEngine is an engine for chat's tests: it passes, finds no dead
// stones, accepts any count, and can be made to refuse every game.
type passEngine struct {
	mu      sync.Mutex
	refuse  error
	checked []game.Config
}

func (e *passEngine) List() []EngineInfo { return []EngineInfo{{Name: "passer", Levels: []int{1, 2}}} }

func (e *passEngine) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.checked = append(e.checked, cfg)
	return e.refuse
}

func (e *passEngine) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (EngineMove, error) {
	g, err := game.Replay(rec)
	if err != nil {
		return EngineMove{}, err
	}
	return EngineMove{Moves: []game.Move{{Color: g.ToMove(), Point: game.Pass}}}, nil
}

func (e *passEngine) Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error) {
	return nil, nil
}

func (e *passEngine) Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error) {
	return true, nil
}

// A challenge to an engine handed over again (the outbox) gets its stored
// reply even when the engine would now refuse: the prepare step's answer
// counts only for a new event. Once delivered, a repeat is a Duplicate.
func TestEngineChallengeHandedOverAgain(t *testing.T) {
	h := newHarness(t)
	eng := &passEngine{}
	h.bot.SetEngines(eng, "", "")
	defer h.bot.StopEngines()
	req := h.request("alice: challenge engine=passer level=1 9", "test:$engine")
	req.Outbox = true
	first := h.bot.Handle(context.Background(), req)
	if first.Error || !strings.Contains(first.Text, "begins") {
		t.Fatalf("first: %s", first.Text)
	}
	h.bot.WaitEngines()
	eng.mu.Lock()
	eng.refuse = errors.New("not installed")
	eng.mu.Unlock()
	if again := h.bot.Handle(context.Background(), req); again.Error || again.Text != first.Text {
		t.Fatalf("handed over again: %q, want the stored reply %q", again.Text, first.Text)
	}
	if err := h.bot.Delivered(context.Background(), req.EventID); err != nil {
		t.Fatal(err)
	}
	if rep := h.bot.Handle(context.Background(), req); !rep.Duplicate {
		t.Fatalf("after delivery: %q, want a Duplicate", rep.Text)
	}
	// A new event is refused with the engine's reason, and changes nothing.
	before := h.dump()
	fresh := h.request("alice: challenge engine=passer level=1 9", "test:$engine2")
	if rep := h.bot.Handle(context.Background(), fresh); !rep.Error || !strings.Contains(rep.Text, "not installed") || h.dump() != before || h.eventMarked(fresh.EventID) {
		t.Fatalf("a refused engine challenge: %q", rep.Text)
	}
}

// racingEngine changes the room's board size while it is asked, as an
// admin could while an engine starts.
type racingEngine struct {
	passEngine
	db gobot.Store
}

func (e *racingEngine) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	e.db.Update(ctx, func(tx gobot.Tx) error { return tx.PutRoom(&gobot.Room{ID: "test:main", Width: 19, Height: 19}) })
	return e.passEngine.Check(ctx, name, cfg, level)
}

// The game started against an engine is the one the engine was asked
// about, whatever changed in the room meanwhile.
func TestEngineGameIsTheOneChecked(t *testing.T) {
	h := newHarness(t)
	eng := &racingEngine{db: h.db}
	h.bot.SetEngines(eng, "", "")
	defer h.bot.StopEngines()
	h.ok("alice", "challenge engine=passer black")
	h.bot.WaitEngines()
	_, g := h.game(1)
	if len(eng.checked) != 1 || g.Config().Width != eng.checked[0].Width {
		t.Fatalf("checked %d games (first %dx%d), started %dx%d", len(eng.checked), eng.checked[0].Width, eng.checked[0].Height, g.Config().Width, g.Config().Height)
	}
}

// twiceStore runs every write transaction twice, the first run rolled
// back, as PostgreSQL does after a serialization conflict.
type twiceStore struct{ gobot.Store }

var errRollback = errors.New("rolled back to run again")

func (s twiceStore) Update(ctx context.Context, fn func(gobot.Tx) error) error {
	err := s.Store.Update(ctx, func(tx gobot.Tx) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errRollback
	})
	if !errors.Is(err, errRollback) {
		return err
	}
	return s.Store.Update(ctx, fn)
}

// A transaction run again sends its messages once: DMs, reminders,
// timeouts and engine moves queued by a thrown-away run are dropped.
func TestRerunSendsOnce(t *testing.T) {
	h := newHarness(t)
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9, Clock: "1d", Reminders: []time.Duration{time.Hour}}, twiceStore{h.db}, pngRenderer{}, h.clock, nil)
	h.bot.SetNotifier("test", h.notes)
	h.start("9")
	h.ok("bob", "settings notify=dm")
	h.ok("alice", "play D4")
	if n := len(h.notes.all()); n != 1 {
		t.Fatalf("%d DMs, want 1", n)
	}
	h.clock.Advance(23*time.Hour + time.Minute)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(2 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(h.notes.all()); n != 3 {
		t.Fatalf("%d messages (DM, reminder, timeout), want 3", n)
	}
	eng := &passEngine{}
	h.bot.SetEngines(eng, "", "")
	defer h.bot.StopEngines()
	h.ok("alice", "challenge engine=passer level=1 9 black")
	h.ok("alice", "play E5")
	h.bot.WaitEngines()
	id := gobot.GameID(0)
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		gs, _ := tx.ActiveGames("test:alice")
		if len(gs) == 1 {
			id = gs[0].ID
		}
		return nil
	})
	if _, g := h.game(id); g.MoveCount() != 2 {
		t.Fatalf("engine game: %d moves, want E5 and one engine pass", g.MoveCount())
	}
}

// With several games here, a scoring command takes the one game being
// scored, a move the one game at the caller's turn, and "Which game?"
// names first the games the command fits.
func TestWhichGameFits(t *testing.T) {
	h := newHarness(t)
	h.start("9") // #1: alice (Black) to move
	h.ok("alice", "challenge @carol 9 white")
	h.ok("carol", "accept") // #2: carol (Black) to move
	h.ok("alice", "pass #1")
	h.ok("bob", "pass #1") // #1 is being scored
	if rep := h.ok("alice", "done"); !strings.Contains(rep.Title, "#1") {
		t.Fatalf("done went to %q", rep.Title)
	}
	h.ok("carol", "play D4 #2") // now alice's turn in #2
	// A move goes to the one game at her turn (issue 43).
	if rep := h.ok("alice", "play E5"); !strings.Contains(rep.Title, "#2") {
		t.Fatalf("play went to %q", rep.Title)
	}
	h.ok("carol", "play D5 #2")
	rep := h.fails("alice", "resign", "Which game?") // not bound to a turn
	if !strings.Contains(rep.Text, "resign #2") || strings.Index(rep.Text, "#2") > strings.Index(rep.Text, "#1") {
		t.Fatalf("the hint should name #2 first: %s", rep.Text)
	}
}

// help shows every command's whole synopsis, and cancel names the
// caller's challenges by whom they are for.
func TestHelpWholeAndCancelWording(t *testing.T) {
	h := newHarness(t)
	if rep := h.ok("alice", "help"); !strings.Contains(rep.Text, "[placement] [engine] [level]") {
		t.Fatalf("help clips the challenge synopsis: %s", rep.Text)
	}
	h.ok("alice", "challenge @bob 9")
	h.ok("alice", "challenge 9")
	rep := h.fails("alice", "cancel", "Which challenge?")
	if !strings.Contains(rep.Text, "#1 to <@test:bob>") || !strings.Contains(rep.Text, "#2 (open to anyone)") {
		t.Fatalf("cancel: %s", rep.Text)
	}
}

// settings with nothing to set only shows: no write, and its event is
// handled once like a view's.
func TestSettingsShowOnlyLooks(t *testing.T) {
	h := newHarness(t)
	views := &viewCounter{Store: h.db}
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, views, pngRenderer{}, h.clock, nil)
	for _, line := range []string{"settings", "settings room"} {
		views.n.Store(0)
		req := h.request("alice: "+line, gobot.EventID("test:"+line))
		before := h.dump()
		if rep := h.bot.Handle(context.Background(), req); rep.Error || !strings.Contains(rep.Text, "notify=") {
			t.Fatalf("%s: %s", line, rep.Text)
		}
		if h.dump() != before || views.n.Load() != 1 {
			t.Fatalf("%s changed the store, or ran in no read transaction (%d)", line, views.n.Load())
		}
		if rep := h.bot.Handle(context.Background(), req); !rep.Duplicate {
			t.Fatalf("%s again: %q", line, rep.Text)
		}
	}
}

// viewCounter counts read transactions.
type viewCounter struct {
	gobot.Store

	n atomic.Int32
}

func (v *viewCounter) View(ctx context.Context, fn func(gobot.Tx) error) error {
	v.n.Add(1)
	return v.Store.View(ctx, fn)
}
