package matrix

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/storage"
)

// These tests run the adapter against fakeHS (no Dendrite needed); the
// Dendrite tests in integration_test.go cover encryption and a real
// server's behaviour.

func TestFakeCommandAnswered(t *testing.T) {
	f, db := fakeClub(t)
	startFake(t, f, Config{}, db, nil)
	chatter := f.say(fakeRoom, "@ann:example.org", "hello everyone")
	cmd := f.say(fakeRoom, "@ann:example.org", "!go challenge @bob 9")
	f.waitFor(t, "the answer to the challenge", func() bool { return len(f.sent) > 0 })
	got := f.answers(cmd)
	if len(got) != 1 || got[0].room != fakeRoom {
		t.Fatalf("the challenge got %d answers: %+v", len(got), f.sent)
	}
	// bare @bob is the member whose localpart is bob: a pill to him.
	if html, _ := got[0].content["formatted_body"].(string); !strings.Contains(html, "https://matrix.to/#/@bob:example.org") {
		t.Errorf("the challenge does not name @bob:example.org: %q", html)
	}
	if n := len(f.answers(chatter)); n != 0 {
		t.Errorf("plain chatter got %d answers", n)
	}

	// A bare name nobody in the room has is refused, and nothing else.
	bad := f.say(fakeRoom, "@ann:example.org", "!go challenge @carol 9")
	f.waitFor(t, "the answer to @carol", func() bool { return len(f.sent) > 1 })
	if got := f.answers(bad); len(got) != 1 || !strings.Contains(got[0].body(), `anyone called "carol"`) {
		t.Fatalf("the challenge of @carol was answered with %+v", got)
	}
	// A display name works too.
	byName := f.say(fakeRoom, "@bob:example.org", "!go challenge @Ann 13")
	f.waitFor(t, "the answer to @Ann", func() bool { return len(f.sent) > 2 })
	if got := f.answers(byName); len(got) != 1 || got[0].content["msgtype"] != "m.notice" || strings.Contains(got[0].body(), "don't see") {
		t.Fatalf("the challenge of @Ann was answered with %+v", got)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.unknown) > 0 {
		t.Errorf("the adapter called endpoints the fake lacks: %q", f.unknown)
	}
}

func TestFakeRestartResumes(t *testing.T) {
	f, db := fakeClub(t)
	run := startFake(t, f, Config{}, db, nil)
	first := f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the answer to help", func() bool { return len(f.sent) == 1 })
	if err := run.stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	f.mu.Lock()
	before := len(f.stream) - 1 // the stream position before the first command
	f.mu.Unlock()

	// Restarted: the stored session and sync token are used; the old
	// command is not handed over again, a new one is answered.
	run = startFake(t, f, Config{}, db, nil)
	second := f.say(fakeRoom, "@bob:example.org", "!go rules")
	f.waitFor(t, "the answer to rules", func() bool { return len(f.sent) == 2 })
	if n := len(f.answers(first)); n != 1 {
		t.Errorf("the command before the restart was answered %d times", n)
	}
	if n := len(f.answers(second)); n != 1 {
		t.Errorf("the command after the restart was answered %d times", n)
	}
	f.mu.Lock()
	if f.logins != 1 {
		t.Errorf("%d password logins; the stored session should have been reused", f.logins)
	}
	f.mu.Unlock()
	run.stop()

	// A crash after answering, before the sync position was stored: the
	// homeserver hands both commands over again; neither is answered
	// again (chat knows them as delivered).
	s, err := storage.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	key := "sync @gobot:example.org DEV"
	if err := gobot.StoreState(s).PutState(context.Background(), stateNS, map[string][]byte{key: []byte("s" + strconv.Itoa(before))}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	startFake(t, f, Config{}, db, nil)
	third := f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the answer after the crash", func() bool { return len(f.sent) >= 3 })
	for _, e := range []string{first, second, third} {
		if n := len(f.answers(e)); n != 1 {
			t.Errorf("command %s answered %d times after the replay, want once", e, n)
		}
	}
	for _, s := range f.sent {
		if strings.Contains(s.body(), "already handled") {
			t.Errorf("a replayed command was answered: %q", s.body())
		}
	}
}

func TestFakeSendRetried(t *testing.T) {
	f, db := fakeClub(t)
	startFake(t, f, Config{}, db, nil)
	f.mu.Lock()
	f.sendAnswers = []int{429, 502, 503, 0}
	f.mu.Unlock()
	cmd := f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the answer", func() bool { return len(f.sent) == 1 })
	if n := len(f.answers(cmd)); n != 1 {
		t.Fatalf("%d answers", n)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.attempts) != 4 {
		t.Fatalf("%d send attempts, want 4 (429, 502, 503, ok)", len(f.attempts))
	}
	for _, txn := range f.attempts {
		if txn != f.attempts[0] {
			t.Errorf("the retries changed the transaction ID: %q", f.attempts)
		}
	}
}

func TestFakeInvites(t *testing.T) {
	f, db := fakeClub(t)
	log := &keyLog{}
	run := startFake(t, f, Config{AllowServers: []string{"example.org"}}, db, func(s gobot.State) gobot.State { log.State = s; return log })
	f.join("!dm:example.org", map[string]string{"@gobot:example.org": "gobot", "@ann:example.org": "Ann"})
	f.invite("!evil:evil.org", "@eve:evil.org", false)
	f.invite("!dm:example.org", "@ann:example.org", true)
	f.waitFor(t, "the join", func() bool { return len(f.joined) == 1 })
	f.waitFor(t, "the refusal", func() bool { return len(f.left) == 1 })
	f.waitFor(t, "the DM room remembered", func() bool {
		log.mu.Lock()
		defer log.mu.Unlock()
		return slices.Contains(log.keys, "dm @ann:example.org")
	})
	f.mu.Lock()
	joined, left := f.joined[0], f.left[0]
	f.mu.Unlock()
	if joined != "!dm:example.org" || left != "!evil:evil.org" {
		t.Fatalf("joined %q, left %q", joined, left)
	}

	// The DM room ann invited the bot to is where she is told things;
	// bob, who has none, gets a new one.
	ctx := context.Background()
	if err := run.a.Notify(ctx, protocol.Message{To: UserID("@ann:example.org"), Reply: protocol.Reply{Text: "your turn"}}); err != nil {
		t.Fatal(err)
	}
	if err := run.a.Notify(ctx, protocol.Message{To: UserID("@bob:example.org"), Reply: protocol.Reply{Text: "you were challenged"}}); err != nil {
		t.Fatal(err)
	}
	if err := run.a.Notify(ctx, protocol.Message{Room: RoomID(fakeRoom, ""), Reply: protocol.Reply{Text: "game over"}}); err != nil {
		t.Fatal(err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	want := []struct{ room, text string }{{"!dm:example.org", "your turn"}, {"!dm1:example.org", "you were challenged"}, {fakeRoom, "game over"}}
	if len(f.sent) != len(want) || f.created != 1 {
		t.Fatalf("sent %+v, %d rooms made", f.sent, f.created)
	}
	for i, w := range want {
		if f.sent[i].room != w.room || !strings.Contains(f.sent[i].body(), w.text) {
			t.Errorf("message %d: %q to %s, want %q to %s", i, f.sent[i].body(), f.sent[i].room, w.text, w.room)
		}
	}
	if err := run.a.Notify(ctx, protocol.Message{To: "discord:42", Reply: protocol.Reply{Text: "x"}}); err == nil {
		t.Error("a notification to a Discord user was accepted")
	}
}

func TestFakeAccessToken(t *testing.T) {
	f, db := fakeClub(t)
	run := startFake(t, f, Config{AccessToken: "token"}, db, nil)
	f.mu.Lock()
	if run.a.cli.DeviceID != id.DeviceID("DEV") || f.logins != 0 {
		t.Errorf("device %q after %d logins; want the token's device, no login", run.a.cli.DeviceID, f.logins)
	}
	f.mu.Unlock()
	run.stop()
	s, err := storage.Open(db, storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := New(Config{Homeserver: f.srv.URL, UserID: f.bot, AccessToken: "stolen"}, chat.New(chat.Config{}, s, nil, nil, nil), gobot.StoreState(s), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "access token") {
		t.Errorf("Run with a revoked token: %v", err)
	}
}

// keyLog is a chat.State that records the keys written.
type keyLog struct {
	gobot.State
	mu   sync.Mutex
	keys []string
	pos  string // the last sync position written
}

// PutState records the keys once they are written.
func (k *keyLog) PutState(ctx context.Context, ns string, kv map[string][]byte) error {
	if err := k.State.PutState(ctx, ns, kv); err != nil {
		return err
	}
	k.mu.Lock()
	for key, v := range kv {
		k.keys = append(k.keys, key)
		if strings.HasPrefix(key, "sync ") {
			k.pos = string(v)
		}
	}
	k.mu.Unlock()
	return nil
}

// A command costs the adapter no state write of its own: chat's outbox
// already knows what was answered; the adapter stores only its sync
// position (and per room the last event, for backfills).
func TestFakeNoAdapterWritePerCommand(t *testing.T) {
	f, db := fakeClub(t)
	log := &keyLog{}
	startFake(t, f, Config{}, db, func(s gobot.State) gobot.State { log.State = s; return log })
	for _, c := range []string{"!go help", "!go challenge @nobody 9", "!go rules"} {
		f.say(fakeRoom, "@ann:example.org", c)
	}
	f.waitFor(t, "three answers", func() bool { return len(f.sent) == 3 })
	f.say(fakeRoom, "@ann:example.org", "bye") // stored with the position after it
	f.waitFor(t, "the position after the commands", func() bool {
		log.mu.Lock()
		defer log.mu.Unlock()
		return log.pos == "s"+strconv.Itoa(len(f.stream))
	})
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, k := range log.keys {
		if !strings.HasPrefix(k, "sync ") && !strings.HasPrefix(k, "last ") && !strings.HasPrefix(k, "session ") {
			t.Errorf("the adapter wrote %q", k)
		}
	}
}

// Run returns only when the goroutines the adapter started (the wait for
// a late room key, crypto_goolm.go) have ended, so the crypto store and
// the database are not closed under them.
func TestFakeRunWaitsForSpawned(t *testing.T) {
	f, db := fakeClub(t)
	run := startFake(t, f, Config{}, db, nil)
	var finished atomic.Bool
	run.a.spawn(func() {
		time.Sleep(50 * time.Millisecond) // still working when Run is told to stop
		finished.Store(true)
	})
	if err := run.stop(); err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Error("Run returned while a goroutine of the adapter was still running")
	}
}

// Back after more commands than one sync returns: the missing ones are
// fetched (up to the last one seen before), and all are answered once,
// oldest first.
func TestFakeBackfill(t *testing.T) {
	f, db := fakeClub(t)
	run := startFake(t, f, Config{}, db, nil)
	seen := f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the first answer", func() bool { return len(f.sent) == 1 })
	run.stop()
	var away []string
	for _, c := range []string{"!go rules", "!go help", "!go nonsense", "!go rules", "!go help"} {
		away = append(away, f.say(fakeRoom, "@bob:example.org", c))
	}
	f.mu.Lock()
	f.limit = 2
	f.mu.Unlock()
	startFake(t, f, Config{}, db, nil)
	f.waitFor(t, "the answers to the commands sent while away", func() bool { return len(f.sent) == 1+len(away) })
	if n := len(f.answers(seen)); n != 1 {
		t.Errorf("the command before the break was answered %d times", n)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, e := range away {
		rel, _ := f.sent[1+i].content["m.relates_to"].(map[string]any)
		if irt, _ := rel["m.in_reply_to"].(map[string]any); irt["event_id"] != e {
			t.Errorf("answer %d replies to %v, want %s", i+1, irt["event_id"], e)
		}
	}
}

// Without encryption, an encrypted room is told once that the bot cannot
// read it.
func TestFakeEncryptedWithoutCrypto(t *testing.T) {
	f, db := fakeClub(t)
	startFake(t, f, Config{}, db, nil)
	for i := range 2 {
		f.push(fakeItem{room: fakeRoom, evt: map[string]any{"type": "m.room.encrypted", "event_id": "$enc" + strconv.Itoa(i),
			"sender": "@ann:example.org", "origin_server_ts": time.Now().UnixMilli(),
			"content": map[string]any{"algorithm": "m.megolm.v1.aes-sha2", "ciphertext": "xyz", "session_id": "s", "sender_key": "k", "device_id": "D"}}})
	}
	f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the help", func() bool { return len(f.sent) >= 2 })
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.sent) != 2 || !strings.Contains(f.sent[0].body(), "encrypted") {
		t.Errorf("sent %+v; want one notice about encryption, then the help", f.sent)
	}
}

// In a room the bot just joined, what was said before its join is not
// answered; a profile change of the bot is not a join.
func TestFakeJoinCutsHistory(t *testing.T) {
	f, db := fakeClub(t)
	startFake(t, f, Config{}, db, nil)
	member := func(evtID string, prev string) fakeItem {
		return fakeItem{room: fakeRoom, evt: map[string]any{"type": "m.room.member", "state_key": f.bot, "sender": f.bot, "event_id": evtID,
			"origin_server_ts": time.Now().UnixMilli(), "content": map[string]any{"membership": "join", "displayname": "gobot"},
			"unsigned": map[string]any{"prev_content": map[string]any{"membership": prev}}}}
	}
	// In one sync: a command, the join, a command, a rename, a command.
	f.push(msg(fakeRoom, "@ann:example.org", "!go help", "$old"), member("$join", "invite"),
		msg(fakeRoom, "@ann:example.org", "!go rules", "$new1"), member("$rename", "join"),
		msg(fakeRoom, "@bob:example.org", "!go help", "$new2"))
	f.waitFor(t, "the answers", func() bool { return len(f.sent) >= 2 })
	f.say(fakeRoom, "@ann:example.org", "!go help")
	f.waitFor(t, "the last answer", func() bool { return len(f.sent) >= 3 })
	for _, e := range []string{"$new1", "$new2"} {
		if n := len(f.answers(e)); n != 1 {
			t.Errorf("the command %s after the join was answered %d times", e, n)
		}
	}
	if n := len(f.answers("$old")); n != 0 {
		t.Errorf("the command before the bot's join was answered %d times", n)
	}
}

// A game's board goes up as an image after the text that announces it.
func TestFakeBoardUploaded(t *testing.T) {
	f, db := fakeClub(t)
	startFake(t, f, Config{}, db, nil)
	f.say(fakeRoom, "@ann:example.org", "!go challenge @bob 9 black")
	f.waitFor(t, "the challenge", func() bool { return len(f.sent) == 1 })
	accept := f.say(fakeRoom, "@bob:example.org", "!go accept")
	f.waitFor(t, "the game", func() bool {
		for _, s := range f.sent {
			if s.content["msgtype"] == "m.image" {
				return true
			}
		}
		return false
	})
	f.mu.Lock()
	defer f.mu.Unlock()
	var kinds []string
	for _, s := range f.sent[1:] {
		kinds = append(kinds, s.content["msgtype"].(string))
	}
	img := f.sent[len(f.sent)-1]
	if img.content["msgtype"] != "m.image" || img.content["url"] != "mxc://example.org/board" {
		t.Fatalf("after accept the bot sent %q; the last: %+v", kinds, img.content)
	}
	var answer string
	for _, s := range f.sent {
		if rel, _ := s.content["m.relates_to"].(map[string]any); rel != nil {
			if irt, _ := rel["m.in_reply_to"].(map[string]any); irt["event_id"] == accept {
				answer = s.body()
			}
		}
	}
	if !strings.Contains(answer, "begins") {
		t.Errorf("the answer to accept: %q", answer)
	}
}
