package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestActivityConfig: discord.activity and discord.client_secret, with
// their mistakes in plain words; the secret may come from
// GOBOT_DISCORD_CLIENT_SECRET and is never shown in an error.
func TestActivityConfig(t *testing.T) {
	const secret = "Zx9-activity-client-secret"
	web := "web: {enabled: true, listen: ':8080', public_url: 'https://go.example.org', secret: " + strings.Repeat("s", 40) + "}\n"
	discord := "discord: {enabled: true, mode: http, public_key: ab, application_id: '123', activity: true"
	for name, tc := range map[string]struct {
		yaml, env, err string
	}{
		"in the file":     {yaml: web + discord + ", client_secret: " + secret + "}\n"},
		"from the env":    {yaml: web + discord + "}\n", env: secret},
		"no secret":       {yaml: web + discord + "}\n", err: "discord.client_secret: the Activity needs the application's OAuth2 client secret"},
		"no web board":    {yaml: discord + "}\n", env: secret, err: "discord.activity: the Activity is the web board inside Discord: turn on web.enabled"},
		"plain http":      {yaml: "web: {enabled: true, secret: " + strings.Repeat("s", 40) + "}\n" + discord + "}\n", env: secret, err: "web.public_url must be https://"},
		"no application":  {yaml: web + "discord: {enabled: true, token: t, activity: true}\n", env: secret, err: "discord.application_id: the Activity needs the application ID"},
		"spaces":          {yaml: web + discord + "}\n", env: " " + secret, err: "discord.client_secret: the secret has spaces"},
		"not a yes or no": {yaml: web + "discord: {activity: maybe}\n", err: `discord.activity: write true or false, not "maybe"`},
		"off":             {yaml: web + "discord: {enabled: true, token: t, activity: false}\n"},
	} {
		cfg, err := parseConfig([]byte(tc.yaml), "c.yaml", func(k string) string {
			if k == "GOBOT_DISCORD_CLIENT_SECRET" {
				return tc.env
			}
			return ""
		})
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want error containing %q", name, err, tc.err)
			continue
		}
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error shows the secret", name)
		}
		if err == nil && cfg.Discord.Activity {
			if dc := discordConfig(cfg.Discord, nil, "h", cfg.storage()); !dc.Activity || dc.ClientSecret != secret {
				t.Errorf("%s: the adapter gets activity %v, secret set %v", name, dc.Activity, dc.ClientSecret == secret)
			}
		}
	}
}

// TestRunServesActivity: `gobot run` with discord.activity serves the
// Activity page on the web board, signed in through the Discord adapter
// (the page names the application as the SDK's client ID).
func TestRunServesActivity(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "[]")
	}))
	defer api.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	startServe(t, fmt.Sprintf(`database: %s
discord:
  enabled: true
  mode: http
  listen: 127.0.0.1:0
  public_key: %s
  application_id: "4242"
  token: bot
  api_url: %s/api/v9/
  activity: true
  client_secret: shh
web:
  enabled: true
  listen: %s
  public_url: https://go.example.org
  secret: %s
`, filepath.Join(dir, "g.db"), strings.Repeat("ab", 32), api.URL, addr, strings.Repeat("k", 40)), strings.NewReader(""), io.Discard)
	var page string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		res, err := http.Get("http://" + addr + "/?frame_id=f&instance_id=i&platform=desktop")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode == 200 {
			page = string(b)
			break
		}
		t.Fatalf("the Activity page: %d", res.StatusCode)
	}
	if !strings.Contains(page, `data-client-id="4242"`) {
		t.Fatalf("no Activity page for application 4242:\n%s", page)
	}
}
