package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/matrix"
	"github.com/gobotgo/gobot/chat/protocol"
)

// TestWebWidgetWiring: with Matrix on, the web board can sign in the
// widget page (a Matrix adapter of its own checks the tokens) and the
// page may be framed by web.widget_origins; with Matrix off it cannot.
// Only with both does the bot offer Matrix rooms widgets (widget=on).
func TestWebWidgetWiring(t *testing.T) {
	for _, c := range []struct{ matrixOn, origins bool }{{false, true}, {true, true}, {true, false}} {
		matrixOn := c.matrixOn
		y := "database: " + filepath.Join(t.TempDir(), "g.db") + "\nweb:\n  enabled: true\n  secret: " + strings.Repeat("k", 40) + "\n"
		if c.origins {
			y += "  widget_origins: [https://app.element.io]\n"
		}
		if matrixOn {
			y += "matrix:\n  enabled: true\n  homeserver: https://matrix.example.org\n  user_id: '@gobot:example.org'\n  access_token: tok\n"
		}
		cfg, err := parseConfig([]byte(y), "c.yaml", func(string) string { return "" })
		if err != nil {
			t.Fatal(err)
		}
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		store, err := openStore(context.Background(), cfg, log)
		if err != nil {
			t.Fatal(err)
		}
		defer store.Close()
		board := newWebBoard(store, nil)
		bot := chat.New(cfg.chatConfig(), board.store, nil, nil, log)
		if err := board.matrixWidgets(cfg, bot, store, log); err != nil {
			t.Fatal(err)
		}
		if (board.widgets != nil) != matrixOn {
			t.Errorf("matrix on: %v, widget sign-in: %v", matrixOn, board.widgets != nil)
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		base := "http://" + ln.Addr().String()
		run, err := board.serve(ln, bot, base, []byte(cfg.Web.Secret), 0, log)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx) }()
		resp, err := http.Get(base + "/widget/1")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if csp := resp.Header.Get("Content-Security-Policy"); c.origins && !strings.HasSuffix(csp, "frame-ancestors https://app.element.io") || !c.origins && !strings.HasSuffix(csp, "frame-ancestors 'none'") {
			t.Errorf("the widget page's CSP: %q", csp)
		}
		rep := bot.Handle(context.Background(), protocol.Request{User: protocol.User{ID: "matrix:@ann:example.org"}, Room: "matrix:!r:example.org",
			EventID: "matrix:$w1", Command: "settings", Args: []string{"room", "widget=on"}, Admin: true, Platform: matrix.Descriptor("")})
		if want := matrixOn && c.origins; rep.Error == want {
			t.Errorf("matrix on: %v, origins: %v: widget=on: %+v", matrixOn, c.origins, rep)
		}
		resp, err = http.Post(base+"/widget/1/session", "application/json", strings.NewReader(`{"access_token":"x","matrix_server_name":"example.org"}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if !matrixOn && resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a sign-in with Matrix off: %d", resp.StatusCode)
		}
		cancel()
		<-done
	}
}
