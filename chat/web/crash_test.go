package web

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// dyingNotifier stands for a process killed while it sends: Notify
// never returns until the test lets it go (and then fails).
type dyingNotifier struct {
	entered chan protocol.Message
	release chan struct{}
}

func (n *dyingNotifier) Notify(ctx context.Context, m protocol.Message) error {
	n.entered <- m
	<-n.release
	return errors.New("the process was killed")
}

// A click's move is committed and the page answered, and the process
// dies before the room hears of it: the announcement was claimed with
// the move, so the process that starts next sends it, once, with the
// key the dying one used; the page's retry of the same click is a
// duplicate that announces nothing.
func TestClickInTheRoomOnceAcrossACrash(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	alice := h.browser()
	alice.open(h.link(id, "alice", false), id)
	dying := &dyingNotifier{entered: make(chan protocol.Message, 4), release: make(chan struct{})}
	t.Cleanup(func() { close(dying.release) }) // before the harness's cleanup waits for the sends
	h.bot.SetNotifier("console", dying)
	v := h.version(id)

	if code, msg := alice.post("play", "E5", "click-e5-crash"); code != 200 || msg != "" {
		t.Fatalf("play E5: %d %q", code, msg)
	}
	var attempt protocol.Message
	select {
	case attempt = <-dying.entered: // committed, answered; the send never completes
	case <-time.After(time.Minute):
		t.Fatal("the room's announcement was never attempted")
	}
	if got := h.version(id); got != v+1 {
		t.Fatalf("version %d → %d: the move was not committed", v, got)
	}
	if !strings.Contains(attempt.Reply.Text, "played E5") || attempt.Key == "" {
		t.Fatalf("the dying process's attempt: %+v", attempt)
	}

	// The page did not hear back in time and sends the same click again:
	// a duplicate, applied once and announced by nobody.
	if code, msg := alice.post("play", "E5", "click-e5-crash"); code != 200 || msg != "" {
		t.Fatalf("the retried click: %d %q", code, msg)
	}
	if got := h.version(id); got != v+1 {
		t.Errorf("the retried click changed the game again")
	}

	// The next process starts on the same store. Before the claim has
	// expired it leaves the announcement alone; after, it sends it once.
	next := chat.New(chat.Config{Platforms: testPlatforms, Rules: "japanese", Width: 9, Height: 9, Holder: "next:1"}, h.db, nil, h.now, nil)
	room := &recorder{}
	next.SetNotifier("console", room)
	if err := next.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := room.texts(); len(got) != 0 {
		t.Fatalf("sent while the dying process's claim held: %q", got)
	}
	h.now.Advance(3 * time.Minute)
	for range 2 {
		if err := next.Tick(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	room.mu.Lock()
	sent := append([]protocol.Message(nil), room.msgs...)
	room.mu.Unlock()
	if len(sent) != 1 || sent[0].Key != attempt.Key || sent[0].Room != attempt.Room || sent[0].Reply.Text != attempt.Reply.Text {
		t.Fatalf("the room got %+v; want the dying process's announcement %+v, once", sent, attempt)
	}
	select {
	case m := <-dying.entered:
		t.Errorf("the dying process sent again: %+v", m)
	default:
	}
}
