package web

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// discordClientPage plays Discord's client for the Activity page, as the
// Embedded App SDK (discord-sdk/Discord.mjs) expects it: the Activity is
// an iframe loaded with frame_id, instance_id and platform in its query;
// it sends HANDSHAKE (opcode 0) to its parent, which dispatches READY
// (opcode 1, cmd DISPATCH); then each command (opcode 1 with a nonce)
// gets its response with the same nonce: AUTHORIZE → the code this page
// was given in its own query (?code=), AUTHENTICATE → the token's
// details. The user it announces in READY and AUTHENTICATE is a lie
// (?claim=): gobot must take the user from Discord, not from the page.
// window.frames_ records every frame it received.
const discordClientPage = `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Discord (test)</title>
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body>
<script>
const q = new URLSearchParams(location.search);
const claim = q.get("claim");
window.frames_ = [];
const frame = document.createElement("iframe");
const send = (m) => frame.contentWindow.postMessage(m, location.origin);
const user = {id: claim, username: "user" + claim, discriminator: "0", public_flags: 0, global_name: null};
window.addEventListener("message", (ev) => {
  if (ev.source !== frame.contentWindow || !Array.isArray(ev.data)) return;
  const [op, data] = ev.data;
  window.frames_.push([op, data && data.cmd, data && data.args]);
  if (op === 0) {
    window.handshake = data;
    send([1, {cmd: "DISPATCH", evt: "READY", nonce: null, data: {v: 1, config: {api_endpoint: "//discord.com/api", environment: "production"}, user: user}}]);
    return;
  }
  if (op !== 1) return;
  if (data.cmd === "AUTHORIZE") {
    send([1, {cmd: "AUTHORIZE", evt: null, nonce: data.nonce, data: {code: q.get("code")}}]);
  } else if (data.cmd === "AUTHENTICATE") {
    send([1, {cmd: "AUTHENTICATE", evt: null, nonce: data.nonce, data: {access_token: data.args.access_token, user: user,
      scopes: ["identify"], expires: "2030-01-01T00:00:00Z", application: {id: "app", name: "gobot", description: ""}}}]);
  }
});
frame.src = "/?frame_id=frame-" + claim + "&instance_id=" + q.get("instance") + "&platform=desktop&guild_id=g1&channel_id=" + q.get("channel");
document.body.append(frame);
</script>
</body></html>`

// frameJS evaluates an expression in the Activity's frame (the same
// origin as the test's Discord page).
func frameJS(expr string) string {
	return `(() => { const d = document.querySelector('iframe').contentDocument; return ` + expr + `; })()`
}

// launch opens the Activity in b as Discord would for a user whose
// code is code, claiming to be claim.
func (ah *activityHarness) launch(b *tab, code, claim, instance string) {
	b.t.Helper()
	b.do("launch the Activity", chromedp.Navigate(fmt.Sprintf("%s/discord-client.html?code=%s&claim=%s&instance=%s&channel=777", ah.ts.URL, code, claim, instance)))
}

// clickIn clicks, with the mouse, the element sel inside the Activity's
// frame.
func (ah *activityHarness) clickIn(b *tab, sel string) {
	b.t.Helper()
	b.h.now.Advance(time.Second) // a second per click, as for a person
	xy := eval[[]float64](b, fmt.Sprintf(`(() => { const f = document.querySelector('iframe'); const fr = f.getBoundingClientRect();
		const r = f.contentDocument.querySelector(%q).getBoundingClientRect();
		return [fr.left + f.clientLeft + r.left + r.width / 2, fr.top + f.clientTop + r.top + r.height / 2]; })()`, sel))
	b.do("click "+sel, chromedp.MouseClickXY(xy[0], xy[1]))
}

func (ah *activityHarness) waitStoneIn(b *tab, p, c string) {
	b.t.Helper()
	b.waitFor(fmt.Sprintf("%s to be %q in the Activity", p, c), frameJS(fmt.Sprintf(`d && d.querySelector('[data-point=%q]') && (d.querySelector('[data-point=%q]').getAttribute('data-stone') || '') === %q`, p, p, c)))
}

// TestBrowserActivity: the Activity page in a frame whose parent plays
// Discord's client: the SDK's handshake, READY, AUTHORIZE (scope
// identify) and AUTHENTICATE with the token gobot got for the code; the
// page then opens the board of the game in the instance's channel as
// the code's user (whoever the page claims to be), and two players
// play by clicking, each seeing the other's move live. A reused code
// shows the refusal. Screenshots of the sign-in's end and the board at
// desktop width and 360 px: docs/discord-activity*.png.
func TestBrowserActivity(t *testing.T) {
	browser := startBrowser(t)
	ah := newActivityHarness(t)
	id := ah.discordGame("111", "222")
	ah.discord.instance("inst1", "777", "111", "222")
	alice, bob := newTab(t, ah.harness, browser, "alice"), newTab(t, ah.harness, browser, "bob")
	aliceCode := ah.discord.code("111")
	ah.launch(alice, aliceCode, "222", "inst1") // claims to be bob: gobot asks Discord
	ah.launch(bob, ah.discord.code("222"), "222", "inst1")
	for _, b := range []*tab{alice, bob} {
		b.waitFor("the board in the Activity", frameJS(`d && d.body && d.body.dataset.live === 'on'`))
		if loc := eval[string](b, `document.querySelector('iframe').contentWindow.location.pathname`); loc != gamePath(id) {
			t.Fatalf("%s: the Activity shows %s", b.name, loc)
		}
	}
	hs := eval[map[string]any](alice, `window.handshake`)
	if hs["client_id"] != "app" || hs["frame_id"] != "frame-222" || hs["v"] != float64(1) {
		t.Errorf("the SDK's handshake: %v", hs)
	}
	cmds := eval[string](alice, `JSON.stringify(window.frames_.filter(f => f[0] === 1).map(f => [f[1], f[2]]))`)
	if !strings.Contains(cmds, `["AUTHORIZE",{"client_id":"app","response_type":"code","state":"","prompt":"none","scope":["identify"]}]`) || !strings.Contains(cmds, `"AUTHENTICATE",{"access_token":"t`) {
		t.Errorf("the page's commands: %s", cmds)
	}
	if c := eval[string](alice, frameJS(`d.body.dataset.color`)); c != "black" {
		t.Fatalf("alice's page (claiming to be bob) plays %q, want black: the user must come from Discord", c)
	}
	if c := eval[string](bob, frameJS(`d.body.dataset.color`)); c != "white" {
		t.Fatalf("bob's page plays %q", c)
	}
	// Two players move by clicking; each sees the other's move.
	ah.clickIn(alice, `[data-point="E5"]`)
	ah.waitStoneIn(bob, "E5", "black")
	ah.clickIn(bob, `[data-point="C3"]`)
	ah.waitStoneIn(alice, "C3", "white")
	ah.clickIn(alice, `[data-point="G7"]`)
	ah.waitStoneIn(bob, "G7", "black")
	if got := ah.posts.texts(); len(got) < 3 || !strings.Contains(strings.Join(got, "\n"), "E5") {
		t.Errorf("the moves were not announced in the channel: %q", got)
	}
	alice.do("desktop", chromedp.EmulateViewport(1000, 800))
	alice.screenshot(filepath.Join("..", "..", "docs", "discord-activity.png"))
	alice.do("phone", chromedp.EmulateViewport(360, 640, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch))
	fits := eval[string](alice, frameJS(`(() => { const r = d.querySelector('svg.goban').getBoundingClientRect(); const w = d.defaultView;
		return w.innerWidth <= 360 && r.left >= 0 && r.right <= w.innerWidth + 0.5 && r.width > 200 ? 'ok' : JSON.stringify([r.left, r.right, w.innerWidth]); })()`))
	if fits != "ok" {
		t.Errorf("360 px: the board does not fit the Activity: %s", fits)
	}
	alice.screenshot(filepath.Join("..", "..", "docs", "discord-activity-phone.png"))

	// The same code again (a replayed launch): refused, in words.
	carol := newTab(t, ah.harness, browser, "carol")
	ah.launch(carol, aliceCode, "111", "inst1")
	carol.waitFor("the refusal", frameJS(`d && d.body && d.body.dataset.state === 'refused'`))
	if msg := eval[string](carol, frameJS(`d.querySelector('[data-activity-status]').textContent`)); msg != msgSignIn {
		t.Errorf("a reused code shows %q", msg)
	}

	// Alice plays a second game in the channel: the Activity lists both,
	// and a click opens the one she picks.
	id2 := ah.discordGame("111", "333")
	again := newTab(t, ah.harness, browser, "alice again")
	again.do("desktop", chromedp.EmulateViewport(1000, 800))
	ah.launch(again, ah.discord.code("111"), "111", "inst1")
	again.waitFor("the list of games", frameJS(`d && d.body && d.body.dataset.state === 'choose'`))
	if n := eval[int](again, frameJS(`d.querySelectorAll('#games button[data-game]').length`)); n != 2 {
		t.Fatalf("%d games listed, want 2", n)
	}
	again.screenshot(filepath.Join("..", "..", "docs", "discord-activity-choose.png"))
	ah.clickIn(again, fmt.Sprintf(`[data-game="%d"]`, id2))
	again.waitFor("the chosen board", frameJS(`d && d.body && d.body.dataset.live === 'on'`))
	if loc := eval[string](again, `document.querySelector('iframe').contentWindow.location.pathname`); loc != gamePath(id2) {
		t.Fatalf("the chosen game opened %s, want %s", loc, gamePath(id2))
	}
}
