package guide

import (
	"fmt"
	"strings"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
)

// Topic is a command as `help` describes it: its synopsis ("play
// <point> [#game]"), one-line summary, other names, more detail and
// arguments.
type Topic struct {
	Usage, Summary, Help string
	Aliases              []string
	Args                 []protocol.Arg
	// Attachment says what file the command takes, if it takes one.
	Attachment string
	// Name and Verbs: a command with verbs, each shown with its own
	// synopsis.
	Name  string
	Verbs []protocol.Verb
}

// HelpOne explains one command (help play).
func HelpOne(t Topic) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s — %s", protocol.UsageToken(t.Usage), t.Summary)
	if len(t.Aliases) > 0 {
		fmt.Fprintf(&sb, "\nAlso: %s", strings.Join(t.Aliases, ", "))
	}
	if t.Help != "" {
		sb.WriteString("\n" + t.Help)
	}
	for _, v := range t.Verbs {
		fmt.Fprintf(&sb, "\n%s — %s", protocol.UsageToken(v.Usage(t.Name)), v.Summary)
	}
	for _, arg := range t.Args {
		if arg.Help != "" {
			fmt.Fprintf(&sb, "\n  %s: %s", arg.Name, arg.Help)
		}
	}
	if t.Attachment != "" {
		fmt.Fprintf(&sb, "\n  file: %s", AttachmentHelp(t.Attachment))
	}
	return sb.String()
}

// AttachmentHelp says how a file that a command takes (what, "an SGF
// file to review") is attached on each platform.
func AttachmentHelp(what string) string {
	return what + ". Attach it to the command on Discord; on Matrix, send the file with the command as its caption; in the terminal, end the line with < and the file's path."
}

// HelpAll lists the commands, one line each (help).
func HelpAll(ts []Topic) string {
	var sb strings.Builder
	sb.WriteString("Commands:")
	for _, t := range ts {
		fmt.Fprintf(&sb, "\n%s — %s", protocol.UsageToken(t.Usage), t.Summary)
	}
	fmt.Fprintf(&sb, "\n%s explains one.", say.Cmd("help <command>"))
	return sb.String()
}
