package web

import (
	"context"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"maunium.net/go/mautrix"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
)

// elementPage plays Element for the widget page in its iframe: the same
// sandbox (no allow-modals), the widget API's postMessage protocol from
// the client's side — supported_api_versions, capabilities and
// notify_capabilities, then get_openid answered in two steps ({state:
// "request"}, then an openid_credentials action once "the user allows"),
// at once, or refused — and records what the widget asked for.
var elementPage = template.Must(template.New("element").Parse(`<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Element (test)</title>
<style>html,body{margin:0;height:100%} iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body>
<iframe id="w" sandbox="allow-forms allow-popups allow-popups-to-escape-sandbox allow-same-origin allow-scripts allow-downloads" src="{{.Src}}"></iframe>
{{if .Cfg.Evil}}<iframe id="evil" src="{{.Cfg.Evil}}" style="height:1px"></iframe>{{end}}
<script>
const cfg = {{.Cfg}};
window.log = []; window.requested = null; window.openidAsked = 0; window.credentialsAcked = false;
const frame = document.getElementById("w");
let n = 0;
function send(action, data) {
  const requestId = "element-" + (++n);
  frame.contentWindow.postMessage({api: "toWidget", widgetId: cfg.widgetId, requestId, action, data}, cfg.origin);
  return requestId;
}
let capabilities = null, credentials = null;
frame.addEventListener("load", () => { capabilities = send("capabilities", {}); });
let openidRequest = null;
window.addEventListener("message", (ev) => {
  window.raw = (window.raw || []).concat([ev.origin + " " + JSON.stringify(ev.data).slice(0, 200)]);
  const evil = document.getElementById("evil");
  if (evil && ev.source === evil.contentWindow && ev.data && ev.data.sent) {
    // The sibling has posted its forgery: now the user allows.
    window.forged = ev.data.sent;
    credentials = send("openid_credentials", Object.assign({state: "allowed", original_request_id: openidRequest}, cfg.creds));
    return;
  }
  if (ev.source !== frame.contentWindow || ev.origin !== cfg.origin) return;
  const m = ev.data;
  window.log.push(m.api + " " + m.action + (m.response ? " answered" : ""));
  if (m.api === "toWidget" && m.response) {
    if (m.requestId === capabilities) {
      window.requested = m.response.capabilities;
      send("notify_capabilities", {requested: m.response.capabilities, approved: []});
    }
    if (m.requestId === credentials) window.credentialsAcked = true;
    return;
  }
  if (m.api !== "fromWidget") return;
  const reply = (response) => frame.contentWindow.postMessage(Object.assign({}, m, {response}), cfg.origin);
  switch (m.action) {
  case "supported_api_versions":
    reply({supported_versions: ["0.0.1", "0.0.2", "org.matrix.msc2762", "org.matrix.msc2871"]});
    break;
  case "content_loaded":
    reply({});
    break;
  case "get_openid":
    window.openidAsked++;
    if (cfg.mode === "blocked") reply({state: "blocked"});
    else if (cfg.mode === "hostile") {
      // Another widget in the room guesses the request's ID (it is
      // "widgetapi-" and the time) and answers first with its user's
      // token; the ID is handed to it here, a perfect guess.
      openidRequest = m.requestId;
      reply({state: "request"});
      document.getElementById("evil").contentWindow.postMessage({attack: m.requestId}, "*");
    }
    else if (cfg.mode === "at-once") reply(Object.assign({state: "allowed"}, cfg.creds));
    else {
      reply({state: "request"});
      setTimeout(() => { credentials = send("openid_credentials", Object.assign({state: "allowed", original_request_id: m.requestId}, cfg.creds)); }, 300);
    }
    break;
  default:
    reply({error: {message: "not supported here: " + m.action}});
  }
});
</script>
</body></html>`))

type elementCfg struct {
	WidgetID string            `json:"widgetId"`
	Origin   string            `json:"origin"`
	Mode     string            `json:"mode"`
	Creds    map[string]string `json:"creds"`
	Evil     string            `json:"evil,omitempty"` // mode hostile: the sibling frame's address
}

// evilWidgetPage is another widget in the same room (a sibling frame of
// another site): told the ID of the board's OpenID request, it posts to
// the board's window what the chat client would — openid_credentials for
// that request, with its own user's token (?creds=, JSON) — then tells
// the client it has.
const evilWidgetPage = `<!doctype html><html><head><meta charset="utf-8"><title>another widget</title></head><body><script>
const creds = JSON.parse(new URLSearchParams(location.search).get("creds"));
window.addEventListener("message", (ev) => {
  if (!ev.data || !ev.data.attack) return;
  const board = parent.frames[0];
  board.postMessage({api: "toWidget", widgetId: "gobot_game_1", requestId: "evil-1", action: "openid_credentials",
    data: Object.assign({state: "allowed", original_request_id: ev.data.attack}, creds)}, "*");
  parent.postMessage({sent: creds.access_token.slice(0, 6)}, "*");
});
</script></body></html>`

// startEvilWidget serves evilWidgetPage on 127.0.0.2, a site of its own.
func startEvilWidget(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("no second loopback address: %v", err)
	}
	ts := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, evilWidgetPage)
	})}}
	ts.Start()
	t.Cleanup(ts.Close)
	return ts.URL
}

// startElement serves the Element stand-in on http://localhost (another
// site than the board's 127.0.0.1): each GET /?mode=… frames game's
// widget for the user whose OpenID token creds returns.
func startElement(t *testing.T, m *mxHarness, ln net.Listener, creds func(mode string) map[string]string, evil string) string {
	t.Helper()
	base := "http://localhost:" + fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	ts := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mode := r.URL.Query().Get("mode")
		// What Element does with the widget's URL: the template
		// variables filled in, then its widgetId and parentUrl added.
		// ?review=N frames review N's widget instead of the game's,
		// ?tournament=N tournament N's.
		src, wid := m.srv.Linker().(chat.WidgetLinker).WidgetURL(m.game), "gobot_game_1"
		if n, err := strconv.ParseUint(r.URL.Query().Get("review"), 10, 64); err == nil {
			src, wid = m.srv.Linker().(chat.ReviewWidgetLinker).ReviewWidgetURL(gobot.ReviewID(n)), fmt.Sprintf("gobot_review_%d", n)
		}
		if n, err := strconv.ParseUint(r.URL.Query().Get("tournament"), 10, 64); err == nil {
			src, wid = m.srv.Linker().(chat.TournamentWidgetLinker).TournamentWidgetURL(gobot.TournamentID(n)), fmt.Sprintf("gobot_tournament_%d", n)
		}
		src = strings.NewReplacer("$matrix_room_id", url.QueryEscape(string(m.room)), "$matrix_user_id", url.QueryEscape("@alice:localhost")).Replace(src)
		src += "&widgetId=" + wid + "&parentUrl=" + url.QueryEscape(base+"/")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		cfg := elementCfg{WidgetID: wid, Origin: m.ts.URL, Mode: mode, Creds: creds(mode)}
		if mode == "hostile" {
			cfg.Evil = evil + "/?creds=" + url.QueryEscape(r.URL.Query().Get("evil"))
		}
		elementPage.Execute(w, struct {
			Src string
			Cfg elementCfg
		}{src, cfg})
	})}}
	ts.Start()
	t.Cleanup(ts.Close)
	return base
}

// inFrame is the widget's iframe in tab b.
func inFrame(b *tab) *chromedp.Node {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 15*time.Second)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe#w")))
	if err != nil || len(nodes) != 1 {
		b.t.Fatalf("the widget's iframe: %v", err)
	}
	return nodes[0]
}

// frameWait waits until a JavaScript predicate holds inside the iframe.
func frameWait(b *tab, frame *chromedp.Node, what, expr string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](expr, chromedp.WithPollingInFrame(frame), chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(0))); err != nil {
		status, _ := chromedp.Run(b.ctx, chromedp.Poll[string](`document.querySelector('[data-status]').textContent + ' | ' + document.querySelector('[data-message]').textContent`, chromedp.WithPollingInFrame(frame), chromedp.WithPollingTimeout(time.Second)))
		b.t.Fatalf("%s: waiting in the widget for %s: %v (page says %q; Element's log %v; raw %v)", b.name, what, err, status, eval[[]string](b, "window.log"), eval[any](b, "window.raw"))
	}
}

// frameEval returns an expression's value inside the iframe.
func frameEval[T any](b *tab, frame *chromedp.Node, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, browserStep)
	defer cancel()
	// Poll waits for a truthy value: the value goes in a JSON string.
	raw, err := chromedp.Run(ctx, chromedp.Poll[string]("JSON.stringify({v: ("+expr+")})", chromedp.WithPollingInFrame(frame), chromedp.WithPollingTimeout(0)))
	var v struct{ V T }
	if err == nil {
		err = json.Unmarshal([]byte(raw), &v)
	}
	if err != nil {
		b.t.Fatalf("%s: %s in the widget: %v", b.name, expr, err)
	}
	return v.V
}

// TestBrowserWidget: the widget page in an iframe of another site whose
// parent speaks the widget API as Element does. It asks for no room
// capabilities, gets alice's OpenID token (a real Dendrite one) in two
// steps, signs in, and a click on the board reaches the Matrix room as
// the bot's announcement. A client that answers at once signs in too;
// one whose user refuses gets a plain explanation and no board. The page
// is shown at desktop width and on a 360-px phone.
func TestBrowserWidget(t *testing.T) {
	browser := startBrowser(t,
		// Keep the cross-site iframe in the page's process, so the test
		// can look inside it (chromedp's WithPollingInFrame).
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	parent := "http://localhost:" + fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	m := newMatrixHarness(t, parent)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	creds := func(c *mautrix.Client) map[string]string {
		tok := openID(t, c)
		return map[string]string{"access_token": tok.AccessToken, "token_type": tok.TokenType, "matrix_server_name": tok.MatrixServerName, "expires_in": fmt.Sprint(tok.ExpiresIn)}
	}
	base := startElement(t, m, ln, func(mode string) map[string]string { return creds(m.alice) }, startEvilWidget(t))

	alice := newTab(t, m.harness, browser, "alice")
	alice.do("open Element", chromedp.Navigate(base+"/?mode=two-step"))
	frame := inFrame(alice)
	frameWait(alice, frame, "the board after signing in", `document.body.dataset.signin === 'on' && document.body.dataset.live === 'on' && !!document.querySelector('[data-point="E5"]')`)
	if got := eval[int](alice, "window.openidAsked"); got != 1 {
		t.Errorf("the widget asked for OpenID %d times", got)
	}
	if got := eval[string](alice, "JSON.stringify(window.requested)"); got != "[]" {
		t.Errorf("the widget asked for the capabilities %s, want none", got)
	}
	if !eval[bool](alice, "window.credentialsAcked") {
		t.Error("the widget did not acknowledge openid_credentials")
	}
	if who := frameEval[string](alice, frame, `document.querySelector('[data-who]').textContent`); who != "(alice, black)" {
		t.Errorf("the widget says it is %q", who)
	}
	if n := frameEval[float64](alice, frame, `document.cookie.length + (localStorage.length || 0)`); n != 0 {
		t.Errorf("the widget keeps %v characters of cookies or storage", n)
	}

	// A click plays as alice and is announced in the Matrix room.
	alice.do("click E5", chromedp.Click(chromedp.CSS(`[data-point="E5"]`), chromedp.FromNode(frame)))
	frameWait(alice, frame, "the stone on E5", `document.querySelector('[data-point="E5"]').dataset.stone === 'black'`)
	until(t, ctx, "the click's announcement in the Matrix room", func() bool { return m.announced(ctx, "E5") })
	if _, n := m.game1(ctx); n != 1 {
		t.Errorf("game #1 has %d moves, want 1", n)
	}
	// Resigning asks in the page (the sandbox has no confirm()).
	alice.do("resign", chromedp.Click(chromedp.CSS(`[data-action="resign"]`), chromedp.FromNode(frame)))
	frameWait(alice, frame, "the in-page confirmation", `!document.getElementById('confirm').hidden`)
	alice.do("cancel", chromedp.Click(chromedp.CSS(`[data-action="cancel"]`), chromedp.FromNode(frame)))
	frameWait(alice, frame, "the confirmation closed", `document.getElementById('confirm').hidden`)

	// bob moves by typing in the room: the widget follows live.
	m.say(ctx, m.bob, "!go play C3")
	frameWait(alice, frame, "bob's typed move", `document.querySelector('[data-point="C3"]').dataset.stone === 'white'`)

	// Screenshots: desktop width and a 360-px phone.
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 800, false, "matrix-widget.png"}, {360, 740, true, "matrix-widget-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		alice.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		fits := frameEval[string](alice, frame, `(() => { const r = document.querySelector('svg.goban').getBoundingClientRect();
			return r.left >= 0 && r.top >= 0 && r.right <= innerWidth + 0.5 && r.bottom <= innerHeight + 0.5 && r.width > 200 ? 'ok' : JSON.stringify([r.left, r.top, r.right, r.bottom, innerWidth, innerHeight]); })()`)
		if fits != "ok" {
			t.Errorf("%dx%d: the board does not fit the widget: %s", vp.w, vp.h, fits)
		}
		alice.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}

	// A client that answers at once (the user allowed it before).
	again := newTab(t, m.harness, browser, "alice again")
	again.do("open Element", chromedp.Navigate(base+"/?mode=at-once"))
	f2 := inFrame(again)
	frameWait(again, f2, "the board", `document.body.dataset.signin === 'on' && !!document.querySelector('[data-point="C3"][data-stone="white"]')`)

	// A user who refuses: no board, a plain explanation.
	no := newTab(t, m.harness, browser, "refused")
	no.do("open Element", chromedp.Navigate(base+"/?mode=blocked"))
	f3 := inFrame(no)
	frameWait(no, f3, "the refusal", `document.body.dataset.signin === 'refused'`)
	if st := frameEval[string](no, f3, `document.querySelector('[data-status]').textContent`); !strings.Contains(st, "did not share who you are") {
		t.Errorf("after a refusal the widget says %q", st)
	}
	if n := frameEval[float64](no, f3, `document.querySelectorAll('[data-point]').length`); n != 0 {
		t.Errorf("a board shown without signing in (%v points)", n)
	}

	// Another widget in the room (a sibling frame of another site)
	// answers the board's OpenID request first, with bob's token, while
	// alice's client still asks her: the board hears only its client,
	// and signs alice in. (What reached the board's window is recorded
	// by a listener added before the page's own scripts.)
	evil := newTab(t, m.harness, browser, "alice, beside another widget")
	evil.do("record messages", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `window.heard_ = [];
			window.addEventListener("message", (e) => { window.heard_.push(e.origin + " " + (e.data && e.data.action)); }, true);`})
		return err
	}))
	bobs, _ := json.Marshal(creds(m.bob))
	evil.do("open Element", chromedp.Navigate(base+"/?mode=hostile&evil="+url.QueryEscape(string(bobs))))
	f4 := inFrame(evil)
	frameWait(evil, f4, "the board", `document.body.dataset.signin === 'on'`)
	if eval[string](evil, "window.forged || ''") == "" {
		t.Fatal("the other widget never posted its forgery")
	}
	heard := frameEval[[]string](evil, f4, `window.heard_`)
	if !slices.ContainsFunc(heard, func(h string) bool {
		return strings.HasPrefix(h, "http://127.0.0.2:") && strings.HasSuffix(h, " openid_credentials")
	}) {
		t.Fatalf("the forgery never reached the board's window (it heard %q): the test proves nothing", heard)
	}
	if who := frameEval[string](evil, f4, `document.querySelector('[data-who]').textContent`); who != "(alice, black)" {
		t.Errorf("beside another widget that forged bob's sign-in, the board signed in as %q, want alice", who)
	}
}

// TestBrowserReviewWidget: a review's widget in two Element stand-ins
// (alice's and bob's, each its own site), signed in with their real
// Dendrite OpenID tokens: alice started the review and controls it,
// bob follows; alice steps forward and plays a variation, bob's widget
// follows live; bob looks around and follows again. Neither page keeps
// a cookie.
func TestBrowserReviewWidget(t *testing.T) {
	browser := startBrowser(t,
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	lnA, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lnB, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := func(ln net.Listener) string { return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port) }
	m := newMatrixHarness(t, "http://localhost:"+port(lnA), "http://localhost:"+port(lnB))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// game #1 played to its end (E5, C3, a resignation), then reviewed.
	m.say(ctx, m.alice, "!go play E5")
	m.say(ctx, m.bob, "!go play C3")
	until(t, ctx, "two moves", func() bool { _, n := m.game1(ctx); return n == 2 })
	m.say(ctx, m.alice, "!go resign")
	until(t, ctx, "the game's end", func() bool { g, _ := m.game1(ctx); return !g.Active() })
	m.say(ctx, m.alice, "!go review #1")
	until(t, ctx, "review #1", func() bool {
		return m.db.View(ctx, func(tx gobot.Tx) error { _, err := tx.Review(1); return err }) == nil
	})
	creds := func(c *mautrix.Client) func(string) map[string]string {
		return func(string) map[string]string {
			tok := openID(t, c)
			return map[string]string{"access_token": tok.AccessToken, "token_type": tok.TokenType, "matrix_server_name": tok.MatrixServerName, "expires_in": fmt.Sprint(tok.ExpiresIn)}
		}
	}
	baseA := startElement(t, m, lnA, creds(m.alice), "")
	baseB := startElement(t, m, lnB, creds(m.bob), "")
	alice, bob := newTab(t, m.harness, browser, "alice"), newTab(t, m.harness, browser, "bob")
	alice.do("open Element", chromedp.Navigate(baseA+"/?mode=at-once&review=1"))
	bob.do("open Element", chromedp.Navigate(baseB+"/?mode=at-once&review=1"))
	af, bf := inFrame(alice), inFrame(bob)
	for _, c := range []struct {
		b    *tab
		f    *chromedp.Node
		role string
	}{{alice, af, "controller"}, {bob, bf, "follower"}} {
		frameWait(c.b, c.f, "the review after signing in", `document.body.dataset.signin === 'on' && document.body.dataset.live === 'on' && !!document.querySelector('[data-point="E5"]')`)
		if got := frameEval[string](c.b, c.f, `document.body.dataset.role`); got != c.role {
			t.Fatalf("%s's widget is the review's %q, want %s", c.b.name, got, c.role)
		}
		if n := frameEval[float64](c.b, c.f, `document.cookie.length + (localStorage.length || 0)`); n != 0 {
			t.Errorf("%s's widget keeps %v characters of cookies or storage", c.b.name, n)
		}
	}
	click := func(b *tab, f *chromedp.Node, sel string) {
		t.Helper()
		b.do("click "+sel, chromedp.Click(chromedp.CSS(sel), chromedp.FromNode(f)))
	}
	frameWait(bob, bf, "both on the board", `document.querySelectorAll('[data-present] li').length === 2`)
	click(alice, af, `[data-action="first"]`)
	frameWait(bob, bf, "the start", `document.querySelector('[data-move-number]').textContent === '0' && !document.querySelector('[data-point="E5"]').dataset.stone`)
	click(alice, af, `[data-action="forward"]`)
	frameWait(bob, bf, "move 1", `document.querySelector('[data-move-number]').textContent === '1' && document.querySelector('[data-point="E5"]').dataset.stone === 'black'`)
	click(alice, af, `[data-point="G3"]`)
	frameWait(bob, bf, "the variation", `document.querySelector('[data-point="G3"]').dataset.stone === 'white' && !!document.querySelector('[data-variation]')`)
	click(bob, bf, `[data-action="detach"]`)
	click(bob, bf, `[data-action="first"]`)
	frameWait(bob, bf, "bob's own start", `document.body.dataset.following === 'off' && document.querySelector('[data-move-number]').textContent === '0'`)
	click(alice, af, `[data-action="back"]`)
	frameWait(alice, af, "alice at move 1", `document.querySelector('[data-move-number]').textContent === '1'`)
	if got := frameEval[string](bob, bf, `document.querySelector('[data-move-number]').textContent`); got != "0" {
		t.Errorf("bob looking around was moved to move %s", got)
	}
	click(bob, bf, `[data-action="follow"]`)
	frameWait(bob, bf, "following again", `document.body.dataset.following === 'on' && document.querySelector('[data-move-number]').textContent === '1'`)
	if n := len(m.storedReview(1).Tree.Nodes); n != 4 {
		t.Errorf("review #1 has %d positions, want 4 (the start, E5, C3 and the variation G3)", n)
	}
}
