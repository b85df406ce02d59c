package discord

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
)

// verb builds a /<cmd> <verb> interaction (a command with verbs).
func (e *env) verb(user, name, cmd, verb, opts string) []byte {
	e.seq++
	return []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":2,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"id":"cmd","name":%q,"type":1,"options":[{"name":%q,"type":1,"options":[%s]}],
		"resolved":{"users":{"222":{"id":"222","username":"bob"},"333":{"id":"333","username":"carol"}}}}}`, e.seq, e.seq, member(user, name), cmd, verb, opts))
}

// intOpt is an integer option, as Discord sends one (a JSON number).
func intOpt(name string, value int) string {
	return fmt.Sprintf(`{"name":%q,"type":4,"value":%d}`, name, value)
}

// declared returns the bot's declaration of command name.
func declared(t *testing.T, e *env, name string) chat.Command {
	t.Helper()
	for _, c := range e.bot.Commands() {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no command %s", name)
	return chat.Command{}
}

// /tournament is a command of its own, a subcommand per verb with only
// that verb's options, typed as Discord types them (an integer for a
// number, a user for a player, a choice of results), and it fits
// Discord's limits as the stand-in enforces them.
func TestTournamentCommandShape(t *testing.T) {
	e := newEnv(t)
	decl := declared(t, e, "tournament")
	var cmd *discordgo.ApplicationCommand
	for _, c := range ApplicationCommands(e.bot.Commands()) {
		if c.Name == "tournament" {
			cmd = c
		}
	}
	if cmd == nil {
		t.Fatal("no /tournament")
	}
	raw, _ := json.Marshal([]*discordgo.ApplicationCommand{cmd})
	errs, totals := checkCommands(raw, true)
	if len(errs) != 0 || totals[0] > maxCommandChars {
		t.Fatalf("/tournament breaks Discord's rules: %v (%d characters)", errs, totals[0])
	}
	t.Logf("/tournament: %d subcommands, %d characters of %d", len(cmd.Options), totals[0], maxCommandChars)
	opts := map[string]map[string]*discordgo.ApplicationCommandOption{}
	var verbs []string
	for _, sub := range cmd.Options {
		verbs = append(verbs, sub.Name)
		opts[sub.Name] = map[string]*discordgo.ApplicationCommandOption{}
		for _, o := range sub.Options {
			opts[sub.Name][o.Name] = o
		}
		v := decl.Verbs[slices.IndexFunc(decl.Verbs, func(v protocol.Verb) bool { return v.Name == sub.Name })]
		want := len(v.Params)
		if v.File { // the verb takes the command's file: an attachment option more
			want++
		}
		if len(sub.Options) != want {
			t.Errorf("/tournament %s has %d options, its verb %d", sub.Name, len(sub.Options), want)
		}
	}
	if !slices.Equal(verbs, protocol.VerbNames(decl.Verbs)) {
		t.Fatalf("subcommands %v", verbs)
	}
	for _, tc := range []struct {
		verb, option string
		typ          discordgo.ApplicationCommandOptionType
		required     bool
		choices      int
	}{
		{"new", "name", discordgo.ApplicationCommandOptionString, true, 0},
		{"new", "system", discordgo.ApplicationCommandOptionString, false, 5},
		{"new", "rounds", discordgo.ApplicationCommandOptionInteger, false, 0},
		{"new", "options", discordgo.ApplicationCommandOptionString, false, 0},
		{"result", "game", discordgo.ApplicationCommandOptionString, true, 0},
		{"result", "result", discordgo.ApplicationCommandOptionString, true, 6},
		{"withdraw", "player", discordgo.ApplicationCommandOptionUser, true, 0},
		{"bye", "player", discordgo.ApplicationCommandOptionUser, false, 0},
		{"standings", "round", discordgo.ApplicationCommandOptionInteger, false, 0},
		{"standings", "page", discordgo.ApplicationCommandOptionInteger, false, 0},
		{"join", "tournament", discordgo.ApplicationCommandOptionString, false, 0},
	} {
		o := opts[tc.verb][tc.option]
		if o == nil || o.Type != tc.typ || o.Required != tc.required || len(o.Choices) != tc.choices {
			t.Errorf("/tournament %s %s: %+v", tc.verb, tc.option, o)
		}
	}
	if o := opts["new"]["rounds"]; o == nil || o.MinValue == nil || *o.MinValue != 1 || o.MaxValue != 20 {
		t.Errorf("rounds: %+v", o)
	}
	if len(opts["join"]) != 2 || opts["join"]["as"] == nil || len(opts["start"]) != 1 {
		t.Errorf("join takes who you are in an imported tournament and which tournament, start only which: %v %v", opts["join"], opts["start"])
	}
}

// A command with verbs beyond Discord's limits is refused by the
// stand-in as Discord refuses it, naming that command: 26 verbs, or a
// verb with 26 options; a range on a text option is refused too.
func TestVerbsBeyondLimitsRefused(t *testing.T) {
	bot := newBot(t)
	many := func(n int, params int) chat.Command {
		c := chat.Command{Name: "big", Summary: "a command with many verbs"}
		for i := range n {
			v := protocol.Verb{Name: fmt.Sprintf("v%d", i), Summary: "a verb"}
			for j := range params {
				v.Params = append(v.Params, protocol.Param{Arg: protocol.Arg{Name: fmt.Sprintf("p%d", j), Help: "an option"}, Form: protocol.FormWord})
			}
			c.Verbs = append(c.Verbs, v)
		}
		c.Args = []protocol.Arg{{Name: "action", Kind: protocol.ArgChoice, Required: true, Choices: protocol.VerbNames(c.Verbs)}, {Name: "words", Repeat: true}}
		return c
	}
	for _, tc := range []struct {
		name string
		cmd  chat.Command
		want string
	}{
		{"26 verbs", many(26, 0), "big.options: Must be 25 or fewer in length"},
		{"26 options", many(1, 26), "big.options.0.options: Must be 25 or fewer in length"},
	} {
		a, fake := registerEnv(t, extended{bot, []chat.Command{tc.cmd}}, Config{GuildIDs: []string{"g1"}})
		err := a.Register()
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Command != "/big" || !strings.Contains(err.Error(), tc.want) || len(fake.violations) != 1 {
			t.Errorf("%s: %v (refusals %v)", tc.name, err, fake.violations)
		}
	}
	// The largest that fits is taken.
	a, fake := registerEnv(t, extended{bot, []chat.Command{many(25, 3)}}, Config{GuildIDs: []string{"g1"}})
	if err := a.Register(); err != nil || len(fake.violations) != 0 {
		t.Fatalf("25 verbs: %v %v", err, fake.violations)
	}
	lo := 1.0
	bad := `[{"type":1,"name":"x","description":"x","options":[{"type":3,"name":"n","description":"n","min_value":1}]}]`
	if errs, _ := checkCommands([]byte(bad), true); len(errs) == 0 {
		t.Error("a range on a string option was taken")
	}
	raw, _ := json.Marshal([]*discordgo.ApplicationCommand{{Name: "x", Description: "x", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "n", MinValue: &lo, MaxValue: 0.5}}}})
	if errs, _ := checkCommands(raw, true); len(errs) == 0 {
		t.Error("min_value above max_value was taken")
	}
	raw, _ = json.Marshal([]*discordgo.ApplicationCommand{{Name: "x", Description: "x", Options: []*discordgo.ApplicationCommandOption{
		{Type: discordgo.ApplicationCommandOptionInteger, Name: "n", Description: "n", Choices: []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: "a"}}}}}})
	if errs, _ := checkCommands(raw, true); len(errs) == 0 {
		t.Error("a text choice on an integer option was taken")
	}
}

// An interaction of /tournament <verb> is the chat command `tournament
// <verb> …` as typed: the request it becomes parses exactly as the
// typed line does.
func TestVerbInteractionsParseAsTyped(t *testing.T) {
	e := newEnv(t)
	c := declared(t, e, "tournament")
	decl := c.Decl()
	for _, tc := range []struct {
		verb, opts, typed string
	}{
		{"new", opt("name", 3, "Winter Cup") + "," + opt("system", 3, "swiss") + "," + intOpt("rounds", 4) + "," + opt("size", 3, "13") + "," +
			opt("clock", 3, "1d") + "," + intOpt("max", 2000) + "," + opt("options", 3, "komi=6.5 handicap=mcmahon"),
			`tournament new "Winter Cup" swiss rounds=4 size=13 clock=1d max=2000 komi=6.5 handicap=mcmahon`},
		{"new", opt("name", 3, "Swiss Open"), `tournament new "Swiss Open"`},
		{"join", "", "tournament join"},
		{"leave", opt("tournament", 3, "t2"), "tournament leave t2"},
		{"pairings", intOpt("round", 2), "tournament pairings round=2"},
		{"standings", intOpt("round", 3) + "," + intOpt("page", 2) + "," + opt("tournament", 3, "t4"), "tournament standings round=3 page=2 t4"},
		{"result", opt("game", 3, "#12") + "," + opt("result", 3, "W+forfeit"), "tournament result #12 W+forfeit"},
		{"result", opt("result", 3, "jigo") + "," + opt("game", 3, "7"), "tournament result 7 jigo"},
		{"withdraw", opt("player", 6, "222"), "tournament withdraw @discord:222"},
		{"bye", opt("player", 6, "333") + "," + opt("tournament", 3, "t1"), "tournament bye @discord:333 t1"},
		{"h9", "", "tournament h9"},
	} {
		req := e.a.Request(mustInteraction(t, e.verb("111", "alice", "tournament", tc.verb, tc.opts)))
		if req.Command != "tournament" {
			t.Fatalf("%s: command %q", tc.verb, req.Command)
		}
		words := strings.Fields(tc.typed)
		typed := req
		typed.Command, typed.Args, typed.Named = words[0], words[1:], nil
		got, err := protocol.ParseArgs(decl, &req)
		if err != nil {
			t.Fatalf("/tournament %s %s: %v", tc.verb, tc.opts, err)
		}
		want, err := protocol.ParseArgs(decl, &typed)
		if err != nil {
			t.Fatalf("%s: %v", tc.typed, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("/tournament %s %s\n parses as %s,\n typed %q as %s", tc.verb, tc.opts, g, tc.typed, w)
		}
	}
	// A player option names the player among the mentions.
	req := e.a.Request(mustInteraction(t, e.verb("111", "alice", "tournament", "withdraw", opt("player", 6, "222"))))
	if len(req.Mentions) != 1 || req.Mentions[0].Name != "bob" {
		t.Errorf("mentions: %v", req.Mentions)
	}
}

// A whole tournament on Discord through /tournament: made, joined,
// started, a result set, standings, a withdrawal; the bot's words name
// /tournament's subcommands; a player who does not organise is
// refused privately; an option a verb does not take is refused with
// that verb's usage.
func TestTournamentOnDiscord(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	do := func(user, name, verb, opts string) (text string, private bool) {
		t.Helper()
		_, out := e.send(e.verb(user, name, "tournament", verb, opts), now, false)
		data, _ := out["data"].(map[string]any)
		if data == nil {
			t.Fatalf("/tournament %s: %v", verb, out)
		}
		text = fmt.Sprint(data["content"])
		if embeds, _ := data["embeds"].([]any); len(embeds) > 0 {
			text += " " + fmt.Sprint(embeds[0].(map[string]any)["description"])
		}
		return text, data["flags"] == float64(64)
	}
	text, private := do("111", "alice", "new", opt("name", 3, "Winter Cup")+","+opt("system", 3, "swiss")+","+intOpt("rounds", 2)+","+opt("size", 3, "9"))
	for _, want := range []string{"Winter Cup (t1): a Swiss of 2 rounds on 9x9", "`/tournament join`", "`/tournament start`"} {
		if private || !strings.Contains(text, want) {
			t.Fatalf("/tournament new: %q (private %v) does not say %q", text, private, want)
		}
	}
	for _, u := range [][2]string{{"222", "bob"}, {"333", "carol"}} {
		if text, _ := do(u[0], u[1], "join", ""); !strings.Contains(text, "joined Winter Cup (t1)") {
			t.Fatalf("%s joins: %q", u[1], text)
		}
	}
	if text, private := do("333", "carol", "end", ""); !private || !strings.Contains(text, "organis") {
		t.Fatalf("carol ends it: %q (private %v)", text, private)
	}
	text, _ = do("111", "alice", "start", "")
	game := regexp.MustCompile(`game #(\d+)`).FindStringSubmatch(text)
	if game == nil {
		t.Fatalf("start: %q", text)
	}
	if text, _ := do("111", "alice", "result", opt("game", 3, "#"+game[1])+","+opt("result", 3, "B+")); !strings.Contains(text, "#"+game[1]) {
		t.Fatalf("result: %q", text)
	}
	// The standings come with their table's image: the answer is
	// deferred and the table is the edit of the original response, with
	// the image attached.
	body := e.verb("111", "alice", "tournament", "standings", intOpt("round", 1))
	e.send(body, now, false)
	edit := e.fake.edited(t, body)
	if text := fmt.Sprint(edit.JSON); !strings.Contains(text, "bob") || !strings.Contains(text, "carol") || len(edit.Files) != 1 {
		t.Fatalf("standings: %q, %d files", text, len(edit.Files))
	}
	if text, _ := do("111", "alice", "withdraw", opt("player", 6, "333")); !strings.Contains(text, "<@333>") {
		t.Fatalf("withdraw: %q", text)
	}
	if text, private := do("111", "alice", "join", opt("round", 4, "2")); !private || !strings.Contains(text, `no option "round". Usage: `+"`/tournament join [\"as\"] [tournament]`") {
		t.Fatalf("an option join does not take: %q (private %v)", text, private)
	}
	if text, private := do("111", "alice", "standings", intOpt("round", 9)); !private || !strings.Contains(text, "rounds 1 to 1 are paired") {
		t.Fatalf("round 9: %q (private %v)", text, private)
	}
}

// Command lines name the command each is typed under on Discord: a
// command with verbs (and its aliases) is its own.
func TestCommandLineOfVerbs(t *testing.T) {
	for line, want := range map[string]string{
		"tournament join":      "/tournament join",
		"tourney standings t3": "/tournament standings t3",
		"tournament":           "/tournament",
		"tournaments":          "/gobot tournaments",
		"help tournament":      "/go help tournament",
		"play D4":              "/go play D4",
	} {
		if got := CommandLine(line); got != want {
			t.Errorf("%q: %q, want %q", line, got, want)
		}
	}
	if TopLevel("Tournament") != "tournament" || TopLevel("tourney") != "tournament" {
		t.Error("tournament is not a command of its own")
	}
	// help tournament lists each verb as Discord types it.
	e := newEnv(t)
	_, out := e.send(e.command("111", "alice", "help", opt("command", 3, "tournament")), time.Now(), false)
	text := fmt.Sprint(out)
	for _, want := range []string{"`/tournament new <\"name\">", "`/tournament result <#game> <B+|W+|jigo|void|B+forfeit|W+forfeit> [tournament]`", "`/tournament join [\"as\"] [tournament]`"} {
		if !strings.Contains(text, want) {
			t.Errorf("help tournament does not say %s: %s", want, text)
		}
	}
}

// A verb that takes the command's file (Verb.File) has the attachment
// option, the others not; the file's option is not passed on as words.
// Autocomplete under a verb names the chat command and the option.
func TestVerbFileAndAutocomplete(t *testing.T) {
	e := newEnv(t)
	cup := chat.Command{Name: "cup", Summary: "a cup", Attachment: "an OpenGotha file",
		Verbs: []protocol.Verb{{Name: "import", Summary: "import one", File: true}, {Name: "show", Summary: "show it"}}}
	cup.Args = []protocol.Arg{{Name: "action", Kind: protocol.ArgChoice, Required: true, Choices: protocol.VerbNames(cup.Verbs)}}
	cmds := ApplicationCommands(append(e.bot.Commands(), cup))
	c := cmds[len(cmds)-1]
	if c.Name != "cup" || len(c.Options) != 2 || len(c.Options[0].Options) != 1 || c.Options[0].Options[0].Type != discordgo.ApplicationCommandOptionAttachment ||
		len(c.Options[1].Options) != 0 {
		t.Fatalf("/cup: %+v", c.Options)
	}
	e.a.cmds["cup"] = cup
	in := mustInteraction(t, e.verb("111", "alice", "cup", "import", `{"name":"file","type":11,"value":"att1"}`))
	if req := e.a.Request(in); req.Command != "cup" || !slices.Equal(req.Args, []string{"import"}) || len(req.Named) != 0 {
		t.Fatalf("/cup import file: %+v %v", req.Args, req.Named)
	}
	e.seq++
	auto := []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":4,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"id":"cmd","name":"tournament","type":1,"options":[{"name":"result","type":1,"options":[{"name":"game","type":3,"value":"#","focused":true}]}]}}`,
		e.seq, e.seq, member("111", "alice")))
	if cmd, arg, typed := focused(mustInteraction(t, auto)); cmd != "tournament" || arg != "game" || typed != "#" {
		t.Fatalf("focused: %q %q %q", cmd, arg, typed)
	}
	if _, out := e.send(auto, time.Now(), false); out["type"] != float64(8) {
		t.Fatalf("autocomplete: %v", out)
	}
}
