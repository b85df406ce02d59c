package web

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// activityProfile is a client the Activity's timings are taken on: its
// viewport, its CPU's slowdown and its link (latency 0: none added).
type activityProfile struct {
	name             string
	w, h             int64
	mobile           bool
	cpu              float64 // slowdown factor (1: none)
	latency          float64 // ms added to each request's response
	down, up         float64 // bytes/s (0: unthrottled)
	summary, explain string
}

// activityProfiles: a desktop client with the board on loopback (the
// harness's "proxy" adds nothing), the same behind a proxy 40 ms away
// (Discord's proxy is a hop between the client and gobot: each request
// pays it), and a phone as Chromium's DevTools throttle one: 4× slower
// CPU, "Fast 3G" (562.5 ms per request, 180,000 B/s down, 84,375 B/s up).
var activityProfiles = []activityProfile{
	{name: "desktop", w: 1000, h: 800, cpu: 1, summary: "desktop, loopback"},
	{name: "desktop-proxy", w: 1000, h: 800, cpu: 1, latency: 40, summary: "desktop, 40 ms per request"},
	{name: "phone", w: 360, h: 740, mobile: true, cpu: 4, latency: 562.5, down: 180000, up: 84375, summary: "phone: 4× CPU, Fast 3G"},
}

// emulate sets b's viewport, CPU and link to p's.
func (p activityProfile) emulate(b *tab) {
	b.t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if p.mobile {
		opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	b.do("emulate "+p.name, chromedp.EmulateViewport(p.w, p.h, opts...), chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: p.cpu}); err != nil {
			return err
		}
		if p.latency == 0 && p.down == 0 {
			return nil
		}
		if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		down, up := p.down, p.up
		if down == 0 {
			down, up = -1, -1
		}
		_, err := cdp.Call(ctx, t, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
			MatchedNetworkConditions: []*network.Conditions{{Latency: p.latency, DownloadThroughput: down, UploadThroughput: up}}})
		return err
	}))
}

// frameClock is run in every document before its scripts: in the
// Activity's frame it records (window.at_, ms since 1970) when the board
// was first shown with its points (board) and the live stream first on
// (live).
const frameClock = `if (location.hostname === "app.discordsays.com") {
  window.at_ = {};
  const now = () => performance.timeOrigin + performance.now();
  new MutationObserver(() => {
    const b = document.body;
    if (!b) return;
    if (!at_.board && b.dataset.state === "board" && document.querySelector("[data-point]")) at_.board = now();
    if (!at_.live && b.dataset.live === "on") at_.live = now();
  }).observe(document, {attributes: true, childList: true, subtree: true});
}`

// activitySteps are the steps of an Activity's opening, in order: what
// each step's time (ms from the moment Discord's client framed it) is
// when that step is done.
var activitySteps = []struct{ name, what string }{
	{"page", "the page's HTML received"},
	{"script", "the last script received (the SDK and the page's)"},
	{"handshake", "the SDK's HANDSHAKE reached Discord's client"},
	{"authorize", "the page asked Discord's client to AUTHORIZE (the SDK ready)"},
	{"token", "gobot's answer to the code (activity/token) received"},
	{"authenticate", "the page asked Discord's client to AUTHENTICATE"},
	{"session", "gobot's answer to activity/session received (— when the token's answer carried it)"},
	{"board", "the board shown, its points clickable"},
	{"live", "the live stream connected"},
}

// activityTimes reads the step times of the Activity just opened in b.
func activityTimes(b *tab, frame *chromedp.Node) map[string]float64 {
	b.t.Helper()
	parent := eval[map[string]float64](b, `window.at_`)
	inside := frameEval[map[string]float64](b, frame, `(() => {
		const o = performance.timeOrigin, out = Object.assign({}, window.at_);
		const nav = performance.getEntriesByType("navigation")[0];
		out.page = o + nav.responseEnd;
		for (const e of performance.getEntriesByType("resource")) {
			const end = o + e.responseEnd, path = new URL(e.name).pathname;
			if (/\.m?js$/.test(path)) out.script = Math.max(out.script || 0, end);
			if (path.endsWith("/activity/token") && !out.token) out.token = end;
			if (path.endsWith("/activity/session") && !out.session) out.session = end;
		}
		return out;
	})()`)
	out := map[string]float64{}
	for _, s := range activitySteps {
		v, ok := parent[s.name]
		if !ok {
			v, ok = inside[s.name]
		}
		if ok && v > 0 {
			out[s.name] = v - parent["framed"]
		}
	}
	return out
}

// activityRequest is one request of the Activity's frame, timed from
// the moment Discord's client framed it.
type activityRequest struct {
	Name              string
	Start, First, End float64
	Wire, Body        int
}

// activityRequests lists the requests of the Activity just opened in b:
// its page, then each resource in the order they were asked for.
func activityRequests(b *tab) []activityRequest {
	b.t.Helper()
	framed := eval[float64](b, `window.at_.framed`)
	frame := inFrame(b)
	rs := frameEval[[]activityRequest](b, frame, `(() => {
		const o = performance.timeOrigin;
		const one = (e, name) => ({Name: name, Start: o + e.requestStart, First: o + e.responseStart, End: o + e.responseEnd, Wire: e.encodedBodySize, Body: e.decodedBodySize});
		const out = [one(performance.getEntriesByType("navigation")[0], "page")];
		for (const e of performance.getEntriesByType("resource")) out.push(one(e, new URL(e.name).pathname.slice(0, 28)));
		return out;
	})()`)
	for i := range rs {
		rs[i].Start -= framed
		rs[i].First -= framed
		rs[i].End -= framed
	}
	return rs
}

// TestBrowserActivityTimings times the Activity's opening, step by step
// (activitySteps), from the moment Discord's client (discordClientPage)
// frames it, on each activityProfiles client: GOBOT_ACTIVITY_RUNS (3)
// openings with an empty cache, their medians, and one more with the
// cache of the last. It prints the times and asserts none
// (docs/discord.md has them): it fails only when the board is not
// shown. go test ./chat/web -run TestBrowserActivityTimings -v
// (GOBOT_ACTIVITY_PROFILES=phone: that profile alone). For the first
// opening of each profile it lists each request's times.
func TestBrowserActivityTimings(t *testing.T) {
	runs := 3
	if n, err := strconv.Atoi(os.Getenv("GOBOT_ACTIVITY_RUNS")); err == nil && n > 0 {
		runs = n
	}
	ab := newActivityBrowser(t)
	ab.discordGame("111", "222")
	ab.discord.instance("inst1", "777", "111", "222")
	open := func(b *tab) map[string]float64 {
		b.t.Helper()
		f := ab.launch(b, ab.discord.code("111"), "111", "inst1")
		frameWait(b, f, "the board in the Activity", `document.body.dataset.state === 'board' && document.body.dataset.live === 'on' && !!document.querySelector('[data-point="E5"]')`)
		return activityTimes(b, f)
	}
	only := os.Getenv("GOBOT_ACTIVITY_PROFILES") // e.g. "phone": those alone
	for _, p := range activityProfiles {
		if only != "" && !slices.Contains(strings.Split(only, ","), p.name) {
			continue
		}
		var cold []map[string]float64
		var last *tab
		for i := range runs {
			b := ab.tab(fmt.Sprintf("%s %d", p.name, i+1))
			b.do("record the frame's clock", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
				_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: frameClock})
				return err
			}))
			p.emulate(b)
			cold = append(cold, open(b))
			last = b
			if i == 0 {
				t.Logf("%s: each request of the first opening, ms from the frame's start: sent, first byte, last byte (bytes over the wire, decoded)", p.name)
				for _, r := range activityRequests(b) {
					t.Logf("  %-28s %6.0f %6.0f %6.0f  (%d, %d)", r.Name, r.Start, r.First, r.End, r.Wire, r.Body)
				}
			}
		}
		warm := open(last)
		t.Logf("%s (%s), ms from the frame's start; %d openings with an empty cache (median, then each), then one with the cache:", p.name, p.summary, runs)
		for _, s := range activitySteps {
			var vs []float64
			for _, c := range cold {
				if v, ok := c[s.name]; ok {
					vs = append(vs, v)
				}
			}
			each := make([]string, len(vs))
			for i, v := range vs {
				each[i] = fmt.Sprintf("%.0f", v)
			}
			med, w := "—", "—"
			if len(vs) > 0 {
				s := slices.Clone(vs)
				slices.Sort(s)
				med = fmt.Sprintf("%.0f", s[len(s)/2])
			}
			if v, ok := warm[s.name]; ok {
				w = fmt.Sprintf("%.0f", v)
			}
			t.Logf("  %-12s %6s  (%s)  cached %6s   %s", s.name, med, strings.Join(each, " "), w, s.what)
		}
	}
}
