package chat_test

import (
	"testing"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
)

// TestMain gives chat's tests the bbolt store (see chat.OpenTestDB), and
// stops the PostgreSQL cluster the tests on it started, if any.
func TestMain(m *testing.M) {
	chat.OpenTestDB = func(path string) (chat.TestDB, error) { return storage.Open(path, storage.Options{}) }
	pgtest.Main(m)
}
