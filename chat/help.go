package chat

import (
	"strings"

	"github.com/gobotgo/gobot/flow/settings"

	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

func cmdHelp(call *Call) (Result, error) {
	b, args := call.bot, call.Args.Text
	if len(args) > 0 {
		name := strings.ToLower(strings.TrimLeft(args[0], "/!"))
		c, ok := b.byName[strings.TrimSpace(name)]
		if !ok {
			return Result{}, b.unknownCommand(name)
		}
		return Result{Reply: protocol.Reply{Text: guide.HelpOne(c.topic()), Private: true}}, nil
	}
	topics := make([]guide.Topic, len(b.commands))
	for i, c := range b.commands {
		topics[i] = c.topic()
	}
	return Result{Reply: protocol.Reply{Title: "gobot help", Text: guide.HelpAll(topics), Private: true}}, nil
}

// topic is c as help describes it.
func (c *Command) topic() guide.Topic {
	return guide.Topic{Usage: c.Usage(), Summary: c.Summary, Help: c.Help, Aliases: c.Aliases, Args: c.Args, Attachment: c.Attachment, Name: c.Name, Verbs: c.Verbs}
}

// usageError says what is wrong and, where the refusal stays within
// MaxRefusal bytes, how to call c.
func (b *core) usageError(c string, what string) error {
	return b.byName[c].Decl().UsageError(what)
}

func cmdRules(call *Call) (Result, error) {
	tx, b, r, a := call.Tx, call.bot, call.Req, call.Args
	if len(a.Text) == 0 {
		return Result{Reply: protocol.Reply{Text: guide.RulesList() + "\n" + guide.HandicapRule, Private: true}}, nil
	}
	if len(a.Text) > 1 && allPresets(a.Text) {
		text, err := guide.EachRules(a.Text)
		if err != nil {
			return Result{}, err
		}
		return Result{Reply: protocol.Reply{Title: "Rules", Text: text + "\n" + guide.HandicapRule, Private: true}}, nil
	}
	spec, note := strings.Join(a.Text, " "), guide.AliasNote(a.Text[0])
	if strings.Contains(a.Text[0], "=") {
		// Options alone change the room's ruleset, as in a challenge
		// (protocol.GameOptions.Config) and in the room's settings.
		base, err := settings.RoomRules(tx, r.Room, b.cfg.Rules)
		if err != nil {
			return Result{}, err
		}
		note = guide.OptionsNote(base, spec)
		spec = base + " " + spec
	}
	rules, err := game.ParseRules(spec)
	if err != nil {
		return Result{}, errorf("%s", protocol.RulesError(err, spec))
	}
	return Result{Reply: protocol.Reply{Title: "Rules: " + rules.Name, Text: note + guide.ExplainRules(rules, spec) + "\n" + guide.HandicapRule, Private: true}}, nil
}

// allPresets reports whether every word names a preset.
func allPresets(words []string) bool {
	for _, w := range words {
		if _, err := game.Preset(w); err != nil {
			return false
		}
	}
	return true
}
