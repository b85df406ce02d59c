// Package postgres is gobot's shared store: chat's Store on PostgreSQL
// (github.com/jackc/pgx/v5), for installations that run more than one
// gobot process. The embedded bbolt store (package storage) stays the
// default; both pass the same conformance suite.
//
// Records are stored whole, as JSONB in storage's versioned record format,
// beside the columns that are queried (players, rooms, phase, deadlines).
// Write transactions run at SERIALIZABLE isolation, so concurrent
// transactions from any number of processes behave as if run one after
// another, like bbolt's single writer; a transaction PostgreSQL aborts
// for a serialization conflict is run again. A game's Version is checked
// by the UPDATE itself, so a stale write fails with ErrConflict even
// between processes, and an event ID is the primary key of the events
// table, so it is applied once across processes.
package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

//go:embed migrations/*.sql
var migrations embed.FS

// advisoryKey is the pg_advisory_lock key under which migrations run, so
// processes starting together migrate once ("gobot" in ASCII).
const advisoryKey = 0x676f626f74

// Options tune Open.
type Options struct {
	// Log receives retries and connection trouble; nil discards.
	Log *slog.Logger
	// ConnectTimeout bounds the first connection (default 10s).
	ConnectTimeout time.Duration
	// Unavailable is how long a transaction waits for the database to
	// come back (retrying with backoff) before it fails with
	// ErrUnavailable (default 5s).
	Unavailable time.Duration
	// MaxConns caps the pool (default pgxpool's: max(4, cores)).
	MaxConns int32
	// migrateTo stops the migrations after this one (tests that build an
	// older schema); 0 applies them all.
	migrateTo int
}

// Store is the PostgreSQL store.
type Store struct {
	pool  *pgxpool.Pool
	log   *slog.Logger
	opt   Options
	where string // host:port/db for messages
}

// Open connects to the database dsn names, checks that it answers, and
// applies the schema migrations it lacks. A bad DSN or an unreachable
// server is an error naming the host and the cause.
func Open(ctx context.Context, dsn string, opt Options) (*Store, error) {
	if opt.Log == nil {
		opt.Log = slog.New(slog.DiscardHandler)
	}
	if opt.ConnectTimeout == 0 {
		opt.ConnectTimeout = 10 * time.Second
	}
	if opt.Unavailable == 0 {
		opt.Unavailable = 5 * time.Second
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres DSN: %s", redact(err.Error(), dsn))
	}
	if opt.MaxConns > 0 {
		cfg.MaxConns = opt.MaxConns
	}
	cfg.ConnConfig.ConnectTimeout = opt.ConnectTimeout
	where := net.JoinHostPort(cfg.ConnConfig.Host, strconv.Itoa(int(cfg.ConnConfig.Port))) + "/" + cfg.ConnConfig.Database
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres at %s: %s", where, cause(err))
	}
	s := &Store{pool: pool, log: opt.Log, opt: opt, where: where}
	cctx, cancel := context.WithTimeout(ctx, opt.ConnectTimeout)
	defer cancel()
	if err := pool.Ping(cctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres at %s: %s", where, cause(err))
	}
	if err := s.migrate(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres at %s: %w", where, err)
	}
	return s, nil
}

// Close closes the pool.
func (s *Store) Close() error { s.pool.Close(); return nil }

// String names the database (no credentials).
func (s *Store) String() string { return "postgres " + s.where }

// SchemaVersion is the number of the newest migration this code knows.
func SchemaVersion() int {
	names, _ := migrationNames()
	return len(names)
}

func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	sort.Strings(names)
	return names, err
}

// migrate applies the migrations not yet recorded in schema_migrations,
// each in its own transaction, holding a session advisory lock so that
// processes starting together migrate once.
func (s *Store) migrate(ctx context.Context) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("migrating: %s", cause(err))
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", advisoryKey); err != nil {
		return fmt.Errorf("migrating: taking the lock: %s", cause(err))
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", advisoryKey)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("migrating: %s", cause(err))
	}
	var have int
	if err := conn.QueryRow(ctx, "SELECT coalesce(max(version), 0) FROM schema_migrations").Scan(&have); err != nil {
		return fmt.Errorf("migrating: %s", cause(err))
	}
	names, err := migrationNames()
	if err != nil {
		return err
	}
	if have > len(names) {
		return fmt.Errorf("the database has schema %d, written by a newer gobot (this one knows %d)", have, len(names))
	}
	last := len(names)
	if s.opt.migrateTo > 0 {
		last = min(last, s.opt.migrateTo)
	}
	for i := have; i < last; i++ {
		sql, err := migrations.ReadFile(names[i])
		if err != nil {
			return err
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			return fmt.Errorf("migrating: %s", cause(err))
		}
		if _, err := tx.Exec(ctx, string(sql)); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("migration %s: %s", names[i], cause(err))
		}
		if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES ($1)", i+1); err != nil {
			tx.Rollback(ctx)
			return fmt.Errorf("migration %s: %s", names[i], cause(err))
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("migration %s: %s", names[i], cause(err))
		}
		s.log.Info("postgres: schema migrated", "version", i+1, "db", s.where)
	}
	return nil
}

// ErrUnavailable is returned when the database cannot be reached within
// Options.Unavailable; nothing was written. It is chat's sentinel, which
// the bot turns into "the database is unavailable, try again in a moment".
var ErrUnavailable = gobot.ErrUnavailable

// run runs fn in a transaction with the given options, again when
// PostgreSQL aborts it for a serialization failure or deadlock, and with
// backoff while the connection is down.
func (s *Store) run(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	start := time.Now()
	deadline := start.Add(s.opt.Unavailable)
	backoff := 20 * time.Millisecond
	for attempt := 1; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := s.once(ctx, opts, fn)
		if err == nil {
			return nil
		}
		var fnErr fnError
		if errors.As(err, &fnErr) {
			if !retryable(fnErr.err) {
				return fnErr.err
			}
			err = fnErr.err
		}
		switch {
		case retryable(err):
			// Another transaction won; run again at once (with a little
			// jitter, growing, so the losers do not collide again). Given
			// up only after 50 tries and serializationPatience: on a
			// loaded machine one slow transaction can make every other
			// lose for longer than 50 quick tries take.
			if attempt > 50 && time.Since(start) > serializationPatience {
				return fmt.Errorf("postgres: gave up after %d serialization retries: %w", attempt, err)
			}
			sleep(ctx, time.Duration(rand.IntN(2000*min(attempt, 25)))*time.Microsecond)
		case connectionTrouble(ctx, err):
			if time.Now().After(deadline) {
				s.log.Error("postgres: unavailable", "db", s.where, "err", err)
				return fmt.Errorf("%w: %s", ErrUnavailable, cause(err))
			}
			s.log.Warn("postgres: connection trouble, retrying", "db", s.where, "err", err, "in", backoff)
			sleep(ctx, backoff)
			backoff = min(backoff*2, time.Second)
		default:
			return err
		}
	}
}

// serializationPatience is how long a transaction that keeps losing to
// others is run again before it fails.
const serializationPatience = 5 * time.Second

// fnError marks an error returned by the caller's function, as opposed
// to one from the database driver around it.
type fnError struct{ err error }

func (e fnError) Error() string { return e.err.Error() }

func (s *Store) once(ctx context.Context, opts pgx.TxOptions, fn func(pgx.Tx) error) error {
	tx, err := s.pool.BeginTx(ctx, opts)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback(context.WithoutCancel(ctx))
		return fnError{err}
	}
	return tx.Commit(ctx)
}

func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
}

// retryable reports a serialization failure or a deadlock: the
// transaction did nothing and may simply run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "40001" || pe.Code == "40P01"
	}
	return false
}

// connectionTrouble reports an error from the connection rather than from
// a statement: the server is down, restarting, or unreachable.
func connectionTrouble(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		// 08: connection exception; 57P01-03: admin shutdown, crash
		// shutdown, cannot connect now; 53300: too many connections.
		return strings.HasPrefix(pe.Code, "08") || pe.Code == "57P01" || pe.Code == "57P02" || pe.Code == "57P03" || pe.Code == "53300"
	}
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ne) || errors.As(err, &ce) || pgconn.SafeToRetry(err) || errors.Is(err, net.ErrClosed) ||
		strings.Contains(err.Error(), "conn closed") || strings.Contains(err.Error(), "unexpected EOF")
}

// cause is the readable core of a connection error.
func cause(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Message + " (SQLSTATE " + pe.Code + ")"
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		return ce.Unwrap().Error()
	}
	return err.Error()
}

// redact removes a password from a message that may quote the DSN.
func redact(msg, dsn string) string {
	if cfg, err := pgconn.ParseConfig(dsn); err == nil && cfg.Password != "" {
		msg = strings.ReplaceAll(msg, cfg.Password, "xxxxx")
	}
	if i := strings.Index(dsn, "://"); i >= 0 {
		if at := strings.LastIndex(dsn, "@"); at > i {
			if colon := strings.Index(dsn[i+3:at], ":"); colon >= 0 {
				msg = strings.ReplaceAll(msg, dsn[i+3+colon+1:at], "xxxxx")
			}
		}
	}
	return msg
}
