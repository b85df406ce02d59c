package postgres

import (
	"context"
	"testing"

	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func freshDSN(t testing.TB) string { return pgtest.Fresh(t) }
func adminDSN(t testing.TB) string { return pgtest.AdminDSN(t) }

// mustOpen opens a Store on a fresh schema, closed at cleanup.
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
