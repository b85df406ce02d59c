package chat

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

// enginesSetting takes engines=on|off out of a room's settings.
func enginesSetting(room []string) (rest []string, on *bool, err error) {
	for _, a := range room {
		k, v, _ := strings.Cut(a, "=")
		if strings.EqualFold(k, "engines") {
			b, ok := protocol.ParseBool(v)
			if !ok {
				return nil, nil, errorf("engines=%s: write engines=on or engines=off.", protocol.ClipArg(v))
			}
			on = &b
			continue
		}
		rest = append(rest, a)
	}
	return rest, on, nil
}

var playerKeys = map[string]bool{"notify": true, "theme": true, "rank": true, "confirm": true}
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
	args := a.Text
	if len(args) > 0 && strings.EqualFold(args[0], "room") {
		args = args[1:]
		if len(args) == 0 {
			return asResult(b.showSettings(tx, r))
		}
	}
	if len(args) == 0 {
		return asResult(b.showSettings(tx, r))
	}
	var mine, room []string
	seen := map[string]string{}
	for _, a := range rankWords(args) {
		k, v, ok := strings.Cut(a, "=")
		k = strings.ToLower(k)
		if !ok {
			return Result{}, errorf("Write settings as key=value, like notify=dm or theme=dark (I got %s).", protocol.Echo(a))
		}
		if prev, dup := seen[k]; dup {
			return Result{}, b.usageError("settings", fmt.Sprintf("Two values for %s: %s and %s — give one.", protocol.ClipArg(k), protocol.Echo(prev), protocol.Echo(a)))
		}
		seen[k] = a
		switch {
		case playerKeys[k]:
			mine = append(mine, k+"="+v)
		case roomKeys[k], protocol.IsRulesOption(a):
			room = append(room, a) // ko=simple changes the room's rules
		default:
			if n, ok := protocol.Nearest(k, append(sortedNames(playerKeys), sortedNames(roomKeys)...)); ok {
				return Result{}, errorf("There is no setting %s; did you mean %s=?", protocol.Echo(k), n)
			}
			return Result{}, errorf("There is no setting %s. Yours: %s. The room's (admins): %s.", protocol.Echo(k), strings.Join(sortedNames(playerKeys), ", "), strings.Join(sortedNames(roomKeys), ", "))
		}
	}
	if len(room) > 0 && !r.Admin {
		return Result{}, errorf("Only room admins can change the room's settings (%s).", protocol.ClipRunes(strings.Join(room, " "), 80))
	}
	var o protocol.GameOptions
	room, engines, err := enginesSetting(room)
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
		var err error
		if o, err = protocol.ParseOptions(room); err != nil {
			return Result{}, err
		}
	}
	err = func() error {
		if len(mine) > 0 {
			p, err := tx.Player(r.User.ID)
			if err != nil {
				if !errors.Is(err, gobot.ErrNotFound) {
					return err
				}
				p = &gobot.Player{ID: r.User.ID, Name: r.User.Name}
			}
			for _, kv := range mine {
				k, v, _ := strings.Cut(kv, "=")
				v = strings.ToLower(v)
				switch k {
				case "notify":
					if v != "mention" && v != "dm" && v != "off" {
						return errorf("notify=%s: choose mention, dm or off.", protocol.ClipArg(v))
					}
					p.Notify = v
				case "theme":
					if v != "wood" && v != "dark" {
						return errorf("theme=%s: choose wood or dark.", protocol.ClipArg(v))
					}
					p.Theme = v
				case "confirm":
					if v != "touch" && v != "always" && v != "never" {
						return errorf("confirm=%s: choose touch (the web board asks to confirm a tap on a phone), always or never.", protocol.ClipArg(v))
					}
					p.Confirm = v
				case "rank":
					if err := b.stateRank(tx, r, v); err != nil {
						return err
					}
				}
			}
			p.Updated = r.Time
			if err := tx.PutPlayer(p); err != nil {
				return err
			}
		}
		if len(room) > 0 || engines != nil || widget != nil || liveImages != nil {
			rm, err := tx.Room(r.Room)
			if err != nil {
				if !errors.Is(err, gobot.ErrNotFound) {
					return err
				}
				rm = &gobot.Room{ID: r.Room}
			}
			if o.Rules != nil {
				rules := o.RulesText
				if o.RulesPreset == "" {
					// Options alone (ko=simple) change the room's ruleset.
					current := rm.Rules
					if current == "" {
						current = b.cfg.Rules
					}
					rules = current + " " + o.RulesText
					if _, err := game.ParseRules(rules); err != nil {
						return errorf("%s", protocol.RulesError(err, rules))
					}
					if len(rules) > protocol.MaxRulesText {
						return errorf("The room's ruleset would be %d characters long; give a ruleset with its options, like rules=japanese ko=positional.", len(rules))
					}
				}
				rm.Rules = rules
			}
			if o.Width > 0 {
				rm.Width, rm.Height = o.Width, o.Height
			}
			if o.Komi != nil {
				rm.Komi = o.Komi
			}
			if o.Clock != nil {
				rm.Clock = protocol.FormatClock(*o.Clock)
			}
			if o.Threads != nil {
				rm.Threads = *o.Threads
			}
			if engines != nil {
				rm.NoEngines = !*engines
			}
			if widget != nil {
				rm.Widget = *widget
			}
			if liveImages != nil {
				rm.LiveImages = *liveImages
			}
			rm.Updated = r.Time
			return tx.PutRoom(rm)
		}
		return nil
	}()
	if err != nil {
		return Result{}, err
	}
	rep, err := b.showSettings(tx, r)
	rep.Text = "Saved.\n" + rep.Text
	if o.Clock != nil && say.ClockNote(*o.Clock) != "" {
		rep.Text += "\n" + strings.TrimSpace(say.ClockNote(*o.Clock))
	}
	return Result{Reply: rep}, err
}

func (b *core) showSettings(tx gobot.Tx, r *protocol.Request) (protocol.Reply, error) {
	p := playerIn(tx, r.User.ID)
	var rm gobot.Room
	var rank string
	if rec, err := tx.Rating(communityOf(r), r.User.ID); err == nil {
		rank = " rank=" + rec.Player().RankLabel()
	}
	if x, err := tx.Room(r.Room); err == nil {
		rm = *x
	} else if !errors.Is(err, gobot.ErrNotFound) {
		return protocol.Reply{}, err
	}
	or := func(s, def string) string {
		if s == "" {
			return def
		}
		return s
	}
	size := game.SizeString(b.cfg.Width, b.cfg.Height)
	if rm.Width > 0 {
		size = game.SizeString(rm.Width, rm.Height)
	}
	komi := "by ruleset"
	if b.cfg.Komi != nil {
		komi = game.FormatKomi(*b.cfg.Komi)
	}
	if rm.Komi != nil {
		komi = game.FormatKomi(*rm.Komi)
	}
	widget := ""
	if r.Platform.ShowsWidgets() {
		widget = " widget=" + map[bool]string{true: "on", false: "off"}[rm.Widget]
	}
	text := fmt.Sprintf("You: notify=%s theme=%s confirm=%s%s\nThis room: rules=%s size=%s komi=%s clock=%s threads=%s engines=%s live_images=%s%s\nChange yours with %s; admins change the room's with %s.",
		or(p.Notify, "mention"), or(p.Theme, "wood"), or(p.Confirm, "touch"), rank, or(rm.Rules, b.cfg.Rules), size, komi, or(rm.Clock, or(b.cfg.Clock, "none")),
		map[bool]string{true: "on", false: "off"}[rm.Threads], map[bool]string{true: "off", false: "on"}[rm.NoEngines], liveImagesShown(&rm), widget, b.cmd("settings notify=dm theme=dark"), b.cmd("settings room rules=japanese size=19 clock=3d"))
	return protocol.Reply{Title: "Settings", Text: text, Private: true}, nil
}
