package matrix

import (
	"context"
	"errors"
	"fmt"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
)

// roomCache holds what the adapter looked up about a room; it is
// dropped when the room's members or power levels change.
type roomCache struct {
	members map[id.UserID]string // joined members → display name
	power   *event.PowerLevelsEventContent
	warned  bool // told the room that encryption is off
}

// onMember joins rooms the bot is invited to (from allowed servers),
// remembers DM rooms, and drops cached room data on membership changes.
func (a *Adapter) onMember(ctx context.Context, evt *event.Event) {
	a.forget(evt.RoomID)
	if evt.GetStateKey() != string(a.cli.UserID) || evt.Mautrix.EventSource&event.SourceInvite == 0 {
		return
	}
	// The raw content: mautrix's memory state store updates the parsed
	// one in place when the bot joins.
	membership, _ := evt.Content.Raw["membership"].(string)
	direct, _ := evt.Content.Raw["is_direct"].(bool)
	if membership != string(event.MembershipInvite) {
		return
	}
	if !a.cfg.autoJoin() {
		return
	}
	if !a.cfg.allowed(evt.Sender.Homeserver()) {
		a.log.Info("declining an invite from a server not allowed", "room", evt.RoomID, "from", evt.Sender)
		if err := a.retry(ctx, "reject", func() error { _, err := a.cli.LeaveRoom(ctx, evt.RoomID); return err }); err != nil {
			a.log.Warn("rejecting an invite", "room", evt.RoomID, "err", err)
		}
		return
	}
	if err := a.retry(ctx, "join", func() error { _, err := a.cli.JoinRoomByID(ctx, evt.RoomID); return err }); err != nil {
		a.log.Warn("joining a room", "room", evt.RoomID, "err", err)
		return
	}
	a.log.Info("joined", "room", evt.RoomID, "invited by", evt.Sender, "direct", direct)
	if direct {
		if err := a.putState("dm "+string(evt.Sender), []byte(evt.RoomID)); err != nil {
			a.log.Warn("remembering a DM room", "err", err)
		}
	}
}

func (a *Adapter) forget(room id.RoomID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if c := a.rooms[room]; c != nil {
		a.rooms[room] = &roomCache{warned: c.warned}
	}
}

// cache returns the room's cache entry; a.mu must be held.
func (a *Adapter) cache(room id.RoomID) *roomCache {
	c := a.rooms[room]
	if c == nil {
		c = &roomCache{}
		a.rooms[room] = c
	}
	return c
}

// members returns the room's joined members and their display names.
func (a *Adapter) members(ctx context.Context, room id.RoomID) map[id.UserID]string {
	a.mu.Lock()
	m := a.cache(room).members
	a.mu.Unlock()
	if m != nil {
		return m
	}
	var resp *mautrix.RespJoinedMembers
	if err := a.retry(ctx, "members", func() error {
		var err error
		resp, err = a.cli.JoinedMembers(ctx, room)
		return err
	}); err != nil {
		a.log.Warn("listing members", "room", room, "err", err)
		return nil
	}
	m = map[id.UserID]string{}
	for u, jm := range resp.Joined {
		m[u] = jm.DisplayName
	}
	a.mu.Lock()
	a.cache(room).members = m
	a.mu.Unlock()
	return m
}

// isAdmin reports whether u's power level reaches the room's
// state_default (50 when unset).
func (a *Adapter) isAdmin(ctx context.Context, room id.RoomID, u id.UserID) bool {
	pl := a.powerLevels(ctx, room)
	return pl != nil && pl.GetUserLevel(u) >= pl.StateDefault()
}

// powerLevels returns the room's power levels (cached until they
// change); nil when they cannot be read.
func (a *Adapter) powerLevels(ctx context.Context, room id.RoomID) *event.PowerLevelsEventContent {
	a.mu.Lock()
	pl := a.cache(room).power
	a.mu.Unlock()
	if pl == nil {
		var err error
		if pl, err = a.readPower(ctx, room); err != nil {
			a.log.Warn("reading power levels", "room", room, "err", err)
			return nil
		}
		a.mu.Lock()
		a.cache(room).power = pl
		a.mu.Unlock()
	}
	return pl
}

// readPower reads the room's power levels from the homeserver.
func (a *Adapter) readPower(ctx context.Context, room id.RoomID) (*event.PowerLevelsEventContent, error) {
	pl := &event.PowerLevelsEventContent{}
	if err := a.retry(ctx, "power levels", func() error {
		return a.cli.StateEvent(ctx, room, event.StatePowerLevels, "", pl)
	}); err != nil {
		return nil, err
	}
	var create *event.Event
	if err := a.retry(ctx, "create event", func() error {
		var err error
		create, err = a.cli.FullStateEvent(ctx, room, event.StateCreate, "")
		return err
	}); err == nil && create != nil && create.Content.Parsed != nil {
		pl.CreateEvent = create // room versions where creators outrank everyone
	}
	return pl, nil
}

// name is how a user is shown in room: display name, else localpart.
func (a *Adapter) name(ctx context.Context, room id.RoomID, u gobot.UserID) string {
	mu, ok := matrixUser(u)
	if !ok {
		return u.Local()
	}
	if n := a.members(ctx, room)[mu]; n != "" {
		return n
	}
	return mu.Localpart()
}

// dmRoom returns the direct room with u: the one u invited the bot to or
// the bot made before, if it is still private (privateDM: exactly the
// bot and u are its members, and it is encrypted when the bot encrypts);
// else a new one. What goes there is for u alone: personal web links,
// plans.
func (a *Adapter) dmRoom(ctx context.Context, u id.UserID) (id.RoomID, error) {
	key := "dm " + string(u)
	b, err := a.getState(key)
	if err != nil {
		return "", err
	}
	if b != nil {
		room := id.RoomID(b)
		ok, err := a.private(ctx, room, u)
		if err != nil {
			return "", fmt.Errorf("matrix: checking the direct room with %s: %w", u, err)
		}
		if ok {
			return room, nil
		}
		a.log.Info("the direct room is not private any more (other members, or not encrypted): making a new one", "room", room, "user", u)
	}
	req := &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{u}}
	if a.crypto != nil {
		req.InitialState = []*event.Event{{Type: event.StateEncryption, StateKey: new(string),
			Content: event.Content{Parsed: &event.EncryptionEventContent{Algorithm: id.AlgorithmMegolmV1}}}}
	}
	var resp *mautrix.RespCreateRoom
	if err := a.retry(ctx, "create DM", func() error {
		var err error
		resp, err = a.cli.CreateRoom(ctx, req)
		return err
	}); err != nil {
		return "", fmt.Errorf("matrix: making a direct room with %s: %w", u, err)
	}
	return resp.RoomID, a.putState(key, []byte(resp.RoomID))
}

// private reads room's members and encryption from the homeserver (not
// a cache: who can read a credential is decided on fresh state) and
// applies privateDM. A room the bot was removed from is not private.
func (a *Adapter) private(ctx context.Context, room id.RoomID, u id.UserID) (bool, error) {
	var resp *mautrix.RespMembers
	err := a.retry(ctx, "members", func() error {
		var err error
		resp, err = a.cli.Members(ctx, room)
		return err
	})
	if errors.Is(err, mautrix.MForbidden) || errors.Is(err, mautrix.MNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	members := map[id.UserID]event.Membership{}
	for _, e := range resp.Chunk {
		if e.StateKey == nil {
			continue
		}
		m, _ := e.Content.Raw["membership"].(string)
		members[id.UserID(*e.StateKey)] = event.Membership(m)
	}
	encrypted := false
	if a.crypto != nil {
		var enc event.EncryptionEventContent
		err := a.retry(ctx, "encryption", func() error { return a.cli.StateEvent(ctx, room, event.StateEncryption, "", &enc) })
		switch {
		case err == nil:
			encrypted = enc.Algorithm != ""
		case !errors.Is(err, mautrix.MNotFound):
			return false, err
		}
	}
	return privateDM(a.cli.UserID, u, members, encrypted, a.crypto != nil), nil
}

// privateDM is the rule for a direct room that may carry what is for u
// alone: its members, joined or invited, are exactly the bot (joined)
// and u (joined, or invited and yet to answer), and it is encrypted
// when the bot encrypts. A room marked direct that someone else joined
// or was invited to, or that is not encrypted while the bot is, is not.
func privateDM(bot, u id.UserID, members map[id.UserID]event.Membership, encrypted, crypto bool) bool {
	if crypto && !encrypted || bot == u {
		return false
	}
	if members[bot] != event.MembershipJoin {
		return false
	}
	if m := members[u]; m != event.MembershipJoin && m != event.MembershipInvite {
		return false
	}
	n := 0
	for _, m := range members {
		if m == event.MembershipJoin || m == event.MembershipInvite {
			n++
		}
	}
	return n == 2
}
