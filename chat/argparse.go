package chat

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gobotgo/gobot/game"
)

// Args are a command's arguments, parsed once from its declaration by
// the router before the handler runs. Unset fields are zero.
type Args struct {
	Game      GameID            // an ArgGame: #7
	Challenge ChallengeID       // an ArgChallenge: #3
	User      UserID            // an ArgUser, validated for its platform
	Points    []string          // ArgPoint words as typed ("D4"; a list split at commas); the handler checks them against the board
	Options   gameOptions       // size, rules, colour, komi, handicap, clock
	Rating    ratingOpts        // handicap=auto, and rated/unrated (from the "rated" choice)
	Choice    map[string]string // ArgChoice values by argument name, normalised to one of Choices
	Text      []string          // ArgText words (and the words of a repeated ArgRules)
	Engine    string            // an ArgEngine: engine=gnugo (lower case)
	Level     int               // an ArgLevel: level=1..10
	HasLevel  bool              // Level was given

	typed map[string]string // argument name → what was typed, to name both of two values
	// engineGame is the game a challenge's prepare step asked the engine
	// about.
	engineGame *engineGame
}

// maxRef is the largest game or challenge number a reference may name.
const maxRef = 1_000_000_000_000

// kindKeys are the key=value names each kind answers to ("komi=6.5").
var kindKeys = map[ArgKind][]string{
	ArgSize: {"size", "board"}, ArgRules: {"rules", "ruleset", "rule"}, ArgColor: {"color", "colour"},
	ArgKomi: {"komi", "km"}, ArgHandicap: {"handicap", "ha", "h"}, ArgClock: {"clock", "time"},
	ArgEngine: {"engine", "bot", "computer"}, ArgLevel: {"level", "lvl"},
}

// what describes what an argument looks like, for usage errors.
func (a Arg) what() string {
	switch a.Kind {
	case ArgUser:
		return "a player like @bob"
	case ArgPoint:
		return "a point like D4"
	case ArgGame:
		return "a game like #7"
	case ArgChallenge:
		return "a challenge like #3"
	case ArgSize:
		return "a size like 9, 19 or 13x9"
	case ArgRules:
		return "a ruleset like japanese"
	case ArgColor:
		return "black, white or random"
	case ArgKomi:
		return "komi=6.5"
	case ArgHandicap:
		return "handicap=2"
	case ArgClock:
		return "clock=3d"
	case ArgEngine:
		return "engine=gnugo"
	case ArgLevel:
		return "level=1 to 10"
	case ArgChoice:
		if !slices.Contains(a.Choices, a.Name) {
			return a.Name + "=" + strings.Join(a.Choices, "|")
		}
		return strings.Join(a.Choices, " or ")
	}
	return a.Name
}

// match reports whether word, as typed, is a value of a (by its form)
// and returns the value.
func (a Arg) match(word string) (string, bool) {
	lower := strings.ToLower(word)
	if k, v, kv := strings.Cut(lower, "="); kv {
		for _, key := range kindKeys[a.Kind] {
			if k == key {
				_, v, _ = strings.Cut(word, "=")
				return v, true
			}
		}
		switch {
		case a.Kind == ArgChoice && k == a.Name:
			// name=on|off picks the first or the second of two choices:
			// rated=off is unrated.
			if on, ok := parseBool(v); ok && len(a.Choices) == 2 {
				return a.Choices[map[bool]int{true: 0, false: 1}[on]], true
			}
			return v, true
		case a.Kind == ArgText, a.Kind == ArgRules && a.Repeat:
			return word, true
		case a.Kind == ArgRules && isRulesOption(word):
			return word, true // ko=simple: an option of the ruleset
		}
		return "", false
	}
	switch a.Kind {
	case ArgGame, ArgChallenge:
		if strings.HasPrefix(word, "#") || allDigits(word) {
			return word, true
		}
	case ArgUser:
		return strings.TrimPrefix(word, "@"), len(word) > 1 && word[0] == '@'
	case ArgPoint:
		if a.Repeat {
			for _, p := range strings.Split(word, ",") {
				if p != "" && !looksLikePoint(p) {
					return "", false
				}
			}
			return word, strings.Trim(word, ",") != ""
		}
		return word, looksLikePoint(word)
	case ArgSize:
		return word, word != "" && word[0] >= '0' && word[0] <= '9'
	case ArgRules:
		// A repeated ruleset (the rules command) takes every word:
		// game.ParseRules says what is wrong with one. Otherwise a preset
		// or options of a ruleset (ko=simple).
		_, err := game.Preset(word)
		return word, err == nil || a.Repeat
	case ArgColor:
		return word, lower == "black" || lower == "white" || lower == "random" || lower == "nigiri"
	case ArgClock:
		return word, strings.HasPrefix(lower, "fischer")
	case ArgChoice:
		_, ok := a.choice(lower)
		return word, ok
	case ArgText:
		return word, true
	}
	return "", false
}

// choice normalises a typed choice (synonyms included).
func (a Arg) choice(v string) (string, bool) {
	v = strings.ToLower(v)
	if s, ok := a.Synonyms[v]; ok {
		v = s
	}
	for _, c := range a.Choices {
		if v == c {
			return c, true
		}
	}
	return "", false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// looksLikePoint: "pass", or letters then digits ("D4", "I5", "Z99"); the
// handler says what is wrong with one that is not on the board.
func looksLikePoint(s string) bool {
	if strings.EqualFold(s, "pass") {
		return true
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return i > 0 && i < len(s) && allDigits(s[i:])
}

// parseArgs reads r's arguments against c's declaration: the words
// typed (each recognised by its form, in any order) and the values named
// by argument (Discord options). A word no argument takes, two values for
// one argument, a missing required argument or a malformed value is a
// usage error; nothing has been read or written yet.
func (b *Bot) parseArgs(c *Command, r *Request) (*Args, error) {
	a := &Args{Choice: map[string]string{}, typed: map[string]string{}}
	words := r.Args
	if c.Name == "help" && len(words) > 1 && (strings.EqualFold(words[0], "!go") || strings.EqualFold(words[0], "/go")) {
		words = words[1:] // "help /go play": the platform's prefix copied along
	}
	for i, w := range words {
		if !utf8.ValidString(w) {
			return nil, b.usageError(c.Name, fmt.Sprintf("Argument %d is not valid text (it has bytes that are not UTF-8).", i+1))
		}
	}
	for name, v := range r.Named {
		if !utf8.ValidString(v) || !utf8.ValidString(name) {
			return nil, b.usageError(c.Name, "An option is not valid text (it has bytes that are not UTF-8).")
		}
	}
	for _, w := range words {
		if w == "" {
			continue
		}
		found := false
		for _, arg := range c.Args {
			v, ok := arg.match(w)
			if !ok {
				continue
			}
			if err := b.setArg(c, r, a, arg, v, w); err != nil {
				return nil, err
			}
			found = true
			break
		}
		if !found {
			return nil, b.undeclared(c, a, w)
		}
	}
	for _, name := range sortedKeys(r.Named) {
		v := r.Named[name]
		var arg *Arg
		for i := range c.Args {
			if c.Args[i].Name == name {
				arg = &c.Args[i]
			}
		}
		if arg == nil {
			return nil, b.usageError(c.Name, fmt.Sprintf("%s has no option %s.", c.Name, echo(name)))
		}
		if arg.Kind == ArgUser {
			// Adapters name users by their qualified ID.
			if err := b.setUser(r, a, UserID(v)); err != nil {
				return nil, err
			}
			a.typed[arg.Name] = v
			continue
		}
		if k, rest, kv := strings.Cut(v, "="); kv && slices.Contains(kindKeys[arg.Kind], strings.ToLower(k)) {
			v = rest // "komi=6.5" typed into the komi option
		}
		parts := []string{v}
		if arg.Repeat || arg.Kind == ArgRules {
			parts = strings.Fields(v) // "japanese ko=simple" typed into one option
		}
		for _, p := range parts {
			if err := b.setArg(c, r, a, *arg, p, p); err != nil {
				return nil, err
			}
		}
	}
	for _, arg := range c.Args {
		if _, ok := a.typed[arg.Name]; arg.Required && !ok {
			return nil, b.usageError(c.Name, fmt.Sprintf("%s needs %s.", c.Name, arg.what()))
		}
	}
	return a, nil
}

// undeclared is the usage error for a word that no argument of c takes.
func (b *Bot) undeclared(c *Command, a *Args, w string) error {
	for _, arg := range c.Args {
		if _, given := a.typed[arg.Name]; arg.Required && !given {
			// The word was meant as the argument still missing.
			return b.usageError(c.Name, fmt.Sprintf("%s isn't %s.", echo(w), arg.what()))
		}
	}
	if len(c.Args) == 0 {
		return b.usageError(c.Name, fmt.Sprintf("%s takes no arguments (I got %s).", c.Name, echo(w)))
	}
	var takes []string
	for _, arg := range c.Args {
		takes = append(takes, arg.what())
	}
	return b.usageError(c.Name, fmt.Sprintf("I don't understand %s here: %s takes %s.", echo(w), c.Name, strings.Join(takes, "; ")))
}

// setArg stores value v (typed as word) for arg.
func (b *Bot) setArg(c *Command, r *Request, a *Args, arg Arg, v, word string) error {
	if arg.Kind == ArgRules && !arg.Repeat && isRulesOption(v) {
		// Options of the ruleset join the preset, each at most once.
		for _, f := range strings.Split(v, ",") {
			k, _, _ := strings.Cut(strings.ToLower(f), "=")
			if prev, dup := a.typed["rules "+k]; dup {
				return b.usageError(c.Name, twoValues(k, prev, word))
			}
			a.typed["rules "+k] = word
		}
		if _, ok := a.typed[arg.Name]; !ok {
			a.typed[arg.Name] = word // Required is met
		}
		return addRules(&a.Options, v, true)
	}
	if prev, dup := a.typed[arg.Name]; dup && !arg.Repeat && !(arg.Kind == ArgRules && len(a.Options.rulesOpts) > 0 && a.Options.rulesPreset == "") {
		return b.usageError(c.Name, fmt.Sprintf("Two values for %s: %s and %s — give one.", arg.Name, echo(prev), echo(word)))
	}
	a.typed[arg.Name] = word
	switch arg.Kind {
	case ArgGame, ArgChallenge:
		what := map[ArgKind]string{ArgGame: "game", ArgChallenge: "challenge"}[arg.Kind]
		id, err := parseRefArg(v, what)
		if err != nil {
			return err
		}
		if arg.Kind == ArgGame {
			a.Game = GameID(id)
		} else {
			a.Challenge = ChallengeID(id)
		}
	case ArgUser:
		return b.setUser(r, a, b.userArg(r, "@"+v))
	case ArgPoint:
		for _, p := range strings.Split(v, ",") {
			if p != "" {
				a.Points = append(a.Points, p)
			}
		}
	case ArgRules:
		if arg.Repeat {
			a.Text = append(a.Text, v)
			return nil
		}
		return addRules(&a.Options, v, false)
	case ArgSize:
		return setOption(&a.Options, "size", v, true)
	case ArgColor:
		return setOption(&a.Options, "color", v, true)
	case ArgKomi:
		return setOption(&a.Options, "komi", v, true)
	case ArgHandicap:
		if strings.EqualFold(strings.TrimSpace(v), "auto") {
			a.Rating.Auto = true
			return nil
		}
		return setOption(&a.Options, "handicap", v, true)
	case ArgClock:
		return setOption(&a.Options, "clock", v, true)
	case ArgEngine:
		a.Engine = strings.ToLower(strings.TrimSpace(v))
		if a.Engine == "" {
			return b.usageError(c.Name, "engine= needs a name, like engine=gnugo.")
		}
	case ArgLevel:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 10 {
			return errorf("level=%s won't work: levels go from 1 (weakest) to 10 (strongest), like level=3.", clipArg(v))
		}
		a.Level, a.HasLevel = n, true
	case ArgChoice:
		ch, ok := arg.choice(v)
		if !ok {
			return b.usageError(c.Name, fmt.Sprintf("%s=%s: write %s.", arg.Name, clipArg(v), strings.Join(arg.Choices, " or ")))
		}
		a.Choice[arg.Name] = ch
	case ArgText:
		a.Text = append(a.Text, v)
	}
	return nil
}

// setUser validates u for its platform, which must be the caller's,
// before it is stored or looked up.
func (b *Bot) setUser(r *Request, a *Args, u UserID) error {
	if err := u.Validate(); err != nil {
		return err
	}
	if p := r.User.ID.Platform(); u.Platform() != p {
		return errorf("%s is not a player here: name someone on %s, like @bob.", echo(string(u)), p)
	}
	a.User = u
	return nil
}

// parseRefArg reads "#7" (or "7") as a game or challenge number: 1 up to
// maxRef.
func parseRefArg(s, what string) (uint64, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if !allDigits(t) {
		return 0, errorf("%s is not a %s: %ss are written like #7.", echo(s), what, what)
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > maxRef {
		return 0, errorf("%s is not a %s: no %s has a number that large.", echo(s), what, what)
	}
	if n == 0 {
		return 0, errorf("#0 is not a %s: %ss are numbered from #1.", what, what)
	}
	return n, nil
}

func sortedKeys(m map[string]string) []string {
	keys := make(map[string]bool, len(m))
	for k := range m {
		keys[k] = true
	}
	return sortedNames(keys)
}
