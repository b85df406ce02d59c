package chat

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/game"
)

// dump is every record the tests' users, rooms and numbers can reach,
// read through the Tx API, as JSON: two dumps are equal when nothing was
// written.
func (h *harness) dump() string {
	h.t.Helper()
	var sb strings.Builder
	put := func(what string, v any, err error) {
		if errors.Is(err, gobot.ErrNotFound) {
			return
		}
		j, _ := json.Marshal(v)
		fmt.Fprintf(&sb, "%s %s %v\n", what, j, err)
	}
	users := []gobot.UserID{"test:alice", "test:bob", "test:carol", "test:banana"}
	if err := h.db.View(context.Background(), func(tx gobot.Tx) error {
		for id := 1; id <= 20; id++ {
			g, err := tx.Match(gobot.GameID(id))
			put(fmt.Sprintf("game %d", id), g, err)
			c, err := tx.Challenge(gobot.ChallengeID(id))
			put(fmt.Sprintf("challenge %d", id), c, err)
			r, err := tx.Review(gobot.ReviewID(id))
			put(fmt.Sprintf("review %d", id), r, err)
			tt, err := tx.Tournament(gobot.TournamentID(id))
			put(fmt.Sprintf("tournament %d", id), tt, err)
			ld, err := tx.Ladder(gobot.LadderID(id))
			put(fmt.Sprintf("ladder %d", id), ld, err)
		}
		for _, u := range users {
			p, err := tx.Player(u)
			put("player "+string(u), p, err)
			gs, err := tx.ActiveGames(u)
			put("active "+string(u), gs, err)
			cs, err := tx.PendingChallenges(u)
			put("pending "+string(u), cs, err)
			al, err := tx.AccountLink(u)
			put("account "+string(u), al, err)
			lc, err := tx.LinkCodesOf(u)
			put("link codes "+string(u), lc, err)
			for id := 1; id <= 3; id++ {
				n, err := tx.LinkGeneration(gobot.GameID(id), u)
				if n != 0 {
					put(fmt.Sprintf("link generation %d %s", id, u), n, err)
				}
			}
		}
		rm, err := tx.Room("test:main")
		put("room", rm, err)
		cs, err := tx.RoomChallenges("test:main")
		put("room challenges", cs, err)
		rs, err := tx.Ratings("test:main")
		put("ratings", rs, err)
		return nil
	}); err != nil {
		h.t.Fatal(err)
	}
	return sb.String()
}

// eventMarked reports whether id was recorded as handled (probed in a
// transaction that is rolled back).
func (h *harness) eventMarked(id gobot.EventID) bool {
	errProbe := errors.New("probe")
	var dup bool
	h.db.Update(context.Background(), func(tx gobot.Tx) error {
		dup = errors.Is(tx.MarkEvent(id, h.clock.Now()), gobot.ErrDuplicate)
		return errProbe
	})
	return dup
}

// refuses checks that line fails privately, says want, and changes no
// record.
func (h *harness) refuses(user, line, want string) protocol.Reply {
	h.t.Helper()
	before := h.dump()
	rep := h.fails(user, line, want)
	if after := h.dump(); after != before {
		h.t.Fatalf("%s: %q changed the store:\nbefore:\n%s\nafter:\n%s", user, line, before, after)
	}
	return rep
}

// Issue 16, items 1-4: words a command does not declare, bad game
// references, two values for one argument, bad user names. Each line is
// refused with the store unchanged (game #1 in progress, alice to move).
func TestArgumentsFromDeclaration(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	// Every line is refused, so one game serves them all.
	h := newHarness(t)
	h.start("")
	h.admins = map[string]bool{"alice": true}
	for _, tc := range []struct{ user, line, want string }{
		// 1. Destructive commands and every other: undeclared words.
		{"alice", "resign banana", `I don't understand "banana" here: resign takes a game like #7.`},
		{"alice", "abort banana", `abort takes a game like #7`},
		{"alice", "pass banana", `pass takes a game like #7`},
		{"alice", "play D4 banana", `play takes a point like D4; a game like #7`},
		{"alice", "play D4 E5", `Two values for point: "D4" and "E5"`},
		{"alice", "undo maybe", `undo takes yes or no; a game like #7`},
		{"alice", "games banana", "games takes no arguments"},
		{"alice", "top 10", "top takes no arguments"},
		{"alice", "help play banana", `Two values for command: "play" and "banana"`},
		{"alice", "accept banana", "accept takes a challenge like #3"},
		{"alice", "resign @bob", "resign takes no player (I got \"@bob\"); it takes a game like #7"},
		// 2. Game references.
		{"alice", "sgf #0", "#0 is not a game: games are numbered from #1"},
		{"alice", "resign #0", "#0 is not a game"},
		{"alice", "board #1 #2", `Two values for #game: "#1" and "#2"`},
		{"alice", "board #1 #1", `Two values for #game: "#1" and "#1"`},
		{"alice", "board #-1", `"#-1" is not a game: games are written like #7`},
		{"alice", "resign #99999999999999999999", "no game has a number that large"},
		{"alice", "board #1000000000001", "no game has a number that large"},
		{"alice", "board #x", `"#x" is not a game`},
		{"bob", "accept #0", "#0 is not a challenge"},
		// 3. Two values for one argument.
		{"alice", "challenge @carol 9 13 19", `Two values for size: "9" and "13"`},
		{"alice", "challenge @carol black white", `Two values for color: "black" and "white"`},
		{"alice", "challenge @carol japanese chinese", `Two values for rules: "japanese" and "chinese"`},
		{"alice", "challenge @carol komi=6.5 komi=7", `Two values for komi: "komi=6.5" and "komi=7"`},
		{"alice", "challenge @carol handicap=2 ha=3", `Two values for handicap: "handicap=2" and "ha=3"`},
		{"alice", "challenge @carol clock=3d fischer:1d+1h", `Two values for clock`},
		{"alice", "challenge @carol rated unrated", `Two values for rated: "rated" and "unrated"`},
		{"alice", "challenge @carol @bob", `Two values for @player: "@carol" and "@bob"`},
		{"alice", "settings room komi=1 komi=2", `Two values for komi: "komi=1" and "komi=2"`},
		{"alice", "settings theme=dark theme=wood", `Two values for theme`},
		// 4. User names: bounded, per platform, valid UTF-8.
		{"alice", "challenge @" + long(10<<10) + " 9", "is not a player name"},
		{"alice", "challenge @" + long(100<<10), "is not a player name"},
		{"alice", "challenge @\xff\xfe 9", "Argument 1 is not valid text"},
		{"alice", "rating @bob\xff", "Argument 1 is not valid text"},
		// Another platform's users are not players here (each platform's
		// own grammar is its adapter's: chat/discord, chat/matrix tests).
		{"alice", "challenge @discord:abc", `"discord:abc" is not a player here: name someone on test`},
		{"alice", "challenge @discord:1234", `"discord:1234" is not a player here: name someone on test`},
		{"alice", "challenge @alice:bob", `"alice:bob" is not a player here`},
		{"alice", "challenge @discord:123456789012345678901", "is not a player here"},
		{"alice", "challenge @matrix:@bob", "is not a player name"},
		{"alice", "challenge @matrix:@bob:" + long(300) + ".org", "is not a player name"},
		{"alice", "challenge @matrix:@b\x01ob:example.org", "is not a player name"},
		{"alice", "challenge @bo<b", "is not a player name"},
		{"alice", "rating @" + long(100<<10), "is not a player name"},
	} {
		t.Run(protocol.ClipRunes(tc.line, 40), func(t *testing.T) {
			h.t = t
			rep := h.refuses(tc.user, tc.line, tc.want)
			if len(rep.Text) > 600 || !utf8.ValidString(rep.Text) || strings.ContainsRune(rep.Text, '\x01') {
				t.Fatalf("the error is not clipped or not clean text (%d bytes): %q", len(rep.Text), protocol.ClipRunes(rep.Text, 200))
			}
			if match, _ := h.game(1); !match.Active() {
				t.Fatalf("game #1 ended: %s", match.Result)
			}
		})
	}
}

// The well-formed forms still work: references with and without "#",
// keys in any spelling, choices by synonym.
func TestArgumentsAccepted(t *testing.T) {
	h := newHarness(t)
	h.start("")
	h.ok("alice", "board 1")
	h.ok("alice", "sgf #1")
	h.ok("alice", "play D4 #1")
	h.ok("alice", "undo #1")
	h.ok("bob", "undo refuse")
	rep := h.ok("bob", "challenge @carol 13 white chinese km=7 clock=fischer:3d+1d/7d unrated")
	if !strings.Contains(rep.Text, "13x13, chinese rules, komi 7, Fischer 3d + 1d a move, at most 7d") || !strings.Contains(rep.Text, "(taking White)") {
		t.Fatalf("challenge: %s", rep.Text)
	}
	rep = h.ok("bob", "challenge @carol 19 handicap=4 placement=free rated=off")
	if !strings.Contains(rep.Text, "handicap 4") {
		t.Fatalf("challenge: %s", rep.Text)
	}
	h.ok("alice", "help /go play")
	h.ok("alice", "rules japanese komi=7")
	h.ok("alice", "rating @bob")
}

// Property (issue 16, item 7): for every declared command, a word it
// does not declare appended to a line is refused and changes nothing.
func TestUndeclaredWordRefused(t *testing.T) {
	// Every line is refused, so one game serves them all.
	h := newHarness(t)
	h.start("")
	h.admins = map[string]bool{"alice": true}
	for _, c := range commands() {
		for _, base := range []string{c.Name, requiredLine(c)} {
			for _, extra := range []string{"banana", "#0", "@" + strings.Repeat("b", 300), "#1 #1"} {
				line := base + " " + extra
				t.Run(protocol.ClipRunes(line, 40), func(t *testing.T) {
					h.t = t
					before := h.dump()
					rep := h.do("alice", line)
					if !rep.Error {
						t.Fatalf("%q was taken: %s", line, protocol.ClipRunes(rep.Text, 200))
					}
					if after := h.dump(); after != before {
						t.Fatalf("%q changed the store", line)
					}
				})
			}
		}
	}
}

// requiredLine is c with a value for each required argument.
func requiredLine(c Command) string {
	words := []string{c.Name}
	for _, a := range c.Args {
		if a.Required && a.Kind == protocol.ArgPoint {
			words = append(words, "E5")
		}
	}
	return strings.Join(words, " ")
}

// FuzzCommandLine (issue 16, item 7) sends any line to any declared
// command in a game in progress. The outcome is either a usage error
// with every record unchanged and the event not marked, or a well-formed
// request: typed values in range, users valid, no long input echoed, and
// a refused change that changed nothing.
func FuzzCommandLine(f *testing.F) {
	for i, c := range commands() {
		for _, s := range []string{"", "banana", "#1", "#0", "#1 #2", requiredLine(c)[len(c.Name):], "@bob", "9 13", "komi=6.5 komi=7", "D4 #1", "no #1", "@\xff"} {
			f.Add(uint8(i), s)
		}
	}
	f.Add(uint8(0), "@bob 13x9 japanese black komi=0.5 handicap=2 clock=fischer:1d+1h/2d rated placement=free")
	// One database for the whole run: each request is judged on its
	// own; a new game starts when a line ended alice's.
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, n uint8, line string) {
		h.t = t
		cmds := commands()
		c := cmds[int(n)%len(cmds)]
		var active []*gobot.Match
		h.db.View(context.Background(), func(tx gobot.Tx) error { active, _ = tx.ActiveGames("test:alice"); return nil })
		if len(active) == 0 {
			rep := h.ok("alice", "challenge @bob black 9")
			h.ok("bob", "accept "+strings.TrimPrefix(rep.Title, "Challenge "))
		}
		h.seq++
		req := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: gobot.EventID(fmt.Sprintf("test:fuzz%d", h.seq)),
			Command: c.Name, Args: strings.Fields(line), Admin: true, Platform: privateTest}
		parsed, perr := protocol.ParseArgs(h.bot.byName[c.Name].Decl(), &req)
		before := h.dump()
		rep := h.bot.Handle(context.Background(), req)
		after := h.dump()
		if !utf8.ValidString(rep.Text) {
			t.Fatalf("%s %q: the reply is not valid UTF-8", c.Name, line)
		}
		if perr != nil {
			if !rep.Error || after != before || h.eventMarked(req.EventID) {
				t.Fatalf("%s %q: a usage error (%v) must change nothing; reply %q", c.Name, line, perr, protocol.ClipRunes(rep.Text, 200))
			}
			if want := h.bot.errorReply(perr).Text; rep.Text != want {
				t.Fatalf("%s %q: reply %q, want the usage error %q", c.Name, line, rep.Text, want)
			}
			return
		}
		if parsed.Game > protocol.MaxRef || parsed.Challenge > protocol.MaxRef {
			t.Fatalf("%s %q: reference out of range: %+v", c.Name, line, parsed)
		}
		if parsed.User != "" {
			if err := req.Platform.ValidateUser(parsed.User); err != nil {
				t.Fatalf("%s %q: invalid user taken: %v", c.Name, line, err)
			}
		}
		for _, p := range parsed.Points {
			if !protocol.LooksLikePoint(p) {
				t.Fatalf("%s %q: %q taken as a point", c.Name, line, p)
			}
		}
		for _, w := range req.Args {
			if utf8.RuneCountInString(w) > 2*protocol.MaxHintRunes && strings.Contains(rep.Text, w) {
				t.Fatalf("%s %q: the reply repeats a long word whole", c.Name, protocol.ClipRunes(line, 80))
			}
		}
		if rep.Error && !c.view && after != before {
			t.Fatalf("%s %q: refused (%q) but the store changed", c.Name, line, rep.Text)
		}
	})
}

// A challenge takes options of a ruleset, after a preset or on their own
// (README: "on its own or after a preset"), in any order; the room's
// settings too.
func TestChallengeWithRulesOptions(t *testing.T) {
	for _, tc := range []struct {
		line  string
		ko    game.KoRule
		score game.Counting
		name  string
	}{
		{"challenge @bob 9 japanese ko=simple", game.KoSimple, game.Territory, "japanese"},
		{"challenge @bob 9 japanese ko=positional", game.KoPositional, game.Territory, "custom"},
		{"challenge @bob ko=situational 9 chinese", game.KoSituational, game.Area, "custom"},
		// Options alone change the room's ruleset (here the bot's japanese).
		{"challenge @bob 9 ko=simple,scoring=territory", game.KoSimple, game.Territory, "japanese"},
		{"challenge @bob 9 scoring=area suicide=allowed", game.KoSimple, game.Area, "custom"},
	} {
		h := newHarness(t)
		h.ok("alice", tc.line)
		h.ok("bob", "accept")
		_, g := h.game(1)
		r := g.Rules()
		if r.Ko != tc.ko || r.Scoring != tc.score || r.Name != tc.name {
			t.Errorf("%s: ko %v scoring %v name %q; want %v %v %q", tc.line, r.Ko, r.Scoring, r.Name, tc.ko, tc.score, tc.name)
		}
	}
	// The komi follows the preset the options start from, for the size
	// and the handicap, unless komi= is given.
	for line, want := range map[string]float64{
		"challenge @bob 9 japanese ko=positional handicap=3 black": 0.5,
		"challenge @bob 9 ko=simple handicap=2 black":              0.5,
		"challenge @bob 9 japanese ko=positional":                  6.5,
		"challenge @bob 9 chinese ko=simple":                       7.5,
		"challenge @bob 9 japanese komi=3 ko=positional":           3,
		"challenge @bob 9 rules=japanese,komi=2 ko=positional":     2,
	} {
		h := newHarness(t)
		h.ok("alice", line)
		h.ok("bob", "accept")
		if _, g := h.game(1); g.Config().Rules.Komi != want {
			t.Errorf("%s: komi %v, want %v", line, g.Config().Rules.Komi, want)
		}
	}
	h := newHarness(t)
	h.refuses("alice", "challenge @bob 9 ko=simple,ko=positional", "given twice")
	h.refuses("alice", "challenge @bob 9 japanese chinese", "Two values for rules")
	h.refuses("alice", "challenge @bob 9 ko=simple ko=none", "Two values for ko")
	h.refuses("alice", "challenge @bob 9 ko=sometimes", "ko")
	h.admins = map[string]bool{"alice": true}
	h.ok("alice", "settings room rules=chinese ko=simple")
	h.ok("alice", "settings room ko=situational") // changes the room's chinese
	h.refuses("alice", "settings room ko=simple scoring=area,ko=none", "Two values for ko")
	h.ok("alice", "challenge @bob 9")
	h.ok("bob", "accept")
	if _, g := h.game(1); g.Rules().Ko != game.KoSituational || g.Rules().Scoring != game.Area || g.Config().Rules.Komi != 7.5 {
		t.Fatalf("room rules: %+v", g.Config().Rules)
	}
}

// handicap=1 is a handicap only where the ruleset's text says so (BGA:
// Black plays first, komi 0); elsewhere it is refused with the way to get
// that game, and nothing is written.
func TestOneStoneHandicap(t *testing.T) {
	h := newHarness(t)
	h.refuses("alice", "challenge @bob 19 japanese handicap=1", "komi=0.5")
	h.refuses("alice", "challenge @bob 19 handicap=10", "2 to 9")
	h.ok("alice", "challenge @bob 19 bga handicap=1 black")
	h.ok("bob", "accept")
	_, g := h.game(1)
	if cfg := g.Config(); cfg.Rules.Komi != 0 || g.ToMove() != game.Black || g.HandicapLeft() != 0 {
		t.Fatalf("bga handicap=1: komi %v, %v to move, %d stones to place", cfg.Rules.Komi, g.ToMove(), g.HandicapLeft())
	}
	h = newHarness(t)
	h.ok("alice", "challenge @bob 19 bga ko=positional handicap=1 black") // still BGA's one stone
	h.ok("bob", "accept")
	if _, g := h.game(1); g.Config().Rules.Komi != 0 {
		t.Fatalf("bga ko=positional handicap=1: komi %v", g.Config().Rules.Komi)
	}
}

// Ing's rules are played as new-zealand, and the bot says so; rules
// explains several presets named together.
func TestIngSaysNewZealand(t *testing.T) {
	h := newHarness(t)
	if rep := h.ok("alice", "rules ing"); !strings.Contains(rep.Text, "ing is played as new-zealand") {
		t.Fatalf("rules ing: %s", rep.Text)
	}
	if rep := h.ok("alice", "rules nz"); strings.Contains(rep.Text, "played as") {
		t.Fatalf("nz is only a spelling: %s", rep.Text)
	}
	if rep := h.ok("alice", "challenge @bob 9 ing"); !strings.Contains(rep.Text, "ing is played as new-zealand") {
		t.Fatalf("challenge ing: %s", rep.Text)
	}
	rep := h.ok("alice", "rules japanese chinese")
	if !strings.Contains(rep.Text, "== japanese ==") || !strings.Contains(rep.Text, "== chinese ==") {
		t.Fatalf("two rulesets: %s", rep.Text)
	}
	h.refuses("alice", "rules japanese chinese aga bga", "at most three")
}

// Discord sends a ruleset with its options in one named option, in any
// order; autocomplete suggests presets, then offers what is typed.
func TestRulesOptionNamed(t *testing.T) {
	h := newHarness(t)
	req := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", EventID: "test:named", Command: "challenge",
		Named: map[string]string{"@player": "test:bob", "rules": "ko=positional japanese", "size": "9"}}
	if rep := h.bot.Handle(context.Background(), req); rep.Error {
		t.Fatalf("named rules: %s", rep.Text)
	}
	h.ok("bob", "accept")
	if _, g := h.game(1); g.Rules().Ko != game.KoPositional || g.Rules().Scoring != game.Territory {
		t.Fatalf("named rules: %+v", g.Rules())
	}
	if got := h.bot.Complete(context.Background(), req, "challenge", "rules", "ja"); len(got) != 1 || got[0].Value != "japanese" {
		t.Fatalf("complete ja: %v", got)
	}
	if got := h.bot.Complete(context.Background(), req, "challenge", "rules", "japanese ko=simple"); len(got) != 1 || got[0].Value != "japanese ko=simple" {
		t.Fatalf("complete with options: %v", got)
	}
}

// simple is played on a square board with an odd number of lines (text
// 001), complete on a square one (text 002).
func TestBoardShapeOfTheText(t *testing.T) {
	h := newHarness(t)
	h.refuses("alice", "challenge @bob 6 simple", "odd number of lines")
	h.refuses("alice", "challenge @bob 9x7 simple", "square board")
	h.refuses("alice", "challenge @bob 9x7 complete", "square board")
	h.ok("alice", "challenge @bob 6 complete")
	h.ok("alice", "challenge @bob 9x7 japanese")
}

// Issue 23, part 4: a word no argument takes is refused with what is
// wrong with that word, not a list of every kind of argument.
func TestRefusalNamesTheWord(t *testing.T) {
	h := newHarness(t)
	h.start("")
	h.admins = map[string]bool{"alice": true}
	for _, tc := range []struct{ line, want, not string }{
		{"challenge @bob -9", `size -9 won't work: a board is 2 to 25 lines a side, like 9, 13, 19 or 13x9.`, "a ruleset like"},
		{"challenge @bob 30", `a board is 2 to 25 lines a side`, ""},
		{"challenge @bob 13x9x", `size 13x9x won't work: write the lines a side (2 to 25)`, ""},
		{"challenge @bob 9 nosuchrules", `I don't know the ruleset "nosuchrules". Presets: tromp-taylor, simple, complete, bga, new-zealand, japanese, korean, chinese, aga; challenge also takes black, white, random, rated, unrated.`, "did you mean"},
		{"challenge @bob 9 japanes", `I don't know the ruleset "japanes"; did you mean japanese? Presets: `, ""},
		{"challenge @bob 9 chinees", `did you mean chinese?`, ""},
		{"challenge @bob 9 tromptaylr", `I don't know the ruleset "tromptaylr"; did you mean tromp-taylor?`, ""},
		{"challenge @bob 9 blak", `I don't know "blak"; did you mean black?`, "Presets"},
		{"challenge @bob 9 unratd", `did you mean unrated?`, ""},
		{"challenge bob 9", `I don't know the ruleset "bob"; to name a player, write @bob.`, "Presets"},
		{"challenge @bob @ 9", `A bare @ names nobody: write the player's name right after it, like @bob.`, "a ruleset like"},
		{"challenge @bob komy=6.5", `challenge has no option "komy"; did you mean komi=?`, ""},
		{"challenge @bob frobnicate=1", `challenge has no option "frobnicate". Options: size, rules, ko, scoring`, ""},
		{"challenge @bob ko=simple,komi=5", `give each option as its own key=value`, ""},
		{"challenge @bob #3", `challenge takes no game or challenge number (I got "#3").`, ""},
		{"challenge @bob D4", `challenge takes no point (I got "D4")`, ""},
		{"resign @bob", `resign takes no player (I got "@bob"); it takes a game like #7.`, ""},
		{"board -1", `"-1" is not a game: games are written like #7.`, ""},
		{"board size=9", `board takes no options like key=value (I got "size=9"); it takes a game like #7.`, ""},
		{"undo mayb", `I don't understand "mayb" here: undo takes yes or no; a game like #7.`, ""},
		{"undo refuze", `I don't know "refuze"; did you mean refuse?`, ""},
		{"rules japanes", `I don't know the ruleset "japanes"; did you mean japanese? Presets: `, ""},
		{"rules nosuchrules", `I don't know the ruleset "nosuchrules". Presets: `, "did you mean"},
		{"settings room rules=chines", `did you mean chinese?`, ""},
		{"help foo", `I don't know the command "foo". `, "Did you mean"},
		{"help chalenge", `Did you mean <cmd:challenge:cmd>?`, ""},
		{"help borad", `Did you mean <cmd:board:cmd>?`, ""},
	} {
		t.Run(tc.line, func(t *testing.T) {
			h.t = t
			rep := h.refuses("alice", tc.line, tc.want)
			if tc.not != "" && strings.Contains(rep.Text, tc.not) {
				t.Fatalf("%q: %q says %q", tc.line, rep.Text, tc.not)
			}
			if len(rep.Text) > protocol.MaxRefusal {
				t.Fatalf("%q: %d bytes: %s", tc.line, len(rep.Text), rep.Text)
			}
		})
	}
}

// hostileWords are words a refusal must not repeat unbounded: long,
// multi-byte, control characters quoted as escapes, near misses of
// every kind.
func hostileWords() []string {
	long := strings.Repeat("x", 20<<10)
	wide := strings.Repeat("𝄞", 2<<10)     // 4 bytes a rune
	ctrl := strings.Repeat("\u202e", 1000) // quoted as \u202e: 6 bytes a rune
	words := []string{"-9", "+9", "@", "nosuchrules", "japanes", "blak", "komy=6.5", "#3", "D4", "9", "0", "13x9x", "99999999999999999999",
		"x=y", "=", "==", "ko=simple,komi=5", "fischer", "pass", "yes", "-", "--9", "9.5", "1e9",
		long, wide, ctrl, "\x01\x02\x03", "@" + long, "@" + wide, "#" + strings.Repeat("9", 5000), "D" + strings.Repeat("9", 5000),
		long + "=1", wide + "=" + wide, "-" + strings.Repeat("9", 5000), strings.Repeat("9x", 5000)}
	for _, k := range []string{"size", "rules", "komi", "handicap", "clock", "color", "rated", "placement", "engine", "level", "ko", "scoring",
		"notify", "theme", "rank", "threads", "engines", "bonus", "cycle"} {
		words = append(words, k+"="+long, k+"="+wide, k+"="+ctrl, k+"=", k+"=fischer:"+wide+"+1d", k+"=japanese,"+wide)
	}
	return words
}

// Property (issue 23, part 4): no refusal of any command's arguments
// exceeds MaxRefusal bytes, whatever the words, once or twice over, and
// whether the command's required arguments are there or not.
func TestRefusalsAreShort(t *testing.T) {
	h := newHarness(t)
	h.start("")
	h.admins = map[string]bool{"alice": true}
	refused := 0
	for _, c := range commands() {
		bases := []string{c.Name, requiredLine(c)}
		if c.Name == "settings" {
			bases = append(bases, "settings room")
		}
		if c.Name == "challenge" {
			bases = append(bases, "challenge @carol 9 japanese")
		}
		for _, base := range bases {
			for _, w := range hostileWords() {
				lines := []string{base + " " + w}
				if len(w) < 100 {
					lines = append(lines, base+" "+w+" "+w) // two values
				} else {
					lines = append(lines, base+" "+protocol.ClipRunes(w, 5)+" "+w) // two values, one long
				}
				for _, line := range lines {
					h.t = t
					rep := h.do("alice", line)
					if !rep.Error {
						continue
					}
					refused++
					if len(rep.Text) > protocol.MaxRefusal || !utf8.ValidString(rep.Text) {
						t.Errorf("%q: a refusal of %d bytes: %s", protocol.ClipRunes(line, 60), len(rep.Text), protocol.ClipRunes(rep.Text, 400))
					}
				}
			}
		}
	}
	// Discord's options arrive by name: every argument's, and a name no
	// command declares.
	for _, c := range commands() {
		names := []string{strings.Repeat("n", 5000), "komy"}
		for _, a := range c.Args {
			names = append(names, a.Name)
		}
		for _, name := range names {
			for _, w := range hostileWords() {
				h.seq++
				r := protocol.Request{User: protocol.User{ID: "test:alice", Name: "alice"}, Room: "test:main", Admin: true,
					EventID: gobot.EventID(fmt.Sprintf("test:named%d", h.seq)), Command: c.Name, Named: map[string]string{name: w}}
				rep := h.bot.Handle(context.Background(), r)
				if !rep.Error {
					continue
				}
				refused++
				if len(rep.Text) > protocol.MaxRefusal || !utf8.ValidString(rep.Text) {
					t.Errorf("%s with %s=%q: a refusal of %d bytes: %s", c.Name, protocol.ClipRunes(name, 20), protocol.ClipRunes(w, 40), len(rep.Text), protocol.ClipRunes(rep.Text, 400))
				}
			}
		}
	}
	t.Logf("%d lines refused", refused)
	if refused < 1000 {
		t.Fatalf("only %d lines refused: the words do not reach the parser", refused)
	}
}
