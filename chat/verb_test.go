package chat

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/tournament"
)

// A command with verbs is declared whole: its first argument is the
// choice of its verbs' names; each verb's options that are the
// command's own arguments name one; every summary and help fits a
// menu's 100 characters; numbers have a range.
func TestVerbDeclarations(t *testing.T) {
	withVerbs := 0
	for _, c := range Declared() {
		if len(c.Verbs) == 0 {
			continue
		}
		withVerbs++
		if len(c.Args) == 0 || c.Args[0].Kind != protocol.ArgChoice || !slices.Equal(c.Args[0].Choices, protocol.VerbNames(c.Verbs)) {
			t.Errorf("%s: the first argument is not the choice of its verbs: %+v", c.Name, c.Args)
		}
		for _, v := range c.Verbs {
			if n := utf8.RuneCountInString(v.Summary); n == 0 || n > 100 {
				t.Errorf("%s %s: a summary of %d characters", c.Name, v.Name, n)
			}
			if v.File && c.Attachment == "" {
				t.Errorf("%s %s takes a file the command does not", c.Name, v.Name)
			}
			names := map[string]bool{}
			for _, p := range v.Params {
				if names[p.Name] {
					t.Errorf("%s %s: %s twice", c.Name, v.Name, p.Name)
				}
				names[p.Name] = true
				if n := utf8.RuneCountInString(p.Help); n == 0 || n > 100 {
					t.Errorf("%s %s %s: a help of %d characters", c.Name, v.Name, p.Name, n)
				}
				if p.Max > 0 && (p.Min > p.Max || p.Form != protocol.FormKey) {
					t.Errorf("%s %s %s: a number from %d to %d written as %d", c.Name, v.Name, p.Name, p.Min, p.Max, p.Form)
				}
				declared := slices.ContainsFunc(c.Args, func(a protocol.Arg) bool { return a.Name == p.Name })
				if (p.Form == protocol.FormArg) != declared {
					t.Errorf("%s %s %s: the command's own argument %v, declared %v", c.Name, v.Name, p.Name, p.Form == protocol.FormArg, declared)
				}
			}
		}
	}
	if withVerbs == 0 {
		t.Fatal("no command with verbs is declared")
	}
}

// A verb's options, written as typed (Verb.Typed, what Discord's
// subcommands send), parse exactly as the typed line does.
func TestVerbOptionsParseAsTyped(t *testing.T) {
	var cmd *Command
	for _, c := range Declared() {
		if c.Name == "tournament" {
			cmd = &c
		}
	}
	verb := func(name string) protocol.Verb {
		for _, v := range cmd.Verbs {
			if v.Name == name {
				return v
			}
		}
		t.Fatalf("no verb %s", name)
		return protocol.Verb{}
	}
	alice := protocol.User{ID: "discord:111", Name: "alice"}
	bob := protocol.User{ID: "discord:222", Name: "bob"}
	platform := &protocol.Platform{Name: "discord", User: func(string) error { return nil }}
	for _, tc := range []struct {
		verb   string
		values map[string]string
		typed  string
	}{
		{"new", map[string]string{"name": "Winter Cup", "system": "swiss", "rounds": "4", "size": "13", "clock": "clock=1d", "max": "32", "options": "komi=6.5  rated=yes"},
			`new "Winter Cup" swiss rounds=4 size=13 clock=1d max=32 komi=6.5 rated=yes`},
		{"new", map[string]string{"name": `The "Big" One`}, `new “The "Big" One”`},
		{"new", map[string]string{"name": "Swiss Open", "system": "mcmahon"}, `new "Swiss Open" mcmahon`},
		{"join", nil, "join"},
		{"join", map[string]string{"tournament": "t3"}, "join t3"},
		{"standings", map[string]string{"round": "2", "page": "3", "tournament": "t3"}, "standings round=2 page=3 t3"},
		{"pairings", map[string]string{"round": "1"}, "pairings round=1"},
		{"result", map[string]string{"#game": "12", "result": "B+forfeit"}, "result #12 B+forfeit"},
		{"withdraw", map[string]string{"@player": "discord:222", "tournament": "t2"}, "withdraw @discord:222 t2"},
		{"bye", map[string]string{}, "bye"},
	} {
		words, named := verb(tc.verb).Typed(tc.values)
		menu := protocol.Request{User: alice, Command: "tournament", Args: words, Named: named, Mentions: []protocol.User{bob}, Platform: platform}
		typed := protocol.Request{User: alice, Command: "tournament", Args: strings.Fields(tc.typed), Mentions: []protocol.User{bob}, Platform: platform}
		got, err := protocol.ParseArgs(cmd.Decl(), &menu)
		if err != nil {
			t.Fatalf("%s %v: %v", tc.verb, tc.values, err)
		}
		want, err := protocol.ParseArgs(cmd.Decl(), &typed)
		if err != nil {
			t.Fatalf("%s: %v", tc.typed, err)
		}
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if string(g) != string(w) {
			t.Errorf("%s %v parses as %s; typed %q: %s", tc.verb, tc.values, g, tc.typed, w)
		}
	}
	// The name goes in quotes: a system's word in it stays the name.
	words, _ := verb("new").Typed(map[string]string{"name": "Swiss Open", "system": "mcmahon"})
	tt, err := parseTournament(words[1:], time.Now())
	if err != nil || tt.Name != "Swiss Open" || tt.System != tournament.McMahon {
		t.Fatalf("%q: %+v %v", words, tt, err)
	}
}
