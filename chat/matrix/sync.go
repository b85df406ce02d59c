package matrix

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// recentIDs is a bounded set of event IDs (the last recentSize added).
type recentIDs struct {
	mu   sync.Mutex
	set  map[id.EventID]bool
	ring []id.EventID
	next int
}

const recentSize = 4096

// seen reports whether e was added before, and adds it.
func (r *recentIDs) seen(e id.EventID) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.set[e] {
		return true
	}
	if r.set == nil {
		r.set, r.ring = map[id.EventID]bool{}, make([]id.EventID, recentSize)
	}
	delete(r.set, r.ring[r.next])
	r.ring[r.next] = e
	r.next = (r.next + 1) % recentSize
	r.set[e] = true
	return false
}
func (a *Adapter) syncKey() string {
	return "sync " + string(a.cli.UserID) + " " + string(a.cli.DeviceID)
}

// handleTimeout bounds the handling of one sync response after the
// adapter was asked to stop.
const handleTimeout = 2 * time.Minute

// syncLoop long-polls /sync. The position is stored after each response
// has been handled, so a crash or restart hands unhandled events over
// again (the chat layer drops those it already handled) and never skips
// any; on the very first start, the timeline is not handled at all.
func (a *Adapter) syncLoop(ctx context.Context) error {
	tok, err := a.getState(a.syncKey())
	if err != nil {
		return err
	}
	since := string(tok)
	filter := &mautrix.Filter{Room: &mautrix.RoomFilter{Timeline: &mautrix.FilterPart{Limit: a.timelineLimit}}}
	var filterID string
	delay := a.retryBase
	for ctx.Err() == nil {
		if filterID == "" {
			err := a.retry(ctx, "filter", func() error {
				resp, err := a.cli.CreateFilter(ctx, filter)
				if err == nil {
					filterID = resp.FilterID
				}
				return err
			})
			if err != nil {
				continue
			}
		}
		timeout := 30000
		if since == "" || delay > a.retryBase {
			timeout = 0
		}
		resp, err := a.cli.FullSyncRequest(ctx, mautrix.ReqSync{Since: since, Timeout: timeout, FilterID: filterID})
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, mautrix.MUnknownToken) {
				if a.cfg.AccessToken != "" || a.cfg.Password == "" {
					return fmt.Errorf("matrix: the homeserver no longer accepts the bot's access token: %w", err)
				}
				a.log.Warn("the access token was revoked; logging in again", "device", a.cli.DeviceID)
				if err := a.passwordLogin(ctx, a.cli.DeviceID); err != nil {
					return err
				}
				if a.crypto != nil {
					if err := a.crypto.Reshare(ctx); err != nil {
						a.log.Error("uploading the device's encryption keys again", "err", err)
					}
				}
				a.log.Info("logged in again", "device", a.cli.DeviceID)
				continue
			}
			wait, ok := retryAfter(err)
			if !ok {
				wait = delay
				delay = min(delay*2, time.Minute)
			}
			a.log.Warn("sync failed; retrying", "err", err, "in", wait)
			if !sleep(ctx, wait) {
				break
			}
			continue
		}
		delay = a.retryBase
		// A batch is handled to the end even when ctx ends meanwhile, so
		// that stopping the bot does not leave commands handled but
		// unanswered (or answered twice after the restart).
		hctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), handleTimeout)
		err = a.cli.Syncer.ProcessResponse(hctx, resp, since)
		cancel()
		if err != nil {
			a.log.Error("handling a sync response", "err", err)
		}
		since = resp.NextBatch
		pos := map[string][]byte{a.syncKey(): []byte(since)}
		for roomID, room := range resp.Rooms.Join {
			if evs := room.Timeline.Events; len(evs) > 0 {
				pos["last "+string(roomID)] = []byte(evs[len(evs)-1].ID)
			}
		}
		if err := a.state.PutState(context.WithoutCancel(ctx), stateNS, pos); err != nil {
			return fmt.Errorf("matrix: storing the sync position: %w", err)
		}
	}
	return nil
}

// prepareSync runs before a sync response's events are dispatched. It
// drops the messages the bot must not answer: on the first start
// everything in the timelines (old history), and in a room just joined
// what was said before the bot's join. When the homeserver cut a
// timeline short (the bot was away longer than timelineLimit events),
// the missing messages are fetched so no command is lost.
func (a *Adapter) prepareSync(ctx context.Context, resp *mautrix.RespSync, since string) bool {
	for roomID, room := range resp.Rooms.Join {
		evs := room.Timeline.Events
		cut := 0
		if since == "" {
			cut = len(evs)
		} else {
			for i := len(evs) - 1; i >= 0; i-- {
				if a.joinedHere(evs[i]) {
					cut = i + 1
					break
				}
			}
		}
		if cut == 0 && room.Timeline.Limited && room.Timeline.PrevBatch != "" {
			evs = append(a.backfill(ctx, roomID, room.Timeline.PrevBatch, since), evs...)
		}
		kept := evs[:0:0]
		for i, evt := range evs {
			if evt.Type == event.EventMessage || evt.Type == event.EventEncrypted {
				if i < cut || a.recent.seen(evt.ID) {
					continue
				}
			}
			kept = append(kept, evt)
		}
		room.Timeline.Events = kept
	}
	return true
}

// joinedHere reports whether evt is the bot's own join (not a profile
// change of an existing member).
func (a *Adapter) joinedHere(evt *event.Event) bool {
	if evt.Type != event.StateMember || evt.GetStateKey() != string(a.cli.UserID) {
		return false
	}
	if m, _ := evt.Content.Raw["membership"].(string); m != "join" {
		return false
	}
	if evt.Unsigned.PrevContent != nil {
		if m, _ := evt.Unsigned.PrevContent.Raw["membership"].(string); m == "join" {
			return false
		}
	}
	return true
}

// backfill fetches the events between a sync's cut-off and the previous
// position, oldest first. It stops at the last event an earlier sync
// delivered in the room (some servers, Dendrite among them, do not stop
// at the `to` token) or at the bot's join.
func (a *Adapter) backfill(ctx context.Context, room id.RoomID, from, to string) []*event.Event {
	last, err := a.getState("last " + string(room))
	if err != nil {
		a.log.Warn("reading the last event seen", "room", room, "err", err)
	}
	var got []*event.Event
	done := false
	for pages := 0; pages < 20 && from != "" && !done; pages++ {
		var resp *mautrix.RespMessages
		err := a.retry(ctx, "backfill", func() error {
			var err error
			resp, err = a.cli.Messages(ctx, room, from, to, mautrix.DirectionBackward, nil, 100)
			return err
		})
		if err != nil {
			a.log.Warn("fetching missed messages", "room", room, "err", err)
			break
		}
		for _, evt := range resp.Chunk {
			if last != nil && evt.ID == id.EventID(last) {
				done = true
				break
			}
			got = append(got, evt)
			if a.joinedHere(evt) {
				done = true
				break
			}
		}
		if len(resp.Chunk) == 0 || resp.End == "" || resp.End == from {
			break
		}
		from = resp.End
	}
	for i, j := 0, len(got)-1; i < j; i, j = i+1, j-1 {
		got[i], got[j] = got[j], got[i]
	}
	for _, evt := range got {
		evt.RoomID = room
	}
	a.log.Info("fetched messages missed while away", "room", room, "events", len(got))
	return got
}

// onEncryptedWithoutCrypto tells a room once that the bot cannot read
// its encrypted messages.
func (a *Adapter) onEncryptedWithoutCrypto(ctx context.Context, evt *event.Event) {
	if evt.Sender == a.cli.UserID || evt.Mautrix.EventSource&event.SourceTimeline == 0 {
		return
	}
	a.mu.Lock()
	c := a.cache(evt.RoomID)
	warned := c.warned
	c.warned = true
	a.mu.Unlock()
	if warned {
		return
	}
	a.sendContent(ctx, evt.RoomID, &event.MessageEventContent{MsgType: event.MsgNotice,
		Body: "This room is encrypted, but this gobot runs without encryption, so I cannot read commands here."}, a.cli.TxnID())
}

// onMessage handles a (decrypted) room message: commands go to the bot
// and its reply back to the room.
func (a *Adapter) onMessage(ctx context.Context, evt *event.Event) {
	if evt.Sender == a.cli.UserID || evt.Mautrix.EventSource&event.SourceTimeline == 0 {
		return
	}
	c, ok := parseCommand(a.cfg.Prefix, evt.Content.AsMessage())
	if !ok {
		return
	}
	arrived := arrival(a.bot) // before the members' and admins' look-ups
	thread := evt.Content.AsMessage().RelatesTo.GetThreadParent()
	members := a.members(ctx, evt.RoomID)
	if msg := resolveUsers(&c, members); msg != "" {
		a.deliver(ctx, protocol.Reply{Text: msg, Error: true, Private: true}, &route{Room: evt.RoomID, Thread: thread, ReplyTo: evt.ID}, string(evt.ID))
		return
	}
	name := members[evt.Sender]
	if name == "" {
		name = evt.Sender.Localpart()
	}
	file, refused := a.attachment(ctx, evt.Content.AsMessage()) // attachment.go
	if refused != "" {
		a.deliver(ctx, protocol.Reply{Text: refused, Error: true, Private: true}, &route{Room: evt.RoomID, Thread: thread, ReplyTo: evt.ID}, string(evt.ID))
		return
	}
	req := protocol.Request{
		File:     file,
		User:     protocol.User{ID: UserID(evt.Sender), Name: name},
		Room:     RoomID(evt.RoomID, thread),
		DM:       len(members) == 2,
		Admin:    a.isAdmin(ctx, evt.RoomID, evt.Sender),
		EventID:  gobot.NewEventID(Platform, string(evt.ID)),
		Command:  c.Name,
		Args:     c.Args,
		Mentions: c.Mentions,
		Time:     eventTime(evt),
		Arrived:  arrived,
		// The reply is stored with the command's effect, so an event
		// handed over again after a crash gets the reply it was owed.
		Outbox:   true,
		Platform: a.platform,
	}
	req.Community = gobot.CommunityID(RoomID(evt.RoomID, "")) // ratings are per room, threads included
	a.log.Debug("command", "room", evt.RoomID, "user", evt.Sender, "command", c.Name, "args", c.Args)
	rep, then := a.bot.Respond(ctx, req)
	defer then(ctx) // messages to others once the caller is answered
	if rep.Duplicate {
		a.log.Debug("dropped a duplicate command", "room", evt.RoomID, "event", evt.ID)
		return
	}
	if afterHandle != nil {
		afterHandle(rep)
	}
	if rep.Withdraw {
		a.withdraw(ctx, evt) // a plan typed in a shared room (withdraw.go)
	}
	// Named after the event it answers: sent again after a crash, the
	// reply is stored once (txnID).
	if err := a.deliver(ctx, rep, &route{Room: evt.RoomID, Thread: thread, ReplyTo: evt.ID}, string(req.EventID)); err != nil {
		a.log.Warn("answering a command", "room", evt.RoomID, "event", evt.ID, "err", err)
		return // owed still: answered when the event comes again
	}
	if err := a.bot.Delivered(ctx, req.EventID); err != nil {
		a.log.Warn("recording an answer as sent", "event", evt.ID, "err", err)
	}
}

// afterHandle, set only by tests, runs between the bot's handling of a
// command (committed) and the sending of its reply.
var afterHandle func(protocol.Reply)
