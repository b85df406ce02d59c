package protocol

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Args are a command's arguments, parsed once from its declaration by
// chat's router before the handler runs. Unset fields are zero.
type Args struct {
	Game      gobot.GameID      // an ArgGame: #7
	Challenge gobot.ChallengeID // an ArgChallenge: #3
	User      gobot.UserID      // an ArgUser, validated for its platform
	Points    []string          // ArgPoint words as typed ("D4"; a list split at commas); the handler checks them against the board
	Options   GameOptions       // size, rules, colour, komi, handicap, clock
	Rating    RatingOpts        // handicap=auto, and rated/unrated (from the "rated" choice)
	Choice    map[string]string // ArgChoice values by argument name, normalised to one of Choices
	Text      []string          // ArgText words (and the words of a repeated ArgRules)
	Engine    string            // an ArgEngine: engine=gnugo (lower case)
	Level     int               // an ArgLevel: level=1..10
	HasLevel  bool              // Level was given
	Vote      time.Duration     // an ArgVote: vote=10m (a room-vote game's window)
	Teams     [2][]gobot.UserID // an ArgTeams: the players before "vs" and after it, in order (teams.go)
	Review    gobot.ReviewID    // an ArgReview: r5

	typed map[string]string // argument name → what was typed, to name both of two values
}

// MaxRef is the largest game or challenge number a reference may name.
const MaxRef = 1_000_000_000_000

// kindKeys are the key=value names each kind answers to ("komi=6.5").
var kindKeys = map[ArgKind][]string{
	ArgSize: {"size", "board"}, ArgRules: {"rules", "ruleset", "rule"}, ArgColor: {"color", "colour"},
	ArgKomi: {"komi", "km"}, ArgHandicap: {"handicap", "ha", "h"}, ArgClock: {"clock", "time"},
	ArgEngine: {"engine", "bot", "computer"}, ArgLevel: {"level", "lvl"},
	ArgVote: {"vote"},
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
	case ArgReview:
		return "a review like r3"
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
	case ArgVote:
		return "vote=10m"
	case ArgTeams:
		return "players like @alice @bob vs @carol @dave"
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
			if on, ok := ParseBool(v); ok && len(a.Choices) == 2 {
				return a.Choices[map[bool]int{true: 0, false: 1}[on]], true
			}
			return v, true
		case a.Kind == ArgText, a.Kind == ArgRules && a.Repeat:
			return word, true
		case a.Kind == ArgRules && IsRulesOption(word):
			return word, true // ko=simple: an option of the ruleset
		}
		return "", false
	}
	switch a.Kind {
	case ArgGame, ArgChallenge:
		if strings.HasPrefix(word, "#") || AllDigits(word) {
			return word, true
		}
	case ArgReview:
		return word, len(word) > 1 && (word[0] == 'r' || word[0] == 'R') && AllDigits(word[1:])
	case ArgUser:
		return strings.TrimPrefix(word, "@"), len(word) > 1 && word[0] == '@'
	case ArgTeams:
		return word, len(word) > 1 && word[0] == '@' || isVersus(word)
	case ArgPoint:
		if a.Repeat {
			for _, p := range strings.Split(word, ",") {
				if p != "" && !LooksLikePoint(p) {
					return "", false
				}
			}
			return word, strings.Trim(word, ",") != ""
		}
		return word, LooksLikePoint(word)
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

func AllDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// LooksLikePoint: "pass", or letters then digits ("D4", "I5", "Z99"); the
// handler says what is wrong with one that is not on the board.
func LooksLikePoint(s string) bool {
	if strings.EqualFold(s, "pass") {
		return true
	}
	i := 0
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	return i > 0 && i < len(s) && AllDigits(s[i:])
}

// ParseArgs reads r's arguments against c's declaration: the words
// typed (each recognised by its form, in any order) and the values named
// by argument (Discord options). A word no argument takes, two values for
// one argument, a missing required argument or a malformed value is a
// usage error; nothing has been read or written yet.
func ParseArgs(c *Decl, r *Request) (*Args, error) {
	a := &Args{Choice: map[string]string{}, typed: map[string]string{}}
	words := r.Args
	if c.Name == "help" && len(words) > 1 && (strings.EqualFold(words[0], "!go") || strings.EqualFold(words[0], "/go") || strings.EqualFold(words[0], "/gobot")) {
		words = words[1:] // "help /go play", "help /gobot rating": the platform's prefix copied along
	}
	for i, w := range words {
		if !utf8.ValidString(w) {
			return nil, c.UsageError(fmt.Sprintf("Argument %d is not valid text (it has bytes that are not UTF-8).", i+1))
		}
	}
	for name, v := range r.Named {
		if !utf8.ValidString(v) || !utf8.ValidString(name) {
			return nil, c.UsageError("An option is not valid text (it has bytes that are not UTF-8).")
		}
	}
	if c.takesElsewhere() {
		// A player of another platform of the room's community, as typed
		// there ("@bob:example.org" on Discord), is named by their
		// qualified ID like any player.
		words = slices.Clone(words)
		for i, w := range words {
			if u, ok := TypedUser(r.Elsewhere, r.User.ID.Platform(), w); ok {
				words[i] = "@" + string(u)
			}
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
			if err := setArg(c, r, a, arg, v, w); err != nil {
				return nil, err
			}
			found = true
			break
		}
		if !found {
			return nil, undeclared(c, a, w)
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
			return nil, c.UsageError(fmt.Sprintf("%s has no option %s.", c.Name, Echo(name)))
		}
		if arg.Kind == ArgUser {
			// Adapters name users by their qualified ID.
			set := setUser
			if arg.Elsewhere {
				set = setUserElsewhere
			}
			if err := set(r, a, gobot.UserID(v)); err != nil {
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
			if err := setArg(c, r, a, *arg, p, p); err != nil {
				return nil, err
			}
		}
	}
	for _, arg := range c.Args {
		if _, ok := a.typed[arg.Name]; arg.Required && !ok {
			return nil, c.UsageError(fmt.Sprintf("%s needs %s.", c.Name, arg.what()))
		}
	}
	return a, nil
}

// undeclared is the usage error for a word that no argument of c takes:
// what is wrong with that word, as far as its form tells (a size out of
// range, a misspelt ruleset, a bare @), else what c takes.
func undeclared(c *Decl, a *Args, w string) error {
	for _, arg := range c.Args {
		if _, given := a.typed[arg.Name]; arg.Required && !given {
			// The word was meant as the argument still missing.
			return c.UsageError(fmt.Sprintf("%s isn't %s.", Echo(w), arg.what()))
		}
	}
	if len(c.Args) == 0 {
		return c.UsageError(fmt.Sprintf("%s takes no arguments (I got %s).", c.Name, Echo(w)))
	}
	lower := strings.ToLower(w)
	kind := wordKind(w)
	switch {
	case w == "@" && c.takes(ArgUser):
		return c.UsageError("A bare @ names nobody: write the player's name right after it, like @bob.")
	case kind == ArgSize && c.takes(ArgSize):
		_, _, err := game.ParseSize(w)
		if err == nil {
			err = game.ErrBadSize // "+9": sizes are plain digits
		}
		return c.UsageError(sizeError(w, err))
	case kind == ArgSize && (c.takes(ArgGame) || c.takes(ArgChallenge)):
		what := map[bool]string{true: "game", false: "challenge"}[c.takes(ArgGame)]
		_, err := ParseRef(w, what)
		return c.UsageError(err.Error())
	case strings.Contains(w, "="):
		k, _, _ := strings.Cut(lower, "=")
		keys := c.optionKeys()
		if len(keys) == 0 {
			return c.UsageError(c.takesOrHelp(fmt.Sprintf("%s takes no options like key=value (I got %s)", c.Name, Echo(w))))
		}
		n, ok := Nearest(k, keys)
		switch {
		case ok && n == k:
			return c.UsageError(fmt.Sprintf("I can't read %s: give each option as its own key=value, like ko=simple komi=6.5.", Echo(w)))
		case ok:
			return c.UsageError(fmt.Sprintf("%s has no option %s; did you mean %s=?", c.Name, Echo(k), n))
		}
		return c.UsageError(fmt.Sprintf("%s has no option %s. Options: %s.", c.Name, Echo(k), c.optionList()))
	case kind == ArgRules && c.choiceArg(lower) != nil:
		// "challenge vacation": an option's name without its value.
		arg := c.choiceArg(lower)
		var ways []string
		for _, ch := range arg.Choices {
			ways = append(ways, arg.Name+"="+ch)
		}
		return c.UsageError(fmt.Sprintf("%s is an option with a value: write %s. %s.", arg.Name, strings.Join(ways, " or "), strings.TrimSuffix(arg.Help, ".")))
	case kind == ArgRules && c.takes(ArgRules):
		if _, near := Nearest(lower, c.wordsTaken()); !near && c.takes(ArgUser) && a.User == "" && isWord(w, maxNameRunes) {
			// "challenge bob": a player meant, not a ruleset.
			return c.UsageError(fmt.Sprintf("I don't know the ruleset %s; to name a player, write @%s.", Echo(w), ClipArg(w)))
		}
		also := ""
		if other := c.otherWords(); other != "" {
			also = c.Name + " also takes " + other
		}
		return c.UsageError(unknownRules(w, c.wordsTaken(), also))
	case kind == ArgRules:
		if n, ok := Nearest(lower, c.wordsTaken()); ok {
			return c.UsageError(fmt.Sprintf("I don't know %s; did you mean %s?", Echo(w), n))
		}
	case kind == ArgGame && !c.takes(ArgGame) && !c.takes(ArgChallenge):
		return c.UsageError(fmt.Sprintf("%s takes no game or challenge number (I got %s).", c.Name, Echo(w)))
	case kind == ArgUser || kind == ArgPoint || kind == ArgSize:
		if !c.takes(kind) {
			what := map[ArgKind]string{ArgUser: "player", ArgPoint: "point", ArgSize: "number"}[kind]
			return c.UsageError(c.takesOrHelp(fmt.Sprintf("%s takes no %s (I got %s)", c.Name, what, Echo(w))))
		}
	}
	msg := fmt.Sprintf("I don't understand %s here: %s takes %s.", Echo(w), c.Name, c.takesList())
	if len(msg) > MaxRefusal {
		msg = fmt.Sprintf("I don't understand %s here; %s says what %s takes.", Echo(w), Cmd("help "+c.Name), c.Name)
	}
	return c.UsageError(msg)
}

// unknownRules says that w names no ruleset, with the nearest name of one
// (or of another word the command takes) if w is a near miss, and the
// presets; also, if not empty, is added: what else the words could be.
func unknownRules(w string, words []string, also string) string {
	msg := fmt.Sprintf("I don't know the ruleset %s", Echo(w))
	if n, ok := Nearest(w, words); ok {
		p, isRules := game.LookupPreset(n)
		if !isRules {
			return fmt.Sprintf("I don't know %s; did you mean %s?", Echo(w), n)
		}
		msg += fmt.Sprintf("; did you mean %s?", p.Name) // an alias stands for its preset
	} else {
		msg += "."
	}
	msg += " Presets: " + strings.Join(game.PresetNames(), ", ")
	if also != "" {
		msg += "; " + also
	}
	return msg + "."
}

// wordKind tells by its form what a word is meant to be: a player (@bob),
// a game or challenge (#7), a point (D4), a number or size (9, -9, 13x9),
// or a name (a ruleset, a colour, a choice); 0 for anything else.
func wordKind(w string) ArgKind {
	switch {
	case strings.HasPrefix(w, "@"):
		return ArgUser
	case strings.HasPrefix(w, "#"):
		return ArgGame
	case LooksLikePoint(w):
		return ArgPoint
	case strings.IndexFunc(w, func(r rune) bool { return r >= '0' && r <= '9' }) >= 0 &&
		strings.Trim(strings.ToLower(w), "0123456789x+-.×:, ") == "":
		return ArgSize
	case strings.Trim(strings.ToLower(w), "abcdefghijklmnopqrstuvwxyz-_") == "" && strings.Trim(w, "-_") != "":
		return ArgRules
	}
	return 0
}

// takesElsewhere reports whether c takes a player of another platform
// (Arg.Elsewhere).
func (c *Decl) takesElsewhere() bool {
	return slices.ContainsFunc(c.Args, func(a Arg) bool { return a.Elsewhere })
}

// takes reports whether c has an argument of kind k.
func (c *Decl) takes(k ArgKind) bool {
	for _, a := range c.Args {
		if a.Kind == k {
			return true
		}
	}
	return false
}

// takesOrHelp ends refusal s with what c takes, or, when that would
// make the refusal too long (a command with many options), with where to
// read it.
func (c *Decl) takesOrHelp(s string) string {
	if msg := s + "; it takes " + c.takesList() + "."; len(msg) <= MaxRefusal {
		return msg
	}
	return fmt.Sprintf("%s; %s says what it takes.", s, Cmd("help "+c.Name))
}

// takesList names what each of c's arguments looks like.
func (c *Decl) takesList() string {
	var takes []string
	for _, arg := range c.Args {
		takes = append(takes, arg.what())
	}
	return strings.Join(takes, "; ")
}

// optionKeys are the keys c takes as key=value, for spelling
// suggestions.
func (c *Decl) optionKeys() []string {
	var keys []string
	for _, a := range c.Args {
		keys = append(keys, kindKeys[a.Kind]...)
		if a.Kind == ArgChoice {
			keys = append(keys, a.Name)
		}
		if a.Kind == ArgRules {
			keys = append(keys, slices.Sorted(maps.Keys(rulesKeys))...)
		}
	}
	return keys
}

// choiceArg is c's key=value choice named word (vacation, for
// vacation=off), or nil; a choice whose values are words of their own
// (rated, unrated) is none.
func (c *Decl) choiceArg(word string) *Arg {
	for i, a := range c.Args {
		if a.Kind == ArgChoice && a.Name == word && !slices.Contains(a.Choices, word) && len(a.Choices) > 0 {
			return &c.Args[i]
		}
	}
	return nil
}

// optionList names c's key=value options, one key each.
func (c *Decl) optionList() string {
	var keys []string
	for _, a := range c.Args {
		switch {
		case a.Kind == ArgChoice:
			keys = append(keys, a.Name)
		case len(kindKeys[a.Kind]) > 0:
			keys = append(keys, kindKeys[a.Kind][0])
		}
		if a.Kind == ArgRules {
			keys = append(keys, "ko", "scoring", "suicide", "passstones", "bonus", "cycle", "agreement")
		}
	}
	if len(keys) == 0 {
		return "none"
	}
	return strings.Join(keys, ", ")
}

// wordsTaken are the plain words c takes: rulesets with their other
// names, colours, choices and their synonyms, "pass".
func (c *Decl) wordsTaken() []string {
	var words []string
	for _, a := range c.Args {
		switch a.Kind {
		case ArgRules:
			for _, p := range game.Presets() {
				words = append(words, p.Name)
				words = append(words, p.Aliases...)
			}
		case ArgColor:
			words = append(words, "black", "white", "random", "nigiri")
		case ArgChoice:
			words = append(words, a.Choices...)
			words = append(words, sortedKeys(a.Synonyms)...)
		case ArgPoint:
			words = append(words, "pass")
		}
	}
	return words
}

// otherWords lists the plain words c takes besides rulesets: "black,
// white, random, rated, unrated".
func (c *Decl) otherWords() string {
	var ws []string
	for _, a := range c.Args {
		switch a.Kind {
		case ArgColor:
			ws = append(ws, "black", "white", "random")
		case ArgChoice:
			if slices.Contains(a.Choices, a.Name) {
				ws = append(ws, a.Choices...)
			}
		}
	}
	return strings.Join(ws, ", ")
}

// setArg stores value v (typed as word) for arg.
func setArg(c *Decl, r *Request, a *Args, arg Arg, v, word string) error {
	if arg.Kind == ArgRules && !arg.Repeat && IsRulesOption(v) {
		// Options of the ruleset join the preset, each at most once.
		for _, f := range strings.Split(v, ",") {
			k, _, _ := strings.Cut(strings.ToLower(f), "=")
			if prev, dup := a.typed["rules "+k]; dup {
				return c.UsageError(twoValues(k, prev, word))
			}
			a.typed["rules "+k] = word
		}
		if _, ok := a.typed[arg.Name]; !ok {
			a.typed[arg.Name] = word // Required is met
		}
		return addRules(&a.Options, v, true)
	}
	if prev, dup := a.typed[arg.Name]; dup && !arg.Repeat && !(arg.Kind == ArgRules && len(a.Options.RulesOpts) > 0 && a.Options.RulesPreset == "") {
		return c.UsageError(fmt.Sprintf("Two values for %s: %s and %s — give one.", arg.Name, Echo(prev), Echo(word)))
	}
	a.typed[arg.Name] = word
	switch arg.Kind {
	case ArgGame, ArgChallenge:
		what := map[ArgKind]string{ArgGame: "game", ArgChallenge: "challenge"}[arg.Kind]
		id, err := ParseRef(v, what)
		if err != nil {
			return err
		}
		if arg.Kind == ArgGame {
			a.Game = gobot.GameID(id)
		} else {
			a.Challenge = gobot.ChallengeID(id)
		}
	case ArgReview:
		id, err := ParseReviewRef(v)
		if err != nil {
			return err
		}
		a.Review = id
	case ArgUser:
		if arg.Elsewhere {
			return setUserElsewhere(r, a, userArg(r, "@"+v))
		}
		return setUser(r, a, userArg(r, "@"+v))
	case ArgTeams:
		return addTeamWord(c, r, a, v)
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
			return c.UsageError("engine= needs a name, like engine=gnugo.")
		}
	case ArgLevel:
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > 10 {
			return Refusef("level=%s won't work: levels go from 1 (weakest) to 10 (strongest), like level=3.", ClipArg(v))
		}
		a.Level, a.HasLevel = n, true
	case ArgVote:
		d, err := parseDuration(strings.ToLower(strings.TrimSpace(v)))
		if err != nil || d < gobot.MinVoteWindow || d > gobot.MaxVoteWindow {
			return Refusef("vote=%s won't work: the voting window goes from 5 seconds to 7 days, like vote=30s, vote=10m or vote=1d.", ClipArg(v))
		}
		a.Vote = d
	case ArgChoice:
		ch, ok := arg.choice(v)
		if !ok {
			return c.UsageError(fmt.Sprintf("%s=%s: write %s.", arg.Name, ClipArg(v), strings.Join(arg.Choices, " or ")))
		}
		a.Choice[arg.Name] = ch
		if len(c.Verbs) > 0 && arg.Name == c.Args[0].Name {
			if i := slices.IndexFunc(c.Verbs, func(v Verb) bool { return v.Name == ch }); i >= 0 {
				c.verb = &c.Verbs[i]
			}
		}
	case ArgText:
		a.Text = append(a.Text, v)
	}
	return nil
}

// setUser validates u for its platform, which must be the caller's,
// before it is stored or looked up.
func setUser(r *Request, a *Args, u gobot.UserID) error {
	if err := playerHere(r, u); err != nil {
		return err
	}
	a.User = u
	return nil
}

// setUserElsewhere is setUser for an argument that may name a player
// of another platform of the room's community (Arg.Elsewhere): such a
// player's ID is checked for its shape here, and by the bot against
// their platform (its local part may be a name to look up).
func setUserElsewhere(r *Request, a *Args, u gobot.UserID) error {
	if u.Platform() == r.User.ID.Platform() {
		return setUser(r, a, u)
	}
	if !slices.ContainsFunc(r.Elsewhere, func(p *Platform) bool { return p != nil && p.Name == u.Platform() }) {
		return setUser(r, a, u) // not a platform the room's community reaches
	}
	if err := validUserShape(u); err != nil {
		return err
	}
	a.User = u
	return nil
}

// playerHere checks that u is a valid user of the caller's platform.
func playerHere(r *Request, u gobot.UserID) error {
	if err := r.Platform.ValidateUser(u); err != nil {
		return err
	}
	if p := r.User.ID.Platform(); u.Platform() != p {
		return Refusef("%s is not a player here: name someone on %s, like @bob.", Echo(string(u)), p)
	}
	return nil
}

// ParseRef reads "#7" (or "7") as a game or challenge number: 1 up to
// MaxRef.
func ParseRef(s, what string) (uint64, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "#")
	if !AllDigits(t) {
		return 0, Refusef("%s is not a %s: %ss are written like #7.", Echo(s), what, what)
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > MaxRef {
		return 0, Refusef("%s is not a %s: no %s has a number that large.", Echo(s), what, what)
	}
	if n == 0 {
		return 0, Refusef("#0 is not a %s: %ss are numbered from #1.", what, what)
	}
	return n, nil
}

// ParseReviewRef reads a review's reference, "r5" (a Discord option may
// hold the bare number).
func ParseReviewRef(s string) (gobot.ReviewID, error) {
	t := strings.TrimSpace(s)
	if len(t) > 0 && (t[0] == 'r' || t[0] == 'R') {
		t = t[1:]
	}
	if !AllDigits(t) {
		return 0, Refusef("%s is not a review: reviews are written like r3 (games like #3).", Echo(s))
	}
	n, err := strconv.ParseUint(t, 10, 64)
	if err != nil || n > MaxRef {
		return 0, Refusef("%s is not a review: no review has a number that large.", Echo(s))
	}
	if n == 0 {
		return 0, Refusef("r0 is not a review: reviews are numbered from r1.")
	}
	return gobot.ReviewID(n), nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Decl is what the parser reads of a command's declaration: its name and
// arguments (chat's Command holds the rest).
type Decl struct {
	Name string
	Args []Arg
	// Verbs are a command with verbs' verbs (verb.go): once the verb is
	// read, a usage error gives that verb's synopsis.
	Verbs []Verb
	verb  *Verb // the verb read, if any
}

// Usage returns the command's synopsis: "play <point> [#game]"; for a
// command with verbs whose verb has been read, that verb's:
// "tournament join [tournament]".
func (c *Decl) Usage() string {
	if c.verb != nil {
		return c.verb.Usage(c.Name)
	}
	var sb strings.Builder
	sb.WriteString(c.Name)
	for _, a := range c.Args {
		name := a.Name
		if a.Kind == ArgChoice && slices.Contains(a.Choices, a.Name) {
			name = strings.Join(a.Choices, "|") // [on|off], not [on]
		}
		if a.Repeat {
			name += "…"
		}
		if a.Required {
			fmt.Fprintf(&sb, " <%s>", name)
		} else {
			fmt.Fprintf(&sb, " [%s]", name)
		}
	}
	return sb.String()
}

// UsageError says what is wrong and, where the refusal stays within
// MaxRefusal bytes, the command's usage.
func (c *Decl) UsageError(what string) error {
	if s := what + " Usage: " + UsageToken(c.Usage()); len(s) <= MaxRefusal {
		return Refusef("%s", s)
	}
	return Refusef("%s", what)
}

// userArg turns "@bob" or "@discord:123" into a platform-qualified ID.
func userArg(r *Request, a string) gobot.UserID {
	id := strings.TrimPrefix(a, "@")
	for _, m := range r.Mentions {
		if string(m.ID) == id {
			return m.ID
		}
	}
	if !strings.Contains(id, ":") {
		return gobot.UserID(r.User.ID.Platform() + ":" + id)
	}
	return gobot.UserID(id)
}
