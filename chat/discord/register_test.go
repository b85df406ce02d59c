package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"testing/quick"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/storage"
)

// subcommands lists the subcommands of every top-level command.
func subcommands(cmds []*discordgo.ApplicationCommand) []*discordgo.ApplicationCommandOption {
	var out []*discordgo.ApplicationCommandOption
	for _, c := range cmds {
		out = append(out, c.Options...)
	}
	return out
}

// extended is the bot with more commands declared than it has.
type extended struct {
	Handler
	extra []chat.Command
}

func (e extended) Commands() []chat.Command { return append(e.Handler.Commands(), e.extra...) }

// registerEnv is an adapter on HTTP interactions whose REST calls go to
// the stand-in for discord.com.
func registerEnv(t *testing.T, bot Handler, cfg Config) (*Adapter, *fakeDiscord) {
	t.Helper()
	fake := &fakeDiscord{}
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	pub, _, _ := ed25519.GenerateKey(nil)
	cfg.Mode, cfg.Token, cfg.ApplicationID, cfg.PublicKey, cfg.APIURL = "http", "t", "app", hex.EncodeToString(pub), api.URL+"/api/v9"
	cfg.Listen = "127.0.0.1:0"
	a, err := New(cfg, bot, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return a, fake
}

func newBot(t *testing.T) *chat.Bot {
	db, err := storage.Open(filepath.Join(t.TempDir(), "x.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return chat.New(chat.Config{}, db, nil, nil, nil)
}

// The real, complete command set registers against a Discord that
// enforces its documented limits, in a server install and in a user
// install (global, with the entry point kept); every chat command is a
// subcommand of exactly one top-level command but help, which is in
// both.
func TestCommandsRegisterWithinDiscordsLimits(t *testing.T) {
	bot := newBot(t)
	for _, tc := range []struct {
		name string
		cfg  Config
		put  string
	}{
		{"server install", Config{GuildIDs: []string{"g1"}}, "/api/v9/applications/app/guilds/g1/commands"},
		{"global", Config{}, "/api/v9/applications/app/commands"},
		{"user install", Config{UserInstall: true}, "/api/v9/applications/app/commands"},
	} {
		a, fake := registerEnv(t, bot, tc.cfg)
		if err := a.Register(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		puts := fake.find("PUT", "/commands")
		if len(puts) != 1 || puts[0].Path != tc.put || len(fake.violations) != 0 {
			t.Fatalf("%s: registrations %v, refusals %v", tc.name, puts, fake.violations)
		}
		errs, totals := checkCommands(puts[0].Body, true)
		if len(errs) != 0 {
			t.Fatalf("%s: %v", tc.name, errs)
		}
		var sent []wireCommand
		json.Unmarshal(puts[0].Body, &sent)
		seen := map[string]int{}
		declared := map[string]chat.Command{}
		for _, c := range bot.Commands() {
			declared[c.Name] = c
		}
		for i, c := range sent {
			t.Logf("%s: /%s has %d subcommands, %d characters", tc.name, c.Name, len(c.Options), totals[i])
			if c.Name != GameCommand && c.Name != BotCommand {
				// A command with verbs: its own, a subcommand per verb.
				seen[c.Name]++
				var verbs []string
				for _, sub := range c.Options {
					verbs = append(verbs, sub.Name)
				}
				if want := protocol.VerbNames(declared[c.Name].Verbs); len(want) == 0 || !slices.Equal(verbs, want) || TopLevel(c.Name) != c.Name {
					t.Errorf("/%s has subcommands %v, declared verbs %v; its replies name /%s", c.Name, verbs, want, TopLevel(c.Name))
				}
				continue
			}
			for _, sub := range c.Options {
				seen[sub.Name]++
				if want := TopLevel(sub.Name); sub.Name != "help" && want != c.Name {
					t.Errorf("%s is under /%s, but its replies name /%s", sub.Name, c.Name, want)
				}
			}
		}
		for _, c := range bot.Commands() {
			if n := seen[c.Name]; n != 1 && !(c.Name == "help" && n == 2) {
				t.Errorf("%s: %s registered %d times", tc.name, c.Name, n)
			}
		}
		if seen["tournament"] != 1 {
			t.Errorf("%s: /tournament is not a command of its own", tc.name)
		}
	}
}

// levels checks one command's options: at most 25 at each level, and
// returns the deepest level's count for the caller's curiosity.
func levels(t *testing.T, where string, opts []*discordgo.ApplicationCommandOption) {
	if len(opts) > maxOptionsPerLevel {
		t.Errorf("%s: %d options", where, len(opts))
	}
	for _, o := range opts {
		levels(t, where+"."+o.Name, o.Options)
	}
}

// A property of the commands gobot generates: whatever the chat
// commands declared (the bot's, plus up to a few more the way a new
// feature adds one), each top-level command either keeps Discord's
// limits or the stand-in refuses it; and the bot's own set, as shipped,
// always keeps them: ≤ 25 options at each level, ≤ 8,000 characters.
func TestGeneratedCommandsKeepLimits(t *testing.T) {
	bot := newBot(t)
	cmds := ApplicationCommands(bot.Commands())
	for _, c := range cmds {
		levels(t, "/"+c.Name, c.Options)
	}
	raw, _ := json.Marshal(cmds)
	if errs, totals := checkCommands(raw, true); len(errs) != 0 {
		t.Fatalf("the shipped commands break Discord's rules: %v", errs)
	} else {
		for i, c := range cmds {
			if totals[i] > maxCommandChars {
				t.Errorf("/%s: %d characters", c.Name, totals[i])
			}
		}
	}
	// Generated sets: the stand-in's verdict agrees with the limits
	// counted here, so a set that outgrows them fails a test.
	prop := func(n uint8, long bool) bool {
		extra := make([]chat.Command, int(n)%12)
		for i := range extra {
			summary := "an extra command"
			if long {
				summary = strings.Repeat("x", 100)
			}
			extra[i] = chat.Command{Name: fmt.Sprintf("extra%d", i), Summary: summary,
				Args: []protocol.Arg{{Name: "#game", Kind: protocol.ArgGame, Help: strings.Repeat("y", 90)}}}
		}
		cmds := ApplicationCommands(append(bot.Commands(), extra...))
		raw, _ := json.Marshal(cmds)
		errs, totals := checkCommands(raw, true)
		within := true
		for i, c := range cmds {
			within = within && len(c.Options) <= maxOptionsPerLevel && totals[i] <= maxCommandChars
		}
		return within == (len(errs) == 0)
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 200}); err != nil {
		t.Fatal(err)
	}
}

// A 26th subcommand is refused by the stand-in as Discord refuses it,
// and the registration error names the command, Discord's reason and
// what to do.
func TestTooManySubcommandsRefused(t *testing.T) {
	bot := newBot(t)
	room := maxOptionsPerLevel - len(ApplicationCommands(bot.Commands())[0].Options)
	var extra []chat.Command
	for i := range room + 1 {
		extra = append(extra, chat.Command{Name: fmt.Sprintf("extra%d", i), Summary: "one too many"})
	}
	a, fake := registerEnv(t, extended{bot, extra}, Config{GuildIDs: []string{"g1"}})
	err := a.Register()
	var refused *RefusedError
	if !errors.As(err, &refused) || refused.Status != 400 || refused.Command != "/go" {
		t.Fatalf("register: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"the command /go is refused by Discord", "go.options: Must be 25 or fewer in length", "bug in gobot"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal %q does not say %q", msg, want)
		}
	}
	if len(fake.violations) != 1 {
		t.Fatalf("refusals: %v", fake.violations)
	}
}

// Run stops at start, with the refusal, when Discord refuses the
// commands: an operator never sees a bot online and silent.
func TestRunStopsWhenCommandsRefused(t *testing.T) {
	bot := newBot(t)
	extra := make([]chat.Command, 30)
	for i := range extra {
		extra[i] = chat.Command{Name: fmt.Sprintf("extra%d", i), Summary: "too many"}
	}
	a, _ := registerEnv(t, extended{bot, extra}, Config{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	err := a.Run(ctx)
	var refused *RefusedError
	if !errors.As(err, &refused) || ctx.Err() != nil {
		t.Fatalf("Run: %v (ctx %v)", err, ctx.Err())
	}
}

// A transient failure (Discord's 5xx) is tried again, and the
// registration then succeeds while the adapter serves.
func TestRegistrationRetriedAfterServerError(t *testing.T) {
	bot := newBot(t)
	fake := &fakeDiscord{}
	var failures atomic.Int32
	failures.Store(2)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/commands") && failures.Add(-1) >= 0 {
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, `{"message":"upstream connect error","code":0}`)
			return
		}
		fake.ServeHTTP(w, r)
	}))
	defer api.Close()
	pub, _, _ := ed25519.GenerateKey(nil)
	a, err := New(Config{Mode: "http", Token: "t", ApplicationID: "app", PublicKey: hex.EncodeToString(pub), APIURL: api.URL + "/api/v9", Listen: "127.0.0.1:0"}, bot, gobot.State(nil), nil)
	if err != nil {
		t.Fatal(err)
	}
	a.retryBase = time.Millisecond
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Run(ctx) }()
	for deadline := time.Now().Add(30 * time.Second); len(fake.find("PUT", "/commands")) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("never registered after the server errors")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
	if failures.Load() >= 0 {
		t.Fatalf("registered without the failures: %d left", failures.Load())
	}
}

// Discord's error tree flattens to a reason naming the command; a body
// whose message already says it is taken as it is.
func TestRefusalReasons(t *testing.T) {
	cmds := []*discordgo.ApplicationCommand{{Name: "go"}, {Name: "gobot"}}
	for _, tc := range []struct {
		status      int
		body, cmd   string
		want, wantN string
	}{
		{400, `{"code":50035,"errors":{"1":{"options":{"3":{"description":{"_errors":[{"code":"BASE_TYPE_BAD_LENGTH","message":"Must be between 1 and 100 in length."}]}}}}},"message":"Invalid Form Body"}`,
			"/gobot", "gobot.options.3.description: Must be between 1 and 100 in length", "the command /gobot is refused"},
		{400, `{"code": 50035, "message": "Invalid Form Body: go.options: Must be 25 or fewer in length."}`,
			"/go", "go.options: Must be 25 or fewer in length", "the command /go is refused"},
		{401, `{"message": "401: Unauthorized", "code": 0}`, "", "401: Unauthorized", "discord.token"},
		{403, `not json`, "", "Forbidden", "applications.commands"},
	} {
		re := &discordgo.RESTError{Response: &http.Response{StatusCode: tc.status}, ResponseBody: []byte(tc.body)}
		err := registrationError("", cmds, re)
		var refused *RefusedError
		if !errors.As(err, &refused) || refused.Command != tc.cmd || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), tc.wantN) {
			t.Errorf("%d %s: %v", tc.status, tc.body, err)
		}
	}
	for _, status := range []int{429, 500, 502} {
		re := &discordgo.RESTError{Response: &http.Response{StatusCode: status}, ResponseBody: []byte(`{}`)}
		var refused *RefusedError
		if errors.As(registrationError("", cmds, re), &refused) {
			t.Errorf("%d is transient, not a refusal", status)
		}
	}
}

// Replies name each command as Discord shows it: help lists /go's and
// /gobot's, and a hint after a refusal names the right one.
func TestRepliesNameDiscordCommands(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	_, out := e.send(e.command("111", "alice", "help", ""), now, false)
	text := fmt.Sprint(out)
	for _, want := range []string{"`/go play <point> [#game]`", "`/gobot rating", "`/gobot settings", "`/go challenge", "`/go help <command>` explains one"} {
		if !strings.Contains(text, want) {
			t.Errorf("help does not show %s: %s", want, text)
		}
	}
	if strings.Contains(text, "`/go rating") || strings.Contains(text, "`/go settings") {
		t.Errorf("help names a /gobot command under /go: %s", text)
	}
	if got := CommandLine("vacation on"); got != "/gobot vacation on" {
		t.Errorf("vacation: %q", got)
	}
	if got := CommandLine("play D4 #2"); got != "/go play D4 #2" {
		t.Errorf("play: %q", got)
	}
}

// docs/commands.md names the commands under /gobot as Discord has them,
// and a command with verbs as a command of its own.
func TestCommandsDocNamesGobotCommands(t *testing.T) {
	doc, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range newBot(t).Commands() {
		under := strings.Contains(string(doc), "`/gobot "+c.Name+"`")
		if want := TopLevel(c.Name) == BotCommand || c.Name == "help"; under != want {
			t.Errorf("docs/commands.md: %s under /gobot: %v, want %v", c.Name, under, want)
		}
		if len(c.Verbs) == 0 {
			continue
		}
		if own := "`/" + c.Name + " " + c.Verbs[0].Name + "`"; !strings.Contains(string(doc), own) || strings.Contains(string(doc), "`/go "+c.Name+"`") {
			t.Errorf("docs/commands.md does not name %s as %s", c.Name, own)
		}
		for _, v := range c.Verbs {
			if !strings.Contains(string(doc), "- `"+v.Usage(c.Name)+"`: "+v.Summary) {
				t.Errorf("docs/commands.md does not list %s %s", c.Name, v.Name)
			}
		}
	}
}

// A command under /gobot runs and autocompletes as it did under /go.
func TestGobotCommandsWork(t *testing.T) {
	e := newEnv(t)
	now := time.Now()
	e.seq++
	complete := []byte(fmt.Sprintf(`{"id":"i%d","application_id":"app","type":4,"token":"tok%d","channel_id":"c1","guild_id":"g1",%s,
		"data":{"id":"cmd","name":"gobot","type":1,"options":[{"name":"rules","type":1,"options":[{"name":"preset","type":3,"value":"jap","focused":true}]}]}}`,
		e.seq, e.seq, member("111", "alice")))
	if _, out := e.send(complete, now, false); out["type"] != float64(8) || !strings.Contains(fmt.Sprint(out["data"]), "japanese") {
		t.Fatalf("/gobot rules autocomplete: %v", out)
	}
	_, out := e.send(e.command("111", "alice", "rules", opt("preset", 3, "japanese")), now, false)
	if !strings.Contains(strings.ToLower(fmt.Sprint(out)), "territory") {
		t.Fatalf("/gobot rules japanese: %v", out)
	}
}

// Discord's users are snowflakes; the descriptor refuses anything else
// in words.
func TestDiscordUserGrammar(t *testing.T) {
	for _, u := range []gobot.UserID{"discord:80351110224678912", "discord:1"} {
		if err := Descriptor.ValidateUser(u); err != nil {
			t.Errorf("%s: %v", u, err)
		}
	}
	for _, u := range []gobot.UserID{"discord:", "discord:12a", "discord:99999999999999999999", "discord:123456789012345678901", "discord:abc"} {
		if err := Descriptor.ValidateUser(u); err == nil || !strings.Contains(err.Error(), "is not a Discord user") {
			t.Errorf("%q: %v", u, err)
		}
	}
}

// ProxyUser takes a request Discord's proxy signed with the
// application's key, in time, naming a user; nothing else.
func TestProxyUser(t *testing.T) {
	pub, priv, _ := ed25519.GenerateKey(nil)
	bot := newBot(t)
	a, err := New(Config{Mode: "gateway", Token: "t", ApplicationID: "app", PublicKey: hex.EncodeToString(pub)}, bot, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Unix(1_800_000_000, 0)
	sign := func(payload string, key ed25519.PrivateKey, ts string, b64sig bool) http.Header {
		h := http.Header{}
		h.Set("X-Discord-Proxy-Payload", base64.StdEncoding.EncodeToString([]byte(payload)))
		sig := ed25519.Sign(key, []byte(payload))
		if b64sig {
			h.Set("X-Signature-Ed25519", base64.StdEncoding.EncodeToString(sig))
		} else {
			h.Set("X-Signature-Ed25519", hex.EncodeToString(sig))
		}
		h.Set("X-Signature-Timestamp", ts)
		return h
	}
	good := `{"created_at":1800000000,"expires_at":1800003600,"user_id":"111"}`
	if u, ok := a.ProxyUser(sign(good, priv, "1800000000", false), now); !ok || u != "discord:111" {
		t.Fatalf("a good signature: %q %v", u, ok)
	}
	if u, ok := a.ProxyUser(sign(good, priv, "1800000000", true), now); !ok || u != "discord:111" {
		t.Fatalf("a base64 signature: %q %v", u, ok)
	}
	_, other, _ := ed25519.GenerateKey(nil)
	for name, h := range map[string]http.Header{
		"another key":        sign(good, other, "1800000000", false),
		"another timestamp":  sign(good, priv, "1800000001", false),
		"expired":            sign(`{"created_at":1799990000,"expires_at":1799999999,"user_id":"111"}`, priv, "1799990000", false),
		"no user":            sign(`{"created_at":1800000000,"expires_at":1800003600}`, priv, "1800000000", false),
		"not a user":         sign(`{"created_at":1800000000,"expires_at":1800003600,"user_id":"x1"}`, priv, "1800000000", false),
		"no headers":         {},
		"payload not base64": {"X-Discord-Proxy-Payload": {"%%%"}, "X-Signature-Ed25519": {"00"}, "X-Signature-Timestamp": {"1"}},
	} {
		if u, ok := a.ProxyUser(h, now); ok {
			t.Errorf("%s: taken as %q", name, u)
		}
	}
	keyless, _ := New(Config{Mode: "gateway", Token: "t", ApplicationID: "app"}, bot, nil, nil)
	if _, ok := keyless.ProxyUser(sign(good, priv, "1800000000", false), now); ok {
		t.Error("taken with no public key configured")
	}
}
