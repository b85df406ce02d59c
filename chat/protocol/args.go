package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// RatingOpts are the challenge options about ratings, taken out of the
// arguments before the game options are parsed.
type RatingOpts struct {
	Rated *bool // rated / unrated as typed; nil = the default
	Auto  bool  // handicap=auto
}

// GameOptions are the options of a challenge or a room's defaults, as
// typed; unset fields are nil/zero.
type GameOptions struct {
	Width, Height int
	Rules         *game.Rules
	RulesText     string
	Komi          *float64
	Handicap      *int
	Color         string // black, white, random
	Clock         *gobot.TimeControl
	ClockText     string
	Threads       *bool
	Placement     string // fixed, free, white-passes

	// The ruleset as typed: a preset and options of the rules
	// (ko=simple), in any order; Rules and RulesText are made from them.
	RulesPreset string
	RulesOpts   []string
}

// rulesKeys are the options of a ruleset that may stand on their own
// among a game's options ("japanese ko=simple"). komi, handicap and
// placement are the game's own options there.
var rulesKeys = map[string]bool{"ko": true, "scoring": true, "suicide": true, "passstones": true, "pass-stones": true,
	"pass_stones": true, "bonus": true, "cycle": true, "agreement": true}

// IsRulesOption reports whether word is one or more options of a ruleset
// ("ko=simple", "ko=simple,scoring=area").
func IsRulesOption(word string) bool {
	for _, f := range strings.Split(word, ",") {
		k, _, ok := strings.Cut(f, "=")
		if !ok || !rulesKeys[strings.ToLower(strings.TrimSpace(k))] {
			return false
		}
	}
	return true
}

// RulesBase returns the preset a rules text starts from ("japanese
// ko=positional": japanese), if it names one, and whether the text sets
// the komi itself.
func RulesBase(spec string) (base game.PresetSpec, ok, komiGiven bool) {
	fields := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
	for _, f := range fields {
		if k, _, kv := strings.Cut(strings.ToLower(f), "="); kv && k == "komi" {
			komiGiven = true
		}
	}
	if len(fields) == 0 || strings.Contains(fields[0], "=") {
		return game.PresetSpec{}, false, komiGiven
	}
	base, ok = game.LookupPreset(strings.TrimSuffix(fields[0], ":"))
	return base, ok, komiGiven
}

// twoValues says that option k was given twice, in prev and in word.
func twoValues(k, prev, word string) string {
	if prev == word {
		return fmt.Sprintf("%s is given twice in %s — give it once.", ClipArg(k), Echo(word))
	}
	return fmt.Sprintf("Two values for %s: %s and %s — give one.", ClipArg(k), Echo(prev), Echo(word))
}

// MaxRulesText bounds a ruleset as typed (a room stores it).
const MaxRulesText = 200

// addRules adds a preset (opt false) or options of a ruleset to o and
// makes o's ruleset from all of them: the preset first, then the options
// in the order given.
func addRules(o *GameOptions, word string, opt bool) error {
	if opt {
		o.RulesOpts = append(o.RulesOpts, word)
	} else {
		o.RulesPreset = word
	}
	spec := strings.TrimSpace(o.RulesPreset + " " + strings.Join(o.RulesOpts, " "))
	if len(spec) > MaxRulesText {
		return Refusef("That ruleset is %d characters long; write it in at most %d (each option once).", len(spec), MaxRulesText)
	}
	return setOption(o, "rules", spec, true)
}

// ParseOptions reads settings arguments, recognised by their form in
// any order: a size ("9", "13x9"), a preset name, black/white/random,
// komi=6.5, handicap=2, clock=3d; key=value works for every option
// (size=, rules=, color=, threads= too). An option given twice is an
// error naming both values.
func ParseOptions(args []string) (GameOptions, error) {
	var o GameOptions
	seen := map[string]string{}
	for _, a := range args {
		k, v, kv := strings.Cut(a, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !kv {
			v = a
			switch lower := strings.ToLower(a); {
			case lower == "black" || lower == "white" || lower == "random" || lower == "nigiri":
				k = "color"
			case len(a) > 0 && a[0] >= '0' && a[0] <= '9':
				k = "size"
			case lower == "threads" || lower == "thread":
				k, v = "threads", "on"
			case strings.HasPrefix(lower, "fischer"):
				k = "clock"
			default:
				k = "rules"
			}
		}
		k = canonicalKey(k)
		if prev, dup := seen[k]; dup {
			return o, Refusef("Two values for %s: %s and %s — give one.", k, Echo(prev), Echo(a))
		}
		seen[k] = a
		if kv && IsRulesOption(a) {
			for _, f := range strings.Split(a, ",")[1:] { // the first key is k, checked above
				fk, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(f)), "=")
				if prev, dup := seen[fk]; dup {
					return o, Refusef("%s", twoValues(fk, prev, a))
				}
				seen[fk] = a
			}
			if err := addRules(&o, a, true); err != nil {
				return o, err
			}
			continue
		}
		if k == "rules" {
			if err := addRules(&o, v, false); err != nil {
				if !kv {
					return o, Refusef("I don't understand %s. Give a size (9, 13x9), a ruleset (%s), black/white/random, komi=6.5, handicap=2 or clock=3d.", Echo(a), strings.Join(game.PresetNames(), ", "))
				}
				return o, err
			}
			continue
		}
		if err := setOption(&o, k, v, kv); err != nil {
			if k == "rules" && !kv {
				return o, Refusef("I don't understand %s. Give a size (9, 13x9), a ruleset (%s), black/white/random, komi=6.5, handicap=2 or clock=3d.", Echo(a), strings.Join(game.PresetNames(), ", "))
			}
			return o, err
		}
	}
	return o, nil
}

// canonicalKey maps an option's other spellings to its name.
func canonicalKey(k string) string {
	switch k {
	case "board":
		return "size"
	case "ruleset", "rule":
		return "rules"
	case "km":
		return "komi"
	case "ha", "h":
		return "handicap"
	case "colour":
		return "color"
	case "time":
		return "clock"
	case "thread":
		return "threads"
	}
	return k
}

// setOption sets option k (canonical) to v in o; kv says v was typed as
// key=value.
func setOption(o *GameOptions, k, v string, kv bool) error {
	v = strings.TrimSpace(v)
	switch k {
	case "size":
		w, h, err := game.ParseSize(v)
		if err != nil {
			return Refusef("%s", sizeError(v, err))
		}
		o.Width, o.Height = w, h
	case "rules":
		r, err := game.ParseRules(v)
		if err != nil {
			return Refusef("%s", RulesError(err, v))
		}
		if err := game.CheckKomi(r.Komi); err != nil { // records may carry komi=2.75; new games may not
			return Refusef("rules=%s won't work: komi must be a multiple of 0.5 between -1000 and 1000, like 6.5 or 7", ClipArg(v))
		}
		o.Rules, o.RulesText = &r, v
	case "komi":
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return Refusef("komi=%s is not a number: write it like komi=6.5 or komi=-3", ClipArg(v))
		}
		if err := game.CheckKomi(x); err != nil {
			return Refusef("komi=%s won't work: komi must be a multiple of 0.5 between -1000 and 1000, like 6.5 or 7", ClipArg(v))
		}
		o.Komi = &x
	case "handicap":
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > game.MaxHandicap {
			return Refusef("handicap=%s won't work: give 2 to %d stones, like handicap=2 (or handicap=0 for an even game)", ClipArg(v), game.MaxHandicap)
		}
		o.Handicap = &n
	case "color":
		c := strings.ToLower(v)
		if c == "nigiri" {
			c = "random"
		}
		if c != "black" && c != "white" && c != "random" {
			return Refusef("color=%s: choose black, white or random", ClipArg(v))
		}
		o.Color = c
	case "clock":
		if strings.TrimSpace(v) == "" {
			return Refusef("clock= needs a value, like clock=3d, clock=byoyomi:10m+5x30s or clock=none.")
		}
		c, err := ParseClock(v)
		if err != nil {
			return err
		}
		o.Clock, o.ClockText = &c, v
	case "placement":
		p := strings.ToLower(v)
		if p != "fixed" && p != "free" && p != "white-passes" {
			return Refusef("placement=%s: choose fixed (the marked points), free (Black places them) or white-passes", ClipArg(v))
		}
		o.Placement = p
	case "threads":
		b, ok := ParseBool(v)
		if !ok {
			return Refusef("threads=%s: write threads=on or threads=off", ClipArg(v))
		}
		o.Threads = &b
	default:
		return Refusef("unknown option %s: the options are size, rules, komi, handicap, placement, color, clock", Echo(k))
	}
	return nil
}

// sizeError says why v is no board size: out of range (err is
// game.ErrSizeTooBig or ErrSizeTooTiny) or not a size at all.
func sizeError(v string, err error) string {
	if errors.Is(err, game.ErrSizeTooBig) || errors.Is(err, game.ErrSizeTooTiny) {
		return fmt.Sprintf("size %s won't work: a board is %d to %d lines a side, like 9, 13, 19 or 13x9.", ClipArg(v), game.MinSize, game.MaxSize)
	}
	return fmt.Sprintf("size %s won't work: write the lines a side (%d to %d), like 9, 13, 19 or 13x9.", ClipArg(v), game.MinSize, game.MaxSize)
}

// PointError words err, game.ParsePoint's refusal of word as a point of
// a w×h board: the one wording wherever a point is read (play, dead,
// plan, vote, a review's board), so Z9 on a 9x9 board is refused alike
// in each.
func PointError(word string, w, h int, err error) string {
	switch {
	case errors.Is(err, game.ErrOffBoard):
		return fmt.Sprintf("%s is off the board: this %s board goes from A1 to %s.", ClipArg(word), game.SizeString(w, h), game.Pt(w-1, 0).GTP(h))
	case strings.Contains(strings.ToUpper(word), "I") && !strings.EqualFold(word, "pass"):
		return fmt.Sprintf("%s: there is no column I on a go board (the letters skip from H to J).", Echo(word))
	}
	return fmt.Sprintf("%s isn't a point: write a column letter and a row number, like D4.", Echo(word))
}

// RulesError words err, game.ParseRules's refusal of spec: an unknown
// ruleset gets the nearest preset's name and the list of presets.
func RulesError(err error, spec string) string {
	if errors.Is(err, game.ErrUnknownRules) {
		fields := strings.FieldsFunc(spec, func(r rune) bool { return r == ' ' || r == ',' || r == ';' })
		if len(fields) > 0 && !strings.Contains(fields[0], "=") {
			var names []string
			for _, p := range game.Presets() {
				names = append(names, p.Name)
				names = append(names, p.Aliases...)
			}
			return unknownRules(strings.TrimSuffix(fields[0], ":"), names, "or options like ko=simple scoring=area")
		}
	}
	return clipEchoes(err.Error(), spec)
}

func ParseBool(v string) (bool, bool) {
	switch strings.ToLower(v) {
	case "on", "yes", "true", "1":
		return true, true
	case "off", "no", "false", "0":
		return false, true
	}
	return false, false
}

// parseDuration reads "3d", "12h", "1d12h", "30m", "2w", "30s".
func parseDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, fmt.Errorf("empty duration")
	}
	var total time.Duration
	for s != "" {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i == 0 || i == len(s) {
			return 0, fmt.Errorf("bad duration")
		}
		n, err := strconv.Atoi(s[:i])
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("bad duration")
		}
		var unit time.Duration
		switch s[i] {
		case 's':
			unit = time.Second
		case 'm':
			unit = time.Minute
		case 'h':
			unit = time.Hour
		case 'd':
			unit = 24 * time.Hour
		case 'w':
			unit = 7 * 24 * time.Hour
		default:
			return 0, fmt.Errorf("bad duration unit")
		}
		total += time.Duration(n) * unit
		s = s[i+1:]
	}
	return total, nil
}

// FormatDuration prints a duration the way players read clocks: "2d 4h",
// "5h 30m", "12m"; under ten minutes with seconds: "1m 58s", "45s".
func FormatDuration(d time.Duration) string {
	if d < 10*time.Minute {
		d = d.Truncate(time.Second)
		if d <= 0 {
			return "0s"
		}
		m, sec := d/time.Minute, (d%time.Minute)/time.Second
		switch {
		case m == 0:
			return fmt.Sprintf("%ds", sec)
		case sec == 0:
			return fmt.Sprintf("%dm", m)
		}
		return fmt.Sprintf("%dm %ds", m, sec)
	}
	days := d / (24 * time.Hour)
	d -= days * 24 * time.Hour
	hours := d / time.Hour
	d -= hours * time.Hour
	mins := d / time.Minute
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%dd", days))
	}
	if hours > 0 {
		parts = append(parts, fmt.Sprintf("%dh", hours))
	}
	if mins > 0 && days == 0 {
		parts = append(parts, fmt.Sprintf("%dm", mins))
	}
	return strings.Join(parts, " ")
}
