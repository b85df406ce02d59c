package chat

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/render"
)

// hangingNotifier stands for a process that dies while sending: Notify
// never completes until the test lets it go (and then fails).
type hangingNotifier struct {
	entered chan protocol.Message
	release chan struct{}
}

func (n *hangingNotifier) Notify(ctx context.Context, m protocol.Message) error {
	n.entered <- m
	<-n.release
	return errors.New("the process was killed")
}

// A process claims a due reminder and dies before sending it: the claim
// expires and another process sends the same message (same key) once;
// before the claim expires nobody else touches it.
func TestClaimedReminderSentByAnother(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.bot.SetNotifier("test", nil) // the harness's bot is the other process
	dying := New(Config{Rules: "japanese", Width: 9, Height: 9, Holder: "dying:1"}, h.db, pngRenderer{}, h.clock, nil)
	hang := &hangingNotifier{entered: make(chan protocol.Message, 1), release: make(chan struct{})}
	dying.SetNotifier("test", hang)

	h.clock.Advance(23 * time.Hour) // the reminder is due
	ticked := make(chan error, 1)
	go func() { ticked <- dying.Tick(context.Background()) }()
	attempt := <-hang.entered // claimed and committed; the send never completes
	if match, _ := h.game(1); match.Reminded == 0 {
		t.Fatal("the reminder was not claimed")
	}
	if attempt.Key == "" || !strings.Contains(attempt.Reply.Text, "it's your move") {
		t.Fatalf("the dying process's attempt: %+v", attempt)
	}

	h.bot.SetNotifier("test", h.notes)
	h.clock.Advance(time.Minute) // the claim has not expired: left alone
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(h.notes.all()); n != 0 {
		t.Fatalf("%d messages sent for a claim that had not expired", n)
	}
	h.clock.Advance(2 * time.Minute) // now it has
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := h.notes.all()
	if len(sent) != 1 || sent[0].Key != attempt.Key || sent[0].Reply.Text != attempt.Reply.Text || sent[0].Room != attempt.Room {
		t.Fatalf("sent after the claim expired: %+v; want the dying process's message %+v", sent, attempt)
	}
	// Done: no process sends it again.
	h.clock.Advance(5 * time.Minute)
	h.bot.Tick(context.Background())
	if n := len(h.notes.all()); n != 1 {
		t.Fatalf("%d messages for one reminder", n)
	}
	close(hang.release)
	<-ticked
}

// A timeout's message carries the board: a process that claims it again
// draws the position the claim stored.
func TestClaimedTimeoutDrawsItsBoard(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	h.ok("alice", "play D4")
	h.bot.SetNotifier("test", nil)
	dying := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	hang := &hangingNotifier{entered: make(chan protocol.Message, 1), release: make(chan struct{})}
	dying.SetNotifier("test", hang)
	defer close(hang.release)

	h.clock.Advance(25 * time.Hour) // past the deadline
	go dying.Tick(context.Background())
	attempt := <-hang.entered
	if !strings.Contains(attempt.Reply.Text, "ran out of time") || attempt.Reply.Image == nil {
		t.Fatalf("the dying process's attempt: %q, image %v", attempt.Reply.Text, attempt.Reply.Image != nil)
	}
	h.bot.SetNotifier("test", h.notes)
	h.clock.Advance(3 * time.Minute)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	sent := h.notes.all()
	if len(sent) != 1 || sent[0].Key != attempt.Key || sent[0].Reply.Image == nil ||
		string(sent[0].Reply.Image.Data) != string(attempt.Reply.Image.Data) {
		t.Fatalf("sent again: %d messages; want one with the same board", len(sent))
	}
}

// A claim run again after a conflict finds the reminder claimed by
// another process, still sending it: the other's claim stays, so that if
// that process dies it is sent all the same.
func TestRetriedClaimLeavesAnothersClaim(t *testing.T) {
	h := newHarness(t)
	h.start("clock=1d")
	other := New(Config{Rules: "japanese", Width: 9, Height: 9}, h.db, pngRenderer{}, h.clock, nil)
	hang := &hangingNotifier{entered: make(chan protocol.Message, 1), release: make(chan struct{})}
	other.SetNotifier("test", hang)
	defer close(hang.release)
	var key string
	var once sync.Once
	conflicted := New(Config{Rules: "japanese", Width: 9, Height: 9},
		retryingStore{Store: h.db, between: func() {
			once.Do(func() {
				go other.Tick(context.Background())
				key = (<-hang.entered).Key
			})
		}}, pngRenderer{}, h.clock, nil)
	conflicted.SetNotifier("test", h.notes)
	h.clock.Advance(23 * time.Hour)
	if err := conflicted.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := len(h.notes.all()); n != 0 {
		t.Fatalf("the conflicted process sent %d messages for a reminder another claimed", n)
	}
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		_, err := tx.Claim(strings.TrimSuffix(key, "/0"))
		return err
	}); err != nil {
		t.Fatalf("the other process's claim %q: %v", key, err)
	}
}

// Issue 45: a tournament's final standings come with their table's
// image; a process that claims the announcement and dies before sending
// it leaves what the table is drawn from in the claim, so the process
// that sends it again draws the same image.
func TestClaimedFinalStandingsDrawTheirTable(t *testing.T) {
	h := newHarness(t)
	h.bot.render = &render.Renderer{}
	for _, l := range [][2]string{{"alice", `tournament new "Cup" swiss rounds=1 size=9`}, {"alice", "tournament join"}, {"bob", "tournament join"}, {"alice", "tournament start"}} {
		h.ok(l[0], l[1])
	}
	h.bot.SetNotifier("test", nil) // the harness's bot is the other process
	dying := New(Config{Rules: "japanese", Width: 9, Height: 9, Holder: "dying:1"}, h.db, &render.Renderer{}, h.clock, nil)
	hang := &hangingNotifier{entered: make(chan protocol.Message, 4), release: make(chan struct{})}
	dying.SetNotifier("test", hang)
	defer close(hang.release)
	r := h.tournamentAt(1).Played[0]
	h.ok(strings.TrimPrefix(string(r.Games[0].Black), "test:"), "resign #1") // the last game: the tournament is due
	go dying.Tick(context.Background())
	attempt := <-hang.entered
	if !strings.Contains(attempt.Reply.Text, "Final standings") || attempt.Reply.Image == nil || !strings.HasPrefix(attempt.Reply.Image.Name, "standings-") {
		t.Fatalf("the dying process's attempt: %q, image %v", attempt.Reply.Text, attempt.Reply.Image != nil)
	}
	h.bot.SetNotifier("test", h.notes)
	h.clock.Advance(3 * time.Minute)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	var sent []protocol.Message
	for _, m := range h.notes.all() {
		if m.Key == attempt.Key {
			sent = append(sent, m)
		}
	}
	if len(sent) != 1 || sent[0].Reply.Image == nil || !bytes.Equal(sent[0].Reply.Image.Data, attempt.Reply.Image.Data) {
		t.Fatalf("sent again: %d messages; want one with the same table (image %v)", len(sent), len(sent) == 1 && sent[0].Reply.Image != nil)
	}
}
