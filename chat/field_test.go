package chat

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
	bolt "go.etcd.io/bbolt"
)

// Looking at a board never pings anyone, in any phase; only what happens
// in the game (turn notices, challenges, undo requests, results) does.
func TestBoardNeverPings(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	if rep := h.ok("carol", "board #1"); len(rep.Mentions) != 0 {
		t.Fatalf("board while playing pings %v", rep.Mentions)
	}
	h.ok("alice", "pass")
	if rep := h.ok("bob", "pass"); len(rep.Mentions) == 0 {
		t.Fatal("the start of scoring should notify the players")
	}
	for _, who := range []string{"carol", "alice"} {
		if rep := h.ok(who, "board #1"); len(rep.Mentions) != 0 {
			t.Fatalf("board in scoring (by %s) pings %v", who, rep.Mentions)
		}
	}
	h.ok("alice", "done")
	if rep := h.ok("bob", "done"); len(rep.Mentions) != 2 {
		t.Fatalf("the result should notify both players: %v", rep.Mentions)
	}
	for _, cmd := range []string{"board #1", "board", "show #1"} {
		if rep := h.ok("carol", cmd); len(rep.Mentions) != 0 {
			t.Fatalf("%s of a finished game pings %v", cmd, rep.Mentions)
		}
	}
}

// An open challenge in a direct message has nobody to take it: refused,
// with what to do instead, and nothing stored.
func TestOpenChallengeInDMRefused(t *testing.T) {
	h := newHarness(t)
	r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:dm-alice", DM: true, EventID: "test:dm1", Command: "challenge", Args: []string{"9"}}
	rep := h.bot.Handle(context.Background(), r)
	if !rep.Error || !strings.Contains(rep.Text, "direct conversation") || strings.Contains(rep.Text, "Anyone here") {
		t.Fatalf("open challenge in a DM: %+v", rep)
	}
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		if cs, _ := tx.PendingChallenges("test:alice"); len(cs) != 0 {
			t.Fatalf("a challenge was stored: %+v", cs[0])
		}
		return nil
	})
	// Naming the opponent works in a DM.
	r.EventID, r.Args = "test:dm2", []string{"@bob", "9"}
	if rep := h.bot.Handle(context.Background(), r); rep.Error {
		t.Fatalf("a named challenge in a DM: %s", rep.Text)
	}
}

// damageGame overwrites game id's record with bytes that are not JSON,
// as a flipped byte or a half-written page would leave it, and returns a
// bot over the reopened database.
func (h *harness) damageGame(id gobot.GameID, raw string) {
	h.t.Helper()
	h.damage("games", binary.BigEndian.AppendUint64(nil, uint64(id)), raw)
}

// damage overwrites the record at key in bucket with raw and reopens.
func (h *harness) damage(bucket string, key []byte, raw string) {
	h.t.Helper()
	path := h.db.Path()
	h.db.Close()
	bdb, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error {
		return tx.Bucket([]byte(bucket)).Put(key, []byte(raw))
	}); err != nil {
		h.t.Fatal(err)
	}
	bdb.Close()
	db, err := OpenTestDB(path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	h.db = db
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, db, pngRenderer{}, h.clock, nil)
}

// One damaged game record (not valid JSON) does not hide the others:
// `games` lists the readable ones and names the damaged one.
func TestGamesWithADamagedRecord(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	h.ok("alice", "challenge @carol 9 black")
	h.ok("carol", "accept")
	h.ok("alice", "challenge @dave 9 black")
	h.ok("dave", "accept")
	var ids []gobot.GameID
	h.db.View(context.Background(), func(tx gobot.Tx) error {
		gs, _ := tx.ActiveGames("test:alice")
		for _, g := range gs {
			ids = append(ids, g.ID)
		}
		return nil
	})
	if len(ids) != 3 {
		t.Fatalf("games: %v", ids)
	}
	h.damageGame(ids[1], `{"ID":`+fmt.Sprint(ids[1])+`,"Room":"te`)
	rep := h.ok("alice", "games")
	for _, want := range []string{fmt.Sprintf("#%d vs", ids[0]), fmt.Sprintf("#%d vs", ids[2]), fmt.Sprintf("#%d: I can't read", ids[1])} {
		if !strings.Contains(rep.Text, want) {
			t.Fatalf("games does not say %q:\n%s", want, rep.Text)
		}
	}
	// The only game damaged: still an answer naming it, not an error.
	rep = h.ok("carol", "games")
	if !strings.Contains(rep.Text, fmt.Sprintf("#%d: I can't read", ids[1])) {
		t.Fatalf("carol's games: %s", rep.Text)
	}
}

// No reply repeats more than a short prefix of what the user typed,
// whatever the command and wherever the long value goes.
func TestLongInputIsNotEchoed(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	long := strings.Repeat("x", 3000)
	lines := []string{"play " + long, "play D4 " + long, "play #" + long, "play I" + long, "pass " + long,
		"challenge @bob 9 clock=" + long, "challenge @bob " + long, "challenge @bob komi=" + long, "challenge @bob size=" + long,
		"challenge @bob 9 color=" + long, "challenge @bob " + long + "=1", "help " + long, "settings " + long, "settings notify=" + long,
		"settings " + long + "=1", "settings theme=" + long, "board #" + long, "accept #" + long, "undo " + long, "dead " + long,
		"rules " + long, long, "board " + long, "rules ko=" + long}
	for _, line := range lines {
		for _, who := range []string{"alice", "carol"} {
			rep := h.do(who, line)
			all := rep.Title + rep.Text
			for _, f := range rep.Fields {
				all += f.Value
			}
			if strings.Contains(all, strings.Repeat("x", protocol.MaxEcho+1)) || len(all) > 1000 {
				t.Errorf("%s: %.30q… got a %d-byte reply: %.200s", who, line, len(all), all)
			}
		}
	}
}

// "#n" names one thing: a game keeps its challenge's number, a new
// challenge's number is no game's, and old numbers keep working.
func TestOneNumberPerChallengeAndGame(t *testing.T) {
	h := newHarness(t)
	// A database from before: games numbered by their own counter.
	h.db.Update(context.Background(), func(tx gobot.Tx) error {
		for range 3 {
			g := &gobot.Match{Room: "test:main", Black: "test:old1", White: "test:old2", Record: mustNewRecord(t)}
			if err := tx.PutMatch(g); err != nil {
				return err
			}
		}
		return tx.PutChallenge(&gobot.Challenge{Room: "test:main", From: "test:old1", To: "test:old2"})
	})
	if rep := h.ok("alice", "challenge @bob 9 black"); !strings.Contains(rep.Title, "Challenge #4") {
		t.Fatalf("the new challenge should skip the old games' numbers: %s", rep.Title)
	}
	// Only whom it may concern is told to accept it.
	if rep := h.fails("carol", "board #4", "#4 is a challenge to <@test:bob>, not a game yet"); strings.Contains(rep.Text, "accept") {
		t.Fatalf("carol is told to accept bob's challenge: %s", rep.Text)
	}
	h.fails("bob", "board #4", "#4 is a challenge that nobody has accepted yet, not a game: <cmd:accept #4:cmd> takes it")
	h.fails("alice", "play C3 #4", "#4 is your challenge, not a game yet")
	if rep := h.ok("bob", "accept #4"); !strings.Contains(rep.Text, "Game #4 begins") {
		t.Fatalf("the game should keep its challenge's number: %s", rep.Text)
	}
	h.ok("alice", "challenge @carol 9")
	h.ok("carol", "decline")
	if rep := h.ok("alice", "challenge @dave 9 black"); !strings.Contains(rep.Title, "Challenge #6") {
		t.Fatalf("next challenge: %s", rep.Title)
	}
	if rep := h.ok("dave", "accept"); !strings.Contains(rep.Text, "Game #6 begins") {
		t.Fatalf("game from challenge #6: %s", rep.Text)
	}
	// Old numbers still work where they did: game #2, challenge #1.
	if rep := h.ok("carol", "board #2"); rep.Game != 2 {
		t.Fatalf("old game #2: %+v", rep)
	}
	if rep := h.ok("old2", "decline #1"); !strings.Contains(rep.Text, "declined challenge #1") {
		t.Fatalf("old challenge #1: %s", rep.Text)
	}
	// A game added without a challenge takes a fresh number, and the next
	// challenge skips it.
	h.db.Update(context.Background(), func(tx gobot.Tx) error {
		g := &gobot.Match{Room: "test:main", Black: "test:x", White: "test:y", Record: mustNewRecord(t)}
		if err := tx.PutMatch(g); err != nil || g.ID != 7 {
			t.Errorf("game without challenge: #%d, %v", g.ID, err)
		}
		return nil
	})
	if rep := h.ok("alice", "challenge @erin 9"); !strings.Contains(rep.Title, "Challenge #8") {
		t.Fatalf("after a game without challenge: %s", rep.Title)
	}
}

func mustNewRecord(t *testing.T) game.Record {
	rules, _ := game.Preset("japanese")
	g, err := game.New(game.Config{Width: 9, Height: 9, Rules: rules})
	if err != nil {
		t.Fatal(err)
	}
	return g.Record()
}

// reopen simulates a restart: the database closed and opened again, a
// new bot over it.
func (h *harness) reopen() {
	h.t.Helper()
	path := h.db.Path()
	h.db.Close()
	db, err := OpenTestDB(path)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	h.db = db
	h.bot = New(Config{Rules: "japanese", Width: 9, Height: 9}, db, pngRenderer{}, h.clock, nil)
	h.bot.SetNotifier("test", h.notes)
}

// The bot stops (is killed) after a move is committed and before its
// announcement is sent; the platform hands the event over again after
// the restart: it gets the announcement it should have had, once, and
// the move is not played twice. A repeat after delivery is dropped.
func TestCrashBetweenCommitAndSend(t *testing.T) {
	h := newHarness(t)
	h.start("9")
	play := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: "test:$move1", Command: "play", Args: []string{"D4"}, Outbox: true}
	first := h.bot.Handle(context.Background(), play)
	if first.Error || first.Image == nil || !strings.Contains(first.Text, "alice> played D4") {
		t.Fatalf("the move: %+v", first.Text)
	}
	h.reopen() // killed before sending
	again := h.bot.Handle(context.Background(), play)
	if again.Error || again.Duplicate || again.Text != first.Text || again.Image == nil || !bytes.Equal(again.Image.Data, first.Image.Data) ||
		len(again.Mentions) != 1 || again.Mentions[0] != "test:bob" {
		t.Fatalf("after the restart the event got %+v, want the announcement %q", again, first.Text)
	}
	if _, g := h.game(1); g.MoveCount() != 1 {
		t.Fatalf("%d moves, want 1", g.MoveCount())
	}
	if err := h.bot.Delivered(context.Background(), play.EventID); err != nil {
		t.Fatal(err)
	}
	if rep := h.bot.Handle(context.Background(), play); !rep.Duplicate {
		t.Fatalf("after delivery a repeat should be dropped: %+v", rep)
	}
	// A mistake stores nothing: handed over again, it is answered again.
	bad := protocol.Request{User: protocol.User{ID: "test:bob", Name: "bob"}, Room: "test:main", EventID: "test:$bad", Command: "play", Args: []string{"D4"}, Outbox: true}
	for range 2 {
		if rep := h.bot.Handle(context.Background(), bad); !rep.Error || rep.Duplicate || !strings.Contains(rep.Text, "occupied") {
			t.Fatalf("a bad move: %+v", rep)
		}
	}
	// Views and challenges are owed the same way.
	look := protocol.Request{User: protocol.User{ID: "test:carol", Name: "carol"}, Room: "test:main", EventID: "test:$look", Command: "board", Outbox: true}
	l1 := h.bot.Handle(context.Background(), look)
	l2 := h.bot.Handle(context.Background(), look)
	if l1.Error || l2.Duplicate || l1.Text != l2.Text {
		t.Fatalf("board handed over again: %+v", l2)
	}
}

// A damaged player record is neither overwritten (it holds the player's
// settings, for the operator to repair) nor in the way of a challenge.
func TestDamagedPlayerKept(t *testing.T) {
	h := newHarness(t)
	h.ok("alice", "settings theme=dark")
	h.damage("players", []byte("test:alice"), "{not json")
	h.bot.SetNotifier("test", h.notes)
	h.ok("alice", "challenge @bob 9")
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		_, err := tx.Player("test:alice")
		return err
	}); !errors.Is(err, gobot.ErrCorrupt) {
		t.Fatalf("alice's damaged record after a challenge: %v, want it left as it was", err)
	}
}
