package chat

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/chat/guide"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/game"
)

var updateDocs = flag.Bool("update", false, "rewrite docs/commands.md from the command declarations")

// commandsDoc renders the command reference from the declarations.
func commandsDoc(cmds []Command) string {
	var sb strings.Builder
	sb.WriteString("# gobot commands\n\n")
	sb.WriteString("Generated from the command declarations in `chat/command.go` (`go test ./chat/ -run CommandsDoc -update`).\n")
	sb.WriteString("Type them as `/go <command>` on Discord, `!go <command>` on Matrix, bare in the terminal. Discord allows 25\n")
	sb.WriteString("subcommands in one command, so there the commands around a game are under `/go` and the rest under `/gobot`:\n")
	sb.WriteString("`/gobot rating`, `/gobot top`, `/gobot engines`, `/gobot rules`, `/gobot settings`, `/gobot vacation`, `/gobot abort`, `/gobot account`, `/gobot tournaments`, `/gobot ladder`, `/gobot ladders`;\n")
	sb.WriteString("help is under both (`/go help`, `/gobot help`).\n")
	var families []string
	for _, c := range cmds {
		if len(c.Verbs) > 0 {
			families = append(families, fmt.Sprintf("`%s` (`/%s %s`, `/%s %s` …)", c.Name, c.Name, c.Verbs[0].Name, c.Name, c.Verbs[1].Name))
		}
	}
	sb.WriteString("A command with actions, " + strings.Join(families, ", ") + ", is a command of its own there, with a subcommand\n")
	sb.WriteString("per action that has only that action's options; the options are written into the command's words as typed.\n")
	sb.WriteString("A game is named `#7`; without it, your single active game in the room is meant. With several, a move\n")
	sb.WriteString("(`play`, `pass`) goes to the one at your turn, a vote to the one at the room's turn, a scoring command to the one\n")
	sb.WriteString("being scored; otherwise (`resign`, `undo`, or several at your turn) the bot asks which.\n")
	sb.WriteString("A review is named `r3`: `#` is always a game, `r` a review.\n")
	sb.WriteString("A point is written like `D4` (columns skip I, as in GTP); a point off the board is refused in the same words by every command that reads one (`play`, `dead`, `plan`, `vote`, a review's board): " +
		"`" + protocol.PointError("Z9", 9, 9, game.ErrOffBoard) + "`\n")
	sb.WriteString("\nChallenges and games share their numbers: a game keeps its challenge's number (challenge #7 becomes game #7),\n")
	sb.WriteString("and a new challenge's number is above every game's, so `#7` names one thing. Numbers given before this\n")
	sb.WriteString("(when challenges and games were counted separately) stay as they were and keep working: `accept`, `decline`\n")
	sb.WriteString("and `cancel` read `#n` as a challenge, the other commands as a game (`board #7` on a challenge nobody has\n")
	sb.WriteString("accepted yet says so).\n")
	sb.WriteString("\nThe commands the bot suggests are written the way your platform types them (`/go accept #1`, `/gobot rating` on Discord,\n")
	sb.WriteString("`!go accept #1` on Matrix, `accept #1` in the terminal). Looking at a board never notifies anyone; turn\n")
	sb.WriteString("notices, challenges, undo requests and results do. An open challenge (no player named) needs a room:\n")
	sb.WriteString("in a direct conversation, name your opponent.\n")
	sb.WriteString("\nArguments are read from these declarations before a command runs, the same on every platform: each word is\n")
	sb.WriteString("recognised by its form (`#7` a game, `@bob` a player, `9` a size, `komi=6.5`, …) in any order. A word the command\n")
	sb.WriteString("does not take, two values for one argument (`challenge @bob 9 13`), a reference like `#0`, or a player name\n")
	sb.WriteString("that is not a valid ID on its platform (a Matrix ID of at most 255 bytes, a Discord snowflake, a short word in\n")
	sb.WriteString("the terminal) is refused, and nothing changes. The refusal says what is wrong with that word, in under 300 bytes:\n")
	sb.WriteString("a number is a size out of range (`challenge @bob -9`: a board is 2 to 25 lines a side), a word near a\n")
	sb.WriteString("name the command takes gets that name (`japanes`: did you mean japanese?, `komy=6.5`: did you mean komi=?), an\n")
	sb.WriteString("unknown ruleset gets the list of presets, a bare `@` names nobody; the command's usage follows when it fits.\n")
	sb.WriteString("Long input is never repeated whole. `help` and `settings` suggest only near names. On Discord the options\n")
	sb.WriteString("arrive by name.\n")
	sb.WriteString("\nClocks (times in s, m, h, d, w, combined like `1m30s`; see docs/live.md): a time per move is 1 minute to\n")
	sb.WriteString("365 days (`clock=3d`, correspondence); a Fischer clock `fischer:10m+1m/30m` starts with 10 minutes, adds 1\n")
	sb.WriteString("per move and holds at most 30. Without a maximum (`fischer:10m+1m`) it holds at most its starting time, and\n")
	sb.WriteString("the challenge says so. Live clocks: `byoyomi:10m+5x30s` (10 minutes, then 5 periods of 30 seconds; a move\n")
	sb.WriteString("inside a period keeps it), `canadian:10m+25/5m` (then 25 stones in each 5 minutes), `absolute:20m`,\n")
	sb.WriteString("`simple:30s` (each move, no bank); main time may be 0, a period is 1s or more. A clock whose first turn\n")
	sb.WriteString("is under an hour is live: vacations do not stop it, a move that arrives after the deadline is refused, and\n")
	sb.WriteString("`games` and replies show it in its own terms (`2:41 + 3×30s`, `12 stones in 4:10`). Time left shows seconds\n")
	sb.WriteString("under ten minutes (`1m 58s left`). Reminders (by default 24 hours and 1 hour before the deadline, the\n")
	sb.WriteString("operator's `clock.reminders`) say only something new: none in the first half of a turn's time, none\n")
	sb.WriteString("whose lead is longer than the turn, each at most once a turn (a clock that runs again after a vacation\n")
	sb.WriteString("goes on with the same turn). With `clock=1d` the first comes with 12 hours left; with `clock=1m`, none.\n")
	sb.WriteString(say.VacationDoc) // say/vacation.go
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
		if c.Attachment != "" {
			args = append(args, "- a file: "+guide.AttachmentHelp(c.Attachment))
		}
		if len(args) > 0 {
			sb.WriteString("\n" + strings.Join(args, "\n") + "\n")
		}
		if len(c.Verbs) > 0 {
			sb.WriteString("\nActions (on Discord, each a subcommand of `/" + c.Name + "` with these options):\n\n")
			for _, v := range c.Verbs {
				fmt.Fprintf(&sb, "- `%s`: %s\n", v.Usage(c.Name), v.Summary)
			}
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
