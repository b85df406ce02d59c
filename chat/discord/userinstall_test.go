package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/render"
	"github.com/gobotgo/gobot/storage"
)

// where says where an interaction comes from.
type where struct {
	channel string
	guild   string // "" in a DM or group DM
	context int    // 0 a server, 1 the bot's DM, 2 a DM or group DM between users
	owners  string // authorizing_integration_owners, as JSON
	perms   string // app_permissions
}

// privateChannel is a DM or group DM between users who installed gobot.
func privateChannel(id string) where {
	return where{channel: id, context: 2, owners: `{"1":"111"}`, perms: "0"}
}

var users = map[string]string{"111": "alice", "222": "bob", "333": "carol"}

// ix builds a /go <sub> interaction (sub "" and custom set: a button)
// by user in w.
func (e *env) ix(w where, user, sub, opts string) []byte {
	e.seq++
	who := fmt.Sprintf(`"user":{"id":%q,"username":%q}`, user, users[user])
	if w.guild != "" {
		who = fmt.Sprintf(`"guild_id":%q,"member":{"user":{"id":%q,"username":%q},"permissions":"32"}`, w.guild, user, users[user])
	}
	return []byte(fmt.Sprintf(`{"id":"u%d","application_id":"app","type":2,"token":"utok%d","channel_id":%q,%s,
		"context":%d,"authorizing_integration_owners":%s,"app_permissions":%q,
		"data":{"id":"cmd","name":%q,"type":1,"options":[{"name":%q,"type":1,"options":[%s]}],
		"resolved":{"users":{"111":{"id":"111","username":"alice"},"222":{"id":"222","username":"bob"},"333":{"id":"333","username":"carol"}}}}}`,
		e.seq, e.seq, w.channel, who, w.context, w.owners, w.perms, TopLevel(sub), sub, opts))
}

// find returns the calls made so far to method and a path ending in
// suffix, leaving them recorded.
func (f *fakeDiscord) find(method, suffix string) []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []call
	for _, c := range f.calls {
		if c.Method == method && strings.HasSuffix(c.Path, suffix) {
			out = append(out, c)
		}
	}
	return out
}

// obeyed fails the test if gobot made a request Discord would refuse, or
// posted with the bot token in any channel but a DM with the bot.
func (f *fakeDiscord) obeyed(t *testing.T) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.violations) > 0 {
		t.Fatalf("requests Discord would refuse: %q", f.violations)
	}
	for _, c := range f.calls {
		if c.Method == "POST" && strings.HasPrefix(c.Path, "/api/v9/channels/") && !strings.HasPrefix(c.Path, "/api/v9/channels/dm") {
			t.Fatalf("a post with the bot token: %s %s", c.Method, c.Path)
		}
	}
}

// tokenOf is the token of an interaction body.
func tokenOf(body []byte) string {
	var in struct{ Token string }
	json.Unmarshal(body, &in)
	return in.Token
}

// edited is the edit of the original response of the interaction body.
func (f *fakeDiscord) edited(t *testing.T, body []byte) call {
	t.Helper()
	cs := f.find("PATCH", "/webhooks/app/"+tokenOf(body)+"/messages/@original")
	if len(cs) != 1 {
		t.Fatalf("%d edits of @original for %s, want 1", len(cs), tokenOf(body))
	}
	return cs[0]
}

func mustInteraction(t *testing.T, body []byte) *discordgo.Interaction {
	t.Helper()
	var in discordgo.Interaction
	if err := json.Unmarshal(body, &in); err != nil {
		t.Fatal(err)
	}
	return &in
}

// deliver hands an interaction to the adapter and returns its response,
// once it and all it set off are done.
type deliver func(body []byte) map[string]any

// playPrivateGame plays a whole 9×9 game between alice (black) and bob
// in w, through d; with watcher, carol looks on and tries to play.
func playPrivateGame(t *testing.T, e *env, d deliver, w where, watcher bool) {
	t.Helper()
	out := d(e.ix(w, "111", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")))
	if out["type"] != float64(4) || out["data"].(map[string]any)["flags"] == float64(64) {
		t.Fatalf("challenge: %v", out)
	}
	if out := d(e.ix(w, "222", "accept", "")); out["type"] != float64(5) {
		t.Fatalf("accept: %v", out)
	}
	for i := 1; i <= 9; i++ {
		for _, p := range []struct{ user, col, next string }{{"111", "E", "222"}, {"222", "F", "111"}} {
			body := e.ix(w, p.user, "play", opt("point", 3, fmt.Sprintf("%s%d", p.col, i)))
			if out := d(body); out["type"] != float64(5) {
				t.Fatalf("%s plays %s%d: %v", users[p.user], p.col, i, out)
			}
			// The response pings the player to move: the turn notice.
			edit := e.fake.edited(t, body)
			checkPNG(t, edit)
			if got := fmt.Sprint(edit.JSON["allowed_mentions"].(map[string]any)["users"]); got != "["+p.next+"]" {
				t.Fatalf("after %s%d the response pings %s, want %s", p.col, i, got, p.next)
			}
		}
		if watcher && i == 5 {
			body := e.ix(w, "333", "board", "")
			if out := d(body); out["type"] != float64(5) {
				t.Fatalf("carol looks: %v", out)
			}
			checkPNG(t, e.fake.edited(t, body))
			out := d(e.ix(w, "333", "play", opt("point", 3, "A1")))
			data := out["data"].(map[string]any)
			if data["flags"] != float64(64) || !strings.Contains(data["content"].(string), "no active game here") {
				t.Fatalf("carol, who watches, plays: %v", out)
			}
			out = d(e.ix(w, "111", "games", ""))
			if !strings.Contains(fmt.Sprint(out), "#1") {
				t.Fatalf("alice's games: %v", out)
			}
		}
	}
	d(e.ix(w, "111", "pass", ""))
	d(e.ix(w, "222", "pass", ""))
	d(e.ix(w, "111", "done", ""))
	last := e.ix(w, "222", "done", "")
	d(last)
	if embeds := fmt.Sprint(e.fake.edited(t, last).JSON["embeds"]); !strings.Contains(embeds, "B+2.5") {
		t.Fatalf("the result: %v", embeds)
	}
	var match *gobot.Match
	e.db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		match, err = tx.Match(1)
		return err
	})
	if match == nil || match.Result != "B+2.5" || match.Room != gobot.RoomID("discord:"+w.channel) {
		t.Fatalf("the stored game: %+v", match)
	}
	// The conversation is its own ratings community, and says so.
	if out := d(e.ix(w, "111", "rating", "")); !strings.Contains(fmt.Sprint(out), "its own ratings community") || !strings.Contains(fmt.Sprint(out), "1 rated game") {
		t.Fatalf("rating: %v", out)
	}
	e.fake.obeyed(t)
}

// A whole game in a DM between two users and in a group DM of three,
// over HTTP interactions: only responses and edits of @original.
func TestPrivateChannelGameHTTP(t *testing.T) {
	for _, watcher := range []bool{false, true} {
		t.Run(fmt.Sprintf("watcher=%v", watcher), func(t *testing.T) {
			e := newEnv(t)
			w := privateChannel("pc1")
			e.fake.noBot = map[string]bool{"pc1": true}
			playPrivateGame(t, e, func(body []byte) map[string]any {
				_, out := e.send(body, time.Now(), false)
				return out
			}, w, watcher)
		})
	}
}

// The same over the gateway: the responses go by the REST callback.
func TestPrivateChannelGameGateway(t *testing.T) {
	for _, watcher := range []bool{false, true} {
		t.Run(fmt.Sprintf("watcher=%v", watcher), func(t *testing.T) {
			fake := &fakeDiscord{noBot: map[string]bool{"pc1": true}}
			api := httptest.NewServer(fake)
			defer api.Close()
			gw := newFakeGateway(t)
			gws := httptest.NewServer(gw)
			defer gws.Close()
			db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			bot := chat.New(chat.Config{Rules: "japanese", Width: 9, Height: 9}, db, &render.Renderer{Width: 300}, nil, slog.New(slog.DiscardHandler))
			a, err := New(Config{Mode: "gateway", Token: "tok", ApplicationID: "app", UserInstall: true,
				APIURL: api.URL + "/api/v9/", GatewayURL: "ws" + strings.TrimPrefix(gws.URL, "http")}, bot, gobot.StoreState(db), slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			bot.SetNotifier(Platform, a)
			ctx, cancel := context.WithCancel(context.Background())
			var wg sync.WaitGroup
			wg.Add(1)
			go func() { defer wg.Done(); a.Run(ctx) }()
			defer wg.Wait()
			defer cancel()
			e := &env{t: t, a: a, bot: bot, db: db, fake: fake}
			playPrivateGame(t, e, func(body []byte) map[string]any {
				tok := tokenOf(body)
				fake.issue(tok, time.Now())
				gw.send(body, 0, 1)
				for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
					if cs := fake.find("POST", "/"+tok+"/callback"); len(cs) > 0 {
						a.Wait() // the edit of @original and what follows
						return cs[0].JSON
					}
				}
				t.Fatalf("no response to %s", tok)
				return nil
			}, privateChannel("pc1"), watcher)
		})
	}
}

type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time          { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// A reminder in a DM between users reaches the player by DM from the
// bot; when the player takes no DMs from the bot, it waits for the next
// interaction in the DM and is shown there once. Room notices ride on a
// fresh interaction's follow-ups, never a sixth.
func TestNoticesWhereTheBotIsNoMember(t *testing.T) {
	clk := &testClock{t: time.Now().Truncate(time.Second)}
	e := newEnvWith(t, chat.Config{Rules: "japanese", Width: 9, Height: 9, Reminders: []time.Duration{time.Hour, 10 * time.Minute}}, clk)
	e.a.now = clk.Now
	e.fake.now = clk.Now
	w := privateChannel("pc2")
	e.fake.noBot = map[string]bool{"pc2": true}
	d := func(body []byte) map[string]any {
		_, out := e.send(body, clk.Now(), false)
		return out
	}
	d(e.ix(w, "111", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")+","+opt("clock", 3, "2h")))
	d(e.ix(w, "222", "accept", ""))
	d(e.ix(w, "111", "play", opt("point", 3, "E5")))
	e.fake.take()

	// 65 minutes on: the token of the last interaction has expired; the
	// 1-hour reminder goes to bob by DM.
	clk.Advance(65 * time.Minute)
	if err := e.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	dms := e.fake.find("POST", "/channels/dm222/messages")
	if len(dms) != 1 || !strings.Contains(fmt.Sprint(dms[0].JSON["embeds"]), "your move in game #1") {
		t.Fatalf("the reminder by DM: %v", e.fake.take())
	}
	// Claimed again after a crash, it would carry the same nonce: Discord
	// keeps one.
	if n, _ := dms[0].JSON["nonce"].(string); n == "" || dms[0].JSON["enforce_nonce"] != true {
		t.Fatalf("the reminder by DM carries no nonce: %v", dms[0].JSON)
	}
	e.fake.obeyed(t)

	// Bob stops taking DMs from the bot: the 10-minute reminder waits.
	e.fake.mu.Lock()
	e.fake.dmRefused = map[string]bool{"222": true}
	e.fake.mu.Unlock()
	e.fake.take()
	clk.Advance(50 * time.Minute)
	if err := e.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if e.fake.dmRefusals != 1 {
		t.Fatalf("%d refused DMs, want 1", e.fake.dmRefusals)
	}
	// Carol's next interaction in the DM shows it, as a follow-up.
	body := e.ix(w, "222", "games", "")
	d(body)
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["content"]), "While you were away") ||
		!strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "5m left") {
		t.Fatalf("the held reminder: %v", fus)
	}
	// Shown once: the next interaction has no follow-up.
	body = e.ix(w, "111", "games", "")
	d(body)
	if fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body)); len(fus) != 0 {
		t.Fatalf("the held reminder again: %v", fus)
	}
	e.fake.obeyed(t)

	// Seven notices for the room while that token is fresh: five go as
	// its follow-ups; the other two find no follow-up left and no DM
	// taken, and wait for the next interaction.
	for i := 1; i <= 7; i++ {
		if err := e.a.Notify(context.Background(), protocol.Message{Room: "discord:pc2",
			Reply: protocol.Reply{Game: 1, Title: "Game #1", Text: fmt.Sprintf("notice %d", i), Mentions: []gobot.UserID{"discord:222"}}}); err != nil {
			t.Fatal(err)
		}
	}
	if n := len(e.fake.find("POST", "/webhooks/app/"+tokenOf(body))); n != 5 {
		t.Fatalf("%d follow-ups, want 5", n)
	}
	body = e.ix(w, "111", "board", "")
	d(body)
	fus = e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 2 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "notice 6") || !strings.Contains(fmt.Sprint(fus[1].JSON["embeds"]), "notice 7") {
		t.Fatalf("the held notices: %v", fus)
	}
	e.fake.obeyed(t)

	// Past the token's 15 minutes nothing is sent on it.
	clk.Advance(16 * time.Minute)
	e.fake.mu.Lock()
	e.fake.dmRefused = nil
	e.fake.mu.Unlock()
	if err := e.a.Notify(context.Background(), protocol.Message{Room: "discord:pc2",
		Reply: protocol.Reply{Game: 1, Title: "Game #1", Text: "late", Mentions: []gobot.UserID{"discord:111"}}}); err != nil {
		t.Fatal(err)
	}
	if len(e.fake.find("POST", "/channels/dm111/messages")) != 1 {
		t.Fatalf("a late notice by DM: %v", e.fake.take())
	}
	e.fake.obeyed(t)
}

// A server that has not added the bot, where a user installed it and
// members may not use external apps in public: Discord shows each reply
// only to its caller; gobot says so once, and says that threads are not
// available instead of opening one.
func TestServerWithoutTheBot(t *testing.T) {
	e := newEnv(t)
	w := where{channel: "c9", guild: "g9", context: 0, owners: `{"1":"111"}`, perms: "2048"}
	e.fake.noBot = map[string]bool{"c9": true}
	d := func(body []byte) map[string]any {
		_, out := e.send(body, time.Now(), false)
		return out
	}
	out := d(e.ix(w, "111", "settings", opt("options", 3, "room threads=on")))
	if data := out["data"].(map[string]any); !strings.Contains(fmt.Sprint(data["content"]), "each player sees only their own replies") {
		t.Fatalf("the note: %v", out)
	}
	out = d(e.ix(w, "111", "challenge", opt("player", 6, "222")+","+opt("size", 3, "9")+","+opt("color", 3, "black")))
	if strings.Contains(fmt.Sprint(out), "only their own") {
		t.Fatalf("the note twice: %v", out)
	}
	body := e.ix(w, "222", "accept", "")
	d(body)
	if embeds := fmt.Sprint(e.fake.edited(t, body).JSON["embeds"]); !strings.Contains(embeds, "Threads aren't available here") {
		t.Fatalf("no word on threads: %v", embeds)
	}
	if cs := e.fake.find("POST", "/threads"); len(cs) != 0 {
		t.Fatalf("a thread was started: %v", cs)
	}
	e.fake.obeyed(t)
	// With the bot added (the server's install among the owners), the
	// same channel is an ordinary one again.
	w.owners = `{"0":"g9","1":"111"}`
	e.a.seen(context.Background(), mustInteraction(t, e.ix(w, "111", "games", "")))
	if e.a.isNoBot(context.Background(), "c9") {
		t.Fatal("the channel still counts as one without the bot")
	}
}

// /go is registered globally for both install types and every context;
// a guild's own /go from before is removed; user_install off keeps the
// guild-only registration.
func TestRegisterUserInstall(t *testing.T) {
	e := newEnv(t)
	e.a.cfg.UserInstall, e.a.cfg.GuildIDs = true, []string{"g1"}
	if err := e.a.Register(); err != nil {
		t.Fatal(err)
	}
	global := e.fake.find("PUT", "/applications/app/commands")
	guild := e.fake.find("PUT", "/applications/app/guilds/g1/commands")
	if len(global) != 1 || len(guild) != 1 {
		t.Fatalf("registrations: %v", e.fake.take())
	}
	var cmds []map[string]any
	if err := json.Unmarshal(global[0].Body, &cmds); err != nil || len(cmds) != 3 {
		t.Fatalf("global commands: %s", global[0].Body)
	}
	for i, name := range []string{"go", "gobot", "tournament"} {
		if cmds[i]["name"] != name || fmt.Sprint(cmds[i]["integration_types"]) != "[0 1]" || fmt.Sprint(cmds[i]["contexts"]) != "[0 1 2]" {
			t.Fatalf("/%s: name %v, integration_types %v, contexts %v", name, cmds[i]["name"], cmds[i]["integration_types"], cmds[i]["contexts"])
		}
	}
	if strings.TrimSpace(string(guild[0].Body)) != "[]" {
		t.Fatalf("the guild's own /go: %s", guild[0].Body)
	}
	e.fake.take()
	if err := e.a.Register(); err != nil || len(e.fake.take()) != 0 {
		t.Fatal("registered again with nothing changed")
	}

	// Turned off again: the guild gets its own /go back and the global
	// one is removed (once).
	e.a.cfg.UserInstall = false
	if err := e.a.Register(); err != nil {
		t.Fatal(err)
	}
	global = e.fake.find("PUT", "/applications/app/commands")
	guild = e.fake.find("PUT", "/applications/app/guilds/g1/commands")
	if len(global) != 1 || strings.TrimSpace(string(global[0].Body)) != "[]" {
		t.Fatalf("global /go after user_install off: %v", global)
	}
	if len(guild) != 1 || !strings.Contains(string(guild[0].Body), `"name":"go"`) || !strings.Contains(string(guild[0].Body), `"name":"gobot"`) || strings.Contains(string(guild[0].Body), "integration_types") {
		t.Fatalf("the guild's /go after user_install off: %v", guild)
	}
	e.fake.take()
	if err := e.a.Register(); err != nil || len(e.fake.take()) != 0 {
		t.Fatal("registered again with nothing changed")
	}

	e = newEnv(t)
	e.a.cfg.GuildIDs = []string{"g1"}
	if err := e.a.Register(); err != nil {
		t.Fatal(err)
	}
	calls := e.fake.take()
	if len(calls) != 1 || !strings.HasSuffix(calls[0].Path, "/guilds/g1/commands") || strings.Contains(string(calls[0].Body), "integration_types") {
		t.Fatalf("guild-only registration: %v", calls)
	}
}

// What gobot knows about channels where it is no member, and the notices
// waiting there, outlive the process: a new adapter on the same store
// neither posts there nor forgets the notice.
func TestHeldNoticesSurviveARestart(t *testing.T) {
	e := newEnv(t)
	w := privateChannel("pc3")
	e.fake.noBot = map[string]bool{"pc3": true}
	e.fake.dmRefused = map[string]bool{"222": true}
	e.send(e.ix(w, "111", "games", ""), time.Now(), false)
	e.a.ch.mu.Lock()
	delete(e.a.ch.latest, "pc3") // as if its token had expired
	e.a.ch.mu.Unlock()
	notice := protocol.Message{Room: "discord:pc3", Reply: protocol.Reply{Game: 1, Title: "Game #1", Text: "time is short", Mentions: []gobot.UserID{"discord:222"}}}
	if err := e.a.Notify(context.Background(), notice); err != nil {
		t.Fatal(err)
	}

	b, err := New(e.a.cfg, e.bot, gobot.StoreState(e.db), slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	e.a = b
	e.bot.SetNotifier(Platform, b)
	srv := httptest.NewServer(b)
	defer srv.Close()
	e.srv, e.client = srv, srv.Client()
	if !b.isNoBot(context.Background(), "pc3") {
		t.Fatal("the new adapter takes pc3 for a channel with the bot")
	}
	body := e.ix(w, "222", "games", "")
	e.send(body, time.Now(), false)
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "time is short") {
		t.Fatalf("the held notice after a restart: %v", fus)
	}
	e.fake.obeyed(t)
}

// A process that marked a held notice to offer it and died before it
// was sent leaves it marked: no other process offers it meanwhile (no
// double), and once the mark has expired it is offered again (not lost).
func TestHeldNoticeOfferedByAProcessThatDied(t *testing.T) {
	e := newEnv(t)
	w := privateChannel("pc4")
	e.fake.noBot = map[string]bool{"pc4": true}
	e.fake.dmRefused = map[string]bool{"222": true}
	now := time.Now()
	e.a.now = func() time.Time { return now }
	e.send(e.ix(w, "111", "games", ""), now, false)
	e.a.ch.mu.Lock()
	delete(e.a.ch.latest, "pc4")
	e.a.ch.mu.Unlock()
	notice := protocol.Message{Room: "discord:pc4", Reply: protocol.Reply{Game: 1, Title: "Game #1", Text: "time is short", Mentions: []gobot.UserID{"discord:222"}}}
	if err := e.a.Notify(context.Background(), notice); err != nil {
		t.Fatal(err)
	}
	// Another process marks it for its offer, then dies.
	if err := e.a.updateHeld(context.Background(), "pc4", func(hs []held) []held {
		for i := range hs {
			hs[i].Offered = now.Add(offerFor)
		}
		return hs
	}); err != nil {
		t.Fatal(err)
	}
	body := e.ix(w, "222", "games", "")
	e.send(body, now, false)
	if fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body)); len(fus) != 0 {
		t.Fatalf("a notice another process is offering was offered again at once: %v", fus)
	}
	now = now.Add(offerFor + time.Second)
	body = e.ix(w, "222", "games", "")
	e.send(body, now, false)
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "time is short") {
		t.Fatalf("the notice after its mark expired: %v", fus)
	}
	raw, err := gobot.StoreState(e.db).GetState(context.Background(), Platform, heldKey("pc4"))
	if !errors.Is(err, gobot.ErrNotFound) {
		t.Fatalf("after it was shown: held %q (%v), want none", raw, err)
	}
	e.fake.obeyed(t)
}

// Where Discord shows each reply to its caller alone, a notice held for
// bob is not shown to alice (it would be gone before bob saw it): it
// waits for bob. A notice whose DM reached one player and was refused by
// the other is held for the other only.
func TestHeldNoticeWaitsForItsPlayerWhereRepliesArePrivate(t *testing.T) {
	e := newEnv(t)
	w := where{channel: "c8", guild: "g8", context: 0, owners: `{"1":"111"}`, perms: "2048"}
	e.fake.noBot = map[string]bool{"c8": true}
	e.fake.dmRefused = map[string]bool{"222": true}
	now := time.Now()
	e.send(e.ix(w, "111", "games", ""), now, false)
	e.a.ch.mu.Lock()
	delete(e.a.ch.latest, "c8") // its token has expired: the notice goes by DM
	e.a.ch.mu.Unlock()
	notice := protocol.Message{Room: "discord:c8", Reply: protocol.Reply{Game: 1, Title: "Game #1", Text: "time is short",
		Mentions: []gobot.UserID{"discord:111", "discord:222"}}}
	if err := e.a.Notify(context.Background(), notice); err != nil {
		t.Fatal(err)
	}
	if dms := e.fake.find("POST", "/channels/dm111/messages"); len(dms) != 1 {
		t.Fatalf("alice's DM: %v", dms)
	}
	body := e.ix(w, "111", "games", "")
	e.send(body, now, false)
	if fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body)); len(fus) != 0 {
		t.Fatalf("bob's held notice was shown to alice (who had it by DM): %v", fus)
	}
	body = e.ix(w, "222", "games", "")
	e.send(body, now, false)
	fus := e.fake.find("POST", "/webhooks/app/"+tokenOf(body))
	if len(fus) != 1 || !strings.Contains(fmt.Sprint(fus[0].JSON["embeds"]), "time is short") {
		t.Fatalf("bob's held notice: %v", fus)
	}
	e.fake.obeyed(t)
}
