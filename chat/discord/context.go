package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Where gobot is not a member — a DM or group DM between users (context
// PRIVATE_CHANNEL), or a server that has not added the bot, where only a
// user installed the app — Discord lets it answer interactions and
// nothing else: the response, edits of @original, and at most
// maxFollowups follow-ups per interaction, within the token's 15
// minutes. A message posted with the bot token there is refused (403,
// 50001). This file keeps gobot within that: it remembers such
// channels, the latest interaction in each (whose token carries the
// notices an interaction prompts later, like an engine's answer), and
// the notices that reached nobody (a refused DM), which wait for the
// next interaction in the channel.

// maxFollowups is how many follow-ups Discord takes per interaction
// authorised by a user only.
const maxFollowups = 5

// tokenLife is how long gobot uses an interaction's token: Discord's 15
// minutes, less a margin for a slow request.
const tokenLife = 14 * time.Minute

// maxLatest and maxKnown bound what is kept in memory per channel.
const (
	maxLatest = 1024
	maxKnown  = 100000
)

// maxHeld bounds the notices held for one channel; past it the oldest
// is dropped (and logged). maxShowTries bounds how often a held notice
// is offered: nothing is retried forever.
const (
	maxHeld      = 25
	maxShowTries = 3
)

// The notes gobot adds what gobot says where it is not a member.
const (
	threadsNote = "Threads aren't available here (gobot isn't a member of this conversation), so the game stays in this channel."
	privateNote = "This server doesn't let apps its members installed answer in public, so each player sees only their own replies here (an admin can allow “Use External Apps”, or invite gobot to the server)."
	ratingNote  = "This conversation is its own ratings community: only games played here count, and they count only here."
	awayFormat  = "While you were away (%s):"
)

// noBot reports whether gobot answers in without being a member of its
// channel: a DM or group DM between users, or a server where only a
// user authorised the app.
func noBot(in *discordgo.Interaction) bool {
	switch in.Context {
	case discordgo.InteractionContextPrivateChannel:
		return true
	case discordgo.InteractionContextGuild:
		if in.GuildID == "" || len(in.AuthorizingIntegrationOwners) == 0 {
			return false // an older payload without the fields: the bot's own server
		}
		_, guild := in.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
		return !guild
	}
	return false
}

// forcedPrivate reports whether Discord shows gobot's responses in in's
// channel only to the caller: a server without the bot whose members may
// not use external apps in public.
func forcedPrivate(in *discordgo.Interaction) bool {
	return in.Context == discordgo.InteractionContextGuild && noBot(in) && in.AppPermissions&discordgo.PermissionUseExternalApps == 0
}

// live is the latest interaction in a channel where gobot is no member:
// its token carries follow-ups until it expires or they run out.
type live struct {
	in      *discordgo.Interaction
	at      time.Time
	used    int  // follow-ups sent
	private bool // Discord shows them to the caller only
}

// channels tracks the channels where gobot is no member.
type channels struct {
	mu     sync.Mutex
	noBot  map[string]bool  // known channels (both ways)
	latest map[string]*live // by channel
}

// seen records in's channel and, where gobot is no member there, in as
// its latest interaction.
func (a *Adapter) seen(ctx context.Context, in *discordgo.Interaction) {
	ch := in.ChannelID
	nb := noBot(in)
	was := a.isNoBot(ctx, ch) // as last recorded, by any process
	a.ch.mu.Lock()
	a.ch.noBot[ch] = nb
	if nb {
		a.ch.latest[ch] = &live{in: in, at: a.now(), private: forcedPrivate(in)}
	} else {
		delete(a.ch.latest, ch)
	}
	if len(a.ch.latest) > maxLatest {
		for c, l := range a.ch.latest {
			if a.now().Sub(l.at) >= tokenLife {
				delete(a.ch.latest, c) // its token is of no use any more
			}
		}
	}
	if len(a.ch.noBot) > maxKnown {
		clear(a.ch.noBot) // a cache: the state keeps the channels without the bot
	}
	a.ch.mu.Unlock()
	if a.state == nil || was == nb {
		return
	}
	v := []byte(nil)
	if nb {
		v = []byte("1")
	}
	if err := a.state.PutState(ctx, Platform, map[string][]byte{"nobot:" + ch: v}); err != nil {
		a.log.Warn("recording a channel without the bot", "channel", ch, "err", err)
	}
}

// isNoBot reports whether gobot is no member of channel, as the latest
// interaction there said.
func (a *Adapter) isNoBot(ctx context.Context, channel string) bool {
	a.ch.mu.Lock()
	nb, ok := a.ch.noBot[channel]
	a.ch.mu.Unlock()
	if ok || a.state == nil {
		return nb
	}
	v, err := a.state.GetState(ctx, Platform, "nobot:"+channel)
	nb = err == nil && string(v) == "1"
	if err != nil && !errors.Is(err, gobot.ErrNotFound) {
		a.log.Warn("reading a channel's kind", "channel", channel, "err", err)
		return nb
	}
	a.ch.mu.Lock()
	a.ch.noBot[channel] = nb
	a.ch.mu.Unlock()
	return nb
}

// firstPrivate reports whether channel has not yet been told that
// replies there are private to each player, and records that it has.
func (a *Adapter) firstPrivate(ctx context.Context, channel string) bool {
	key := "told-private:" + channel
	if a.state == nil {
		return true
	}
	if _, err := a.state.GetState(ctx, Platform, key); err == nil {
		return false
	}
	if err := a.state.PutState(ctx, Platform, map[string][]byte{key: []byte("1")}); err != nil {
		a.log.Warn("recording a note", "channel", channel, "err", err)
	}
	return true
}

// canFollowup reports whether channel's latest interaction can carry
// another follow-up.
func (a *Adapter) canFollowup(channel string) bool {
	a.ch.mu.Lock()
	defer a.ch.mu.Unlock()
	l := a.ch.latest[channel]
	return l != nil && l.used < maxFollowups && a.now().Sub(l.at) < tokenLife
}

// followup sends msg as a follow-up of the latest interaction in
// channel, if its token is fresh and has follow-ups left (and, unless
// anyOK, Discord shows them to everyone there). It reports whether it
// was sent.
func (a *Adapter) followup(channel string, msg Message, files []*protocol.File, anyOK bool) bool {
	a.ch.mu.Lock()
	l := a.ch.latest[channel]
	if l == nil || l.used >= maxFollowups || a.now().Sub(l.at) >= tokenLife || (l.private && !anyOK) {
		a.ch.mu.Unlock()
		return false
	}
	l.used++ // counted before sending: a failed one may have reached Discord
	in := l.in
	a.ch.mu.Unlock()
	var err error
	for attempt := 0; ; attempt++ {
		var fs []*discordgo.File // made afresh for each attempt: a sent file's reader is spent
		for _, f := range files {
			if f != nil {
				fs = append(fs, file(f))
			}
		}
		_, err = a.s.FollowupMessageCreate(in, true, &discordgo.WebhookParams{Content: msg.Content, Embeds: msg.Embeds,
			Components: msg.Components, Files: fs, AllowedMentions: msg.Mentions, Flags: msg.flags()})
		if err == nil || !unknownWebhook(err) || attempt == len(editRetries) {
			break
		}
		// Discord has not taken in the response yet (10015).
		time.Sleep(editRetries[attempt])
	}
	if err != nil {
		a.log.Warn("sending a follow-up", "channel", channel, "err", err)
		return false
	}
	return true
}

// dm sends msg to user u by direct message from the bot, with a nonce
// from the message's key (per recipient), so a notice sent again after a
// crash is kept once.
func (a *Adapter) dm(u gobot.UserID, msg Message, key string) error {
	ch, err := a.s.UserChannelCreate(u.Local())
	if err != nil {
		return fmt.Errorf("opening a DM with %s: %w", u, err)
	}
	if key != "" {
		key += "/dm " + u.Local()
	}
	_, err = a.post(ch.ID, &discordgo.MessageSend{Content: msg.Content, Embeds: msg.Embeds,
		Components: msg.Components, Files: msg.Files, AllowedMentions: msg.Mentions}, key)
	return err
}

// notifyNoBot delivers a notice for a channel where gobot is no member
// without ever posting there: as a follow-up of a fresh interaction in
// the channel (a room notice, like an engine's answer), else by DM from
// the bot to whom it concerns; when a DM is refused (403, 50007) or
// nobody can be named, it is held and shown on the next interaction in
// the channel.
func (a *Adapter) notifyNoBot(ctx context.Context, m protocol.Message) error {
	channel := m.Room.Local()
	var to []gobot.UserID
	if m.To != "" {
		to = []gobot.UserID{m.To}
	} else {
		if a.followup(channel, Translate(m.Reply), []*protocol.File{m.Reply.Image, m.Reply.File}, false) {
			return nil
		}
		for _, u := range m.Reply.Mentions {
			if u.Platform() == Platform {
				to = append(to, u)
			}
		}
	}
	if len(to) == 0 {
		return a.hold(ctx, channel, m.Reply, nil) // for whoever comes next
	}
	// Held only for those whose DM was refused: who got it does not see
	// it twice.
	var refused []gobot.UserID
	for _, u := range to {
		if err := a.dm(u, Translate(m.Reply), m.Key); err != nil {
			a.log.Info("a DM was refused; the notice waits for the next interaction", "to", u, "channel", channel, "err", err)
			refused = append(refused, u)
		}
	}
	if len(refused) == 0 {
		return nil
	}
	return a.hold(ctx, channel, m.Reply, refused)
}

// held is a notice waiting for the next interaction in its channel.
type held struct {
	ID    string         `json:"id"`
	Reply protocol.Reply `json:"reply"`
	At    time.Time      `json:"at"`
	Tries int            `json:"tries,omitempty"`
	// For are who the notice is for (none: whoever comes next). Where
	// Discord shows each reply to its caller alone, it is offered to
	// them one by one, each as they come.
	For []gobot.UserID `json:"for,omitempty"`
	// Offered is set while a process offers the notice (until then no
	// other offers it); one that died meanwhile leaves it to be offered
	// again once this has passed.
	Offered time.Time `json:"offered,omitzero"`
}

// offerFor is how long a held notice stays with the process offering it.
const offerFor = time.Minute

func heldKey(channel string) string { return "held:" + channel }

// decodeHeld reads held notices as stored.
func decodeHeld(channel string, raw []byte) ([]held, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var hs []held
	if err := json.Unmarshal(raw, &hs); err != nil {
		return nil, fmt.Errorf("held notices of %s: %w", channel, err)
	}
	for i := range hs {
		if hs[i].ID == "" {
			hs[i].ID = fmt.Sprintf("%d.%d", hs[i].At.UnixNano(), i)
		}
	}
	return hs, nil
}

// updateHeld changes channel's held notices with fn in one transaction
// of the shared state, so processes sharing it lose none (none left: the
// key is deleted).
func (a *Adapter) updateHeld(ctx context.Context, channel string, fn func([]held) []held) error {
	return a.state.UpdateState(ctx, Platform, heldKey(channel), func(raw []byte) ([]byte, error) {
		hs, err := decodeHeld(channel, raw)
		if err != nil {
			return nil, err
		}
		hs = fn(hs)
		if len(hs) == 0 {
			return nil, nil
		}
		return json.Marshal(hs)
	})
}

// hold keeps rep for the next interaction in channel. Its image and file
// are left out (the board is one command away); the text, fields and
// buttons stay.
func (a *Adapter) hold(ctx context.Context, channel string, rep protocol.Reply, to []gobot.UserID) error {
	if a.state == nil {
		return errors.New("discord: no state to hold a notice in")
	}
	rep.Image, rep.File = nil, nil
	h := held{Reply: rep, At: a.now(), For: to}
	h.ID = fmt.Sprintf("%d.%d", h.At.UnixNano(), rand.Uint64())
	dropped := 0
	err := a.updateHeld(ctx, channel, func(hs []held) []held {
		hs = append(hs, h)
		dropped = max(0, len(hs)-maxHeld)
		return hs[dropped:]
	})
	if err == nil && dropped > 0 {
		a.log.Warn("too many notices held for one channel; dropping the oldest", "channel", channel, "dropped", dropped)
	}
	return err
}

// showHeld offers channel's held notices as follow-ups of its latest
// interaction, as many as it has follow-ups left; those sent are
// forgotten, the others wait for the next interaction (up to
// maxShowTries offers each).
func (a *Adapter) showHeld(ctx context.Context, channel string, caller gobot.UserID) {
	if a.state == nil {
		return
	}
	// The notices to offer are marked in the shared state first, so
	// another process answering in this channel at the same time offers
	// none of them; once offered they are removed, or put back unmarked.
	// A process that dies in between leaves them marked until offerFor
	// has passed: then they are offered again (at least once, never lost).
	now := a.now()
	a.ch.mu.Lock()
	private := a.ch.latest[channel] != nil && a.ch.latest[channel].private
	a.ch.mu.Unlock()
	// Where replies are shown to their caller alone, a notice for others
	// waits for them; a private notice (a player's plan dropped) waits
	// for its player everywhere.
	forCaller := func(h held) bool {
		return (!private && !h.Reply.Private) || len(h.For) == 0 || slices.Contains(h.For, caller)
	}
	var offer []held
	if err := a.updateHeld(ctx, channel, func(cur []held) []held {
		offer = nil
		for i := range cur {
			if cur[i].Offered.After(now) || !forCaller(cur[i]) {
				continue
			}
			cur[i].Offered = now.Add(offerFor)
			offer = append(offer, cur[i])
		}
		return cur
	}); err != nil {
		a.log.Warn("reading held notices", "channel", channel, "err", err)
		return
	}
	if len(offer) == 0 {
		return
	}
	done := map[string]bool{}  // sent, or dropped after too many offers
	tried := map[string]bool{} // offered and not taken
	for _, h := range offer {
		if !a.canFollowup(channel) {
			break // no follow-up left: not an offer
		}
		msg := Translate(h.Reply)
		msg.Content = clip(strings.TrimSpace(fmt.Sprintf(awayFormat, h.At.UTC().Format("Jan 2 15:04 UTC"))+" "+msg.Content), maxContent)
		if a.followup(channel, msg, nil, true) {
			done[h.ID] = true
			continue
		}
		if h.Tries+1 >= maxShowTries {
			a.log.Warn("dropping a held notice offered too often", "channel", channel, "game", h.Reply.Game)
			done[h.ID] = true
			continue
		}
		tried[h.ID] = true
	}
	mine := map[string]bool{}
	for _, h := range offer {
		mine[h.ID] = true
	}
	if err := a.updateHeld(ctx, channel, func(cur []held) []held {
		var keep []held
		for _, h := range cur {
			if done[h.ID] && private && slices.Contains(h.For, caller) && len(h.For) > 1 {
				// Seen by this caller alone: it still waits for the others.
				h.For = slices.DeleteFunc(slices.Clone(h.For), func(u gobot.UserID) bool { return u == caller })
				h.Offered = time.Time{}
				keep = append(keep, h)
				continue
			}
			if done[h.ID] {
				continue
			}
			if mine[h.ID] {
				h.Offered = time.Time{}
				if tried[h.ID] {
					h.Tries++
				}
			}
			keep = append(keep, h)
		}
		return keep
	}); err != nil {
		a.log.Warn("writing held notices back", "channel", channel, "err", err)
	}
}
