package matrix

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/crypto/attachment"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Notify sends a message the bot sends on its own: into a room (or a
// game's thread), or to a user in a direct room, made if needed.
func (a *Adapter) Notify(ctx context.Context, m protocol.Message) error {
	select {
	case <-a.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if m.To != "" {
		u, ok := matrixUser(m.To)
		if !ok {
			return fmt.Errorf("matrix: %s is not a Matrix user", m.To)
		}
		room, err := a.dmRoom(ctx, u)
		if err != nil {
			return err
		}
		m.Reply.Room = RoomID(room, "")
		return a.deliver(ctx, m.Reply, nil, m.Key)
	}
	if _, _, ok := matrixRoom(m.Room); !ok {
		return fmt.Errorf("matrix: %s is not a Matrix room", m.Room)
	}
	m.Reply.Room = m.Room
	return a.deliver(ctx, m.Reply, nil, m.Key)
}

// txnPrefix starts every transaction ID derived from a key.
const txnPrefix = "gobot."

// The parts of one delivered reply, each sent with its own transaction
// ID (txnID).
const (
	partText = iota
	partImage
	partFile
	partAck
)

// txnID is the transaction ID of one part of the reply key names (a
// protocol.Message's Key, the answered event's ID): the same on every
// attempt, in this process or the next after a crash, so the
// homeserver, for which PUT /rooms/{room}/send/{type}/{txnId} is
// idempotent per device, returns the event it stored the first time
// instead of storing a second. With no key, a fresh one.
func (a *Adapter) txnID(key string, part int) string {
	if key == "" {
		return a.cli.TxnID()
	}
	sum := sha256.Sum256([]byte(key))
	return fmt.Sprintf("%s%s.%d", txnPrefix, base64.RawURLEncoding.EncodeToString(sum[:18]), part)
}

// deliver presents a reply. from is the command's route (nil for
// notifications). The reply goes to Reply.Room when set (a game's home
// room or thread), else back where the command was typed, as a reply to
// it. When the reply asks for a thread, its first message becomes the
// thread's root and the rest goes into the thread. key names the reply
// for its transaction IDs (txnID); a reply delivered again after a
// crash is stored once.
func (a *Adapter) deliver(ctx context.Context, rep protocol.Reply, from *route, key string) error {
	var to route
	if from != nil {
		to = *from
	}
	if rep.Room != "" {
		room, thread, ok := matrixRoom(rep.Room)
		if !ok {
			return fmt.Errorf("matrix: %s is not a Matrix room", rep.Room)
		}
		if from == nil || room != from.Room || thread != from.Thread {
			to = route{Room: room, Thread: thread}
		}
	}
	if to.Room == "" {
		return errors.New("matrix: a reply with nowhere to go")
	}
	if rep.Again && key != "" {
		a.settle(ctx)
	}
	newThread := rep.Thread && rep.Game != 0 && to.Thread == ""
	if newThread {
		to.ReplyTo = "" // a thread's root must not relate to anything
	}
	name := func(u gobot.UserID) string { return a.name(ctx, to.Room, u) }
	rep = protocol.FormatReply(rep, protocol.CodeCommand(a.cfg.Prefix))
	text := textContent(rep, name, actionCommands(a.cfg.Prefix, rep.Actions, func(s string) bool { return a.known[s] }))
	text.RelatesTo = to.relation()
	first, err := a.sendContent(ctx, to.Room, text, a.txnID(key, partText))
	if err != nil {
		return err
	}
	if newThread {
		to = route{Room: to.Room, Thread: first}
		if err := a.bot.ThreadCreated(ctx, rep.Game, RoomID(to.Room, first)); err != nil {
			a.log.Warn("recording a game thread", "game", rep.Game, "err", err)
		}
	} else if to.Thread != "" {
		to.ReplyTo = first
	} else {
		to.ReplyTo = "" // the text answered the command; files follow it
	}
	for _, p := range []struct {
		part int
		f    *protocol.File
	}{{partImage, rep.Image}, {partFile, rep.File}} {
		f := p.f
		if f == nil {
			continue
		}
		c, err := a.upload(ctx, to.Room, f)
		if err != nil {
			a.log.Warn("uploading", "file", f.Name, "err", err)
			continue
		}
		c.RelatesTo = to.relation()
		if _, err := a.sendContent(ctx, to.Room, c, a.txnID(key, p.part)); err != nil {
			return err
		}
	}
	if from != nil && to.Room != from.Room {
		// The answer went to the game's room: say so where the command was.
		ack := &event.MessageEventContent{MsgType: event.MsgNotice, Mentions: &event.Mentions{},
			Body:      "Answered in the game's room: " + to.Room.EventURI(first).MatrixToURL(),
			RelatesTo: from.relation()}
		ack.Format, ack.FormattedBody = event.FormatHTML, fmt.Sprintf(`Answered in <a href="%s">the game's room</a>.`, to.Room.EventURI(first).MatrixToURL())
		if _, err := a.sendContent(ctx, from.Room, ack, a.txnID(key, partAck)); err != nil {
			return err
		}
	}
	if rep.Widget != nil {
		if err := a.addWidget(ctx, *rep.Widget, key); err != nil {
			return err
		}
	}
	if afterDeliver != nil {
		afterDeliver(rep)
	}
	return nil
}

// afterDeliver, set only by tests, runs when a reply was sent in full,
// before the caller records it as delivered (Bot.Delivered).
var afterDeliver func(protocol.Reply)

// encrypted reports whether room is end-to-end encrypted (and the bot
// can encrypt).
func (a *Adapter) encrypted(ctx context.Context, room id.RoomID) bool {
	if a.crypto == nil {
		return false
	}
	ok, err := a.cli.StateStore.IsEncrypted(ctx, room)
	return err == nil && ok
}

// upload puts f into the media repository (encrypted first in encrypted
// rooms) and returns the event content that shows it.
func (a *Adapter) upload(ctx context.Context, room id.RoomID, f *protocol.File) (*event.MessageEventContent, error) {
	data := f.Data
	var enc *event.EncryptedFileInfo
	mime := f.MIME
	if a.encrypted(ctx, room) {
		ef := attachment.NewEncryptedFile()
		data = ef.Encrypt(f.Data)
		enc = &event.EncryptedFileInfo{EncryptedFile: *ef}
		mime = "application/octet-stream"
	}
	var resp *mautrix.RespMediaUpload
	err := a.retry(ctx, "upload", func() error {
		var err error
		resp, err = a.cli.UploadBytesWithName(ctx, data, mime, f.Name)
		return err
	})
	if err != nil {
		return nil, err
	}
	if enc != nil {
		enc.URL = resp.ContentURI.CUString()
		return mediaContent(f, "", enc), nil
	}
	return mediaContent(f, resp.ContentURI.CUString(), nil), nil
}

// sendContent sends one m.room.message (encrypted in encrypted rooms:
// the m.room.encrypted event carries txn), retrying rate limits and
// network failures with the same transaction ID txn so that the room
// never gets it twice.
func (a *Adapter) sendContent(ctx context.Context, room id.RoomID, c *event.MessageEventContent, txn string) (id.EventID, error) {
	if evt, ok := a.sent.get(txn); ok {
		a.log.Info("already sent before a restart; not sent again", "room", room, "event", evt)
		return evt, nil
	}
	var resp *mautrix.RespSendEvent
	err := a.retry(ctx, "send", func() error {
		var err error
		resp, err = a.cli.SendMessageEvent(ctx, room, event.EventMessage, c, mautrix.ReqSendEvent{TransactionID: txn})
		return err
	})
	if err != nil {
		a.log.Warn("sending a message", "room", room, "err", err)
		return "", err
	}
	return resp.EventID, nil
}

// sentTxns remembers the bot's own events that syncs showed with a
// transaction ID of ours (txnID): the homeserver names the sender's
// transaction in unsigned.transaction_id. It covers what the
// homeserver's idempotence cannot: a process killed while the
// homeserver was still storing its event gets no answer, and a
// homeserver may then store the event without remembering the
// transaction (Dendrite remembers it only once the request has been
// answered). After the restart, the sync from the last position shows
// the event, before the command it answers is handed over again.
type sentTxns struct {
	mu   sync.Mutex
	evt  map[string]id.EventID
	ring []string
	next int
}

const sentSize = 1024

func (s *sentTxns) get(txn string) (id.EventID, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	e, ok := s.evt[txn]
	return e, ok
}

func (s *sentTxns) add(txn string, e id.EventID) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.evt[txn]; ok {
		return
	}
	if s.evt == nil {
		s.evt, s.ring = map[string]id.EventID{}, make([]string, sentSize)
	}
	delete(s.evt, s.ring[s.next])
	s.ring[s.next] = txn
	s.next = (s.next + 1) % sentSize
	s.evt[txn] = e
}

// noteSent runs first on every sync response: it remembers the bot's
// own events that carry a transaction ID of ours (sentTxns).
func (a *Adapter) noteSent(ctx context.Context, resp *mautrix.RespSync, since string) bool {
	for _, room := range resp.Rooms.Join {
		for _, evt := range room.Timeline.Events {
			if evt.Sender == a.cli.UserID && strings.HasPrefix(evt.Unsigned.TransactionID, txnPrefix) {
				a.sent.add(evt.Unsigned.TransactionID, evt.ID)
			}
		}
	}
	return true
}

// settle runs before a reply handed over again is sent: the process
// that died may have left a send in flight, which the homeserver still
// stores, too late for this process's first sync to show it and without
// remembering the transaction (Dendrite). It waits resendSettle, then
// syncs once more from the position of the batch being handled (its
// own request: the sync loop's position does not move) and notes the
// bot's events it shows (noteSent).
func (a *Adapter) settle(ctx context.Context) {
	since, _ := ctx.Value(mautrix.SyncTokenContextKey).(string)
	if since == "" || !sleep(ctx, a.resendSettle) {
		return
	}
	resp, err := a.cli.FullSyncRequest(ctx, mautrix.ReqSync{Since: since, Timeout: 0})
	if err != nil {
		a.log.Warn("looking for a reply sent before a restart", "err", err)
		return
	}
	a.noteSent(ctx, resp, since)
}

// maxAttempts bounds retries of one request (about four minutes with
// the default backoff).
const maxAttempts = 9

// retry runs fn until it succeeds, fails for good or ctx ends: rate
// limits wait as long as the homeserver asks (retry_after_ms), network
// failures and server errors back off exponentially.
func (a *Adapter) retry(ctx context.Context, what string, fn func() error) error {
	delay := a.retryBase
	for attempt := 1; ; attempt++ {
		err := fn()
		if err == nil || attempt == maxAttempts || ctx.Err() != nil {
			return err
		}
		wait, ok := retryAfter(err)
		if !ok {
			if !transient(err) {
				return err
			}
			wait = delay
			delay = min(2*delay, time.Minute)
		}
		a.log.Debug("retrying", "what", what, "err", err, "in", wait)
		if !sleep(ctx, wait) {
			return err
		}
	}
}

// retryAfter returns the delay a rate-limited response asks for.
func retryAfter(err error) (time.Duration, bool) {
	var he mautrix.HTTPError
	if !errors.As(err, &he) || he.RespError == nil || he.RespError.ErrCode != mautrix.MLimitExceeded.ErrCode {
		return 0, false
	}
	if ms, ok := he.RespError.ExtraData["retry_after_ms"].(float64); ok && ms > 0 {
		return time.Duration(ms) * time.Millisecond, true
	}
	return 5 * time.Second, true
}

// transient reports whether err may go away by itself: no answer, or a
// server or gateway error.
func transient(err error) bool {
	var he mautrix.HTTPError
	if !errors.As(err, &he) {
		return false
	}
	if he.Response == nil {
		return he.WrappedError != nil && !errors.Is(he.WrappedError, context.Canceled)
	}
	return he.Response.StatusCode >= 500 || he.Response.StatusCode == 429
}

func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
