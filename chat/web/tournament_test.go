package web

import (
	"context"
	"fmt"
	"html"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/tournament"
)

// tournamentRun is a McMahon tournament of five players made by chat
// commands on the harness's bot: rounds 1 and 2 played out (a bye each
// round), round 3 paired with its first game over and the others going
// on.
type tournamentRun struct {
	id    gobot.TournamentID
	link  string         // the page's link, from `tournament standings`
	games []gobot.GameID // every round's games, round by round
}

var tournamentLinkRE = regexp.MustCompile(`http://[^\s]+/l/[^\s]+`)

func (h *harness) mustCmd(user, command string, args ...string) string {
	h.t.Helper()
	r := h.cmd(user, command, args...)
	if r.Error {
		h.t.Fatalf("%s: %s %s: %s", user, command, strings.Join(args, " "), r.Text)
	}
	return r.Text
}

// tournamentView reads tournament id from the store.
func (h *harness) tournamentView(id gobot.TournamentID) *gobot.Tournament {
	h.t.Helper()
	t, err := h.bot.TournamentView(context.Background(), id)
	if err != nil {
		h.t.Fatal(err)
	}
	return t
}

// finish ends round rd's games but those listed in keep: each game's
// loser resigns, White losing on odd boards and Black on even ones.
func (h *harness) finish(id gobot.TournamentID, rd int, keep int) {
	h.t.Helper()
	t := h.tournamentView(id)
	r := t.Played[rd-1]
	for i, g := range r.Games {
		if i >= len(r.Games)-keep {
			continue
		}
		loser := g.White
		if g.Table%2 == 0 {
			loser = g.Black
		}
		h.mustCmd(strings.TrimPrefix(string(loser), "console:"), "resign", fmt.Sprintf("#%d", r.Match(i)))
	}
}

func newTournamentRun(h *harness) *tournamentRun {
	h.t.Helper()
	ranks := map[string]string{"alice": "3d", "bob": "1d", "carol": "2k", "dave": "4k", "erin": "9k"}
	for _, u := range []string{"alice", "bob", "carol", "dave", "erin"} {
		h.mustCmd(u, "settings", "rank="+ranks[u])
	}
	h.mustCmd("alice", "tournament", "new", `"Winter`, `Cup"`, "mcmahon", "rounds=3", "size=9", "clock=1d", "handicap=mcmahon")
	for _, u := range []string{"alice", "bob", "carol", "dave", "erin"} {
		h.mustCmd(u, "tournament", "join")
	}
	h.mustCmd("alice", "tournament", "start")
	ts := h.tournamentView(1)
	run := &tournamentRun{id: ts.ID}
	h.finish(run.id, 1, 0)
	h.mustCmd("alice", "tournament", "pair")
	h.finish(run.id, 2, 0)
	h.mustCmd("alice", "tournament", "pair")
	h.finish(run.id, 3, 1)
	text := h.mustCmd("bob", "tournament", "standings")
	run.link = tournamentLinkRE.FindString(text)
	if run.link == "" {
		h.t.Fatalf("tournament standings carries no link to the page:\n%s", text)
	}
	run.games = h.tournamentView(run.id).Games()
	return run
}

// TestTournamentPage: the standings' link opens the tournament's page
// (standings, pairings with their games' boards and results, the
// crosstable) in this browser; without its session, with another's or a
// forged one it is refused; a game's board opens from it to watch, or as
// the player's own when this browser holds their session; a game of no
// tournament is not opened; and nothing of it changes the tournament.
func TestTournamentPage(t *testing.T) {
	h := newHarness(t)
	run := newTournamentRun(h)
	before := h.tournamentView(run.id).Version

	b := h.browser()
	res, _ := b.get(run.link)
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/t/1" {
		t.Fatalf("the link: %d to %q, want 303 to /t/1", res.StatusCode, res.Header.Get("Location"))
	}
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == "gobot_t1" {
			cookie = c
		}
	}
	if cookie == nil || cookie.Path != "/t/1" || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.MaxAge <= 0 {
		t.Fatalf("the tournament's cookie: %+v", cookie)
	}
	res, page := b.get(h.ts.URL + "/t/1")
	if res.StatusCode != 200 {
		t.Fatalf("the page: %d %s", res.StatusCode, page)
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "script-src 'self'") || !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("CSP %q", csp)
	}
	if strings.Contains(page, "<script") || strings.Contains(page, "style=") {
		t.Error("the page has a script or an inline style")
	}
	tour := h.tournamentView(run.id)
	lines, err := tour.Pairing().Table(2)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Winter Cup", "Round 3 of 3", "Standings after round 3", `data-round="1"`, `data-round="2"`, `data-round="3"`, "data-crosstable", ">playing<", "SODOS"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	// Each line of the standings as package tournament has it, in order.
	rows := regexp.MustCompile(`<tr data-line="(\d+)">.*?<th scope="row" class="name">([^<]+)</th><td class="rank">([^<]+)</td><td class="num score">([^<]+)</td>((?:<td class="round[^"]*" title="[^"]*">[^<]*</td>)+)`).FindAllStringSubmatch(page, -1)
	if len(rows) != len(lines) {
		t.Fatalf("%d lines in the standings, want %d", len(rows), len(lines))
	}
	cellRE := regexp.MustCompile(`>([^<]*)</td>`)
	for i, l := range lines {
		var cells []string
		for _, m := range cellRE.FindAllStringSubmatch(rows[i][5], -1) {
			cells = append(cells, html.UnescapeString(m[1]))
		}
		var want []string
		for _, r := range l.Rounds {
			want = append(want, r.String())
		}
		if rows[i][2] != l.Name || rows[i][3] != l.Rank.String() || rows[i][4] != l.Score.String() || strings.Join(cells, " ") != strings.Join(want, " ") {
			t.Errorf("line %d: %q %q %q %v, want %q %q %q %v", i+1, rows[i][2], rows[i][3], rows[i][4], cells, l.Name, l.Rank, l.Score, want)
		}
	}
	// Every game has its board's link and its result.
	for _, g := range run.games {
		if !strings.Contains(page, `href="/t/1/g/`+strconv.FormatUint(uint64(g), 10)+`"`) {
			t.Errorf("no board link for game #%d", g)
		}
	}
	r1 := tour.Played[0]
	if r1.Games[0].Result == tournament.Unknown || !strings.Contains(html.UnescapeString(page), `<td class="result" data-result>`+r1.Games[0].Result.String()+`</td>`) {
		t.Errorf("round 1's first result %v is not on the page", r1.Games[0].Result)
	}

	// Refusals: no session, another tournament's, forged, a game's link.
	if res, body := h.browser().get(h.ts.URL + "/t/1"); res.StatusCode != 401 || !strings.Contains(body, "tournament standings") {
		t.Errorf("no session: %d %s", res.StatusCode, body)
	}
	other, _, _ := h.srv.TournamentLink(2)
	ob := h.browser()
	ob.get(other)
	if res, _ := ob.get(h.ts.URL + "/t/2"); res.StatusCode != http.StatusNotFound {
		t.Errorf("tournament 2, which does not exist: %d, want 404", res.StatusCode)
	}
	req, _ := http.NewRequest("GET", h.ts.URL+"/t/1", nil)
	for _, c := range ob.c.Jar.Cookies(req.URL) {
		t.Errorf("tournament 2's session was sent to /t/1: %s", c.Name)
	}
	forged := h.browser()
	forged.c.Jar.SetCookies(req.URL, []*http.Cookie{{Name: "gobot_t1", Value: strings.Replace(cookie.Value, "A", "B", 1), Path: "/t/1"}})
	if res, _ := forged.get(h.ts.URL + "/t/1"); res.StatusCode != 401 {
		t.Errorf("a changed session: %d, want 401", res.StatusCode)
	}
	tokenAsCookie := h.browser()
	tokenAsCookie.c.Jar.SetCookies(req.URL, []*http.Cookie{{Name: "gobot_t1", Value: run.link[strings.LastIndex(run.link, "/")+1:], Path: "/t/1"}})
	if res, _ := tokenAsCookie.get(h.ts.URL + "/t/1"); res.StatusCode != 401 {
		t.Errorf("the link's token as a cookie: %d, want 401", res.StatusCode)
	}
	gameLink := h.link(run.games[0], "alice", true)
	gl := h.browser()
	gl.get(gameLink)
	if res, _ := gl.get(h.ts.URL + "/t/1"); res.StatusCode != 401 {
		t.Errorf("a game's link at the tournament's page: %d, want 401", res.StatusCode)
	}

	// A game's board from the page: a watcher's session, which cannot act.
	g := run.games[len(run.games)-1] // still being played
	res, _ = b.get(h.ts.URL + "/t/1/g/" + strconv.FormatUint(uint64(g), 10))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != openPath(g) {
		t.Fatalf("the board's link: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, _ = b.get(h.ts.URL + openPath(g))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath(g) {
		t.Fatalf("the board's open step: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	res, board := b.get(h.ts.URL + gamePath(g))
	if res.StatusCode != 200 || !strings.Contains(board, `data-role="watcher"`) {
		t.Fatalf("the board from the tournament's page: %d, watcher: %v", res.StatusCode, strings.Contains(board, `data-role="watcher"`))
	}
	b.csrf = csrfAttr.FindStringSubmatch(board)[1]
	b.game = g
	v := h.version(g)
	if code, body := b.post("pass", "", "tournament-click-1"); code != http.StatusForbidden || !strings.Contains(body, "watching") {
		t.Errorf("a click from the tournament's watcher: %d %s", code, body)
	}
	if h.version(g) != v {
		t.Error("the watcher's click changed the game")
	}
	// A player whose browser holds their own session keeps it.
	m := tour.Played[2]
	player := strings.TrimPrefix(string(m.Games[len(m.Games)-1].Black), "console:")
	pb := h.browser()
	pb.open(h.link(g, player, false), g)
	pb.get(run.link)
	res, _ = pb.get(h.ts.URL + "/t/1/g/" + strconv.FormatUint(uint64(g), 10))
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("the player's board from the page: %d", res.StatusCode)
	}
	if res, _ = pb.get(h.ts.URL + openPath(g)); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != gamePath(g) {
		t.Fatalf("the player's board's open step: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	if _, board := pb.get(h.ts.URL + gamePath(g)); !strings.Contains(board, `data-role="player"`) {
		t.Error("the tournament's link replaced the player's own session of the game")
	}
	// A game of no tournament, and nonsense, are not opened.
	free := h.newGame()
	for _, path := range []string{"/t/1/g/" + strconv.FormatUint(uint64(free), 10), "/t/1/g/0", "/t/1/g/x"} {
		if res, body := b.get(h.ts.URL + path); res.StatusCode != http.StatusNotFound || len(res.Cookies()) != 0 {
			t.Errorf("%s: %d, %d cookies: %s", path, res.StatusCode, len(res.Cookies()), body)
		}
	}
	if h.tournamentView(run.id).Version != before {
		t.Error("reading the page changed the tournament")
	}
}

// TestPassWellFormed: a pass names one game, review or tournament; only a
// tournament's and a game's watch-only pass go without a user, and the
// Activity's always has one.
func TestPassWellFormed(t *testing.T) {
	s := signer{key: testSecret}
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	exp := now.Add(time.Hour).Unix()
	for _, c := range []struct {
		p  Pass
		ok bool
	}{
		{Pass{Tournament: 1, Expires: exp}, true},
		{Pass{Game: 1, Watch: true, Expires: exp}, true},
		{Pass{Game: 1, User: "console:bob", Expires: exp}, true},
		{Pass{Review: 1, User: "console:bob", Expires: exp}, true},
		{Pass{Tournament: 1, User: "console:bob", Expires: exp}, true}, // a widget's
		{Pass{Tournament: 1, User: "discord:1", Activity: true, Expires: exp}, true},
		{Pass{Tournament: 1, Activity: true, Expires: exp}, false},
		{Pass{Tournament: 1, Game: 2, Expires: exp}, false},
		{Pass{Tournament: 1, Review: 2, Expires: exp}, false},
		{Pass{Game: 1, Expires: exp}, false},
		{Pass{Review: 1, Watch: true, Expires: exp}, false},
		{Pass{Game: 1, Watch: true, Activity: true, Expires: exp}, false},
		{Pass{Expires: exp}, false},
	} {
		_, err := s.open(purposeLink, s.sign(purposeLink, c.p), now)
		if (err == nil) != c.ok {
			t.Errorf("%+v: %v, want ok %v", c.p, err, c.ok)
		}
	}
}
