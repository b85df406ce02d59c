package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a bytes.Buffer safe for the console's writer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// startServe runs what `gobot run -config` runs for the YAML config text,
// until the test ends.
func startServe(t *testing.T, yaml string, stdin io.Reader, stdout io.Writer) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "gobot.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := loadConfig(path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, cfg, stdin, stdout, io.Discard) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("gobot run: %v", err)
		}
	})
}

// Command hints in the terminal are typed bare: "accept #1".
func TestHintsInTheTerminal(t *testing.T) {
	dir := t.TempDir()
	var out syncBuffer
	startServe(t, fmt.Sprintf("database: %s\nconsole:\n  enabled: true\n  user: alice\n", filepath.Join(dir, "g.db")),
		strings.NewReader("challenge @bob 9\n"), &out)
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "decline #1") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if !strings.Contains(out.String(), "answer with `accept #1` or `decline #1`") {
		t.Fatalf("terminal hint:\n%s", out.String())
	}
}

// Command hints on Discord are slash commands: "/go accept #1".
func TestHintsOnDiscord(t *testing.T) {
	dir := t.TempDir()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/commands") {
			io.WriteString(w, "[]")
			return
		}
		io.WriteString(w, `{"id":"m1","channel_id":"c1"}`)
	}))
	t.Cleanup(api.Close)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	pub, priv, _ := ed25519.GenerateKey(nil)
	startServe(t, fmt.Sprintf(`database: %s
discord:
  enabled: true
  mode: http
  token: tok
  application_id: app
  public_key: %s
  listen: %s
  api_url: %s/api/v9/
`, filepath.Join(dir, "g.db"), hex.EncodeToString(pub), addr, api.URL), strings.NewReader(""), io.Discard)
	body := []byte(`{"id":"i1","application_id":"app","type":2,"token":"tok1","channel_id":"c1","guild_id":"g1",
		"member":{"user":{"id":"111","username":"alice"},"permissions":"0"},
		"data":{"id":"cmd","name":"go","type":1,"options":[{"name":"challenge","type":1,"options":[{"name":"player","type":6,"value":"222"},{"name":"size","type":3,"value":"9"}]}],
		"resolved":{"users":{"222":{"id":"222","username":"bob"}}}}}`)
	var resp *http.Response
	for deadline := time.Now().Add(20 * time.Second); ; {
		stamp := strconv.FormatInt(time.Now().Unix(), 10)
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/interactions", bytes.NewReader(body))
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(stamp), body...))))
		req.Header.Set("X-Signature-Timestamp", stamp)
		resp, err = http.DefaultClient.Do(req)
		if err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Data struct {
			Embeds []struct{ Description string }
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Data.Embeds) == 0 {
		t.Fatalf("response: %v %+v", err, out)
	}
	if d := out.Data.Embeds[0].Description; !strings.Contains(d, "answer with `/go accept #1` or `/go decline #1`") {
		t.Fatalf("Discord hint: %s", d)
	}
}

// On a board, a hint names the command as the game's platform types it.
func TestBoardCommandLines(t *testing.T) {
	cfg := &Config{}
	command := func(platform, line string) string {
		for _, p := range cfg.platforms() {
			if p.Name == platform {
				return p.Command(line)
			}
		}
		return line
	}
	for _, tc := range []struct{ platform, line, want string }{
		{"discord", "accept #1", "/go accept #1"},
		{"discord", "settings room widget=on", "/gobot settings room widget=on"},
		{"matrix", "accept #1", "!go accept #1"},
		{"console", "accept #1", "accept #1"},
	} {
		if got := command(tc.platform, tc.line); got != tc.want {
			t.Errorf("%s %q: %q, want %q", tc.platform, tc.line, got, tc.want)
		}
	}
	cfg.Matrix.Prefix = "!baduk"
	if got := command("matrix", "games"); got != "!baduk games" {
		t.Errorf("matrix.prefix: %q", got)
	}
}

// When Discord refuses the commands, `gobot run` stops at start with a
// non-zero status and one message naming the command, Discord's reason
// and what to do.
func TestRunStopsWhenDiscordRefusesCommands(t *testing.T) {
	dir := t.TempDir()
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/commands") {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"code":50035,"errors":{"0":{"options":{"_errors":[{"code":"BASE_TYPE_MAX_LENGTH","message":"Must be 25 or fewer in length."}]}}},"message":"Invalid Form Body"}`)
			return
		}
		io.WriteString(w, "[]")
	}))
	t.Cleanup(api.Close)
	pub, _, _ := ed25519.GenerateKey(nil)
	path := filepath.Join(dir, "gobot.yaml")
	os.WriteFile(path, []byte(fmt.Sprintf(`database: %s
discord:
  enabled: true
  mode: http
  token: tok
  application_id: app
  public_key: %s
  listen: 127.0.0.1:0
  api_url: %s/api/v9/
`, filepath.Join(dir, "g.db"), hex.EncodeToString(pub), api.URL)), 0o600)
	var stderr syncBuffer
	code := run([]string{"run", "-config", path}, strings.NewReader(""), io.Discard, &stderr)
	if code == 0 {
		t.Fatal("gobot run went on with its commands refused")
	}
	if !strings.Contains(stderr.String(), "gobot: discord: the command /go is refused by Discord (HTTP 400): go.options: Must be 25 or fewer in length.") ||
		strings.Count(stderr.String(), "refused by Discord") != 1 {
		t.Fatalf("want the refusal said once; stderr: %s", stderr.String())
	}
}
