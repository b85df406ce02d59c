package guide

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot/flow/settings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

// Settings shows a player's settings p (with rank, their rank's label,
// or "") and their room's rm, where def holds the bot's defaults (rules,
// size, komi, clock); liveImages is the room's live_images as shown,
// and widgets says the room shows widgets (Matrix).
func Settings(p gobot.Player, rank string, rm, def gobot.Room, liveImages string, widgets, linked bool) string {
	if rank != "" {
		rank = " rank=" + rank
	}
	if linked || p.NotifyOn != "" { // where a linked player is told (docs/identity.md)
		rank = " notify_on=" + or(p.NotifyOn, "game") + rank
	}
	size := game.SizeString(def.Width, def.Height)
	if rm.Width > 0 {
		size = game.SizeString(rm.Width, rm.Height)
	}
	komi := "by ruleset"
	if def.Komi != nil {
		komi = game.FormatKomi(*def.Komi)
	}
	if rm.Komi != nil {
		komi = game.FormatKomi(*rm.Komi)
	}
	widget := ""
	if widgets {
		widget = " widget=" + onOff(rm.Widget)
	}
	return fmt.Sprintf("You: notify=%s theme=%s confirm=%s%s\nThis room: rules=%s size=%s komi=%s clock=%s threads=%s engines=%s live_images=%s%s\nChange yours with %s; admins change the room's with %s.",
		or(p.Notify, "mention"), or(p.Theme, "wood"), or(p.Confirm, "touch"), rank, or(rm.Rules, def.Rules), size, komi, or(rm.Clock, or(def.Clock, "none")),
		onOff(rm.Threads), onOff(!rm.NoEngines), liveImages, widget, say.Cmd("settings notify=dm theme=dark"), say.Cmd("settings room rules=japanese size=19 clock=3d"))
}

// or is s, or def when s is "".
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// onOff writes a setting that is on or off.
func onOff(on bool) string { return map[bool]string{true: "on", false: "off"}[on] }

// SettingsSaved says that settings were saved, then shows them (shown)
// and, for a clock just chosen, what to know about it (ClockNote).
func SettingsSaved(shown string, clock *gobot.TimeControl) string {
	shown = "Saved.\n" + shown
	if clock != nil && say.ClockNote(*clock) != "" {
		shown += "\n" + strings.TrimSpace(say.ClockNote(*clock))
	}
	return shown
}

// NotKeyValue refuses a setting a not written as key=value.
func NotKeyValue(a string) error {
	return say.Refusef("Write settings as key=value, like notify=dm or theme=dark (I got %s).", protocol.Echo(a))
}

// TwoValues says that setting k was given twice (prev, then a).
func TwoValues(k, prev, a string) string {
	return fmt.Sprintf("Two values for %s: %s and %s — give one.", protocol.ClipArg(k), protocol.Echo(prev), protocol.Echo(a))
}

// NoSetting refuses an unknown setting k: the nearest of the player's
// settings yours and the room's rooms, or the lists of both.
func NoSetting(k string, yours, rooms []string) error {
	if n, ok := protocol.Nearest(k, append(append([]string(nil), yours...), rooms...)); ok {
		return say.Refusef("There is no setting %s; did you mean %s=?", protocol.Echo(k), n)
	}
	return say.Refusef("There is no setting %s. Yours: %s. The room's (admins): %s.", protocol.Echo(k), strings.Join(yours, ", "), strings.Join(rooms, ", "))
}

// RoomSettingsAdmins refuses a change of the room's settings room by
// someone who is no room admin.
func RoomSettingsAdmins(room []string) error {
	return say.Refusef("Only room admins can change the room's settings (%s).", protocol.ClipRunes(strings.Join(room, " "), 80))
}

// BadChoice words a settings.ChoiceRefusal, saying which values the
// setting takes (other errors are returned as they are).
func BadChoice(err error) error {
	var e settings.ChoiceRefusal
	var nl settings.NotLinkedOn
	if errors.As(err, &nl) {
		return say.Refusef("notify_on=%s: you have no %s account linked. Link one with %s first, or choose game (where each game is played) or both.", nl.Platform, nl.Platform, say.Cmd("account link"))
	}
	if !errors.As(err, &e) {
		return err
	}
	choices := map[string]string{
		"notify":    "choose mention, dm or off.",
		"notify_on": "choose game (where each game is played: the default), discord, matrix, console, or both (every account you link).",
		"theme":     "choose wood or dark.",
		"confirm":   "choose touch (the web board asks to confirm a tap on a phone), always or never.",
	}
	return say.Refusef("%s=%s: %s", e.Key, protocol.ClipArg(e.Value), choices[e.Key])
}

// NotOnOff refuses value v of setting k, which is on or off.
func NotOnOff(k, v string) error {
	return say.Refusef("%s=%s: write %s=on or %s=off.", k, protocol.ClipArg(v), k, k)
}

// RulesTooLong refuses options that would make the room's ruleset n
// characters long.
func RulesTooLong(n int) error {
	return say.Refusef("The room's ruleset would be %d characters long; give a ruleset with its options, like rules=japanese ko=positional.", n)
}

// NoWidgets refuses widget= in a room that shows no widgets.
func NoWidgets() error {
	return say.Refusef("widget= is for Matrix rooms, which show a game's board as a room widget; this room cannot.")
}

// WidgetNeedsWeb refuses widget=on where the web board is off.
func WidgetNeedsWeb() error {
	return say.Refusef("widget=on needs the web board, which is not enabled on this bot (its operator turns it on in the config's web: section).")
}

// WidgetNotServed refuses widget=on where the web board serves no
// widget page.
func WidgetNotServed() error {
	return say.Refusef("widget=on: this bot cannot show boards as room widgets yet; its operator must list Element's origins in web.widget_origins (see docs/matrix.md).")
}
