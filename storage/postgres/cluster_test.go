package postgres

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

// The tests run against a real PostgreSQL: GOBOT_TEST_POSTGRES_DSN (set by
// .ci/run, which starts a throwaway cluster), or else a cluster this test
// binary starts with .ci/postgres.sh. Each test gets a database of its own.

var cluster struct {
	once sync.Once
	dsn  string
	dir  string
	err  error
	skip string
}

var dbSeq atomic.Int64

func TestMain(m *testing.M) {
	code := m.Run()
	if cluster.dir != "" {
		exec.Command("bash", scriptPath(), "stop", cluster.dir).Run()
		os.RemoveAll(cluster.dir)
	}
	os.Exit(code)
}

func scriptPath() string {
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

// startCluster starts a throwaway cluster in a new temp dir and returns
// its DSN (the skip reason when PostgreSQL is not installed).
func startCluster() (dsn, dir, skip string, err error) {
	dir, err = os.MkdirTemp("", "gobot-pg-test")
	if err != nil {
		return "", "", "", err
	}
	out, err := exec.Command("bash", scriptPath(), "start", dir).Output()
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

func adminDSN(t testing.TB) string {
	t.Helper()
	if dsn := os.Getenv("GOBOT_TEST_POSTGRES_DSN"); dsn != "" {
		return dsn
	}
	cluster.once.Do(func() {
		cluster.dsn, cluster.dir, cluster.skip, cluster.err = startCluster()
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

// freshDSN gives one test an empty schema of its own (the DSN sets
// search_path to it; a schema is far quicker to make than a database) and
// drops it after.
func freshDSN(t testing.TB) string {
	t.Helper()
	admin := adminDSN(t)
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

// mustOpen opens a Store on a fresh database, closed at cleanup.
func mustOpen(t testing.TB) (*Store, string) {
	t.Helper()
	dsn := freshDSN(t)
	s, err := Open(context.Background(), dsn, Options{})
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s, dsn
}
