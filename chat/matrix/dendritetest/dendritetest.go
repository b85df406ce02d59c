// Package dendritetest runs a real Dendrite homeserver for tests: the
// Matrix adapter's (chat/matrix) and the web board's widget tests
// (chat/web), which check OpenID tokens against it.
package dendritetest

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Bin finds the Dendrite binaries that .ci/dendrite.sh builds:
// $GOBOT_DENDRITE_BIN, else the script's cache directory.
func Bin() string {
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

// Options change the homeserver's configuration.
type Options struct {
	// Exempt are the users rate limiting spares (it is on for everyone
	// else, so a bot meets M_LIMIT_EXCEEDED).
	Exempt []string
	// Federation turns federation on. Dendrite then serves the
	// federation routes (/_matrix/federation/..., among them the OpenID
	// userinfo route widgets are checked with) on its one listener; it
	// still talks to no other server unless a room asks it to.
	Federation bool
}

// Start runs a fresh Dendrite homeserver (server name "localhost", open
// registration) on a free port of 127.0.0.1 for the test and returns its
// URL. The test is skipped when Dendrite is not built.
func Start(t testing.TB, o Options) string {
	t.Helper()
	exempt := o.Exempt
	bin := Bin()
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
	fed := "disable_federation: true"
	if o.Federation {
		fed = "disable_federation: false"
	}
	for old, new := range map[string]string{
		"disable_federation: false": fed,
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
