package discord

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"unicode/utf8"
)

// Discord's rules for application commands, as its "Application
// Commands" reference states them; the stand-in for discord.com refuses
// a PUT …/commands that breaks any, with Discord's error shape (code
// 50035, an error tree keyed by the body's path), as Discord would.
const (
	maxOptionsPerLevel = 25
	maxChoices         = 25
	maxCommandChars    = 8000
	maxGlobalCommands  = 100
	maxSafeInteger     = 1<<53 - 1 // an integer option's range lies within ±(2⁵³−1)
)

// Option types (Discord's numbers).
const (
	optSubCommand      = 1
	optSubCommandGroup = 2
	optString          = 3
	optInteger         = 4
	optNumber          = 10
)

// ruleErrors collects refusals as Discord's error tree.
type ruleErrors map[string]any

func (e ruleErrors) add(path []string, code, msg string) {
	node := map[string]any(e)
	for _, p := range path {
		next, ok := node[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			node[p] = next
		}
		node = next
	}
	list, _ := node["_errors"].([]any)
	node["_errors"] = append(list, map[string]any{"code": code, "message": msg})
}

type wireChoice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

type wireOption struct {
	Type         int           `json:"type"`
	Name         string        `json:"name"`
	Description  string        `json:"description"`
	Required     bool          `json:"required"`
	Autocomplete bool          `json:"autocomplete"`
	Choices      []wireChoice  `json:"choices"`
	Options      []*wireOption `json:"options"`
	MinLength    *int          `json:"min_length"`
	MaxLength    *int          `json:"max_length"`
	MinValue     *float64      `json:"min_value"`
	MaxValue     *float64      `json:"max_value"`
}

type wireCommand struct {
	Type        int           `json:"type"`
	Name        string        `json:"name"`
	Description string        `json:"description"`
	Options     []*wireOption `json:"options"`
}

// validName: 1–32 characters, lowercase letters, digits, '-' and '_'
// (a chat-input command's and option's name).
func validName(s string) bool {
	if n := utf8.RuneCountInString(s); n < 1 || n > 32 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

func between(s string, lo, hi int) bool {
	n := utf8.RuneCountInString(s)
	return n >= lo && n <= hi
}

// checkCommands applies Discord's rules to a bulk overwrite's body; it
// returns the error tree (empty: accepted) and each command's character
// total.
func checkCommands(body []byte, global bool) (ruleErrors, []int) {
	errs := ruleErrors{}
	var cmds []json.RawMessage
	if err := json.Unmarshal(body, &cmds); err != nil {
		errs.add(nil, "MODEL_TYPE_CONVERT", "Only iterables may be used in a ListType")
		return errs, nil
	}
	chatInput := 0
	totals := make([]int, len(cmds))
	names := map[string]bool{}
	for i, raw := range cmds {
		var c wireCommand
		if err := json.Unmarshal(raw, &c); err != nil {
			errs.add([]string{strconv.Itoa(i)}, "MODEL_TYPE_CONVERT", "Must be an application command")
			continue
		}
		if c.Type != 0 && c.Type != 1 {
			continue // a user, message or entry point command: not chat input
		}
		chatInput++
		at := []string{strconv.Itoa(i)}
		if !validName(c.Name) {
			errs.add(append(at, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if names[c.Name] {
			errs.add(append(at, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique")
		}
		names[c.Name] = true
		if !between(c.Description, 1, 100) {
			errs.add(append(at, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		totals[i] = utf8.RuneCountInString(c.Name) + utf8.RuneCountInString(c.Description) + checkOptions(errs, append(at, "options"), c.Options, 0)
		if totals[i] > maxCommandChars {
			errs.add(at, "APPLICATION_COMMAND_TOO_LARGE", fmt.Sprintf("Command exceeds maximum size (%d)", maxCommandChars))
		}
	}
	if global && chatInput > maxGlobalCommands {
		errs.add(nil, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxGlobalCommands))
	}
	return errs, totals
}

// checkOptions checks one level of options (depth 0: the command's, 1: a
// group's or a subcommand's, 2: a grouped subcommand's) and returns the
// characters they count.
func checkOptions(errs ruleErrors, at []string, opts []*wireOption, depth int) int {
	total := 0
	if len(opts) > maxOptionsPerLevel {
		errs.add(at, "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxOptionsPerLevel))
	}
	subs, others := 0, 0
	seenOptional := false
	names := map[string]bool{}
	for j, o := range opts {
		oat := append(append([]string(nil), at...), strconv.Itoa(j))
		total += utf8.RuneCountInString(o.Name) + utf8.RuneCountInString(o.Description)
		if !validName(o.Name) {
			errs.add(append(oat, "name"), "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")
		}
		if names[o.Name] {
			errs.add(append(oat, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique")
		}
		names[o.Name] = true
		if !between(o.Description, 1, 100) {
			errs.add(append(oat, "description"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
		}
		switch o.Type {
		case optSubCommand, optSubCommandGroup:
			subs++
			// Groups sit on the command; subcommands on the command or
			// in a group; nothing deeper.
			if o.Type == optSubCommandGroup && depth != 0 || o.Type == optSubCommand && depth > 1 {
				errs.add(append(oat, "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types")
			}
			if o.Type == optSubCommandGroup {
				for k, sub := range o.Options {
					if sub.Type != optSubCommand {
						errs.add(append(oat, "options", strconv.Itoa(k), "type"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "A sub-command group holds only sub-commands")
					}
				}
			}
			total += checkOptions(errs, append(oat, "options"), o.Options, depth+1)
			continue
		}
		others++
		if len(o.Options) > 0 {
			errs.add(append(oat, "options"), "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Only sub-commands and groups have options")
		}
		if o.Required && seenOptional {
			errs.add(append(oat, "required"), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options")
		}
		seenOptional = seenOptional || !o.Required
		if len(o.Choices) > maxChoices {
			errs.add(append(oat, "choices"), "BASE_TYPE_MAX_LENGTH", fmt.Sprintf("Must be %d or fewer in length.", maxChoices))
		}
		if o.Autocomplete && len(o.Choices) > 0 {
			errs.add(append(oat, "autocomplete"), "APPLICATION_COMMAND_OPTION_INVALID", "Autocomplete cannot be set with choices")
		}
		for k, ch := range o.Choices {
			v := fmt.Sprint(ch.Value)
			total += utf8.RuneCountInString(ch.Name) + utf8.RuneCountInString(v)
			if !between(ch.Name, 1, 100) {
				errs.add(append(oat, "choices", strconv.Itoa(k), "name"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
			if s, ok := ch.Value.(string); ok && !between(s, 1, 100) {
				errs.add(append(oat, "choices", strconv.Itoa(k), "value"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
			}
		}
		if o.Type == optString && o.MaxLength != nil && (*o.MaxLength < 1 || *o.MaxLength > 6000) {
			errs.add(append(oat, "max_length"), "NUMBER_TYPE_OUT_OF_RANGE", "Must be between 1 and 6000.")
		}
		if o.Type != optString && (o.MinLength != nil || o.MaxLength != nil) {
			errs.add(append(oat, "max_length"), "APPLICATION_COMMAND_OPTION_INVALID", "Only string options have a length")
		}
		numeric := o.Type == optInteger || o.Type == optNumber
		if !numeric && (o.MinValue != nil || o.MaxValue != nil) {
			errs.add(append(oat, "min_value"), "APPLICATION_COMMAND_OPTION_INVALID", "Only integer and number options have a range")
		}
		for _, v := range []*float64{o.MinValue, o.MaxValue} {
			if v != nil && (*v < -maxSafeInteger || *v > maxSafeInteger || o.Type == optInteger && *v != math.Trunc(*v)) {
				errs.add(append(oat, "min_value"), "NUMBER_TYPE_OUT_OF_RANGE", fmt.Sprintf("Must be between %d and %d.", -maxSafeInteger, maxSafeInteger))
			}
		}
		if o.MinValue != nil && o.MaxValue != nil && *o.MinValue > *o.MaxValue {
			errs.add(append(oat, "min_value"), "APPLICATION_COMMAND_OPTION_INVALID", "min_value must not exceed max_value")
		}
		if len(o.Choices) > 0 && !numeric && o.Type != optString {
			errs.add(append(oat, "choices"), "APPLICATION_COMMAND_OPTION_INVALID", "Only string, integer and number options have choices")
		}
		if len(o.Choices) > 0 && (o.MinValue != nil || o.MaxValue != nil) {
			errs.add(append(oat, "choices"), "APPLICATION_COMMAND_OPTION_INVALID", "Choices cannot be set with a range")
		}
		for k, ch := range o.Choices {
			_, isString := ch.Value.(string)
			f, isNumber := ch.Value.(float64)
			if o.Type == optString && !isString || numeric && !isNumber || o.Type == optInteger && isNumber && f != math.Trunc(f) {
				errs.add(append(oat, "choices", strconv.Itoa(k), "value"), "BASE_TYPE_BAD_TYPE", "A choice's value must be of the option's type")
			}
		}
	}
	if subs > 0 && others > 0 {
		errs.add(at, "APPLICATION_COMMAND_OPTION_TYPE_INVALID", "Sub-command and sub-command group option types are mutually exclusive to all other types")
	}
	return total
}

// refuseCommands answers a PUT …/commands that breaks Discord's rules as
// Discord does (400, code 50035, the error tree) and reports whether it
// did.
func (f *fakeDiscord) refuseCommands(w http.ResponseWriter, body []byte, global bool) bool {
	errs, _ := checkCommands(body, global)
	if len(errs) == 0 {
		return false
	}
	raw, _ := json.Marshal(map[string]any{"code": 50035, "message": "Invalid Form Body", "errors": errs})
	f.violations = append(f.violations, "commands refused: "+string(raw))
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	w.Write(raw)
	return true
}
