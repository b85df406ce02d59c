package chat

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/gobotgo/gobot/game"
)

var gameArg = Arg{Name: "#game", Kind: ArgGame, Help: "the game, like #7 (default: your game in this room)"}

// commands declares every command once.
func commands() []Command {
	return []Command{
		{Name: "challenge", Aliases: []string{"invite", "new"}, Summary: "challenge a player to a game (no player: an open challenge)",
			Help: "Options in any order: a size (9, 13, 19, 13x9), a ruleset, black/white/random (your colour), komi=6.5, handicap=2 or handicap=auto (from both ratings), clock=3d or clock=fischer:3d+1d/7d, rated or unrated. Unset options come from the room's settings. Even games and handicap=auto games on 9x9, 13x13 and 19x19 are rated unless you say unrated.",
			Args: []Arg{{Name: "@player", Kind: ArgUser, Help: "who to play (empty: anyone in the room)"},
				{Name: "size", Kind: ArgSize, Help: "board size: 9, 13, 19 or WxH", Choices: []string{"9", "13", "19"}},
				{Name: "rules", Kind: ArgRules, Help: "ruleset", Choices: game.PresetNames()},
				{Name: "color", Kind: ArgColor, Help: "your colour", Choices: []string{"black", "white", "random"}},
				{Name: "komi", Kind: ArgKomi, Help: "komi, like 6.5"},
				{Name: "handicap", Kind: ArgHandicap, Help: "handicap stones, 2 to 9, or auto (from both ratings)"},
				{Name: "clock", Kind: ArgClock, Help: "time per move (3d) or fischer:3d+1d/7d"},
				{Name: "rated", Kind: ArgChoice, Help: "rated (default for even games on 9, 13, 19) or unrated", Choices: []string{"rated", "unrated"}},
				{Name: "placement", Kind: ArgChoice, Help: "where handicap stones go: fixed (the marked points), free (Black places them) or white-passes", Choices: []string{"fixed", "free", "white-passes"}},
				{Name: "engine", Kind: ArgEngine, Help: "play the computer: engine=gnugo (the game starts at once, unrated)"},
				{Name: "level", Kind: ArgLevel, Help: "the computer's strength, level=1 (weakest) to 10"}},
			prepare: prepareChallenge, run: cmdChallenge},
		{Name: "accept", Summary: "accept a challenge", Args: []Arg{{Name: "#challenge", Kind: ArgChallenge, Help: "the challenge, like #3"}}, run: cmdAccept},
		{Name: "decline", Summary: "decline a challenge", Args: []Arg{{Name: "#challenge", Kind: ArgChallenge, Help: "the challenge, like #3"}}, run: cmdDecline},
		{Name: "cancel", Summary: "withdraw your challenge", Args: []Arg{{Name: "#challenge", Kind: ArgChallenge, Help: "the challenge, like #3"}}, run: cmdCancel},
		{Name: "play", Aliases: []string{"move", "p"}, Summary: "play a stone", Help: "Points are written like D4: a column letter (there is no I) and a row number counted from the bottom.",
			Args: []Arg{{Name: "point", Kind: ArgPoint, Required: true, Help: "where to play, like D4"}, gameArg}, run: cmdPlay},
		{Name: "pass", Summary: "pass your turn (two passes in a row end the game)", Args: []Arg{gameArg}, run: cmdPass},
		{Name: "resign", Summary: "resign the game", Args: []Arg{gameArg}, run: cmdResign},
		{Name: "undo", Summary: "ask to take back the last move; the opponent answers undo or undo no",
			Args: []Arg{{Name: "no", Kind: ArgChoice, Choices: []string{"yes", "no"}, Help: "answer an undo request",
				Synonyms: map[string]string{"ok": "yes", "accept": "yes", "refuse": "no", "deny": "no"}}, gameArg}, run: cmdUndo},
		{Name: "board", view: true, Aliases: []string{"show", "b"}, Summary: "show the board", Args: []Arg{gameArg}, run: cmdBoard},
		{Name: "games", view: true, Aliases: []string{"list"}, Summary: "your active games and challenges, whose turn, time left", run: cmdGames},
		{Name: "sgf", view: true, Summary: "the game record as an SGF file", Args: []Arg{gameArg}, run: cmdSGF},
		{Name: "replay", view: true, Aliases: []string{"gif"}, Summary: "an animated replay of the game", Args: []Arg{gameArg}, run: cmdReplay},
		{Name: "dead", Aliases: []string{"alive", "mark"}, Summary: "in scoring: toggle the stones at these points dead or alive",
			Args: []Arg{{Name: "point", Kind: ArgPoint, Required: true, Repeat: true, Help: "a stone of the string, like D4"}, gameArg}, run: cmdDead},
		{Name: "done", Aliases: []string{"accept-score", "agree"}, Summary: "in scoring: accept the marked dead stones and the count", Args: []Arg{gameArg}, run: cmdDone},
		{Name: "resume", Summary: "in scoring: go back to playing (the opponent of whoever passed last moves)", Args: []Arg{gameArg}, run: cmdResume},
		{Name: "rating", view: true, Aliases: []string{"rank", "elo"}, Summary: "a player's rating and rank in this community, with the last results",
			Help: "Shows the rating ± 2·RD (the 95% range), the rank (with ? while RD is above 110), rated games, wins and losses, and the last five results. Ratings are per community: a Discord server, a Matrix room, the terminal. A game is rated when both players are human, the board is 9x9, 13x13 or 19x19, it was rated when challenged, and it ends by score, resignation or time (not aborted). Before your first rated game, `settings rank=5k` states a starting rank.",
			Args: []Arg{{Name: "@player", Kind: ArgUser, Help: "whose rating (default: yours)"}}, run: cmdRating},
		{Name: "top", view: true, Aliases: []string{"leaderboard", "ladder"}, Summary: "this community's leaderboard",
			Help: "A table of the players with rated games here: settled ratings (RD at most 110) first, then the provisional ones (rank with ?), each by rating; at most 20 rows.", run: cmdTop},
		{Name: "engines", view: true, Aliases: []string{"bots", "computer"}, Summary: "the computer opponents on offer, with levels and board sizes", run: cmdEngines},
		{Name: "rules", view: true, Summary: "explain a ruleset in plain words", Args: []Arg{{Name: "preset", Kind: ArgRules, Repeat: true, Choices: game.PresetNames(), Help: "a ruleset, or options like ko=simple scoring=area"}}, run: cmdRules},
		{Name: "settings", Aliases: []string{"set", "config"}, Summary: "your settings (notify, theme, rank) or, for admins, the room's (rules, size, clock, engines…)",
			Help: "`settings` shows them. Yours: notify=mention|dm|off, theme=wood|dark, rank=5k (your starting rank here, before your first rated game). The room's (admins): room rules=japanese size=19 komi=6.5 clock=3d threads=on engines=on|off (games against the computer).",
			Args: []Arg{{Name: "key=value", Kind: ArgText, Repeat: true}}, run: cmdSettings},
		{Name: "abort", Summary: "end a game without result (room admins)", Admin: true, Args: []Arg{gameArg}, run: cmdAbort},
		{Name: "help", view: true, Aliases: []string{"h", "?", "commands"}, Summary: "list commands, or explain one", Args: []Arg{{Name: "command", Kind: ArgText}}, run: cmdHelp},
	}
}

func cmdHelp(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	args := a.Text
	if len(args) > 0 {
		name := strings.ToLower(strings.TrimLeft(args[0], "/!"))
		c, ok := b.byName[strings.TrimSpace(name)]
		if !ok {
			return Reply{}, b.unknownCommand(name)
		}
		var sb strings.Builder
		fmt.Fprintf(&sb, "%s — %s", b.cmd(c.Usage()), c.Summary)
		if len(c.Aliases) > 0 {
			fmt.Fprintf(&sb, "\nAlso: %s", strings.Join(c.Aliases, ", "))
		}
		if c.Help != "" {
			sb.WriteString("\n" + c.Help)
		}
		for _, arg := range c.Args {
			if arg.Help != "" {
				fmt.Fprintf(&sb, "\n  %s: %s", arg.Name, arg.Help)
			}
		}
		return Reply{Text: sb.String(), Private: true}, nil
	}
	var sb strings.Builder
	sb.WriteString("Commands:")
	for _, c := range b.commands {
		fmt.Fprintf(&sb, "\n%s — %s", b.cmd(c.Usage()), c.Summary)
	}
	fmt.Fprintf(&sb, "\n%s explains one.", b.cmd("help <command>"))
	return Reply{Title: "gobot help", Text: sb.String(), Private: true}, nil
}

// usageError says how to call c.
func (b *Bot) usageError(c string, what string) error {
	cmd := b.byName[c]
	return errorf("%s Usage: %s", what, usageToken(cmd.Usage()))
}

func cmdRules(ctx context.Context, tx Tx, b *Bot, r *Request, a *Args) (Reply, error) {
	if len(a.Text) == 0 {
		var sb strings.Builder
		sb.WriteString("Rulesets:")
		for _, p := range game.Presets() {
			fmt.Fprintf(&sb, "\n%s — from %s", p.Name, p.Source)
		}
		fmt.Fprintf(&sb, "\n%s explains one. Custom rules: ko=none|simple|positional|situational scoring=area|territory suicide=forbidden|allowed passstones=on|off bonus=0|n|n-1 komi=6.5 handicap=fixed|free|white-passes cycle=void|draw agreement=on|off, alone or after a ruleset (japanese komi=0).", b.cmd("rules <name>"))
		sb.WriteString("\n" + handicapRule)
		return Reply{Text: sb.String(), Private: true}, nil
	}
	rules, err := game.ParseRules(strings.Join(a.Text, " "))
	if err != nil {
		return Reply{}, errorf("%s", clipEchoes(err.Error(), strings.Join(a.Text, " ")))
	}
	return Reply{Title: "Rules: " + rules.Name, Text: explainRules(rules) + "\n" + handicapRule, Private: true}, nil
}

// explainRules describes a ruleset in plain words.
func explainRules(r game.Rules) string {
	var lines []string
	p, preset := game.LookupPreset(r.Name)
	preset = preset && p.Name == r.Name
	if preset {
		lines = append(lines, "From "+p.Source+".")
	}
	switch r.Scoring {
	case game.Area:
		lines = append(lines, "Counting: your stones on the board plus the empty points only you surround (area).")
	default:
		lines = append(lines, "Counting: the empty points you surround plus the stones you captured (territory); points in seki count for nobody.")
	}
	switch r.Ko {
	case game.KoNone:
		lines = append(lines, "Ko: no ko rule; if the same position comes back a third time with the same player to move, the game ends "+map[bool]string{true: "as a draw.", false: "with no result."}[r.Cycle == game.CycleDraw])
	case game.KoSimple:
		lines = append(lines, "Ko: you may not retake a ko immediately; play elsewhere first. Long cycles end the game "+map[bool]string{true: "as a draw.", false: "with no result."}[r.Cycle == game.CycleDraw])
	case game.KoPositional:
		lines = append(lines, "Ko: no move may recreate any earlier whole-board position (positional superko).")
	case game.KoSituational:
		lines = append(lines, "Ko: you may not recreate a whole-board position that you yourself created before (situational superko).")
	}
	if r.Suicide {
		lines = append(lines, "Suicide is allowed: a move that leaves your own stones without liberties removes them (after captures).")
	} else {
		lines = append(lines, "Suicide is not allowed.")
	}
	if r.PassStones {
		lines = append(lines, "Each pass hands your opponent a stone as a prisoner, and White must pass last.")
	}
	lines = append(lines, explainKomi(r, p, preset))
	switch r.Placement {
	case game.PlacementFixed:
		lines = append(lines, "Handicap stones go on the marked points, then White moves.")
	case game.PlacementFree:
		lines = append(lines, "Handicap: Black places the stones anywhere, taking that many turns in a row.")
	case game.PlacementWhitePasses:
		lines = append(lines, "Handicap: White passes while Black places the stones anywhere.")
	}
	switch r.Bonus {
	case game.BonusN:
		lines = append(lines, "In handicap games White gets a point per handicap stone.")
	case game.BonusNMinusOne:
		lines = append(lines, "In handicap games White gets a point per handicap stone after the first.")
	}
	if r.NoAgreement {
		lines = append(lines, "At the end everything on the board counts as it stands: capture dead stones before passing.")
	} else {
		lines = append(lines, "At the end, dead stones are removed by agreement; if you disagree, play on.")
	}
	return strings.Join(lines, "\n")
}

// explainKomi says what komi White gets: the preset's policy from game's
// presets table, or the ruleset's own komi.
func explainKomi(r game.Rules, p game.PresetSpec, preset bool) string {
	k := game.KomiPolicy{Even: r.Komi, Handicap: r.DefaultKomi(19, 19, 2)}
	if preset {
		k.OneStone = p.Komi.OneStone
		if r.Komi == r.DefaultKomi(19, 19, 0) {
			k = p.Komi
		}
	}
	s := "Komi: " + game.FormatKomi(k.Even) + " points to White in an even game"
	if k.SmallLines > 0 {
		s = fmt.Sprintf("Komi: %s points to White in an even game on boards up to %d×%d, %s on larger ones", game.FormatKomi(k.SmallEven), k.SmallLines, k.SmallLines, game.FormatKomi(k.Even))
	}
	s += ", " + game.FormatKomi(k.Handicap) + " in a handicap game"
	if k.OneStone {
		s += " (one stone too)"
	}
	return s + "."
}

// sortedNames returns map keys sorted.
func sortedNames(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
