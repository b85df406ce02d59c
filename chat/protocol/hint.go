package protocol

import "strings"

// A command the user may type, inside a reply's text, is a token like a
// mention: <cmd:accept #1:cmd>. Each adapter renders it in its own syntax
// (FormatCommands): "/go accept #1" on Discord, "!go accept #1" on
// Matrix, "accept #1" in the terminal. chat itself knows no prefix.
const cmdOpen, cmdClose = "<cmd:", ":cmd>"

// MaxHintRunes bounds the user-typed part a command hint may repeat.
const MaxHintRunes = 80

// Cmd writes the token for a command line s, for use in Reply.Text.
// Token markers, backticks and line breaks are dropped (no command
// contains them) and s is clipped, so user input copied into a hint can
// neither break the token nor make it long.
func Cmd(s string) string {
	s = strings.NewReplacer(cmdOpen, "", cmdClose, "", "`", "", "\n", " ").Replace(s)
	return cmdOpen + ClipRunes(s, MaxHintRunes) + cmdClose
}

// UsageToken writes the token for a command's declared synopsis
// (Decl.Usage): not user input, so it is not clipped.
func UsageToken(usage string) string { return cmdOpen + usage + cmdClose }

// FormatCommands replaces every command token in text with what render
// returns for the command line inside it.
func FormatCommands(text string, render func(cmd string) string) string {
	var sb strings.Builder
	for {
		i := strings.Index(text, cmdOpen)
		if i < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		j := strings.Index(text[i:], cmdClose)
		if j < 0 {
			sb.WriteString(text)
			return sb.String()
		}
		sb.WriteString(text[:i])
		sb.WriteString(render(text[i+len(cmdOpen) : i+j]))
		text = text[i+j+len(cmdClose):]
	}
}

// CodeCommand renders a command for FormatCommands as inline code with
// prefix ("/go", "!go", "" for none): "`!go accept #1`".
func CodeCommand(prefix string) func(string) string {
	if prefix != "" {
		prefix += " "
	}
	return func(cmd string) string { return "`" + prefix + cmd + "`" }
}

// FormatReply applies render to every command token of rep's text and
// fields, for adapters.
func FormatReply(rep Reply, render func(string) string) Reply {
	rep.Text = FormatCommands(rep.Text, render)
	if len(rep.Fields) > 0 {
		fs := make([]Field, len(rep.Fields))
		for i, f := range rep.Fields {
			f.Value = FormatCommands(f.Value, render)
			fs[i] = f
		}
		rep.Fields = fs
	}
	return rep
}
