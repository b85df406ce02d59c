package matrix

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// crashChild is the environment variable that makes this test binary a
// bot process that a test kills or that dies by itself; crashChild+"_AT"
// says where it dies (crashAt*), or nowhere: the parent SIGKILLs it.
const crashChild = "GOBOT_TEST_CRASH_CHILD"

const (
	crashAtCommit = "commit" // a move committed, its announcement not sent
	crashAtSent   = "sent"   // the announcement sent, not yet recorded as delivered
)

// runCrashChild runs the bot on the database and homeserver the parent
// names. It exits with 137 (as a SIGKILL would) at the point
// crashChild+"_AT" names, after a move; with no such point it runs until
// it is killed. It prints "ready" once logged in.
func runCrashChild() {
	die := func(rep protocol.Reply) {
		if strings.Contains(rep.Text, " played ") {
			os.Exit(137) // no deferred calls, nothing more written or sent
		}
	}
	switch os.Getenv(crashChild + "_AT") {
	case crashAtCommit:
		afterHandle = die
	case crashAtSent:
		afterDeliver = die
	}
	dbPath := os.Getenv(crashChild + "_DB")
	db, err := storage.Open(dbPath, storage.Options{})
	if err != nil {
		os.Exit(3)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	bot := chat.New(chat.Config{}, db, &render.Renderer{}, nil, log)
	a, err := New(Config{Homeserver: os.Getenv(crashChild + "_HS"), UserID: os.Getenv(crashChild + "_USER"), Password: "password-gobot",
		AllowServers: []string{"localhost"}, Encryption: os.Getenv(crashChild+"_ENC") == "1",
		CryptoStore: filepath.Join(filepath.Dir(dbPath), "gobot-crypto.db")}, bot, gobot.StoreState(db), log)
	if err != nil {
		os.Exit(4)
	}
	a.retryBase = 50 * time.Millisecond
	bot.SetNotifier(Platform, a)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go func() {
		select {
		case <-a.ready:
			fmt.Println("ready")
		case <-ctx.Done():
		}
	}()
	a.Run(ctx)
	os.Exit(0) // never crashed nor killed: the parent fails
}

// crashRig is a homeserver with ann and bob playing game #1 in a room
// (or two rooms, one of them encrypted) with the bot, whose database the
// test's bot processes share one after another.
type crashRig struct {
	t        *testing.T
	ctx      context.Context
	hs       string
	botID    id.UserID
	ann, bob *human
	dbPath   string
	enc      bool // the bot runs with encryption
	logs     *logBuffer
}

// newCrashRig starts Dendrite, the humans and the bot, and begins a game
// in each of the rooms, plain and encrypted as asked (an encrypted room
// needs the goolm build).
func newCrashRig(t *testing.T, encrypted ...bool) (*crashRig, []id.RoomID) {
	t.Helper()
	enc := false
	for _, e := range encrypted {
		enc = enc || e
	}
	ctx := waitCtx(t)
	hs := startDendrite(t, "@ann:localhost", "@bob:localhost", "@gobot:localhost")
	botID := register(t, ctx, hs, "gobot").UserID
	r := &crashRig{t: t, ctx: ctx, hs: hs, botID: botID, ann: newHuman(t, ctx, hs, "ann", botID, enc),
		bob: newHuman(t, ctx, hs, "bob", botID, enc), dbPath: filepath.Join(t.TempDir(), "gobot.db"), enc: enc, logs: &logBuffer{}}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", r.logs)
		}
	})
	var rooms []id.RoomID
	for _, e := range encrypted {
		create := &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "crash club"}
		if e {
			create.InitialState = []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
				Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
		}
		cr, err := r.ann.cli.CreateRoom(ctx, create)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := r.bob.cli.JoinRoomByID(ctx, cr.RoomID); err != nil {
			t.Fatal(err)
		}
		waitJoined(t, ctx, cr.RoomID, r.bob.cli.UserID, r.ann.cli, r.bob.cli)
		rooms = append(rooms, cr.RoomID)
	}
	// The games begin with the bot running normally.
	bot := startBot(t, ctx, r.config(), r.dbPath, 50, r.logs)
	for _, room := range rooms {
		if _, err := r.ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
			t.Fatal(err)
		}
		waitJoined(t, ctx, room, botID, r.ann.cli, r.bob.cli)
		r.ann.replyTo(t, ctx, r.ann.say(t, ctx, room, "!go challenge {bob} 9 black", r.bob.cli))
		c, i := r.ann.replyTo(t, ctx, r.bob.say(t, ctx, room, "!go accept"))
		if !strings.Contains(c.Body, "begins") {
			t.Fatalf("accept: %s", c.Body)
		}
		r.ann.wait(t, ctx, i, "the board image", func(e *event.Event) bool {
			return e.RoomID == room && e.Content.AsMessage().MsgType == event.MsgImage
		})
	}
	bot.stop()
	return r, rooms
}

func (r *crashRig) config() Config {
	return Config{Homeserver: r.hs, UserID: string(r.botID), Password: "password-gobot", AllowServers: []string{"localhost"}, Encryption: r.enc}
}

// child starts a bot process that dies at the point at names ("" for
// none) and, when it is to be killed, waits until it has logged in.
func (r *crashRig) child(at string) *exec.Cmd {
	r.t.Helper()
	c := exec.CommandContext(r.ctx, os.Args[0], "-test.run=^"+r.t.Name()+"$")
	enc := "0"
	if r.enc {
		enc = "1"
	}
	c.Env = append(os.Environ(), crashChild+"=1", crashChild+"_AT="+at, crashChild+"_DB="+r.dbPath, crashChild+"_HS="+r.hs,
		crashChild+"_USER="+string(r.botID), crashChild+"_ENC="+enc)
	c.Stderr = r.logs
	out, err := c.StdoutPipe()
	if err != nil {
		r.t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		r.t.Fatal(err)
	}
	ready := make(chan bool, 1)
	go func() {
		s := bufio.NewScanner(out)
		ok := false
		for s.Scan() {
			if s.Text() == "ready" && !ok {
				ok = true
				ready <- true
			}
		}
		if !ok {
			ready <- false
		}
	}()
	if at == "" && !<-ready {
		err := c.Wait()
		r.t.Fatalf("the bot process ended before it logged in: %v", err)
	}
	return c
}

// images returns the bot's distinct m.image events in room from index
// from of what ann saw.
func (r *crashRig) images(room id.RoomID, from int) int {
	r.ann.mu.Lock()
	defer r.ann.mu.Unlock()
	ids := map[id.EventID]bool{}
	for _, e := range r.ann.got[from:] {
		if e.RoomID == room && e.Content.AsMessage().MsgType == event.MsgImage {
			ids[e.ID] = true
		}
	}
	return len(ids)
}

func (r *crashRig) seen() int {
	r.ann.mu.Lock()
	defer r.ann.mu.Unlock()
	return len(r.ann.got)
}

// checkOnce waits for the answer to move in room and, after a board
// asked for next, checks that the move was announced once, with one
// board image, since index from of what ann saw.
func (r *crashRig) checkOnce(room id.RoomID, move id.EventID, from int, want string) {
	r.t.Helper()
	c, _ := r.ann.replyTo(r.t, r.ctx, move)
	if !strings.Contains(c.Body, want) || strings.Contains(c.Body, "already handled") {
		r.t.Fatalf("the announcement after the restart: %s", c.Body)
	}
	look := r.bob.say(r.t, r.ctx, room, "!go board")
	_, i := r.ann.replyTo(r.t, r.ctx, look)
	r.ann.wait(r.t, r.ctx, i, "the board image", func(e *event.Event) bool {
		return e.RoomID == room && e.Content.AsMessage().MsgType == event.MsgImage
	})
	if n := r.ann.answers(move); n != 1 {
		r.t.Fatalf("the move was announced %d times, want once", n)
	}
	if n := r.images(room, from); n != 2 {
		r.t.Fatalf("%d board images for the move and the board command, want 2", n)
	}
}

// storedMoves checks how many moves the store holds for each game.
func (r *crashRig) storedMoves(want ...int) {
	r.t.Helper()
	db, err := storage.Open(r.dbPath, storage.Options{})
	if err != nil {
		r.t.Fatal(err)
	}
	defer db.Close()
	db.View(context.Background(), func(tx gobot.Tx) error {
		for i, n := range want {
			match, err := tx.Match(gobot.GameID(i + 1))
			if err != nil || len(match.Record.Moves) != n {
				r.t.Errorf("stored game #%d: %v, %+v; want %d moves", i+1, err, match, n)
			}
		}
		return nil
	})
}

// The bot process is killed after a move is committed and before its
// announcement is sent. After the restart the homeserver hands the
// command over again: the announcement arrives, once, with no
// "already handled" answer, and the move is stored once.
func TestKillBetweenCommitAndSend(t *testing.T) { testKillAt(t, crashAtCommit, false) }

// The bot process is killed after the move's announcement was sent and
// before it was recorded as delivered. After the restart the stored
// reply goes out again with the same transaction IDs, so the homeserver
// returns the events it stored: the room sees the announcement and its
// board image once.
func TestKillBetweenSendAndDelivered(t *testing.T) { testKillAt(t, crashAtSent, false) }

func TestKillBetweenSendAndDeliveredEncrypted(t *testing.T) { testKillAt(t, crashAtSent, true) }

func testKillAt(t *testing.T, at string, encrypted bool) {
	if os.Getenv(crashChild) == "1" {
		runCrashChild()
		return
	}
	r, rooms := newCrashRig(t, encrypted)
	room := rooms[0]
	from := r.seen()
	play := r.ann.say(t, r.ctx, room, "!go play D4")
	child := r.child(at)
	err := child.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 137 {
		t.Fatalf("the bot process should have died after the move (%s): %v", at, err)
	}
	if n := r.ann.answers(play); at == crashAtCommit && n != 0 {
		t.Fatalf("the move was answered %d times before the crash", n)
	}

	// Restarted: the move's announcement is there once.
	bot := startBot(t, r.ctx, r.config(), r.dbPath, 50, r.logs)
	r.checkOnce(room, play, from, "ann played D4")
	bot.stop()
	if n := r.logs.count("answering an event handed over again with its stored reply"); n != 1 {
		t.Errorf("the stored reply was sent again %d times, want once", n)
	}
	r.storedMoves(1)
}

// crashKills is how many times TestKillAtRandom kills the bot.
const crashKills = 50

// The bot process is SIGKILLed at a random moment 0–300 ms after each
// move, in a plain and an encrypted room in turn, and restarted: every
// move is announced exactly once, with one board image.
func TestKillAtRandom(t *testing.T) {
	if os.Getenv(crashChild) == "1" {
		runCrashChild()
		return
	}
	if testing.Short() {
		t.Skip("50 kills of a bot process")
	}
	kinds := []bool{false}
	if cryptoBuilt {
		kinds = append(kinds, true)
	}
	r, rooms := newCrashRig(t, kinds...)
	// Black fills rows 1 to 4, White rows 6 to 9: nothing is captured.
	var moves []string
	cols := "ABCDEFGHJ"
	for i := 0; i < 36; i++ {
		moves = append(moves, fmt.Sprintf("%c%d", cols[i%9], []int{3, 4, 2, 1}[i/9]), fmt.Sprintf("%c%d", cols[i%9], []int{7, 6, 8, 9}[i/9]))
	}
	type owed struct {
		room id.RoomID
		move id.EventID
		text string
	}
	var all []owed
	next := make([]int, len(rooms))
	played := make([]int, len(rooms))
	kill := func(c *exec.Cmd) {
		c.Process.Signal(syscall.SIGKILL)
		c.Wait()
	}
	answeredBefore := 0
	var prev *owed
	for k := 0; k < crashKills; k++ {
		i := k % len(rooms)
		c := r.child("")
		if prev != nil {
			r.ann.replyTo(t, r.ctx, prev.move) // caught up
		}
		who, mv := r.ann, moves[next[i]]
		if next[i]%2 == 1 {
			who = r.bob
		}
		next[i]++
		o := owed{room: rooms[i], move: who.say(t, r.ctx, rooms[i], "!go play "+mv), text: who.name + " played " + mv}
		time.Sleep(rand.N(300 * time.Millisecond))
		kill(c)
		if r.ann.answers(o.move) > 0 {
			answeredBefore++
		}
		all = append(all, o)
		prev = &all[len(all)-1]
		played[i]++
	}
	c := r.child("")
	doubled := 0
	for _, o := range all {
		body, _ := r.ann.replyTo(t, r.ctx, o.move)
		if !strings.Contains(body.Body, o.text) {
			t.Errorf("the answer to %q: %s", o.text, body.Body)
		}
	}
	// Something after the last, then count: one announcement per move,
	// one board image per move.
	for _, room := range rooms {
		r.ann.replyTo(t, r.ctx, r.bob.say(t, r.ctx, room, "!go games"))
	}
	for _, o := range all {
		if n := r.ann.answers(o.move); n != 1 {
			doubled += n - 1
			t.Errorf("%s (%s in %s) was announced %d times", o.text, o.move, o.room, n)
		}
	}
	for i, room := range rooms {
		// The accept's board and one per move.
		if n := r.images(room, 0); n != played[i]+1 {
			t.Errorf("room %d (encrypted %v): %d board images for %d moves", i, kinds[i], n, played[i])
		}
	}
	kill(c)
	t.Logf("%d kills in %d room(s) (an encrypted one: %v); %d announced before the kill, %d stored replies sent again, %d parts found sent already; %d doubled announcements",
		crashKills, len(rooms), cryptoBuilt, answeredBefore, r.logs.count("answering an event handed over again with its stored reply"),
		r.logs.count("already sent before a restart"), doubled)
	r.storedMoves(played...)
}
