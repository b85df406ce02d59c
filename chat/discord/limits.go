package discord

import (
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat/protocol"
)

// Discord's limits on a message (in characters); a message over any of
// them is refused whole (50035), so everything sent is clipped to them.
const (
	maxContent     = 2000
	maxEmbedTitle  = 256
	maxEmbedDesc   = 4096
	maxFieldName   = 256
	maxFieldValue  = 1024
	maxFields      = 25
	maxEmbedsTotal = 6000 // all titles, descriptions, field names and values of a message
)

// maxLength is the max_length registered for a string option of kind k:
// Discord's client refuses longer input before it reaches the bot.
func maxLength(a protocol.Arg) int {
	switch a.Kind {
	case protocol.ArgPoint:
		if a.Repeat {
			return 200
		}
		return 8
	case protocol.ArgGame, protocol.ArgChallenge, protocol.ArgReview:
		return 21 // "#" (or "r") and a uint64
	case protocol.ArgSize:
		return 7
	case protocol.ArgKomi:
		return 16
	case protocol.ArgHandicap:
		return 12
	case protocol.ArgClock:
		return 40
	case protocol.ArgEngine:
		return 40
	case protocol.ArgRules:
		return 120
	case protocol.ArgColor, protocol.ArgChoice:
		return 20
	}
	if a.Repeat {
		return 300
	}
	return 100
}

// clipMessage keeps a message within Discord's limits.
func clipMessage(m *Message) {
	m.Content = clip(m.Content, maxContent)
	total := 0
	for _, e := range m.Embeds {
		e.Title = clip(e.Title, maxEmbedTitle)
		e.Description = clip(e.Description, maxEmbedDesc)
		if len(e.Fields) > maxFields {
			e.Fields = e.Fields[:maxFields]
		}
		for _, f := range e.Fields {
			f.Name = clip(f.Name, maxFieldName)
			f.Value = clip(f.Value, maxFieldValue)
		}
		total += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
		for _, f := range e.Fields {
			total += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
	}
	// Over the total: shorten descriptions first, then drop fields.
	for _, e := range m.Embeds {
		if total <= maxEmbedsTotal {
			break
		}
		n := utf8.RuneCountInString(e.Description)
		keep := max(n-(total-maxEmbedsTotal), 100)
		if keep < n {
			e.Description = clip(e.Description, keep)
			total -= n - utf8.RuneCountInString(e.Description)
		}
		for total > maxEmbedsTotal && len(e.Fields) > 0 {
			f := e.Fields[len(e.Fields)-1]
			total -= utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
			e.Fields = e.Fields[:len(e.Fields)-1]
		}
	}
}

// embedChars counts what Discord counts against maxEmbedsTotal.
func embedChars(es []*discordgo.MessageEmbed) int {
	n := 0
	for _, e := range es {
		n += utf8.RuneCountInString(e.Title) + utf8.RuneCountInString(e.Description)
		for _, f := range e.Fields {
			n += utf8.RuneCountInString(f.Name) + utf8.RuneCountInString(f.Value)
		}
	}
	return n
}
