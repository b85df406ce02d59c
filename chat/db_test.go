package chat_test

import (
	"os"
	"testing"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/storage"
)

// TestMain gives chat's tests the bbolt store (see chat.OpenTestDB).
func TestMain(m *testing.M) {
	chat.OpenTestDB = func(path string) (chat.TestDB, error) { return storage.Open(path, storage.Options{}) }
	os.Exit(m.Run())
}
