package main

import (
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"time"

	"go.yaml.in/yaml/v3"
)

func TestExampleConfigParses(t *testing.T) {
	data, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := parseConfig(data, "config.example.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Defaults.Rules != "japanese" || cfg.Matrix.Prefix != "!go" {
		t.Fatalf("parsed %+v", cfg)
	}
}

// discord.user_install is on unless the config turns it off.
func TestDiscordUserInstall(t *testing.T) {
	for _, c := range []struct {
		yaml string
		want bool
	}{{"discord: {}", true}, {"discord: {user_install: true}", true}, {"discord: {user_install: false}", false}} {
		cfg, err := parseConfig([]byte(c.yaml), "gobot.yaml", func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		if got := discordConfig(cfg.Discord, nil, "h", cfg.storage()).UserInstall; got != c.want {
			t.Errorf("%s: user install %v, want %v", c.yaml, got, c.want)
		}
	}
}

func TestConfigErrorsNameTheKey(t *testing.T) {
	for yaml, want := range map[string]string{
		"databse: x\n":                            "databse",
		"log:\n  format: xml\n":                   "log.format",
		"defaults:\n  rules: frisbee\n":           "defaults.rules",
		"defaults:\n  rules: komi=2.75\n":         "defaults.rules",
		"defaults:\n  size: \"40\"\n":             "defaults.size",
		"defaults:\n  komi: 6.3\n":                "defaults.komi",
		"defaults:\n  clock: 3x\n":                "defaults.clock",
		"clock:\n  reminders: [soon]\n":           "clock.reminders[0]",
		"discord:\n  enabled: true\n":             "discord.token",
		"discord:\n  enabled: true\n  mode: ws\n": "discord.mode",
		"matrix:\n  enabled: true\n":              "matrix.homeserver",
		"matrix:\n  enabled: true\n  homeserver: https://m.org\n  user_id: bob\n": "matrix.user_id",
		"defaults: [1, 2]\n":                                                   "test.yaml:1: defaults: write a section of key: value lines, not a list",
		"storage:\n  driver: mysql\n":                                          "storage.driver",
		"storage:\n  driver: postgres\n":                                       "storage.dsn",
		"storage:\n  dsn: postgres://h/db\n":                                   "storage.dsn",
		"storage:\n  driver: postgres\n  dsn: nonsense\n":                      "storage.dsn",
		"database: a.db\nstorage:\n  path: b.db\n":                             "storage.path",
		"storage:\n  driver: postgres\n  dsn: postgres://h/db\n  path: x.db\n": "storage.path",
		"storage:\n  takeover: soon\n":                                         "storage.takeover",
		"storage:\n  takeover: 1s\n":                                           "storage.takeover",
	} {
		_, err := parseConfig([]byte(yaml), "test.yaml", func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want it to name %q", yaml, err, want)
		}
	}
}

func TestSecretsFromEnvironment(t *testing.T) {
	env := map[string]string{"GOBOT_DISCORD_TOKEN": "tok", "GOBOT_MATRIX_PASSWORD": "pw", "GOBOT_MATRIX_RECOVERY_KEY": "EsT1 2345"}
	cfg, err := parseConfig([]byte("discord:\n  enabled: true\nmatrix:\n  enabled: true\n  homeserver: https://m.org\n  user_id: \"@bot:m.org\"\n"), "t.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Discord.Token != "tok" || cfg.Matrix.Password != "pw" || cfg.Matrix.RecoveryKey != "EsT1 2345" {
		t.Fatalf("secrets not taken from the environment: %+v", cfg)
	}
}

func TestStorageDSNFromEnvironment(t *testing.T) {
	env := map[string]string{"GOBOT_STORAGE_DSN": "postgres://gobot:pw@db:5432/gobot"}
	cfg, err := parseConfig([]byte("storage:\n  driver: postgres\n  dsn: postgres://old@db/gobot\n"), "t.yaml", func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if sc := cfg.storage(); sc.Driver != "postgres" || sc.DSN != env["GOBOT_STORAGE_DSN"] {
		t.Fatalf("storage %+v, want the DSN from GOBOT_STORAGE_DSN", sc)
	}
	// The legacy top-level key still names the bbolt file.
	cfg, err = parseConfig([]byte("database: /tmp/x.db\n"), "t.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	if sc := cfg.storage(); sc.Driver != "bbolt" || sc.Path != "/tmp/x.db" {
		t.Fatalf("storage %+v from database:, want bbolt /tmp/x.db", sc)
	}
}

// Config mistakes are reported in the admin's words: the file, the line,
// the key path and what the key takes — never the YAML decoder's Go types
// or tags.
func TestConfigMistakesInPlainWords(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"log:\n  level: info\ndiscord:\n  enabled: false\n  tokn: abc\n", "gobot.yaml:5: discord.tokn: unknown key (did you mean token?)"},
		{"log:\n  format: text\n\n\nclock:\n  tick: 30s\n  reminders: 24h\n", `gobot.yaml:7: clock.reminders: write a list of durations like [24h, 1h], not "24h"`},
		{"clock:\n  reminders: [1h, soon]\n", `gobot.yaml:2: clock.reminders[1]: "soon" is not a duration like 24h or 1h`},
		{"clock:\n  tick: 30\n", `gobot.yaml:2: clock.tick: "30" is not a duration like 30s or 168h`},
		{"engines:\n  - name: gnugo\n    command: gnugo\n    move_timeout: 30\n", `gobot.yaml:4: engines[0].move_timeout: write a duration like 30s or 5m, not "30"`},
		{"engines:\n  - name: gnugo\n    command: gnugo\n    levels: {1: {gpt: [level 1]}}\n", "gobot.yaml:4: engines[0].levels.1.gpt: unknown key (did you mean gtp?)"},
		{"engines:\n  - name: gnugo\n    command: gnugo\n    levels: {one: {gtp: [level 1]}}\n", `gobot.yaml:4: engines[0].levels: write levels from 1 to 10, like {1: {gtp: ["level 1"]}}, not "one"`},
		{"engines:\n  - name: gnugo\n    command: gnugo\n    levels: {11: {gtp: [level 1]}}\n", "gobot.yaml:2: engines[0]: engine \"gnugo\": level 11: levels go from 1 to 10"},
		{"matrix:\n  encryption: maybe\n", `gobot.yaml:2: matrix.encryption: write true or false, not "maybe"`},
		{"discord:\n  guild_ids: 1234\n", `gobot.yaml:2: discord.guild_ids: write a list of server IDs like ["123456789012345678"], not "1234"`},
		{"discord:\n  shards: {id: x, count: 2}\n", `gobot.yaml:2: discord.shards.id: "x" is not a whole number`},
		{"discord:\n  enabled: true\n", "gobot.yaml:1: discord.token: the gateway needs a bot token"},
		{"defaults:\n  komi: lots\n", `gobot.yaml:2: defaults.komi: write a number like 6.5, not "lots"`},
		{"defaults:\n  size: [19]\n", "gobot.yaml:2: defaults.size: write a size like 19 or 13x9, not a list"},
		{"log:\n  level: info\n  level: debug\n", "gobot.yaml:3: log.level: given twice (first on line 2); keep one"},
		{"token: abc\n", "gobot.yaml:1: token: unknown key; the keys here are clock, communities, console, database, defaults, discord, engines, log, matrix, ratings, scoring, storage"},
		{"hello\n", `gobot.yaml:1: write a section of key: value lines, not "hello"`},
		{"discord:\n enabled: true\n  token: x\n", "gobot.yaml:3: not valid YAML: mapping values are not allowed in this context"},
		{"base: &b\n  format: json\nlog:\n  <<: *b\n", "gobot.yaml:1: base: unknown key"},
		{"defaults: &d\n  komi: x\nlog:\n  <<: *d\n", `gobot.yaml:2: defaults.komi: write a number like 6.5, not "x"`},
	} {
		_, err := parseConfig([]byte(tc.yaml), "gobot.yaml", func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, tc.want)
		}
	}
	// A file with nothing in it yet is no mistake.
	for _, empty := range []string{"", "# nothing yet\n", "---\n"} {
		if _, err := parseConfig([]byte(empty), "gobot.yaml", func(string) string { return "" }); err != nil {
			t.Errorf("%q: %v", empty, err)
		}
	}
	// Every mistake in a file is reported at once, in file order.
	_, err := parseConfig([]byte("discord:\n  tokn: x\nclock:\n  tick: [1]\n"), "gobot.yaml", func(string) string { return "" })
	if err == nil || err.Error() != "gobot.yaml:2: discord.tokn: unknown key (did you mean token?)\ngobot.yaml:4: clock.tick: write a duration like 30s, not a list" {
		t.Errorf("two mistakes: %v", err)
	}
}

// Every key of the config, given a value of the wrong kind, is named
// with its line and what it takes. The keys come from Config itself, so
// a key added later is covered too.
func TestEveryConfigKeyRefusesTheWrongKind(t *testing.T) {
	jargon := []string{"!!", "unmarshal", "main.", "[]", "time.Duration", "engine.", "field ", "type ", "map["}
	n := 0
	for _, k := range configKeys(reflect.TypeFor[Config](), nil) {
		for _, bad := range k.bad {
			doc, line := k.document(bad)
			_, err := parseConfig([]byte(doc), "gobot.yaml", func(string) string { return "" })
			key := k.path()
			if bad == "[[x]]" {
				key += "[0]" // the item is at fault
			}
			want := fmt.Sprintf("gobot.yaml:%d: %s: ", line, key)
			if err == nil || !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "write ") {
				t.Errorf("%s = %s:\n%s\n got %v\nwant %q… saying what to write", k.path(), bad, doc, err, want)
				continue
			}
			for _, j := range jargon {
				if strings.Contains(err.Error(), j) {
					t.Errorf("%s = %s: %q speaks Go/YAML (%q)", k.path(), bad, err, j)
				}
			}
			n++
		}
	}
	if n < 80 {
		t.Fatalf("only %d broken configs tried; the key walk lost keys", n)
	}
}

// configKey is one key path of the config (with "-" for a list item)
// and the wrong values to give it.
type configKey struct {
	parts []string
	bad   []string
}

func (k configKey) path() string {
	var sb strings.Builder
	for _, p := range k.parts {
		switch {
		case p == "-":
			sb.WriteString("[0]")
		case sb.Len() > 0:
			sb.WriteString("." + p)
		default:
			sb.WriteString(p)
		}
	}
	return sb.String()
}

// document writes a config with bad at the key, each level on its own
// line, and returns it with the key's line.
func (k configKey) document(bad string) (string, int) {
	var lines []string
	indent := ""
	for _, p := range k.parts[:len(k.parts)-1] {
		if p == "-" {
			lines = append(lines, indent+"-")
		} else {
			lines = append(lines, indent+p+":")
		}
		indent += "  "
	}
	lines = append(lines, indent+k.parts[len(k.parts)-1]+": "+bad)
	return strings.Join(lines, "\n") + "\n", len(lines)
}

func configKeys(t reflect.Type, parts []string) []configKey {
	var out []configKey
	for _, f := range reflect.VisibleFields(t) {
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "" {
			continue
		}
		p := append(append([]string(nil), parts...), name)
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case reflect.PointerTo(ft).Implements(reflect.TypeFor[yaml.Unmarshaler]()):
			out = append(out, configKey{p, []string{"[x]", "nonsense"}})
		case ft.Kind() == reflect.Struct:
			out = append(out, configKey{p, []string{"x", "[x]"}})
			out = append(out, configKeys(ft, p)...)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			out = append(out, configKey{p, []string{"x", "{a: 1}"}})
			out = append(out, configKeys(ft.Elem(), append(p, "-"))...)
		case ft.Kind() == reflect.Slice:
			out = append(out, configKey{p, []string{"x", "{a: 1}", "[[x]]"}})
		case ft.Kind() == reflect.Map:
			out = append(out, configKey{p, []string{"x", "[x]", "{x: {}}"}})
			out = append(out, configKeys(ft.Elem(), append(p, "1"))...)
		case ft.Kind() == reflect.String:
			out = append(out, configKey{p, []string{"[x]", "{a: 1}"}})
		default: // bool, numbers, durations
			out = append(out, configKey{p, []string{"[x]", "{a: 1}", "x"}})
		}
	}
	return out
}

// storage.takeover sets the leases: a dead holder's Matrix sync is taken
// within TTL + TTL/3 and a Discord shard within TTL + the shard round,
// both at most the takeover; 15 s by default.
func TestTakeoverSetsLeases(t *testing.T) {
	for yaml, want := range map[string]time.Duration{"": 15 * time.Second, "storage:\n  takeover: 6s\n": 6 * time.Second, "storage:\n  takeover: 1m\n": time.Minute} {
		cfg, err := parseConfig([]byte(yaml), "test.yaml", func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		sc := cfg.storage()
		ttl, round := sc.leaseTTL(), sc.shardRound()
		if ttl <= 0 || round <= 0 || round > 5*time.Second || ttl+ttl/3 > want || ttl+round > want {
			t.Errorf("%q: lease TTL %v, shard round %v: takeover beyond %v", yaml, ttl, round, want)
		}
	}
}

// The communities section makes the bot's joined communities; each
// mistake in it is named by its key, its line and the fix.
func TestCommunitiesConfig(t *testing.T) {
	const good = `communities:
  - name: Go Club
    discord: [{guild: "1234", channel: "5678"}, {guild: "4321"}]
    matrix: ["!abc:example.org", "!def:example.org"]
  - name: Baduk
    matrix: ["!xyz:example.org"]
`
	cfg, err := parseConfig([]byte(good), "gobot.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	cs := cfg.chatConfig().Communities
	j := cs.Joined("discord:guild:4321")
	if j == nil || j.ID != "community:go-club" || j.Rooms["discord"] != "discord:5678" || j.Rooms["matrix"] != "matrix:!abc:example.org" || len(j.Members) != 4 {
		t.Fatalf("Go Club: %+v", j)
	}
	if cs.Of("matrix:!xyz:example.org") != "community:baduk" || cs.Of("matrix:!other:example.org") != "matrix:!other:example.org" {
		t.Error("Baduk")
	}
	for _, tc := range []struct{ yaml, want string }{
		{"communities:\n  - discord: [{guild: \"1\"}]\n", `gobot.yaml:2: communities[0].name: give the community a name, like "Go Club"`},
		{"communities:\n  - name: \"!!\"\n    matrix: [\"!a:x\"]\n", `gobot.yaml:2: communities[0].name: "!!" has no letter or digit`},
		{"communities:\n  - name: Go Club\n", `gobot.yaml:2: communities[0]: "Go Club" joins nothing: list its Discord servers`},
		{"communities:\n  - name: Go\n    discord: [{guild: go-club}]\n", `gobot.yaml:3: communities[0].discord[0].guild: "go-club" is not a server ID`},
		{"communities:\n  - name: Go\n    discord: [{guild: \"1\", channel: general}]\n", `gobot.yaml:3: communities[0].discord[0].channel: "general" is not a channel ID`},
		{"communities:\n  - name: Go\n    matrix: [\"#go:example.org\"]\n", `gobot.yaml:3: communities[0].matrix[0]: "#go:example.org" is not a Matrix room ID like "!abc:example.org" (that is an alias`},
		{"communities:\n  - name: Go\n    discord: [{guild: \"1\"}]\n    matrix: [\"!a:x\"]\n", `communities[0].discord[0].channel: give the channel where games between Discord and Matrix players are posted`},
		{"communities:\n  - name: Go\n    matrix: [\"!a:x\", \"!b:x\", \"!a:x\"]\n", `gobot.yaml:3: communities[0].matrix[2]: listed twice in "Go": remove one`},
		{"communities:\n  - name: Go\n    matrix: [\"!a:x\"]\n  - name: Baduk\n    discord: [{guild: \"1\"}, {guild: \"1\"}]\n", `gobot.yaml:5: communities[1].discord[1].guild: listed twice in "Baduk"`},
		{"communities:\n  - name: Go\n    matrix: [\"!a:x\"]\n  - name: Baduk\n    matrix:\n      - \"!b:x\"\n      - \"!a:x\"\n", `gobot.yaml:7: communities[1].matrix[1]: already in communities[0] ("Go"): a server or room is in one community at most`},
		{"communities:\n  - name: Go Club\n    matrix: [\"!a:x\"]\n  - name: go club!\n    matrix: [\"!b:x\"]\n", `gobot.yaml:4: communities[1].name: "go club!" is the name of communities[0] ("Go Club") too`},
		{"communities:\n  - name: Go\n    telegram: [\"x\"]\n", "gobot.yaml:3: communities[0].telegram: unknown key"},
		{"communities:\n  name: Go\n", "gobot.yaml:2: communities: write a list"},
	} {
		_, err := parseConfig([]byte(tc.yaml), "gobot.yaml", func(string) string { return "" })
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q:\n got %v\nwant %s", tc.yaml, err, tc.want)
		}
	}
}
