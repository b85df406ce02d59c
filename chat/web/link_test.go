package web

import (
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
)

// webLink asks the bot for user's link to game id with `web` (and its
// args, like reset) and returns it.
func (h *harness) webLink(user string, id gobot.GameID, args ...string) string {
	h.t.Helper()
	rep := h.cmd(user, "web", append(args, "#"+itoa(uint64(id)))...)
	urls := urlRE.FindAllString(rep.Text, -1)
	if rep.Error || len(urls) != 1 {
		h.t.Fatalf("%s: web %v: %+v", user, args, rep)
	}
	return urls[0]
}

// postPage posts a form to path as this browser and returns the answer.
func (b *browser) postPage(path string, f url.Values) (*http.Response, string) {
	b.h.t.Helper()
	res, err := b.c.PostForm(b.h.ts.URL+path, f)
	if err != nil {
		b.h.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return res, string(body)
}

// TestLinkReset: `web reset` ends the caller's earlier links and the
// sessions opened with them — page, clicks, live stream — and its new
// link works; another player's link and session are untouched, and a
// plain `web` afterwards gives a working link of the new generation.
func TestLinkReset(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	old := h.webLink("alice", id)
	b := h.browser() // alice's board, opened with the old link
	b.open(old, id)
	bob := h.browser()
	bob.open(h.webLink("bob", id), id)
	stream, bobStream := b.events(""), bob.events("")
	stream.next(t)
	bobStream.next(t)

	fresh := h.webLink("alice", id, "reset")
	// alice's open stream ends (the reset woke it); bob's goes on.
	if _, err := io.ReadAll(stream.r); err != nil {
		t.Errorf("alice's live stream after the reset: %v, want it ended", err)
	}
	if fresh == old {
		t.Fatal("web reset gave the same link")
	}
	res, body := h.browser().get(old)
	if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "web reset") || strings.Contains(body, "alice") {
		t.Errorf("the old link after a reset: %d %q, want 403 saying it was replaced, nothing about the game", res.StatusCode, body)
	}
	if res, _ := b.get(h.ts.URL + gamePath(id)); res.StatusCode != http.StatusForbidden {
		t.Errorf("the old link's session, its page: %d, want 403", res.StatusCode)
	}
	if res, _ := b.get(h.ts.URL + gamePath(id) + "/events"); res.StatusCode != http.StatusForbidden {
		t.Errorf("the old link's session, its live stream: %d, want 403", res.StatusCode)
	}
	before := h.version(id)
	if code, _ := b.post("play", "E5", "revoked-click-1"); code != http.StatusForbidden || h.version(id) != before {
		t.Errorf("the old link's session clicks: %d, version %d → %d; want 403 and nothing changed", code, before, h.version(id))
	}
	// The new link plays; bob's session was not touched.
	nb := h.browser()
	nb.open(fresh, id)
	if code, msg := nb.post("play", "E5", "fresh-click-1"); code != 200 || msg != "" {
		t.Fatalf("the new link: %d %q", code, msg)
	}
	if code, msg := bob.post("play", "C3", "bob-click-1"); code != 200 || msg != "" {
		t.Fatalf("bob after alice's reset: %d %q", code, msg)
	}
	// bob's stream goes on: it shows both moves (one event each, or
	// the second only if they came together).
	if gotID, _ := bobStream.next(t); gotID != itoa(h.version(id)) {
		if gotID, _ = bobStream.next(t); gotID != itoa(h.version(id)) {
			t.Errorf("bob's stream after alice's reset and two moves: event %s, want %d", gotID, h.version(id))
		}
	}
	// A plain web gives a link of the new generation, which works.
	again := h.browser()
	again.open(h.webLink("alice", id), id)
	if res, _ := nb.get(h.ts.URL + gamePath(id)); res.StatusCode != 200 {
		t.Errorf("the reset's link after a plain web: %d, want 200", res.StatusCode)
	}
	// A second reset ends both.
	h.webLink("alice", id, "reset")
	for _, br := range []*browser{nb, again} {
		if res, _ := br.get(h.ts.URL + gamePath(id)); res.StatusCode != http.StatusForbidden {
			t.Errorf("after a second reset: %d, want 403", res.StatusCode)
		}
	}
}

// TestLoginCSRF: a browser holding alice's live session for a game,
// sent to bob's link (as any site can), is asked first, with one button;
// her session stays until she answers, and an answer without the
// question's token (a forged form, or another browser's) changes
// nothing. A first open, the same user's link, and a link opened over
// an expired or revoked session are one step.
func TestLoginCSRF(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	alice := h.browser()
	alice.open(h.link(id, "alice", false), id)
	sess := func(b *browser) string {
		u, _ := url.Parse(h.ts.URL + gamePath(id))
		for _, c := range b.c.Jar.Cookies(u) {
			if c.Name == cookieName(id) {
				return c.Value
			}
		}
		return ""
	}
	held := sess(alice)

	// The same user's link again: one step, a new session.
	alice.open(h.link(id, "alice", false), id)
	if sess(alice) == held || sess(alice) == "" {
		t.Fatal("alice's own link again did not open at once")
	}
	held = sess(alice)

	// bob's link in alice's browser: the question.
	res, _ := alice.get(h.link(id, "bob", false))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("bob's link: %d", res.StatusCode)
	}
	res, page := alice.get(h.ts.URL + res.Header.Get("Location"))
	if res.StatusCode != 200 || !strings.Contains(page, "data-confirm") || strings.Count(page, "<button") != 1 ||
		!strings.Contains(page, `method="post"`) || !strings.Contains(page, "as alice") || !strings.Contains(page, "bob") {
		t.Fatalf("bob's link over alice's session: %d\n%s\nwant a page asking, with one button that posts", res.StatusCode, page)
	}
	if sess(alice) != held {
		t.Fatal("the question replaced alice's session")
	}
	csrf := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindStringSubmatch(page)
	if csrf == nil {
		t.Fatal("the question has no CSRF token")
	}
	// Forged answers: no token, a made-up one, alice's page's token.
	for name, f := range map[string]url.Values{"no token": {}, "made up": {"csrf": {"AAAA"}}, "the board's token": {"csrf": {alice.csrf}}} {
		if res, body := alice.postPage(gamePath(id)+"/open", f); res.StatusCode != http.StatusForbidden || len(body) > 2000 || sess(alice) != held {
			t.Errorf("%s: %d, session replaced %v; want 403 and alice's session kept", name, res.StatusCode, sess(alice) != held)
		}
	}
	// Another browser cannot answer for her: it holds no link being opened.
	if res, _ := h.browser().postPage(gamePath(id)+"/open", url.Values{"csrf": {csrf[1]}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the question's token from another browser: %d, want 401", res.StatusCode)
	}
	// Her answer: bob's session.
	res, _ = alice.postPage(gamePath(id)+"/open", url.Values{"csrf": {csrf[1]}})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath(id) || sess(alice) == held {
		t.Fatalf("the answer: %d to %q, session replaced %v", res.StatusCode, res.Header.Get("Location"), sess(alice) != held)
	}
	_, page = alice.get(h.ts.URL + gamePath(id))
	alice.csrf = csrfAttr.FindStringSubmatch(page)[1]
	if code, msg := alice.post("pass", "", "as-bob-pass"); code != 200 || msg == "" {
		t.Errorf("after switching, the browser is bob's (not his turn): %d %q", code, msg)
	}
	// The link being opened was used up: posting again is refused.
	if res, _ := alice.postPage(gamePath(id)+"/open", url.Values{"csrf": {csrf[1]}}); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the answer posted again: %d, want 401", res.StatusCode)
	}

	// Over a revoked session, another user's link opens at once.
	carol := h.browser()
	carol.open(h.webLink("alice", id), id)
	h.webLink("alice", id, "reset")
	carol.open(h.link(id, "carol", true), id)
}

// TestSignOut: the board's Sign out is a POST with the session's CSRF
// token that clears the session cookie; without the token it changes
// nothing; the link opens the board again afterwards.
func TestSignOut(t *testing.T) {
	h := newHarness(t)
	id := h.newGame()
	link := h.link(id, "alice", false)
	b := h.browser()
	page := b.open(link, id)
	if !strings.Contains(page, `action="/g/`+itoa(uint64(id))+`/signout"`) || !strings.Contains(page, "data-signout") {
		t.Fatal("the board has no Sign out form")
	}
	if res, _ := b.get(h.ts.URL + gamePath(id) + "/signout"); res.StatusCode == http.StatusOK {
		t.Error("GET signout answered 200: GET must change nothing")
	}
	for name, f := range map[string]url.Values{"no token": {}, "made up": {"csrf": {"AAAA"}}} {
		if res, _ := b.postPage(gamePath(id)+"/signout", f); res.StatusCode != http.StatusForbidden || len(res.Cookies()) != 0 {
			t.Errorf("sign out with %s: %d, cookies %v; want 403 and none", name, res.StatusCode, res.Cookies())
		}
	}
	if res, _ := b.get(h.ts.URL + gamePath(id)); res.StatusCode != 200 {
		t.Fatalf("refused sign-outs ended the session: %d", res.StatusCode)
	}
	res, body := b.postPage(gamePath(id)+"/signout", url.Values{"csrf": {b.csrf}})
	ck := res.Cookies()
	if res.StatusCode != 200 || !strings.Contains(body, "Signed out") || len(ck) != 1 || ck[0].Name != cookieName(id) || ck[0].MaxAge != -1 || ck[0].Path != gamePath(id) {
		t.Fatalf("sign out: %d, cookies %+v\n%s", res.StatusCode, ck, body)
	}
	if res, _ := b.get(h.ts.URL + gamePath(id)); res.StatusCode != http.StatusUnauthorized {
		t.Errorf("the board after signing out: %d, want 401", res.StatusCode)
	}
	b.open(link, id) // one step again: no session held
}
