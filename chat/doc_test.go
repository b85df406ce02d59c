package chat

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/commands.md from the command declarations")

// commandsDoc renders the command reference from the declarations.
func commandsDoc(cmds []Command) string {
	var sb strings.Builder
	sb.WriteString("# gobot commands\n\n")
	sb.WriteString("Generated from the command declarations in `chat/commands.go` (`go test ./chat/ -run CommandsDoc -update`).\n")
	sb.WriteString("Type them as `/go <command>` on Discord, `!go <command>` on Matrix, bare in the terminal.\n")
	sb.WriteString("A game is named `#7`; without it, your single active game in the room is meant.\n")
	for _, c := range cmds {
		fmt.Fprintf(&sb, "\n## %s\n\n`%s`", c.Name, c.Usage())
		if c.Admin {
			sb.WriteString(" (room admins)")
		}
		fmt.Fprintf(&sb, "\n\n%s.", strings.TrimSuffix(c.Summary, "."))
		if c.Help != "" {
			fmt.Fprintf(&sb, " %s", c.Help)
		}
		sb.WriteString("\n")
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&sb, "\nAlso: %s.\n", strings.Join(c.Aliases, ", "))
		}
		var args []string
		for _, a := range c.Args {
			if a.Help != "" {
				args = append(args, fmt.Sprintf("- `%s`: %s", a.Name, a.Help))
			}
		}
		if len(args) > 0 {
			sb.WriteString("\n" + strings.Join(args, "\n") + "\n")
		}
	}
	return sb.String()
}

func TestCommandsDoc(t *testing.T) {
	want := commandsDoc(commands())
	const path = "../docs/commands.md"
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./chat/ -run CommandsDoc -update)", err)
	}
	if string(got) != want {
		t.Fatal("docs/commands.md is out of date with the command declarations; run go test ./chat/ -run CommandsDoc -update")
	}
}
