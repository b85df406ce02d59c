package web

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// The browser tests of the Activity run it where Discord does: the
// browser resolves discord.com, app.discordsays.com (the application
// "app"'s proxy origin) and other.discordsays.com (another
// application's Activity) to servers on loopback (--host-resolver-rules),
// all over https (test certificates, --ignore-certificate-errors). So
// the Activity is a cross-site frame of https://discord.com, as inside
// Discord, and its frame-ancestors are the real ones.

// discordClientPage plays Discord's client (https://discord.com) for the
// Activity page, as the Embedded App SDK (discord-sdk/Discord.mjs)
// expects it: the Activity is an iframe of https://app.discordsays.com
// loaded with frame_id, instance_id and platform in its query; it sends
// HANDSHAKE (opcode 0) to its parent, which dispatches READY (opcode 1,
// cmd DISPATCH); then each command (opcode 1 with a nonce) gets its
// response with the same nonce: AUTHORIZE → the code this page was
// given in its own query (?code=; several, comma-separated: one for each
// AUTHORIZE in turn), AUTHENTICATE → the token's details.
// The user it announces in READY and AUTHENTICATE is a lie (?claim=):
// gobot must take the user from Discord, not from the page.
// window.frames_ records every frame it received; window.at_ when (ms
// since 1970, the browser's clock) it framed the Activity and first
// received its HANDSHAKE, AUTHORIZE and AUTHENTICATE
// (TestBrowserActivityTimings).
const discordClientPage = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Discord (test)</title>
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body>
<script>
const q = new URLSearchParams(location.search);
const claim = q.get("claim");
const app = "https://app.discordsays.com";
window.frames_ = [];
const now = () => performance.timeOrigin + performance.now();
window.at_ = {};
let authorized = 0;
const frame = document.createElement("iframe");
frame.id = "w";
const send = (m) => frame.contentWindow.postMessage(m, app);
const user = {id: claim, username: "user" + claim, discriminator: "0", public_flags: 0, global_name: null};
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || ev.origin !== app || !Array.isArray(ev.data)) return;
  const [op, data] = ev.data;
  window.frames_.push([op, data && data.cmd, data && data.args]);
  const step = op === 0 ? "handshake" : data && data.cmd && data.cmd.toLowerCase();
  if (step && !window.at_[step]) window.at_[step] = now();
  if (op === 0) {
    window.handshake = data;
    send([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}, user: user}}]);
    return;
  }
  if (op !== 1) return;
  if (data.cmd === "AUTHORIZE") {
    const codes = (q.get("code") || "").split(","); // one per authorize, the last again
    send([1, {cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: codes[Math.min(authorized++, codes.length - 1)]}}]);
  } else if (data.cmd === "AUTHENTICATE") {
    send([1, {cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {access_token: data.args.access_token, user: user,
      scopes: ["identify"], expires: "2030-01-01T00:00:00Z", application: {id: "app", name: "gobot", description: ""}}}]);
  }
});
window.at_.framed = now();
frame.src = app + "/?frame_id=frame-" + claim + "&instance_id=" + q.get("instance") + "&platform=desktop&guild_id=g1&channel_id=" + q.get("channel");
document.body.append(frame);
</script>
</body></html>`

// otherActivityPage is another application's Activity
// (https://other.discordsays.com), which frames gobot's.
const otherActivityPage = `<!doctype html>
<html><head><meta charset="utf-8"><title>another Activity (test)</title></head>
<body><iframe id="w" src="https://app.discordsays.com/?frame_id=f&instance_id=inst1&platform=desktop"></iframe>
<script>document.getElementById("w").addEventListener("load", () => { window.loaded = true; });</script>
</body></html>`

// activityBrowser is the Activity's browser harness: the harness, the
// stand-ins for discord.com and another Activity, the board behind
// app.discordsays.com as WebKit would keep it (no Set-Cookie reaches
// the browser: WebKit blocks third-party cookies and has no
// Partitioned), and what the board's game routes were sent.
type activityBrowser struct {
	*activityHarness
	browser context.Context
	tt      *testing.T
	mu      sync.Mutex
	routes  []string // "POST /g/1/act bearer" or "… cookie"
}

func newActivityBrowser(t *testing.T) *activityBrowser {
	t.Helper()
	ab := &activityBrowser{activityHarness: newActivityHarness(t), tt: t}
	page := func(body string) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		})
	}
	board := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/g/") || strings.HasPrefix(r.URL.Path, "/r/") {
			how := ""
			if _, ok := bearer(r); ok {
				how += " bearer"
			}
			if r.Header.Get("Cookie") != "" {
				how += " cookie"
			}
			ab.mu.Lock()
			ab.routes = append(ab.routes, r.Method+" "+r.URL.Path+how)
			ab.mu.Unlock()
		}
		ab.srv.Handler().ServeHTTP(noSetCookie{w}, r)
	})
	rules := []string{}
	for _, s := range []struct {
		host string
		h    http.Handler
	}{{"discord.com", page(discordClientPage)}, {"other.discordsays.com", page(otherActivityPage)}, {"app.discordsays.com", board}} {
		ts := httptest.NewUnstartedServer(s.h)
		ts.EnableHTTP2 = true // as Discord's proxy (and discord.com) speak it
		ts.StartTLS()
		t.Cleanup(func() { ts.CloseClientConnections(); ts.Close() })
		rules = append(rules, "MAP "+s.host+" "+strings.TrimPrefix(ts.URL, "https://"))
	}
	ab.browser = startBrowser(t,
		chromedp.Flag("host-resolver-rules", strings.Join(rules, ", ")),
		chromedp.Flag("ignore-certificate-errors", true),
		// Keep the cross-site frame in the page's process, so the test
		// can look inside it (chromedp's WithPollingInFrame).
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	return ab
}

// noSetCookie drops the response's cookies, as WebKit does in a
// third-party frame.
type noSetCookie struct{ http.ResponseWriter }

func (w noSetCookie) WriteHeader(code int) {
	w.Header().Del("Set-Cookie")
	w.ResponseWriter.WriteHeader(code)
}

func (w noSetCookie) Write(b []byte) (int, error) {
	w.Header().Del("Set-Cookie")
	return w.ResponseWriter.Write(b)
}

func (w noSetCookie) Flush() { w.ResponseWriter.(http.Flusher).Flush() }

// tab opens a browser context that blocks third-party cookies.
func (ab *activityBrowser) tab(name string) *tab {
	b := newTab(ab.tt, ab.harness, ab.browser, name)
	b.do("block third-party cookies", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if err := blockThirdPartyCookies(ctx, t); err != nil {
			// The responses to the frame carry no Set-Cookie (noSetCookie),
			// so the frame holds no cookie either way: the test still
			// checks what it means to, and says what this build lacks.
			b.t.Logf("%s: this Chromium refuses Network.setCookieControls (%v): third-party cookies are kept out by dropping Set-Cookie alone", name, err)
		}
		return nil
	}))
	return b
}

// cookieControls is Network.setCookieControls with every parameter the
// method has had. Chromium up to 14x requires all three (cdproto
// v0.159.0 sends only the first, which Debian's 148 refuses with
// -32602); later builds ignore the two they dropped.
type cookieControls struct {
	EnableThirdPartyCookieRestriction bool `json:"enableThirdPartyCookieRestriction"`
	DisableThirdPartyCookieMetadata   bool `json:"disableThirdPartyCookieMetadata"`
	DisableThirdPartyCookieHeuristics bool `json:"disableThirdPartyCookieHeuristics"`
}

// blockThirdPartyCookies turns on the browser's third-party cookie
// restriction in the way the running build accepts: every parameter the
// method has had first, then cdproto's form.
func blockThirdPartyCookies(ctx context.Context, t *chromedp.Target) error {
	full := cdp.Command[cookieControls, cdp.Empty]{Method: network.CommandSetCookieControls}
	_, errFull := cdp.Call(ctx, t, full, cookieControls{EnableThirdPartyCookieRestriction: true})
	if errFull == nil {
		return nil
	}
	if _, err := cdp.Call(ctx, t, network.SetCookieControls, network.SetCookieControlsParams{EnableThirdPartyCookieRestriction: true}); err != nil {
		return fmt.Errorf("%v; with every parameter: %v", err, errFull)
	}
	return nil
}

// launch opens the Activity in b as Discord would for a user whose
// code is code, claiming to be claim, and returns its frame.
func (ab *activityBrowser) launch(b *tab, code, claim, instance string) *chromedp.Node {
	b.t.Helper()
	b.do("launch the Activity", chromedp.Navigate(fmt.Sprintf("https://discord.com/?code=%s&claim=%s&instance=%s&channel=777", code, claim, instance)))
	return inFrame(b)
}

// onSDKPage fails the test unless the Activity's frame is still the
// page Discord loaded, which made one handshake: it never left it.
func onSDKPage(t *testing.T, b *tab, frame *chromedp.Node, what string) {
	t.Helper()
	if loc := frameEval[string](b, frame, `location.pathname + location.search`); !strings.HasPrefix(loc, "/?frame_id=") {
		t.Errorf("%s: %s: the Activity left the SDK's page for %s", b.name, what, loc)
	}
	if n := eval[int](b, `window.frames_.filter(f => f[0] === 0).length`); n != 1 {
		t.Errorf("%s: %s: %d handshakes with Discord, want 1 (the page was loaded again)", b.name, what, n)
	}
}

func clickIn(b *tab, frame *chromedp.Node, sel string) {
	b.t.Helper()
	b.h.now.Advance(1e9) // a second per click, as for a person
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.FromNode(frame)))
}

func waitStoneIn(b *tab, frame *chromedp.Node, p, c string) {
	b.t.Helper()
	frameWait(b, frame, fmt.Sprintf("%s to be %q", p, c), fmt.Sprintf(`(document.querySelector('[data-point=%q]') || {dataset: {}}).dataset.stone === %q`, p, c))
}

// TestBrowserActivity: the Activity in a cross-site frame of a page
// that plays Discord's client (the SDK's handshake, READY, AUTHORIZE
// with scope identify, AUTHENTICATE), with third-party cookies blocked
// and no cookie kept at all, as in WebKit (Discord's iOS app). The page
// signs in as the code's user (whoever it claims to be) and shows the
// board of the instance's channel's game in place: it never leaves the
// SDK's page, and its session is the bearer token it holds. Two players
// play by clicking, each seeing the other's move live. A reused code
// shows the refusal; two games are listed and the one picked opens, in
// place too. Another application's Activity cannot frame gobot's. The
// board fits at desktop width and at 360 px; docs/discord-activity*.png
// with -update.
func TestBrowserActivity(t *testing.T) {
	ab := newActivityBrowser(t)
	ab.discordGame("111", "222")
	ab.discord.instance("inst1", "777", "111", "222")
	alice, bob := ab.tab("alice"), ab.tab("bob")
	aliceCode := ab.discord.code("111")
	af := ab.launch(alice, aliceCode, "222", "inst1") // claims to be bob: gobot asks Discord
	bf := ab.launch(bob, ab.discord.code("222"), "222", "inst1")
	for _, c := range []struct {
		b     *tab
		f     *chromedp.Node
		color string
	}{{alice, af, "black"}, {bob, bf, "white"}} {
		frameWait(c.b, c.f, "the board in the Activity", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on' && !!document.querySelector('[data-point="E5"]')`)
		if got := frameEval[string](c.b, c.f, `document.body.dataset.color`); got != c.color {
			t.Fatalf("%s's Activity plays %q, want %s: the user must come from Discord", c.b.name, got, c.color)
		}
		if n := frameEval[int](c.b, c.f, `document.querySelectorAll('[data-status]').length * 10 + document.querySelectorAll('[data-message]').length`); n != 11 {
			t.Errorf("%s: want one data-status and one data-message, got %d", c.b.name, n)
		}
		onSDKPage(t, c.b, c.f, "signed in")
	}
	hs := eval[map[string]any](alice, `window.handshake`)
	if hs["client_id"] != "app" || hs["frame_id"] != "frame-222" || hs["v"] != float64(1) {
		t.Errorf("the SDK's handshake: %v", hs)
	}
	cmds := eval[string](alice, `JSON.stringify(window.frames_.filter(f => f[0] === 1).map(f => [f[1], f[2]]))`)
	if !strings.Contains(cmds, `["AUTHORIZE",{"client_id":"app","response_type":"code","state":"","prompt":"none","scope":["identify"]}]`) || !strings.Contains(cmds, `"AUTHENTICATE",{"access_token":"t`) {
		t.Errorf("the page's commands: %s", cmds)
	}

	// Two players move by clicking; each sees the other's move live.
	clickIn(alice, af, `[data-point="E5"]`)
	waitStoneIn(bob, bf, "E5", "black")
	clickIn(bob, bf, `[data-point="C3"]`)
	waitStoneIn(alice, af, "C3", "white")
	clickIn(alice, af, `[data-point="G7"]`)
	waitStoneIn(bob, bf, "G7", "black")
	// A click's announcement goes out after the page has its answer (and
	// the other page its event): wait for it, with a deadline.
	for deadline := time.Now().Add(10 * time.Second); len(ab.posts.texts()) < 3 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if got := ab.posts.texts(); len(got) < 3 || !strings.Contains(strings.Join(got, "\n"), "E5") {
		t.Errorf("the moves were not announced in the channel: %q", got)
	}
	onSDKPage(t, alice, af, "after playing")
	onSDKPage(t, bob, bf, "after playing")
	// Every request to the game's routes carried the page's bearer
	// token and no cookie (the browser holds none).
	ab.mu.Lock()
	routes := slices.Clone(ab.routes)
	ab.mu.Unlock()
	acts, streams := 0, 0
	for _, r := range routes {
		if !strings.HasSuffix(r, " bearer") {
			t.Errorf("a request to the game's routes without the bearer token, or with a cookie: %s", r)
		}
		acts += strings.Count(r, "/act")
		streams += strings.Count(r, "/events")
	}
	if acts < 3 || streams < 2 {
		t.Errorf("the game's routes saw %d clicks and %d streams: %q", acts, streams, routes)
	}

	// Desktop width and a 360-px phone: the board fits.
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 800, false, "discord-activity.png"}, {360, 740, true, "discord-activity-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		alice.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		fits := frameEval[string](alice, af, `(() => { const r = document.querySelector('svg.goban').getBoundingClientRect();
			return r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 && r.width > 200 ? 'ok' : JSON.stringify([r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]); })()`)
		if fits != "ok" {
			t.Errorf("%dx%d: the board does not fit the Activity: %s", vp.w, vp.h, fits)
		}
		alice.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}

	// The same code again (a replayed launch): refused, in words.
	carol := ab.tab("carol")
	cf := ab.launch(carol, aliceCode, "111", "inst1")
	frameWait(carol, cf, "the refusal", `document.body.dataset.state === 'refused'`)
	if msg := frameEval[string](carol, cf, `document.querySelector('[data-activity-status]').textContent`); msg != msgSignIn {
		t.Errorf("a reused code shows %q", msg)
	}

	// Alice plays a second game in the channel: the Activity lists both,
	// and a click opens the one she picks, in place.
	id2 := ab.discordGame("111", "333")
	again := ab.tab("alice again")
	again.do("desktop", chromedp.EmulateViewport(1000, 800))
	gf := ab.launch(again, ab.discord.code("111"), "111", "inst1")
	frameWait(again, gf, "the list of games", `document.body.dataset.state === 'choose'`)
	if n := frameEval[int](again, gf, `document.querySelectorAll('#games button[data-game]').length`); n != 2 {
		t.Fatalf("%d games listed, want 2", n)
	}
	again.screenshot(filepath.Join("..", "..", "docs", "discord-activity-choose.png"))
	clickIn(again, gf, fmt.Sprintf(`[data-game="%d"]`, id2))
	frameWait(again, gf, "the chosen board", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on'`)
	if g := frameEval[string](again, gf, `document.body.dataset.game`); g != fmt.Sprint(id2) {
		t.Fatalf("the chosen game opened #%s, want #%d", g, id2)
	}
	onSDKPage(t, again, gf, "the chosen board")

	// Another application's Activity frames gobot's: the browser
	// refuses to show it (frame-ancestors), while Discord's own page
	// shows it above.
	other := ab.tab("another Activity")
	other.do("open another Activity", chromedp.Navigate("https://other.discordsays.com/"))
	other.waitFor("the frame's load", `window.loaded === true`)
	var child string
	other.do("read the frames", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		ft, err := cdp.Call(ctx, t, page.GetFrameTree, cdp.Empty{})
		if err != nil {
			return err
		}
		if len(ft.FrameTree.ChildFrames) == 1 {
			f := ft.FrameTree.ChildFrames[0].Frame
			child = f.URL + " " + f.UnreachableURL
		}
		return nil
	}))
	if !strings.HasPrefix(child, "chrome-error://") || !strings.HasSuffix(child, " https://app.discordsays.com/?frame_id=f&instance_id=inst1&platform=desktop") {
		t.Errorf("another application's Activity framing gobot's: its frame is %q, want the browser's refusal", child)
	}
}

// TestBrowserActivitySignsInAgain (issue 43): an Activity's session lasts
// 12 hours. Past them (the harness's clock moved, no sleep) a click
// finds it ended, and the page signs in again without a word to the
// player — Discord's authorize with prompt none, gobot's token exchange,
// the same game's session — and the click goes through; the board
// stays the SDK's page, with no error shown.
func TestBrowserActivitySignsInAgain(t *testing.T) {
	ab := newActivityBrowser(t)
	id := ab.discordGame("111", "222")
	ab.discord.instance("inst1", "777", "111", "222")
	alice := ab.tab("alice")
	before := ab.version(id)
	af := ab.launch(alice, ab.discord.code("111")+","+ab.discord.code("111"), "111", "inst1")
	frameWait(alice, af, "the board in the Activity", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on' && !!document.querySelector('[data-point="E5"]')`)
	ab.now.Advance(activitySessionTTL + time.Minute)
	clickIn(alice, af, `[data-point="E5"]`)
	waitStoneIn(alice, af, "E5", "black")
	if n := frameEval[string](alice, af, `document.body.dataset.renewed || "0"`); n != "1" {
		t.Errorf("the page signed in again %s times, want 1", n)
	}
	if msg := frameEval[string](alice, af, `(document.querySelector('[data-message]') || {}).textContent || ""`); strings.Contains(msg, "ended") {
		t.Errorf("the page says the session ended: %q", msg)
	}
	cmds := eval[string](alice, `JSON.stringify(window.frames_.filter(f => f[0] === 1 && f[1] === "AUTHORIZE").map(f => f[2].prompt))`)
	if cmds != `["none","none"]` {
		t.Errorf("the page's authorizations (their prompt): %s, want two, both silent", cmds)
	}
	if v := ab.version(id); v != before+1 {
		t.Errorf("the click after the sign-in: game version %d, want %d (the move stored once)", v, before+1)
	}
	onSDKPage(t, alice, af, "signed in again")
}

// reviewedGame is a game of the channel, E5 C3 and a resignation,
// reviewed by alice (111).
func (ab *activityBrowser) reviewedGame() {
	t := ab.tt
	t.Helper()
	id := ab.discordGame("111", "222")
	for _, c := range [][]string{{"111", "play", "E5"}, {"222", "play", "C3"}, {"111", "resign"}} {
		if r := ab.discordCmd(c[0], c[1], c[2:]...); r.Error {
			t.Fatal(r.Text)
		}
	}
	if r := ab.discordCmd("111", "review", fmt.Sprintf("#%d", id)); r.Error {
		t.Fatal(r.Text)
	}
}

// TestBrowserActivityReviewSignsInAgain: a review open in the Activity
// past its session's 12 hours signs in again as a game's board does
// (Discord's authorize without a prompt, the token exchange, the same
// review's session): the controller's next step is taken, not refused,
// and the page never says the session ended.
func TestBrowserActivityReviewSignsInAgain(t *testing.T) {
	ab := newActivityBrowser(t)
	ab.reviewedGame()
	ab.discord.instance("inst1", "777", "111", "222")
	alice := ab.tab("alice")
	af := ab.launch(alice, ab.discord.code("111")+","+ab.discord.code("111"), "111", "inst1")
	frameWait(alice, af, "the review in the Activity", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on' && !!document.querySelector('#review [data-point="E5"]')`)
	ab.now.Advance(activitySessionTTL + time.Minute)
	clickIn(alice, af, `#review [data-action="forward"]`)
	frameWait(alice, af, "move 1 after signing in again", `document.querySelector('#review [data-move-number]').textContent === '1' && document.querySelector('[data-point="E5"]').dataset.stone === 'black'`)
	if n := frameEval[string](alice, af, `document.body.dataset.renewed || "0"`); n != "1" {
		t.Errorf("the page signed in again %s times, want 1", n)
	}
	if msg := frameEval[string](alice, af, `Array.from(document.querySelectorAll('[data-message], [data-status]')).map(e => e.textContent).join(' ')`); strings.Contains(msg, "ended") {
		t.Errorf("the page says the session ended: %q", msg)
	}
	cmds := eval[string](alice, `JSON.stringify(window.frames_.filter(f => f[0] === 1 && f[1] === "AUTHORIZE").map(f => f[2].prompt))`)
	if cmds != `["none","none"]` {
		t.Errorf("the page's authorizations (their prompt): %s, want two, both silent", cmds)
	}
	onSDKPage(t, alice, af, "signed in again")
}

// TestBrowserActivityReview: the Activity of a channel with an open
// review shows it, in place, to two participants with third-party
// cookies blocked and none kept (WebKit): the controller steps forward
// and plays a variation, the follower's board follows; the follower
// looks around on their own and follows again. Every request to the
// review's routes carries the page's bearer token and no cookie.
func TestBrowserActivityReview(t *testing.T) {
	ab := newActivityBrowser(t)
	ab.reviewedGame()
	ab.discord.instance("inst1", "777", "111", "222")
	alice, bob := ab.tab("alice"), ab.tab("bob")
	af := ab.launch(alice, ab.discord.code("111"), "222", "inst1") // claims to be bob
	bf := ab.launch(bob, ab.discord.code("222"), "222", "inst1")
	for _, c := range []struct {
		b    *tab
		f    *chromedp.Node
		role string
	}{{alice, af, "controller"}, {bob, bf, "follower"}} {
		frameWait(c.b, c.f, "the review in the Activity", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on' && !!document.querySelector('#review [data-point="E5"]')`)
		if got := frameEval[string](c.b, c.f, `document.body.dataset.role`); got != c.role {
			t.Fatalf("%s's Activity is the review's %q, want %s: the user must come from Discord", c.b.name, got, c.role)
		}
		onSDKPage(t, c.b, c.f, "the review")
	}
	frameWait(bob, bf, "both on the board", `document.querySelectorAll('#review [data-present] li').length === 2`)
	if got := frameEval[string](bob, bf, `document.querySelector('#review [data-controller]').textContent`); !strings.Contains(got, "111") {
		t.Errorf("bob sees %q in control, want alice (111)", got)
	}
	// The controller steps forward twice; the follower follows.
	clickIn(alice, af, `#review [data-action="forward"]`)
	frameWait(bob, bf, "move 1", `document.querySelector('#review [data-move-number]').textContent === '1' && document.querySelector('[data-point="E5"]').dataset.stone === 'black'`)
	clickIn(alice, af, `#review [data-action="forward"]`)
	frameWait(bob, bf, "move 2", `document.querySelector('#review [data-move-number]').textContent === '2' && document.querySelector('[data-point="C3"]').dataset.stone === 'white'`)
	// Back to move 1, and a variation: white at G3 instead of C3.
	clickIn(alice, af, `#review [data-action="back"]`)
	frameWait(bob, bf, "back to move 1", `document.querySelector('#review [data-move-number]').textContent === '1' && !document.querySelector('[data-point="C3"]').dataset.stone`)
	clickIn(alice, af, `#review [data-point="G3"]`)
	frameWait(bob, bf, "the variation", `document.querySelector('[data-point="G3"]').dataset.stone === 'white' && !!document.querySelector('#review [data-variation]')`)
	// The follower looks around (first position) while the controller
	// moves on, then follows again.
	clickIn(bob, bf, `#review [data-action="detach"]`)
	clickIn(bob, bf, `#review [data-action="first"]`)
	frameWait(bob, bf, "bob's own first position", `document.body.dataset.following === 'off' && document.querySelector('#review [data-move-number]').textContent === '0'`)
	clickIn(alice, af, `#review [data-action="first"]`)
	frameWait(alice, af, "alice at the start", `document.querySelector('#review [data-move-number]').textContent === '0'`)
	clickIn(alice, af, `#review [data-action="last"]`)
	frameWait(alice, af, "alice at the end", `document.querySelector('#review [data-move-number]').textContent === '2'`)
	if got := frameEval[string](bob, bf, `document.querySelector('#review [data-move-number]').textContent`); got != "0" {
		t.Errorf("bob looking around was moved to move %s", got)
	}
	clickIn(bob, bf, `#review [data-action="follow"]`)
	frameWait(bob, bf, "following again", `document.body.dataset.following === 'on' && document.querySelector('#review [data-move-number]').textContent === '2'`)
	onSDKPage(t, alice, af, "after the review")
	onSDKPage(t, bob, bf, "after the review")
	ab.mu.Lock()
	routes := slices.Clone(ab.routes)
	ab.mu.Unlock()
	acts, streams := 0, 0
	for _, r := range routes {
		if !strings.HasSuffix(r, " bearer") {
			t.Errorf("a request to the review's routes without the bearer token, or with a cookie: %s", r)
		}
		acts += strings.Count(r, "/r/1/act")
		streams += strings.Count(r, "/r/1/events")
	}
	if acts < 5 || streams < 2 {
		t.Errorf("the review's routes saw %d actions and %d streams: %q", acts, streams, routes)
	}
}
