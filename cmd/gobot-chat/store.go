package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres"
)

// StorageConfig chooses the store: the embedded bbolt file (the default)
// or a PostgreSQL database that several gobot processes share.
type StorageConfig struct {
	Driver string `yaml:"driver" want:"bbolt or postgres"` // bbolt (default) or postgres
	Path   string `yaml:"path"`                            // bbolt: the database file
	DSN    string `yaml:"dsn"`                             // postgres: postgres://user:pass@host:5432/db
	// Takeover (postgres): how soon a dead process's Discord shards and
	// Matrix sync are taken over by another process; default 15s.
	Takeover string `yaml:"takeover" want:"a duration like 15s"`
}

// defaultTakeover is storage.takeover's default.
const defaultTakeover = 15 * time.Second

// takeover is storage.takeover.
func (s StorageConfig) takeover() time.Duration {
	d := defaultTakeover
	if s.Takeover != "" {
		d, _ = time.ParseDuration(s.Takeover)
	}
	return d
}

// leaseTTL is how long a lease lasts without renewal: 2/3 of
// storage.takeover. A holder renews it every TTL/3 and a Matrix standby
// tries every TTL/3, so a dead holder's sync is taken over at most
// TTL + TTL/3 after it died; Discord shards are looked for every
// shardRound, so at most TTL + shardRound.
func (s StorageConfig) leaseTTL() time.Duration { return s.takeover() * 2 / 3 }

// shardRound is how often a process with discord.shards: auto looks for
// a free shard (it opens at most one per round, keeping within Discord's
// identify limit of one per 5 s): the rest of storage.takeover after the
// lease's TTL, at most 5 s.
func (s StorageConfig) shardRound() time.Duration {
	return min(5*time.Second, s.takeover()-s.leaseTTL())
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
	if s.Takeover != "" {
		if d, err := time.ParseDuration(s.Takeover); err != nil || d < 2*time.Second || d > time.Hour {
			return fmt.Errorf("storage.takeover: %q is not a duration from 2s to 1h, like 15s", clip(s.Takeover, 40))
		}
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
	gobot.Store
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
