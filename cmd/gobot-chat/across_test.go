package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot/chat/matrix/dendritetest"
)

// TestAcrossPlatformsEndToEnd runs one gobot process with the terminal,
// Discord (signed interactions; strictDiscord stands in for discord.com)
// and Matrix (a real Dendrite) together, the two joined in one community,
// and the web board, and plays as people would: a Discord player links
// her Matrix account; she challenges a Matrix player from Discord; they
// play a game to its end with moves from Discord, from Matrix and from
// the web board (in Chromium, opened with the link she asked for from
// Matrix); the process is killed mid-game and started again. Both rooms
// see the challenge, every move and the result exactly once.
func TestAcrossPlatformsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Dendrite, Chromium and gobot processes")
	}
	hs := dendritetest.Start(t, dendritetest.Options{Exempt: []string{"@gobot:localhost", "@bob:localhost", "@ann:localhost"}})
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	mxRegister(t, ctx, hs, "gobot")
	bob := newMxUser(t, ctx, hs, "bob")
	annMx := newMxUser(t, ctx, hs, "ann")
	const botMx = id.UserID("@gobot:localhost")

	club, err := bob.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "go club", Invite: []id.UserID{botMx}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := annMx.cli.JoinRoomByID(ctx, club.RoomID); err != nil {
		t.Fatal(err)
	}
	dm, err := annMx.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "trusted_private_chat", IsDirect: true, Invite: []id.UserID{botMx}})
	if err != nil {
		t.Fatal(err)
	}

	discord := &strictDiscord{nonces: map[string]bool{}}
	api := httptest.NewServer(discord)
	t.Cleanup(api.Close)
	pub, priv, _ := ed25519.GenerateKey(nil)
	dir := t.TempDir()
	discordAddr, webAddr := freeAddr(t), freeAddr(t)
	config := filepath.Join(dir, "gobot.yaml")
	if err := os.WriteFile(config, []byte(fmt.Sprintf(`storage:
  path: %s
log:
  level: debug
clock:
  claim_ttl: 2s
  tick: 1s
defaults:
  size: "9"
console:
  enabled: true
  user: carol
discord:
  enabled: true
  mode: http
  token: tok
  application_id: "999"
  public_key: %s
  listen: %s
  api_url: %s/api/v9/
matrix:
  enabled: true
  homeserver: %s
  user_id: "@gobot:localhost"
  password: password-gobot
  encryption: false
web:
  enabled: true
  listen: %s
  public_url: http://%s
  secret: %s
communities:
  - name: Go Club
    discord: [{guild: "1001", channel: "2002"}]
    matrix: [%q]
`, filepath.Join(dir, "gobot.db"), hex.EncodeToString(pub), discordAddr, api.URL, hs, webAddr, webAddr, strings.Repeat("s", 40), club.RoomID)), 0o600); err != nil {
		t.Fatal(err)
	}
	proc := &acrossProc{config: config, log: filepath.Join(dir, "gobot.log"), addr: discordAddr}
	proc.start(t)
	t.Cleanup(proc.kill)
	defer func() {
		if t.Failed() {
			b, _ := os.ReadFile(proc.log)
			if len(b) > 20000 {
				b = b[len(b)-20000:]
			}
			t.Logf("gobot's log (end):\n%s", b)
		}
	}()
	mxWaitJoined(t, ctx, bob, club.RoomID, botMx)
	mxWaitJoined(t, ctx, annMx, dm.RoomID, botMx)

	// The terminal runs in the same process.
	proc.typeLine(t, "games")
	proc.waitLog(t, "You have no active games", "the terminal's answer to games")

	ds := &discordSender{t: t, priv: priv, addr: discordAddr, fake: discord}
	// mxAsk says line as u in room and wants the bot's answer to say want.
	mxAsk := func(u *mxUser, room id.RoomID, line, want string) string {
		t.Helper()
		c := u.answer(t, ctx, u.say(t, ctx, room, line))
		if !strings.Contains(c, want) {
			t.Fatalf("%s on Matrix: %q, want %q", line, c, want)
		}
		return c
	}
	// annPlays plays pt as ann on Discord: answered in public.
	annPlays := func(pt string) {
		t.Helper()
		out := ds.send("111", "ann", "go", "play", fmt.Sprintf(`{"name":"point","type":3,"value":%q}`, pt))
		if out.private || !strings.Contains(out.text, pt) {
			t.Fatalf("%s on Discord: %+v", pt, out)
		}
	}
	// A link made from Discord to Matrix: the code, privately on
	// Discord, sent back from Matrix in a direct message.
	out := ds.send("111", "ann", "gobot", "account", `{"name":"action","type":3,"value":"link"}`)
	code := regexp.MustCompile(`account link ([A-Z0-9]{10})`).FindStringSubmatch(out.text)
	if code == nil || !out.private {
		t.Fatalf("account link on Discord: %+v", out)
	}
	mxAsk(annMx, dm.RoomID, "!go account link "+code[1], "Linked")

	// The challenge from Discord to the Matrix player, seen in both rooms.
	out = ds.send("111", "ann", "go", "challenge", `{"name":"elsewhere","type":3,"value":"@bob:localhost"},{"name":"color","type":3,"value":"black"}`)
	if out.private || !strings.Contains(out.text, "challenges") {
		t.Fatalf("the challenge on Discord: %+v", out)
	}
	bob.waitCount(t, ctx, club.RoomID, "challenges", 1)
	mxAsk(bob, club.RoomID, "!go accept", "begins")
	discord.waitCount(t, ctx, "2002", "begins", 1)

	// Moves from Discord and Matrix, each seen once in the other room.
	annPlays("E5")
	bob.waitCount(t, ctx, club.RoomID, "played E5", 1)
	mxAsk(bob, club.RoomID, "!go play C3", "C3")
	discord.waitCount(t, ctx, "2002", "played C3", 1)

	// A move from the web board, opened with the link ann asked for from
	// her Matrix account: the board knows her as the game's Black.
	link := regexp.MustCompile(`http://[^\s"<>)]+/l/[^\s"<>)]+`).FindString(mxAsk(annMx, dm.RoomID, "!go web #1", "/l/"))
	if link == "" {
		t.Fatal("no personal link in the answer to web #1")
	}
	browser := acrossBrowser(t)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		c, cancel := context.WithTimeout(browser, time.Minute)
		defer cancel()
		if err := chromedp.Do(c, actions...); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	run("open the board", chromedp.Navigate(link), chromedp.WaitVisible(chromedp.CSS(`[data-point="G7"]`)))
	c, cancel2 := context.WithTimeout(browser, time.Minute)
	if _, err := chromedp.Run(c, chromedp.Poll[bool](`document.body.dataset.live === 'on'`, chromedp.WithPollingTimeout(0))); err != nil {
		t.Fatalf("the board's live stream: %v", err)
	}
	cancel2()
	run("click G7", chromedp.Click(chromedp.CSS(`[data-point="G7"]`)))
	discord.waitCount(t, ctx, "2002", "played G7", 1)
	bob.waitCount(t, ctx, club.RoomID, "played G7", 1)

	// Killed right after a move is answered, started again: the move's
	// copy for the other room is sent once, by the process that comes
	// back (its claim), whether or not the killed one got to it.
	mxAsk(bob, club.RoomID, "!go play D4", "D4")
	proc.kill()
	proc.start(t)
	discord.waitCount(t, ctx, "2002", "played D4", 1)

	// The game to its end after the restart: a move from Discord, then
	// bob resigns from Matrix; both rooms see the result.
	annPlays("C7")
	bob.waitCount(t, ctx, club.RoomID, "played C7", 1)
	mxAsk(bob, club.RoomID, "!go resign", "resign")
	discord.waitCount(t, ctx, "2002", "resign", 1)

	// The game is rated in the joined community, one record per player:
	// ann's, asked for from her linked Matrix account in the club's room,
	// is her Discord account's, with the game won.
	mxAsk(annMx, club.RoomID, "!go rating", "1 rated game: 1 win, 0 losses")
	// One leaderboard: on Discord it lists the Matrix player too.
	out = ds.send("222", "cat", "gobot", "top", "")
	if !regexp.MustCompile(`\bann +\d+ .* 1-0\n`).MatchString(out.text) || !regexp.MustCompile(`\bbob +\d+ .* 0-1\n`).MatchString(out.text) {
		t.Fatalf("the leaderboard on Discord: %q", out.text)
	}

	// Nothing was said twice: a second for late copies to show up, then
	// each move once in each room (a room's own move is its answer).
	time.Sleep(2 * time.Second)
	for _, mv := range []string{"E5", "C3", "G7", "D4", "C7"} {
		if n := bob.count(club.RoomID, "played "+mv); n != 1 {
			t.Errorf("the Matrix room saw %s %d times", mv, n)
		}
	}
	for _, mv := range []string{"C3", "G7", "D4"} {
		if n := discord.count("2002", "played "+mv); n != 1 {
			t.Errorf("the Discord channel saw %s %d times", mv, n)
		}
	}
	if v := discord.violationList(); len(v) > 0 {
		t.Errorf("Discord would have refused: %v", v)
	}
}

// freeAddr is a free address on the loopback.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// acrossProc is the gobot process of TestAcrossPlatformsEndToEnd: this
// test binary run again as `gobot run -config FILE` (TestGobotProcess),
// with the terminal on a pipe.
type acrossProc struct {
	config, log, addr string
	cmd               *exec.Cmd
	stdin             io.WriteCloser
}

func (p *acrossProc) start(t *testing.T) {
	t.Helper()
	logf, err := os.OpenFile(p.log, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer logf.Close()
	p.cmd = exec.Command(os.Args[0], "-test.run=^TestGobotProcess$")
	p.cmd.Env = append(os.Environ(), "GOBOT_SCALE_CHILD="+p.config, "GOBOT_CHILD_STDIN=1")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	if p.stdin, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(90 * time.Second); ; {
		c, err := net.Dial("tcp", p.addr)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("gobot did not start listening on %s: %v", p.addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// kill kills the process, as a crash would.
func (p *acrossProc) kill() {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}
}

func (p *acrossProc) typeLine(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(p.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// waitLog waits until the process's output says s.
func (p *acrossProc) waitLog(t *testing.T, s, what string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if b, _ := os.ReadFile(p.log); bytes.Contains(b, []byte(s)) {
			return
		}
	}
	t.Fatalf("never saw %s (%q)", what, s)
}

// discordSender sends interactions signed as Discord signs them, from a
// member of the club's server in its channel.
type discordSender struct {
	t    *testing.T
	priv ed25519.PrivateKey
	addr string
	fake *strictDiscord
	seq  int
}

type answer struct {
	text    string
	private bool
}

// send posts /command sub with opts (JSON options) as user.
func (s *discordSender) send(user, name, command, sub, opts string) answer {
	s.t.Helper()
	s.seq++
	token := fmt.Sprintf("tok%d", s.seq)
	s.fake.issue(token)
	body := []byte(fmt.Sprintf(`{"id":"%d%d","application_id":"999","type":2,"token":%q,"channel_id":"2002","guild_id":"1001",
		"member":{"user":{"id":%q,"username":%q},"permissions":"0"},
		"data":{"id":"cmd","name":%q,"type":1,"options":[{"name":%q,"type":1,"options":[%s]}]}}`, time.Now().UnixNano(), s.seq, token, user, name, command, sub, opts))
	stamp := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequest(http.MethodPost, "http://"+s.addr+"/interactions", bytes.NewReader(body))
	req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(s.priv, append([]byte(stamp), body...))))
	req.Header.Set("X-Signature-Timestamp", stamp)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Type int
		Data discordMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		s.t.Fatalf("/%s %s: %v", command, sub, err)
	}
	if v := out.Data.violations(); len(v) > 0 {
		s.t.Errorf("/%s %s: Discord would refuse the answer: %v", command, sub, v)
	}
	if out.Type == 5 { // deferred: the answer comes as the original response's edit
		for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if m, ok := s.fake.answer(token); ok {
				return answer{text: m.text(), private: out.Data.Flags&64 != 0 || m.Flags&64 != 0}
			}
		}
		s.t.Fatalf("/%s %s: the deferred answer never came", command, sub)
	}
	return answer{text: out.Data.text(), private: out.Data.Flags&64 != 0}
}

// discordMessage is a message as the bot sends it to Discord.
type discordMessage struct {
	Content string
	Flags   int
	Nonce   string `json:"nonce"`
	Enforce bool   `json:"enforce_nonce"`
	Embeds  []struct {
		Title, Description string
		Fields             []struct{ Name, Value string }
	}
	Components      []struct{ Components []json.RawMessage }
	AllowedMentions *struct{ Users []string } `json:"allowed_mentions"`
}

func (m discordMessage) text() string {
	s := m.Content
	for _, e := range m.Embeds {
		s += "\n" + e.Title + "\n" + e.Description
	}
	return s
}

var snowflakeRE = regexp.MustCompile(`^[0-9]{1,20}$`)

// violations are the rules of Discord's message documentation m breaks:
// content up to 2,000 characters; up to 10 embeds, each title up to 256,
// description up to 4,096, up to 25 fields, 6,000 characters in all; up
// to 5 rows of components, 5 in a row; allowed mentions by user ID.
func (m discordMessage) violations() []string {
	var v []string
	if n := len([]rune(m.Content)); n > 2000 {
		v = append(v, fmt.Sprintf("content of %d characters", n))
	}
	if len(m.Embeds) > 10 {
		v = append(v, "more than 10 embeds")
	}
	total := 0
	for _, e := range m.Embeds {
		if len([]rune(e.Title)) > 256 || len([]rune(e.Description)) > 4096 || len(e.Fields) > 25 {
			v = append(v, "an embed over its limits")
		}
		total += len([]rune(e.Title)) + len([]rune(e.Description))
		for _, f := range e.Fields {
			total += len([]rune(f.Name)) + len([]rune(f.Value))
		}
	}
	if total > 6000 {
		v = append(v, "embeds of more than 6,000 characters")
	}
	if len(m.Components) > 5 {
		v = append(v, "more than 5 rows of components")
	}
	for _, r := range m.Components {
		if len(r.Components) > 5 {
			v = append(v, "more than 5 components in a row")
		}
	}
	if m.AllowedMentions != nil {
		for _, u := range m.AllowedMentions.Users {
			if !snowflakeRE.MatchString(u) {
				v = append(v, "allowed_mentions names "+u+", not a user ID")
			}
		}
	}
	return v
}

// strictDiscord stands in for discord.com's REST API: it keeps the
// messages posted in each channel, applies enforce_nonce as Discord does
// (a second message with a nonce already seen is not posted again),
// refuses a follow-up on an interaction token after 15 minutes or after
// 5, and records every message Discord's rules would refuse.
type strictDiscord struct {
	mu         sync.Mutex
	posts      map[string][]string // by channel, the messages' text
	nonces     map[string]bool
	issued     map[string]time.Time
	followups  map[string]int
	answers    map[string]discordMessage // by interaction token: the deferred answer
	violations []string
}

func (f *strictDiscord) issue(token string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.issued == nil {
		f.issued = map[string]time.Time{}
	}
	f.issued[token] = time.Now()
}

func (f *strictDiscord) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	var m discordMessage
	if mt, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); strings.HasPrefix(mt, "multipart/") {
		mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := mr.NextPart()
			if err != nil {
				break
			}
			if p.FormName() == "payload_json" {
				json.NewDecoder(p).Decode(&m)
			}
		}
	} else {
		json.Unmarshal(body, &m)
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/api/v9/"), "/")
	w.Header().Set("Content-Type", "application/json")
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case strings.HasSuffix(r.URL.Path, "/commands"):
		io.WriteString(w, "[]")
		return
	case len(parts) == 2 && parts[0] == "users" && parts[1] == "@me":
		io.WriteString(w, `{"id":"999","username":"gobot","bot":true}`)
		return
	case strings.HasSuffix(r.URL.Path, "/users/@me/channels"):
		var in struct {
			Recipient string `json:"recipient_id"`
		}
		json.Unmarshal(body, &in)
		fmt.Fprintf(w, `{"id":"dm%s","type":1}`, in.Recipient)
		return
	case len(parts) >= 3 && parts[0] == "webhooks":
		at, ok := f.issued[parts[2]]
		if !ok || time.Since(at) > 15*time.Minute {
			f.violations = append(f.violations, "a follow-up on an unknown or expired token")
			w.WriteHeader(http.StatusUnauthorized)
			io.WriteString(w, `{"code":50027,"message":"Invalid Webhook Token"}`)
			return
		}
		f.violations = append(f.violations, m.violations()...)
		if len(parts) == 5 && parts[4] == "@original" && r.Method == http.MethodPatch {
			if f.answers == nil {
				f.answers = map[string]discordMessage{}
			}
			if _, ok := f.answers[parts[2]]; !ok {
				f.answers[parts[2]] = m
			}
		}
		if r.Method == http.MethodPost {
			if f.followups == nil {
				f.followups = map[string]int{}
			}
			if f.followups[parts[2]]++; f.followups[parts[2]] > 5 {
				f.violations = append(f.violations, "a sixth follow-up")
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, `{"code":40094,"message":"too many follow-ups"}`)
				return
			}
		}
	case len(parts) == 3 && parts[0] == "channels" && parts[2] == "messages" && r.Method == http.MethodPost:
		f.violations = append(f.violations, m.violations()...)
		if m.Enforce && m.Nonce != "" {
			if f.nonces[m.Nonce] {
				io.WriteString(w, `{"id":"m1","channel_id":"`+parts[1]+`"}`) // the message posted before
				return
			}
			f.nonces[m.Nonce] = true
		}
		if f.posts == nil {
			f.posts = map[string][]string{}
		}
		f.posts[parts[1]] = append(f.posts[parts[1]], m.text())
	}
	io.WriteString(w, `{"id":"m1","channel_id":"c1"}`)
}

// answer is the deferred answer to the interaction with token.
func (f *strictDiscord) answer(token string) (discordMessage, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.answers[token]
	return m, ok
}

// count is how many messages posted in channel say s.
func (f *strictDiscord) count(channel, s string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, p := range f.posts[channel] {
		if strings.Contains(p, s) {
			n++
		}
	}
	return n
}

// waitCount waits until channel has n messages saying s.
func (f *strictDiscord) waitCount(t *testing.T, ctx context.Context, channel, s string, n int) {
	t.Helper()
	for f.count(channel, s) < n {
		select {
		case <-ctx.Done():
			f.mu.Lock()
			defer f.mu.Unlock()
			t.Fatalf("the Discord channel %s never saw %q; it saw:\n%s", channel, s, strings.Join(f.posts[channel], "\n---\n"))
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (f *strictDiscord) violationList() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.violations)
}

// mxUser is a person on Matrix: their client and the bot's messages
// their sync saw.
type mxUser struct {
	cli  *mautrix.Client
	mu   sync.Mutex
	seen []*event.Event
}

func mxRegister(t *testing.T, ctx context.Context, hs, name string) *mautrix.Client {
	t.Helper()
	cli, err := mautrix.NewClient(hs, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for {
		resp, err := cli.RegisterDummy(ctx, &mautrix.ReqRegister[any]{Username: name, Password: "password-" + name})
		if err == nil {
			cli.UserID, cli.AccessToken, cli.DeviceID = resp.UserID, resp.AccessToken, resp.DeviceID
			return cli
		}
		if !errors.Is(err, mautrix.MLimitExceeded) || ctx.Err() != nil {
			t.Fatalf("registering %s: %v", name, err)
		}
		time.Sleep(300 * time.Millisecond) // registration is limited by address
	}
}

// newMxUser registers name and syncs until the test ends.
func newMxUser(t *testing.T, ctx context.Context, hs, name string) *mxUser {
	t.Helper()
	u := &mxUser{cli: mxRegister(t, ctx, hs, name)}
	u.cli.StateStore = mautrix.NewMemoryStateStore()
	syncer := u.cli.Syncer.(*mautrix.DefaultSyncer)
	syncer.OnEvent(u.cli.StateStoreSyncHandler)
	syncer.OnEventType(event.EventMessage, func(_ context.Context, evt *event.Event) {
		if evt.Sender == "@gobot:localhost" {
			u.mu.Lock()
			u.seen = append(u.seen, evt)
			u.mu.Unlock()
		}
	})
	sctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for sctx.Err() == nil {
			if err := u.cli.SyncWithContext(sctx); err != nil && sctx.Err() == nil {
				time.Sleep(100 * time.Millisecond)
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return u
}

func (u *mxUser) say(t *testing.T, ctx context.Context, room id.RoomID, text string) id.EventID {
	t.Helper()
	resp, err := u.cli.SendText(ctx, room, text)
	if err != nil {
		t.Fatalf("%s says %q: %v", u.cli.UserID, text, err)
	}
	return resp.EventID
}

// answer waits for the bot's text answer to cmd.
func (u *mxUser) answer(t *testing.T, ctx context.Context, cmd id.EventID) string {
	t.Helper()
	for {
		u.mu.Lock()
		for _, e := range u.seen {
			if c := e.Content.AsMessage(); c.MsgType == event.MsgNotice && c.RelatesTo.GetReplyTo() == cmd {
				u.mu.Unlock()
				return c.Body
			}
		}
		u.mu.Unlock()
		select {
		case <-ctx.Done():
			t.Fatalf("%s: no answer to %s; the bot said:\n%s", u.cli.UserID, cmd, u.transcript())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// count is how many of the bot's text messages in room say s.
func (u *mxUser) count(room id.RoomID, s string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	n := 0
	for _, e := range u.seen {
		if c := e.Content.AsMessage(); e.RoomID == room && c.MsgType == event.MsgNotice && strings.Contains(c.Body, s) {
			n++
		}
	}
	return n
}

func (u *mxUser) waitCount(t *testing.T, ctx context.Context, room id.RoomID, s string, n int) {
	t.Helper()
	for u.count(room, s) < n {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never saw %q in %s; the bot said:\n%s", u.cli.UserID, s, room, u.transcript())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func (u *mxUser) transcript() string {
	u.mu.Lock()
	defer u.mu.Unlock()
	var sb strings.Builder
	for _, e := range u.seen {
		fmt.Fprintf(&sb, "  %s: %q\n", e.RoomID, e.Content.AsMessage().Body)
	}
	return sb.String()
}

// mxWaitJoined waits until u's sync shows who joined room.
func mxWaitJoined(t *testing.T, ctx context.Context, u *mxUser, room id.RoomID, who id.UserID) {
	t.Helper()
	for !u.cli.StateStore.IsInRoom(ctx, room, who) {
		select {
		case <-ctx.Done():
			t.Fatalf("%s never joined %s", who, room)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// acrossBrowser is a headless Chromium for the test.
func acrossBrowser(t *testing.T) context.Context {
	t.Helper()
	path := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed, and CI must run the browser tests")
		}
		t.Skip("chromium is not installed")
	}
	opts := append(slices.Clone(chromedp.DefaultExecAllocatorOptions[:]), chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox,
		chromedp.DisableGPU, chromedp.NoFirstRun, chromedp.WindowSize(1000, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting chromium: %v", err)
	}
	return bctx
}
