package matrix

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"maunium.net/go/mautrix"
	"maunium.net/go/mautrix/event"
	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix/dendritetest"
)

// widgetLinker is a web board with a widget page, for the bot's `web`.
type widgetLinker struct{}

func (widgetLinker) Link(g gobot.GameID, u gobot.UserID, watch bool, gen uint64) (string, time.Time, error) {
	return fmt.Sprintf("https://go.example.org/l/%d", g), time.Now().Add(time.Hour), nil
}

func (widgetLinker) WidgetURL(g gobot.GameID) string {
	return fmt.Sprintf("https://go.example.org/widget/%d?room=$matrix_room_id&user=$matrix_user_id", g)
}

// TestOpenIDDendrite: a token from alice's login, checked with her
// homeserver (the bot's own, at the URL the bot uses), names alice; a
// made-up token, or alice's presented as another server's, is refused.
func TestOpenIDDendrite(t *testing.T) {
	ctx := waitCtx(t)
	hs := dendritetest.Start(t, dendritetest.Options{Federation: true, Exempt: []string{"@alice:localhost"}})
	alice := register(t, ctx, hs, "alice")
	a := &Adapter{cfg: Config{Homeserver: hs, UserID: "@gobot:localhost"}}
	tok, err := alice.RequestOpenIDToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if tok.MatrixServerName != "localhost" {
		t.Fatalf("the token's server is %q", tok.MatrixServerName)
	}
	u, err := a.VerifyOpenID(ctx, tok.AccessToken, tok.MatrixServerName)
	if err != nil || u != "matrix:@alice:localhost" {
		t.Fatalf("alice's token: %q, %v", u, err)
	}
	if u, err := a.VerifyOpenID(ctx, tok.AccessToken, tok.MatrixServerName); err != nil || u != "matrix:@alice:localhost" {
		t.Fatalf("alice's token a second time: %q, %v", u, err)
	}
	for _, bad := range []string{"made-up-token", alice.AccessToken, tok.AccessToken + "x", ""} {
		if u, err := a.VerifyOpenID(ctx, bad, "localhost"); !errors.Is(err, ErrOpenIDRefused) || u != "" {
			t.Errorf("token %.12q…: %q, %v; want a refusal", bad, u, err)
		}
	}
	// Another server's name sends the check there (server discovery, over
	// HTTPS, public addresses only): not to the bot's homeserver, and
	// never answered with alice.
	for _, server := range []string{"127.0.0.1:1", "example.invalid", "bad server", "localhost/x"} {
		if u, err := a.VerifyOpenID(ctx, tok.AccessToken, server); err == nil || u != "" {
			t.Errorf("alice's token as %q's: %q, %v", server, u, err)
		} else if strings.Contains(err.Error(), tok.AccessToken) {
			t.Errorf("the error holds the token: %v", err)
		}
	}
}

// TestOpenIDNeedsFederationRoute: a homeserver that does not serve the
// userinfo route (Dendrite with federation off) is reported as such,
// not as a refusal of the user.
func TestOpenIDNeedsFederationRoute(t *testing.T) {
	ctx := waitCtx(t)
	hs := dendritetest.Start(t, dendritetest.Options{Exempt: []string{"@alice:localhost"}})
	alice := register(t, ctx, hs, "alice")
	tok, err := alice.RequestOpenIDToken(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a := &Adapter{cfg: Config{Homeserver: hs, UserID: "@gobot:localhost"}}
	_, err = a.VerifyOpenID(ctx, tok.AccessToken, "localhost")
	if !errors.Is(err, gobot.ErrUnavailable) || !strings.Contains(err.Error(), "federation") {
		t.Fatalf("without the federation route: %v", err)
	}
}

// TestWidgetState: `!go web` in a game's room writes the game's widget
// (im.vector.modular.widgets) and pins it (io.element.widgets.layout)
// when the bot's power level allows; without the power it says so in
// the room and writes nothing; with power for the widget but not the
// layout, it writes the widget and says it could not pin it. With
// `settings room widget=on`, a new game gets its widget by itself.
func TestWidgetState(t *testing.T) {
	ctx := waitCtx(t)
	hs := dendritetest.Start(t, dendritetest.Options{Federation: true, Exempt: []string{"@ann:localhost", "@bob:localhost", "@gobot:localhost"}})
	botCli := register(t, ctx, hs, "gobot")
	botID := botCli.UserID
	ann := newHuman(t, ctx, hs, "ann", botID, false)
	bob := newHuman(t, ctx, hs, "bob", botID, false)
	joinInvites(ann)
	joinInvites(bob)
	cr, err := ann.cli.CreateRoom(ctx, &mautrix.ReqCreateRoom{Preset: "public_chat", Name: "go club"})
	if err != nil {
		t.Fatal(err)
	}
	room := cr.RoomID
	if _, err := bob.cli.JoinRoomByID(ctx, room); err != nil {
		t.Fatal(err)
	}
	logs := &logBuffer{}
	defer func() {
		if t.Failed() {
			t.Logf("bot log:\n%s", logs)
		}
	}()
	bot := startBot(t, ctx, Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot"}, filepath.Join(t.TempDir(), "gobot.db"), 50, logs)
	bot.adapter.bot.(*chat.Bot).SetLinker(widgetLinker{})
	if _, err := ann.cli.InviteUser(ctx, room, &mautrix.ReqInviteUser{UserID: botID}); err != nil {
		t.Fatal(err)
	}
	waitJoined(t, ctx, room, botID, ann.cli, bob.cli)
	// Membership, as the widget page checks it: from the running adapter,
	// and from one that does not sync (another process, the web board's
	// checker), with the session the running one stored.
	idle, err := New(Config{Homeserver: hs, UserID: string(botID), Password: "password-gobot"}, bot.adapter.bot, gobot.StoreState(bot.db), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []*Adapter{bot.adapter, idle} {
		for u, want := range map[id.UserID]bool{ann.cli.UserID: true, bob.cli.UserID: true, "@nobody:localhost": false} {
			if in, err := a.InRoom(ctx, RoomID(room, ""), UserID(u)); err != nil || in != want {
				t.Errorf("InRoom(%s): %v, %v; want %v", u, in, err, want)
			}
		}
	}
	ask := func(h *human, text string) {
		t.Helper()
		cmd := h.say(t, ctx, room, text)
		if c, _ := ann.replyTo(t, ctx, cmd); strings.Contains(c.Body, "refused") {
			t.Fatalf("%s: %s", text, c.Body)
		}
	}
	notice := func(from int, want string) int {
		t.Helper()
		_, i := ann.wait(t, ctx, from, "a notice saying "+want, func(e *event.Event) bool {
			return e.RoomID == room && strings.Contains(e.Content.AsMessage().Body, want)
		})
		return i + 1
	}
	widget := func(game int) map[string]any {
		t.Helper()
		c := map[string]any{}
		err := ann.cli.StateEvent(ctx, room, stateWidget, fmt.Sprintf("gobot_game_%d", game), &c)
		if errors.Is(err, mautrix.MNotFound) {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	layout := func() map[string]any {
		t.Helper()
		c := map[string]any{}
		if err := ann.cli.StateEvent(ctx, room, stateLayout, "", &c); err != nil && !errors.Is(err, mautrix.MNotFound) {
			t.Fatal(err)
		}
		w, _ := c["widgets"].(map[string]any)
		return w
	}

	ask(ann, "!go challenge @bob:localhost 9")
	ask(bob, "!go accept")
	// The bot has power level 0; widgets need 50 (state_default).
	ask(ann, "!go web")
	seen := notice(0, "I can't add game #1's board to this room as a widget: changing the room's widgets needs power level 50 and I have 0.")
	if w := widget(1); w != nil {
		t.Fatalf("a widget written without the power: %v", w)
	}

	// Power for widgets, not for the layout.
	pl := &event.PowerLevelsEventContent{}
	if err := ann.cli.StateEvent(ctx, room, event.StatePowerLevels, "", pl); err != nil {
		t.Fatal(err)
	}
	pl.SetUserLevel(botID, 50)
	pl.SetEventLevel(stateLayout, 100)
	if _, err := ann.cli.SendStateEvent(ctx, room, event.StatePowerLevels, "", pl); err != nil {
		t.Fatal(err)
	}
	ask(ann, "!go web")
	notice(seen, "I added game #1's board as a widget (the room's info, Extensions), but pinning it above the chat needs power level 100 and I have 50.")
	w := widget(1)
	if w == nil || w["type"] != "m.custom" || w["url"] != "https://go.example.org/widget/1?room=$matrix_room_id&user=$matrix_user_id" ||
		w["name"] != "Go: game #1" || w["id"] != "gobot_game_1" || w["creatorUserId"] != string(botID) {
		t.Fatalf("the widget's state: %v", w)
	}
	if d, _ := w["data"].(map[string]any); d["game"] != float64(1) {
		t.Errorf("the widget's data: %v", w["data"])
	}
	if l := layout(); l["gobot_game_1"] != nil {
		t.Fatalf("pinned without the power: %v", l)
	}

	// Power for both; another widget's place in the layout is kept.
	pl.SetEventLevel(stateLayout, 50)
	if _, err := ann.cli.SendStateEvent(ctx, room, event.StatePowerLevels, "", pl); err != nil {
		t.Fatal(err)
	}
	other := map[string]any{"widgets": map[string]any{"jitsi": map[string]any{"container": "right"}}}
	if _, err := ann.cli.SendStateEvent(ctx, room, stateLayout, "", other); err != nil {
		t.Fatal(err)
	}
	ask(ann, "!go web")
	waitFor(t, ctx, "game #1's widget pinned", func() bool {
		l := layout()
		g, _ := l["gobot_game_1"].(map[string]any)
		return g != nil && g["container"] == "top" && l["jitsi"] != nil
	})

	// widget=on: the next game gets its widget with no command.
	ask(ann, "!go settings room widget=on")
	ask(ann, "!go challenge @bob:localhost 9")
	ask(bob, "!go accept")
	waitFor(t, ctx, "game #2's widget", func() bool { return widget(2) != nil })
	waitFor(t, ctx, "game #2's widget pinned", func() bool { return layout()["gobot_game_2"] != nil })
}

// waitFor polls cond until it holds.
func waitFor(t *testing.T, ctx context.Context, what string, cond func() bool) {
	t.Helper()
	for !cond() {
		select {
		case <-ctx.Done():
			t.Fatalf("never: %s", what)
		case <-time.After(50 * time.Millisecond):
		}
	}
}
