package postgres

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage/postgres/pgtest"
	"github.com/jackc/pgx/v5"
)

var ctx = context.Background()

func newGame(t testing.TB, s *Store, deadline time.Time) gobot.GameID {
	t.Helper()
	g := &gobot.Match{Room: "console:main", Black: "console:alice", White: "console:bob", Deadline: deadline,
		Created: time.Unix(1700000000, 0).UTC()}
	if err := s.Update(ctx, func(tx gobot.Tx) error { return tx.PutMatch(g) }); err != nil {
		t.Fatalf("PutMatch: %v", err)
	}
	return g.ID
}

func TestMigrationsRunOnceWhenProcessesStartTogether(t *testing.T) {
	dsn := freshDSN(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, dsn, Options{})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n, max int
	if err := conn.QueryRow(ctx, "SELECT count(*), max(version) FROM schema_migrations").Scan(&n, &max); err != nil {
		t.Fatal(err)
	}
	if n != SchemaVersion() || max != SchemaVersion() {
		t.Fatalf("schema_migrations has %d rows up to %d, want %d", n, max, SchemaVersion())
	}
}

func TestNewerSchemaIsRefused(t *testing.T) {
	s, dsn := mustOpen(t)
	if _, err := s.pool.Exec(ctx, "INSERT INTO schema_migrations (version) VALUES (999)"); err != nil {
		t.Fatal(err)
	}
	_, err := Open(ctx, dsn, Options{})
	if err == nil || !strings.Contains(err.Error(), "newer gobot") {
		t.Fatalf("Open of a newer schema: %v, want an error naming a newer gobot", err)
	}
}

func TestOpenErrorsNameHostAndCause(t *testing.T) {
	_, err := Open(ctx, "postgres://gobot:s3cret@127.0.0.1:1/gobot?sslmode=disable", Options{ConnectTimeout: 2 * time.Second})
	if err == nil {
		t.Fatal("Open of a closed port succeeded")
	}
	msg := err.Error()
	if !strings.Contains(msg, "127.0.0.1:1") || !strings.Contains(msg, "refused") {
		t.Errorf("unreachable server: %q, want the host and the cause", msg)
	}
	if strings.Contains(msg, "s3cret") {
		t.Errorf("the error shows the password: %q", msg)
	}
	_, err = Open(ctx, "postgres://gobot:s3cret@127.0.0.1:notaport/gobot", Options{})
	if err == nil || !strings.Contains(err.Error(), "postgres DSN") || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("bad DSN: %v, want a DSN error without the password", err)
	}
	// A server that answers but refuses the database.
	admin := adminDSN(t)
	cfg, _ := pgx.ParseConfig(admin)
	_, err = Open(ctx, strings.Replace(admin, "/"+cfg.Database, "/no_such_db", 1), Options{})
	if err == nil || !strings.Contains(err.Error(), "no_such_db") || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("missing database: %v, want its name and 'does not exist'", err)
	}
}

func TestStaleWriteFromAnotherProcessConflicts(t *testing.T) {
	a, dsn := mustOpen(t)
	b, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	id := newGame(t, a, time.Time{})
	var ga, gb *gobot.Match
	a.View(ctx, func(tx gobot.Tx) error { ga, err = tx.Match(id); return err })
	b.View(ctx, func(tx gobot.Tx) error { gb, err = tx.Match(id); return err })
	ga.Result, gb.Result = "B+R", "W+R"
	if err := a.Update(ctx, func(tx gobot.Tx) error { return tx.PutMatch(ga) }); err != nil {
		t.Fatalf("first write: %v", err)
	}
	err = b.Update(ctx, func(tx gobot.Tx) error { return tx.PutMatch(gb) })
	if !errors.Is(err, gobot.ErrConflict) {
		t.Fatalf("stale write from the other process: %v, want ErrConflict", err)
	}
	var got *gobot.Match
	b.View(ctx, func(tx gobot.Tx) error { got, err = tx.Match(id); return err })
	if got.Result != "B+R" || got.Version != 2 {
		t.Fatalf("stored game: result %q version %d, want B+R version 2", got.Result, got.Version)
	}
}

func TestConcurrentReadModifyWriteAcrossProcessesLosesNothing(t *testing.T) {
	a, dsn := mustOpen(t)
	b, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	id := newGame(t, a, time.Time{})
	const n = 40
	var wg sync.WaitGroup
	var failed atomic.Int64
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			err := s.Update(ctx, func(tx gobot.Tx) error {
				g, err := tx.Match(id)
				if err != nil {
					return err
				}
				g.MoveTimes = append(g.MoveTimes, time.Unix(int64(i), 0).UTC())
				return tx.PutMatch(g)
			})
			if err != nil {
				failed.Add(1)
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var g *gobot.Match
	a.View(ctx, func(tx gobot.Tx) error { g, err = tx.Match(id); return err })
	if len(g.MoveTimes) != n-int(failed.Load()) || g.Version != uint64(1+n) {
		t.Fatalf("after %d concurrent updates: %d entries, version %d", n, len(g.MoveTimes), g.Version)
	}
}

func TestEventAppliedOnceAcrossProcesses(t *testing.T) {
	a, dsn := mustOpen(t)
	b, err := Open(ctx, dsn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	var ok, dup atomic.Int64
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			err := s.Update(ctx, func(tx gobot.Tx) error { return tx.MarkEvent("discord:interaction:42", time.Now()) })
			switch {
			case err == nil:
				ok.Add(1)
			case errors.Is(err, gobot.ErrDuplicate):
				dup.Add(1)
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if ok.Load() != 1 || dup.Load() != 19 {
		t.Fatalf("one event delivered 20 times to 2 processes: applied %d, duplicates %d", ok.Load(), dup.Load())
	}
}

// A due deadline is acted on by exactly one process: each process's clock
// tick finds the game due and records the reminder in a transaction; only
// one of them commits it.
func TestDueDeadlineClaimedByOneProcess(t *testing.T) {
	a, dsn := mustOpen(t)
	stores := []*Store{a}
	for range 2 {
		s, err := Open(ctx, dsn, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	now := time.Now()
	for range 10 {
		newGame(t, a, now.Add(-time.Minute))
	}
	var sent atomic.Int64
	var wg sync.WaitGroup
	for _, s := range stores {
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var due []*gobot.Match
				if err := s.View(ctx, func(tx gobot.Tx) error {
					var err error
					due, err = tx.DueGames(now, 0)
					return err
				}); err != nil {
					t.Error(err)
					return
				}
				for _, d := range due {
					var claimed bool
					err := s.Update(ctx, func(tx gobot.Tx) error {
						claimed = false
						g, err := tx.Match(d.ID)
						if err != nil || g.Reminded > 0 {
							return err
						}
						g.Reminded, claimed = 1, true
						return tx.PutMatch(g)
					})
					if err != nil {
						t.Error(err)
					}
					if err == nil && claimed {
						sent.Add(1)
					}
				}
			}()
		}
	}
	wg.Wait()
	if sent.Load() != 10 {
		t.Fatalf("10 due games, 3 processes ticking: %d reminders sent, want 10", sent.Load())
	}
}

func TestIDsHaveNoGapsAfterRollback(t *testing.T) {
	s, _ := mustOpen(t)
	boom := errors.New("boom")
	err := s.Update(ctx, func(tx gobot.Tx) error {
		if err := tx.PutMatch(&gobot.Match{Room: "console:main", Black: "console:a", White: "console:b"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update: %v, want the function's error", err)
	}
	if id := newGame(t, s, time.Time{}); id != 1 {
		t.Fatalf("first committed game got #%d, want #1", id)
	}
}

// With the server down, a transaction waits for it a while, then fails with
// ErrUnavailable having written nothing; once the server is back the same
// store works again.
func TestServerDownThenBack(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a cluster of its own")
	}
	adminDSN(t) // skips when PostgreSQL is absent
	dsn, dir, skip, err := pgtest.StartCluster()
	if skip != "" || err != nil {
		t.Fatalf("own cluster: %s %v", skip, err)
	}
	defer func() {
		exec.Command("bash", pgtest.ScriptPath(), "stop", dir).Run()
	}()
	s, err := Open(ctx, dsn, Options{Unavailable: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	id := newGame(t, s, time.Time{})
	stop := exec.Command("bash", pgtest.ScriptPath(), "stop", dir)
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("stopping: %v %s", err, out)
	}
	err = s.Update(ctx, func(tx gobot.Tx) error {
		g, err := tx.Match(id)
		if err != nil {
			return err
		}
		g.Result = "B+R"
		return tx.PutMatch(g)
	})
	if !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Update with the server down: %v, want ErrUnavailable", err)
	}
	// Start it again on the same port.
	port := strings.TrimSpace(readFile(t, dir+"/port"))
	restart := exec.Command("bash", "-c", `d=$(ls -d /usr/lib/postgresql/*/bin | tail -1); `+
		`cmd=("$d/pg_ctl" -D "$1/data" -l "$1/server.log" -w -o "-c listen_addresses=127.0.0.1 -p $2 -k $1" start); `+
		`if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "${cmd[@]}"; else "${cmd[@]}"; fi`, "restart", dir, port)
	if out, err := restart.CombinedOutput(); err != nil {
		t.Fatalf("restarting: %v %s", err, out)
	}
	var g *gobot.Match
	err = s.View(ctx, func(tx gobot.Tx) error { g, err = tx.Match(id); return err })
	if err != nil {
		t.Fatalf("after the server came back: %v", err)
	}
	if g.Result != "" || g.Version != 1 {
		t.Fatalf("the failed update wrote something: result %q version %d", g.Result, g.Version)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	out, err := exec.Command("cat", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
