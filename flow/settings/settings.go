// Package settings applies a player's own settings (notify, theme,
// confirm, rank) and a room's (rules, size, komi, clock, threads,
// engines, widget, live_images) in the caller's transaction, refusing a
// value it does not take with a typed refusal (ChoiceRefusal) that
// chat/guide words.
package settings

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// PlayerChoices are the values of a player's settings, but rank.
// (notify_on= takes game, both, or the platform of an account of the
// player's: notifyOn).
var PlayerChoices = map[string][]string{"notify": {"mention", "dm", "off"}, "theme": {"wood", "dark"}, "confirm": {"touch", "always", "never"}}

// NotLinkedOn refuses notify_on=Platform to a player with no account
// there (docs/identity.md).
type NotLinkedOn struct{ Platform string }

func (e NotLinkedOn) Error() string { return "settings: no account linked on " + e.Platform }

// ChoiceRefusal refuses Value of a player's setting Key: it is none of
// its PlayerChoices.
type ChoiceRefusal struct{ Key, Value string }

func (e ChoiceRefusal) Error() string {
	return fmt.Sprintf("settings: %s=%s is no choice", e.Key, e.Value)
}

// SetPlayer sets user's settings at now, each key=value in order, the
// value lower-cased; rank sets a rank (StateRank). A player not stored
// yet is stored, named name.
func SetPlayer(tx gobot.Tx, user gobot.UserID, name string, settings []string, rank func(string) error, now time.Time) error {
	p, err := tx.Player(user)
	if errors.Is(err, gobot.ErrNotFound) {
		p, err = &gobot.Player{ID: user, Name: name}, nil
	}
	if err != nil {
		return err
	}
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		v = strings.ToLower(v)
		switch {
		case k == "rank":
			err = rank(v)
		case k == "notify_on":
			p.NotifyOn, err = notifyOn(tx, user, v)
		case !slices.Contains(PlayerChoices[k], v):
			err = ChoiceRefusal{k, v}
		case k == "notify":
			p.Notify = v
		case k == "theme":
			p.Theme = v
		default:
			p.Confirm = v
		}
		if err != nil {
			return err
		}
	}
	p.Updated = now
	return tx.PutPlayer(p)
}

// RoomChange is a change of a room's settings; what is nil (a size: 0)
// stays as it is.
type RoomChange struct {
	Rules, Clock             *string
	Width, Height            int
	Komi                     *float64
	Threads, Engines, Widget *bool
	LiveImages               *string // "": the default (last)
}

// SetRoom changes room's settings by c at now.
func SetRoom(tx gobot.Tx, room gobot.RoomID, c RoomChange, now time.Time) error {
	rm, err := tx.Room(room)
	if errors.Is(err, gobot.ErrNotFound) {
		rm, err = &gobot.Room{ID: room}, nil
	}
	if err != nil {
		return err
	}
	if c.Width > 0 {
		rm.Width, rm.Height = c.Width, c.Height
	}
	if c.Komi != nil {
		rm.Komi = c.Komi
	}
	if c.Engines != nil {
		rm.NoEngines = !*c.Engines
	}
	set(&rm.Rules, c.Rules)
	set(&rm.Clock, c.Clock)
	set(&rm.Threads, c.Threads)
	set(&rm.Widget, c.Widget)
	set(&rm.LiveImages, c.LiveImages)
	rm.Updated = now
	return tx.PutRoom(rm)
}

// set sets *dst to *v, unless v is nil.
func set[T any](dst, v *T) {
	if v != nil {
		*dst = *v
	}
}

// RoomRules is room's ruleset: its setting, else def (the bot's).
func RoomRules(tx gobot.Tx, room gobot.RoomID, def string) (string, error) {
	rm, err := tx.Room(room)
	if errors.Is(err, gobot.ErrNotFound) || err == nil && rm.Rules == "" {
		return def, nil
	}
	if err != nil {
		return "", err
	}
	return rm.Rules, nil
}

// notifyOn is the stored notify_on=v of player user: "" for "game" (the
// default), else v, which must name a platform of one of their accounts.
func notifyOn(tx gobot.Tx, user gobot.UserID, v string) (string, error) {
	switch v {
	case "game":
		return "", nil
	case "both":
		return v, nil
	}
	accounts, err := gobot.AccountsOf(tx, user)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(accounts, func(a gobot.UserID) bool { return a.Platform() == v }) {
		if len(v) > 16 || strings.ContainsFunc(v, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') }) {
			return "", ChoiceRefusal{"notify_on", v} // no platform's name
		}
		return "", NotLinkedOn{v}
	}
	return v, nil
}
