package matrix

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// dendriteBin finds the Dendrite binaries that .ci/dendrite.sh builds:
// $GOBOT_DENDRITE_BIN, else the script's cache directory.
func dendriteBin() string {
	if d := os.Getenv("GOBOT_DENDRITE_BIN"); d != "" {
		return d
	}
	cache := os.Getenv("GOBOT_CACHE")
	if cache == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		cache = filepath.Join(home, ".cache", "gobot")
	}
	return filepath.Join(cache, "dendrite-v0.15.2", "bin")
}

// startDendrite runs a fresh Dendrite homeserver (server name
// "localhost", no federation, open registration) on a free port of
// 127.0.0.1 for the test and returns its URL. Rate limiting is on for
// everyone but the users named in exempt, so the bot meets
// M_LIMIT_EXCEEDED. The test is skipped when Dendrite is not built.
func startDendrite(t *testing.T, exempt ...string) string {
	t.Helper()
	bin := dendriteBin()
	for _, tool := range []string{"dendrite", "generate-keys", "generate-config"} {
		if _, err := os.Stat(filepath.Join(bin, tool)); err != nil {
			t.Skipf("Dendrite is not built (%s missing): run .ci/dendrite.sh or set GOBOT_DENDRITE_BIN", filepath.Join(bin, tool))
		}
	}
	dir := t.TempDir()
	run := func(name string, args ...string) []byte {
		cmd := exec.Command(filepath.Join(bin, name), args...)
		cmd.Dir = dir
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %v: %v", name, args, err)
		}
		return out
	}
	if err := os.Mkdir(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("generate-keys", "-private-key", "matrix_key.pem")
	cfg := string(run("generate-config", "-ci", "-dir", "data", "-server", "localhost"))
	var ids []string
	for _, u := range exempt {
		ids = append(ids, fmt.Sprintf("%q", u))
	}
	for old, new := range map[string]string{
		"disable_federation: false": "disable_federation: true",
		"  rate_limiting:\n    enabled: false\n    threshold: 5\n    cooloff_ms: 500\n    exempt_user_ids: []": "  rate_limiting:\n    enabled: true\n    threshold: 4\n    cooloff_ms: 200\n    exempt_user_ids: [" + strings.Join(ids, ", ") + "]",
	} {
		if !strings.Contains(cfg, old) {
			t.Fatalf("generate-config output has no %q", old)
		}
		cfg = strings.Replace(cfg, old, new, 1)
	}
	if err := os.WriteFile(filepath.Join(dir, "dendrite.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logf, err := os.Create(filepath.Join(dir, "dendrite.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(filepath.Join(bin, "dendrite"), "-config", "dendrite.yaml", "-http-bind-address", addr, "-really-enable-open-registration")
	cmd.Dir, cmd.Stdout, cmd.Stderr = dir, logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		logf.Close()
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "dendrite.log")); err == nil && len(b) > 4000 {
				t.Logf("dendrite log (end):\n%s", b[len(b)-4000:])
			}
		}
	})
	url := "http://" + addr
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url + "/_matrix/client/versions")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("dendrite exited: %v (log in %s)", err, dir)
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("dendrite did not answer on %s", url)
		}
	}
}

// waitCtx bounds a whole integration test against hangs.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// A proxy stands between the bot and the homeserver so that a test can
// cut the network: while down, it drops every connection.
type proxy struct {
	target string
	l      net.Listener
	mu     sync.Mutex
	down   bool
	conns  map[net.Conn]bool
}

func startProxy(t *testing.T, targetURL string) *proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{target: strings.TrimPrefix(targetURL, "http://"), l: l, conns: map[net.Conn]bool{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go p.serve(c)
		}
	}()
	t.Cleanup(func() { l.Close(); <-done; p.setDown(true) })
	return p
}

func (p *proxy) URL() string { return "http://" + p.l.Addr().String() }

func (p *proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.down {
		for _, c := range cs {
			c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = true
	}
	return true
}

func (p *proxy) serve(c net.Conn) {
	up, err := net.Dial("tcp", p.target)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, up) {
		return
	}
	go func() { io.Copy(up, c); up.Close() }()
	io.Copy(c, up)
	c.Close()
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, up)
	p.mu.Unlock()
}

// setDown cuts (true) or restores (false) the network.
func (p *proxy) setDown(down bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.down = down
	if down {
		for c := range p.conns {
			c.Close()
		}
		p.conns = map[net.Conn]bool{}
	}
}
