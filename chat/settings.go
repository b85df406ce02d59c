package chat

import (
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/gobotgo/gobot/flow/settings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow/board"
	"github.com/gobotgo/gobot/game"
)

// onOffSetting takes key=on|off out of a room's settings.
func onOffSetting(room []string, key string) (rest []string, on *bool, err error) {
	for _, a := range room {
		k, v, _ := strings.Cut(a, "=")
		if strings.EqualFold(k, key) {
			b, ok := protocol.ParseBool(v)
			if !ok {
				return nil, nil, guide.NotOnOff(key, v)
			}
			on = &b
			continue
		}
		rest = append(rest, a)
	}
	return rest, on, nil
}

// liveImagesSetting takes live_images=… out of a room's settings
// (board.LiveImagesValue).
func liveImagesSetting(room []string) (rest []string, value *string, err error) {
	for _, a := range room {
		k, v, _ := strings.Cut(a, "=")
		if !strings.EqualFold(k, "live_images") {
			rest = append(rest, a)
			continue
		}
		stored, ok := board.LiveImagesValue(v)
		if !ok {
			return nil, nil, say.BadLiveImages(strings.ToLower(v))
		}
		value = &stored
	}
	return rest, value, nil
}

var playerKeys = map[string]bool{"notify": true, "notify_on": true, "theme": true, "rank": true, "confirm": true}

var roomKeys = map[string]bool{"rules": true, "size": true, "komi": true, "clock": true, "threads": true, "engines": true, "widget": true, "live_images": true}

// rankWords joins a rank written in two words, as ranks are spoken:
// "rank=10 kyu", "rank=3 dan", "rank=5 k" are rank=10kyu, rank=3dan,
// rank=5k.
func rankWords(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		k, v, _ := strings.Cut(a, "=")
		if strings.EqualFold(k, "rank") && protocol.AllDigits(v) && i+1 < len(args) {
			switch strings.ToLower(args[i+1]) {
			case "k", "kyu", "d", "dan":
				a += args[i+1]
				i++
			}
		}
		out = append(out, a)
	}
	return out
}

// settingsOnlyShown: `settings` or `settings room` only shows them.
func settingsOnlyShown(a *protocol.Args) bool {
	return len(a.Text) == 0 || len(a.Text) == 1 && strings.EqualFold(a.Text[0], "room")
}

func cmdSettings(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if settingsOnlyShown(a) {
		return asResult(b.showSettings(tx, r))
	}
	args := a.Text
	if strings.EqualFold(args[0], "room") {
		args = args[1:]
	}
	var mine, room []string
	seen := map[string]string{}
	for _, a := range rankWords(args) {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(k)
		if !ok {
			return Result{}, guide.NotKeyValue(a)
		}
		if prev, dup := seen[k]; dup {
			return Result{}, b.usageError("settings", guide.TwoValues(k, prev, a))
		}
		seen[k] = a
		switch {
		case playerKeys[k]:
			mine = append(mine, k+"="+v)
		case roomKeys[k], protocol.IsRulesOption(a):
			room = append(room, a) // ko=simple changes the room's rules
		default:
			return Result{}, guide.NoSetting(k, slices.Sorted(maps.Keys(playerKeys)), slices.Sorted(maps.Keys(roomKeys)))
		}
	}
	if len(room) > 0 && !r.Admin {
		return Result{}, guide.RoomSettingsAdmins(room)
	}
	var o protocol.GameOptions
	room, engines, err := onOffSetting(room, "engines")
	if err != nil {
		return Result{}, err
	}
	room, widget, err := widgetSetting(room, r, b.linker())
	if err != nil {
		return Result{}, err
	}
	room, liveImages, err := liveImagesSetting(room)
	if err != nil {
		return Result{}, err
	}
	if len(room) > 0 {
		if o, err = protocol.ParseOptions(room); err != nil {
			return Result{}, err
		}
	}
	if len(mine) > 0 {
		rank := func(v string) error { return b.stateRank(tx, r, v) }
		// A linked account's settings are its player's (docs/identity.md).
		who, name := r.User.ID, r.User.Name
		if p, err := gobot.PlayerOf(tx, who); err != nil {
			return Result{}, err
		} else if p != who {
			who, name = p, ""
		}
		if err := settings.SetPlayer(tx, who, name, mine, rank, r.Time); err != nil {
			return Result{}, guide.BadChoice(err)
		}
	}
	if len(room) > 0 || engines != nil || widget != nil || liveImages != nil {
		c := settings.RoomChange{Width: o.Width, Height: o.Height, Komi: o.Komi, Threads: o.Threads, Engines: engines, Widget: widget, LiveImages: liveImages}
		if o.Rules != nil {
			if c.Rules, err = b.roomRules(tx, r.Room, o); err != nil {
				return Result{}, err
			}
		}
		if o.Clock != nil {
			clock := protocol.FormatClock(*o.Clock)
			c.Clock = &clock
		}
		if err := settings.SetRoom(tx, r.Room, c, r.Time); err != nil {
			return Result{}, err
		}
	}
	rep, err := b.showSettings(tx, r)
	rep.Text = guide.SettingsSaved(rep.Text, o.Clock)
	return Result{Reply: rep}, err
}

// roomRules is the ruleset o sets a room to: options alone (ko=simple)
// change the room's ruleset.
func (b *core) roomRules(tx gobot.Tx, room gobot.RoomID, o protocol.GameOptions) (*string, error) {
	rules := o.RulesText
	if o.RulesPreset == "" {
		base, err := settings.RoomRules(tx, room, b.cfg.Rules)
		if err != nil {
			return nil, err
		}
		rules = base + " " + o.RulesText
		if _, err := game.ParseRules(rules); err != nil {
			return nil, errorf("%s", protocol.RulesError(err, rules))
		}
		if len(rules) > protocol.MaxRulesText {
			return nil, guide.RulesTooLong(len(rules))
		}
	}
	return &rules, nil
}

func (b *core) showSettings(tx gobot.Tx, r *protocol.Request) (protocol.Reply, error) {
	p := playerIn(tx, r.User.ID)
	var rm gobot.Room
	var rank string
	if rec, err := tx.Rating(communityOf(r), r.User.ID); err == nil {
		rank = rec.Player().RankLabel()
	}
	if x, err := tx.Room(r.Room); err == nil {
		rm = *x
	} else if !errors.Is(err, gobot.ErrNotFound) {
		return protocol.Reply{}, err
	}
	def := gobot.Room{Rules: b.cfg.Rules, Width: b.cfg.Width, Height: b.cfg.Height, Komi: b.cfg.Komi, Clock: b.cfg.Clock}
	accounts, err := gobot.AccountsOf(tx, r.User.ID)
	if err != nil {
		return protocol.Reply{}, err
	}
	text := guide.Settings(p, rank, rm, def, board.LiveImagesShown(&rm), r.Platform.ShowsWidgets(), len(accounts) > 1)
	return protocol.Reply{Title: "Settings", Text: text, Private: true}, nil
}
