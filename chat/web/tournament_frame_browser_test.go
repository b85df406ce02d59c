package web

import (
	"context"
	"fmt"
	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/tournament"
	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserActivityTournament: the Activity in a channel with a
// tournament under way, in Discord's cross-site frame with no cookie
// kept (as in WebKit). Someone playing no game there gets the
// tournament's page: the standings and every pairing; a board link
// opens that game's board in place, to watch, "Back to the tournament"
// returns to the page, and another board link puts the other game's
// board in the first one's place (its stream, not the first's). A
// player gets their own board with a tab to the tournament's page.
// Nothing leaves the SDK's page; the page fits at desktop width and at
// 360 px (docs/discord-activity-tournament*.png with -update).
func TestBrowserActivityTournament(t *testing.T) {
	ab := newActivityBrowser(t)
	tid, first, players := ab.discordTournament("111", "222", "333", "444")
	ab.discord.instance("inst1", "777", "111", "222", "333", "444", "555")
	tour := ab.tournamentView(tid)
	second := tour.Games()[1]

	eve := ab.tab("eve")
	ef := ab.launch(eve, ab.discord.code("555"), "555", "inst1")
	frameWait(eve, ef, "the tournament's page in the Activity", `document.body.dataset.state === 'tournament' && !!document.querySelector('#tview [data-standings]')`)
	if n := frameEval[int](eve, ef, `document.querySelectorAll('#tview [data-standings] tbody tr').length`); n != 4 {
		t.Errorf("the standings have %d lines, want 4", n)
	}
	if name := frameEval[string](eve, ef, `document.querySelector('#tview [data-name]').textContent`); name != "Spring Cup" {
		t.Errorf("the page's name: %q", name)
	}
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 760, false, "discord-activity-tournament.png"}, {360, 740, true, "discord-activity-tournament-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		eve.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		if over := frameEval[string](eve, ef, `(() => { const d = document.documentElement; return d.scrollWidth <= innerWidth ? 'ok' : d.scrollWidth + ' > ' + innerWidth; })()`); over != "ok" {
			t.Errorf("%dpx: the Activity's tournament page is wider than its frame: %s", vp.w, over)
		}
		eve.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}

	// A board from the page, in place: eve watches it.
	clickIn(eve, ef, fmt.Sprintf(`#tview a[data-board="%d"]`, first))
	frameWait(eve, ef, "the first game's board", fmt.Sprintf(`document.body.dataset.state === 'board' && document.body.dataset.game === '%d' && document.body.dataset.live === 'on' && !!document.querySelector('#board [data-point="E5"]')`, first))
	if role := frameEval[string](eve, ef, `document.body.dataset.role`); role != "watcher" {
		t.Errorf("eve's board from the page is a %q's", role)
	}
	if back := frameEval[string](eve, ef, `(b => b.hidden ? '' : b.textContent)(document.querySelector('[data-tab="tournament"]'))`); back != "Back to the tournament" {
		t.Errorf("the board's tab to the page reads %q", back)
	}
	// The game's players move: eve's board follows.
	black := strings.TrimPrefix(string(players[0]), "discord:")
	if r := ab.discordCmd(black, "play", "E5", fmt.Sprintf("#%d", first)); r.Error {
		t.Fatal(r.Text)
	}
	waitStoneIn(eve, ef, "E5", "black")
	clickIn(eve, ef, `[data-tab="tournament"]`)
	frameWait(eve, ef, "the page again", `document.body.dataset.state === 'tournament' && !document.getElementById('tournament').hidden && document.getElementById('game').hidden`)
	if back := frameEval[string](eve, ef, `(b => b.hidden ? '' : b.textContent)(document.querySelector('[data-tab="game"]'))`); back != fmt.Sprintf("Back to game #%d", first) {
		t.Errorf("the page's way back to the board reads %q", back)
	}
	// The other game's board takes the first one's place.
	clickIn(eve, ef, fmt.Sprintf(`#tview a[data-board="%d"]`, second))
	frameWait(eve, ef, "the second game's board", fmt.Sprintf(`document.body.dataset.game === '%d' && document.body.dataset.live === 'on' && !document.querySelector('#board [data-stone="black"]')`, second))
	// A move in the first game, then one in the second: eve's board
	// shows the second's, and nothing of the first's (its stream ended).
	white := strings.TrimPrefix(string(players[1]), "discord:")
	if r := ab.discordCmd(white, "play", "C3", fmt.Sprintf("#%d", first)); r.Error {
		t.Fatal(r.Text)
	}
	black2 := strings.TrimPrefix(string(tour.Played[0].Games[1].Black), "discord:")
	if r := ab.discordCmd(black2, "play", "D4", fmt.Sprintf("#%d", second)); r.Error {
		t.Fatal(r.Text)
	}
	waitStoneIn(eve, ef, "D4", "black")
	if st := frameEval[string](eve, ef, `document.querySelector('#board [data-point="C3"]').dataset.stone || ''`); st != "" {
		t.Errorf("the second game's board shows the first game's move: C3 %q", st)
	}
	onSDKPage(t, eve, ef, "after the tournament's boards")
	for _, rt := range ab.routes {
		if strings.HasSuffix(rt, "cookie") {
			t.Errorf("a request with a cookie: %s", rt)
		}
	}

	// A player: their own board, with a tab to the tournament's page.
	p := ab.tab("player")
	pf := ab.launch(p, ab.discord.code(black), black, "inst1")
	frameWait(p, pf, "the player's board", fmt.Sprintf(`document.body.dataset.state === 'board' && document.body.dataset.game === '%d' && document.body.dataset.role === 'player'`, first))
	if tab := frameEval[string](p, pf, `(b => b.hidden ? '' : b.textContent)(document.querySelector('[data-tab="tournament"]'))`); tab != "Tournament: Spring Cup" {
		t.Errorf("the player's tab to the tournament reads %q", tab)
	}
	clickIn(p, pf, `[data-tab="tournament"]`)
	frameWait(p, pf, "the tournament's page from the tab", `document.body.dataset.state === 'tournament' && !!document.querySelector('#tview [data-standings]')`)
	clickIn(p, pf, `[data-tab="game"]`)
	frameWait(p, pf, "the player's board again", `document.body.dataset.state === 'board' && !document.getElementById('game').hidden`)
	onSDKPage(t, p, pf, "after the tab")
}

// TestBrowserTournamentWidget: `!go tournament standings` in a Matrix
// room (Dendrite, the bot's Matrix adapter) adds the tournament's page
// to the room as a widget; in the Element stand-in, signed in with
// alice's real OpenID token, it shows the standings and pairings; her
// game's board opens in the widget as hers, and she plays from it (the
// move announced in the room); back on the page, the other game's
// board opens in its place to watch. Nothing is kept in a cookie; the
// page fits at desktop width and at 360 px
// (docs/matrix-widget-tournament*.png with -update).
func TestBrowserTournamentWidget(t *testing.T) {
	browser := startBrowser(t,
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
	if _, err := m.dave.JoinRoomByID(ctx, m.room); err != nil {
		t.Fatal(err)
	}
	// The bot may change the room's widgets (its layout too).
	pl := &event.PowerLevelsEventContent{}
	if err := m.alice.StateEvent(ctx, m.room, event.StatePowerLevels, "", pl); err != nil {
		t.Fatal(err)
	}
	pl.SetUserLevel(m.botID, 50)
	if _, err := m.alice.SendStateEvent(ctx, m.room, event.StatePowerLevels, "", pl); err != nil {
		t.Fatal(err)
	}
	m.say(ctx, m.alice, `!go tournament new "Club RR" roundrobin size=9 clock=1d`)
	until(t, ctx, "the tournament", func() bool { return m.tournament(ctx) != nil })
	for _, c := range []*mautrix.Client{m.alice, m.bob, m.carol, m.dave} {
		m.say(ctx, c, "!go tournament join")
	}
	until(t, ctx, "four players", func() bool { t := m.tournament(ctx); return t != nil && len(t.Players) == 4 })
	m.say(ctx, m.alice, "!go tournament start")
	until(t, ctx, "round 1", func() bool { t := m.tournament(ctx); return t != nil && len(t.Games()) == 2 })
	tour := m.tournament(ctx)
	var mine, theirs gobot.GameID
	for i, g := range tour.Played[0].Games {
		if me := tournament.PlayerID("matrix:" + m.alice.UserID.String()); g.Black == me || g.White == me {
			mine = tour.Played[0].Match(i)
		} else {
			theirs = tour.Played[0].Match(i)
		}
	}
	if mine == 0 || theirs == 0 {
		t.Fatalf("alice's game and the other: %d %d in %+v", mine, theirs, tour.Played[0])
	}
	m.say(ctx, m.bob, "!go tournament standings")
	until(t, ctx, "the tournament's widget in the room", func() bool {
		var w map[string]any
		err := m.alice.StateEvent(ctx, m.room, event.NewEventType("im.vector.modular.widgets"), "gobot_tournament_1", &w)
		return err == nil && strings.Contains(fmt.Sprint(w["url"]), "/widget/t/1?") && w["name"] == "Go: Club RR (t1)"
	})

	creds := func(c *mautrix.Client) map[string]string {
		tok := openID(t, c)
		return map[string]string{"access_token": tok.AccessToken, "token_type": tok.TokenType, "matrix_server_name": tok.MatrixServerName, "expires_in": fmt.Sprint(tok.ExpiresIn)}
	}
	base := startElement(t, m, ln, func(string) map[string]string { return creds(m.alice) }, "")
	alice := newTab(t, m.harness, browser, "alice")
	alice.do("open Element", chromedp.Navigate(base+"/?mode=at-once&tournament=1"))
	frame := inFrame(alice)
	frameWait(alice, frame, "the tournament's page in the widget", `document.body.dataset.signin === 'on' && !!document.querySelector('#tview [data-standings]')`)
	if n := frameEval[int](alice, frame, `document.querySelectorAll('#tview [data-round="1"] a[data-board]').length`); n != 2 {
		t.Errorf("round 1 shows %d board links, want 2", n)
	}
	for _, vp := range []struct {
		w, h   int64
		mobile bool
		shot   string
	}{{1000, 800, false, "matrix-widget-tournament.png"}, {360, 740, true, "matrix-widget-tournament-phone.png"}} {
		opts := []chromedp.EmulateViewportOption{}
		if vp.mobile {
			opts = append(opts, chromedp.EmulatePortrait, chromedp.EmulateMobile, chromedp.EmulateTouch)
		}
		alice.do("viewport", chromedp.EmulateViewport(vp.w, vp.h, opts...))
		if over := frameEval[string](alice, frame, `(() => { const d = document.documentElement; return d.scrollWidth <= innerWidth ? 'ok' : d.scrollWidth + ' > ' + innerWidth; })()`); over != "ok" {
			t.Errorf("%dpx: the widget's tournament page is wider than its frame: %s", vp.w, over)
		}
		alice.screenshot(filepath.Join("..", "..", "docs", vp.shot))
	}
	alice.do("viewport", chromedp.EmulateViewport(1000, 800))

	// Her game's board, hers: she plays from the widget.
	alice.do("open her board", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tview a[data-board="%d"]`, mine)), chromedp.FromNode(frame)))
	frameWait(alice, frame, "her board", fmt.Sprintf(`document.body.dataset.game === '%d' && document.body.dataset.live === 'on' && !document.getElementById('game').hidden`, mine))
	if role := frameEval[string](alice, frame, `document.body.dataset.role`); role != "player" {
		t.Fatalf("alice's own game opens as a %q's", role)
	}
	if frameEval[string](alice, frame, `document.body.dataset.color`) == "white" {
		// Black moves first: her opponent, by typing in the room; her
		// board follows.
		for i, g := range tour.Played[0].Games {
			for _, c := range []*mautrix.Client{m.bob, m.carol, m.dave} {
				if tour.Played[0].Match(i) == mine && g.Black == tournament.PlayerID("matrix:"+c.UserID.String()) {
					m.say(ctx, c, fmt.Sprintf("!go play D4 #%d", mine))
				}
			}
		}
		frameWait(alice, frame, "her opponent's move", `document.querySelector('[data-point="D4"]').dataset.stone === 'black'`)
	}
	alice.do("click E5", chromedp.Click(chromedp.CSS(`[data-point="E5"]`), chromedp.FromNode(frame)))
	frameWait(alice, frame, "her stone on E5", `!!document.querySelector('[data-point="E5"]').dataset.stone`)
	until(t, ctx, "the click's announcement in the Matrix room", func() bool { return m.announced(ctx, "E5") })
	// Back to the page, and the other game's board in her board's place.
	alice.do("back", chromedp.Click(chromedp.CSS(`[data-tab="tournament"]`), chromedp.FromNode(frame)))
	frameWait(alice, frame, "the page again", `!document.getElementById('tournament').hidden && !!document.querySelector('#tview [data-standings]')`)
	alice.do("open the other board", chromedp.Click(chromedp.CSS(fmt.Sprintf(`#tview a[data-board="%d"]`, theirs)), chromedp.FromNode(frame)))
	frameWait(alice, frame, "the other board", fmt.Sprintf(`document.body.dataset.game === '%d' && document.body.dataset.role === 'watcher' && document.body.dataset.live === 'on'`, theirs))
	if n := frameEval[float64](alice, frame, `document.cookie.length + (localStorage.length || 0)`); n != 0 {
		t.Errorf("the widget keeps %v characters of cookies or storage", n)
	}
}
