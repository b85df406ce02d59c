// Package pgtest gives tests a real PostgreSQL: GOBOT_TEST_POSTGRES_DSN (set
// by .ci/run, which starts a throwaway cluster), or else a cluster started
// with .ci/postgres.sh for the test binary's lifetime. Each caller of
// Fresh gets an empty schema of its own. Without PostgreSQL installed the
// tests are skipped with a message saying how to install it (in CI, where
// CI is set, they fail instead).
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5"
)

var cluster struct {
	once sync.Once
	dsn  string
	dir  string
	err  error
	skip string
}

var dbSeq atomic.Int64

// Main runs the tests and then stops a cluster they started: call it
// from TestMain.
func Main(m *testing.M) {
	code := m.Run()
	if cluster.dir != "" {
		exec.Command("bash", ScriptPath(), "stop", cluster.dir).Run()
		os.RemoveAll(cluster.dir)
	}
	os.Exit(code)
}

// ScriptPath finds .ci/postgres.sh above the working directory.
func ScriptPath() string {
	dir, _ := os.Getwd()
	for {
		p := filepath.Join(dir, ".ci", "postgres.sh")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ".ci/postgres.sh"
		}
		dir = up
	}
}

// StartCluster starts a throwaway cluster in a new temp dir and returns
// its DSN (the skip reason when PostgreSQL is not installed).
func StartCluster() (dsn, dir, skip string, err error) {
	dir, err = os.MkdirTemp("", "gobot-pg-test")
	if err != nil {
		return "", "", "", err
	}
	out, err := exec.Command("bash", ScriptPath(), "start", dir).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && ee.ExitCode() == 3 {
			os.RemoveAll(dir)
			return "", "", "PostgreSQL server binaries not installed (apt-get install -y postgresql); .ci/run installs them", nil
		}
		if errors.As(err, &ee) {
			err = fmt.Errorf("%w: %s", err, ee.Stderr)
		}
		return "", dir, "", err
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	return lines[len(lines)-1], dir, "", nil
}

// AdminDSN is the DSN of the test cluster itself.
func AdminDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv("GOBOT_TEST_POSTGRES_DSN"); dsn != "" {
		return dsn
	}
	cluster.once.Do(func() {
		cluster.dsn, cluster.dir, cluster.skip, cluster.err = StartCluster()
	})
	if cluster.skip != "" {
		if os.Getenv("CI") != "" {
			t.Fatal(cluster.skip)
		}
		t.Skip(cluster.skip)
	}
	if cluster.err != nil {
		t.Fatalf("starting PostgreSQL: %v", cluster.err)
	}
	return cluster.dsn
}

// Fresh gives one test an empty schema of its own (the DSN sets
// search_path to it; a schema is far quicker to make than a database) and
// drops it after.
func Fresh(t testing.TB) string {
	t.Helper()
	admin := AdminDSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, admin)
	if err != nil {
		t.Fatalf("connecting to the test cluster: %v", err)
	}
	defer conn.Close(ctx)
	name := fmt.Sprintf("gobot_test_%d_%d", os.Getpid(), dbSeq.Add(1))
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+name); err != nil {
		t.Fatalf("creating schema %s: %v", name, err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(ctx, admin)
		if err != nil {
			return
		}
		defer c.Close(ctx)
		c.Exec(ctx, "DROP SCHEMA IF EXISTS "+name+" CASCADE")
	})
	sep := "?"
	if strings.Contains(admin, "?") {
		sep = "&"
	}
	return admin + sep + "search_path=" + name
}
