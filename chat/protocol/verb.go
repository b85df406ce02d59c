package protocol

import (
	"strings"
)

// A command with verbs (`tournament new`, `ladder challenge`) takes the
// verb as its first argument, a choice among its verbs' names, and each
// verb declares, as data, the options it takes and how each is written
// in the command's words. Typed, the command is one line as any other
// (`tournament result #12 B+`). A platform whose commands are menus
// (Discord) makes such a command one of its own, with a subcommand per
// verb that has only that verb's options, and turns the options given
// back into the words typing the verb gives (Verb.Typed): the command
// is then parsed from its declaration as if typed.

// Verb is one verb of a command with verbs.
type Verb struct {
	Name    string
	Summary string  // one line, at most 100 characters (a menu's description)
	Params  []Param // its options, in the order they are written after it
	// File says the verb takes the command's attached file
	// (chat.Command.Attachment): a menu offers the file with this verb
	// only.
	File bool
}

// Form says how a verb's option is written in the command's words.
type Form uint8

// The forms.
const (
	// FormArg: the command's own argument of the same name (an Arg of
	// the command: "@player", "#game"), with its kind.
	FormArg    Form = iota
	FormWord        // the value as it is: mcmahon, B+, t3
	FormKey         // name=value: rounds=5
	FormQuoted      // in quotes: "Winter Cup"
	FormWords       // several words as typed: komi=6.5 rated=yes
)

// Param is one option of a verb: Arg gives its name (the option's
// name; with FormArg, the command's argument it is), kind, help,
// choices and whether it is required.
type Param struct {
	Arg
	Form Form
	// Min and Max, when Max > 0, make the option a whole number from
	// Min to Max (a menu's integer option).
	Min, Max int
}

// Typed writes the values given for v's options (by Param name; empty
// or absent: not given) as the command's request has them when typed:
// the words (the verb, then each value in v's order, in its form) and
// the command's own arguments by name (FormArg), as an adapter with
// typed options names them (Request.Named). A value that is not one
// word stays several, as typed.
func (v Verb) Typed(values map[string]string) (words []string, named map[string]string) {
	words = []string{v.Name}
	for _, p := range v.Params {
		val := strings.TrimSpace(values[p.Name])
		if val == "" {
			continue
		}
		switch p.Form {
		case FormArg:
			if named == nil {
				named = map[string]string{}
			}
			named[p.Name] = val
		case FormKey:
			if k, rest, ok := strings.Cut(val, "="); ok && strings.EqualFold(k, p.Name) {
				val = rest // "rounds=5" typed into the rounds option
			}
			words = append(words, strings.Fields(p.Name+"="+val)...)
		case FormQuoted:
			open, closing := `"`, `"`
			if strings.Contains(val, `"`) && !strings.ContainsAny(val, "“”") {
				open, closing = "“", "”"
			}
			words = append(words, strings.Fields(open+val+closing)...)
		default: // FormWord, FormWords
			words = append(words, strings.Fields(val)...)
		}
	}
	return words, named
}

// Usage is v's synopsis under command: `tournament result <#game>
// <B+|W+|…> [tournament]`.
func (v Verb) Usage(command string) string {
	var sb strings.Builder
	sb.WriteString(command + " " + v.Name)
	for _, p := range v.Params {
		name := p.Name
		switch {
		case p.Form == FormKey:
			name += "=…"
		case p.Form == FormQuoted:
			name = `"` + name + `"`
		case p.Form == FormWords:
			name += "…"
		case p.Form == FormWord && len(p.Choices) > 0:
			name = strings.Join(p.Choices, "|")
		}
		if p.Required {
			sb.WriteString(" <" + name + ">")
		} else {
			sb.WriteString(" [" + name + "]")
		}
	}
	return sb.String()
}

// VerbNames are verbs' names, in order: the choices of the argument
// that takes them.
func VerbNames(verbs []Verb) []string {
	names := make([]string, len(verbs))
	for i, v := range verbs {
		names[i] = v.Name
	}
	return names
}
