package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres"
)

// StorageConfig chooses the store: the embedded bbolt file (the default)
// or a PostgreSQL database that several gobot processes share.
type StorageConfig struct {
	Driver string `yaml:"driver" want:"bbolt or postgres"` // bbolt (default) or postgres
	Path   string `yaml:"path"`                            // bbolt: the database file
	DSN    string `yaml:"dsn"`                             // postgres: postgres://user:pass@host:5432/db
}

const (
	driverBolt     = "bbolt"
	driverPostgres = "postgres"
)

// storage returns the storage section with the legacy top-level
// `database:` key folded in.
func (c *Config) storage() StorageConfig {
	s := c.Storage
	if s.Driver == "" {
		s.Driver = driverBolt
	}
	if s.Path == "" {
		s.Path = c.Database
	}
	return s
}

func (c *Config) checkStorage() error {
	s := c.Storage
	if s.Path != "" && c.Database != "" && s.Path != c.Database {
		return fmt.Errorf("storage.path: %q and database: %q name different files; keep one", s.Path, c.Database)
	}
	switch s.Driver {
	case "", driverBolt:
		if s.DSN != "" {
			return errors.New("storage.dsn: set storage.driver: postgres to use a PostgreSQL DSN")
		}
	case driverPostgres:
		if s.DSN == "" {
			return errors.New("storage.dsn: the postgres driver needs a DSN like postgres://gobot:secret@db.example.org:5432/gobot (or set GOBOT_STORAGE_DSN)")
		}
		if s.Path != "" || c.Database != "" {
			return errors.New("storage.path: a file path is for the bbolt driver; the postgres driver uses storage.dsn")
		}
		if !strings.HasPrefix(s.DSN, "postgres://") && !strings.HasPrefix(s.DSN, "postgresql://") && !strings.Contains(s.DSN, "=") {
			return errors.New("storage.dsn: write a URL like postgres://gobot:secret@db.example.org:5432/gobot or key=value pairs like host=db user=gobot")
		}
	default:
		return fmt.Errorf("storage.driver: %q is not bbolt or postgres", s.Driver)
	}
	return nil
}

// openedStore is the store a command runs on.
type openedStore struct {
	chat.Store
	bolt  *storage.DB     // set for the bbolt driver (backups serve from it)
	pg    *postgres.Store // set for the postgres driver
	where string          // for messages: the file, or postgres host:port/db
	dir   string          // a directory for local files (the Matrix crypto store)
}

func (s *openedStore) Close() error {
	if s.bolt != nil {
		return s.bolt.Close()
	}
	return s.pg.Close()
}

// openStore opens the configured store.
func openStore(ctx context.Context, cfg *Config, log *slog.Logger) (*openedStore, error) {
	sc := cfg.storage()
	if sc.Driver == driverPostgres {
		pg, err := postgres.Open(ctx, sc.DSN, postgres.Options{Log: log})
		if err != nil {
			return nil, err
		}
		dir, _ := os.Getwd()
		return &openedStore{Store: pg, pg: pg, where: pg.String(), dir: dir}, nil
	}
	path := orDefault(sc.Path, defaultDBPath())
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	db, err := storage.Open(path, storage.Options{})
	if err != nil {
		return nil, err
	}
	return &openedStore{Store: db, bolt: db, where: path, dir: filepath.Dir(path)}, nil
}

// boltFile is the bbolt database a maintenance command (backup, repair,
// ratings) works on: -db, else the file the -config names, else the
// default; it must exist. what names the command for the PostgreSQL case.
func boltFile(dbFlag, cfgFlag, what string) (string, error) {
	path := dbFlag
	if path == "" && cfgFlag != "" {
		cfg, err := loadConfig(cfgFlag, os.Getenv)
		if err != nil {
			return "", err
		}
		sc := cfg.storage()
		if sc.Driver == driverPostgres {
			return "", fmt.Errorf("%w: the config uses PostgreSQL, and gobot %s works on a bbolt file (PostgreSQL: back up with pg_dump; docs/storage.md)", errUsage, what)
		}
		path = sc.Path
	}
	if path == "" {
		path = defaultDBPath()
	}
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("no database at %s: %w", path, err)
	}
	return path, nil
}
