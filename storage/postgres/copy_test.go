package postgres

import (
	"path/filepath"
	"testing"

	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/storecopy/copytest"
)

func openPG(t *testing.T) copytest.Store { s, _ := mustOpen(t); return s }

func openBolt(t *testing.T) copytest.Store {
	db, err := storage.Open(filepath.Join(t.TempDir(), "gobot.db"), storage.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Check(); err != nil {
			t.Errorf("database check: %v", err)
		}
		db.Close()
	})
	return db
}

// Every kind of record moves between PostgreSQL databases, and between
// PostgreSQL and bbolt both ways.
func TestCopy(t *testing.T) {
	t.Run("PostgresToPostgres", func(t *testing.T) { copytest.Run(t, openPG, openPG) })
	t.Run("BoltToPostgres", func(t *testing.T) { copytest.Run(t, openBolt, openPG) })
	t.Run("PostgresToBolt", func(t *testing.T) { copytest.Run(t, openPG, openBolt) })
}
