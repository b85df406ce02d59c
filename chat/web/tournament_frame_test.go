package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
)

// discordTournament starts a McMahon in the Activity harness's channel,
// organised by the first of users, who all join: with three, round 1
// has one game and a bye. It returns the tournament, its first game and
// that game's players.
func (ah *activityHarness) discordTournament(users ...string) (gobot.TournamentID, gobot.GameID, []gobot.UserID) {
	ah.t.Helper()
	for i, u := range users {
		if r := ah.discordCmd(u, "settings", fmt.Sprintf("rank=%dk", 2+i)); r.Error {
			ah.t.Fatal(r.Text)
		}
	}
	cmds := [][]string{{users[0], "new", `"Spring`, `Cup"`, "mcmahon", "rounds=2", "size=9", "clock=1d"}}
	for _, u := range users {
		cmds = append(cmds, []string{u, "join"})
	}
	for _, c := range append(cmds, []string{users[0], "start"}) {
		if r := ah.discordCmd(c[0], "tournament", c[1:]...); r.Error {
			ah.t.Fatalf("tournament %v: %s", c[1:], r.Text)
		}
	}
	ts, err := ah.bot.RoomTournaments(context.Background(), ah.room)
	if err != nil || len(ts) != 1 || len(ts[0].Played) != 1 || len(ts[0].Games()) != len(users)/2 {
		ah.t.Fatalf("the tournament: %v %+v", err, ts)
	}
	g := ts[0].Played[0].Games[0]
	return ts[0].ID, ts[0].Games()[0], []gobot.UserID{gobot.UserID(g.Black), gobot.UserID(g.White)}
}

// getBearer GETs path with a bearer token; the status and the body.
func getBearer(t *testing.T, base, path, token string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestActivityTournament: in a channel with a tournament under way, the
// Activity opens the tournament's page for someone with no game there,
// and lists the tournament beside a player's own board. Its session is
// the tournament's only: with it the page reads the tournament's view
// (not another's, not a game's stream), and opens any of its games'
// boards — the player's own as theirs, others' to watch — but no game
// of another tournament and no tournament of another channel.
func TestActivityTournament(t *testing.T) {
	ah := newActivityHarness(t)
	tid, game, players := ah.discordTournament("111", "222", "333")
	ah.discord.instance("inst1", "777", "111", "222", "333", "444")

	// 444 plays nothing here: the tournament's page.
	st, a, _ := ah.postJSON("/activity/token", map[string]any{"code": ah.discord.code("444"), "instance_id": "inst1"})
	if st != 200 || a.Tournament != tid || a.Token == "" || a.Game != 0 || a.Title != "Spring Cup" {
		t.Fatalf("444's sign-in: %d %+v", st, a)
	}
	ah.proofs[a.AccessToken] = a.Proof
	tour := a.Token
	view := fmt.Sprintf("/t/%d/view", tid)
	if st, body := getBearer(t, ah.ts.URL, view, tour); st != 200 || !strings.Contains(body, `class="tview"`) || !strings.Contains(body, "data-standings") ||
		!strings.Contains(body, fmt.Sprintf(`data-board="%d"`, game)) || strings.Contains(body, "<html") {
		t.Fatalf("the view with the Activity's session: %d %.300s", st, body)
	}
	for _, c := range []struct{ why, path, token string }{
		{"without a session", view, ""},
		{"another tournament's view", "/t/9/view", tour},
		{"a game's stream", fmt.Sprintf("/g/%d/events", game), tour},
		{"a forged session", view, tour + "x"},
	} {
		if st, _ := getBearer(t, ah.ts.URL, c.path, c.token); st != 401 && st != 403 {
			t.Errorf("%s: %d, want 401 or 403", c.why, st)
		}
	}

	// A game's board from the page: 444 watches it.
	st, a, _ = ah.postJSON("/activity/session", map[string]any{"access_token": a.AccessToken, "instance_id": "inst1", "tournament": tid, "game": game})
	if st != 200 || a.Game != game || a.Role != "watcher" || a.Token == "" || a.Tournament != tid {
		t.Fatalf("444 opens game #%d from the page: %d %+v", game, st, a)
	}
	// A player's sign-in opens their own board, with the tournament
	// listed for the page's tab to it; from the page their game is theirs.
	p := strings.TrimPrefix(string(players[0]), "discord:")
	st, a, _ = ah.postJSON("/activity/token", map[string]any{"code": ah.discord.code(p), "instance_id": "inst1"})
	if st != 200 || a.Game != game || a.Role != "player" || len(a.Tournaments) != 1 || a.Tournaments[0].ID != tid || !strings.Contains(a.Tournaments[0].Label, "Spring Cup") {
		t.Fatalf("player %s's sign-in: %d %+v", p, st, a)
	}
	ah.proofs[a.AccessToken] = a.Proof
	acc := a.AccessToken
	if st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": acc, "instance_id": "inst1", "tournament": tid}); st != 200 || a.Tournament != tid || a.Game != 0 || a.Token == "" {
		t.Errorf("player %s opens the tournament's page: %d %+v", p, st, a)
	}
	if st, a, _ := ah.postJSON("/activity/session", map[string]any{"access_token": acc, "instance_id": "inst1", "tournament": tid, "game": game}); st != 200 || a.Role != "player" {
		t.Errorf("player %s opens their game from the page: %d %+v", p, st, a)
	}
	other := ah.discordGame("333", "444") // a game of no tournament, in the same channel
	for _, c := range []struct {
		why  string
		body map[string]any
		want string
	}{
		{"a game of no tournament", map[string]any{"tournament": tid, "game": other}, fmt.Sprintf("Game #%d is not a game of tournament t%d.", other, tid)},
		{"a tournament that is not here", map[string]any{"tournament": 9}, "Tournament t9 is not under way in this channel."},
	} {
		c.body["access_token"], c.body["instance_id"] = acc, "inst1"
		if st, a, _ := ah.postJSON("/activity/session", c.body); st != 404 || a.Token != "" || !strings.HasPrefix(a.Message, c.want) {
			t.Errorf("%s: %d %+v, want 404 %q", c.why, st, a, c.want)
		}
	}
	// In another channel the tournament is not offered.
	ah.discord.instance("inst2", "888", "444")
	if st, a, _ := ah.postJSON("/activity/token", map[string]any{"code": ah.discord.code("444"), "instance_id": "inst2"}); st != 404 || a.Token != "" || len(a.Tournaments) != 0 {
		t.Errorf("444 in another channel: %d %+v", st, a)
	}
}

// memberWidgets signs in by a token's user and counts the room's
// members as its members list says.
type memberWidgets struct {
	mu      sync.Mutex
	users   map[string]gobot.UserID
	members map[gobot.UserID]bool
}

func (w *memberWidgets) VerifyOpenID(_ context.Context, token, _ string) (gobot.UserID, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if u, ok := w.users[token]; ok {
		return u, nil
	}
	return "", fmt.Errorf("unknown token")
}

func (w *memberWidgets) InRoom(_ context.Context, _ gobot.RoomID, u gobot.UserID) (bool, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.members[u], nil
}

// TestTournamentWidget: a tournament's widget page is framed by the
// chat clients configured only and holds no script of its own inline;
// its sign-in opens the tournament's session for a member of its room
// (not for anyone else), with which the page reads the tournament's
// view and opens its games' boards in the widget: the player's own,
// others' to watch; a game of no tournament is refused, and the
// session stands for no game itself.
func TestTournamentWidget(t *testing.T) {
	h := newHarness(t)
	run := newTournamentRun(h)
	other := h.newGame() // no tournament's
	ws := &memberWidgets{users: map[string]gobot.UserID{"tok-alice": "console:alice", "tok-zed": "console:zed", "tok-alice2": "console:alice"},
		members: map[gobot.UserID]bool{"console:alice": true}}
	srv, err := New(Config{Bot: h.bot, Hub: h.hub, Secret: testSecret, PublicURL: h.ts.URL, Now: h.now.Now,
		Widgets: ws, WidgetOrigins: []string{"https://app.element.io"}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	if u := srv.Linker().(widgetLinker).TournamentWidgetURL(run.id); u != h.ts.URL+"/widget/t/1?room=$matrix_room_id&user=$matrix_user_id" {
		t.Errorf("the widget's URL: %s", u)
	}

	res, err := http.Get(ts.URL + "/widget/t/1?widgetId=w&parentUrl=https://app.element.io/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasSuffix(res.Header.Get("Content-Security-Policy"), "frame-ancestors https://app.element.io") ||
		strings.Contains(string(page), "<script>") || !strings.Contains(string(page), `data-tournament="1"`) || !strings.Contains(string(page), `src="/static/tview.js"`) {
		t.Fatalf("the widget page: %d %q\n%s", res.StatusCode, res.Header.Get("Content-Security-Policy"), page)
	}

	signIn := func(token string) (int, widgetSession) {
		t.Helper()
		b, _ := json.Marshal(map[string]any{"access_token": token, "matrix_server_name": "example.org"})
		res, err := http.Post(ts.URL+"/widget/t/1/session", "application/json", strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var s widgetSession
		json.NewDecoder(res.Body).Decode(&s)
		return res.StatusCode, s
	}
	if st, s := signIn("tok-zed"); st != 403 || s.Token != "" || s.Message != "Only the members of tournament t1's room can see its page." {
		t.Errorf("zed, not in the room: %d %+v", st, s)
	}
	st, s := signIn("tok-alice")
	if st != 200 || s.Token == "" || s.Tournament != 1 || s.Title != "Winter Cup" {
		t.Fatalf("alice's sign-in: %d %+v", st, s)
	}
	tour := s.Token
	if st, body := getBearer(t, ts.URL, "/t/1/view", tour); st != 200 || !strings.Contains(body, `class="tview"`) || !strings.Contains(body, "data-crosstable") {
		t.Fatalf("the view with the widget's session: %d %.300s", st, body)
	}
	if st, _ := getBearer(t, ts.URL, fmt.Sprintf("/g/%d/events", run.games[0]), tour); st != 401 && st != 403 {
		t.Errorf("the tournament's session follows a game's stream: %d", st)
	}

	openGame := func(game gobot.GameID, token string) (int, widgetSession) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/widget/t/1/g/%d", ts.URL, game), nil)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var s widgetSession
		json.NewDecoder(res.Body).Decode(&s)
		if len(s.Message) > 300 {
			t.Errorf("a refusal of %d bytes", len(s.Message))
		}
		return res.StatusCode, s
	}
	// alice's own game of round 3 is hers; another's she watches.
	var mine, theirs gobot.GameID
	tv := h.tournamentView(run.id)
	for r := range tv.Played {
		for i, g := range tv.Played[r].Games {
			if g.Black == "console:alice" || g.White == "console:alice" {
				mine = tv.Played[r].Match(i)
			} else {
				theirs = tv.Played[r].Match(i)
			}
		}
	}
	if st, s := openGame(mine, tour); st != 200 || s.Role != "player" || s.Token == "" || s.Game != mine || s.State == nil {
		t.Errorf("alice opens her game #%d: %d %+v", mine, st, s)
	} else if st, _ := getBearer(t, ts.URL, fmt.Sprintf("/g/%d", mine), ""); st == 200 {
		t.Errorf("the board without a session")
	}
	st, s = openGame(theirs, tour)
	if st != 200 || s.Role != "watcher" || s.Token == "" {
		t.Errorf("alice opens game #%d: %d %+v", theirs, st, s)
	}
	for _, c := range []struct {
		why   string
		game  gobot.GameID
		token string
		code  int
	}{
		{"a game of no tournament", other, tour, 404},
		{"without the session", mine, "", 401},
		{"with a game's session", mine, s.Token, 401},
		{"with a forged session", mine, tour + "x", 401},
	} {
		if st, s := openGame(c.game, c.token); st != c.code || s.Token != "" {
			t.Errorf("%s: %d %+v, want %d", c.why, st, s, c.code)
		}
	}
	// The session ends with its time.
	h.now.Advance(widgetTTL + time.Minute)
	if st, _ := getBearer(t, ts.URL, "/t/1/view", tour); st != 403 {
		t.Errorf("the view after the session's end: %d, want 403", st)
	}
}

// tournament is the Matrix harness's room's tournament, if any.
func (m *mxHarness) tournament(ctx context.Context) *gobot.Tournament {
	var t *gobot.Tournament
	m.db.View(ctx, func(tx gobot.Tx) error {
		ts, err := tx.RoomTournaments(gobot.RoomID("matrix:"+m.room.String()), true)
		if err == nil && len(ts) > 0 {
			t = ts[0]
		}
		return nil
	})
	return t
}
