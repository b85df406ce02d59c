package chat

import "github.com/gobotgo/gobot"

// TestDB is a real database for chat's tests. chat's own test files
// cannot import storage (storage imports chat); db_test.go, in package
// chat_test, may, and sets OpenTestDB before the tests run.
type TestDB interface {
	gobot.Store

	// Check verifies the file and its indexes.
	Check() error
	Close() error
	// Path is the file's path (to reopen it, or damage it by hand).
	Path() string
}

// OpenTestDB opens (creating) the database file at path.
var OpenTestDB func(path string) (TestDB, error)
